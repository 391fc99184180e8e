/**
 * {@link InteractionArgumentError}: what the reference interaction store
 * rejects with for a programmer's mistake.
 *
 * @module
 */
import { initCodedError } from "../_internal/coded_error.ts";

/**
 * Reason codes of {@link InteractionArgumentError}:
 * - `invalid-next-record`: a `transact` callback's `write` decision carries
 *   a `next` record the store may not write (`nextRecordProblem`: revision
 *   exactly current + 1, same id, authority and `createdAt`, `v` 1);
 * - `foreign-transition`: its `transition` belongs to another interaction.
 */
export type InteractionArgumentErrorCode = "invalid-next-record" | "foreign-transition";

/**
 * What `MemoryInteractionStore.transact` rejects with when its callback
 * returns a decision that cannot be stored; nothing is written. The
 * resolver's callbacks never do (they build `next` themselves): only a
 * caller's own callback can. A `TypeError` subclass; match on
 * {@link InteractionArgumentError.code}.
 *
 * @example
 * ```ts
 * import { InteractionArgumentError } from "@papercusp/chat-protocol/interactions";
 * function why(e: unknown): string | undefined {
 *   return e instanceof InteractionArgumentError ? e.code : undefined;
 * }
 * ```
 */
export class InteractionArgumentError extends TypeError {
  /** Stable machine-readable reason. */
  declare readonly code: InteractionArgumentErrorCode;
  /** Create the error: a stable `code` and one sentence (`message`, not stable). */
  constructor(code: InteractionArgumentErrorCode, message: string) {
    super(message);
    initCodedError(this, "InteractionArgumentError", code);
  }
}
