/**
 * Legacy adapter and `inspect` throughput.
 *
 *   deno run -A bench/legacy_bench.ts     prints frames/s and the inspect size ratio, checks the goal
 *   deno bench -A bench/legacy_bench.ts   the same workloads as Deno.bench cases
 *
 * Goal: `inspect` is linear on a Scout capture (20k events take ≤ 2.3× the
 * CPU time of 10k); exits 1 when it is missed.
 *
 * @module
 */
import { decodeLegacyChatFrame, upgradeLegacyChatFrame } from "../legacy.ts";
import { inspectText } from "../src/cli/inspect.ts";
import { bestOf, duel, Goals } from "./_timing.ts";

const N = 10_000;
const frames = Array.from({ length: N }, (_, i) => ({
  id: String(i + 1),
  data: i % 10 === 0
    ? JSON.stringify({ type: "tool_start", name: "search", callId: `c${i}` })
    : JSON.stringify({ type: "token", content: `word ${i} ` }),
}));

function scoutCapture(events: number): string {
  let s = 'id: 1\ndata: {"type":"session","sessionId":"s"}\n\n';
  for (let i = 2; i < events; i++) {
    s += `id: ${i}\ndata: {"type":"token","content":"token number ${i} "}\n\n`;
  }
  return s + `id: ${events}\ndata: {"type":"done"}\n\n`;
}
const small = scoutCapture(10_000);
const large = scoutCapture(20_000);

Deno.bench("JSON.parse only ×10k scout frames (floor)", { group: "legacy", baseline: true }, () => {
  for (const f of frames) JSON.parse(f.data);
});

Deno.bench("decodeLegacyChatFrame ×10k scout frames", { group: "legacy" }, () => {
  for (const f of frames) decodeLegacyChatFrame(f, "scout");
});

Deno.bench("upgradeLegacyChatFrame ×10k scout frames", { group: "legacy" }, () => {
  let seq = 0;
  const ctx = {
    dialect: "scout" as const,
    conversationId: "c",
    turnId: "t",
    allocate: () => ({ eventId: `t:${++seq}`, seq }),
  };
  for (const f of frames) upgradeLegacyChatFrame(f, ctx);
});

Deno.bench(`inspect 10k-event Scout capture (${(small.length / 1e6).toFixed(1)} MB)`, {
  group: "inspect",
  baseline: true,
}, () => {
  inspectText(small);
});

Deno.bench(`inspect 20k-event Scout capture (${(large.length / 1e6).toFixed(1)} MB)`, {
  group: "inspect",
}, () => {
  inspectText(large);
});

if (import.meta.main) {
  const goals = new Goals();
  const decode = bestOf(() => {
    for (const f of frames) decodeLegacyChatFrame(f, "scout");
  }, 20);
  console.log(
    `decodeLegacyChatFrame: ${
      Math.round(N / (decode.cpu / 1000)).toLocaleString("en-US")
    } frames/s`,
  );
  const [t10, t20] = duel(() => inspectText(small), () => inspectText(large), 7);
  const ratio = t20.cpu / t10.cpu;
  console.log(
    `inspect 10k events ${t10.cpu.toFixed(1)} ms, 20k events ${t20.cpu.toFixed(1)} ms (CPU)`,
  );
  goals.check("inspect 20k / 10k events ≤ 2.3× (linear)", ratio <= 2.3, `${ratio.toFixed(2)}×`);
  goals.finish();
}
