/**
 * fast-check arbitrary of valid v1 turns: envelope streams the v1 fold
 * accepts without a refusal (legal lifecycle, tool and card identity),
 * built by interpreting random "intents" against a model of the turn, so
 * every kind of event appears in every legal position. Turn text mixes
 * plain text, `<report>` / `<ask>` blocks (valid, malformed, unclosed, in
 * any case) and surrogate pairs, cut into deltas at random places.
 *
 * @module
 */
import fc from "../_helpers/seed.ts";

const REPORT = '<report>{"plans":[{"title":"Ship","items":[{"text":"a","ref":"wi:1"}]}]}</report>';
const ASK = '<ask>{"question":"Go?","options":[{"id":"y","label":"Yes"}]}</ask>';

/** Pieces turn text is made of. */
const PIECES = [
  "Hello ",
  "world. ",
  "a < b ",
  "<",
  "<a",
  "<r",
  "<as",
  "<repo",
  "<b>bold</b> ",
  REPORT,
  ASK,
  "<ASK>",
  '{"question":"Q?"}',
  "</ASK>",
  "<ask>not json</ask>",
  "<report></report>",
  "<report>",
  "</report>",
  "</ask>",
  "😀",
  "é",
  "\n",
];

/** Random turn text (pieces cut into 1–6 deltas). */
export const turnText: fc.Arbitrary<string[]> = fc.tuple(
  fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 6 }),
  fc.array(fc.nat(), { maxLength: 5 }),
).map(([pieces, cuts]) => {
  const text = pieces.join("");
  const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let prev = 0;
  for (const c of at) {
    if (c > prev) out.push(text.slice(prev, c));
    prev = Math.max(prev, c);
  }
  out.push(text.slice(prev));
  return out.filter((d) => d.length > 0);
});

interface Intent {
  readonly op: number;
  readonly pick: number;
  readonly text: string[];
  readonly flag: boolean;
}

const intent: fc.Arbitrary<Intent> = fc.record({
  op: fc.nat({ max: 1000 }),
  pick: fc.nat({ max: 1000 }),
  text: turnText,
  flag: fc.boolean(),
});

/** How the generated turn ends. */
export type Ending = "done" | "error" | "cancelled" | "open";

const RESOLUTIONS = ["submitted", "declined", "cancelled", "expired", "interrupted", undefined];

/**
 * A valid turn: `{ conversationId: "c", turnId: "t" }`, `eventId` `e<seq>`,
 * `at` increasing integers. `ending` `open` stops wherever the intents end
 * (running, waiting for input, interrupted or needing reconciliation).
 */
export const validTurn: fc.Arbitrary<{ envelopes: Record<string, unknown>[]; ending: Ending }> = fc
  .tuple(
    fc.array(intent, { maxLength: 25 }),
    fc.constantFrom<Ending>("done", "error", "cancelled", "open"),
  ).map(([intents, ending]) => ({ envelopes: build(intents, ending), ending }));

function build(intents: readonly Intent[], ending: Ending): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  const running: string[] = [];
  const open: string[] = [];
  let status: "running" | "awaiting-input" | "interrupted" | "needs-reconciliation" = "running";
  let calls = 0, cards = 0;
  const emit = (e: Record<string, unknown>) => events.push(e);
  for (const it of intents) {
    if (status === "interrupted" || status === "needs-reconciliation") {
      emit({ type: "turn_status", status: "running", reason: it.flag ? "recovered" : undefined });
      status = open.length > 0 ? "awaiting-input" : "running";
      continue;
    }
    switch (it.op % 13) {
      case 0:
      case 1:
      case 2:
        for (const d of it.text) emit({ type: "delta", text: d });
        break;
      case 3:
        emit({ type: "reasoning", text: it.text.join("") });
        break;
      case 4: {
        const callId = `call-${++calls}`;
        running.push(callId);
        emit(
          it.flag
            ? { type: "tool_call", callId, name: "tool", input: { n: it.pick } }
            : { type: "tool_call", callId, name: "tool" },
        );
        break;
      }
      case 5:
        if (running.length > 0) {
          const callId = running[it.pick % running.length];
          emit({ type: "tool_progress", callId, message: "working", progress: 0.5 });
        }
        break;
      case 6:
        if (running.length > 0) {
          const [callId] = running.splice(it.pick % running.length, 1);
          emit({
            type: "tool_result",
            callId,
            name: "tool",
            ok: it.flag,
            summary: it.pick % 2 === 0 ? "sum" : undefined,
            output: it.pick % 3 === 0 ? undefined : { v: it.pick },
            blocks: it.pick % 4 === 0
              ? [{ id: "b1", text: "grounded", sources: [{ ref: `doc:${it.pick}` }] }]
              : undefined,
          });
        }
        break;
      case 7: {
        const correlationId = `card-${++cards}`;
        const card: Record<string, unknown> = {
          correlationId,
          prompt: `Question ${cards}?`,
          createdAt: 1_764_464_400_000,
        };
        if (it.flag) {
          card.approval = { title: "approve", question: "Approve?", body: [] };
          if (running.length > 0 && it.pick % 3 !== 0) {
            card.callId = running[it.pick % running.length];
          }
        }
        open.push(correlationId);
        status = "awaiting-input";
        emit({ type: "card", card });
        break;
      }
      case 8:
        if (open.length > 0) {
          const [correlationId] = open.splice(it.pick % open.length, 1);
          emit({
            type: "card_closed",
            correlationId,
            resolution: RESOLUTIONS[it.pick % RESOLUTIONS.length],
          });
          if (open.length === 0) status = "running";
        }
        break;
      case 9:
        emit({ type: "state", version: it.pick, snapshot: { n: it.pick } });
        break;
      case 10:
        emit(
          it.flag
            ? { type: "session", sessionId: `s-${it.pick}` }
            : { type: "provenance", engine: "loop", model: "m", provider: "p" },
        );
        break;
      case 11:
        emit({ type: "navigate", href: `/x/${it.pick}` });
        break;
      case 12:
        status = it.flag ? "interrupted" : "needs-reconciliation";
        emit({ type: "turn_status", status, reason: "paused" });
        break;
    }
  }
  if (events.length === 0) emit({ type: "delta", text: "x" });
  if (ending !== "open") {
    if (status === "interrupted" || status === "needs-reconciliation") {
      emit({ type: "turn_status", status: "running" });
    }
    if (ending === "done") {
      while (open.length > 0) {
        emit({ type: "card_closed", correlationId: open.pop(), resolution: "cancelled" });
      }
      for (const callId of running.splice(0)) {
        emit({ type: "tool_result", callId, name: "tool", ok: false, summary: "stopped" });
      }
      emit({ type: "done", stopReason: "end_turn", usage: { totalTokens: 3 } });
    } else if (ending === "error") {
      emit({ type: "error", message: "boom", code: "x", retryable: true, retryAfterMs: 5 });
    } else emit({ type: "turn_status", status: "cancelled", reason: "stop" });
  }
  return events.map((e, i) => ({
    schemaVersion: 1,
    conversationId: "c",
    turnId: "t",
    eventId: `e${i + 1}`,
    seq: i + 1,
    at: 1_764_464_400_000 + i,
    event: JSON.parse(JSON.stringify(e)), // drop undefined fields
  }));
}
