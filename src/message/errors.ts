/**
 * The one error class the message document throws:
 * {@link MessageArgumentError}, for a programmer's mistake only.
 *
 * @module
 */
import { initCodedError } from "../_internal/coded_error.ts";

/**
 * Reason codes of {@link MessageArgumentError}:
 * - `invalid-argument`: an argument cannot be read as its documented type
 *   (not an object, a `parts` that is not an array, a getter or proxy trap
 *   that throws);
 * - `invalid-attestation`: `markHumanEndorsed` got an `attestedBy` that is
 *   not a non-empty string;
 * - `unknown-gate-status` / `invalid-gate`: `fromHitlGate` got a row that
 *   breaks `GateSnapshot` (see `GateRefusal`).
 */
export type MessageArgumentErrorCode =
  | "invalid-argument"
  | "invalid-attestation"
  | "unknown-gate-status"
  | "invalid-gate";

/**
 * Thrown by the message document's typed builders (`markHumanEndorsed`,
 * `fromHitlGate`, `toUIMessage`, `fromUIMessage`, the messaging adapter)
 * when an argument breaks their documented contract: a
 * programmer's mistake, as Deno std throws a `TypeError` for one. Those
 * functions throw nothing else, whatever they are given (hostile objects
 * included). Untrusted input has Result-returning forms beside them
 * (`parseChatMessage`, `parseInboundChatMessage`, `endorseAgentMessage`,
 * `parseHitlGate`, `createDataPart`), which never throw; `toHitlAnswer` /
 * `toHitlAnswers` read request bodies and never throw at all.
 *
 * It extends `TypeError`; match on {@link MessageArgumentError.code}.
 *
 * @example
 * ```ts
 * import { markHumanEndorsed, MessageArgumentError } from "@papercusp/chat-protocol/message";
 * try {
 *   markHumanEndorsed({
 *     id: "m1", threadId: "t1", authorId: "agent:a", role: "assistant",
 *     createdAt: "2026-01-01T00:00:00.000Z", parts: [],
 *   }, "");
 * } catch (e) {
 *   if (e instanceof MessageArgumentError) console.log(e.code); // "invalid-attestation"
 * }
 * ```
 */
export class MessageArgumentError extends TypeError {
  /** Stable machine-readable reason. */
  declare readonly code: MessageArgumentErrorCode;
  /** Create the error: a stable `code` and one sentence (`message`, not stable). */
  constructor(code: MessageArgumentErrorCode, message: string) {
    super(message);
    initCodedError(this, "MessageArgumentError", code);
  }
}
