/**
 * `@papercusp/chat-protocol/sse`: a dependency-free Server-Sent Events codec
 * on Web Streams (browser- and edge-safe), following WHATWG HTML §9.2.6
 * "Interpreting an event stream".
 *
 * - Encoder: {@link encodeSseFrame}, {@link encodeSseComment},
 *   {@link sseHeartbeat}, {@link SseEncoderStream}, {@link SseTextEncoderStream},
 *   and {@link encodeChatEnvelopeFrame} for a v1 envelope (`id:` = `eventId`).
 * - Decoder: {@link SseParser} (incremental, callbacks) and
 *   {@link SseDecoderStream} (bytes or text in, {@link SseMessage}s out).
 * - Errors: {@link SseEncodeError} (thrown for a frame the caller built
 *   wrong), {@link SseArgumentError} (thrown for decoder options or a chunk
 *   of the wrong type), {@link SseLimitError} (a line or event over the
 *   size bound).
 *
 * @example Decode a response body
 * ```ts
 * import { SseDecoderStream } from "@papercusp/chat-protocol/sse";
 * const body = ReadableStream.from([new TextEncoder().encode('id: 1\ndata: {"a":1}\n\n')]);
 * for await (const msg of body.pipeThrough(new SseDecoderStream())) {
 *   console.log(msg.id, msg.data); // "1" '{"a":1}'
 * }
 * ```
 *
 * @module
 */
export {
  SseArgumentError,
  type SseArgumentErrorCode,
  SseEncodeError,
  type SseEncodeErrorCode,
  SseLimitError,
  type SseLimitErrorCode,
} from "./src/sse/errors.ts";
export {
  encodeSseComment,
  encodeSseFrame,
  SSE_HEARTBEAT,
  type SseFrameInput,
  sseHeartbeat,
} from "./src/sse/encoder.ts";
export {
  type SseCommentInput,
  SseEncoderStream,
  type SseStreamInput,
  SseTextEncoderStream,
} from "./src/sse/encoder_stream.ts";
export {
  encodeChatEnvelopeFrame,
  type EncodeChatEnvelopeFrameOptions,
} from "./src/sse/envelope.ts";
export {
  SSE_DEFAULT_MAX_LENGTH,
  type SseDecodeOptions,
  type SseMessage,
  SseParser,
  type SseParserOptions,
} from "./src/sse/parser.ts";
export { SseDecoderStream, type SseDecoderStreamOptions } from "./src/sse/decoder_stream.ts";
