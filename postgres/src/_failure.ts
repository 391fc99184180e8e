/**
 * A database failure as a typed refusal, shared by the stores and
 * `migrate`. Area-private.
 *
 * @module
 */
import type { Refusal } from "@papercusp/chat-protocol";
import { type PgCommitOutcome, PgDriverError, type PgErrorKind } from "./driver.ts";

/** A refusal that carries the driver's classification of a failure. */
export interface DriverFailure<C extends string> extends Refusal<C> {
  /** The driver's error kind. */
  readonly kind: PgErrorKind;
  /** Whether the work may have committed. */
  readonly commit: PgCommitOutcome;
}

/**
 * `e` (a {@link PgDriverError}) as `{ ok: false, error: { code, message,
 * kind, commit } }`, the message saying `what` failed. Anything else is
 * rethrown unchanged: it is not a database failure (e.g. a bug, or the
 * caller's own error).
 */
export function driverFailure<C extends string>(
  e: unknown,
  code: C,
  what: string,
): { readonly ok: false; readonly error: DriverFailure<C> } {
  if (!(e instanceof PgDriverError)) throw e;
  return {
    ok: false,
    error: { code, message: `${what} failed: ${e.message}`, kind: e.kind, commit: e.commit },
  };
}
