/**
 * Seeds for every randomised test, printed and replayable.
 *
 * Each property (a fast-check `assert` / `check` / `sample`, or a
 * hand-rolled generator) gets its seed from {@link seedFor}: the `FC_SEED`
 * environment variable when set, else a fresh random one. It prints
 * `seed=<n> <where>` before the property runs, so a failing run's output
 * names the seed; `FC_SEED=<n> deno task test --filter "<test name>" <file>`
 * replays it. A property that fixes its own seed keeps it (and prints it).
 *
 * Import fast-check through this module: `import fc from "../_helpers/seed.ts"`
 * is fast-check with `assert`, `check` and `sample` seeded this way.
 */
import fcBase from "fast-check";
import type * as FC from "fast-check";
import { rng } from "../agents/_generate.ts";

const ENV = "FC_SEED";

function envSeed(): number | undefined {
  let raw: string | undefined;
  try {
    raw = (globalThis as { Deno?: { env: { get(k: string): string | undefined } } }).Deno?.env
      .get(ENV);
  } catch {
    return undefined; // no --allow-env: draw a seed
  }
  if (raw === undefined || raw.trim() === "") return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw new Error(`${ENV}=${raw}: expected an integer seed`);
  return n;
}

/** The test file and line that called into this module (for the printed line). */
function callerSite(): string {
  const lines = (new Error().stack ?? "").split("\n").slice(1);
  // The first frame outside the shared helpers (attack(), hostile(), …) names the test.
  const here = lines.find((l) => l.includes("file://") && !l.includes("/_helpers/")) ??
    lines.find((l) => !l.includes("/_helpers/seed.ts"));
  const m = here?.match(/file:\/\/(\S+?):(\d+):\d+/);
  if (!m) return "unknown site";
  const file = m[1].replace(/^.*?\/((?:tests|postgres|conformance)\/)/, "$1");
  return `${file}:${m[2]}`;
}

/**
 * The seed for one property: `fixed` when the test fixes one, else
 * `FC_SEED` when set, else a random integer in [0, 2^31). Prints
 * `seed=<n> <label or caller file:line>`.
 */
export function seedFor(label?: string, fixed?: number): number {
  const seed = fixed ?? envSeed() ?? Math.floor(Math.random() * 2 ** 31);
  console.log(`seed=${seed} ${label ?? callerSite()}${fixed !== undefined ? " (fixed)" : ""}`);
  return seed;
}

/**
 * A deterministic random source in `[0, 1)` (in place of `Math.random`) from
 * {@link seedFor}'s seed, which it prints.
 */
export function randomFor(label?: string, fixed?: number): () => number {
  return rng(seedFor(label ?? callerSite(), fixed));
}

type Params = { seed?: number; numRuns?: number } | undefined;

function seeded<P extends Params>(params: P): P & { seed: number } {
  return { ...params, seed: seedFor(undefined, params?.seed) } as P & { seed: number };
}

const assert =
  ((property: unknown, params?: Params) =>
    (fcBase.assert as (p: unknown, q: Params) => unknown)(
      property,
      seeded(params),
    )) as typeof fcBase.assert;

const check =
  ((property: unknown, params?: Params) =>
    (fcBase.check as (p: unknown, q: Params) => unknown)(
      property,
      seeded(params),
    )) as typeof fcBase.check;

const sample = ((generator: unknown, params?: number | Params) => {
  const p = typeof params === "number" ? { numRuns: params } : params;
  return (fcBase.sample as (g: unknown, q: Params) => unknown)(generator, seeded(p));
}) as typeof fcBase.sample;

/** fast-check, with `assert`, `check` and `sample` seeded by {@link seedFor}. */
const fc: typeof fcBase = { ...fcBase, assert, check, sample };
// The fast-check types the tests name as `fc.X` (a type-only namespace merged with the value).
declare namespace fc {
  /** fast-check's `Arbitrary`. */
  export type Arbitrary<T> = FC.Arbitrary<T>;
  /** fast-check's `AsyncCommand`. */
  export type AsyncCommand<M extends object, R, C extends boolean = false> = FC.AsyncCommand<
    M,
    R,
    C
  >;
  /** fast-check's `Scheduler`. */
  export type Scheduler<M = unknown> = FC.Scheduler<M>;
}
export default fc;
