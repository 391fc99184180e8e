/**
 * {@link v1SseResponse}: answer an HTTP request with one turn's v1
 * envelopes as Server-Sent Events, resuming after the client's
 * `Last-Event-ID`.
 *
 * @module
 */
import { chatEnvelopeFrame } from "../sse/envelope.ts";
import { readLastEventId } from "./last_event_id.ts";
import { resolveCursor } from "./_cursor.ts";
import type { CursorResolver } from "./cursor_resolver.ts";
import { SSE_HEADERS } from "./sse_headers.ts";
import { isTerminalEnvelope } from "./_terminal.ts";
import { clipText, describeThrown } from "../_internal/describe.ts";
import { openTurn, readStreamOptions, refusedOr, streamingResponse } from "./_stream_response.ts";
import type { StreamResponseOptions } from "./stream_response_options.ts";
import { streamRefusal, streamRefusalResponse } from "./stream_refusal.ts";
import type { TurnSource } from "./turn_source.ts";

/** The default `retry:` sent first, in milliseconds. */
export const DEFAULT_RETRY_MS = 1_000;

/** Options of {@link v1SseResponse}. */
export interface V1SseResponseOptions extends StreamResponseOptions {
  /**
   * The reconnection delay sent first as `retry:` (milliseconds, a
   * non-negative safe integer; default {@link DEFAULT_RETRY_MS}; `null`:
   * none).
   */
  readonly retryMs?: number | null;
  /**
   * Resolve a `Last-Event-ID` to the `seq` it names (the host's own id
   * scheme). Default: an id `<turnId>:<seq>` (see `turnSeqEventId`) is
   * read directly; any other is looked up among the window's retained
   * frames (`unknown-cursor` when absent, `foreign-cursor` for
   * `<otherTurn>:<seq>`).
   */
  readonly cursor?: CursorResolver;
  /** Longest accepted `Last-Event-ID` (default 1,024 UTF-16 code units). */
  readonly maxLastEventIdLength?: number;
  /** Query parameter read when there is no `Last-Event-ID` header (default `lastEventId`; `null`: none). */
  readonly lastEventIdParam?: string | null;
}

/**
 * Answer `request` with the turn's v1 envelopes as SSE (WHATWG event
 * stream): first `retry:` (the reconnection delay), then one frame per
 * envelope, `id:` = its `eventId` (the client's `Last-Event-ID` cursor),
 * `event:` = its type, `data:` = the JSON envelope (as
 * `encodeChatEnvelopeFrame` writes it), and `: heartbeat` comments every
 * `heartbeatMs` while idle. Headers: `content-type: text/event-stream`,
 * `cache-control: no-cache`, `connection: keep-alive` (where the runtime
 * allows it; HTTP/2 drops it), `x-accel-buffering: no`.
 *
 * Resumption: the cursor is the `Last-Event-ID` header (a browser's
 * `EventSource` sends it when it reconnects), else the `lastEventId` query
 * parameter; none means the turn from its first event. The envelopes after
 * it come from `source.window` (`replayAfter` of `./recovery`, so the
 * Postgres replay log plugs in), then from `source.live` or, each time
 * `source.wake` resolves, from the window again; each `seq` is sent once,
 * in order. The stream ends after the turn's terminal event, when the live
 * feed ends (a window alone: after the replay), when the request aborts,
 * or when the client disconnects; the heartbeat timer stops with it.
 *
 * Refusals are answered before streaming, as JSON with the typed code
 * ({@link streamRefusalResponse}): a `Last-Event-ID` over the bound
 * (`cursor-too-long`, 431), of another turn (`foreign-cursor`, 400), of no
 * retained event (`unknown-cursor`, 404), below the retained window
 * (`stale-cursor`, 410), after the latest event (`cursor-beyond-latest`,
 * 409), a failing or inconsistent window (503 / 500). A frame that cannot
 * be sent after streaming started is skipped and reported to `onProblem`.
 * Never throws and never rejects: a source that cannot be read is answered
 * 500 (`invalid-request`).
 *
 * @example
 * ```ts
 * import { v1SseResponse } from "@papercusp/chat-protocol/http";
 * import { MemoryReplayWindow } from "@papercusp/chat-protocol/recovery";
 * const window = new MemoryReplayWindow();
 * window.append({ schemaVersion: 1, conversationId: "c1", turnId: "t1", eventId: "t1:1", seq: 1, event: { type: "done" } });
 * const handler = (req: Request) => v1SseResponse(req, { conversationId: "c1", turnId: "t1", window });
 * const res = await handler(new Request("http://localhost/turns/t1/events"));
 * res.headers.get("content-type"); // "text/event-stream"
 * ```
 */
export async function v1SseResponse(
  request: Request,
  source: TurnSource,
  options?: V1SseResponseOptions,
): Promise<Response> {
  try {
    return await respond(request, source, options);
  } catch (e) {
    return streamRefusalResponse(
      streamRefusal("invalid-request", `the stream could not be set up: ${describeThrown(e, 200)}`),
    );
  }
}

async function respond(
  request: Request,
  source: TurnSource,
  options: V1SseResponseOptions | undefined,
): Promise<Response> {
  const read = readStreamOptions(options, [
    "retryMs",
    "cursor",
    "maxLastEventIdLength",
    "lastEventIdParam",
  ]);
  if (read === null) {
    return streamRefusalResponse(streamRefusal("invalid-request", "the options could not be read"));
  }
  const { common, extra } = read;
  const retry = extra.retryMs === null
    ? null
    : typeof extra.retryMs === "number" && Number.isSafeInteger(extra.retryMs) && extra.retryMs >= 0
    ? extra.retryMs
    : DEFAULT_RETRY_MS;
  const lastEventId = readLastEventId(request, {
    maxLength: extra.maxLastEventIdLength as number | undefined,
    queryParam: extra.lastEventIdParam as string | null | undefined,
  });
  if (!lastEventId.ok) return streamRefusalResponse(lastEventId.error);
  const resolver = typeof extra.cursor === "function" ? extra.cursor as CursorResolver : undefined;
  const opened = await openTurn(
    source,
    common,
    (s) => resolveCursor(lastEventId.value, s, resolver, common.maxFrames),
  );
  if (refusedOr(opened)) return streamRefusalResponse(opened);
  return streamingResponse(request, common, opened, SSE_HEADERS, async (w) => {
    if (retry !== null) await w.write(`retry: ${retry}\n\n`);
    for (;;) {
      const d = await opened.pump.next();
      if (d === null) return;
      const frame = chatEnvelopeFrame(d.env);
      if (!frame.ok) {
        common.report({
          code: frame.error.code === "invalid-data" ? "not-json" : "invalid-frame",
          message: `frame ${d.env.seq} cannot be sent: ${clipText(frame.error.message, 200)}`,
          seq: d.env.seq,
        });
        continue;
      }
      await w.write(frame.value);
      if (isTerminalEnvelope(d.env)) return;
    }
  });
}
