/**
 * The one error class the v1 wire contract throws:
 * {@link ChatArgumentError}, for a programmer's mistake only.
 *
 * @module
 */
import { initCodedError } from "../_internal/coded_error.ts";

/**
 * Reason codes of {@link ChatArgumentError}:
 * - `invalid-id`: `createChatState` / `new ChatStateFolder` got a
 *   `conversationId` or `turnId` that is not a wire id (non-empty, no CR,
 *   LF, NUL or lone surrogate);
 * - `invalid-registry`: `createExtensionRegistry` got validators that are
 *   not a record of Standard Schemas or functions by extension name, or
 *   options it cannot read;
 * - `invalid-argument`: another argument is not of its documented type
 *   (`utf8ByteLength` of a non-string).
 */
export type ChatArgumentErrorCode = "invalid-id" | "invalid-registry" | "invalid-argument";

/**
 * Thrown by the v1 builders (`createChatState`, `new ChatStateFolder`,
 * `createExtensionRegistry`, `utf8ByteLength`) when an argument breaks
 * their documented contract: a programmer's mistake. Untrusted input has
 * Result-returning readers (`parseChatEnvelope`, `resumeChatState`, …),
 * which never throw.
 *
 * It extends `TypeError`; match on {@link ChatArgumentError.code}.
 *
 * @example
 * ```ts
 * import { ChatArgumentError, createChatState } from "@papercusp/chat-protocol";
 * try {
 *   createChatState("", "t1");
 * } catch (e) {
 *   if (e instanceof ChatArgumentError) console.log(e.code); // "invalid-id"
 * }
 * ```
 */
export class ChatArgumentError extends TypeError {
  /** Stable machine-readable reason. */
  declare readonly code: ChatArgumentErrorCode;
  /** Create the error: a stable `code` and one sentence (`message`, not stable). */
  constructor(code: ChatArgumentErrorCode, message: string) {
    super(message);
    initCodedError(this, "ChatArgumentError", code);
  }
}
