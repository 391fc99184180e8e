import assert from "node:assert/strict";
import { decodeLegacyChatFrame } from "../../legacy.ts";
import { parseChatEvent } from "../../v0.ts";
import { assertGolden, readFixture } from "../_helpers/golden.ts";
import { sseFrames } from "./_frames.ts";

const scout = (data: unknown, id?: string) =>
  decodeLegacyChatFrame(
    {
      ...(id === undefined ? {} : { id }),
      data: typeof data === "string" ? data : JSON.stringify(data),
    },
    "scout",
  );

Deno.test("scout token{content} decodes to delta{text}", () => {
  const r = scout({ type: "token", content: "Hi" }, "2");
  assert.deepEqual(r, {
    ok: true,
    value: {
      kind: "chat",
      dialect: "scout",
      id: "2",
      wireType: "token",
      event: { type: "delta", text: "Hi" },
    },
  });
});

Deno.test("scout tool_start accepts {tool} (reducer) and {name, callId} (runtime)", () => {
  const a = scout({ type: "tool_start", tool: "search_products" }, "4");
  assert.ok(a.ok && a.value.kind === "chat");
  assert.deepEqual(a.value.event, { type: "tool_call", name: "search_products" });
  assert.equal(a.value.toolNameField, "tool");
  const b = scout({ type: "tool_start", name: "search_products", callId: "call_1" }, "5");
  assert.ok(b.ok && b.value.kind === "chat");
  assert.deepEqual(b.value.event, { type: "tool_call", name: "search_products", callId: "call_1" });
  assert.equal(b.value.toolNameField, "name");
});

Deno.test("scout tool_start refusals: no name, conflicting names, bad callId", () => {
  for (
    const data of [
      { type: "tool_start" },
      { type: "tool_start", tool: "" },
      { type: "tool_start", tool: 5 },
      { type: "tool_start", tool: "a", name: "b" },
      { type: "tool_start", tool: "a", callId: 7 },
      { type: "tool_start", tool: "a", callId: "" },
    ]
  ) {
    const r = scout(data, "1");
    assert.equal(r.ok, false, JSON.stringify(data));
    assert.equal(!r.ok && r.error.code, "invalid-event");
  }
  const same = scout({ type: "tool_start", tool: "a", name: "a" });
  assert.ok(same.ok);
});

Deno.test("scout domain events pass through as kind domain", () => {
  const r = scout({ type: "products", products: [{ id: "p1" }] }, "5");
  assert.deepEqual(r, {
    ok: true,
    value: {
      kind: "domain",
      dialect: "scout",
      id: "5",
      type: "products",
      data: { type: "products", products: [{ id: "p1" }] },
    },
  });
});

Deno.test("scout heartbeat, bad id, bad json, missing type", () => {
  assert.deepEqual(
    decodeLegacyChatFrame({ event: "heartbeat", data: '{"tsMs":1767225600000}' }, "scout"),
    { ok: true, value: { kind: "heartbeat", dialect: "scout", tsMs: 1767225600000 } },
  );
  const code = (r: ReturnType<typeof scout>) => (r.ok ? "ok" : r.error.code);
  assert.equal(code(scout({ type: "token", content: "x" }, "abc")), "invalid-id");
  assert.equal(code(scout({ type: "token", content: "x" }, "1.5")), "invalid-id");
  assert.equal(code(scout({ type: "token", content: "x" }, "")), "ok");
  assert.equal(code(scout("{nope", "1")), "invalid-json");
  assert.equal(code(scout("", "1")), "invalid-json");
  assert.equal(code(scout("[1,2]", "1")), "not-an-object");
  assert.equal(code(scout({ content: "x" }, "1")), "missing-type");
  assert.equal(code(scout({ type: "token" }, "1")), "invalid-event");
  assert.equal(code(scout({ type: "token", content: 5 }, "1")), "invalid-event");
  assert.equal(code(scout({ type: "error" }, "1")), "invalid-event");
  assert.equal(code(scout({ type: "card", card: { prompt: "x" } }, "1")), "invalid-event");
  assert.equal(code(scout({ type: "state", version: -1 }, "1")), "invalid-event");
  assert.equal(decodeLegacyChatFrame(null, "scout").ok, false);
  assert.equal(decodeLegacyChatFrame({ data: 5 }, "scout").ok, false);
  assert.equal(decodeLegacyChatFrame({ data: "{}", id: 3 }, "scout").ok, false);
});

Deno.test("oversized data is refused before parsing", () => {
  const r = decodeLegacyChatFrame(
    { data: '{"type":"token","content":"' + "x".repeat(100) + '"}' },
    "scout",
    {
      maxDataLength: 64,
    },
  );
  assert.equal(!r.ok && r.error.code, "oversized");
});

Deno.test("decode options whose bound cannot be read are refused, not thrown", () => {
  const options = {
    get maxDataLength(): number {
      throw new Error("boom");
    },
  };
  const r = decodeLegacyChatFrame({ data: '{"type":"done"}' }, "scout", options);
  assert.equal(!r.ok && r.error.code, "invalid-frame");
});

Deno.test("scout done keeps only well-formed usage numbers", () => {
  const r = scout({ type: "done", usage: { totalTokens: 12, costUsd: -1, inputTokens: "3" } });
  assert.ok(r.ok && r.value.kind === "chat");
  assert.deepEqual(r.value.event, { type: "done", usage: { totalTokens: 12 } });
});

Deno.test("papercup frames are read with the v0 rules", () => {
  const r = decodeLegacyChatFrame({ id: "e3", event: "delta", data: '{"text":"yo"}' }, "papercup");
  assert.deepEqual(r, {
    ok: true,
    value: {
      kind: "chat",
      dialect: "papercup",
      id: "e3",
      wireType: "delta",
      event: { type: "delta", text: "yo" },
    },
  });
  const code = (frame: unknown) => {
    const x = decodeLegacyChatFrame(frame, "papercup");
    return x.ok ? x.value.kind : x.error.code;
  };
  assert.equal(code({ data: '{"type":"delta","text":"x"}' }), "missing-event-name");
  assert.equal(code({ event: "delta", data: '{"type":"token","text":"x"}' }), "type-mismatch");
  assert.equal(code({ event: "delta", data: '{"text":5}' }), "invalid-event");
  assert.equal(code({ event: "tool_call", data: '{"name":""}' }), "invalid-event");
  // legacy names are not v0 events: they pass as domain, never as chat
  assert.equal(code({ event: "token", data: '{"content":"x"}' }), "domain");
  assert.equal(code({ event: "tool_start", data: '{"tool":"x"}' }), "domain");
  // v0 quirks kept: error without message → 'stream error'
  const e = decodeLegacyChatFrame({ event: "error", data: "{}" }, "papercup");
  assert.ok(e.ok && e.value.kind === "chat");
  assert.deepEqual(e.value.event, { type: "error", message: "stream error" });
  // tool_result without ok decodes faithfully (ok absent); upgrade refuses it
  const t = decodeLegacyChatFrame(
    { event: "tool_result", data: '{"name":"x","callId":"c"}' },
    "papercup",
  );
  assert.ok(t.ok && t.value.kind === "chat");
  assert.deepEqual(t.value.event, { type: "tool_result", name: "x", callId: "c" });
});

Deno.test("parseChatEvent keeps its behaviour: legacy names never leak into it", () => {
  assert.equal(parseChatEvent("token", { type: "token", content: "x" }), null);
  assert.equal(parseChatEvent("tool_start", { type: "tool_start", tool: "x" }), null);
  assert.deepEqual(parseChatEvent("delta", { text: "x" }), { type: "delta", text: "x" });
});

Deno.test("__proto__ / constructor keys do not pollute or confuse", () => {
  const r = scout('{"type":"token","content":"x","__proto__":{"polluted":1}}', "1");
  assert.ok(r.ok);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  const c = scout('{"type":"constructor"}', "1");
  assert.ok(c.ok && c.value.kind === "domain");
  const inherited = scout('{"type":"session"}', "1");
  assert.equal(!inherited.ok && inherited.error.code, "invalid-event");
  const p = decodeLegacyChatFrame({ event: "toString", data: "{}" }, "papercup");
  assert.ok(p.ok && p.value.kind === "domain");
});

for (
  const [name, dialect] of [
    ["scout_turn", "scout"],
    ["scout_transport_turn", "scout"],
    ["scout_runtime_turn", "scout"],
    ["papercup_turn", "papercup"],
  ] as const
) {
  Deno.test(`golden: decode fixtures/legacy/${name}.sse`, async () => {
    const frames = sseFrames(await readFixture(`legacy/${name}.sse`));
    assert.ok(frames.length >= 3);
    await assertGolden(
      `legacy/${name}.decoded.json`,
      frames.map((f) => decodeLegacyChatFrame(f, dialect)),
    );
  });
}

Deno.test("refusal messages quote untrusted text with a bound", () => {
  const huge = "x".repeat(100_000);
  const r = scout({ type: "tool_start", tool: huge, name: "y" }, "1");
  assert.equal(!r.ok && r.error.code, "invalid-event");
  assert.ok(!r.ok && r.error.message.length < 300);
  const p = decodeLegacyChatFrame(
    { event: "delta", data: JSON.stringify({ type: huge }) },
    "papercup",
  );
  assert.ok(!p.ok && p.error.message.length < 300);
});

Deno.test("scout tool_start: a non-string `tool` or `name` is refused, not ignored in favour of the other", () => {
  for (
    const payload of [
      { type: "tool_start", tool: 5, name: "search" },
      { type: "tool_start", tool: "search", name: null },
      { type: "tool_start", name: ["search"] },
    ]
  ) {
    const r = decodeLegacyChatFrame({ id: "1", data: JSON.stringify(payload) }, "scout");
    assert.equal(!r.ok && r.error.code, "invalid-event", JSON.stringify(payload));
    assert.match(!r.ok ? r.error.message : "", /is not a string/);
  }
  const both = decodeLegacyChatFrame(
    { id: "1", data: '{"type":"tool_start","tool":"s","name":"s"}' },
    "scout",
  );
  assert.ok(both.ok && both.value.kind === "chat");
  assert.equal(both.value.toolNameField, "tool");
  assert.deepEqual(both.value.event, { type: "tool_call", name: "s" });
});
