/**
 * {@link uiMessageStreamResponse}: answer an HTTP request with one turn as
 * an AI SDK UI message stream (what `useChat` / `DefaultChatTransport`
 * read).
 *
 * @module
 */
import { V1ToUIMessageChunks } from "../ai_sdk/v1_to_ui_message_chunks.ts";
import type { DroppedEvent } from "../v1/dropped_event.ts";
import { UI_MESSAGE_STREAM_HEADERS_V1 } from "./sse_headers.ts";
import type { StreamResponseOptions } from "./stream_response_options.ts";
import type { Continuation } from "./continuation.ts";
import { adapterResponse } from "./_adapter_stream.ts";
import { DONE_FRAME } from "./_sse_text.ts";
import type { TurnSource } from "./turn_source.ts";

/** Options of {@link uiMessageStreamResponse}. */
export interface UIMessageStreamResponseOptions extends StreamResponseOptions {
  /** `messageId` of the `start` chunk (default: the turn id, so a continuation extends the same message). */
  readonly messageId?: string;
  /** Continue a message a previous response paused (see {@link Continuation}); default: the whole turn. */
  readonly continuation?: Continuation;
  /**
   * End the response when the turn waits for input the client was just
   * asked for and no further frame is available now (default `true`): the
   * AI SDK's approval flow, where the client answers with a new request.
   * `false` keeps streaming until the turn ends.
   */
  readonly endAtInput?: boolean;
  /** Called with each {@link DroppedEvent} (what the UI message stream cannot carry). */
  readonly onDropped?: (dropped: DroppedEvent) => void;
}

/**
 * Answer `request` with the turn as an AI SDK UI message stream: one
 * `data: <chunk JSON>` SSE frame per chunk of {@link V1ToUIMessageChunks},
 * then `data: [DONE]`, with `: heartbeat` comments every `heartbeatMs`
 * while idle. Headers as the AI SDK's `createUIMessageStreamResponse`
 * sends them: `content-type: text/event-stream`, `cache-control:
 * no-cache`, `connection: keep-alive`, `x-vercel-ai-ui-message-stream:
 * v1`, `x-accel-buffering: no`.
 *
 * Resumable as the AI SDK resumes: `DefaultChatTransport.reconnectToStream`
 * GETs `<api>/<chatId>/stream` and reads a 204 as "no active stream";
 * otherwise the response replays the message from its start (the
 * transport's default `resumeStreamIsReplay`: the client resets the
 * message at the first `start`). Answer that GET with this function (or a
 * 204 when the chat has no running turn). The turn is read from its first
 * event (`source.window` must retain it: else `stale-cursor`, 410), then
 * followed (`source.live`, or `source.wake`).
 *
 * Approvals: an approval card becomes a tool approval
 * (`approval-requested`); with `endAtInput` the response then ends with
 * `finish` (`tool-calls`), as the AI SDK's own approval stream does. The
 * client's `addToolApprovalResponse` + `sendAutomaticallyWhen` POSTs the
 * messages; read the answers with `toHitlAnswers` (`./message`), resolve
 * them server-side, and answer with this function and `continuation: {
 * cardIds }`: the new response continues the same message after the
 * pause.
 *
 * Refusals before streaming are JSON with the typed code
 * (`streamRefusalResponse`); after streaming started, a frame the adapter
 * refuses or a chunk that cannot be serialized is skipped and reported to
 * `onProblem`. The stream ends after the terminal event, at a pause, when
 * the live feed ends, when the request aborts, or when the client
 * disconnects; the heartbeat timer stops with it. Never throws and never
 * rejects.
 *
 * @example
 * ```ts
 * import { uiMessageStreamResponse } from "@papercusp/chat-protocol/http";
 * import { MemoryReplayWindow } from "@papercusp/chat-protocol/recovery";
 * const window = new MemoryReplayWindow();
 * window.append({ schemaVersion: 1, conversationId: "c1", turnId: "t1", eventId: "t1:1", seq: 1, event: { type: "delta", text: "Hi" } });
 * window.append({ schemaVersion: 1, conversationId: "c1", turnId: "t1", eventId: "t1:2", seq: 2, event: { type: "done" } });
 * const res = await uiMessageStreamResponse(new Request("http://localhost/api/chat"), { conversationId: "c1", turnId: "t1", window });
 * res.headers.get("x-vercel-ai-ui-message-stream"); // "v1"
 * ```
 */
export function uiMessageStreamResponse(
  request: Request,
  source: TurnSource,
  options?: UIMessageStreamResponseOptions,
): Promise<Response> {
  return adapterResponse(request, source, options, {
    keys: ["messageId", "onDropped"],
    headers: UI_MESSAGE_STREAM_HEADERS_V1,
    closing: DONE_FRAME,
    adapter: (o, resumeAfterSeq) =>
      new V1ToUIMessageChunks({
        messageId: typeof o.messageId === "string" ? o.messageId : undefined,
        resumeAfterSeq,
        onDropped: typeof o.onDropped === "function"
          ? o.onDropped as (d: DroppedEvent) => void
          : undefined,
      }),
  });
}
