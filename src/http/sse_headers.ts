/**
 * The response headers of the stream helpers: an SSE stream
 * ({@link SSE_HEADERS}) and the AI SDK's UI message stream
 * ({@link UI_MESSAGE_STREAM_HEADERS_V1}: the same plus
 * `x-vercel-ai-ui-message-stream: v1`, which the AI SDK's clients
 * recognise).
 *
 * @module
 */

/**
 * Headers of an SSE response: `content-type: text/event-stream`,
 * `cache-control: no-cache`, `connection: keep-alive` (HTTP/1.1 servers
 * send it; HTTP/2 and HTTP/3 servers drop connection-specific headers),
 * `x-accel-buffering: no` (nginx: do not buffer the stream).
 */
export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  "connection": "keep-alive",
  "x-accel-buffering": "no",
});

/** {@link SSE_HEADERS} plus `x-vercel-ai-ui-message-stream: v1` (the AI SDK's UI message stream). */
export const UI_MESSAGE_STREAM_HEADERS_V1: Readonly<Record<string, string>> = Object.freeze({
  ...SSE_HEADERS,
  "x-vercel-ai-ui-message-stream": "v1",
});
