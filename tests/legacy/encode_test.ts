import assert from "node:assert/strict";
import {
  decodeLegacyChatFrame,
  encodeLegacyChatFrame,
  upgradeLegacyChatFrame,
} from "../../legacy.ts";
import type { ChatEventEnvelope, ChatEventV1 } from "../../src/v1/types.ts";

const env = (event: ChatEventV1, seq = 3): ChatEventEnvelope => ({
  schemaVersion: 1,
  conversationId: "c",
  turnId: "t",
  eventId: `t:${seq}`,
  seq,
  event,
});

Deno.test("scout encoding: unnamed, numeric id = seq, legacy names", () => {
  assert.deepEqual(encodeLegacyChatFrame(env({ type: "delta", text: "Hi" }), "scout"), {
    ok: true,
    value: { id: "3", data: '{"type":"token","content":"Hi"}' },
  });
  assert.deepEqual(
    encodeLegacyChatFrame(
      env({ type: "tool_call", callId: "k", name: "search", input: { q: 1 } }, 4),
      "scout",
    ),
    { ok: true, value: { id: "4", data: '{"type":"tool_start","tool":"search","callId":"k"}' } },
  );
  assert.deepEqual(
    encodeLegacyChatFrame(
      env({ type: "done", stopReason: "complete", usage: { totalTokens: 9, inputTokens: 4 } }),
      "scout",
    ),
    { ok: true, value: { id: "3", data: '{"type":"done","usage":{"totalTokens":9}}' } },
  );
  assert.deepEqual(
    encodeLegacyChatFrame(env({ type: "error", message: "boom", retryable: true }), "scout"),
    { ok: true, value: { id: "3", data: '{"type":"error","message":"boom"}' } },
  );
});

Deno.test("papercup encoding: named v0 event, id = eventId", () => {
  assert.deepEqual(
    encodeLegacyChatFrame(
      env({ type: "tool_result", callId: "k", name: "s", ok: true, summary: "x", output: 1 }),
      "papercup",
    ),
    {
      ok: true,
      value: {
        id: "t:3",
        event: "tool_result",
        data: '{"type":"tool_result","name":"s","callId":"k","ok":true,"summary":"x"}',
      },
    },
  );
});

Deno.test("v1 features with no legacy representation → unsupported-event", () => {
  const unsupported: [ChatEventV1, "scout" | "papercup"][] = [
    [{ type: "reasoning", text: "hm" }, "scout"],
    [{ type: "reasoning", text: "hm" }, "papercup"],
    [{ type: "tool_progress", callId: "k", progress: 0.5 }, "scout"],
    [{ type: "tool_progress", callId: "k", progress: 0.5 }, "papercup"],
    [{ type: "turn_status", status: "cancelled" }, "scout"],
    [{ type: "turn_status", status: "interrupted" }, "papercup"],
    [{ type: "tool_result", callId: "k", name: "s", ok: true }, "scout"],
    [{ type: "provenance", engine: "loop", model: "m" }, "scout"],
  ];
  for (const [event, vocab] of unsupported) {
    const r = encodeLegacyChatFrame(env(event), vocab);
    assert.equal(!r.ok && r.error.code, "unsupported-event", `${event.type} in ${vocab}`);
    assert.equal(!r.ok && r.error.type, event.type);
  }
});

Deno.test("invalid envelopes and unencodable payloads are refused", () => {
  const code = (e: unknown, v: "scout" | "papercup" = "papercup") => {
    const r = encodeLegacyChatFrame(e as ChatEventEnvelope, v);
    return r.ok ? "ok" : r.error.code;
  };
  assert.equal(code(null), "invalid-envelope");
  assert.equal(code({ event: 5 }), "invalid-envelope");
  assert.equal(code({ ...env({ type: "delta", text: "x" }), eventId: "a\nb" }), "invalid-envelope");
  assert.equal(code({ ...env({ type: "delta", text: "x" }), seq: 0 }, "scout"), "invalid-envelope");
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.equal(code(env({ type: "state", version: 1, snapshot: cyclic })), "unencodable");
  assert.equal(code(env({ type: "state", version: 1, snapshot: 1n })), "unencodable");
});

Deno.test("round trip: encode then decode/upgrade gives the same event back", () => {
  const events: ChatEventV1[] = [
    { type: "session", sessionId: "s" },
    { type: "delta", text: "a\nb" },
    { type: "tool_call", callId: "k", name: "n" },
    { type: "card_closed", correlationId: "c" },
    { type: "state", version: 2, snapshot: { a: 1 } },
    { type: "navigate", href: "/x" },
    { type: "done" },
    { type: "error", message: "m", retryable: false },
  ];
  for (const vocab of ["scout", "papercup"] as const) {
    let seq = 0;
    const ctx = {
      dialect: vocab,
      conversationId: "c",
      turnId: "t",
      retryable: false,
      allocate: () => ({ eventId: `t:${++seq}`, seq }),
    };
    for (const [i, e] of events.entries()) {
      const enc = encodeLegacyChatFrame(env(e, i + 1), vocab);
      assert.ok(enc.ok, `${vocab} ${e.type}`);
      assert.ok(decodeLegacyChatFrame(enc.value, vocab).ok);
      const up = upgradeLegacyChatFrame(enc.value, ctx);
      assert.ok(up.ok, `${vocab} ${e.type}: ${!up.ok && up.error.message}`);
      assert.deepEqual(up.value.event, e);
      assert.equal(up.value.seq, i + 1);
    }
  }
});

Deno.test("a malformed v1 event never becomes a malformed legacy frame", () => {
  const bad = {
    ...env({ type: "delta", text: "x" }),
    event: { type: "delta" },
  } as unknown as ChatEventEnvelope;
  for (const vocab of ["scout", "papercup"] as const) {
    const r = encodeLegacyChatFrame(bad, vocab);
    assert.equal(!r.ok && r.error.code, "invalid-envelope");
  }
  const unknown = { ...env({ type: "delta", text: "x" }), event: { type: "token", content: "x" } };
  const r = encodeLegacyChatFrame(unknown as unknown as ChatEventEnvelope, "scout");
  assert.equal(!r.ok && r.error.code, "invalid-envelope");
});
