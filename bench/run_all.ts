/**
 * Runs every side-by-side benchmark script in `bench/` one after another
 * (each prints its own numbers and ratios), then the `Deno.bench`-only
 * files through `deno bench`, and lists any script that reported a missed
 * goal (non-zero exit).
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
  "message_bench.ts",
  "recovery_bench.ts",
  "agents_bench.ts",
  "inspect_bench.ts",
];
const DENO_BENCH = ["legacy_bench.ts", "interactions_bench.ts"];

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
    ? "\nall benchmarks ran; no goal reported missed"
    : `\nmissed: ${missed.join(", ")}`,
);
if (missed.length > 0) Deno.exit(1);
