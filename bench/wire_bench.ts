/**
 * v1 frame parse+validate vs AG-UI's `EventSchemas.parse` (@ag-ui/core 1.0.0)
 * on equivalent frames. Run: `deno run -A bench/wire_bench.ts`.
 *
 * Equivalent frames (one typical turn, 99 frames, mostly text):
 *
 * | ours (v1 envelope) | AG-UI |
 * |---|---|
 * | session | RUN_STARTED {threadId, runId} |
 * | delta ×80 | TEXT_MESSAGE_CONTENT {messageId, delta} |
 * | reasoning ×10 | REASONING_MESSAGE_CONTENT {messageId, delta} |
 * | tool_call {callId, name, input} ×2 | TOOL_CALL_START {toolCallId, toolCallName, parentMessageId} |
 * | tool_result {callId, name, ok, summary} ×2 | TOOL_CALL_RESULT {messageId, toolCallId, content} |
 * | state ×2 | STATE_SNAPSHOT {snapshot} |
 * | error {retryable} ×1 | RUN_ERROR {message, code} |
 * | done {stopReason, usage} ×1 | RUN_FINISHED {threadId, runId} |
 *
 * Every frame on both sides carries a timestamp (`at` / `timestamp`). Our
 * frames additionally carry the envelope ids and `seq`, so they are larger
 * than AG-UI's. Two modes are measured, the same for both sides:
 * - "objects": JSON.parse cost EXCLUDED (frames parsed once up front);
 * - "json": JSON.parse cost INCLUDED (`parseChatEnvelopeJson(text)` vs
 *   `EventSchemas.parse(JSON.parse(text))`).
 *
 * Also prints fold throughput for a 10k-event and a 20k-event turn and their
 * time ratio (linear ≈ 2.0): best of interleaved batches that fold the same
 * total number of events, GC included.
 *
 * Also prints the cost of `state()` after every push, as a UI takes it (32k
 * deltas, 32k tool calls; issue 14: it was quadratic, 5.4 s and 15.6 s), and
 * the time ratio of 32k to 16k events.
 *
 * Goals (issues 2 and 14), exit 1 when one is missed: ours/AG-UI ≥ 1.5× on
 * objects and on JSON text, ≥ 1M frames/s on both, fold 20k/10k ≤ 2.3,
 * push + state() per event 32k/16k ≤ 2.3 for deltas and for tool calls.
 *
 * @module
 */
import { EventSchemas } from "npm:@ag-ui/core@1.0.0/schemas";
import {
  ChatStateFolder,
  foldChatState,
  parseChatEnvelope,
  parseChatEnvelopeJson,
} from "../mod.ts";
import { bestRates, cpuMs, Goals } from "./_timing.ts";

const T0 = 1767225600000;
const ours: unknown[] = [];
const agui: unknown[] = [];
let seq = 0;
function add(event: Record<string, unknown>, other: Record<string, unknown>) {
  seq++;
  ours.push({
    schemaVersion: 1,
    conversationId: "conv_7f3a9c",
    turnId: "turn_0042",
    eventId: `evt_${seq}`,
    seq,
    at: T0 + seq,
    event,
  });
  agui.push({ ...other, timestamp: T0 + seq });
}
const words = "Refunds are available within thirty days of purchase for all physical goods ".split(
  " ",
);
add({ type: "session", sessionId: "sess_91b2" }, {
  type: "RUN_STARTED",
  threadId: "conv_7f3a9c",
  runId: "turn_0042",
});
for (let i = 0; i < 10; i++) {
  const t = `thinking step ${i} `;
  add({ type: "reasoning", text: t }, {
    type: "REASONING_MESSAGE_CONTENT",
    messageId: "r1",
    delta: t,
  });
}
for (let k = 0; k < 2; k++) {
  add(
    {
      type: "tool_call",
      callId: `call_${k}`,
      name: "docs:search",
      input: { query: "refund policy", limit: 3 },
    },
    {
      type: "TOOL_CALL_START",
      toolCallId: `call_${k}`,
      toolCallName: "docs:search",
      parentMessageId: "m1",
    },
  );
  add(
    {
      type: "tool_result",
      callId: `call_${k}`,
      name: "docs:search",
      ok: true,
      summary: "2 passages found",
    },
    {
      type: "TOOL_CALL_RESULT",
      messageId: `tm_${k}`,
      toolCallId: `call_${k}`,
      content: "2 passages found",
    },
  );
  add(
    { type: "state", version: k + 1, snapshot: { openCards: [] } },
    { type: "STATE_SNAPSHOT", snapshot: { openCards: [] } },
  );
}
for (let i = 0; i < 80; i++) {
  const t = words[i % words.length] + " ";
  add({ type: "delta", text: t }, { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: t });
}
add(
  { type: "error", message: "tool quota low", code: "quota", retryable: true, retryAfterMs: 1000 },
  { type: "RUN_ERROR", message: "tool quota low", code: "quota" },
);
add(
  {
    type: "done",
    stopReason: "complete",
    usage: { inputTokens: 1830, outputTokens: 212, totalTokens: 2042 },
  },
  { type: "RUN_FINISHED", threadId: "conv_7f3a9c", runId: "turn_0042" },
);
const oursJson = ours.map((o) => JSON.stringify(o));
const aguiJson = agui.map((o) => JSON.stringify(o));

// sanity: both sides accept every frame
for (const o of ours) {
  if (!parseChatEnvelope(o).ok) throw new Error("ours refused " + JSON.stringify(o));
}
for (const a of agui) EventSchemas.parse(a);

let sink = 0;

/** Best frames/s of each case ({@link bestRates}: 8 rounds of 200 ms each, taking turns), printed. */
function measureInterleaved(frames: number, cases: [string, () => void][]): number[] {
  const best = bestRates(cases.map(([, fn]) => fn), frames);
  cases.forEach(([label], k) =>
    console.log(
      `${label.padEnd(52)} ${Math.round(best[k]).toLocaleString("en-US").padStart(12)} frames/s`,
    )
  );
  return best;
}

const n = ours.length;
const goals = new Goals();
function avg(a: string[]) {
  return Math.round(a.reduce((s, x) => s + x.length, 0) / a.length);
}
if (import.meta.main) {
  console.log(
    `frames per turn: ${n} (ours avg ${avg(oursJson)} bytes, AG-UI avg ${avg(aguiJson)} bytes)\n`,
  );

  const [oObj, aObj, oJson, aJson, jOurs, jAgui] = measureInterleaved(n, [
    ["ours  parseChatEnvelope (objects, no JSON.parse)", () => {
      for (let i = 0; i < n; i++) if (parseChatEnvelope(ours[i]).ok) sink++;
    }],
    ["AG-UI EventSchemas.parse (objects, no JSON.parse)", () => {
      for (let i = 0; i < n; i++) if (EventSchemas.parse(agui[i])) sink++;
    }],
    ["ours  parseChatEnvelopeJson (JSON.parse included)", () => {
      for (let i = 0; i < n; i++) if (parseChatEnvelopeJson(oursJson[i]).ok) sink++;
    }],
    ["AG-UI EventSchemas.parse(JSON.parse) (included)", () => {
      for (let i = 0; i < n; i++) if (EventSchemas.parse(JSON.parse(aguiJson[i]))) sink++;
    }],
    ["(baseline) JSON.parse alone, our frames", () => {
      for (let i = 0; i < n; i++) if (JSON.parse(oursJson[i])) sink++;
    }],
    ["(baseline) JSON.parse alone, AG-UI frames", () => {
      for (let i = 0; i < n; i++) if (JSON.parse(aguiJson[i])) sink++;
    }],
  ]);
  console.log(
    `\nJSON.parse share of the JSON-included time: ours ${
      Math.round((oJson / jOurs) * 100)
    }%, AG-UI ${Math.round((aJson / jAgui) * 100)}%`,
  );
  goals.check(
    "ours/AG-UI, objects (JSON.parse excluded) ≥ 1.5×",
    oObj / aObj >= 1.5,
    `${(oObj / aObj).toFixed(2)}×`,
  );
  goals.check(
    "ours/AG-UI, JSON text (JSON.parse included) ≥ 1.5×",
    oJson / aJson >= 1.5,
    `${(oJson / aJson).toFixed(2)}×`,
  );
  goals.check(
    "ours ≥ 1M frames/s, objects",
    oObj >= 1e6,
    `${Math.round(oObj).toLocaleString("en-US")} frames/s`,
  );
  goals.check(
    "ours ≥ 1M frames/s, JSON text",
    oJson >= 1e6,
    `${Math.round(oJson).toLocaleString("en-US")} frames/s`,
  );
}

// Fold: linear in the number of events.
function turn(events: number): unknown[] {
  const out: unknown[] = [];
  let s = 0;
  const push = (event: unknown) => {
    s++;
    out.push({
      schemaVersion: 1,
      conversationId: "c",
      turnId: "t",
      eventId: `e${s}`,
      seq: s,
      event,
    });
  };
  let call = 0;
  while (s < events - 1) {
    if (s % 50 === 10 && s < events - 3) {
      push({ type: "tool_call", callId: `c${call}`, name: "search", input: { q: call } });
      push({ type: "tool_result", callId: `c${call}`, name: "search", ok: true, summary: "ok" });
      call++;
    } else push({ type: "delta", text: "word " });
  }
  push({ type: "done" });
  return out;
}
const t10 = turn(10_000), t20 = turn(20_000);
/**
 * Time per fold from interleaved batches that fold the same number of events
 * (4 × 10k vs 2 × 20k), in CPU time: GC cost lands in both batches alike, which a
 * min-of-N over single folds would hide for the small turn only.
 */
function foldTimes(): [number, number] {
  const check = (events: unknown[]) => {
    const rep = foldChatState(events);
    if (rep.refusals.length !== 0 || rep.state?.status !== "completed") {
      throw new Error("fold failed");
    }
  };
  for (let i = 0; i < 10; i++) {
    check(t10);
    check(t20);
  }
  // Each batch folds 40k events (4 × 10k or 2 × 20k), so both batches trigger
  // about the same garbage collection; the best batch of each size is kept.
  let best10 = Infinity, best20 = Infinity;
  for (let round = 0; round < 20; round++) {
    let start = cpuMs();
    for (let i = 0; i < 4; i++) foldChatState(t10);
    best10 = Math.min(best10, cpuMs() - start);
    start = cpuMs();
    for (let i = 0; i < 2; i++) foldChatState(t20);
    best20 = Math.min(best20, cpuMs() - start);
  }
  return [best10 / 4, best20 / 2];
}
if (import.meta.main) {
  const [f10, f20] = foldTimes();
  console.log(
    `\nfold 10k events: ${f10.toFixed(2)} ms (${
      Math.round(10_000 / f10 * 1000).toLocaleString("en-US")
    } events/s)`,
  );
  console.log(
    `fold 20k events: ${f20.toFixed(2)} ms (${
      Math.round(20_000 / f20 * 1000).toLocaleString("en-US")
    } events/s)`,
  );
  goals.check("fold 20k/10k ≤ 2.3 (linear ≈ 2.0)", f20 / f10 <= 2.3, `${(f20 / f10).toFixed(2)}`);
}

// UI-speed snapshots: `state()` after every push, as a UI does.
function uiTurn(events: number, kind: "delta" | "tool"): unknown[] {
  const out: unknown[] = [];
  for (let s = 1; s <= events; s++) {
    out.push({
      schemaVersion: 1,
      conversationId: "c",
      turnId: "t",
      eventId: `e${s}`,
      seq: s,
      event: kind === "delta"
        ? { type: "delta", text: "word " }
        : { type: "tool_call", callId: `k${s}`, name: "search", input: { q: s } },
    });
  }
  return out;
}
/** Push every envelope and take `state()` after each one; the last state's `lastSeq`. */
function pushAndSnapshot(envs: readonly unknown[]): number {
  const folder = new ChatStateFolder("c", "t");
  let last = 0;
  for (const e of envs) {
    if (!folder.push(e).ok) throw new Error("push refused");
    last = folder.state().lastSeq;
  }
  return last;
}
/**
 * CPU time of one "push + state() per event" run at n and at 2n events, from
 * interleaved batches folding the same total (2 × n vs 1 × 2n), best of 12.
 */
function snapshotTimes(kind: "delta" | "tool", n: number): [number, number] {
  const small = uiTurn(n, kind), large = uiTurn(2 * n, kind);
  for (let i = 0; i < 3; i++) {
    pushAndSnapshot(small);
    pushAndSnapshot(large);
  }
  let bestSmall = Infinity, bestLarge = Infinity;
  for (let round = 0; round < 12; round++) {
    let start = cpuMs();
    pushAndSnapshot(small);
    pushAndSnapshot(small);
    bestSmall = Math.min(bestSmall, (cpuMs() - start) / 2);
    start = cpuMs();
    pushAndSnapshot(large);
    bestLarge = Math.min(bestLarge, cpuMs() - start);
  }
  return [bestSmall, bestLarge];
}
if (import.meta.main) {
  console.log("");
  for (const kind of ["delta", "tool"] as const) {
    const [t16, t32] = snapshotTimes(kind, 16_000);
    const what = kind === "delta" ? "deltas" : "tool calls";
    console.log(
      `push + state() per event, 32k ${what}: ${t32.toFixed(1)} ms (${
        (t32 / 32).toFixed(2)
      } µs per event; 16k: ${t16.toFixed(1)} ms)`,
    );
    goals.check(
      `state() after every push, ${what}: t(32k)/t(16k) ≤ 2.3 (linear ≈ 2.0)`,
      t32 / t16 <= 2.3,
      `${(t32 / t16).toFixed(2)}`,
    );
  }
  if (sink < 0) console.log(sink);
  goals.finish();
}

// The same cases for `deno bench` (e.g. `deno task bench`); `deno run` prints the ratios above.
Deno.bench(
  "v1 parseChatEnvelope, 99 typical frames (objects)",
  { group: "parse", baseline: true },
  () => {
    for (let i = 0; i < n; i++) parseChatEnvelope(ours[i]);
  },
);
Deno.bench("AG-UI EventSchemas.parse, 99 equivalent frames (objects)", { group: "parse" }, () => {
  for (let i = 0; i < n; i++) EventSchemas.parse(agui[i]);
});
Deno.bench("v1 parseChatEnvelopeJson, 99 typical frames (JSON text)", {
  group: "json",
  baseline: true,
}, () => {
  for (let i = 0; i < n; i++) parseChatEnvelopeJson(oursJson[i]);
});
Deno.bench("AG-UI EventSchemas.parse(JSON.parse), 99 frames (JSON text)", { group: "json" }, () => {
  for (let i = 0; i < n; i++) EventSchemas.parse(JSON.parse(aguiJson[i]));
});
Deno.bench("v1 fold, 10k-event turn", { group: "fold", baseline: true }, () => {
  foldChatState(t10);
});
Deno.bench("v1 fold, 20k-event turn", { group: "fold" }, () => {
  foldChatState(t20);
});
const ui8k = uiTurn(8_000, "tool");
Deno.bench("v1 push + state() per event, 8k tool calls", { group: "snapshots" }, () => {
  pushAndSnapshot(ui8k);
});
