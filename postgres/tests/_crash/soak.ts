/**
 * The crash test for as many kill rounds as asked (default 10,000; the test
 * suite runs 200): `deno task soak:postgres [--rounds N] [--workers N]
 * [--seed N]`. Uses `DATABASE_URL` (127.0.0.1), else starts a throwaway
 * cluster. Prints progress every 10 s and the report; exits 1 when an
 * invariant was violated.
 *
 * @module
 */
import { databaseUrl } from "../_helpers/db.ts";
import { failures, runCrash } from "./run.ts";

const arg = (name: string, fallback: number) => {
  const i = Deno.args.indexOf(`--${name}`);
  const v = i >= 0 ? Number(Deno.args[i + 1]) : fallback;
  if (!Number.isSafeInteger(v) || v < 1) {
    throw new RangeError(`--${name} must be a positive integer`);
  }
  return v;
};
const rounds = arg("rounds", 10_000);
const report = await runCrash({
  url: await databaseUrl(),
  rounds,
  workers: arg("workers", 4),
  seed: arg("seed", Date.now() % 1_000_000),
  log: (l) => console.log(l),
});
const bad = failures(report);
console.log(JSON.stringify({ ...report, schema: undefined }, null, 1));
console.log(
  bad.length === 0
    ? `soak: ${report.rounds} kill rounds, ${report.processes} processes, ${
      (report.elapsedMs / 1000).toFixed(0)
    } s: every invariant held`
    : `soak: ${bad.length} INVARIANT VIOLATIONS:\n${bad.slice(0, 50).join("\n")}`,
);
Deno.exit(bad.length === 0 ? 0 : 1);
