/**
 * The two AI SDK UI message stream adapters, by name: v1 → chunks
 * (`v1_to_ui_message_chunks.ts`) and chunks → v1
 * (`ui_message_chunks_to_v1.ts`). Each adapter lives in its own module;
 * import those directly.
 *
 * @module
 */
export {
  type V1EnvelopeRefusal,
  type V1ToChunksOptions,
  type V1ToChunksResult,
  V1ToUIMessageChunks,
  v1ToUIMessageChunks,
} from "./v1_to_ui_message_chunks.ts";
export {
  type ChunksToV1Options,
  type ChunksToV1Result,
  UIMessageChunksToV1,
  uiMessageChunksToV1,
  type V1IdAllocator,
} from "./ui_message_chunks_to_v1.ts";
