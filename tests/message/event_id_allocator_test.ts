/**
 * chunks → v1: the host's `nextEventId()` output is checked. A non-string,
 * empty or repeated id (or a throwing allocator) is refused with an
 * `invalid-event-id` issue, never emitted into an envelope.
 */
import assert from "node:assert/strict";
import { parseChatEnvelope } from "../../src/v1/mod.ts";
import { UIMessageChunksToV1, uiMessageChunksToV1 } from "../../src/message/mod.ts";

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
