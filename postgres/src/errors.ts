/**
 * The one error class the package throws for an argument of the wrong type
 * (besides `TableOptionsError` for table options): {@link PgArgumentError}.
 *
 * @module
 */

/**
 * Reason codes of {@link PgArgumentError}:
 * - `invalid-option`: a constructor or driver option is out of its
 *   documented range (a timeout, a byte or frame bound, an isolation level);
 * - `invalid-argument`: a method argument is (a `readAfter` cursor, a
 *   `trim` policy, a `list` limit, a grant's actor, a revocation with no field).
 */
export type PgArgumentErrorCode = "invalid-option" | "invalid-argument";

/**
 * Thrown (or rejected with) by the stores, the replay log, the drivers and
 * the notification helpers when an argument breaks the documented contract:
 * a programmer's mistake, never a database failure (that is a
 * `PgDriverError` or a typed refusal). A `TypeError` subclass; match on
 * {@link PgArgumentError.code}.
 *
 * @example
 * ```ts
 * import { PgArgumentError, type PgDriver, PostgresReplayLog } from "@papercusp/chat-protocol-postgres";
 * declare const driver: PgDriver;
 * const log = new PostgresReplayLog(driver);
 * await log.readAfter("t1", -1).catch((e) => e instanceof PgArgumentError && e.code); // "invalid-argument"
 * ```
 */
export class PgArgumentError extends TypeError {
  /** Stable machine-readable reason. */
  readonly code: PgArgumentErrorCode;
  /** Create the error: a stable `code` and one sentence (`message`, not stable). */
  constructor(code: PgArgumentErrorCode, message: string) {
    super(message);
    this.name = "PgArgumentError";
    this.code = code;
  }
}
