/**
 * Timing and randomness helpers shared by the two conformance kits
 * (`./recovery/testing`, `./interactions/testing`): a seeded random source,
 * deferred promises the kits hold seams open with, and bounded waits that
 * turn a hung seam into a named failure instead of a hung kit.
 *
 * @module
 */
import { describeThrown } from "./describe.ts";
import { KitFailure } from "../recovery/kit_failure.ts";
import type { KitRunOptions } from "../recovery/kit_run_options.ts";

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
 * Sequential round trips through the store that a "still blocked?" window
 * must see complete before it may conclude anything (see {@link pendingThrough}).
 */
export const WINDOW_TRIPS = 8;

/**
 * Whether `p` is still pending after the kit gave it every chance to settle:
 * at least `ms` of real time AND `trips` sequential calls of `roundTrip`
 * (each a call through the store, issued after `p`'s call), so a loaded
 * machine stretches the window instead of cutting it short: a store whose
 * writer is not really blocked has settled (or committed, which `roundTrip`
 * may observe and fail on) long before. A round trip still unanswered after
 * `patienceMs` ends the trips: the store serializes its readers behind the
 * held writer (one connection, transactions one at a time), so nothing can
 * commit meanwhile either. `false` as soon as `p` settled.
 */
export async function pendingThrough(
  p: Promise<unknown>,
  ms: number,
  roundTrip: () => Promise<unknown>,
  patienceMs: number,
  trips: number = WINDOW_TRIPS,
): Promise<boolean> {
  const w = watch(p);
  const start = Date.now();
  for (let i = 0; i < trips; i++) {
    if (w.settled()) return false;
    const trip = roundTrip();
    trip.catch(() => {}); // an answer arriving after the window is not judged
    // Wait for the trip (or for `p`): a slow machine only makes this longer.
    if (!(await settlesWithin(Promise.race([trip, p]), patienceMs))) break;
    if (w.settled()) return false;
    await trip;
  }
  const left = ms - (Date.now() - start);
  if (left > 0 && await settlesWithin(p, left)) return false;
  await Promise.resolve();
  return !w.settled();
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

/**
 * Ask `condition` (e.g. a read through the store) until it answers `true`;
 * `false` after `ms`. Between asks it yields one macrotask, so timers the
 * condition waits for (a lease keeper's renewal) can run.
 */
export async function eventuallyAsync(
  condition: () => Promise<boolean>,
  ms: number,
): Promise<boolean> {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() >= end) return false;
    await new Promise<void>((r) => setTimeout(r, 0));
  }
  return true;
}

/** An assertion function: fails with `message` unless `cond` holds. */
export type Asserter = (cond: unknown, message: string) => asserts cond;

/** An {@link Asserter} failing with the kit's `fail(message)`. */
export function asserter(fail: (message: string) => Error): Asserter {
  return (cond, message) => {
    if (!cond) throw fail(message);
  };
}

/** Resolved kit settings of one case. */
export interface KitSettings {
  /** Simulated workers in concurrency cases. */
  readonly n: number;
  /** Seed of the case's randomness. */
  readonly seed: number;
  /** How long a held fence or transaction is held while others are raced against it, ms. */
  readonly holdMs: number;
  /** Bound on any one awaited call, ms. */
  readonly timeoutMs: number;
}

function bounded(x: unknown, lo: number, hi: number, fallback: number): number {
  return typeof x === "number" && Number.isFinite(x) ? Math.min(hi, Math.max(lo, x)) : fallback;
}

/**
 * The settings of case number `index` from untrusted options: concurrency
 * 2..64 (default 8), hold 1..60,000 ms (default 250), timeout 10..600,000 ms
 * (default 10,000), seed default 1 plus the case index.
 */
export function kitSettings(options: KitRunOptions, index: number): KitSettings {
  return {
    n: Math.floor(bounded(options.concurrency, 2, 64, 8)),
    holdMs: bounded(options.holdMs, 1, 60_000, 250),
    timeoutMs: bounded(options.timeoutMs, 10, 600_000, 10_000),
    seed: Math.floor(bounded(options.seed, -(2 ** 31), 2 ** 31 - 1, 1)) + index,
  };
}

/** Something a case opened and closes at its end (a connection, an adapter instance). */
export interface Closable {
  /** Release it. */
  close?(): unknown;
}

/**
 * Per-case bookkeeping both kits share: bounded calls that turn a rejection
 * or a hang into the kit's failure, the case's seeded randomness, durability
 * violations, and the instances to close at the end.
 */
export class KitCaseBase {
  /** Settings of the case. */
  readonly settings: KitSettings;
  /** The case's seeded randomness. */
  readonly random: () => number;
  /** Durability violations seen by the probe. */
  readonly durability: string[] = [];
  readonly #failure: new (message: string) => KitFailure;
  readonly #closeHost: () => unknown;
  readonly #opened: Closable[] = [];

  /**
   * Build for `settings`; the kit fails with `failure` (its {@link KitFailure}
   * subclass) and tears the host's case down with `closeHost`.
   */
  constructor(
    settings: KitSettings,
    failure: new (message: string) => KitFailure,
    closeHost: () => unknown,
  ) {
    this.settings = settings;
    this.random = seededRandom(settings.seed);
    this.#failure = failure;
    this.#closeHost = closeHost;
  }

  #fail(message: string): KitFailure {
    return new this.#failure(message);
  }

  #isFailure(e: unknown): boolean {
    return e instanceof this.#failure;
  }

  /** `p`'s value; a rejection or a hang becomes a failure naming `what`. */
  async call<T>(p: Promise<T> | T, what: string): Promise<T> {
    try {
      return await within(p, this.settings.timeoutMs, what, (m) => this.#fail(m));
    } catch (e) {
      if (this.#isFailure(e)) throw e;
      throw this.#fail(
        `${what} rejected: ${describeThrown(e)} (a store rejects only when the outcome is ` +
          "unknown, and nothing here made it so)",
      );
    }
  }

  /**
   * `value` (an optional hook of the host), or the kit's failure when it is
   * missing: the host must provide `what` or declare it lacks `capability`.
   */
  need<T>(value: T | null | undefined, what: string, capability: string): T {
    if (value === undefined || value === null) {
      throw this.#fail(`the host must provide ${what} or declare it lacks ${capability}`);
    }
    return value;
  }

  /**
   * Durability probe: read an acknowledged write back with `read` (through
   * the case's fresh probe instance) and record a violation unless `check`
   * finds it there. `check` answers `true` (read back), `"skip"` (cannot be
   * judged, e.g. revoked since) or the revision it saw (`-1`: nothing).
   */
  async readBack<T>(
    what: string,
    revision: number,
    read: () => Promise<T>,
    check: (seen: T) => true | "skip" | number,
  ): Promise<void> {
    let seen: T;
    try {
      seen = await read();
    } catch (e) {
      this.durability.push(
        `a fresh adapter instance could not read back an acknowledged ${what}: ${
          describeThrown(e)
        }`,
      );
      return;
    }
    const verdict = check(seen);
    if (verdict === true || verdict === "skip") return;
    this.durability.push(
      `an acknowledged ${what} (revision ${revision}) was not read back by a fresh adapter ` +
        `instance (it read ${verdict < 0 ? "nothing" : `revision ${verdict}`}): acknowledge ` +
        "only after COMMIT, and keep no per-instance cache",
    );
  }

  /**
   * {@link pendingThrough} with this case's patience (a quarter of
   * `timeoutMs`) for a round trip the store does not answer.
   */
  pending(p: Promise<unknown>, ms: number, roundTrip: () => Promise<unknown>): Promise<boolean> {
    return pendingThrough(p, ms, roundTrip, this.settings.timeoutMs / 4);
  }

  /** Remember `instance` to close it at the end of the case. */
  track<W extends Closable>(instance: W): W {
    this.#opened.push(instance);
    return instance;
  }

  /**
   * Run one case body with this environment; an error that is not the
   * kit's failure becomes one (the adapter answered something unexpected: a
   * verdict, never a crash). Always closes every tracked instance, then the
   * host; then, if the body passed, checks durability (every acknowledged
   * write was read back).
   */
  async run(body: () => Promise<void>): Promise<void> {
    try {
      await body();
    } catch (e) {
      if (this.#isFailure(e)) throw e;
      throw this.#fail(
        `the case failed on an unexpected answer: ${e instanceof Error ? e.message : String(e)}`,
      );
    } finally {
      for (const w of this.#opened.splice(0)) {
        try {
          await w.close?.();
        } catch {
          // Closing is best effort.
        }
      }
      await this.#closeHost();
    }
    if (this.durability.length > 0) throw this.#fail(this.durability[0]);
  }
}
