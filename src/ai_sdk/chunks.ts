/**
 * AI SDK UI message stream chunks (`ai@7.0.173`'s `UIMessageChunk`), a fast
 * structural validator for them, and a recogniser for captured AI SDK SSE
 * bodies.
 *
 * The wire format is the AI SDK's: each chunk is one SSE `data:` line holding
 * a JSON object, the stream ends with `data: [DONE]`. Chunk objects are
 * "loose" as in the AI SDK: unknown keys are allowed and ignored.
 *
 * @module
 */
import type { Citation, ProviderMetadata } from "../message/parts.ts";
import type { ChatOrderingCode, ChatOrderingDetail } from "../v1/types.ts";
import { type ChunkProblemSlot, readChunk } from "./_chunk_reader.ts";
import { readOptions } from "../_internal/fields.ts";
import { limitOption } from "./_limits.ts";

export { UNSUPPORTED_CHUNK_TYPES } from "./_chunk_reader.ts";

/** The optional `providerMetadata` field many chunks carry. */
export type WithProviderMetadata = {
  /** Provider-specific metadata, kept verbatim. */
  providerMetadata?: ProviderMetadata;
};
/** Tool metadata on tool chunks (JSON values by key). */
export type ChunkToolMetadata = Record<string, unknown>;

/** A UI message stream chunk this package understands (the `ai@7` set). */
export type UIMessageChunk =
  | { type: "start"; messageId?: string; messageMetadata?: unknown }
  | {
    type: "finish";
    finishReason?:
      | "stop"
      | "length"
      | "content-filter"
      | "tool-calls"
      | "error"
      | "interrupted"
      | "other";
    messageMetadata?: unknown;
  }
  | { type: "abort"; reason?: string }
  | { type: "message-metadata"; messageMetadata: unknown }
  | { type: "error"; errorText: string }
  | { type: "start-step" }
  | { type: "finish-step" }
  | { type: "reset-step" }
  | ({ type: "text-start"; id: string } & WithProviderMetadata)
  | ({ type: "text-delta"; id: string; delta: string } & WithProviderMetadata)
  | ({ type: "text-end"; id: string; citations?: Citation[] } & WithProviderMetadata)
  | ({ type: "reasoning-start"; id: string } & WithProviderMetadata)
  | ({ type: "reasoning-delta"; id: string; delta: string } & WithProviderMetadata)
  | ({ type: "reasoning-end"; id: string } & WithProviderMetadata)
  | ({
    type: "tool-input-start";
    toolCallId: string;
    toolName: string;
    inputEncoding?: "json" | "text";
    providerExecuted?: boolean;
    toolMetadata?: ChunkToolMetadata;
    dynamic?: boolean;
    title?: string;
  } & WithProviderMetadata)
  | { type: "tool-input-delta"; toolCallId: string; inputTextDelta: string }
  | ({
    type: "tool-input-available";
    toolCallId: string;
    toolName: string;
    input: unknown;
    providerExecuted?: boolean;
    toolMetadata?: ChunkToolMetadata;
    dynamic?: boolean;
    title?: string;
  } & WithProviderMetadata)
  | ({
    type: "tool-input-error";
    toolCallId: string;
    toolName: string;
    input: unknown;
    errorText: string;
    providerExecuted?: boolean;
    toolMetadata?: ChunkToolMetadata;
    dynamic?: boolean;
    title?: string;
  } & WithProviderMetadata)
  | {
    type: "tool-approval-request";
    approvalId: string;
    toolCallId: string;
    approvalDescriptor?: unknown;
    inputSchemaInput?: unknown;
    reason?: string;
    isAutomatic?: boolean;
    signature?: string;
  }
  | ({
    type: "tool-approval-response";
    approvalId: string;
    approved: boolean;
    reason?: string;
    providerExecuted?: boolean;
  } & WithProviderMetadata)
  | ({
    type: "tool-output-available";
    toolCallId: string;
    output: unknown;
    providerExecuted?: boolean;
    toolMetadata?: ChunkToolMetadata;
    dynamic?: boolean;
    preliminary?: boolean;
  } & WithProviderMetadata)
  | ({
    type: "tool-output-error";
    toolCallId: string;
    errorText: string;
    providerExecuted?: boolean;
    toolMetadata?: ChunkToolMetadata;
    dynamic?: boolean;
  } & WithProviderMetadata)
  | { type: "tool-output-denied"; toolCallId: string }
  | ({ type: "source-url"; sourceId: string; url: string; title?: string } & WithProviderMetadata)
  | ({
    type: "source-document";
    sourceId: string;
    mediaType: string;
    title: string;
    filename?: string;
  } & WithProviderMetadata)
  | ({ type: "file"; url: string; mediaType: string } & WithProviderMetadata)
  | { type: `data-${string}`; id?: string; data: unknown; transient?: boolean };

/** The `type` strings of {@link UIMessageChunk} (data chunks as `data-*`). */
export type UIMessageChunkType = UIMessageChunk["type"];

/**
 * Check one untrusted value against the chunk shapes. Returns `null` when it
 * is a valid {@link UIMessageChunk}, otherwise a one-line reason (not stable:
 * do not match on it). Only own properties count (an inherited `type` is no
 * `type`); each is read once, and a value whose getters or proxy traps
 * throw is refused, never thrown. O(number of fields).
 *
 * @example
 * ```ts
 * import { checkUIMessageChunk } from "@papercusp/chat-protocol/ai-sdk";
 * checkUIMessageChunk({ type: "text-delta", id: "t1" }); // "text-delta chunk lacks delta"
 * ```
 */
export function checkUIMessageChunk(value: unknown): string | null {
  const slot: ChunkProblemSlot = { problem: null };
  readChunk(value, slot);
  return slot.problem === null ? null : slot.problem.message;
}

/**
 * True when `value` is a structurally valid {@link UIMessageChunk} (the
 * shapes of `ai@7.0.173`'s `uiMessageChunkSchema`, minus the `custom`,
 * `reasoning-file` and `steering-message` kinds). Never throws.
 *
 * @example
 * ```ts
 * import { isUIMessageChunk } from "@papercusp/chat-protocol/ai-sdk";
 * isUIMessageChunk({ type: "text-delta", id: "t1", delta: "Hi" }); // true
 * isUIMessageChunk({ type: "text-delta", id: "t1" }); // false
 * ```
 */
export function isUIMessageChunk(value: unknown): value is UIMessageChunk {
  const slot: ChunkProblemSlot = { problem: null };
  readChunk(value, slot);
  return slot.problem === null;
}

/**
 * A problem found while reading a capture or folding a stream. Folding v1
 * envelopes, an ordering verdict carries the envelope's position
 * ({@link ChatOrderingDetail}: `seq`, `eventId`, `eventType`, and
 * `expectedSeq` for `gap` / `reordered` / `duplicate`, `expected` /
 * `received` for `foreign-*`); so does any other refusal of an envelope.
 */
export interface ChunkIssue extends ChatOrderingDetail {
  /** 0-based index of the offending chunk (or SSE event) in its stream; -1 for a fold's `options.message`. */
  index: number;
  /**
   * Stable machine-readable reason:
   * - `invalid-json`: an SSE event's data is not JSON;
   * - `invalid-chunk`: not a chunk (not an object, no string `type`, an
   *   unknown type, a required field missing, of the wrong kind or
   *   unreadable): skipped;
   * - `invalid-field`: an optional field is of the wrong kind, unknown
   *   (`finishReason`, `inputEncoding`), a `providerMetadata` entry that is
   *   not an object, or unreadable: the chunk is applied without it (as the
   *   AI SDK's fold applies it);
   * - `unsupported-chunk`: an `ai@7` kind without a part in this document
   *   (or, converting to v1, without a v1 event): skipped;
   * - `orphan-chunk`: refers to a part or tool call that does not exist;
   * - `limit`: a configured bound was reached;
   * - `invalid-option`: an option is not usable (e.g. `maxParts: NaN`): its
   *   default applies; index -1;
   * - `invalid-event-id`: only from {@link UIMessageChunksToV1}: the host's
   *   `nextEventId()` returned a non-string, an empty string or an id it had
   *   already returned, or threw (or its `conversationId` / `turnId` or
   *   `now()` clock was unusable);
   * - `gap` / `duplicate` / `reordered` / `foreign-conversation` /
   *   `foreign-turn`: folding v1 envelopes, the v1 ordering verdicts, in
   *   the words and with the policy of `foldChatState` (a whole stream: a
   *   reorder window of 32 envelopes; see docs/wire.md, "One ordering
   *   policy"); `invalid-chunk` for the other refusals of an envelope;
   * - `not-json`: only from {@link UIMessageChunksToV1}: a tool input or
   *   output that is not JSON data (a `bigint`, a cycle, a `Map`, a `Date`,
   *   a function, …); the v1 event is sent without it.
   */
  code:
    | "invalid-json"
    | "invalid-chunk"
    | "invalid-field"
    | "unsupported-chunk"
    | "orphan-chunk"
    | "limit"
    | "invalid-option"
    | "invalid-event-id"
    | "not-json"
    | ChatOrderingCode;
  /** One human-readable sentence; not stable, do not match on it. */
  message: string;
}

/** Summary of a recognised AI SDK UI message stream capture. */
export interface AiSdkStreamSummary {
  /** The valid chunks, in order. */
  chunks: UIMessageChunk[];
  /** Bad events (index = 0-based position among the `data:` events). */
  issues: ChunkIssue[];
  /** True when the capture ends with the `data: [DONE]` terminator. */
  done: boolean;
  /** `messageId` of the first `start` chunk, if any. */
  messageId?: string;
  /** Chunk counts by type. */
  counts: Record<string, number>;
}

/** Limits for {@link detectAiSdkStream}. */
export interface DetectOptions {
  /**
   * Refuse bodies longer than this many UTF-16 code units (default 64 Mi =
   * 67 108 864). A value that is not a non-negative number (`NaN`, a
   * string, a getter that throws) is not used: the default applies and an
   * `invalid-option` issue (index -1) says so.
   */
  maxChars?: number;
}

const DEFAULT_DETECT_MAX_CHARS = 64 * 1024 * 1024;

/**
 * Recognise an AI SDK UI message stream capture (the SSE body that
 * `toUIMessageStreamResponse()` serves) and summarise it. Returns `null` when
 * `text` is not one: no `data:` events, or fewer than half of them are valid
 * chunks (or `[DONE]`), or longer than `options.maxChars`. Never throws.
 *
 * @example
 * ```ts
 * import { detectAiSdkStream, foldUIMessageChunks } from "@papercusp/chat-protocol/ai-sdk";
 * const summary = detectAiSdkStream(await Deno.readTextFile("capture.sse"));
 * if (summary) console.log(foldUIMessageChunks(summary.chunks).message);
 * ```
 */
export function detectAiSdkStream(
  text: string,
  options: DetectOptions = {},
): AiSdkStreamSummary | null {
  if (typeof text !== "string") return null;
  const issues: ChunkIssue[] = [];
  const read = readOptions(options, ["maxChars"] as const);
  let maxChars = read === null ? null : limitOption(read.maxChars, DEFAULT_DETECT_MAX_CHARS);
  if (maxChars === null) {
    maxChars = DEFAULT_DETECT_MAX_CHARS;
    issues.push({
      index: -1,
      code: "invalid-option",
      message: `options.maxChars is not a non-negative number; the default ${maxChars} applies`,
    });
  }
  if (text.length > maxChars) return null;
  const chunks: UIMessageChunk[] = [];
  const slot: ChunkProblemSlot = { problem: null };
  const counts: Record<string, number> = Object.create(null);
  let done = false;
  let events = 0;
  let good = 0;
  let messageId: string | undefined;
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  for (const block of body.split(/\r\n\r\n|\n\n|\r\r/)) {
    let data: string | undefined;
    for (const line of block.split(/\r\n|\n|\r/)) {
      if (line.startsWith("data:")) {
        const v = line.slice(line.charCodeAt(5) === 32 ? 6 : 5);
        data = data === undefined ? v : `${data}\n${v}`;
      }
    }
    if (data === undefined) continue;
    const index = events++;
    if (data === "[DONE]") {
      done = true;
      good++;
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      issues.push({ index, code: "invalid-json", message: "data is not JSON" });
      continue;
    }
    readChunk(value, slot);
    if (slot.problem !== null) {
      issues.push({ index, code: slot.problem.code, message: slot.problem.message });
      continue;
    }
    good++;
    const chunk = value as UIMessageChunk;
    chunks.push(chunk);
    counts[chunk.type] = (counts[chunk.type] ?? 0) + 1;
    if (chunk.type === "start" && messageId === undefined && chunk.messageId !== undefined) {
      messageId = chunk.messageId;
    }
  }
  if (events === 0 || good * 2 < events) return null;
  const summary: AiSdkStreamSummary = { chunks, issues, done, counts: { ...counts } };
  if (messageId !== undefined) summary.messageId = messageId;
  return summary;
}
