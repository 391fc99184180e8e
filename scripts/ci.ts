/**
 * `deno task ci`: every CI step in order, each run even when an earlier one
 * failed, then one line per step (result, duration) and the closing line
 * `N passed, M failed`: N and M are the test counts from `deno test`'s
 * summary, and every other step that failed adds one to M (as does a test
 * step that failed without a summary). Exits non-zero when anything failed.
 *
 * Usage: `deno task ci` (or `deno run --allow-run --allow-read --allow-env
 * scripts/ci.ts [step …]` to run only the named steps).
 *
 * @module
 */

/** The CI steps, in order: each is a `deno task` name. */
const STEPS = [
  "check",
  "lint",
  "fmt:check",
  "doc:lint",
  "test",
  "conformance",
  "build:npm",
  "build:npm:postgres",
  "edge",
  "publish:dry",
  "publish:dry:postgres",
] as const;

/** Keep this much of a step's output to read `deno test`'s summary from. */
const TAIL_CHARS = 64 * 1024;

interface StepResult {
  readonly name: string;
  readonly ok: boolean;
  readonly code: number;
  readonly ms: number;
  readonly tail: string;
}

async function pump(
  from: ReadableStream<Uint8Array>,
  to: { write(b: Uint8Array): Promise<number> },
  keep: (s: string) => void,
): Promise<void> {
  const decoder = new TextDecoder();
  for await (const chunk of from) {
    let off = 0;
    while (off < chunk.length) off += await to.write(chunk.subarray(off));
    keep(decoder.decode(chunk, { stream: true }));
  }
}

async function runStep(name: string): Promise<StepResult> {
  console.log(`\n[ci] ── ${name} ──`);
  const started = performance.now();
  let tail = "";
  const keep = (s: string) => {
    tail = (tail + s).slice(-TAIL_CHARS);
  };
  let code = 1;
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["task", name],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    await Promise.all([
      pump(child.stdout, Deno.stdout, keep),
      pump(child.stderr, Deno.stderr, keep),
    ]);
    code = (await child.status).code;
  } catch (e) {
    console.error(`[ci] ${name}: could not run: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { name, ok: code === 0, code, ms: performance.now() - started, tail };
}

/** `deno test`'s closing summary, `ok | 12 passed | 0 failed (3s)`, as counts. */
export function testCounts(output: string): { passed: number; failed: number } | null {
  // deno may colour it despite NO_COLOR in a child; strip ANSI escapes first.
  // deno-lint-ignore no-control-regex
  const plain = output.replace(/\x1b\[[0-9;]*m/g, "");
  const all = [...plain.matchAll(/^(?:ok|FAILED) \| (\d+) passed[^|\n]*\| (\d+) failed/gm)];
  const last = all.at(-1);
  return last ? { passed: Number(last[1]), failed: Number(last[2]) } : null;
}

function seconds(ms: number): string {
  return ms >= 60_000
    ? `${Math.floor(ms / 60_000)}m${String(Math.round((ms % 60_000) / 1000)).padStart(2, "0")}s`
    : `${(ms / 1000).toFixed(1)}s`;
}

if (import.meta.main) {
  const known = new Set<string>(STEPS);
  const wanted = Deno.args.length > 0 ? Deno.args : [...STEPS];
  const unknown = wanted.filter((s) => !known.has(s));
  if (unknown.length > 0) {
    console.error(`[ci] unknown step(s): ${unknown.join(", ")} (steps: ${STEPS.join(", ")})`);
    console.log("0 passed, 1 failed");
    Deno.exit(2);
  }
  const startedAll = performance.now();
  const results: StepResult[] = [];
  for (const name of wanted) results.push(await runStep(name));

  let passed = 0;
  let failed = 0;
  console.log("\n[ci] steps:");
  for (const r of results) {
    let note = r.ok ? "ok" : `FAILED (exit ${r.code})`;
    if (r.name === "test") {
      const counts = testCounts(r.tail);
      if (counts) {
        passed += counts.passed;
        failed += counts.failed;
        note += `, ${counts.passed} passed, ${counts.failed} failed`;
        if (!r.ok && counts.failed === 0) failed++; // e.g. an uncaught error after the summary
      } else {
        note += ", no test summary";
        failed++;
      }
    } else if (!r.ok) {
      failed++;
    }
    console.log(`[ci]   ${r.name.padEnd(22)} ${seconds(r.ms).padStart(8)}  ${note}`);
  }
  const bad = results.filter((r) => !r.ok).map((r) => r.name);
  console.log(
    `[ci] total ${seconds(performance.now() - startedAll)}; ` +
      (bad.length ? `failed steps: ${bad.join(", ")}` : "every step passed"),
  );
  console.log(`${passed} passed, ${failed} failed`);
  Deno.exit(bad.length > 0 || failed > 0 ? 1 : 0);
}
