/** Messaging and human-in-the-loop adapters. */
import assert from "node:assert/strict";
import {
  type ChatMessage,
  deliveryFromSendResult,
  fromMessagingInbound,
  GATE_PART_TYPE,
  type GateSnapshot,
  parseChatMessage,
  parseHitlGate,
  parseInboundChatMessage,
  toHitlAnswer,
  toMessagingOutbound,
  uiMessage,
} from "../../message.ts";
import { handBuiltMessages } from "./_samples.ts";
import { askAi, json } from "./_oracle_client.ts";

const ctx = { threadId: "th1", authorId: "u1", createdAt: "2026-11-30T01:00:00.000Z" };

Deno.test("fromMessagingInbound: a human text message with broker-set provenance", () => {
  const m = fromMessagingInbound(
    { status: "accepted", handle: "+1555", guid: "g1", text: "hi" },
    ctx,
  );
  assert.deepEqual(m, {
    id: "g1",
    threadId: "th1",
    authorId: "u1",
    role: "user",
    createdAt: ctx.createdAt,
    parts: [{ type: "text", text: "hi" }],
    provenance: { authored: "human" },
  });
  assert.ok(parseChatMessage(m).ok);
  const inbound = parseInboundChatMessage(m);
  assert.ok(!inbound.ok && inbound.error.code === "claims-provenance");
});

Deno.test("toMessagingOutbound: text joined, every other part listed in dropped, in order", () => {
  const parts = handBuiltMessages()[2].parts;
  const m: ChatMessage = { ...ctx, id: "m", role: "assistant", parts };
  const { send, dropped } = toMessagingOutbound(m, "+1555");
  assert.equal(send.handle, "+1555");
  assert.equal(send.text, "See [1].");
  assert.equal(dropped.length, parts.length - 1);
  assert.deepEqual(dropped, parts.filter((p) => p.type !== "text").map((p) => p.type));
  const two = toMessagingOutbound({
    ...m,
    parts: [{ type: "text", text: "a" }, { type: "step-start" }, { type: "text", text: "b" }],
  }, "h");
  assert.deepEqual(two, { send: { handle: "h", text: "a\n\nb" }, dropped: ["step-start"] });
  assert.deepEqual(toMessagingOutbound({ ...m, parts: [] }, "h").send.text, "");
});

Deno.test("deliveryFromSendResult caps success at accepted; failure is undeliverable", () => {
  assert.deepEqual(deliveryFromSendResult({ ok: true, messageGuid: "x" }, "p", "t"), {
    participantId: "p",
    status: "accepted",
    at: "t",
  });
  assert.deepEqual(
    deliveryFromSendResult({ ok: false, error: { kind: "rate_limited" } }, "p", "t"),
    {
      participantId: "p",
      status: "undeliverable",
      at: "t",
      reason: "rate_limited",
    },
  );
});

const gate = (over: Partial<GateSnapshot>): GateSnapshot => ({
  id: "g1",
  prompt: "Deploy to prod?",
  status: "pending",
  createdAt: ctx.createdAt,
  ...over,
});
const gctx = { threadId: "th1", authorId: "agent:ops" };
/** parseHitlGate on a well-formed row: must succeed. */
const gateMessage = (g: GateSnapshot, c: typeof gctx): ChatMessage => {
  const r = parseHitlGate(g, c);
  if (!r.ok) throw new Error(`parseHitlGate refused: ${r.error.code} ${r.error.message}`);
  return r.value;
};

Deno.test("parseHitlGate maps each gate status; every result is a valid message and part", () => {
  const schema = { type: "object", properties: { ok: { type: "boolean" } } };
  const pending = gateMessage(gate({ schema, expiresAt: "2026-12-01T00:00:00.000Z" }), gctx);
  assert.deepEqual(pending, {
    id: "gate:g1",
    threadId: "th1",
    authorId: "agent:ops",
    role: "assistant",
    createdAt: ctx.createdAt,
    parts: [{
      type: GATE_PART_TYPE,
      toolCallId: "g1",
      input: { prompt: "Deploy to prod?", schema, expiresAt: "2026-12-01T00:00:00.000Z" },
      state: "approval-requested",
      approval: { id: "g1", descriptor: schema },
    }],
  });
  const resolved = gateMessage(gate({ status: "resolved", payload: { ok: true } }), gctx).parts[0];
  assert.deepEqual(resolved, {
    type: "tool-gate",
    toolCallId: "g1",
    input: { prompt: "Deploy to prod?" },
    state: "output-available",
    output: { ok: true },
    approval: { id: "g1", approved: true },
  });
  const cancelled = gateMessage(gate({ status: "cancelled" }), gctx).parts[0];
  assert.deepEqual((cancelled as { approval: unknown }).approval, {
    id: "g1",
    approved: false,
    reason: "cancelled",
  });
  const expired = gateMessage(gate({ status: "expired", reason: "timeout" }), gctx).parts[0];
  assert.equal((expired as { state: string }).state, "output-denied");
  assert.deepEqual((expired as { approval: unknown }).approval, {
    id: "g1",
    approved: false,
    reason: "timeout",
  });
  for (const status of ["pending", "resolved", "cancelled", "expired"] as const) {
    const m = gateMessage(gate({ status, payload: 1 }), gctx);
    assert.ok(parseChatMessage(m).ok, status);
    assert.ok(
      uiMessage.safeParse({ id: m.id, role: m.role, parts: m.parts }).success,
      status,
    );
  }
});

Deno.test("toHitlAnswer: undefined while open or without a gate; accept / decline otherwise", () => {
  assert.equal(toHitlAnswer(gateMessage(gate({}), gctx)), undefined);
  assert.deepEqual(
    toHitlAnswer(gateMessage(gate({ status: "resolved", payload: { v: 1 } }), gctx)),
    {
      action: "accept",
      gateId: "g1",
      payload: { v: 1 },
    },
  );
  assert.deepEqual(toHitlAnswer(gateMessage(gate({ status: "cancelled" }), gctx)), {
    action: "decline",
    gateId: "g1",
    reason: "cancelled",
  });
  assert.deepEqual(toHitlAnswer(gateMessage(gate({ status: "expired" }), gctx)), {
    action: "decline",
    gateId: "g1",
    reason: "expired",
  });
  const plain: ChatMessage = {
    ...ctx,
    id: "m",
    role: "assistant",
    parts: [{ type: "text", text: "x" }],
  };
  assert.equal(toHitlAnswer(plain), undefined);
  const responded: ChatMessage = {
    ...plain,
    parts: [{
      type: "tool-gate",
      toolCallId: "g",
      state: "approval-responded",
      approval: { id: "g", approved: true },
    }],
  };
  // the AI SDK's approval-responded state (what addToolApprovalResponse sets) is an answer
  assert.deepEqual(toHitlAnswer(responded), {
    action: "accept",
    gateId: "g",
    payload: { confirmed: true },
  });
});

Deno.test("parseHitlGate: every status, with and without payload, survives JSON and passes ai's validator", async () => {
  const msgs: unknown[][] = [];
  for (const status of ["pending", "resolved", "cancelled", "expired"] as const) {
    for (const extra of [{}, { payload: { ok: true } }, { payload: null }]) {
      const m = json(gateMessage(gate({ status, ...extra }), gctx));
      assert.ok(parseChatMessage(m).ok, `${status} ${JSON.stringify(extra)}`);
      msgs.push([{ id: m.id, role: m.role, parts: m.parts }]);
    }
  }
  const [res] = await askAi([{ op: "validate", messages: msgs }]) as [
    { success: boolean; error?: string }[],
  ];
  res.forEach((r, i) => assert.ok(r.success, `${JSON.stringify(msgs[i])}: ${r.error}`));
  const bare = gateMessage(gate({ status: "resolved" }), gctx);
  assert.equal((bare.parts[0] as { output: unknown }).output, null);
  assert.deepEqual(toHitlAnswer(bare), { action: "accept", gateId: "g1", payload: null });
});

Deno.test("parseHitlGate refuses an unknown status or a malformed row instead of inventing a denial", () => {
  for (const status of ["approved", "", "PENDING", null, undefined, 3]) {
    const r = parseHitlGate(gate({ status: status as GateSnapshot["status"] }), gctx);
    assert.ok(!r.ok, String(status));
    assert.equal(r.error.code, "unknown-status", String(status));
  }
  const bad: [string, unknown][] = [
    ["empty id", gate({ id: "" })],
    ["numeric id", gate({ id: 7 as unknown as string })],
    ["bad createdAt", gate({ createdAt: "yesterday" })],
    ["not an object", null],
  ];
  for (const [name, g] of bad) {
    const r = parseHitlGate(g as GateSnapshot, gctx);
    assert.ok(!r.ok, name);
    assert.equal(r.error.code, "invalid-gate", name);
  }
  const empty = parseHitlGate(gate({}), { threadId: "", authorId: "agent:ops" });
  assert.ok(!empty.ok && empty.error.code === "invalid-gate");
  const hostile = Object.defineProperty(gate({}), "status", {
    enumerable: true,
    get() {
      throw new Error("boom");
    },
  });
  const h = parseHitlGate(hostile, gctx);
  assert.ok(!h.ok && h.error.code === "invalid-gate");
});

Deno.test("parseHitlGate refuses a row whose prompt, schema or expiresAt breaks GateSnapshot", () => {
  const bad: [string, Partial<Record<keyof GateSnapshot, unknown>>][] = [
    ["prompt number", { prompt: 5 }],
    ["prompt missing", { prompt: undefined }],
    ["schema string", { schema: "x" }],
    ["schema array", { schema: [] }],
    ["expiresAt number", { expiresAt: 5 }],
    ["expiresAt not ISO", { expiresAt: "tomorrow" }],
  ];
  for (const [name, over] of bad) {
    for (const status of ["pending", "resolved", "cancelled", "expired"] as const) {
      const r = parseHitlGate(gate({ status, ...over } as Partial<GateSnapshot>), gctx);
      assert.ok(!r.ok, `${name} ${status}`);
      assert.equal(r.error.code, "invalid-gate", `${name} ${status}`);
    }
  }
  const arr = parseHitlGate([] as unknown as GateSnapshot, gctx);
  assert.ok(!arr.ok && arr.error.code === "invalid-gate", "an array is not a gate row");
  // null optional columns (a database row) read as absent
  const nulls = gateMessage(
    gate({ schema: null, expiresAt: null, reason: null } as unknown as Partial<GateSnapshot>),
    gctx,
  );
  assert.deepEqual(nulls.parts[0], {
    type: "tool-gate",
    toolCallId: "g1",
    input: { prompt: "Deploy to prod?" },
    state: "approval-requested",
    approval: { id: "g1", descriptor: null },
  });
  const declined = gateMessage(
    gate({ status: "expired", reason: null } as unknown as Partial<GateSnapshot>),
    gctx,
  );
  assert.deepEqual(toHitlAnswer(declined), { action: "decline", gateId: "g1", reason: "expired" });
});

Deno.test("parseHitlGate reads each field of the row once", () => {
  let reads = 0;
  const row = Object.defineProperty(gate({}), "status", {
    enumerable: true,
    get: () => (reads++ === 0 ? "pending" : "bogus"),
  });
  const r = parseHitlGate(row, gctx);
  assert.ok(r.ok);
  assert.equal((r.value.parts[0] as { state: string }).state, "approval-requested");
  assert.equal(reads, 1);
});
