/**
 * One ordering policy, identical verdicts: the same envelope streams fed to
 * every whole-stream consumer of v1 envelopes (`foldChatState`,
 * `foldUIMessage`, `v1ToAgUiEvents`, `v1ToUIMessageChunks`) give the same
 * verdicts (index, code where the consumer has one, message) and apply the
 * same envelopes in the same order.
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import { foldChatState } from "../../mod.ts";
import { foldUIMessage, v1ToUIMessageChunks } from "../../ai_sdk.ts";
import { v1ToAgUiEvents } from "../../ag_ui.ts";

const C = "c1", T = "t1";

interface Item {
  seq: number;
  /** 0: the seq's own eventId; 1: another eventId for the same seq. */
  variant: number;
  /** 0: this turn; 1: another turn; 2: another conversation; 3: not an envelope. */
  kind: number;
}

function envelope({ seq, variant, kind }: Item): unknown {
  if (kind === 3) return { schemaVersion: 1, conversationId: C, turnId: T, seq, event: null };
  return {
    schemaVersion: 1,
    conversationId: kind === 2 ? "other-conversation" : C,
    turnId: kind === 1 ? "other-turn" : T,
    eventId: variant === 0 ? `e${seq}` : `e${seq}-${variant}`,
    seq,
    event: { type: "delta", text: `<${seq}${variant === 0 ? "" : `.${variant}`}>` },
  };
}

/** Each consumer's verdicts as [index, code | null, message] and the text it produced. */
function run(envs: unknown[]) {
  const fold = foldChatState(envs);
  const ui = foldUIMessage(envs);
  const agui = v1ToAgUiEvents(envs);
  const chunks = v1ToUIMessageChunks(envs);
  const uiText = ui.message.parts.map((p) => p.type === "text" ? (p as { text: string }).text : "")
    .join("");
  const aguiText = agui.events.map((e) =>
    e.type === "TEXT_MESSAGE_CONTENT" ? (e as { delta: string }).delta : ""
  ).join("");
  const chunkText = chunks.chunks.map((c) =>
    c.type === "text-delta" ? (c as { delta: string }).delta : ""
  ).join("");
  return {
    fold: fold.refusals.map((r) => [r.index, r.error.code, r.error.message]),
    agui: agui.refused.map((r) => [r.index, r.error.code, r.error.message]),
    chunks: chunks.refused.map((r) => [r.index, r.error.code, r.error.message]),
    ui: ui.issues.map((i) => [i.index, i.message]),
    texts: [fold.state?.text ?? "", uiText, aguiText, chunkText],
  };
}

function assertSame(envs: unknown[]) {
  const r = run(envs);
  assert.deepEqual(r.agui, r.fold, "v1ToAgUiEvents vs foldChatState");
  assert.deepEqual(r.chunks, r.fold, "v1ToUIMessageChunks vs foldChatState");
  assert.deepEqual(r.ui, r.fold.map(([i, , m]) => [i, m]), "foldUIMessage vs foldChatState");
  for (const t of r.texts.slice(1)) assert.equal(t, r.texts[0]);
  return r;
}

const plain = (...seqs: number[]) => seqs.map((seq) => envelope({ seq, variant: 0, kind: 0 }));

Deno.test("1, 5, 6: one gap in every consumer (was: two in foldChatState, none elsewhere)", () => {
  const r = assertSame(plain(1, 5, 6));
  assert.deepEqual(r.fold.map(([i, c]) => [i, c]), [[1, "gap"]]);
  assert.equal(r.texts[0], "<1><5><6>");
});

Deno.test("1, 3, 2: reordered in every consumer, applied in seq order", () => {
  const r = assertSame(plain(1, 3, 2));
  assert.deepEqual(r.fold.map(([i, c]) => [i, c]), [[2, "reordered"]]);
  assert.equal(r.texts[0], "<1><2><3>");
});

Deno.test("duplicates, late and foreign envelopes: the same verdicts everywhere", () => {
  const envs = [
    ...plain(1, 2),
    envelope({ seq: 2, variant: 0, kind: 0 }),
    envelope({ seq: 1, variant: 1, kind: 0 }),
    envelope({ seq: 3, variant: 0, kind: 1 }),
    envelope({ seq: 3, variant: 0, kind: 2 }),
    envelope({ seq: 3, variant: 0, kind: 3 }),
    ...plain(3),
  ];
  const r = assertSame(envs);
  assert.deepEqual(r.fold.map(([i, c]) => [i, c]), [
    [2, "duplicate"],
    [3, "reordered"],
    [4, "foreign-turn"],
    [5, "foreign-conversation"],
    [6, "invalid-envelope"],
  ]);
});

Deno.test("property: random streams (reordered, lost, repeated, foreign) give identical verdicts in every consumer", () => {
  const item = fc.record({
    seq: fc.integer({ min: 1, max: 40 }),
    variant: fc.constantFrom(0, 0, 0, 1),
    kind: fc.constantFrom(0, 0, 0, 0, 0, 0, 1, 2, 3),
  });
  // mostly in order with local swaps, losses and repeats, so the window is exercised
  const stream = fc.oneof(
    fc.array(item, { maxLength: 40 }),
    fc.tuple(
      fc.integer({ min: 1, max: 50 }),
      fc.array(fc.nat({ max: 49 }), { maxLength: 8 }),
      fc.array(fc.nat({ max: 49 }), { maxLength: 4 }),
    ).map(([n, swaps, drops]) => {
      const seqs = Array.from({ length: n }, (_, i) => i + 1);
      for (const s of swaps) {
        const i = s % n, j = Math.min(n - 1, i + 1 + (s % 3));
        [seqs[i], seqs[j]] = [seqs[j], seqs[i]];
      }
      return seqs.filter((_, i) => !drops.includes(i)).map((seq) => ({
        seq,
        variant: 0,
        kind: 0,
      }));
    }),
  );
  fc.assert(
    fc.property(stream, (items) => {
      // the first item decides foldUIMessage's mode: keep it an envelope of this turn
      const envs = [envelope({ seq: 1, variant: 0, kind: 0 }), ...items.map(envelope)];
      assertSame(envs);
    }),
    { numRuns: 1_500 },
  );
});
