/**
 * The error classes of `./recovery` that are neither a refusal nor an
 * injected fault: {@link LeaseLostError}, the abort reason of a dispatch
 * whose lease could not be kept, and {@link RecoveryArgumentError}, for a
 * programmer's mistake at a reference seam.
 *
 * @module
 */
import { initCodedError } from "../_internal/coded_error.ts";

/**
 * Reason codes of {@link LeaseLostError}:
 * - `lease-not-renewed`: a quarter of the owner's lease was left without a
 *   confirmed renewal, so the dispatch must stop before another worker may
 *   take the effect over.
 */
export type LeaseLostErrorCode = "lease-not-renewed";

/**
 * The `reason` of a dispatch's `AbortSignal` when `TurnRecovery` aborts it
 * because the owner can no longer count on its lease (see
 * `TurnRecoveryOptions.leaseMs`). Never thrown: it is only the abort
 * reason. Match on {@link LeaseLostError.code}.
 *
 * @example
 * ```ts
 * import { LeaseLostError } from "@papercusp/chat-protocol/recovery";
 * function leaseLost(signal: AbortSignal): boolean {
 *   return signal.aborted && signal.reason instanceof LeaseLostError;
 * }
 * ```
 */
export class LeaseLostError extends Error {
  /** Stable machine-readable reason. */
  declare readonly code: LeaseLostErrorCode;
  /** Create the error: a stable `code` and one sentence (`message`, not stable). */
  constructor(code: LeaseLostErrorCode, message: string) {
    super(message);
    initCodedError(this, "LeaseLostError", code);
  }
}

/**
 * Reason codes of {@link RecoveryArgumentError}:
 * - `invalid-notice`: `MemoryCancelDelivery.publish` got a notice it
 *   cannot read (a throwing getter, a revoked proxy).
 */
export type RecoveryArgumentErrorCode = "invalid-notice";

/**
 * What the recovery area's reference seams reject with when an argument
 * breaks their documented contract: a programmer's mistake (`TurnRecovery`
 * itself never passes one). A `TypeError` subclass; match on
 * {@link RecoveryArgumentError.code}.
 *
 * @example
 * ```ts
 * import { MemoryCancelDelivery, RecoveryArgumentError } from "@papercusp/chat-protocol/recovery";
 * const { proxy, revoke } = Proxy.revocable({ turnId: "t1", revision: 2, status: "cancelled", reason: "" } as const, {});
 * revoke();
 * await new MemoryCancelDelivery().publish(proxy).catch((e) => {
 *   if (e instanceof RecoveryArgumentError) console.log(e.code); // "invalid-notice"
 * });
 * ```
 */
export class RecoveryArgumentError extends TypeError {
  /** Stable machine-readable reason. */
  declare readonly code: RecoveryArgumentErrorCode;
  /** Create the error: a stable `code` and one sentence (`message`, not stable). */
  constructor(code: RecoveryArgumentErrorCode, message: string) {
    super(message);
    initCodedError(this, "RecoveryArgumentError", code);
  }
}
