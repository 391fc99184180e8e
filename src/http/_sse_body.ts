/**
 * The byte stream of an SSE response: a
 * producer writes text frames with backpressure; a heartbeat comment is
 * written every `heartbeatMs` while the consumer keeps up; the request's
 * signal, or the consumer cancelling (a client that disconnected), aborts
 * the producer, stops the heartbeat timer and closes the stream. `onEnd`
 * runs once whenever the body ends, also when a signal had already aborted
 * and the producer never ran (what the producer holds is released then).
 *
 * @module
 */
import { SSE_HEARTBEAT } from "../sse/encoder.ts";

/** What the producer of an SSE body gets. */
export interface SseBodyWriter {
  /** Write one frame (text); waits while the consumer is behind. A no-op once the body ended. */
  write(text: string): Promise<void>;
  /** Aborted when the request aborts or the consumer cancels. */
  readonly signal: AbortSignal;
}

/**
 * A `ReadableStream<Uint8Array>` fed by `produce`. The stream closes when
 * `produce` settles (a rejection is swallowed: the producer reports its own
 * problems) or when one of `signals` aborts; `onEnd` then runs once (a
 * throw is swallowed), whether or not `produce` was started.
 */
export function sseBody(
  produce: (w: SseBodyWriter) => Promise<void>,
  heartbeatMs: number,
  signals: readonly (AbortSignal | undefined)[],
  onEnd?: () => void,
): ReadableStream<Uint8Array> {
  const watched = signals.filter((s): s is AbortSignal => s !== undefined);
  const encoder = new TextEncoder();
  const heartbeat = encoder.encode(SSE_HEARTBEAT);
  const ac = new AbortController();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let waiting: (() => void) | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;
  let ended = false;
  const release = () => {
    const w = waiting;
    waiting = null;
    w?.();
  };
  const end = () => {
    if (ended) return;
    ended = true;
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
    for (const s of watched) s.removeEventListener("abort", onAbort);
    ac.abort();
    release();
    try {
      onEnd?.();
    } catch {
      // releasing the producer's resources must not keep the body open
    }
    try {
      controller.close();
    } catch {
      // already closed or cancelled
    }
  };
  const onAbort = () => end();
  const writer: SseBodyWriter = {
    signal: ac.signal,
    async write(text) {
      if (ended) return;
      controller.enqueue(encoder.encode(text));
      if ((controller.desiredSize ?? 1) <= 0) {
        await new Promise<void>((resolve) => waiting = resolve);
      }
    },
  };
  return new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      if (watched.some((s) => s.aborted)) {
        end();
        return;
      }
      for (const s of watched) s.addEventListener("abort", onAbort, { once: true });
      if (heartbeatMs > 0) {
        timer = setInterval(() => {
          if (!ended && (controller.desiredSize ?? 1) > 0) controller.enqueue(heartbeat);
        }, heartbeatMs);
      }
      // not awaited: the stream starts right away, the producer runs beside it
      produce(writer).catch(() => {}).finally(end);
    },
    pull() {
      release();
    },
    cancel() {
      end();
    },
  }, new CountQueuingStrategy({ highWaterMark: 32 }));
}
