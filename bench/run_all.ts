/**
 * Runs every benchmark script in `bench/` one after another (each prints its
 * own numbers and ratios and checks its goals with `bench/_timing.ts`'s
 * `Goals`, exiting 1 on a miss), then the `Deno.bench`-only file through
 * `deno bench`, lists the scripts that missed a goal, and exits 1 when any
 * did. `bench/interactions_bench.ts` has no goal (issue 6 set none): it only
 * prints timings.
 *
 * Usage: `deno task bench` (run it on a quiet machine: the ratios compare
 * our code with the peer in the same process, but absolute numbers move with
 * load).
 *
 * @module
 */
const SCRIPTS = [
  "sse_bench.ts",
  "wire_bench.ts",
  "blocks_bench.ts",
  "bundle_bench.ts",
  "message_bench.ts",
  "message_parse_bench.ts",
  "recovery_bench.ts",
  "agents_bench.ts",
  "legacy_bench.ts",
  "inspect_bench.ts",
];
const DENO_BENCH = ["interactions_bench.ts"];

const dir = new URL(".", import.meta.url);
const missed: string[] = [];
async function run(args: string[], label: string): Promise<void> {
  console.log(`\n=== ${label} ===`);
  const { code } = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: new URL("..", dir),
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) missed.push(`${label} (exit ${code})`);
}
for (const s of SCRIPTS) await run(["run", "-A", `bench/${s}`], s);
await run(["bench", "-A", ...DENO_BENCH.map((f) => `bench/${f}`)], DENO_BENCH.join(" + "));
console.log(
  missed.length === 0
    ? "\nall benchmarks ran; every goal met"
    : `\nGOAL MISSED in: ${missed.join(", ")}`,
);
if (missed.length > 0) Deno.exit(1);
