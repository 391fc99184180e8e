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
import type { Citation, ProviderMetadata } from "./parts.ts";
import { isRecord } from "../_internal/guards.ts";
import { FINISH_REASONS } from "./_finish_reasons.ts";

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

type Kind = "string" | "boolean" | "any" | "object" | "array" | "number";
type Spec = { req: Record<string, Kind>; opt: Record<string, Kind> };

const PMO = { providerMetadata: "object" } as const;
const TOOL_OPT = {
  providerExecuted: "boolean",
  providerMetadata: "object",
  toolMetadata: "object",
  dynamic: "boolean",
  title: "string",
} as const;

const SPECS: Record<string, Spec> = {
  "start": { req: {}, opt: { messageId: "string", messageMetadata: "any" } },
  "finish": { req: {}, opt: { finishReason: "string", messageMetadata: "any" } },
  "abort": { req: {}, opt: { reason: "string" } },
  "message-metadata": { req: { messageMetadata: "any" }, opt: {} },
  "error": { req: { errorText: "string" }, opt: {} },
  "start-step": { req: {}, opt: {} },
  "finish-step": { req: {}, opt: {} },
  "reset-step": { req: {}, opt: {} },
  "text-start": { req: { id: "string" }, opt: PMO },
  "text-delta": { req: { id: "string", delta: "string" }, opt: PMO },
  "text-end": { req: { id: "string" }, opt: { ...PMO, citations: "array" } },
  "reasoning-start": { req: { id: "string" }, opt: PMO },
  "reasoning-delta": { req: { id: "string", delta: "string" }, opt: PMO },
  "reasoning-end": { req: { id: "string" }, opt: PMO },
  "tool-input-start": {
    req: { toolCallId: "string", toolName: "string" },
    opt: { ...TOOL_OPT, inputEncoding: "string" },
  },
  "tool-input-delta": { req: { toolCallId: "string", inputTextDelta: "string" }, opt: {} },
  "tool-input-available": {
    req: { toolCallId: "string", toolName: "string", input: "any" },
    opt: TOOL_OPT,
  },
  "tool-input-error": {
    req: { toolCallId: "string", toolName: "string", input: "any", errorText: "string" },
    opt: TOOL_OPT,
  },
  "tool-approval-request": {
    req: { approvalId: "string", toolCallId: "string" },
    opt: {
      approvalDescriptor: "any",
      inputSchemaInput: "any",
      reason: "string",
      isAutomatic: "boolean",
      signature: "string",
    },
  },
  "tool-approval-response": {
    req: { approvalId: "string", approved: "boolean" },
    opt: { reason: "string", providerExecuted: "boolean", providerMetadata: "object" },
  },
  "tool-output-available": {
    req: { toolCallId: "string", output: "any" },
    opt: { ...TOOL_OPT, preliminary: "boolean" },
  },
  "tool-output-error": { req: { toolCallId: "string", errorText: "string" }, opt: TOOL_OPT },
  "tool-output-denied": { req: { toolCallId: "string" }, opt: {} },
  "source-url": { req: { sourceId: "string", url: "string" }, opt: { ...PMO, title: "string" } },
  "source-document": {
    req: { sourceId: "string", mediaType: "string", title: "string" },
    opt: { ...PMO, filename: "string" },
  },
  "file": { req: { url: "string", mediaType: "string" }, opt: PMO },
};
const DATA_SPEC: Spec = { req: { data: "any" }, opt: { id: "string", transient: "boolean" } };

/** `ai@7` chunk types this document does not carry (no part type for them). */
export const UNSUPPORTED_CHUNK_TYPES: readonly string[] = [
  "custom",
  "reasoning-file",
  "steering-message",
];

function kindOk(v: unknown, k: Kind): boolean {
  switch (k) {
    case "string":
      return typeof v === "string";
    case "boolean":
      return typeof v === "boolean";
    case "number":
      return typeof v === "number" && Number.isFinite(v);
    case "array":
      return Array.isArray(v);
    case "object":
      return isRecord(v);
    default:
      return true;
  }
}

/**
 * Check one untrusted value against the chunk shapes. Returns `null` when it
 * is a valid {@link UIMessageChunk}, otherwise a one-line reason. Only own
 * properties count (an inherited `type` is no `type`). O(number of fields).
 */
export function checkUIMessageChunk(value: unknown): string | null {
  if (!isRecord(value)) {
    return "chunk is not an object";
  }
  const o = value as Record<string, unknown>;
  if (!Object.hasOwn(o, "type") || typeof o.type !== "string") return "chunk has no string type";
  const type = o.type;
  let spec: Spec | undefined;
  if (Object.hasOwn(SPECS, type)) spec = SPECS[type];
  else if (type.startsWith("data-") && type.length > 5) spec = DATA_SPEC;
  if (spec === undefined) {
    return UNSUPPORTED_CHUNK_TYPES.includes(type)
      ? `chunk type ${type} has no part in this document`
      : `unknown chunk type ${JSON.stringify(type.slice(0, 64))}`;
  }
  for (const f in spec.req) {
    // as in the AI SDK, a required key must be present (its value may be anything for `any`)
    if (!Object.hasOwn(o, f)) return `${type} chunk lacks ${f}`;
    if (!kindOk(o[f], spec.req[f])) return `${type} chunk has a bad ${f}`;
  }
  for (const f in spec.opt) {
    if (Object.hasOwn(o, f) && o[f] !== undefined && !kindOk(o[f], spec.opt[f])) {
      return `${type} chunk has a bad ${f}`;
    }
  }
  if (Object.hasOwn(o, "providerMetadata") && o.providerMetadata !== undefined) {
    const pm = o.providerMetadata as Record<string, unknown>;
    for (const k of Object.keys(pm)) {
      if (!kindOk(pm[k], "object")) return `${type} chunk has a bad providerMetadata entry`;
    }
  }
  if (
    type === "finish" && o.finishReason !== undefined &&
    !FINISH_REASONS.has(o.finishReason as string)
  ) {
    return "finish chunk has an unknown finishReason";
  }
  if (
    type === "tool-input-start" && o.inputEncoding !== undefined &&
    o.inputEncoding !== "json" && o.inputEncoding !== "text"
  ) return "tool-input-start chunk has a bad inputEncoding";
  return null;
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
  return checkUIMessageChunk(value) === null;
}

/** A problem found while reading a capture or folding a stream. */
export interface ChunkIssue {
  /** 0-based index of the offending chunk (or SSE event) in its stream; -1 for a fold's `options.message`. */
  index: number;
  /**
   * Stable machine-readable reason. `invalid-event-id` comes only from
   * {@link UIMessageChunksToV1}: the host's `nextEventId()` returned a
   * non-string, an empty string or an id it had already returned, or threw
   * (or its `conversationId` / `turnId` or `now()` clock was unusable).
   */
  code:
    | "invalid-json"
    | "invalid-chunk"
    | "unsupported-chunk"
    | "orphan-chunk"
    | "limit"
    | "invalid-event-id";
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
  /** Refuse bodies longer than this many UTF-16 code units (default 64 MiB). */
  maxChars?: number;
}

/**
 * Recognise an AI SDK UI message stream capture (the SSE body that
 * `toUIMessageStreamResponse()` serves) and summarise it. Returns `null` when
 * `text` is not one: no `data:` events, or fewer than half of them are valid
 * chunks (or `[DONE]`). Never throws.
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
  if (text.length > (options.maxChars ?? 64 * 1024 * 1024)) return null;
  const chunks: UIMessageChunk[] = [];
  const issues: ChunkIssue[] = [];
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
    const why = checkUIMessageChunk(value);
    if (why !== null) {
      issues.push({ index, code: "invalid-chunk", message: why });
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
