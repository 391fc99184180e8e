/**
 * Properties (fast-check, 10 000 runs each for parsers): nothing here throws
 * on hostile input, nothing mutates its input, nothing pollutes prototypes.
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import { chatPart, parseChatMessage, parseInboundChatMessage, uiMessage } from "../../message.ts";
import {
  checkUIMessageChunk,
  detectAiSdkStream,
  foldUIMessage,
  uiMessageChunksToV1,
  v1ToUIMessageChunks,
} from "../../ai_sdk.ts";
import { v1ToAgUiEvents } from "../../ag_ui.ts";
import { anyChunk, v1Stream } from "./_arbitraries.ts";

const RUNS = 10_000;

function noPollution(): void {
  const probe = {} as Record<string, unknown>;
  assert.equal(probe.polluted, undefined);
  assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, "polluted"), false);
  assert.equal(typeof probe.type, "undefined");
}

const messageLike = fc.record({
  id: fc.oneof(fc.string(), fc.anything()),
  threadId: fc.string(),
  authorId: fc.string(),
  role: fc.constantFrom("user", "assistant", "system", "tool", "__proto__"),
  createdAt: fc.oneof(fc.constant("2026-11-30T01:00:00.000Z"), fc.string()),
  parts: fc.array(
    fc.oneof(anyChunk, fc.record({ type: fc.constantFrom("text", "tool-x", "data-y") })),
    {
      maxLength: 6,
    },
  ),
  provenance: fc.oneof(
    fc.constant(undefined),
    fc.record({ authored: fc.constantFrom("agent", "human"), endorsedBy: fc.constant("human") }),
    fc.anything(),
  ),
}, { requiredKeys: ["id", "parts"] });

Deno.test("message parsers never throw (10k runs)", () => {
  fc.assert(
    fc.property(fc.oneof(messageLike, fc.anything()), (v) => {
      const a = parseChatMessage(v);
      const b = parseInboundChatMessage(v);
      assert.equal(typeof a.ok, "boolean");
      assert.equal(typeof b.ok, "boolean");
      uiMessage.safeParse(v);
      chatPart.safeParse(v);
    }),
    { numRuns: RUNS },
  );
  noPollution();
});

Deno.test("chunk check never throws; fold never throws, never mutates, reports sane indices (10k runs)", () => {
  fc.assert(
    fc.property(fc.array(anyChunk, { maxLength: 40 }), (chunks) => {
      for (const c of chunks) checkUIMessageChunk(c);
      let before: string | undefined;
      try {
        before = JSON.stringify(chunks);
      } catch {
        before = undefined; // e.g. BigInt inside fc.anything()
      }
      const r = foldUIMessage(chunks);
      assert.equal(r.count, chunks.length);
      let last = -1;
      for (const i of r.issues) {
        assert.ok(i.index >= last && i.index < chunks.length);
        last = i.index;
      }
      assert.equal(r.message.role, "assistant");
      if (before !== undefined) assert.equal(JSON.stringify(chunks), before);
    }),
    { numRuns: RUNS },
  );
  noPollution();
});

Deno.test("SSE capture recogniser never throws (10k runs)", () => {
  const sseish = fc.array(
    fc.oneof(
      fc.string().map((s) => `data: ${s}`),
      anyChunk.map((c) => {
        try {
          return `data: ${JSON.stringify(c)}`;
        } catch {
          return "data: {";
        }
      }),
      fc.constantFrom("data: [DONE]", ": comment", "event: x", "id: 1", "", "\r"),
    ),
    { maxLength: 12 },
  ).map((lines) => lines.join("\n"));
  fc.assert(
    fc.property(fc.oneof(sseish, fc.string()), (text) => {
      const s = detectAiSdkStream(text);
      if (s !== null) assert.ok(s.chunks.every((c) => checkUIMessageChunk(c) === null));
    }),
    { numRuns: RUNS },
  );
  noPollution();
});

Deno.test("stream adapters never throw on hostile input (10k runs)", () => {
  let n = 0;
  const ids = { conversationId: "c", turnId: "t", nextEventId: () => `e${++n}` };
  fc.assert(
    fc.property(v1Stream, fc.array(anyChunk, { maxLength: 30 }), (envelopes, chunks) => {
      const a = v1ToUIMessageChunks(envelopes);
      assert.ok(a.chunks.every((c) => checkUIMessageChunk(c) === null));
      v1ToAgUiEvents(envelopes);
      foldUIMessage(envelopes);
      const b = uiMessageChunksToV1(chunks, ids);
      b.envelopes.forEach((e, i) => assert.equal(e.seq, i + 1));
    }),
    { numRuns: RUNS },
  );
  noPollution();
});
