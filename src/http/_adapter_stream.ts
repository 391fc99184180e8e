/**
 * The producer loop of the AI SDK and AG-UI responses: frames
 * from the pump through a v1 adapter, each output item written as a JSON
 * `data:` frame, ending after the turn's terminal event, or, when the turn
 * waits for input and nothing more is available now, at that pause (the
 * client answers and resumes with a continuation).
 *
 * @module
 */
import type { Result } from "../result.ts";
import type { ChatEventEnvelope, TurnStatus } from "../v1/types.ts";
import type { V1AdapterRefusal } from "../v1/v1_adapter_refusal.ts";
import type { FramePump } from "./_frame_pump.ts";
import type { SseBodyWriter } from "./_sse_body.ts";
import type { StreamProblem } from "./stream_problem.ts";
import { jsonDataFrame } from "./_sse_text.ts";
import { isTerminalEnvelope } from "./_terminal.ts";
import { describeThrown } from "../_internal/describe.ts";
import {
  closeTurn,
  type OpenedTurn,
  openTurn,
  readStreamOptions,
  refusedOr,
  streamingResponse,
} from "./_stream_response.ts";
import { type StreamRefusal, streamRefusal, streamRefusalResponse } from "./stream_refusal.ts";
import { continuationSeq } from "./continuation.ts";

/** A v1 adapter as the loop drives it. */
export interface StreamAdapter<T> {
  push(envelope: unknown): Result<T[], V1AdapterRefusal>;
  resync(envelope: unknown): Result<T[], V1AdapterRefusal>;
  end(): T[];
  readonly status: TurnStatus;
}

/** Write every item as `data: <JSON>`; an item without JSON text is skipped and reported. */
async function writeAll<T>(
  w: SseBodyWriter,
  items: readonly T[],
  seq: number | undefined,
  report: (p: StreamProblem) => void,
): Promise<void> {
  for (const item of items) {
    const frame = jsonDataFrame(item);
    if (frame === undefined) {
      report({
        code: "not-json",
        message: "an item cannot be serialized as JSON and was not sent",
        ...(seq === undefined ? {} : { seq }),
      });
      continue;
    }
    await w.write(frame);
  }
}

/** Whether the turn now waits for an answer the client was just asked for. */
function pausedAt(env: ChatEventEnvelope, before: TurnStatus, after: TurnStatus): boolean {
  return after === "awaiting-input" && (env.event.type === "card" || before !== "awaiting-input");
}

/**
 * Drive `adapter` with the pump's frames and write what it emits; then
 * its `end()` output (and `closing`, e.g. `data: [DONE]`, unless the body
 * was aborted).
 */
export async function adapterStream<T>(
  pump: FramePump,
  adapter: StreamAdapter<T>,
  w: SseBodyWriter,
  options: {
    readonly resumeAfterSeq: number;
    readonly endAtInput: boolean;
    readonly report: (p: StreamProblem) => void;
    readonly closing?: string;
  },
): Promise<void> {
  for (;;) {
    const d = await pump.next();
    if (d === null) break;
    const before = adapter.status;
    let r = d.gap ? adapter.resync(d.env) : adapter.push(d.env);
    if (!r.ok && r.error.code === "gap") r = adapter.resync(d.env);
    if (!r.ok) {
      options.report({
        code: "refused-frame",
        message: `frame ${d.env.seq} was refused: ${r.error.code}: ${r.error.message}`,
        seq: d.env.seq,
      });
      continue;
    }
    await writeAll(w, r.value, d.env.seq, options.report);
    if (isTerminalEnvelope(d.env)) break;
    if (
      options.endAtInput && d.env.seq > options.resumeAfterSeq &&
      pausedAt(d.env, before, adapter.status) && !await pump.available()
    ) break;
  }
  if (w.signal.aborted) return;
  await writeAll(w, adapter.end(), undefined, options.report);
  if (options.closing !== undefined) await w.write(options.closing);
}

/** What differs between the AI SDK and AG-UI responses. */
export interface AdapterResponseKind<K extends string, T> {
  /** Option keys besides the common ones and `continuation`, `endAtInput`. */
  readonly keys: readonly K[];
  /** The response headers. */
  readonly headers: Record<string, string>;
  /** Written after the adapter's `end()` output (AI SDK: `data: [DONE]`). */
  readonly closing?: string;
  /** The adapter for these options, continuing after `resumeAfterSeq`. */
  adapter(extra: { readonly [P in K]: unknown }, resumeAfterSeq: number): StreamAdapter<T>;
}

/**
 * The whole AI SDK / AG-UI response: read the options, open the turn from
 * its first event, find the continuation, stream through the adapter.
 * Never throws and never rejects.
 */
export async function adapterResponse<K extends string, T>(
  request: unknown,
  source: unknown,
  options: unknown,
  kind: AdapterResponseKind<K, T>,
): Promise<Response> {
  let opened: OpenedTurn | StreamRefusal | undefined;
  try {
    const read = readStreamOptions(options, ["continuation", "endAtInput", ...kind.keys]);
    if (read === null) {
      return streamRefusalResponse(
        streamRefusal("invalid-request", "the options could not be read"),
      );
    }
    const { common, extra } = read;
    opened = await openTurn(source, common, () => Promise.resolve({ ok: true, value: 0 }));
    if (refusedOr(opened)) return streamRefusalResponse(opened);
    const turn = opened;
    const resumeAfterSeq = continuationSeq(extra.continuation, turn.pump.initial);
    if (typeof resumeAfterSeq !== "number") {
      closeTurn(turn);
      return streamRefusalResponse(resumeAfterSeq);
    }
    const adapter = kind.adapter(extra, resumeAfterSeq);
    return streamingResponse(
      request,
      common,
      turn,
      kind.headers,
      (w) =>
        adapterStream(turn.pump, adapter, w, {
          resumeAfterSeq,
          endAtInput: extra.endAtInput !== false,
          report: common.report,
          closing: kind.closing,
        }),
    );
  } catch (e) {
    // the turn was opened (its live feed subscribed) but no body will release it
    if (opened !== undefined && !refusedOr(opened)) closeTurn(opened);
    return streamRefusalResponse(
      streamRefusal("invalid-request", `the stream could not be set up: ${describeThrown(e, 200)}`),
    );
  }
}
