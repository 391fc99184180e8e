import assert from "node:assert/strict";
import fc from "fast-check";
import {
  decodeLegacyChatFrame,
  encodeLegacyChatFrame,
  type LegacyUpgradeContext,
  upgradeLegacyChatFrame,
} from "../../src/legacy/mod.ts";
import type { ChatEventEnvelope } from "../../src/v1/types.ts";

const TYPES = [
  "token",
  "tool_start",
  "tool_result",
  "session",
  "card",
  "card_closed",
  "state",
  "done",
  "error",
  "navigate",
  "products",
  "delta",
  "tool_call",
  "__proto__",
  "constructor",
];
const KEYS = [
  "type",
  "content",
  "tool",
  "name",
  "callId",
  "ok",
  "text",
  "sessionId",
  "card",
  "correlationId",
  "prompt",
  "version",
  "usage",
  "message",
  "href",
  "__proto__",
  "constructor",
  "prototype",
];

const jsonish = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom(...TYPES),
    fc.string(),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie("value"), { maxKeys: 5 }),
  ),
})).value;

const payloadText = fc.oneof(
  fc.string(),
  jsonish.map((v) => JSON.stringify(v) ?? ""),
  fc.dictionary(fc.constantFrom(...KEYS), jsonish, { maxKeys: 6 }).map((o) => JSON.stringify(o)),
  fc.record({
    type: fc.constantFrom(...TYPES),
    content: jsonish,
    tool: jsonish,
    name: jsonish,
    callId: jsonish,
    ok: jsonish,
  })
    .map((o) => JSON.stringify(o)),
);

const frameArb = fc.oneof(
  fc.record(
    {
      id: fc.oneof(fc.string(), fc.nat().map(String)),
      event: fc.oneof(fc.constantFrom(...TYPES, "heartbeat", "message"), fc.string()),
      data: payloadText,
    },
    { requiredKeys: ["data"] },
  ),
  fc.anything(),
);

function pristine() {
  const o = {} as Record<string, unknown>;
  return o.polluted === undefined && o.type === undefined &&
    Object.getPrototypeOf(o) === Object.prototype;
}

Deno.test("decodeLegacyChatFrame never throws and never pollutes (10^4 runs)", () => {
  fc.assert(
    fc.property(frameArb, fc.constantFrom("scout", "papercup"), (frame, dialect) => {
      const r = decodeLegacyChatFrame(frame, dialect as "scout" | "papercup");
      assert.equal(typeof r.ok, "boolean");
      if (!r.ok) assert.equal(typeof r.error.code, "string");
      assert.ok(pristine());
    }),
    { numRuns: 10_000 },
  );
});

Deno.test("upgradeLegacyChatFrame never throws, never invents call ids, allocates only on success (10^4 runs)", () => {
  fc.assert(
    fc.property(
      frameArb,
      fc.constantFrom("scout", "papercup"),
      fc.option(fc.boolean(), { nil: undefined }),
      (frame, dialect, retryable) => {
        let allocated = 0;
        const ctx: LegacyUpgradeContext = {
          dialect: dialect as "scout" | "papercup",
          conversationId: "c",
          turnId: "t",
          retryable,
          allocate: () => ({ eventId: `e${++allocated}`, seq: allocated }),
        };
        const r = upgradeLegacyChatFrame(frame, ctx);
        assert.equal(allocated, r.ok ? 1 : 0);
        if (r.ok) {
          const e = r.value.event;
          if (e.type === "tool_call" || e.type === "tool_result") {
            // the call id must come from the frame itself (no host mapping here)
            assert.ok(typeof (frame as { data?: unknown }).data === "string");
            assert.ok((frame as { data: string }).data.includes(JSON.stringify(e.callId)));
          }
          if (e.type === "tool_result") assert.equal(typeof e.ok, "boolean");
          if (e.type === "error") assert.equal(e.retryable, retryable);
        }
        assert.ok(pristine());
      },
    ),
    { numRuns: 10_000 },
  );
});

Deno.test("encodeLegacyChatFrame never throws on arbitrary envelopes", () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.anything(),
        fc.record({
          seq: fc.integer(),
          eventId: fc.string(),
          event: fc.dictionary(fc.constantFrom(...KEYS), jsonish),
        }),
      ),
      fc.constantFrom("scout", "papercup"),
      (e, v) => {
        const r = encodeLegacyChatFrame(e as ChatEventEnvelope, v as "scout" | "papercup");
        assert.equal(typeof r.ok, "boolean");
        assert.ok(pristine());
      },
    ),
    { numRuns: 5_000 },
  );
});
