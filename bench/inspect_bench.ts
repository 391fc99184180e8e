/**
 * `inspect` on incident-sized captures: `deno run -A bench/inspect_bench.ts`.
 *
 * For each capture it prints the time of the whole command in process
 * (`runCli`: read, analyse, render or `--json`), the floor next to it (only
 * `JSON.parse` of every frame, what any reader must pay) with the ratio, and
 * the size of the output. Goals (exit 1 when one is missed):
 * - the human output of 200 000 invalid envelopes stays under 100 lines
 *   (it was 200 008: one line per problem);
 * - analysing a 200 000-event capture costs at most 25× its JSON.parse floor
 *   (fold, timeline, rendering included), and 200 000 events at most 40× what
 *   10 000 cost (linear, with room for GC and a busy machine; quadratic work would be 400×).
 *
 * @module
 */
import { runCli } from "../src/cli/run.ts";
import { memoryIO } from "../tests/cli/_io.ts";

const enc = new TextEncoder();

function envelope(seq: number, event: unknown, at: number): string {
  return JSON.stringify({
    schemaVersion: 1,
    conversationId: "c",
    turnId: "t",
    eventId: `e${seq}`,
    seq,
    at,
    event,
  });
}

/** `n` events of one turn (deltas, a tool call every 50 events, `done`), 20 ms apart, one 8 s stall. */
function v1Capture(n: number, sse: boolean): string {
  const lines: string[] = [];
  for (let i = 1; i <= n; i++) {
    const at = 1_767_225_600_000 + i * 20 + (i > n / 2 ? 8_000 : 0);
    const event = i === n
      ? { type: "done", stopReason: "complete" }
      : i % 50 === 0
      ? { type: "tool_call", callId: `k${i}`, name: "search", input: { q: `query ${i}` } }
      : { type: "delta", text: `word ${i} ` };
    const env = envelope(i, event, at);
    lines.push(sse ? `id: e${i}\nevent: ${event.type}\ndata: ${env}\n\n` : `${env}\n`);
  }
  return lines.join("");
}

function invalidCapture(n: number): string {
  const lines: string[] = [];
  for (let i = 1; i <= n; i++) lines.push(envelope(i, { type: "bogus" }, i) + "\n");
  return lines.join("");
}

async function runOnce(bytes: Uint8Array, args: string[]): Promise<{ ms: number; out: string }> {
  const m = memoryIO(bytes);
  const t0 = performance.now();
  await runCli(["-", ...args], m.io);
  return { ms: performance.now() - t0, out: m.out() };
}

function floor(text: string): number {
  const t0 = performance.now();
  let n = 0;
  for (const line of text.split("\n")) {
    const data = line.startsWith("data: ") ? line.slice(6) : line;
    if (data.startsWith("{")) n += JSON.parse(data) === null ? 0 : 1;
  }
  if (n < 0) console.log(n);
  return performance.now() - t0;
}

async function median(bytes: Uint8Array, args: string[], runs: number) {
  const results = [];
  for (let i = 0; i < runs; i++) results.push(await runOnce(bytes, args));
  results.sort((a, b) => a.ms - b.ms);
  return results[Math.floor(runs / 2)];
}

const cases: { name: string; text: string; runs: number }[] = [
  { name: "10k-event v1 NDJSON", text: v1Capture(10_000, false), runs: 7 },
  { name: "200k-event v1 NDJSON", text: v1Capture(200_000, false), runs: 3 },
  { name: "200k-event v1 SSE", text: v1Capture(200_000, true), runs: 3 },
  { name: "200k invalid envelopes", text: invalidCapture(200_000), runs: 3 },
];

const missed: string[] = [];
const times = new Map<string, number>();
console.log(
  "capture                    MB     human ms  --json ms  floor ms  ratio  lines  json KB",
);
for (const c of cases) {
  const bytes = enc.encode(c.text);
  await runOnce(bytes, []); // warm-up
  const human = await median(bytes, [], c.runs);
  const json = await median(bytes, ["--json"], c.runs);
  const floors = Array.from({ length: c.runs }, () => floor(c.text)).sort((a, b) => a - b);
  const f = floors[Math.floor(c.runs / 2)];
  const lines = human.out.split("\n").length - 1;
  times.set(c.name, human.ms);
  console.log(
    `${c.name.padEnd(26)} ${(bytes.length / 1e6).toFixed(1).padStart(5)}  ${
      human.ms.toFixed(0).padStart(8)
    }  ${json.ms.toFixed(0).padStart(9)}  ${f.toFixed(0).padStart(8)}  ${
      (human.ms / f).toFixed(1).padStart(5)
    }  ${String(lines).padStart(5)}  ${(json.out.length / 1024).toFixed(0).padStart(7)}`,
  );
  if (c.name === "200k invalid envelopes" && lines >= 100) {
    missed.push(`200k invalid envelopes print ${lines} lines (goal < 100)`);
  }
  if (c.name.startsWith("200k-event") && human.ms > 25 * f) {
    missed.push(`${c.name}: ${(human.ms / f).toFixed(1)}× the JSON.parse floor (goal ≤ 25×)`);
  }
}
const scale = times.get("200k-event v1 NDJSON")! / times.get("10k-event v1 NDJSON")!;
console.log(`200k / 10k events: ${scale.toFixed(1)}× the time for 20× the events (goal ≤ 40×)`);
if (scale > 40) missed.push(`200k events take ${scale.toFixed(1)}× 10k events (goal ≤ 40×)`);
if (missed.length > 0) {
  console.log(`missed: ${missed.join("; ")}`);
  Deno.exit(1);
}
console.log("all inspect goals met");
