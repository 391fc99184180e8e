/**
 * A {@link ChatMessage} ⇄ a `UIMessage`: drop the envelope
 * ({@link toUIMessage}) or wrap a `UIMessage` in one ({@link fromUIMessage}).
 * No zod at runtime: the message's types come from `envelope.ts` as types
 * only.
 *
 * @module
 */
import { isRecord } from "../_internal/guards.ts";
import { readArgument } from "./_read_argument.ts";
import type { ChatMessage, Provenance } from "./envelope.ts";
import type { DeliveryState } from "./delivery.ts";
import type { UIMessage } from "./parts.ts";

/** The envelope fields of a {@link ChatMessage} (everything a `UIMessage` lacks). */
export type ChatEnvelope = Omit<ChatMessage, "id" | "role" | "parts" | "metadata">;

/**
 * Drop the envelope: `{id, role, parts, metadata?}` (new object, same parts
 * array). `metadata` is copied only when present. Each field is read once;
 * throws {@link MessageArgumentError} (`invalid-argument`) when `message`
 * is not an object that can be read.
 *
 * @example
 * ```ts
 * import { toUIMessage, type ChatMessage } from "@papercusp/chat-protocol/message";
 * const m: ChatMessage = {
 *   id: "m1", threadId: "t1", authorId: "agent:a", role: "assistant",
 *   createdAt: "2026-01-01T00:00:00.000Z", parts: [{ type: "text", text: "Hi" }],
 * };
 * toUIMessage(m); // { id: "m1", role: "assistant", parts: [{ type: "text", text: "Hi" }] }
 * ```
 */
export function toUIMessage(message: ChatMessage): UIMessage {
  const m = readArgument(message, ["id", "role", "parts", "metadata"] as const, "the message");
  const ui = { id: m.id, role: m.role, parts: m.parts } as UIMessage;
  if (m.metadata !== undefined) ui.metadata = m.metadata;
  return ui;
}

/**
 * Wrap a {@link UIMessage} in an envelope. Picks `id`, `role`, `parts` and
 * `metadata` (when it is a plain object) from `ui` explicitly, so a smuggled
 * `provenance` on `ui` is ignored. The `envelope` is trusted and copied as
 * given (its `provenance` and `delivery` included, not validated): build it
 * from broker state, never from what a transport sent, and mint endorsements
 * only with {@link markHumanEndorsed}. Each field is read once; throws
 * {@link MessageArgumentError} (`invalid-argument`) when `ui` or `envelope`
 * is not an object that can be read.
 */
export function fromUIMessage(ui: UIMessage, envelope: ChatEnvelope): ChatMessage {
  const u = readArgument(ui, ["id", "role", "parts", "metadata"] as const, "the UI message");
  const e = readArgument(
    envelope,
    ["threadId", "authorId", "createdAt", "inReplyTo", "provenance", "delivery"] as const,
    "the envelope",
  );
  const m = {
    threadId: e.threadId,
    authorId: e.authorId,
    createdAt: e.createdAt,
    id: u.id,
    role: u.role,
    parts: u.parts,
  } as ChatMessage;
  if (e.inReplyTo !== undefined) m.inReplyTo = e.inReplyTo as string;
  if (e.provenance !== undefined) m.provenance = e.provenance as Provenance;
  if (e.delivery !== undefined) m.delivery = e.delivery as DeliveryState[];
  if (isPlainRecord(u.metadata)) m.metadata = u.metadata;
  return m;
}

/** A non-array object (`false` for a revoked proxy). */
function isPlainRecord(v: unknown): v is Record<string, unknown> {
  try {
    return isRecord(v);
  } catch {
    return false;
  }
}
