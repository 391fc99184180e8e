/**
 * The host clock as `TurnRecovery` uses it (monotonic, fail-closed) and the
 * jittered backoff between conflicting attempts.
 *
 * @module
 */
import { MIN_EPOCH_MS } from "../_internal/epoch.ts";

/**
 * The host's clock, epoch ms, clamped so it never steps back: a reading
 * earlier than one already used is replaced by the latest, so a lease that
 * read as ended stays ended. A clock that throws or answers a non-finite
 * number, or a reading below {@link MIN_EPOCH_MS} (a clock in seconds),
 * yields `undefined` (callers refuse rather than guess a time).
 */
export class HostClock {
  readonly #read: () => number | Promise<number>;
  #last = Number.NEGATIVE_INFINITY;

  /** Wrap the host's clock function. */
  constructor(read: () => number | Promise<number>) {
    this.#read = read;
  }

  /** Current time (epoch ms), or `undefined` when the clock failed. */
  async now(): Promise<number | undefined> {
    let t: unknown;
    try {
      t = await this.#read();
    } catch {
      return undefined;
    }
    // Below 1e11 is before 1973 in epoch ms, but a plausible epoch in SECONDS
    // (until the year 5138): a seconds clock would make every lease 1000
    // times too long, so it fails closed like a broken clock.
    if (typeof t !== "number" || !Number.isFinite(t) || t < MIN_EPOCH_MS) return undefined;
    if (t > this.#last) this.#last = t;
    return this.#last;
  }
}

/** Settings of {@link Backoff}. */
export interface BackoffOptions {
  /** First delay cap, ms (default 2). `0` disables waiting. */
  readonly baseMs?: number;
  /** Largest delay cap, ms (default 100). */
  readonly maxMs?: number;
}

function nonNegative(x: unknown, fallback: number): number {
  return typeof x === "number" && Number.isFinite(x) && x >= 0 ? x : fallback;
}

/**
 * Exponential backoff with full jitter: before retry `n` (1, 2, …) wait a
 * random time in `[0, min(maxMs, baseMs · 2^(n-1)))` ms, so workers that
 * conflicted once do not conflict again in lockstep.
 */
export class Backoff {
  readonly #baseMs: number;
  readonly #maxMs: number;
  readonly #random: () => number;

  /** Build from options and a random source in `[0, 1)`. */
  constructor(options: BackoffOptions | undefined, random: () => number) {
    this.#baseMs = nonNegative(options?.baseMs, 2);
    this.#maxMs = nonNegative(options?.maxMs, 100);
    this.#random = random;
  }

  /** Wait before retry `n` (no wait for `n < 1`, or when the drawn delay is 0). */
  pause(n: number): Promise<void> | undefined {
    if (n < 1 || this.#baseMs === 0) return undefined;
    const cap = Math.min(this.#maxMs, this.#baseMs * 2 ** Math.min(n - 1, 30));
    let r = 0;
    try {
      r = Number(this.#random());
    } catch {
      r = 0.5;
    }
    const ms = Math.floor((Number.isFinite(r) ? Math.min(Math.max(r, 0), 1) : 0.5) * cap);
    if (ms <= 0) return undefined;
    return new Promise((resolve) => setTimeout(resolve, ms));
  }
}
