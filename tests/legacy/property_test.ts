import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import {
  decodeLegacyChatFrame,
  encodeLegacyChatFrame,
  type LegacyUpgradeContext,
  upgradeLegacyChatFrame,
} from "../../legacy.ts";
import type { ChatEventEnvelope } from "../../src/v1/types.ts";
import { validEnvelope } from "../v1/_arbitraries.ts";

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
  let encoded = 0;
  fc.assert(
    fc.property(
      fc.oneof(
        fc.anything(),
        validEnvelope, // so the encoding path itself runs, not only the envelope check
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
        if (r.ok) encoded++;
        assert.ok(pristine());
      },
    ),
    { numRuns: 5_000 },
  );
  assert.ok(encoded > 500, `only ${encoded} envelopes were encoded`);
});

type Ev = Record<string, unknown>;

/**
 * What a legacy vocabulary keeps of a v1 event (encodeLegacyChatFrame's
 * JSDoc): `null` when it has no representation at all.
 */
function legacyView(e: Ev, vocab: "scout" | "papercup"): Ev | null {
  const pick = (keys: string[]) => {
    const out: Ev = {};
    for (const k of ["type", ...keys]) if (e[k] !== undefined) out[k] = e[k];
    return out;
  };
  const none = vocab === "scout"
    ? ["reasoning", "tool_progress", "turn_status", "ext", "elided", "tool_result", "provenance"]
    : ["reasoning", "tool_progress", "turn_status", "ext", "elided"];
  if (none.includes(e.type as string)) return null;
  switch (e.type) {
    case "tool_call":
      return pick(vocab === "scout" ? ["callId", "name"] : ["callId", "name", "input"]);
    case "tool_result":
      return pick(["callId", "name", "ok", "summary"]); // no output / blocks
    case "provenance":
      return pick(["engine", "model", "accountRoute"]); // no provider
    case "card_closed":
      return pick(["correlationId"]); // no resolution
    case "error":
      return pick(["message", "retryable"]); // retryable comes back from the host
    case "done": {
      if (vocab === "papercup") return pick(["stopReason", "usage"]);
      const out: Ev = { type: "done" };
      const u = e.usage as Ev | undefined;
      const kept: Ev = {};
      for (const k of ["totalTokens", "costUsd"]) if (u?.[k] !== undefined) kept[k] = u[k];
      if (Object.keys(kept).length > 0) out.usage = kept;
      return out;
    }
    default:
      return { ...e };
  }
}

Deno.test("round trip (property): upgrade(decode(encode(x))) gives x back minus what the vocabulary cannot say", () => {
  let roundTrips = 0;
  const seen = new Set<string>();
  fc.assert(
    fc.property(validEnvelope, fc.constantFrom("scout", "papercup"), (envelope, vocab) => {
      const env = envelope as unknown as ChatEventEnvelope;
      const event = envelope.event as Ev;
      seen.add(`${vocab}:${event.type}`);
      const expected = legacyView(event, vocab);
      const enc = encodeLegacyChatFrame(env, vocab);
      if (expected === null) {
        assert.equal(!enc.ok && enc.error.code, "unsupported-event");
        assert.equal(!enc.ok && enc.error.type, event.type);
        return;
      }
      assert.ok(enc.ok, !enc.ok ? enc.error.message : "");
      assert.equal(enc.value.id, vocab === "scout" ? String(env.seq) : env.eventId);
      assert.equal(enc.value.event, vocab === "scout" ? undefined : event.type);
      const decoded = decodeLegacyChatFrame(enc.value, vocab);
      assert.ok(decoded.ok && decoded.value.kind === "chat", JSON.stringify(decoded));
      let allocated = 0;
      const up = upgradeLegacyChatFrame(enc.value, {
        dialect: vocab,
        conversationId: env.conversationId,
        turnId: env.turnId,
        retryable: event.retryable as boolean | undefined,
        allocate: () => ({ eventId: env.eventId, seq: env.seq + allocated++ }),
      });
      assert.ok(up.ok, !up.ok ? up.error.message : "");
      assert.deepEqual(up.value.event, JSON.parse(JSON.stringify(expected)));
      assert.equal(up.value.seq, env.seq);
      roundTrips++;
    }),
    { numRuns: 3_000 },
  );
  assert.ok(roundTrips > 1_000, `only ${roundTrips} round trips ran`);
  assert.equal(seen.size, 2 * 16, `every v1 event type in both vocabularies: ${[...seen]}`);
});
