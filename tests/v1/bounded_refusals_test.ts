/**
 * Bounded and exact refusals of the whole-stream consumers of v1 envelopes:
 * text is not a stream of envelopes (refused outright, not character by
 * character), and every refusal list is capped at MAX_REFUSALS with one
 * `refusals-omitted` entry counting the rest.
 */
import assert from "node:assert/strict";
import { foldChatState, foldChatStateStrict, MAX_REFUSALS } from "../../mod.ts";
import { foldUIMessage, v1ToUIMessageChunks } from "../../ai_sdk.ts";
import { v1ToAgUiEvents } from "../../ag_ui.ts";

const TEXT_CODE = "invalid-envelope";

/** Every whole-stream consumer's refusal list as [index, code, omitted?]. */
function refusalLists(input: unknown) {
  const fold = foldChatState(input as Iterable<unknown>);
  const chunks = v1ToUIMessageChunks(input as Iterable<unknown>);
  const agui = v1ToAgUiEvents(input as Iterable<unknown>);
  const summary = (list: readonly { index: number; error: { code: string; omitted?: number } }[]) =>
    list.map((r) => [r.index, r.error.code, r.error.omitted]);
  return {
    fold: summary(fold.refusals),
    chunks: summary(chunks.refused),
    agui: summary(agui.refused),
    state: fold.state,
    out: chunks.chunks.length + agui.events.length,
  };
}

Deno.test("a string is refused outright, once, at index -1 (was: one refusal per character)", () => {
  for (const text of ["x".repeat(100_000), "x".repeat(10_000_000), "", "{}\n{}"]) {
    const r = refusalLists(text);
    assert.deepEqual(r.fold, [[-1, TEXT_CODE, undefined]]);
    assert.deepEqual(r.chunks, [[-1, TEXT_CODE, undefined]]);
    assert.deepEqual(r.agui, [[-1, TEXT_CODE, undefined]]);
    assert.equal(r.state, null);
    assert.equal(r.out, 0);
  }
  const rep = foldChatState("abc" as unknown as Iterable<unknown>);
  assert.match(rep.refusals[0].error.message, /a string is not a stream of envelopes/);
  // a String object is text too
  assert.deepEqual(refusalLists(new String("abc")).fold, [[-1, TEXT_CODE, undefined]]);
  const strict = foldChatStateStrict("x".repeat(1000) as unknown as Iterable<unknown>);
  assert.deepEqual(!strict.ok && [strict.error.index, strict.error.code], [-1, TEXT_CODE]);
});

Deno.test("refusal lists keep the first MAX_REFUSALS, then one refusals-omitted entry", () => {
  assert.equal(MAX_REFUSALS, 1_000);
  const n = 5_000;
  const junk = Array.from({ length: n }, (_, i) => i); // not envelopes
  const r = refusalLists(junk);
  for (const list of [r.fold, r.chunks, r.agui]) {
    assert.equal(list.length, MAX_REFUSALS + 1);
    assert.deepEqual(list[0], [0, "invalid-envelope", undefined]);
    assert.deepEqual(list[MAX_REFUSALS - 1], [MAX_REFUSALS - 1, "invalid-envelope", undefined]);
    assert.deepEqual(list[MAX_REFUSALS], [MAX_REFUSALS, "refusals-omitted", n - MAX_REFUSALS]);
  }
  const rep = foldChatState(junk);
  assert.match(
    rep.refusals[MAX_REFUSALS].error.message,
    /^4000 more refusal\(s\) found and not listed .*first one left out is at index 1000$/,
  );
  // exactly MAX_REFUSALS: no omitted entry
  const exact = refusalLists(junk.slice(0, MAX_REFUSALS));
  assert.equal(exact.fold.length, MAX_REFUSALS);
  assert.ok(exact.fold.every(([, code]) => code !== "refusals-omitted"));
  // foldUIMessage runs v1 envelopes through the same capped stream
  const ui = foldUIMessage([
    {
      schemaVersion: 1,
      conversationId: "c",
      turnId: "t",
      eventId: "e1",
      seq: 1,
      event: { type: "delta", text: "a" },
    },
    ...junk.map(() => ({
      schemaVersion: 1,
      conversationId: "c",
      turnId: "t",
      eventId: "x",
      seq: 0,
    })),
  ]);
  assert.ok(ui.issues.length <= MAX_REFUSALS + 1, `${ui.issues.length}`);
});

Deno.test("a capped list still folds every valid envelope after the junk", () => {
  const junk = Array.from({ length: 3_000 }, () => 42);
  const envs = [
    ...junk,
    {
      schemaVersion: 1,
      conversationId: "c",
      turnId: "t",
      eventId: "e1",
      seq: 1,
      event: { type: "delta", text: "Hi" },
    },
    {
      schemaVersion: 1,
      conversationId: "c",
      turnId: "t",
      eventId: "e2",
      seq: 2,
      event: { type: "done" },
    },
  ];
  const rep = foldChatState(envs);
  assert.equal(rep.state?.status, "completed");
  assert.equal(rep.state?.text, "Hi");
  assert.equal(rep.applied, 2);
  assert.equal(rep.refusals.length, MAX_REFUSALS + 1);
  assert.equal(rep.refusals.at(-1)!.error.omitted, 2_000);
});
