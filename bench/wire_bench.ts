/**
 * v1 frame parse+validate vs AG-UI's `EventSchemas.parse` (@ag-ui/core 1.0.0)
 * on equivalent frames. Run: `deno run -A bench/wire_bench.ts`.
 *
 * Equivalent frames (one typical turn, 100 frames, mostly text):
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
 * time ratio (linear ≈ 2.0; goal ≤ 2.3): mean per fold over interleaved
 * rounds folding the same total number of events, GC included.
 *
 * @module
 */
import { EventSchemas } from "npm:@ag-ui/core@1.0.0/schemas";
import { foldChatState, parseChatEnvelope, parseChatEnvelopeJson } from "../src/v1/mod.ts";

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
function measure(label: string, frames: number, fn: () => void): number {
  for (let i = 0; i < 200; i++) fn(); // warm-up
  let best = 0;
  for (let round = 0; round < 5; round++) {
    let iters = 0;
    const start = performance.now();
    let now = start;
    while (now - start < 400) {
      fn();
      iters++;
      now = performance.now();
    }
    best = Math.max(best, (iters * frames) / ((now - start) / 1000));
  }
  console.log(
    `${label.padEnd(52)} ${Math.round(best).toLocaleString("en-US").padStart(12)} frames/s`,
  );
  return best;
}

const n = ours.length;
console.log(
  `frames per turn: ${n} (ours avg ${avg(oursJson)} bytes, AG-UI avg ${avg(aguiJson)} bytes)\n`,
);
function avg(a: string[]) {
  return Math.round(a.reduce((s, x) => s + x.length, 0) / a.length);
}

const oObj = measure("ours  parseChatEnvelope (objects, no JSON.parse)", n, () => {
  for (let i = 0; i < n; i++) if (parseChatEnvelope(ours[i]).ok) sink++;
});
const aObj = measure("AG-UI EventSchemas.parse (objects, no JSON.parse)", n, () => {
  for (let i = 0; i < n; i++) if (EventSchemas.parse(agui[i])) sink++;
});
const oJson = measure("ours  parseChatEnvelopeJson (JSON.parse included)", n, () => {
  for (let i = 0; i < n; i++) if (parseChatEnvelopeJson(oursJson[i]).ok) sink++;
});
const aJson = measure("AG-UI EventSchemas.parse(JSON.parse) (included)", n, () => {
  for (let i = 0; i < n; i++) if (EventSchemas.parse(JSON.parse(aguiJson[i]))) sink++;
});
const jOurs = measure("(baseline) JSON.parse alone, our frames", n, () => {
  for (let i = 0; i < n; i++) if (JSON.parse(oursJson[i])) sink++;
});
const jAgui = measure("(baseline) JSON.parse alone, AG-UI frames", n, () => {
  for (let i = 0; i < n; i++) if (JSON.parse(aguiJson[i])) sink++;
});
console.log(
  `\nJSON.parse share of the JSON-included time: ours ${
    Math.round((oJson / jOurs) * 100)
  }%, AG-UI ${Math.round((aJson / jAgui) * 100)}%`,
);
console.log(
  `ratio ours/AG-UI, objects (JSON.parse excluded): ${(oObj / aObj).toFixed(2)}x  (goal ≥ 1.5x)`,
);
console.log(
  `ratio ours/AG-UI, JSON text (JSON.parse included): ${
    (oJson / aJson).toFixed(2)
  }x  (goal ≥ 1.5x)`,
);
console.log(
  `ours ≥ 1M frames/s: objects ${oObj >= 1e6 ? "yes" : "NO"}, JSON ${oJson >= 1e6 ? "yes" : "NO"}`,
);

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
 * Mean time per fold over interleaved rounds with the same number of events
 * on both sides (4 × 10k vs 2 × 20k per round): GC cost is amortized into both
 * means in proportion, which a min-of-N would hide for the small turn only.
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
  let ms10 = 0, ms20 = 0, n10 = 0, n20 = 0;
  for (let round = 0; round < 20; round++) {
    let start = performance.now();
    for (let i = 0; i < 4; i++) foldChatState(t10);
    ms10 += performance.now() - start;
    n10 += 4;
    start = performance.now();
    for (let i = 0; i < 2; i++) foldChatState(t20);
    ms20 += performance.now() - start;
    n20 += 2;
  }
  return [ms10 / n10, ms20 / n20];
}
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
console.log(`fold ratio 20k/10k: ${(f20 / f10).toFixed(2)}  (linear ≈ 2.0, goal ≤ 2.3)`);
if (sink < 0) console.log(sink);
