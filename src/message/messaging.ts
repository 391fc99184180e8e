/**
 * Messaging adapter: a text-only messaging seam (structurally
 * `@titan-design/messaging`) ↔ the message document.
 *
 * @module
 */
import type { ChatMessage } from "./envelope.ts";
import { capDeliveryStatus, type DeliveryState, TRANSPORT_DELIVERY_CEILING } from "./delivery.ts";

/** A message the seam received. `guid` is also the transport's dedupe key. */
export interface MessagingInbound {
  /** The seam only reports messages the server accepted. */
  status: "accepted";
  /** Transport address (phone number, chat handle). */
  handle: string;
  /** Transport message id (also its dedupe key). */
  guid: string;
  /** Message text. */
  text: string;
}
/** What the seam can send: text to a handle (no attachments exist here). */
export interface MessagingSendInput {
  /** Transport address (phone number, chat handle). */
  handle: string;
  /** Message text. */
  text: string;
}
/** The seam's send result. */
export type MessagingSendResult =
  | { ok: true; messageGuid?: string }
  | { ok: false; error: { kind: string } };

/** Envelope facts the caller resolved (handle → participant, clock). */
export interface InboundContext {
  /** Thread resolved for the handle. */
  threadId: string;
  /** Participant resolved for the handle. */
  authorId: string;
  /** ISO-8601 timestamp. */
  createdAt: string;
}

/** What to send, plus the `type` of every part the seam could not carry, in part order. */
export interface OutboundResult {
  /** What the seam sends. */
  send: MessagingSendInput;
  /** `type` of every part that was not sent, in part order. */
  dropped: string[];
}

/**
 * Inbound text → a user message with one `text` part and provenance
 * `{authored:'human'}` (set here, by the broker side, never by the payload).
 * `id` is the transport `guid`.
 *
 * @example
 * ```ts
 * import { fromMessagingInbound } from "@papercusp/chat-protocol/message";
 * const m = fromMessagingInbound(
 *   { status: "accepted", handle: "+1555", guid: "g1", text: "hi" },
 *   { threadId: "th1", authorId: "u1", createdAt: "2026-01-01T00:00:00.000Z" },
 * );
 * ```
 */
export function fromMessagingInbound(
  inbound: MessagingInbound,
  context: InboundContext,
): ChatMessage {
  return {
    id: inbound.guid,
    threadId: context.threadId,
    authorId: context.authorId,
    role: "user",
    createdAt: context.createdAt,
    parts: [{ type: "text", text: inbound.text }],
    provenance: { authored: "human" },
  };
}

/**
 * A message → what the text-only seam sends. Text parts are joined with a
 * blank line; every other part is not sent and its `type` is listed in
 * `dropped` (never lost silently). No length cap is applied.
 *
 * @example
 * ```ts
 * import { type ChatMessage, toMessagingOutbound } from "@papercusp/chat-protocol/message";
 * declare const message: ChatMessage;
 * const { send, dropped } = toMessagingOutbound(message, "+1555");
 * if (dropped.length) console.warn("not sent:", dropped, "sent:", send.text);
 * ```
 */
export function toMessagingOutbound(message: ChatMessage, handle: string): OutboundResult {
  const texts: string[] = [];
  const dropped: string[] = [];
  for (const part of message.parts) {
    if (part.type === "text") texts.push(part.text);
    else dropped.push(part.type);
  }
  return { send: { handle, text: texts.join("\n\n") }, dropped };
}

/**
 * The seam's send result → one recipient's delivery state. Failure →
 * `undeliverable` with `reason` = the error kind; success → `accepted` (the
 * transport ceiling: the seam cannot see delivery or reads). `at` is ISO-8601.
 */
export function deliveryFromSendResult(
  result: MessagingSendResult,
  participantId: string,
  at: string,
): DeliveryState {
  if (!result.ok) {
    return { participantId, status: "undeliverable", at, reason: result.error.kind };
  }
  return { participantId, status: capDeliveryStatus("delivered", TRANSPORT_DELIVERY_CEILING), at };
}
