/**
 * Throughput of `splitTurnText` and the streaming `TurnTextScanner` on turn
 * text with tagged blocks and on adversarial text: whole, in 64-, 16- and
 * 4-character deltas through `push` (a relay forwarding each delta), and in
 * 4-character deltas through `write` with a `drain` every 16 deltas (a UI
 * taking output once per frame). A model streams a few characters per
 * delta, where per-call cost dominates.
 *
 *   deno run -A bench/blocks_bench.ts [name]   # the table, checks the goals (only the
 *                                              # workloads whose name contains `name`)
 *   deno bench bench/blocks_bench.ts           # the same workloads as Deno.bench cases
 *
 * Timing: process CPU time (user + system), best of 15 rounds; in each round
 * every case of a row runs once, in alternating order, so load from other
 * processes on this shared machine hits all of them alike. Each case is a
 * batch of repetitions taking at least ~10 ms. MB = 10^6 UTF-16 code units.
 *
 * Floors, measured in the same rounds over the same deltas, to tell our
 * per-call cost from machine load:
 * - `call`: a loop calling an empty `push(delta)` (a call, nothing read);
 * - `indexOf`: `indexOf("<")` on each delta (whole text: hopping from "<"
 *   to "<"), the native search, which reads no character in JavaScript;
 * - `min`: the cheapest scanner JavaScript allows: a call per delta that
 *   reads each character once (`charCodeAt`, looking for "<") and returns
 *   a fresh one-segment array, which `push` must (for `write`/`drain`: the
 *   deltas are joined with `+=` and one array is returned per drain;
 *   `splitTurnText`: one `charCodeAt` pass over the text).
 *
 * Goals (issues 3 and 10), every workload × feeding:
 * - speed: ≥ 100 MB/s on 1 MB where the machine allows it to be judged, else
 *   at most {@link RELATIVE}× the `min` floor's time. Precisely: CPU time ≤
 *   max(10 ms, RELATIVE × min floor). While the floor is fast, 10 ms binds
 *   (the absolute goal); when load slows the floor, the relative bound takes
 *   over, so a loaded machine neither fakes a miss nor hides one. Why the
 *   `min` floor and not the empty call: at 4-character deltas the empty
 *   call runs at ~3,000 MB/s here, but reading the characters and handing
 *   out the fresh result `push` must return already takes 4–8 ms per MB
 *   (125–250 MB/s) under the usual load of this shared 2-core machine, so
 *   100 MB/s at 4-character deltas is reachable only while the machine is
 *   quiet. 2.5× covers what a scanner must do beyond that floor: a tag
 *   state machine per character, output strings built from pieces, and
 *   parsing every block.
 * - linear: 2 MB takes ≤ 2.3× the time of 1 MB (not judged when 2 MB takes
 *   under 2 ms, ≥ 1,000 MB/s, where per-call constants and cache effects
 *   dominate the ratio; a miss is measured again, at most twice).
 * A speed miss is measured again, ours beside the `min` floor (at most
 * twice, the best of each kept). A miss prints `GOAL MISSED` and exits 1.
 *
 * @module
 */
import { MAX_BLOCK_BODY_LENGTH, splitTurnText, TurnTextScanner } from "../blocks.ts";
import { cpuMs, Goals } from "./_timing.ts";

const MB = 1_000_000;
/** Allowed CPU time per MB when the machine is fast enough to judge 100 MB/s, ms. */
const ABSOLUTE_MS = 10;
/** Allowed multiple of the `min` floor's time. */
const RELATIVE = 2.5;
/** How often the UI feeding drains (every this many 4-character deltas). */
const DRAIN_EVERY = 16;

/** ~1 KB per unit: prose with stray `<`, then one block, alternating ask / report. */
function blocksText(size: number): string {
  const parts: string[] = [];
  let len = 0;
  for (let i = 0; len < size; i++) {
    const prose = `Step ${i}: I looked at the failing build < 3 times and a<b. `.repeat(12);
    const block = i % 2 === 0
      ? `<ask>{"question":"Merge PR ${i}?","options":[{"id":"y","label":"Yes"},{"id":"n","label":"No"}],"refs":["P-${i}"]}</ask>`
      : `<REPORT>{"title":"Week ${i}","plans":[{"slug":"p${i}","title":"Ship","items":[{"id":"a","text":"tests","status":"done"},{"text":"docs","status":"wip"}]}]}</report>`;
    parts.push(prose, block);
    len += prose.length + block.length;
  }
  return parts.join("").slice(0, size);
}

/** Fill `size` code units with `unit` repeated. */
function fill(unit: string, size: number): string {
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
}

/** The mix of issue 3: `<` runs, nested opening tags, a body past the bound, unclosed blocks. */
function mixedAdversarial(size: number): string {
  const q = size / 4;
  const lt = "<".repeat(q);
  const nested = "<ask>".repeat(q / 5);
  const huge = "<report>" + '{"plans":[{"title":"' + "x".repeat(q - 30) + '"}]}';
  const unclosed = ('<report>{"plans":[ <ask>{"question":' + "y".repeat(30)).repeat(q / 60);
  return (lt + nested + huge + unclosed).slice(0, size).padEnd(size, "z");
}

/**
 * Blocks that never close within the size bound and no `</` anywhere, a
 * whole number of them (so 2 MB holds exactly twice the blocks of 1 MB): the
 * close-tag search must stop at the bound (tests/blocks counts that work
 * exactly; at 1–2 MB an unbounded search would still be cheap here).
 */
function tooLargeText(size: number): string {
  const unit = "<ask>" + "x".repeat(MAX_BLOCK_BODY_LENGTH + 1_000);
  return unit.repeat(Math.round(size / unit.length));
}

const WORKLOADS: readonly (readonly [string, (n: number) => string])[] = [
  ["1,000 blocks/MB", blocksText],
  ["adversarial mix", mixedAdversarial],
  ["dense <repor< prefixes", (n) => fill("<repor", n)],
  ["dense <ASK/<as prefixes", (n) => fill("<ASK <as<a<A x", n)],
  [
    "close-tag prefixes in bodies",
    (n) => fill("<report>" + "</repor".repeat(2_000) + "</report>", n),
  ],
  ["unclosed <ask> per 20 chars", (n) => fill("<ask>0123456789abcdef", n)],
  ["too-large blocks", tooLargeText],
];

/** How a workload is fed. */
interface Feeding {
  readonly name: string;
  /** Delta size (0: the whole text to `splitTurnText`). */
  readonly size: number;
  /** `write` every delta, `drain` every {@link DRAIN_EVERY}, instead of `push`. */
  readonly drain: boolean;
}

const FEEDINGS: readonly Feeding[] = [
  { name: "splitTurnText", size: 0, drain: false },
  { name: "push, 64-char deltas", size: 64, drain: false },
  { name: "push, 16-char deltas", size: 16, drain: false },
  { name: "push, 4-char deltas", size: 4, drain: false },
  { name: `write 4 chars, drain/${DRAIN_EVERY}`, size: 4, drain: true },
];

/** Pre-cut deltas, so the slicing is not timed. */
function deltas(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** Segments out of `splitTurnText` / the scanner fed `parts` (a checksum of the work). */
function ours(text: string, feeding: Feeding): () => number {
  if (feeding.size === 0) return () => splitTurnText(text).length;
  const parts = deltas(text, feeding.size);
  if (feeding.drain) {
    return () => {
      const s = new TurnTextScanner();
      let n = 0;
      for (let i = 0; i < parts.length; i++) {
        s.write(parts[i]);
        if (i % DRAIN_EVERY === DRAIN_EVERY - 1) n += s.drain().length;
      }
      return n + s.end().length;
    };
  }
  return () => {
    const s = new TurnTextScanner();
    let n = 0;
    for (let i = 0; i < parts.length; i++) n += s.push(parts[i]).length;
    return n + s.end().length;
  };
}

/** The `call` floor: an empty method call per delta. */
class EmptyScanner {
  n = 0;
  push(delta: string): void {
    this.n += delta.length;
  }
}

/** How many "<" `s` holds, reading each character in JavaScript. */
function countLt(s: string): number {
  let n = 0;
  for (let k = 0; k < s.length; k++) if (s.charCodeAt(k) === 0x3c) n++;
  return n;
}

/** The `min` floor: read every character once; a fresh one-segment array per push / per drain. */
class MinimalScanner {
  n = 0;
  #pending = "";
  push(delta: string): { kind: "text"; text: string }[] {
    this.n += countLt(delta);
    return [{ kind: "text", text: delta }];
  }
  write(delta: string): void {
    this.n += countLt(delta);
    this.#pending += delta;
  }
  drain(): { kind: "text"; text: string }[] {
    const text = this.#pending;
    this.#pending = "";
    return [{ kind: "text", text }];
  }
}

/** Results are kept here so no allocation can be optimised away. */
const sink: unknown[] = new Array(64).fill(null);

function callFloor(text: string, feeding: Feeding): (() => number) | null {
  if (feeding.size === 0) return null;
  const parts = deltas(text, feeding.size);
  return () => {
    const s = new EmptyScanner();
    for (let i = 0; i < parts.length; i++) s.push(parts[i]);
    return s.n;
  };
}

function indexOfFloor(text: string, feeding: Feeding): () => number {
  if (feeding.size === 0) {
    return () => {
      let n = 0;
      for (let j = text.indexOf("<"); j !== -1; j = text.indexOf("<", j + 1)) n++;
      return n;
    };
  }
  const parts = deltas(text, feeding.size);
  return () => {
    let n = 0;
    for (let i = 0; i < parts.length; i++) n += parts[i].indexOf("<");
    return n;
  };
}

function minFloor(text: string, feeding: Feeding): () => number {
  if (feeding.size === 0) {
    return () => countLt(text);
  }
  const parts = deltas(text, feeding.size);
  if (feeding.drain) {
    return () => {
      const s = new MinimalScanner();
      for (let i = 0; i < parts.length; i++) {
        s.write(parts[i]);
        if (i % DRAIN_EVERY === DRAIN_EVERY - 1) sink[i & 63] = s.drain();
      }
      sink[0] = s.drain();
      return s.n;
    };
  }
  return () => {
    const s = new MinimalScanner();
    for (let i = 0; i < parts.length; i++) sink[i & 63] = s.push(parts[i]);
    return s.n;
  };
}

/**
 * Best CPU time of each case, ms per run: `rounds` rounds, each running
 * every case once (a batch of `reps[k]` runs), forwards then backwards.
 */
function bestRotated(cases: readonly (() => number)[], rounds: number): number[] {
  const reps = cases.map((fn) => {
    fn(); // warm up
    const c0 = cpuMs();
    fn();
    return Math.max(1, Math.ceil(10 / Math.max(cpuMs() - c0, 0.01)));
  });
  const best = cases.map(() => Infinity);
  for (let round = 0; round < rounds; round++) {
    for (let step = 0; step < cases.length; step++) {
      const k = round % 2 === 0 ? step : cases.length - 1 - step;
      const c0 = cpuMs();
      for (let r = 0; r < reps[k]; r++) cases[k]();
      best[k] = Math.min(best[k], (cpuMs() - c0) / reps[k]);
    }
  }
  return best;
}

function loadAverage(): string {
  return Deno.loadavg().map((x) => x.toFixed(2)).join(" ");
}

if (import.meta.main) {
  const only = Deno.args[0]; // optional: only workloads whose name contains this
  console.log(`load average ${loadAverage()} (${navigator.hardwareConcurrency} CPUs)`);
  console.log(
    "ms = CPU ms per MB, best of 15 rounds; floors: call = an empty push per delta, indexOf = indexOf('<'),\n" +
      "min = a call reading each character once + a fresh one-segment result (see the module doc)",
  );
  const goals = new Goals();
  for (const [wname, gen] of WORKLOADS) {
    if (only !== undefined && !wname.includes(only)) continue;
    const one = gen(MB);
    const two = gen(2 * MB);
    for (const feeding of FEEDINGS) {
      const r1 = ours(one, feeding);
      const r2 = ours(two, feeding);
      const check = r1();
      if (check === 0 || (feeding.size > 0 && ours(one, FEEDINGS[0])() > check)) {
        throw new Error(`${wname}: runner mismatch`);
      }
      const call = callFloor(one, feeding);
      const cases = [indexOfFloor(one, feeding), minFloor(one, feeding), r1, r2];
      const best = bestRotated(call === null ? cases : [...cases, call], 15);
      const [tIndexOf, , , t2] = best;
      let [, tMin, t1] = best;
      const tCall = call === null ? "  -  " : best[4].toFixed(2).padStart(5);
      // A missed speed goal is measured again, ours and the `min` floor side by
      // side (at most twice, the best of each kept), like the size ratio below:
      // a burst of load during one side's batch can miss it for any code.
      for (
        let again = 0;
        again < 2 && t1 > Math.max(ABSOLUTE_MS, RELATIVE * tMin);
        again++
      ) {
        const [u0, u1] = bestRotated([cases[1], r1], 15);
        tMin = Math.min(tMin, u0);
        t1 = Math.min(t1, u1);
      }
      const allowed = Math.max(ABSOLUTE_MS, RELATIVE * tMin);
      // A missed 2 MB / 1 MB ratio is measured again (at most twice, the
      // best kept): one GC pause or a burst of load can miss it for any code.
      let ratio = t2 / t1;
      for (let again = 0; again < 2 && ratio > 2.3 && t2 >= 2; again++) {
        const [u1, u2] = bestRotated([r1, r2], 15);
        ratio = Math.min(ratio, u2 / u1);
      }
      const floors = `call ${tCall}, indexOf ${tIndexOf.toFixed(2).padStart(5)}, min ${
        tMin.toFixed(2).padStart(5)
      } (ours ${(t1 / tMin).toFixed(2).padStart(4)}× min)`;
      goals.check(
        `${feeding.name.padEnd(24)} ${wname.padEnd(28)}`,
        t1 <= allowed && (ratio <= 2.3 || t2 < 2),
        `${(1000 / t1).toFixed(0).padStart(5)} MB/s ${
          t1.toFixed(2).padStart(6)
        } ms | ${floors} | ` +
          `2 MB/1 MB ${ratio.toFixed(2)}× | goal ≤ ${allowed.toFixed(1)} ms (${
            allowed === ABSOLUTE_MS ? "100 MB/s" : `${RELATIVE}× min`
          })`,
      );
    }
  }
  console.log(`load average ${loadAverage()}`);
  goals.finish();
} else {
  for (const [wname, gen] of WORKLOADS) {
    const one = gen(MB);
    for (const feeding of FEEDINGS) {
      const run = ours(one, feeding);
      Deno.bench({ name: `${feeding.name} — ${wname} (1 MB)`, group: wname, fn: () => void run() });
    }
  }
}
