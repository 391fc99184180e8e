/**
 * `@papercusp/chat-protocol/http`: answer an HTTP request with one turn as
 * a stream, in one call, on Web `Request` / `Response` / streams only (Deno,
 * Node ≥ 20, browsers' service workers, edge runtimes).
 *
 * - {@link v1SseResponse}: the turn's v1 envelopes as SSE (`id:` =
 *   `eventId`, `retry:`, heartbeats), resuming after `Last-Event-ID` from
 *   the host's replay window ({@link TurnSource}).
 * - {@link uiMessageStreamResponse}: the same turn as an AI SDK UI message
 *   stream (`x-vercel-ai-ui-message-stream: v1`, `data: [DONE]`),
 *   resumable the way `DefaultChatTransport` resumes.
 * - {@link agUiResponse}: the same turn as AG-UI events over SSE, with
 *   interrupts and resumption.
 * - Refusals ({@link StreamRefusal}) are JSON error responses with a typed
 *   code ({@link streamRefusalResponse}); problems after the stream started
 *   go to `onProblem` ({@link StreamProblem}).
 * - The encoders as `TransformStream`s: {@link ChatEnvelopeSseStream},
 *   {@link UIMessageChunkSseStream}, {@link AgUiEventSseStream}; the
 *   adapters themselves are `V1ToUIMessageChunksStream` (`./ai-sdk`) and
 *   `V1ToAgUiStream` (`./ag-ui`).
 *
 * @example
 * ```ts
 * import { v1SseResponse } from "@papercusp/chat-protocol/http";
 * import { MemoryReplayWindow } from "@papercusp/chat-protocol/recovery";
 * const window = new MemoryReplayWindow();
 * const handler = (req: Request) => v1SseResponse(req, { conversationId: "c1", turnId: "t1", window });
 * ```
 *
 * @module
 */
export {
  STREAM_REFUSAL_STATUS,
  type StreamRefusal,
  streamRefusal,
  type StreamRefusalCode,
  streamRefusalResponse,
} from "./src/http/stream_refusal.ts";
export { type StreamProblem, type StreamProblemCode } from "./src/http/stream_problem.ts";
export { type TurnSource } from "./src/http/turn_source.ts";
export { SSE_HEADERS, UI_MESSAGE_STREAM_HEADERS_V1 } from "./src/http/sse_headers.ts";
export {
  DEFAULT_MAX_LAST_EVENT_ID_LENGTH,
  type LastEventIdOptions,
  readLastEventId,
} from "./src/http/last_event_id.ts";
export {
  parseTurnSeqEventId,
  type TurnSeqCursor,
  turnSeqEventId,
} from "./src/http/turn_seq_event_id.ts";
export { HttpArgumentError, type HttpArgumentErrorCode } from "./src/http/errors.ts";
export { type Continuation } from "./src/http/continuation.ts";
export {
  DEFAULT_HEARTBEAT_MS,
  type StreamResponseOptions,
} from "./src/http/stream_response_options.ts";
export { type CursorResolver } from "./src/http/cursor_resolver.ts";
export {
  DEFAULT_RETRY_MS,
  v1SseResponse,
  type V1SseResponseOptions,
} from "./src/http/v1_sse_response.ts";
export {
  uiMessageStreamResponse,
  type UIMessageStreamResponseOptions,
} from "./src/http/ui_message_stream_response.ts";
export { agUiResponse, type AgUiResponseOptions } from "./src/http/ag_ui_response.ts";
export {
  ChatEnvelopeSseStream,
  type ChatEnvelopeSseStreamOptions,
} from "./src/http/chat_envelope_sse_stream.ts";
export {
  AgUiEventSseStream,
  type JsonSseStreamOptions,
  UIMessageChunkSseStream,
} from "./src/http/json_sse_stream.ts";
