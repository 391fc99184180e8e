/**
 * {@link agUiResponse}: answer an HTTP request (an AG-UI `HttpAgent` run)
 * with one turn as AG-UI events over SSE.
 *
 * @module
 */
import { V1ToAgUi } from "../ag_ui/ag_ui.ts";
import type { DroppedEvent } from "../v1/dropped_event.ts";
import { SSE_HEADERS } from "./sse_headers.ts";
import type { StreamResponseOptions } from "./stream_response_options.ts";
import type { Continuation } from "./continuation.ts";
import { adapterResponse } from "./_adapter_stream.ts";
import type { TurnSource } from "./turn_source.ts";

/** Options of {@link agUiResponse}. */
export interface AgUiResponseOptions extends StreamResponseOptions {
  /** The run id (default: the turn id); echo the `runId` of the client's `RunAgentInput`. */
  readonly runId?: string;
  /** Continue a turn a previous run paused on interrupts (see {@link Continuation}); default: the whole turn. */
  readonly continuation?: Continuation;
  /**
   * End the run with the `interrupt` outcome when the turn waits for input
   * the client was just asked for and no further frame is available now
   * (default `true`): AG-UI's interrupt / resume model. `false` keeps
   * streaming until the turn ends.
   */
  readonly endAtInput?: boolean;
  /** Called with each {@link DroppedEvent} (what AG-UI cannot carry). */
  readonly onDropped?: (dropped: DroppedEvent) => void;
}

/**
 * Answer `request` with the turn as AG-UI events: one `data: <event JSON>`
 * SSE frame per event of {@link V1ToAgUi}, byte for byte as
 * `@ag-ui/encoder`'s `encodeSSE` writes it, with `: heartbeat` comments
 * every `heartbeatMs` while idle (the AG-UI client's SSE parser skips
 * comments). Headers: `content-type: text/event-stream`, `cache-control:
 * no-cache`, `connection: keep-alive`, `x-accel-buffering: no`.
 *
 * The turn is read from its first event (`source.window` must retain it:
 * else `stale-cursor`, 410), then followed (`source.live`, or
 * `source.wake`). Interrupts: an open card ends the run with
 * `RUN_FINISHED` and the `interrupt` outcome (with `endAtInput`, once the
 * turn waits and nothing more is available); the client resumes with a new
 * run whose `resume` entries answer the interrupts: read them with
 * `parseAgUiResume` (`./ag-ui`), resolve them server-side, and answer with
 * this function, `runId` = the input's `runId` and `continuation: {
 * cardIds }`.
 *
 * Refusals before streaming are JSON with the typed code
 * (`streamRefusalResponse`); after streaming started, a frame the adapter
 * refuses or an event that cannot be serialized is skipped and reported to
 * `onProblem`. Never throws and never rejects.
 *
 * @example
 * ```ts
 * import { agUiResponse } from "@papercusp/chat-protocol/http";
 * import { MemoryReplayWindow } from "@papercusp/chat-protocol/recovery";
 * const window = new MemoryReplayWindow();
 * window.append({ schemaVersion: 1, conversationId: "c1", turnId: "t1", eventId: "t1:1", seq: 1, event: { type: "done" } });
 * const res = await agUiResponse(new Request("http://localhost/agent", { method: "POST" }), { conversationId: "c1", turnId: "t1", window }, { runId: "run-1" });
 * res.headers.get("content-type"); // "text/event-stream"
 * ```
 */
export function agUiResponse(
  request: Request,
  source: TurnSource,
  options?: AgUiResponseOptions,
): Promise<Response> {
  return adapterResponse(request, source, options, {
    keys: ["runId", "onDropped"],
    headers: SSE_HEADERS,
    adapter: (o, resumeAfterSeq) =>
      new V1ToAgUi({
        runId: typeof o.runId === "string" ? o.runId : undefined,
        resumeAfterSeq,
        onDropped: typeof o.onDropped === "function"
          ? o.onDropped as (d: DroppedEvent) => void
          : undefined,
      }),
  });
}
