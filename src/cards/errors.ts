/**
 * The one error class the cards area throws: {@link CardArgumentError}, for
 * a programmer's mistake only.
 *
 * @module
 */
import { initCodedError } from "../_internal/coded_error.ts";

/**
 * Reason codes of {@link CardArgumentError}:
 * - `invalid-options`: `createCardValidator`'s options cannot be read (a
 *   throwing getter, a revoked proxy).
 */
export type CardArgumentErrorCode = "invalid-options";

/**
 * Thrown by `createCardValidator` when its options break the documented
 * contract: a programmer's mistake. Cards and responses are untrusted input
 * and get Results (`validate`, `decodeCardOptions`), never this. A
 * `TypeError` subclass; match on {@link CardArgumentError.code}.
 *
 * @example
 * ```ts
 * import { CardArgumentError, createCardValidator } from "@papercusp/chat-protocol/cards";
 * const { proxy, revoke } = Proxy.revocable({}, {});
 * revoke();
 * try {
 *   createCardValidator(proxy);
 * } catch (e) {
 *   if (e instanceof CardArgumentError) console.log(e.code); // "invalid-options"
 * }
 * ```
 */
export class CardArgumentError extends TypeError {
  /** Stable machine-readable reason. */
  declare readonly code: CardArgumentErrorCode;
  /** Create the error: a stable `code` and one sentence (`message`, not stable). */
  constructor(code: CardArgumentErrorCode, message: string) {
    super(message);
    initCodedError(this, "CardArgumentError", code);
  }
}
