/**
 * parseInboundChatMessage: a `provenance` / `delivery` claim inherited
 * through the prototype is refused with the accurate code, like an own one.
 */
import assert from "node:assert/strict";
import { parseInboundChatMessage } from "../../message.ts";

const body = {
  id: "m1",
  threadId: "th1",
  authorId: "user:bob",
  role: "user",
  createdAt: "2026-11-30T01:00:00.000Z",
  parts: [{ type: "text", text: "hi" }],
};

Deno.test("inbound: provenance inherited through the prototype is claims-provenance", () => {
  const m = Object.assign(Object.create({ provenance: { authored: "human" } }), body);
  const r = parseInboundChatMessage(m);
  assert.ok(!r.ok);
  assert.equal(r.error.code, "claims-provenance");
  assert.deepEqual(r.error.issues[0].path, ["provenance"]);
});

Deno.test("inbound: delivery inherited through the prototype is claims-delivery", () => {
  const m = Object.assign(Object.create({ delivery: [] }), body);
  const r = parseInboundChatMessage(m);
  assert.ok(!r.ok);
  assert.equal(r.error.code, "claims-delivery");
});

Deno.test("inbound: a plain body and an own __proto__ key are unaffected", () => {
  assert.ok(parseInboundChatMessage(body).ok);
  assert.ok(parseInboundChatMessage(Object.assign(Object.create(null), body)).ok);
  const own = parseInboundChatMessage(
    JSON.parse(`{"__proto__":{"provenance":1},${JSON.stringify(body).slice(1)}`),
  );
  assert.ok(!own.ok);
  assert.equal(own.error.code, "invalid-message", "an own __proto__ key is an unknown key");
});
