/**
 * Messaging adapter: a text-only messaging seam (structurally
 * `@titan-design/messaging`) ↔ the message document.
 *
 * @module
 */
import type { ChatMessage } from "./envelope.ts";
import type { ChatPart, TextPart } from "./parts.ts";
import { readArgument } from "./_read_argument.ts";
import { MessageArgumentError } from "./errors.ts";
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
 * `id` is the transport `guid`. Fields are read once and not validated;
 * throws {@link MessageArgumentError} (`invalid-argument`) when `inbound` or
 * `context` is not an object that can be read.
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
  const i = readArgument(inbound, ["guid", "text"] as const, "the inbound message");
  const c = readArgument(context, ["threadId", "authorId", "createdAt"] as const, "the context");
  return {
    id: i.guid,
    threadId: c.threadId,
    authorId: c.authorId,
    role: "user",
    createdAt: c.createdAt,
    parts: [{ type: "text", text: i.text }],
    provenance: { authored: "human" },
  } as ChatMessage;
}

/**
 * A message → what the text-only seam sends. Text parts are joined with a
 * blank line; every other part is not sent and its `type` is listed in
 * `dropped` (never lost silently). No length cap is applied. Throws
 * {@link MessageArgumentError} (`invalid-argument`) when `message.parts` is
 * not an array of readable parts (each with a string `type`, a text part
 * with a string `text`).
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
  const read = readOutboundParts(message);
  if (read === null) {
    throw new MessageArgumentError(
      "invalid-argument",
      "the message's parts could not be read as parts (a string type; a string text on text parts)",
    );
  }
  return { send: { handle, text: read.texts.join("\n\n") }, dropped: read.dropped };
}

/**
 * The texts of `message`'s text parts and the `type` of every other part,
 * in part order; `null` when `parts` is not an array of readable parts (a
 * non-string `type` or text, a throwing getter, a revoked proxy).
 */
function readOutboundParts(message: ChatMessage): { texts: string[]; dropped: string[] } | null {
  const texts: string[] = [];
  const dropped: string[] = [];
  try {
    const parts: unknown = message.parts;
    if (!Array.isArray(parts)) return null;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] as ChatPart;
      const type: unknown = part.type;
      const value: unknown = type === "text" ? (part as TextPart).text : type;
      if (typeof value !== "string") return null;
      if (type === "text") texts.push(value);
      else dropped.push(value);
    }
  } catch {
    return null;
  }
  return { texts, dropped };
}

/**
 * The seam's send result → one recipient's delivery state. Failure →
 * `undeliverable` with `reason` = the error kind; success → `accepted` (the
 * transport ceiling: the seam cannot see delivery or reads). `at` is ISO-8601.
 * Throws {@link MessageArgumentError} (`invalid-argument`) when `result`
 * cannot be read.
 *
 * @example
 * ```ts
 * import { deliveryFromSendResult } from "@papercusp/chat-protocol/message";
 * deliveryFromSendResult({ ok: true }, "u1", "2026-01-01T00:00:00.000Z").status; // "accepted"
 * ```
 */
export function deliveryFromSendResult(
  result: MessagingSendResult,
  participantId: string,
  at: string,
): DeliveryState {
  let failure: { kind: unknown } | undefined;
  try {
    failure = result.ok ? undefined : { kind: result.error.kind };
  } catch {
    throw new MessageArgumentError("invalid-argument", "the send result could not be read");
  }
  if (failure !== undefined) {
    return { participantId, status: "undeliverable", at, reason: failure.kind as string };
  }
  return { participantId, status: capDeliveryStatus("delivered", TRANSPORT_DELIVERY_CEILING), at };
}
