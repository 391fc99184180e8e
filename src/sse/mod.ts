/**
 * sse: a dependency-free Server-Sent Events codec on Web Streams
 * (browser/edge-safe), following WHATWG HTML §9.2.6 "Interpreting an event
 * stream".
 *
 * - Encoder: {@link encodeSseFrame}, {@link encodeSseComment},
 *   {@link sseHeartbeat}, {@link SseEncoderStream}, {@link SseTextEncoderStream},
 *   and {@link encodeChatEnvelopeFrame} for a v1 envelope (`id:` = `eventId`).
 * - Decoder: {@link SseParser} (incremental, callbacks) and
 *   {@link SseDecoderStream} (bytes or text in, {@link SseMessage}s out).
 * - Errors: {@link SseEncodeError} (thrown), {@link SseLimitError} (bounds).
 *
 * @module
 */
export * from "./errors.ts";
export * from "./encoder.ts";
export * from "./encoder_stream.ts";
export * from "./envelope.ts";
export * from "./parser.ts";
export * from "./decoder_stream.ts";
