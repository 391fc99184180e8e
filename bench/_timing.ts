/**
 * Timing and goal helpers shared by every bench script in `bench/`.
 *
 * Times are in milliseconds. CPU time is the process's user + system time
 * (V8's GC threads included): other processes competing for this 2-core
 * machine do not count against us, where wall time would. Every helper keeps
 * the best (minimum) of several runs, because noise only ever adds time, and
 * side-by-side helpers alternate the sides so load hits both alike.
 *
 * {@link Goals} collects the pass/fail checks of a script, prints them, and
 * exits with code 1 when one was missed, so `deno task bench` fails loudly.
 *
 * @module
 */
import { cpuUsage } from "node:process";

/** Process CPU time (user + system) so far, ms. */
export function cpuMs(): number {
  const u = cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Best (minimum) times of one run, ms. */
export interface Timing {
  /** Best process CPU time (user + system). */
  cpu: number;
  /** Best wall-clock time. */
  wall: number;
}

/** A {@link Timing} plus the value the last run returned (a checksum, say). */
export interface TimingOf<T> extends Timing {
  /** What the measured function returned on its last run. */
  last: T;
}

function timeOnce<T>(fn: () => T, into: TimingOf<T>): void {
  const c0 = cpuMs();
  const t0 = performance.now();
  into.last = fn();
  const t1 = performance.now();
  const c1 = cpuMs();
  into.wall = Math.min(into.wall, t1 - t0);
  into.cpu = Math.min(into.cpu, c1 - c0);
}

/** Best-of-`runs` CPU and wall time of `fn`, after `warmup` unmeasured runs (JIT). */
export function bestOf<T>(fn: () => T, runs: number, warmup = 2): TimingOf<T> {
  const r: TimingOf<T> = { cpu: Infinity, wall: Infinity, last: fn() };
  for (let i = 1; i < warmup; i++) fn();
  for (let i = 0; i < runs; i++) timeOnce(fn, r);
  return r;
}

/** {@link bestOf} for an async function (wall and CPU time around the awaited call). */
export async function bestOfAsync<T>(
  fn: () => Promise<T>,
  runs: number,
  warmup = 1,
): Promise<TimingOf<T>> {
  let last = await fn();
  for (let i = 1; i < warmup; i++) await fn();
  const r: TimingOf<T> = { cpu: Infinity, wall: Infinity, last };
  for (let i = 0; i < runs; i++) {
    const c0 = cpuMs();
    const t0 = performance.now();
    last = await fn();
    const t1 = performance.now();
    const c1 = cpuMs();
    r.wall = Math.min(r.wall, t1 - t0);
    r.cpu = Math.min(r.cpu, c1 - c0);
    r.last = last;
  }
  return r;
}

/**
 * Best-of-`runs` for two functions run alternately, in alternating order
 * (a b, b a, a b, …), after one warm-up run each.
 */
export function duel<A, B>(
  a: () => A,
  b: () => B,
  runs: number,
): [TimingOf<A>, TimingOf<B>] {
  const ra: TimingOf<A> = { cpu: Infinity, wall: Infinity, last: a() };
  const rb: TimingOf<B> = { cpu: Infinity, wall: Infinity, last: b() };
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      timeOnce(a, ra);
      timeOnce(b, rb);
    } else {
      timeOnce(b, rb);
      timeOnce(a, ra);
    }
  }
  return [ra, rb];
}

/**
 * Best rate (operations per CPU second) of each case: `rounds` rounds in
 * which every case in turn repeats for `roundMs` of wall time; each call of
 * a case counts `opsPerCall` operations. After 200 warm-up calls per case.
 */
export function bestRates(
  cases: readonly (() => unknown)[],
  opsPerCall: number,
  rounds = 8,
  roundMs = 200,
): number[] {
  for (const fn of cases) for (let i = 0; i < 200; i++) fn();
  const best = cases.map(() => 0);
  for (let round = 0; round < rounds; round++) {
    cases.forEach((fn, k) => {
      let calls = 0;
      const start = performance.now();
      const cpu0 = cpuMs();
      while (performance.now() - start < roundMs) {
        fn();
        calls++;
      }
      const cpu = cpuMs() - cpu0;
      if (cpu > 0) best[k] = Math.max(best[k], (calls * opsPerCall) / (cpu / 1000));
    });
  }
  return best;
}

/** Median and minimum wall time and median CPU time of runs, ms. */
export interface Spread {
  /** Median wall time. */
  wall: number;
  /** Minimum wall time. */
  wallMin: number;
  /** Median CPU time. */
  cpu: number;
}

/**
 * Two workloads timed alternately (a, b, a, b, …) for `rounds` rounds after
 * `warm` unmeasured rounds: medians (robust for the short runs of a size
 * ratio) and the minimum wall time of each.
 */
export function medianPair(
  a: () => unknown,
  b: () => unknown,
  rounds: number,
  warm: number,
): { a: Spread; b: Spread } {
  for (let i = 0; i < warm; i++) {
    a();
    b();
  }
  const wa: number[] = [], wb: number[] = [], ca: number[] = [], cb: number[] = [];
  const one = (fn: () => unknown, wall: number[], cpu: number[]) => {
    const c0 = cpuMs();
    const t0 = performance.now();
    fn();
    wall.push(performance.now() - t0);
    cpu.push(cpuMs() - c0);
  };
  for (let i = 0; i < rounds; i++) {
    one(a, wa, ca);
    one(b, wb, cb);
  }
  return {
    a: { wall: median(wa), wallMin: Math.min(...wa), cpu: median(ca) },
    b: { wall: median(wb), wallMin: Math.min(...wb), cpu: median(cb) },
  };
}

/**
 * Wall times of `fn` over `runs` runs after `warm` unmeasured ones: the
 * median (robust for sub-millisecond work on a shared machine) and the
 * minimum, ms.
 */
export function medianOf(
  fn: () => unknown,
  runs: number,
  warm: number,
): { median: number; min: number } {
  for (let i = 0; i < warm; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return { median: median(times), min: Math.min(...times) };
}

/** The median of `xs` (the upper one for an even count). */
export function median(xs: readonly number[]): number {
  return [...xs].sort((p, q) => p - q)[xs.length >> 1];
}

/**
 * The goals of one bench script. {@link Goals.check} records and prints one
 * check; {@link Goals.finish} prints the verdict and exits with code 1 when a
 * goal was missed (so `deno task bench` fails).
 */
export class Goals {
  readonly #missed: string[] = [];
  #checked = 0;

  /** Record the goal `name` as met when `ok`; prints `ok` or `GOAL MISSED`. Returns `ok`. */
  check(name: string, ok: boolean, detail = ""): boolean {
    this.#checked++;
    if (!ok) this.#missed.push(name);
    console.log(
      `${ok ? "ok         " : "GOAL MISSED"}  ${name}${detail === "" ? "" : `: ${detail}`}`,
    );
    return ok;
  }

  /** Print the verdict; exit with code 1 when a goal was missed (or none was checked). */
  finish(): void {
    if (this.#checked === 0) {
      console.log("\nGOAL MISSED: no goal was checked");
      Deno.exit(1);
    }
    if (this.#missed.length > 0) {
      console.log(
        `\nGOAL MISSED (${this.#missed.length} of ${this.#checked}): ${this.#missed.join("; ")}`,
      );
      Deno.exit(1);
    }
    console.log(`\nall ${this.#checked} goals met`);
  }
}
