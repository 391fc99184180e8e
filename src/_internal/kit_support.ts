/**
 * Timing and randomness helpers shared by the two conformance kits
 * (`./recovery/testing`, `./interactions/testing`): a seeded random source,
 * deferred promises the kits hold seams open with, and bounded waits that
 * turn a hung seam into a named failure instead of a hung kit.
 *
 * Internal: not exported from any entry point.
 *
 * @module
 */

/** A seeded pseudo-random source in `[0, 1)` (mulberry32): same seed, same sequence. */
export function seededRandom(seed: number): () => number {
  let a = (Number.isFinite(seed) ? Math.floor(seed) : 1) | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A promise with its resolve and reject functions, and whether it settled. */
export interface Deferred<T> {
  /** The promise. */
  readonly promise: Promise<T>;
  /** Resolve it. */
  resolve(value: T): void;
  /** Reject it. */
  reject(reason: unknown): void;
}

/** A new {@link Deferred}. */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((a, b) => {
    resolve = a;
    reject = b;
  });
  return { promise, resolve, reject };
}

/** Resolve after `ms` milliseconds of real time (at once for `ms <= 0`). */
export function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
}

/** Watches a promise: whether it has settled yet, without consuming its value. */
export function watch<T>(p: Promise<T>): { readonly promise: Promise<T>; settled(): boolean } {
  let done = false;
  p.then(() => (done = true), () => (done = true));
  return { promise: p, settled: () => done };
}

/**
 * `true` when `p` settles (either way) within `ms` milliseconds, `false`
 * otherwise. `p` keeps running; its rejection is not reported here.
 */
export async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((r) => (timer = setTimeout(() => r(false), ms)));
  try {
    return await Promise.race([p.then(() => true, () => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `p`'s value, or a rejection with `fail(what)` when it does not settle
 * within `ms` milliseconds (a deadlocked or hung seam).
 */
export async function within<T>(
  p: Promise<T> | T,
  ms: number,
  what: string,
  fail: (message: string) => Error,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(fail(`${what} did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([Promise.resolve(p), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Poll `condition` every millisecond or so until it holds; `false` after `ms`. */
export async function eventually(condition: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  for (let i = 0; !condition(); i++) {
    if (Date.now() >= end) return false;
    // Microtasks first (an in-memory store is done in a few), then timers.
    await (i < 50 ? Promise.resolve() : sleep(1));
  }
  return true;
}
