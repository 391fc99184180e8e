/**
 * Offline soak of the recovery interleaving suite: many more fc.scheduler
 * runs than CI. Usage:
 *
 *   deno run tests/recovery/soak.ts [--runs 1000000] [--seed 1] [--variant reference]
 *
 * Exits 1 with the counterexample on the first violated invariant. With a
 * broken `--variant` it is expected to fail (that is the point of them).
 */
import fc from "../_helpers/seed.ts";
import { INTERLEAVING_VARIANTS, type Variant } from "./_broken_stores.ts";
import { interleavingProperty } from "./_interleaving.ts";

function arg(name: string, fallback: string): string {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < Deno.args.length ? Deno.args[i + 1] : fallback;
}

const runs = Number(arg("runs", "1000000"));
const seed = Number(arg("seed", "1"));
const variant = arg("variant", "reference") as Variant;
if (variant !== "reference" && !INTERLEAVING_VARIANTS.includes(variant as never)) {
  console.error(`unknown variant ${variant}`);
  Deno.exit(2);
}
const batch = 50_000;
const t0 = performance.now();
for (let done = 0, b = 0; done < runs; done += batch, b++) {
  const n = Math.min(batch, runs - done);
  const r = await fc.check(interleavingProperty(variant), { numRuns: n, seed: seed + b });
  if (r.failed) {
    console.error(`FAILED after ${done + r.numRuns} runs (batch seed ${seed + b}):`);
    console.error(fc.defaultReportMessage(r));
    Deno.exit(1);
  }
  const secs = (performance.now() - t0) / 1000;
  console.log(
    `${done + n} runs ok (${variant}), ${secs.toFixed(1)} s, ${
      ((done + n) / secs).toFixed(0)
    } runs/s`,
  );
}
console.log(`soak passed: ${runs} seeded interleavings, 0 invariant violations`);
