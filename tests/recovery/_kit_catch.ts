// Running a conformance kit against planted bugs (shared by the recovery
// and interactions kit tests).
import assert from "node:assert/strict";

/** What both kits' cases look like. */
export interface KitCaseLike {
  readonly name: string;
  readonly skip?: string;
  run(): Promise<void>;
}

/**
 * Run every case of `cases`; each failure must be the kit's verdict
 * (`isVerdict`), never a crash. The names of the failing cases.
 */
export async function failingCases(
  cases: readonly KitCaseLike[],
  isVerdict: (e: unknown) => boolean,
  label: string,
): Promise<string[]> {
  const failed: string[] = [];
  for (const c of cases) {
    if (c.skip !== undefined) continue;
    try {
      await c.run();
    } catch (e) {
      assert.ok(isVerdict(e), `${label}: ${c.name} crashed: ${e}`);
      failed.push(c.name);
    }
  }
  return failed;
}

/**
 * Seeds 1..`runs`: run `caseFor(seed)` and count the failures that are
 * verdicts whose message matches `reason`; the others are misses.
 */
export async function catches(
  runs: number,
  caseFor: (seed: number) => KitCaseLike | undefined,
  isVerdict: (e: unknown) => boolean,
  reason: RegExp,
): Promise<{ caught: number; misses: string[] }> {
  let caught = 0;
  const misses: string[] = [];
  for (let seed = 1; seed <= runs; seed++) {
    const c = caseFor(seed);
    assert.ok(c, "no such case");
    try {
      await c.run();
      misses.push(`seed ${seed}: passed`);
    } catch (e) {
      if (isVerdict(e) && reason.test((e as Error).message)) caught++;
      else misses.push(`seed ${seed}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return { caught, misses };
}
