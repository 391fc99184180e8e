/**
 * One "never throws" property per public function, the same way everywhere:
 * hostile values (tests/_helpers/hostile.ts) in every argument position,
 * ≥ 10^4 runs. A call may return anything (the caller's `check` inspects
 * it) or throw only what the function documents (`allowed`); anything else
 * fails the property with the recipe labels of the arguments.
 *
 * @module
 */
import assert from "node:assert/strict";
import fc from "./seed.ts";
import { type Hostile, hostile, HOSTILE_RUNS, hostileLike } from "./hostile.ts";
import { describeThrown } from "../../src/_internal/describe.ts";

/** An argument position: hostile values, or hostile corruptions of well-shaped ones. */
export function arg<T>(wellShaped?: fc.Arbitrary<T>): fc.Arbitrary<Hostile> {
  return wellShaped === undefined ? hostile() : fc.oneof(hostile(), hostileLike(wellShaped));
}

/** Options of {@link attack}. */
export interface AttackOptions {
  /** The errors the function documents (default: none, it never throws). */
  allowed?: (e: unknown) => boolean;
  /** Inspect a normal return value (e.g. a Result's shape). */
  check?: (result: unknown, args: unknown[]) => void;
  /** Runs (default {@link HOSTILE_RUNS}). */
  runs?: number;
}

/**
 * Call `fn` with one hostile value per argument position, `runs` times;
 * asserts it returns (or throws only an `allowed` error).
 */
export function attack(
  args: fc.Arbitrary<Hostile>[],
  fn: (...args: unknown[]) => unknown,
  options: AttackOptions = {},
): void {
  fc.assert(
    fc.property(fc.tuple(...args), (recipes) => {
      const values = recipes.map((r) => r.build());
      let result: unknown;
      try {
        result = fn(...values);
      } catch (e) {
        if (options.allowed?.(e)) return;
        assert.fail(
          `threw ${describeThrown(e)} on (${recipes.map((r) => r.label).join(", ")})`,
        );
      }
      options.check?.(result, values);
    }),
    { numRuns: options.runs ?? HOSTILE_RUNS },
  );
}

/** Async form of {@link attack} (for functions returning promises or streams). */
export async function attackAsync(
  args: fc.Arbitrary<Hostile>[],
  fn: (...args: unknown[]) => Promise<unknown>,
  options: AttackOptions = {},
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(fc.tuple(...args), async (recipes) => {
      const values = recipes.map((r) => r.build());
      let result: unknown;
      try {
        result = await fn(...values);
      } catch (e) {
        if (options.allowed?.(e)) return;
        assert.fail(`threw ${describeThrown(e)} on (${recipes.map((r) => r.label).join(", ")})`);
      }
      options.check?.(result, values);
    }),
    { numRuns: options.runs ?? HOSTILE_RUNS },
  );
}

/** A Result-shaped value: `{ ok: true, value }` or `{ ok: false, error: { code, message } }`. */
export function assertResult(r: unknown): void {
  assert.ok(typeof r === "object" && r !== null, "not a Result");
  const x = r as { ok: unknown; error?: { code: unknown; message: unknown } };
  if (x.ok === true) return;
  assert.equal(x.ok, false);
  assert.equal(typeof x.error?.code, "string");
  assert.equal(typeof x.error?.message, "string");
}
