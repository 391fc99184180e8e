/**
 * Throughput of splitTurnText and the streaming TurnTextScanner.
 *
 *   deno run -A bench/blocks_bench.ts    # prints MB/s and 2 MB / 1 MB time ratios
 *   deno bench bench/blocks_bench.ts     # the same workloads as Deno.bench cases
 *
 * Targets (issue 3): ≥ 100 MB/s on 1 MB with 1,000 blocks and on 1 MB of
 * adversarial text; 2 MB takes ≤ 2.3× the time of 1 MB. A third workload
 * measures blocks over the size bound that never close.
 */
import process from "node:process";
import { MAX_BLOCK_BODY_LENGTH, splitTurnText, TurnTextScanner } from "../blocks.ts";

const MB = 1_000_000;

function blocksText(size: number): string {
  // ~1 KB per unit: prose + one block, alternating ask / report.
  const parts: string[] = [];
  let len = 0;
  let i = 0;
  while (len < size) {
    const prose = `Step ${i}: I looked at the failing build < 3 times and a<b. `.repeat(12);
    const block = i % 2 === 0
      ? `<ask>{"question":"Merge PR ${i}?","options":[{"id":"y","label":"Yes"},{"id":"n","label":"No"}],"refs":["P-${i}"]}</ask>`
      : `<REPORT>{"title":"Week ${i}","plans":[{"slug":"p${i}","title":"Ship","items":[{"id":"a","text":"tests","status":"done"},{"text":"docs","status":"wip"}]}]}</report>`;
    parts.push(prose, block);
    len += prose.length + block.length;
    i++;
  }
  return parts.join("").slice(0, size);
}

function adversarialText(size: number): string {
  const q = size / 4;
  const lt = "<".repeat(q); // 10^5+ '<' per MB
  const nested = "<ask>".repeat(q / 5); // <ask><ask>…
  const huge = "<report>" + '{"plans":[{"title":"' + "x".repeat(q - 30) + '"}]}'; // JSON past the size bound
  const unclosed = ('<report>{"plans":[ <ask>{"question":' + "y".repeat(30)).repeat(q / 60);
  return (lt + nested + huge + unclosed).slice(0, size).padEnd(size, "z");
}

function tooLargeText(size: number): string {
  // Blocks that never close within the size bound, and no "</" anywhere. The
  // close-tag search must stop at the bound; at 1–2 MB an unbounded search is
  // still too cheap to show here (it only shows from tens of MB), so
  // tests/blocks counts that work exactly.
  const unit = "<ask>" + "x".repeat(MAX_BLOCK_BODY_LENGTH + 1_000);
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
}

function runSplit(text: string): number {
  return splitTurnText(text).length;
}

function runScanner(text: string, chunk = 64): number {
  const s = new TurnTextScanner();
  let n = 0;
  for (let i = 0; i < text.length; i += chunk) n += s.push(text.slice(i, i + chunk)).length;
  return n + s.end().length;
}

/**
 * Best-of-`reps` CPU time (user + system, ms) of `fn`, and best wall time.
 * CPU time rather than wall time so that other processes competing for the
 * (2-core) machine do not count against us; the minimum because noise only
 * ever adds time. Wall time is printed too.
 */
function timeMs(fn: () => unknown, reps: number): { cpu: number; wall: number } {
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let r = 0; r < reps; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    fn();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { cpu: Math.min(...cpu), wall: Math.min(...wall) };
}

const WORKLOADS: [string, (n: number) => string][] = [
  ["1,000 blocks/MB", blocksText],
  ["adversarial", adversarialText],
  ["too-large blocks", tooLargeText],
];
// 64-char deltas as in issue 3; 16-char deltas are closer to real token
// streams (a few characters per delta), where per-push overhead dominates.
const RUNNERS: [string, (t: string) => number][] = [
  ["splitTurnText", runSplit],
  ["TurnTextScanner (64-char deltas)", (t) => runScanner(t)],
  ["TurnTextScanner (16-char deltas)", (t) => runScanner(t, 16)],
];

if (import.meta.main) {
  let failed = false;
  for (const [wname, gen] of WORKLOADS) {
    const one = gen(MB);
    const two = gen(2 * MB);
    for (const [rname, run] of RUNNERS) {
      for (let w = 0; w < 5; w++) run(one); // warm-up
      const m1 = timeMs(() => run(one), 31);
      const m2 = timeMs(() => run(two), 31);
      const t1 = m1.cpu;
      const mbps = 1 / (t1 / 1000);
      const ratio = m2.cpu / m1.cpu;
      const ok = mbps >= 100 && ratio <= 2.3;
      failed ||= !ok;
      console.log(
        `${rname.padEnd(34)} ${wname.padEnd(16)} 1 MB cpu ${t1.toFixed(2).padStart(7)} ms (wall ${
          m1.wall.toFixed(2)
        })  ${mbps.toFixed(0).padStart(5)} MB/s   2 MB/1 MB ${ratio.toFixed(2)}× (wall ${
          (m2.wall / m1.wall).toFixed(2)
        }×)  ${ok ? "ok" : "BELOW TARGET"}`,
      );
    }
  }
  if (failed) console.log("some targets missed (machine noise? re-run)");
} else {
  for (const [wname, gen] of WORKLOADS) {
    const one = gen(MB);
    for (const [rname, run] of RUNNERS) {
      Deno.bench({ name: `${rname} — ${wname} (1 MB)`, group: wname, fn: () => void run(one) });
    }
  }
}
