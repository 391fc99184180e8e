/**
 * The AI SDK → v1 adapter emits only envelopes the v1 parser accepts: its
 * host ids and the chunks' tool call ids must be v1 wire ids (no CR, LF,
 * NUL or lone surrogate: each may travel as an SSE id line or a header).
 */
import assert from "node:assert/strict";
import { parseChatEnvelope } from "../../mod.ts";
import { uiMessageChunksToV1 } from "../../ai_sdk.ts";

const chunks = [
  { type: "start" },
  { type: "tool-input-available", toolCallId: "k\n1", toolName: "search", input: {} },
  { type: "text-start", id: "t" },
  { type: "text-delta", id: "t", delta: "hi" },
  { type: "text-end", id: "t" },
  { type: "finish" },
];

Deno.test("uiMessageChunksToV1: a tool call id that is not a wire id is an issue, never an envelope", () => {
  let n = 0;
  const r = uiMessageChunksToV1(chunks, {
    conversationId: "c",
    turnId: "t",
    nextEventId: () => `e${++n}`,
  });
  assert.ok(r.envelopes.length > 0);
  for (const e of r.envelopes) assert.ok(parseChatEnvelope(e).ok, JSON.stringify(e));
  assert.ok(r.envelopes.every((e) => e.event.type !== "tool_call"));
  assert.ok(r.issues.some((i) => /toolCallId v1 cannot carry/.test(i.message)));
});

Deno.test("uiMessageChunksToV1: host ids that are not wire ids stop the conversion (invalid-event-id)", () => {
  for (
    const ids of [
      { conversationId: "c\r", turnId: "t", nextEventId: () => "e1" },
      { conversationId: "c", turnId: "t\u0000", nextEventId: () => "e1" },
      { conversationId: "c", turnId: "t", nextEventId: () => "e\ud800" },
    ]
  ) {
    const r = uiMessageChunksToV1(chunks.slice(2), ids);
    assert.deepEqual(r.envelopes, []);
    assert.equal(r.issues[0]?.code, "invalid-event-id", JSON.stringify(r.issues));
  }
});
