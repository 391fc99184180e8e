/**
 * The one error class `./http` throws: {@link HttpArgumentError}, for a
 * programmer's mistake only.
 *
 * @module
 */
import { initCodedError } from "../_internal/coded_error.ts";

/**
 * Reason codes of {@link HttpArgumentError}:
 * - `invalid-turn-id`: `turnSeqEventId` got a `turnId` that is not a
 *   non-empty string;
 * - `invalid-seq`: `turnSeqEventId` got a `seq` that is not a positive safe
 *   integer.
 */
export type HttpArgumentErrorCode = "invalid-turn-id" | "invalid-seq";

/**
 * Thrown by `./http`'s id builder (`turnSeqEventId`) when an argument breaks
 * its documented contract: a programmer's mistake. Requests and cursors are
 * untrusted input and get Results (`readLastEventId`, `parseTurnSeqEventId`),
 * never this. A `TypeError` subclass; match on {@link HttpArgumentError.code}.
 *
 * @example
 * ```ts
 * import { HttpArgumentError, turnSeqEventId } from "@papercusp/chat-protocol/http";
 * try {
 *   turnSeqEventId("", 1);
 * } catch (e) {
 *   if (e instanceof HttpArgumentError) console.log(e.code); // "invalid-turn-id"
 * }
 * ```
 */
export class HttpArgumentError extends TypeError {
  /** Stable machine-readable reason. */
  declare readonly code: HttpArgumentErrorCode;
  /** Create the error: a stable `code` and one sentence (`message`, not stable). */
  constructor(code: HttpArgumentErrorCode, message: string) {
    super(message);
    initCodedError(this, "HttpArgumentError", code);
  }
}
