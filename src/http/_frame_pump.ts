/**
 * The frame pump behind the stream response helpers: one turn's envelopes
 * in `seq` order, each exactly once, from the host's {@link TurnSource}:
 * the retained window after the client's cursor first, then the live feed
 * (subscribed before the window is read, so nothing falls between them;
 * what it repeats is skipped, a hole is filled from the window), or the
 * window again each time `wake` resolves.
 *
 * @module
 */
import { replayAfter, type ReplayError, type ReplayWindowSeam } from "../recovery/replay.ts";
import type { RecoveryProfile } from "../recovery/profile.ts";
import { parseChatEnvelope } from "../v1/parse.ts";
import type { ChatEventEnvelope } from "../v1/types.ts";
import { readFields } from "../_internal/fields.ts";
import { isId } from "../_internal/id.ts";
import { describeThrown } from "../_internal/describe.ts";
import { abortable, ABORTED } from "./_abortable.ts";
import { type StreamRefusal, streamRefusal } from "./stream_refusal.ts";
import type { StreamProblem } from "./stream_problem.ts";
import type { TurnSource } from "./turn_source.ts";

/** A {@link TurnSource} with each field read once and checked. */
export interface CheckedSource {
  readonly conversationId: string;
  readonly turnId: string;
  readonly window: ReplayWindowSeam | undefined;
  readonly live: TurnSource["live"];
  readonly wake: TurnSource["wake"];
  readonly profile: RecoveryProfile | undefined;
}

/** Read `source` once; `invalid-request` when it is unusable. Never throws. */
export function checkSource(source: unknown): CheckedSource | StreamRefusal {
  const f = readFields(source, ["conversationId", "turnId", "window", "live", "wake", "profile"]);
  if (f === null) return streamRefusal("invalid-request", "the turn source could not be read");
  if (!isId(f.conversationId) || !isId(f.turnId)) {
    return streamRefusal("invalid-request", "conversationId and turnId must be non-empty strings");
  }
  const window = typeof f.window === "object" && f.window !== null
    ? f.window as ReplayWindowSeam
    : undefined;
  const live = typeof f.live === "function" ? f.live as TurnSource["live"] : undefined;
  if (window === undefined && live === undefined) {
    return streamRefusal("invalid-request", "a turn source needs a window or a live feed");
  }
  return {
    conversationId: f.conversationId,
    turnId: f.turnId,
    window,
    live,
    wake: typeof f.wake === "function" ? f.wake as TurnSource["wake"] : undefined,
    profile: typeof f.profile === "object" && f.profile !== null
      ? f.profile as RecoveryProfile
      : undefined,
  };
}

/** A `ReplayError` as a {@link StreamRefusal} (same codes). */
export function fromReplayError(e: ReplayError): StreamRefusal {
  return streamRefusal(e.code, e.message, {
    afterSeq: e.afterSeq,
    lowestRetainedSeq: e.lowestRetainedSeq,
    latestSeq: e.latestSeq,
  });
}

/** One envelope the pump delivers. */
export interface Delivered {
  /** The envelope (parsed: a fresh, stripped copy). */
  readonly env: ChatEventEnvelope;
  /** `seq`s before it are missing and could not be replayed (reported as `gap`). */
  readonly gap: boolean;
}

interface LiveFeed {
  readonly next: () => Promise<IteratorResult<unknown>>;
  readonly stop: () => void;
}

/** The host's live feed as a pull function; `null` when it cannot be read. */
function feedOf(value: unknown): LiveFeed | null {
  try {
    if (typeof ReadableStream !== "undefined" && value instanceof ReadableStream) {
      const reader = value.getReader();
      return {
        next: () => reader.read() as Promise<IteratorResult<unknown>>,
        stop: () => {
          reader.cancel().catch(() => {});
        },
      };
    }
    const make = (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator];
    if (typeof make !== "function") return null;
    const it = make.call(value) as AsyncIterator<unknown>;
    const next = it.next;
    if (typeof next !== "function") return null;
    return {
      next: () => next.call(it),
      stop: () => {
        try {
          const r = it.return?.();
          if (r !== undefined) Promise.resolve(r).catch(() => {});
        } catch {
          // a hostile iterator: nothing more to do
        }
      },
    };
  } catch {
    return null;
  }
}

/** A promise that resolves on the next macrotask (a read already buffered resolves first). */
function nextTask(): Promise<void> {
  return new Promise<void>((resolve) => setTimeout(() => resolve(), 0));
}

/** Envelopes of one turn, in order, from a {@link CheckedSource}. */
export class FramePump {
  readonly #s: CheckedSource;
  readonly #signal: AbortSignal;
  readonly #maxFrames: number | undefined;
  readonly #report: (p: StreamProblem) => void;
  #lastSeq = 0;
  #batch: readonly ChatEventEnvelope[] = [];
  #at = 0;
  #live: LiveFeed | null = null;
  #pending: Promise<IteratorResult<unknown>> | null = null;
  /** A live envelope ahead of what was sent, waiting for the window to fill the hole. */
  #held: ChatEventEnvelope | null = null;
  #closed = false;

  /** A pump over `source`, stopped by `signal`; problems go to `report`. */
  constructor(
    source: CheckedSource,
    signal: AbortSignal,
    maxFrames: number | undefined,
    report: (p: StreamProblem) => void,
  ) {
    this.#s = source;
    this.#signal = signal;
    this.#maxFrames = maxFrames;
    this.#report = report;
  }

  /** The frames of the first replay (empty without a window). */
  get initial(): readonly ChatEventEnvelope[] {
    return this.#batch;
  }

  /**
   * Subscribe to the live feed, then replay the window after `afterSeq`.
   * A refusal of the replay (the cursor against the window) is returned;
   * the pump is then closed.
   */
  async open(afterSeq: number): Promise<StreamRefusal | null> {
    this.#lastSeq = afterSeq;
    const live = this.#s.live;
    if (live !== undefined) {
      try {
        this.#live = feedOf(live(afterSeq, this.#signal));
        if (this.#live === null) this.#problem("live-failed", "the live feed is not iterable");
      } catch (e) {
        this.#problem("live-failed", `the live feed threw: ${describeThrown(e, 200)}`);
      }
    }
    if (this.#s.window === undefined) return null;
    const r = await this.#replay(afterSeq);
    if (!r.ok) {
      this.close();
      return fromReplayError(r.error);
    }
    this.#batch = r.value;
    return null;
  }

  #replay(afterSeq: number) {
    return replayAfter(this.#s.window!, {
      conversationId: this.#s.conversationId,
      turnId: this.#s.turnId,
      afterSeq,
      maxFrames: this.#maxFrames,
      profile: this.#s.profile,
    }).then((r) => r.ok ? { ok: true as const, value: r.value.frames } : r);
  }

  #problem(code: StreamProblem["code"], message: string, seq?: number): void {
    try {
      this.#report(seq === undefined ? { code, message } : { code, message, seq });
    } catch {
      // the host's callback failing must not break the stream
    }
  }

  /** Stop: the live feed is told to stop; `next` answers `null` from now on. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#live?.stop();
    this.#live = null;
  }

  /** Whether another envelope can be delivered without waiting. */
  async available(): Promise<boolean> {
    if (this.#closed) return false;
    for (let i = this.#at; i < this.#batch.length; i++) {
      if (this.#batch[i].seq > this.#lastSeq) return true;
    }
    if (this.#held !== null) return true;
    for (;;) {
      if (this.#closed || this.#live === null) return false;
      const p = this.#read();
      const seen: { settled: boolean; r?: IteratorResult<unknown> } = { settled: false };
      p.then((r) => {
        seen.settled = true;
        seen.r = r;
      }, () => seen.settled = true);
      await nextTask();
      if (!seen.settled) return false;
      // a live frame the window already delivered (the replay and the feed
      // overlap) is nothing new: drop it and look at the next one, or a
      // turn paused for input would never be seen as paused
      if (seen.r === undefined || seen.r.done === true || !this.#alreadySent(seen.r.value)) {
        return true;
      }
      if (this.#pending === p) this.#pending = null;
    }
  }

  /** Whether a live value is an envelope of this turn at or below what was sent (never throws). */
  #alreadySent(value: unknown): boolean {
    const parsed = parseChatEnvelope(value);
    return parsed.ok && parsed.value.conversationId === this.#s.conversationId &&
      parsed.value.turnId === this.#s.turnId && parsed.value.seq <= this.#lastSeq;
  }

  /** The pending live read, or a new one (a feed that throws reads as ended). */
  #read(): Promise<IteratorResult<unknown>> {
    if (this.#pending === null) {
      const live = this.#live!;
      let p: Promise<IteratorResult<unknown>>;
      try {
        p = Promise.resolve(live.next());
      } catch (e) {
        p = Promise.reject(e);
      }
      this.#pending = p;
    }
    return this.#pending;
  }

  /**
   * The next envelope to send, or `null` when there is none (the live feed
   * ended, the window was replayed and there is no feed, the pump was
   * closed or aborted, or the source failed: reported).
   */
  async next(): Promise<Delivered | null> {
    while (!this.#closed && !this.#signal.aborted) {
      if (this.#at < this.#batch.length) {
        const env = this.#batch[this.#at++];
        if (env.seq <= this.#lastSeq) continue;
        const parsed = parseChatEnvelope(env);
        if (!parsed.ok) {
          this.#problem(
            "invalid-frame",
            `replayed frame ${env.seq}: ${parsed.error.message}`,
            env.seq,
          );
          this.#lastSeq = env.seq;
          continue;
        }
        this.#lastSeq = env.seq;
        return { env: parsed.value, gap: false };
      }
      if (this.#held !== null) {
        const env = this.#held;
        this.#held = null;
        if (env.seq <= this.#lastSeq) continue;
        const gap = env.seq > this.#lastSeq + 1;
        if (gap) {
          this.#problem("gap", `seq ${this.#lastSeq + 1}–${env.seq - 1} are missing`, env.seq);
        }
        this.#lastSeq = env.seq;
        return { env, gap };
      }
      if (this.#live !== null) {
        const d = await this.#nextLive();
        if (d === "again") continue;
        return d;
      }
      if (this.#s.wake !== undefined && this.#s.window !== undefined) {
        if (!await this.#waitAndReread()) return null;
        continue;
      }
      return null;
    }
    return null;
  }

  /** One live read: an envelope to deliver, `again` to loop, `null` to end. */
  async #nextLive(): Promise<Delivered | null | "again"> {
    let r: IteratorResult<unknown> | typeof ABORTED;
    try {
      r = await abortable(this.#read(), this.#signal);
    } catch (e) {
      this.#pending = null;
      this.#problem("live-failed", `the live feed threw: ${describeThrown(e, 200)}`);
      this.close();
      return null;
    }
    if (r === ABORTED) return null;
    this.#pending = null;
    if (r.done === true) {
      this.close();
      return null;
    }
    const parsed = parseChatEnvelope(r.value);
    if (!parsed.ok) {
      this.#problem("invalid-frame", `live frame: ${parsed.error.message}`);
      return "again";
    }
    const env = parsed.value;
    if (env.conversationId !== this.#s.conversationId || env.turnId !== this.#s.turnId) {
      this.#problem("foreign-frame", `live frame ${env.seq} belongs to another turn`, env.seq);
      return "again";
    }
    if (env.seq <= this.#lastSeq) return "again"; // already sent (the replay and the feed overlap)
    if (env.seq === this.#lastSeq + 1) {
      this.#lastSeq = env.seq;
      return { env, gap: false };
    }
    // a hole: fill it from the window when there is one
    this.#held = env;
    if (this.#s.window !== undefined) {
      const refill = await this.#replay(this.#lastSeq);
      if (refill.ok) {
        this.#batch = refill.value;
        this.#at = 0;
      }
    }
    return "again";
  }

  /** Wait for `wake`, then read the window after what was sent; `false` to end. */
  async #waitAndReread(): Promise<boolean> {
    let woke: unknown;
    try {
      woke = await abortable(Promise.resolve(this.#s.wake!(this.#signal)), this.#signal);
    } catch (e) {
      this.#problem("callback-failed", `wake threw: ${describeThrown(e, 200)}`);
      return false;
    }
    if (woke === ABORTED) return false;
    const r = await this.#replay(this.#lastSeq);
    if (!r.ok) {
      this.#problem(
        "replay-failed",
        `reading the window again: ${r.error.code}: ${r.error.message}`,
      );
      return false;
    }
    this.#batch = r.value;
    this.#at = 0;
    return true;
  }
}
