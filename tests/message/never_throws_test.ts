/**
 * Regression tests for the "never throws" promises of the fold, the chunk
 * checker and the AI SDK stream adapters, one per case found by a hostile
 * caller (each failed on the code before the fix), plus the AI SDK
 * behaviours the fold must keep (checked against `readUIMessageStream`).
 */
import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import { parseChatEnvelope } from "../../src/v1/parse.ts";
import {
  checkUIMessageChunk,
  foldUIMessage,
  isUIMessageChunk,
  UIMessageChunksToV1,
  uiMessageChunksToV1,
  UIMessageFold,
  V1ToUIMessageChunks,
  v1ToUIMessageChunks,
} from "../../ai_sdk.ts";
import { nullProtoThrowable, withFickleGetter, withThrowingGetter } from "../_helpers/hostile.ts";
import { askAi, json } from "./_oracle_client.ts";
import { envelope } from "./_envelopes.ts";

Deno.test("UIMessageFold.push: a getter that throws an object with no prototype is an issue", () => {
  const fold = new UIMessageFold();
  const chunk = withThrowingGetter({ type: "text-delta", id: "t" }, "delta", nullProtoThrowable);
  fold.push(chunk);
  fold.push(withThrowingGetter({}, "type", nullProtoThrowable));
  const r = fold.result();
  assert.deepEqual(r.issues.map((i) => [i.index, i.code]), [[0, "invalid-chunk"], [
    1,
    "invalid-chunk",
  ]]);
  assert.match(r.issues[0].message, /an unprintable value/);
});

Deno.test("UIMessageChunksToV1: an allocator throwing an object with no prototype stops the adapter", () => {
  const ids = {
    conversationId: "c",
    turnId: "t",
    nextEventId(): string {
      throw nullProtoThrowable();
    },
  };
  const a = new UIMessageChunksToV1(ids);
  assert.deepEqual(a.push({ type: "text-delta", id: "t", delta: "x" }), []);
  assert.deepEqual(a.push({ type: "text-delta", id: "t", delta: "y" }), []);
  assert.deepEqual(a.issues.map((i) => [i.index, i.code]), [[0, "invalid-event-id"], [
    1,
    "invalid-event-id",
  ]]);
  assert.match(a.issues[1].message, /failed earlier/);
  // the same through the one-shot form, with a clock that throws one
  const r = uiMessageChunksToV1([{ type: "text-delta", id: "t", delta: "x" }, { type: "finish" }], {
    conversationId: "c",
    turnId: "t",
    nextEventId: () => "e1",
  }, {
    now: () => {
      throw nullProtoThrowable();
    },
  });
  assert.deepEqual(r.envelopes, []);
  assert.deepEqual(r.issues.map((i) => i.code), ["invalid-event-id", "invalid-event-id"]);
});

Deno.test("isUIMessageChunk / checkUIMessageChunk: throwing getters are refusals; type is read once", () => {
  for (const key of ["type", "id", "delta", "providerMetadata"]) {
    for (const thrown of [() => new Error("x"), nullProtoThrowable, () => undefined]) {
      const c = withThrowingGetter({ type: "text-delta", id: "t", delta: "x" }, key, thrown);
      assert.equal(typeof checkUIMessageChunk(c), key === "providerMetadata" ? "string" : "string");
      assert.equal(isUIMessageChunk(c), false);
    }
  }
  // a type that answers "start" once, then a number: read once, so a valid start chunk
  const fickle = withFickleGetter({}, "type", "start", 42);
  assert.equal(checkUIMessageChunk(fickle), null);
  const fold = new UIMessageFold();
  fold.push(withFickleGetter({ messageId: "m1" }, "type", "start", 42));
  assert.equal(fold.result().message.id, "m1");
  assert.deepEqual(fold.result().issues, []);
});

Deno.test("foldUIMessage / v1ToUIMessageChunks: throwing option getters are never thrown", () => {
  const options = withThrowingGetter({}, "maxParts", nullProtoThrowable);
  const r = foldUIMessage([{ type: "start", messageId: "m" }], options);
  assert.equal(r.message.id, "m");
  assert.deepEqual(r.issues.map((i) => [i.index, i.code]), [[-1, "invalid-option"]]);
  const persisted = withThrowingGetter(
    { id: "m", role: "assistant" },
    "parts",
    () => new Error("x"),
  );
  const p = foldUIMessage([], { message: persisted as never });
  assert.deepEqual(p.issues.map((i) => [i.index, i.code]), [[-1, "invalid-chunk"]]);
  const o = withThrowingGetter({}, "messageId", nullProtoThrowable);
  const v = v1ToUIMessageChunks([envelope(1, { type: "delta", text: "Hi" })], o);
  assert.deepEqual(v.refused, []);
  assert.deepEqual(v.chunks[0], {
    type: "start",
    messageId: "t",
    messageMetadata: { conversationId: "c", turnId: "t" },
  });
});

Deno.test("maxParts: NaN / maxChars: NaN keep the default limits (and say so), never lift them", () => {
  const parts = Array.from({ length: 100_001 }, (_, i) => ({ type: "data-x", data: i }));
  const r = foldUIMessage(parts, { maxParts: NaN });
  assert.equal(r.message.parts.length, 100_000);
  assert.deepEqual(r.issues.map((i) => [i.index, i.code]), [[-1, "invalid-option"], [
    100_000,
    "limit",
  ]]);
  const big = "x".repeat(64 * 1024 * 1024 + 1);
  const t = foldUIMessage([{ type: "text-start", id: "t" }, {
    type: "text-delta",
    id: "t",
    delta: big,
  }], { maxChars: NaN });
  assert.deepEqual(t.issues.map((i) => [i.index, i.code]), [[-1, "invalid-option"], [1, "limit"]]);
  assert.equal((t.message.parts[0] as { text: string }).text, "");
  for (const bad of [-1, "10", null, {}]) {
    const b = foldUIMessage([], { maxIssues: bad as never });
    assert.deepEqual(b.issues.map((i) => i.code), ["invalid-option"]);
  }
});

Deno.test("chunks → v1: an empty toolCallId or toolName is an issue, never an envelope v1 refuses", () => {
  const chunks = [
    { type: "tool-input-available", toolCallId: "", toolName: "x", input: {} },
    { type: "tool-input-available", toolCallId: "c1", toolName: "", input: {} },
    { type: "tool-input-error", toolCallId: "c2", toolName: "", input: 1, errorText: "e" },
    { type: "tool-output-available", toolCallId: "", output: 1 },
    { type: "tool-input-available", toolCallId: "c3", toolName: "x", input: {} },
    { type: "finish" },
  ];
  const r = uiMessageChunksToV1(chunks, {
    conversationId: "c",
    turnId: "t",
    nextEventId: (() => {
      let n = 0;
      return () => `e${++n}`;
    })(),
  });
  for (const e of r.envelopes) assert.ok(parseChatEnvelope(e).ok, JSON.stringify(e));
  assert.deepEqual(r.envelopes.map((e) => e.event.type), ["tool_call", "done"]);
  assert.deepEqual(r.issues.map((i) => [i.index, i.code]), [
    [0, "invalid-chunk"],
    [1, "invalid-chunk"],
    [2, "invalid-chunk"],
    [3, "orphan-chunk"],
  ]);
});

Deno.test("one call id used by a static and then a dynamic tool in one step: one part each, as in ai", async () => {
  const head = [
    { type: "start", messageId: "m" },
    { type: "start-step" },
  ];
  const streams = [
    [
      ...head,
      { type: "tool-input-start", toolCallId: "c", toolName: "x" },
      { type: "tool-input-start", toolCallId: "c", toolName: "y", dynamic: true },
      { type: "tool-input-delta", toolCallId: "c", inputTextDelta: '{"a"' },
      { type: "tool-input-delta", toolCallId: "c", inputTextDelta: ":1" },
      { type: "tool-input-delta", toolCallId: "c", inputTextDelta: "}" },
    ],
    [
      ...head,
      { type: "tool-input-start", toolCallId: "c", toolName: "y", dynamic: true },
      { type: "tool-input-start", toolCallId: "c", toolName: "x" },
      { type: "tool-input-delta", toolCallId: "c", inputTextDelta: '{"a"' },
      { type: "tool-input-delta", toolCallId: "c", inputTextDelta: ":2" },
    ],
    [
      ...head,
      { type: "tool-input-available", toolCallId: "c", toolName: "x", input: {} },
      { type: "tool-input-start", toolCallId: "c", toolName: "y", dynamic: true },
      { type: "tool-input-delta", toolCallId: "c", inputTextDelta: "{" },
      { type: "tool-output-available", toolCallId: "c", output: 1 },
    ],
  ];
  const [answers] = await askAi([{ op: "fold", streams }]) as [{ message: unknown }[]];
  streams.forEach((s, i) => {
    const ours = foldUIMessage(s);
    assert.deepEqual(ours.issues, []);
    assert.deepEqual(json(ours.message), answers[i].message, `stream ${i}`);
    assert.equal(ours.message.parts.length, 3, `stream ${i}: step-start and one part per kind`);
  });
});

Deno.test("a finish / tool-input-start / text-start chunk with a bad optional field is kept, as ai's fold keeps it", async () => {
  const streams = [
    [
      { type: "start", messageId: "m" },
      { type: "finish", finishReason: "weird", messageMetadata: { usage: { totalTokens: 7 } } },
    ],
    [
      { type: "start", messageId: "m" },
      { type: "start-step" },
      { type: "tool-input-start", toolCallId: "c", toolName: "x", inputEncoding: "xml" },
      { type: "tool-input-delta", toolCallId: "c", inputTextDelta: '{"a":1' },
      { type: "tool-input-available", toolCallId: "c", toolName: "x", input: { a: 1 } },
    ],
    [
      { type: "start", messageId: "m" },
      { type: "text-start", id: "t", providerMetadata: { a: 1 } },
      { type: "text-delta", id: "t", delta: "Hi" },
      { type: "text-end", id: "t" },
    ],
  ];
  const [answers] = await askAi([{ op: "fold", streams }]) as [{ message: unknown }[]];
  const results = streams.map((s) => foldUIMessage(s));
  // the usage survives; the unknown reason is reported, not kept
  assert.deepEqual(results[0].message.metadata, { usage: { totalTokens: 7 } });
  assert.equal(results[0].finishReason, undefined);
  assert.deepEqual(json(results[0].message), answers[0].message);
  // the tool part streams and completes as in ai (the unknown encoding is dropped)
  assert.deepEqual(json(results[1].message), answers[1].message);
  // the text part exists (ai keeps the bad providerMetadata verbatim; we drop it)
  const withoutPm = structuredClone(answers[2].message) as { parts: Record<string, unknown>[] };
  delete withoutPm.parts[0].providerMetadata;
  assert.deepEqual(json(results[2].message), withoutPm);
  for (const [i, r] of results.entries()) {
    assert.deepEqual(r.issues.map((x) => [x.index, x.code]), [[[1, 2, 1][i], "invalid-field"]]);
  }
  // the chunk schema (ai's transport) still refuses each of them
  const [verdicts] = await askAi([{
    op: "chunk",
    chunks: [streams[0][1], streams[1][2], streams[2][1]],
  }]) as [boolean[]];
  assert.deepEqual(verdicts, [false, false, false]);
  assert.ok([streams[0][1], streams[1][2], streams[2][1]].every((c) => !isUIMessageChunk(c)));
  assert.ok(!isDeepStrictEqual(results[0].issues, []));
});

Deno.test("v1 → chunks: a card whose correlationId getter throws on its second read is refused, not thrown", () => {
  let reads = 0;
  const card = {
    prompt: "Pick one",
    createdAt: 1,
    get correlationId() {
      if (reads++ > 0) throw nullProtoThrowable();
      return "k1";
    },
  };
  const adapter = new V1ToUIMessageChunks();
  const r = adapter.push(envelope(1, { type: "card", card }));
  assert.ok(!r.ok && r.error.code === "invalid-envelope");
  // nothing changed: the next envelope still opens the turn
  const next = adapter.push(envelope(1, { type: "delta", text: "Hi" }));
  assert.ok(next.ok);
  assert.deepEqual(next.value[0], {
    type: "start",
    messageId: "t",
    messageMetadata: { conversationId: "c", turnId: "t" },
  });
  // a plain card converts
  const plain = { prompt: "Pick one", createdAt: 1, correlationId: "k2" };
  const ok = v1ToUIMessageChunks([envelope(1, { type: "card", card: plain })]);
  assert.equal(ok.chunks[2].type, "data-card");
});

Deno.test("message metadata: a cyclic update merges; a 20k-deep one is refused (over 32 levels), never hangs or overflows", () => {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  let deep: Record<string, unknown> = { leaf: true };
  for (let i = 0; i < 20_000; i++) deep = { a: deep };
  const r = foldUIMessage([
    { type: "message-metadata", messageMetadata: cyclic },
    { type: "message-metadata", messageMetadata: cyclic },
    { type: "message-metadata", messageMetadata: { self: { b: 2 } } },
    { type: "message-metadata", messageMetadata: deep },
    { type: "message-metadata", messageMetadata: deep },
  ]);
  assert.deepEqual(r.issues.map((i) => [i.index, i.code]), [[3, "invalid-chunk"], [
    4,
    "invalid-chunk",
  ]]);
  const m = r.message.metadata as Record<string, Record<string, unknown>>;
  assert.equal(m.self, m.self.self, "the cycle is kept (in a copy)");
  assert.notEqual(m.self, cyclic, "never the input's object");
  assert.equal(m.self.b, 2);
  assert.equal(m.a !== undefined, true);
});
