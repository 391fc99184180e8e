/**
 * `@papercusp/chat-protocol/ai-sdk`: the AI SDK (`ai@7`) UI message stream.
 *
 * - Chunks: the {@link UIMessageChunk} union, {@link isUIMessageChunk} /
 *   {@link checkUIMessageChunk}, {@link detectAiSdkStream} for a capture.
 * - The linear fold {@link foldUIMessage} / {@link UIMessageFold}: chunks in,
 *   a {@link UIMessage} out, equal to the AI SDK's `readUIMessageStream` on
 *   real captures, with every problem reported as an issue instead of thrown.
 * - v1 ⇄ UI message stream: {@link v1ToUIMessageChunks} /
 *   {@link V1ToUIMessageChunks} (serve `useChat` from v1 envelopes) and
 *   {@link uiMessageChunksToV1} / {@link UIMessageChunksToV1} (v1 envelopes
 *   from an AI SDK stream, with host-allocated ids).
 *
 * @example
 * ```ts
 * import { foldUIMessage, v1ToUIMessageChunks } from "@papercusp/chat-protocol/ai-sdk";
 * const envelopes = [
 *   { schemaVersion: 1, conversationId: "c1", turnId: "t1", eventId: "e1", seq: 1, event: { type: "delta", text: "Hello" } },
 *   { schemaVersion: 1, conversationId: "c1", turnId: "t1", eventId: "e2", seq: 2, event: { type: "done" } },
 * ];
 * v1ToUIMessageChunks(envelopes).chunks.map((c) => c.type); // start, start-step, text-start, text-delta, text-end, finish-step, finish
 * foldUIMessage(envelopes).message.parts; // [{ type: "step-start" }, { type: "text", text: "Hello", state: "done" }]
 * ```
 *
 * @module
 */
export {
  type AiSdkStreamSummary,
  checkUIMessageChunk,
  type ChunkIssue,
  type ChunkToolMetadata,
  detectAiSdkStream,
  type DetectOptions,
  isUIMessageChunk,
  type UIMessageChunk,
  type UIMessageChunkType,
  UNSUPPORTED_CHUNK_TYPES,
  type WithProviderMetadata,
} from "./src/ai_sdk/chunks.ts";
export {
  type V1EnvelopeRefusal,
  type V1ToChunksOptions,
  type V1ToChunksResult,
  type V1ToChunksStreamOptions,
  V1ToUIMessageChunks,
  v1ToUIMessageChunks,
  V1ToUIMessageChunksStream,
} from "./src/ai_sdk/v1_to_ui_message_chunks.ts";
export {
  type ChunksToV1Options,
  type ChunksToV1Result,
  UIMessageChunksToV1,
  uiMessageChunksToV1,
  type V1IdAllocator,
} from "./src/ai_sdk/ui_message_chunks_to_v1.ts";
export {
  type FinishReason,
  type FoldOptions,
  type FoldResult,
  foldUIMessage,
  foldUIMessageChunks,
  foldUIMessageStream,
  UIMessageFold,
} from "./src/ai_sdk/fold.ts";
