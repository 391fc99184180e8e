/**
 * The option fields of the SSE decoder, read once each from caller data
 * (shared by `SseParser` and `SseDecoderStream`).
 *
 * @module
 */

/** The `SseDecodeOptions` fields. */
export const DECODE_OPTION_KEYS = [
  "onRetry",
  "onComment",
  "maxLineLength",
  "maxEventLength",
  "lastEventId",
] as const;
