/**
 * Envelope, provenance (including the two titan defects as regressions),
 * inbound refusal, delivery ladder, UIMessage bridge.
 */
import assert from "node:assert/strict";
import {
  capDeliveryStatus,
  type ChatMessage,
  chatMessage,
  chatThread,
  type DeliveryStatus,
  endorseAgentMessage,
  fromUIMessage,
  markHumanEndorsed,
  parseChatMessage,
  parseInboundChatMessage,
  participant,
  provenance,
  toUIMessage,
  TRANSPORT_DELIVERY_CEILING,
} from "../../message.ts";
import { agentMessage } from "./_samples.ts";

const base: ChatMessage = agentMessage();

Deno.test("defect 1 (titan): re-parsing an endorsed message keeps the endorsement", () => {
  const expected = { authored: "agent", endorsedBy: "human", attestedBy: "user:alice" };
  // the seed's own test, which passed on its defective schema: now the value survives
  const { provenance: _p, ...noProvenance } = base;
  assert.deepEqual(
    chatMessage.parse(markHumanEndorsed(noProvenance, "user:alice")).provenance,
    expected,
  );
  const r = endorseAgentMessage(base, "user:alice");
  assert.ok(r.ok);
  assert.deepEqual(r.value.provenance, expected);
  const reparsed = chatMessage.parse(r.value);
  assert.deepEqual(reparsed.provenance, expected);
  const viaJson = parseChatMessage(JSON.parse(JSON.stringify(r.value)));
  assert.ok(viaJson.ok);
  assert.deepEqual(viaJson.value.provenance, expected);
  assert.deepEqual(base.provenance, { authored: "agent" }, "input not mutated");
});

Deno.test("defect 2 (titan): an endorsement without attestedBy is refused, not downgraded", () => {
  for (
    const p of [
      { authored: "agent", endorsedBy: "human" },
      { authored: "agent", endorsedBy: "human", attestedBy: "" },
      { authored: "agent", endorsedBy: "robot", attestedBy: "x" },
      { authored: "human", endorsedBy: "human", attestedBy: "x" },
      { authored: "agent", extra: 1 },
    ]
  ) {
    assert.equal(provenance.safeParse(p).success, false, JSON.stringify(p));
    const r = parseChatMessage({ ...base, provenance: p });
    assert.ok(!r.ok);
    assert.equal(r.error.code, "invalid-message");
    assert.deepEqual(r.error.issues[0].path.slice(0, 1), ["provenance"]);
  }
  const noAttest = endorseAgentMessage(base, "");
  assert.ok(!noAttest.ok);
  assert.equal(noAttest.error.code, "missing-attestation");
  const human = endorseAgentMessage({ ...base, provenance: { authored: "human" } }, "x");
  assert.ok(!human.ok);
  assert.equal(human.error.code, "not-agent-authored");
});

Deno.test("inbound messages claiming provenance or delivery are refused, not stripped", () => {
  const { provenance: _p, ...body } = base;
  assert.ok(parseInboundChatMessage(body).ok);
  const p = parseInboundChatMessage({ ...body, provenance: { authored: "human" } });
  assert.ok(!p.ok);
  assert.equal(p.error.code, "claims-provenance");
  const pu = parseInboundChatMessage({ ...body, provenance: undefined });
  assert.ok(!pu.ok);
  assert.equal(pu.error.code, "claims-provenance");
  const d = parseInboundChatMessage({ ...body, delivery: [] });
  assert.ok(!d.ok);
  assert.equal(d.error.code, "claims-delivery");
  const extra = parseInboundChatMessage({ ...body, admin: true });
  assert.ok(!extra.ok);
  assert.equal(extra.error.code, "invalid-message");
  const proto = parseInboundChatMessage(
    JSON.parse(`{"__proto__":{"provenance":1},${JSON.stringify(body).slice(1)}`),
  );
  assert.ok(!proto.ok, "an own __proto__ key is an unknown key");
});

Deno.test("chat message schema: ISO createdAt, participants, threads, delivery", () => {
  assert.ok(parseChatMessage(base).ok);
  assert.ok(!parseChatMessage({ ...base, createdAt: "yesterday" }).ok);
  assert.ok(!parseChatMessage({ ...base, id: "" }).ok);
  assert.ok(!parseChatMessage({ ...base, role: "tool" }).ok);
  assert.ok(!parseChatMessage(null).ok);
  const withDelivery = parseChatMessage({
    ...base,
    inReplyTo: "m0",
    metadata: { usage: { totalTokens: 3 } },
    delivery: [{ participantId: "u1", status: "read", at: "2026-11-30T01:00:01.000Z" }],
    stray: "stripped",
  });
  assert.ok(withDelivery.ok);
  assert.equal((withDelivery.value as unknown as Record<string, unknown>).stray, undefined);
  assert.ok(
    !parseChatMessage({ ...base, delivery: [{ participantId: "u1", status: "seen", at: "x" }] }).ok,
  );
  assert.ok(
    !parseChatMessage({ ...base, delivery: [{ participantId: "u1", status: "read", at: "x" }] }).ok,
    "delivery at must be ISO-8601 like createdAt",
  );
  for (const kind of ["human", "agent", "device", "service"]) {
    assert.ok(
      participant.safeParse({ id: "p", role: "user", displayName: "", kind }).success,
    );
  }
  assert.ok(
    participant.safeParse({
      id: "p",
      role: "assistant",
      displayName: "Bot",
      kind: "agent",
      address: { scheme: "agent-chat", value: "bot@bus" },
    }).success,
  );
  assert.ok(
    !participant.safeParse({ id: "p", role: "user", displayName: "", kind: "robot" }).success,
  );
  assert.ok(
    chatThread.safeParse({
      id: "t",
      kind: "coach",
      participants: [],
      createdAt: "2026-01-01T00:00:00Z",
    })
      .success,
  );
});

Deno.test("capDeliveryStatus is a cap, not a setter", () => {
  const cases: [DeliveryStatus, DeliveryStatus, DeliveryStatus][] = [
    ["read", "accepted", "accepted"],
    ["pending", "read", "pending"],
    ["delivered", "delivered", "delivered"],
    ["held", "accepted", "held"],
    ["undeliverable", "pending", "undeliverable"],
    ["read", "held", "read"],
    ["accepted", "undeliverable", "accepted"],
  ];
  for (const [s, c, want] of cases) assert.equal(capDeliveryStatus(s, c), want, `${s},${c}`);
  assert.equal(TRANSPORT_DELIVERY_CEILING, "accepted");
});

Deno.test("toUIMessage drops the envelope; fromUIMessage ignores smuggled envelope keys", () => {
  const m: ChatMessage = { ...base, metadata: { a: 1 }, inReplyTo: "m0" };
  const ui = toUIMessage(m);
  assert.deepEqual(ui, { id: "m1", role: "assistant", parts: base.parts, metadata: { a: 1 } });
  assert.equal(ui.parts, m.parts);
  assert.deepEqual(toUIMessage(base), { id: "m1", role: "assistant", parts: base.parts });
  const smuggled = { ...ui, provenance: { authored: "human" } } as unknown as typeof ui;
  const back = fromUIMessage(smuggled, {
    threadId: "th1",
    authorId: "agent:coach",
    createdAt: base.createdAt,
    inReplyTo: "m0",
    provenance: { authored: "agent" },
  });
  assert.deepEqual(back, { ...m, provenance: { authored: "agent" } });
  assert.deepEqual(toUIMessage(back), ui);
});

Deno.test("parsers never throw on deep nesting or hostile objects", () => {
  let deep: unknown = 1;
  for (let i = 0; i < 100_000; i++) deep = { a: [deep] };
  const nested = (extra: Record<string, unknown>) => ({ ...base, parts: [{ ...extra }] });
  // provider / tool metadata are JSON-value checked: checked iteratively, any depth
  const withPm = nested({ type: "text", text: "x", providerMetadata: { p: { deep } } });
  const r1 = parseChatMessage(withPm);
  assert.ok(r1.ok);
  const withTm = nested({
    type: "tool-x",
    toolCallId: "c",
    state: "input-available",
    input: {},
    toolMetadata: { deep },
  });
  assert.ok(parseChatMessage(withTm).ok);
  // a non-finite number at the bottom is still found
  let bad: unknown = NaN;
  for (let i = 0; i < 100_000; i++) bad = [bad];
  const r2 = parseChatMessage(
    nested({ type: "text", text: "x", providerMetadata: { p: { bad } } }),
  );
  assert.ok(!r2.ok && r2.error.code === "invalid-message");
  // hostile objects: a refusal, not an exception
  const getter = Object.defineProperty({ ...base }, "parts", {
    enumerable: true,
    get() {
      throw new Error("boom");
    },
  });
  const r3 = parseChatMessage(getter);
  assert.ok(!r3.ok && r3.error.code === "invalid-message");
  const { provenance: _p, ...body } = base;
  const r5 = parseInboundChatMessage(
    Object.defineProperty({ ...body }, "parts", {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    }),
  );
  assert.ok(!r5.ok && r5.error.code === "invalid-message");
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  assert.ok(!parseChatMessage(revoked.proxy).ok);
  assert.ok(!parseInboundChatMessage(revoked.proxy).ok);
});

Deno.test("the trust boundary: parseChatMessage keeps a stored endorsement, inbound parsing refuses any claim", () => {
  const { provenance: _p, ...body } = base;
  const claimed = {
    ...body,
    provenance: { authored: "agent", endorsedBy: "human", attestedBy: "x" },
  };
  // a stored message keeps what the broker wrote (titan defect 1 must not come back) ...
  const stored = parseChatMessage(claimed);
  assert.ok(stored.ok);
  assert.deepEqual(stored.value.provenance, claimed.provenance);
  // ... which is exactly why transport input goes through the inbound parser
  const inbound = parseInboundChatMessage(claimed);
  assert.ok(!inbound.ok && inbound.error.code === "claims-provenance");
});
