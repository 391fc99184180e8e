/**
 * chunks → v1: the host's `nextEventId()` output is checked. A non-string,
 * empty or repeated id (or a throwing allocator) is refused with an
 * `invalid-event-id` issue, never emitted into an envelope.
 */
import assert from "node:assert/strict";
import { parseChatEnvelope } from "../../mod.ts";
import { UIMessageChunksToV1, uiMessageChunksToV1 } from "../../ai_sdk.ts";

const chunks = [
  { type: "start", messageId: "m1" },
  { type: "text-start", id: "t" },
  { type: "text-delta", id: "t", delta: "Hel" },
  { type: "text-delta", id: "t", delta: "lo" },
  { type: "tool-input-error", toolCallId: "c1", toolName: "x", input: {}, errorText: "bad" },
  { type: "text-delta", id: "t", delta: "!" },
  { type: "finish" },
];

function ids(seq: unknown[]) {
  let i = 0;
  return {
    conversationId: "c",
    turnId: "t",
    nextEventId: () => seq[i++] as string,
  };
}

Deno.test("chunks → v1: a bad event id from the host is refused, never emitted", () => {
  const bad: [string, unknown][] = [
    ["number", 3],
    ["empty", ""],
    ["undefined", undefined],
    ["null", null],
    ["object", { id: "e2" }],
    ["repeated", "e1"],
  ];
  for (const [name, second] of bad) {
    const { envelopes, issues } = uiMessageChunksToV1(
      chunks,
      ids(["e1", second, "e3", "e4", "e5", "e6"]),
    );
    // only the envelope with a good id before the failure is emitted
    assert.deepEqual(envelopes.map((e) => e.eventId), ["e1"], name);
    for (const e of envelopes) assert.ok(parseChatEnvelope(e).ok, name);
    assert.equal(issues[0].code, "invalid-event-id", name);
    assert.equal(issues[0].index, 3, name);
    // the adapter stops: later chunks are reported, not converted
    assert.ok(issues.slice(1).every((i) => i.code === "invalid-event-id"), name);
    assert.deepEqual(issues.map((i) => i.index), [3, 4, 5, 6], name);
  }
});

Deno.test("chunks → v1: a bad id in the middle of a chunk discards that chunk's envelopes and keeps seq gapless", () => {
  // tool-input-error emits tool_call + tool_result: the second id is repeated
  const a = new UIMessageChunksToV1(ids(["e1", "e2", "e3", "e1"]));
  const out = chunks.map((c) => a.push(c));
  assert.deepEqual(out.flat().map((e) => [e.eventId, e.seq]), [["e1", 1], ["e2", 2]]);
  assert.deepEqual(out[4], []);
  assert.equal(a.issues[0].code, "invalid-event-id");
  assert.equal(a.issues[0].index, 4);
});

Deno.test("chunks → v1: a throwing allocator is an invalid-event-id issue, not invalid-chunk", () => {
  const { envelopes, issues } = uiMessageChunksToV1(chunks, {
    conversationId: "c",
    turnId: "t",
    nextEventId: () => {
      throw new Error("pool exhausted");
    },
  });
  assert.deepEqual(envelopes, []);
  assert.equal(issues[0].code, "invalid-event-id");
  assert.equal(issues[0].index, 2);
});

Deno.test("chunks → v1: a throwing or bad clock stops the adapter without a seq gap", () => {
  const bad: [string, () => number][] = [
    ["throws", () => {
      throw new Error("clock");
    }],
    ["NaN", () => NaN],
    ["negative", () => -1],
    ["string", () => "1000" as unknown as number],
  ];
  for (const [name, broken] of bad) {
    let k = 0;
    const now = () => (++k === 2 ? broken() : 1_000);
    let n = 0;
    const { envelopes, issues } = uiMessageChunksToV1(chunks, {
      conversationId: "c",
      turnId: "t",
      nextEventId: () => `e${++n}`,
    }, { now });
    // the second envelope's clock failed: only the first is emitted, never seq 3 after seq 1
    assert.deepEqual(envelopes.map((e) => [e.eventId, e.seq, e.at]), [["e1", 1, 1_000]], name);
    for (const e of envelopes) assert.ok(parseChatEnvelope(e).ok, name);
    assert.equal(issues[0].code, "invalid-event-id", name);
    assert.equal(issues[0].index, 3, name);
    assert.ok(issues.every((i) => i.code === "invalid-event-id"), name);
  }
});

Deno.test("chunks → v1: a bad conversationId / turnId is refused, never emitted", () => {
  const bad: [string, unknown, unknown][] = [
    ["numeric conversation", 5, "t"],
    ["empty turn", "c", ""],
    ["undefined turn", "c", undefined],
  ];
  for (const [name, conversationId, turnId] of bad) {
    let n = 0;
    const { envelopes, issues } = uiMessageChunksToV1(chunks, {
      conversationId: conversationId as string,
      turnId: turnId as string,
      nextEventId: () => `e${++n}`,
    });
    assert.deepEqual(envelopes, [], name);
    assert.equal(issues[0].code, "invalid-event-id", name);
    assert.equal(issues[0].index, 2, name);
  }
  const getter = {
    get conversationId(): string {
      throw new Error("gone");
    },
    turnId: "t",
    nextEventId: () => "e1",
  };
  const r = uiMessageChunksToV1(chunks, getter);
  assert.deepEqual(r.envelopes, []);
  assert.deepEqual(r.issues.map((i) => i.code), Array(5).fill("invalid-event-id"));
});

Deno.test("chunks → v1: the allocator throwing mid-chunk discards that chunk's first envelope", () => {
  let n = 0;
  const a = new UIMessageChunksToV1({
    conversationId: "c",
    turnId: "t",
    nextEventId: () => {
      if (++n === 4) throw new Error("pool exhausted");
      return `e${n}`;
    },
  });
  const out = chunks.map((c) => a.push(c));
  // tool-input-error: tool_call took e3, tool_result's id threw → both discarded
  assert.deepEqual(out.flat().map((e) => [e.eventId, e.seq]), [["e1", 1], ["e2", 2]]);
  assert.deepEqual(a.issues.map((i) => [i.index, i.code]), [
    [4, "invalid-event-id"],
    [5, "invalid-event-id"],
    [6, "invalid-event-id"],
  ]);
});

Deno.test("uiMessageChunksToV1: a non-iterable or throwing input is an issue, never a throw", () => {
  const ids = () => {
    let n = 0;
    return { conversationId: "c", turnId: "t", nextEventId: () => `e${++n}` };
  };
  for (const bad of [null, 5, {}, { [Symbol.iterator]: () => 5 }]) {
    const r = uiMessageChunksToV1(bad as never, ids());
    assert.deepEqual(r.envelopes, []);
    assert.equal(r.issues.length, 1);
    assert.equal(r.issues[0].index, 0);
    assert.equal(r.issues[0].code, "invalid-chunk");
  }
  function* source() {
    yield* chunks.slice(0, 3);
    throw new Error("socket closed");
  }
  const r = uiMessageChunksToV1(source(), ids());
  assert.deepEqual(r.envelopes.map((e) => [e.eventId, e.seq]), [["e1", 1]]);
  assert.equal(r.issues.length, 1);
  assert.equal(r.issues[0].index, 3);
  assert.match(r.issues[0].message, /socket closed/);
});

Deno.test("chunks → v1: conversationId / turnId are read once, so a value-changing getter cannot mix ids", () => {
  let reads = 0;
  let n = 0;
  const allocator = {
    get conversationId() {
      return `c${++reads}`; // a different id on every read
    },
    turnId: "t",
    nextEventId: () => `e${++n}`,
  };
  const { envelopes, issues } = uiMessageChunksToV1(chunks, allocator);
  assert.deepEqual(issues, []);
  assert.ok(envelopes.length > 2);
  assert.deepEqual([...new Set(envelopes.map((e) => e.conversationId))], ["c1"]);
  assert.equal(reads, 1);
});
