/**
 * What the three stream response helpers share: reading their
 * options and the request once, opening the turn's frame pump (refusals
 * become error responses before any byte is streamed), and building the
 * streaming response with heartbeats and abort.
 *
 * @module
 */
import { readFields } from "../_internal/fields.ts";
import { type CheckedSource, checkSource, FramePump } from "./_frame_pump.ts";
import { sseBody, type SseBodyWriter } from "./_sse_body.ts";
import { type StreamRefusal, streamRefusalResponse } from "./stream_refusal.ts";
import type { StreamProblem } from "./stream_problem.ts";
import { DEFAULT_HEARTBEAT_MS } from "./stream_response_options.ts";

/** The common options, each read once and checked. */
export interface CommonOptions {
  readonly heartbeatMs: number;
  readonly signal: AbortSignal | undefined;
  readonly maxFrames: number | undefined;
  readonly headers: HeadersInit | undefined;
  readonly report: (p: StreamProblem) => void;
}

const COMMON = ["heartbeatMs", "signal", "maxFrames", "headers", "onProblem"] as const;

/** Read the common options and `extra` keys of `options` once; `null` when they cannot be read. */
export function readStreamOptions<K extends string>(
  options: unknown,
  extra: readonly K[],
): { common: CommonOptions; extra: { readonly [P in K]: unknown } } | null {
  const isObject = typeof options === "object" && options !== null;
  const o = readFields(isObject ? options : {}, [...COMMON, ...extra]) as
    | Record<string, unknown>
    | null;
  if (o === null) return null;
  const hb = o.heartbeatMs;
  const onProblem = typeof o.onProblem === "function"
    ? o.onProblem as (p: StreamProblem) => void
    : undefined;
  return {
    common: {
      heartbeatMs: typeof hb === "number" && Number.isFinite(hb) && hb >= 0
        ? Math.min(hb, 2_147_483_647)
        : DEFAULT_HEARTBEAT_MS,
      signal: isAbortSignal(o.signal) ? o.signal : undefined,
      maxFrames: typeof o.maxFrames === "number" ? o.maxFrames : undefined,
      headers: o.headers as HeadersInit | undefined,
      report: (p) => {
        try {
          onProblem?.(p);
        } catch {
          // the host's callback failing must not break the stream
        }
      },
    },
    extra: o as { readonly [P in K]: unknown },
  };
}

function isAbortSignal(v: unknown): v is AbortSignal {
  return typeof AbortSignal !== "undefined" && v instanceof AbortSignal;
}

/** The request's signal, or `undefined` when it cannot be read. */
export function requestSignal(request: unknown): AbortSignal | undefined {
  try {
    const s = (request as Request).signal;
    return isAbortSignal(s) ? s : undefined;
  } catch {
    return undefined;
  }
}

/** The checked source and pump of a request, or the refusal to answer with. */
export interface OpenedTurn {
  readonly source: CheckedSource;
  readonly pump: FramePump;
  /** Aborts the pump (the response's producer aborts it when the body ends). */
  readonly abort: AbortController;
}

/**
 * Check `source`, then open its pump after `afterSeq` (computed from the
 * checked source): the live feed is subscribed, the window replayed.
 */
export async function openTurn(
  source: unknown,
  common: CommonOptions,
  afterSeqOf: (
    s: CheckedSource,
  ) => Promise<{ ok: true; value: number } | { ok: false; error: StreamRefusal }>,
): Promise<OpenedTurn | StreamRefusal> {
  const checked = checkSource(source);
  if ("code" in checked) return checked;
  const after = await afterSeqOf(checked);
  if (!after.ok) return after.error;
  const abort = new AbortController();
  const pump = new FramePump(checked, abort.signal, common.maxFrames, common.report);
  const refused = await pump.open(after.value);
  if (refused !== null) {
    abort.abort();
    return refused;
  }
  return { source: checked, pump, abort };
}

/** Release an opened turn: the live feed is stopped (`return()` / `cancel()`), its signal aborts. */
export function closeTurn(opened: OpenedTurn): void {
  opened.pump.close();
  opened.abort.abort();
}

/** The headers of a stream response: `defaults`, then the host's `extra` over them. */
function headersOf(defaults: Record<string, string>, extra: HeadersInit | undefined): Headers {
  const h = new Headers(defaults);
  if (extra === undefined) return h;
  try {
    new Headers(extra).forEach((v, k) => h.set(k, v));
  } catch {
    // unusable extra headers are ignored; the defaults stand
  }
  return h;
}

/**
 * The streaming response: `produce` writes frames until it returns; the
 * body ends then, when the request (or `common.signal`) aborts, or when
 * the client disconnects, and the pump is closed in every case.
 */
export function streamingResponse(
  request: unknown,
  common: CommonOptions,
  opened: OpenedTurn,
  headers: Record<string, string>,
  produce: (w: SseBodyWriter) => Promise<void>,
): Response {
  const release = () => closeTurn(opened);
  const body = sseBody(
    async (w) => {
      w.signal.addEventListener("abort", release, { once: true });
      try {
        await produce(w);
      } finally {
        w.signal.removeEventListener("abort", release);
        release();
      }
    },
    common.heartbeatMs,
    [requestSignal(request), common.signal],
    // also when a signal aborted before the body started and `produce` never
    // ran: the live feed was subscribed while the turn opened
    release,
  );
  return new Response(body, { status: 200, headers: headersOf(headers, common.headers) });
}

/** The response for a refusal (`StreamRefusal`) or the opened turn. */
export function refusedOr(
  x: OpenedTurn | StreamRefusal,
): x is StreamRefusal {
  return "code" in x;
}

export { streamRefusalResponse };
