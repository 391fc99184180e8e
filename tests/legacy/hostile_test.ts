/**
 * Every public legacy function against hostile values in every argument
 * position, 10^4 runs each: all four document "never throws" (every problem
 * is a typed refusal).
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import {
  decodeLegacyChatFrame,
  encodeLegacyChatFrame,
  upgradeDecodedLegacyChatFrame,
  upgradeLegacyChatFrame,
} from "../../legacy.ts";
import { arg, assertResult, attack } from "../_helpers/attack.ts";
import { deepArray, revokedProxy } from "../_helpers/hostile.ts";
import { validEnvelope } from "../v1/_arbitraries.ts";

const frame = fc.record({
  id: fc.constantFrom("1", "e1", ""),
  event: fc.constantFrom("delta", "state", "heartbeat"),
  data: fc.constantFrom(
    '{"type":"token","content":"Hi"}',
    '{"type":"state","version":1,"snapshot":null}',
    '{"text":"x"}',
    '{"type":"products","products":[{"id":"p1"}]}',
    "[[[[1]]]]",
  ),
}, { requiredKeys: ["data"] });
const dialect = fc.constantFrom("scout", "papercup");
const decodeOptions = fc.record({ maxDataLength: fc.constantFrom(10, 1000) });
const context = fc.record({
  dialect,
  conversationId: fc.constant("c"),
  turnId: fc.constant("t"),
  retryable: fc.boolean(),
  extensions: fc.record({
    namespace: fc.constant("scout"),
    channels: fc.constant({ products: "state" }),
  }, { requiredKeys: ["namespace"] }),
}, { requiredKeys: ["dialect", "conversationId", "turnId", "retryable"] });
/** A context whose allocate() is a real function (fast-check cannot generate one). */
function withAllocate(ctx: unknown): unknown {
  let seq = 0;
  try {
    if (typeof ctx === "object" && ctx !== null && Object.isExtensible(ctx)) {
      Object.defineProperty(ctx, "allocate", {
        value: () => ({ eventId: `t:${++seq}`, seq }),
        configurable: true,
      });
    }
  } catch {
    // a hostile context stays as it is
  }
  return ctx;
}

Deno.test("decodeLegacyChatFrame: a dialect whose toString throws or is missing, and a 20k-deep array, are refusals", () => {
  // Regression: the refusal message was built with String(dialect), which throws for an
  // object whose toString throws or is not a function (or a null-prototype object).
  const f = { data: '{"type":"token","content":"Hi"}' };
  for (
    const dialect of [
      {
        toString() {
          throw new Error("x");
        },
      },
      { toString: 1 },
      Object.create(null),
      revokedProxy(),
      deepArray(20_000),
    ]
  ) {
    const r = decodeLegacyChatFrame(f, dialect as never);
    assert.deepEqual(!r.ok && r.error.code, "invalid-frame");
  }
  for (const bad of [deepArray(20_000), revokedProxy()]) {
    assert.equal(!decodeLegacyChatFrame(bad, "scout").ok, true);
  }
  assert.ok(decodeLegacyChatFrame(f, "scout", deepArray(20_000) as never).ok); // no bound given
  const unreadable = decodeLegacyChatFrame(f, "scout", revokedProxy() as never);
  assert.equal(!unreadable.ok && unreadable.error.code, "invalid-frame"); // documented
  const deepData = { data: "[".repeat(20_000) + "]".repeat(20_000) };
  assert.deepEqual(
    [decodeLegacyChatFrame(deepData, "scout"), decodeLegacyChatFrame(deepData, "papercup")]
      .map((r) => !r.ok && r.error.code),
    ["not-an-object", "missing-event-name"],
  );
});

Deno.test("encodeLegacyChatFrame: a revoked proxy envelope and a null-prototype vocabulary are refusals", () => {
  // Regression: isRecord(revoked proxy) threw from Array.isArray, and String() of a
  // null-prototype vocabulary threw while building the refusal.
  const ids = { conversationId: "c", turnId: "t", eventId: "e1" };
  const env = { schemaVersion: 1, ...ids, seq: 1, event: { type: "delta", text: "x" } };
  const r1 = encodeLegacyChatFrame(revokedProxy() as never, "scout");
  assert.equal(!r1.ok && r1.error.code, "invalid-envelope");
  const r2 = encodeLegacyChatFrame(env as never, Object.create(null));
  assert.equal(!r2.ok && r2.error.code, "invalid-envelope");
  assert.ok(encodeLegacyChatFrame(env as never, "papercup").ok);
});

Deno.test("hostile: decodeLegacyChatFrame", () => {
  attack(
    [arg(frame), arg(dialect), arg(decodeOptions)],
    (f, d, o) => decodeLegacyChatFrame(f, d as never, o as never),
    { check: assertResult },
  );
});

Deno.test("hostile: encodeLegacyChatFrame", () => {
  attack(
    [arg(validEnvelope), arg(dialect)],
    (e, v) => encodeLegacyChatFrame(e as never, v as never),
    { check: assertResult },
  );
});

Deno.test("hostile: upgradeLegacyChatFrame / upgradeDecodedLegacyChatFrame", () => {
  attack(
    [arg(frame), arg(context)],
    (f, c) => upgradeLegacyChatFrame(f, withAllocate(c) as never),
    { check: assertResult },
  );
  const decoded = frame.map((f) => {
    const d = decodeLegacyChatFrame(f, "scout");
    return d.ok ? d.value : { kind: "chat" };
  });
  attack(
    [arg(decoded), arg(context)],
    (d, c) => upgradeDecodedLegacyChatFrame(d as never, withAllocate(c) as never),
    { check: assertResult },
  );
});
