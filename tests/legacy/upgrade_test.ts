import assert from "node:assert/strict";
import {
  decodeLegacyChatFrame,
  type LegacyDecodedFrame,
  type LegacyUpgradeContext,
  upgradeDecodedLegacyChatFrame,
  upgradeLegacyChatFrame,
} from "../../legacy.ts";
import { assertGolden, readFixture } from "../_helpers/golden.ts";
import { sseFrames } from "./_frames.ts";

function host(dialect: "scout" | "papercup", extra: Partial<LegacyUpgradeContext> = {}) {
  let seq = 0;
  const ctx: LegacyUpgradeContext & { calls: () => number } = {
    dialect,
    conversationId: "conv-1",
    turnId: "turn-1",
    allocate: () => {
      seq++;
      return { eventId: `turn-1:${seq}`, seq };
    },
    calls: () => seq,
    ...extra,
  };
  return ctx;
}

const frame = (data: unknown, id = "1") => ({ id, data: JSON.stringify(data) });

Deno.test("upgrade scout token → v1 delta envelope with host ids", () => {
  const r = upgradeLegacyChatFrame(frame({ type: "token", content: "Hi" }, "2"), host("scout"));
  assert.deepEqual(r, {
    ok: true,
    value: {
      schemaVersion: 1,
      conversationId: "conv-1",
      turnId: "turn-1",
      eventId: "turn-1:1",
      seq: 1,
      event: { type: "delta", text: "Hi" },
    },
  });
});

Deno.test("tool_start without callId and without host mapping → missing-call-identity, no seq consumed", () => {
  const ctx = host("scout");
  const r = upgradeLegacyChatFrame(frame({ type: "tool_start", tool: "search" }), ctx);
  assert.equal(!r.ok && r.error.code, "missing-call-identity");
  assert.equal(ctx.calls(), 0);
});

Deno.test("runtime tool_start{name, callId} keeps its callId", () => {
  const r = upgradeLegacyChatFrame(
    frame({ type: "tool_start", name: "search", callId: "call_1" }),
    host("scout"),
  );
  assert.ok(r.ok);
  assert.deepEqual(r.value.event, { type: "tool_call", callId: "call_1", name: "search" });
});

Deno.test("host callIdFor mapping gets the tool frame and its per-context index", () => {
  const seen: unknown[] = [];
  const ctx = host("scout", {
    callIdFor: (tool, index) => {
      seen.push([tool, index]);
      return index === 2 ? undefined : `${tool.frameId}-${index}`;
    },
  });
  const a = upgradeLegacyChatFrame(frame({ type: "tool_start", tool: "a" }, "4"), ctx);
  const b = upgradeLegacyChatFrame(frame({ type: "tool_start", tool: "b" }, "9"), ctx);
  const c = upgradeLegacyChatFrame(frame({ type: "tool_start", tool: "c" }, "11"), ctx);
  assert.ok(a.ok && b.ok);
  assert.deepEqual(a.value.event, { type: "tool_call", callId: "4-0", name: "a" });
  assert.deepEqual(b.value.event, { type: "tool_call", callId: "9-1", name: "b" });
  assert.equal(!c.ok && c.error.code, "missing-call-identity");
  assert.deepEqual(seen[0], [{ kind: "call", name: "a", frameId: "4", dialect: "scout" }, 0]);
  // a fresh context starts counting again
  const d = upgradeLegacyChatFrame(
    frame({ type: "tool_start", tool: "d" }, "1"),
    host("scout", { callIdFor: (_t, i) => `x${i}` }),
  );
  assert.ok(d.ok);
  assert.deepEqual(d.value.event, { type: "tool_call", callId: "x0", name: "d" });
});

Deno.test("callIdFor returning junk or throwing → invalid-context", () => {
  const junk = upgradeLegacyChatFrame(
    frame({ type: "tool_start", tool: "a" }),
    host("scout", { callIdFor: () => "" }),
  );
  assert.equal(!junk.ok && junk.error.code, "invalid-context");
  const thrower = upgradeLegacyChatFrame(
    frame({ type: "tool_start", tool: "a" }),
    host("scout", {
      callIdFor: () => {
        throw new Error("x");
      },
    }),
  );
  assert.equal(!thrower.ok && thrower.error.code, "invalid-context");
});

Deno.test("papercup tool_result: ok absent → unknown-result-status; present → kept", () => {
  const p = (data: unknown) => ({ id: "e", event: "tool_result", data: JSON.stringify(data) });
  const unknown = upgradeLegacyChatFrame(p({ name: "t", callId: "c1" }), host("papercup"));
  assert.equal(!unknown.ok && unknown.error.code, "unknown-result-status");
  const nonBool = upgradeLegacyChatFrame(
    p({ name: "t", callId: "c1", ok: "yes" }),
    host("papercup"),
  );
  assert.equal(!nonBool.ok && nonBool.error.code, "unknown-result-status");
  const failed = upgradeLegacyChatFrame(
    p({ name: "t", callId: "c1", ok: false, summary: "no" }),
    host("papercup"),
  );
  assert.ok(failed.ok);
  assert.deepEqual(failed.value.event, {
    type: "tool_result",
    callId: "c1",
    name: "t",
    ok: false,
    summary: "no",
  });
  const noId = upgradeLegacyChatFrame(p({ name: "t", ok: true }), host("papercup"));
  assert.equal(!noId.ok && noId.error.code, "missing-call-identity");
});

Deno.test("legacy error needs the host's retry permission", () => {
  const e = frame({ type: "error", message: "boom" });
  const missing = upgradeLegacyChatFrame(e, host("scout"));
  assert.equal(!missing.ok && missing.error.code, "missing-retry-permission");
  const no = upgradeLegacyChatFrame(e, host("scout", { retryable: false, retryAfterMs: 5 }));
  assert.ok(no.ok);
  assert.deepEqual(no.value.event, { type: "error", message: "boom", retryable: false });
  const yes = upgradeLegacyChatFrame(
    e,
    host("scout", { retryable: true, retryAfterMs: 2000, errorCode: "legacy" }),
  );
  assert.ok(yes.ok);
  assert.deepEqual(yes.value.event, {
    type: "error",
    message: "boom",
    retryable: true,
    retryAfterMs: 2000,
    code: "legacy",
  });
});

Deno.test("domain and heartbeat frames → not-chat-event", () => {
  const d = upgradeLegacyChatFrame(frame({ type: "products", products: [] }), host("scout"));
  assert.equal(!d.ok && d.error.code, "not-chat-event");
  const h = upgradeLegacyChatFrame({ event: "heartbeat", data: "{}" }, host("scout"));
  assert.equal(!h.ok && h.error.code, "not-chat-event");
});

Deno.test("with ctx.extensions, domain frames upgrade to v1 extension events (Scout and Papercup)", () => {
  const extensions = { namespace: "scout", channels: { products: "state" as const } };
  const scout = host("scout", { extensions });
  const p = upgradeLegacyChatFrame(
    frame({ type: "products", products: [{ id: "p1" }], total: 1 }),
    scout,
  );
  assert.deepEqual(p.ok && p.value.event, {
    type: "ext",
    name: "scout.products",
    channel: "state",
    data: { products: [{ id: "p1" }], total: 1 },
  });
  const b = upgradeLegacyChatFrame(frame({ type: "broaden", options: ["a"] }), scout);
  assert.deepEqual(b.ok && b.value.event, {
    type: "ext",
    name: "scout.broaden",
    data: { options: ["a"] },
  });
  assert.deepEqual([p.ok && p.value.seq, b.ok && b.value.seq], [1, 2]);
  // Papercup: the event name is the type; the payload is kept as it is
  const pc = upgradeLegacyChatFrame(
    { event: "highlight", data: '{"id":"p1"}' },
    host("papercup", { extensions: { namespace: "acme.shop" } }),
  );
  assert.deepEqual(pc.ok && pc.value.event, {
    type: "ext",
    name: "acme.shop.highlight",
    data: { id: "p1" },
  });
  // a type that makes no extension name stays not-chat-event; a heartbeat too; no seq is taken
  const bad = host("scout", { extensions });
  for (const f of [frame({ type: "Products" }), frame({ type: "open-drawer" })]) {
    const r = upgradeLegacyChatFrame(f, bad);
    assert.equal(!r.ok && r.error.code, "not-chat-event");
  }
  const hb = upgradeLegacyChatFrame({ event: "heartbeat", data: "{}" }, bad);
  assert.equal(!hb.ok && hb.error.code, "not-chat-event");
  assert.equal(bad.calls(), 0);
  // data the v1 rules refuse (33 levels deep) is invalid-event
  let deep: unknown = 0;
  for (let i = 0; i < 33; i++) deep = [deep];
  const d = upgradeLegacyChatFrame(frame({ type: "products", deep }), bad);
  assert.equal(!d.ok && d.error.code, "invalid-event");
  // a bad option is the host's mistake
  for (
    const e of [
      { namespace: "Scout" },
      { namespace: "" },
      { namespace: "scout", channels: { products: "history" } },
      { namespace: "scout", channels: 5 },
      5,
    ]
  ) {
    const r = upgradeLegacyChatFrame(
      frame({ type: "products" }),
      host("scout", {
        extensions: e as never,
      }),
    );
    assert.equal(!r.ok && r.error.code, "invalid-context", JSON.stringify(e));
  }
});

Deno.test("bad host context and allocation are refused, not thrown", () => {
  const f = frame({ type: "token", content: "x" });
  const code = (ctx: unknown) => {
    const r = upgradeLegacyChatFrame(f, ctx as LegacyUpgradeContext);
    return r.ok ? "ok" : r.error.code;
  };
  assert.equal(code(null), "invalid-context");
  assert.equal(code({ ...host("scout"), conversationId: "" }), "invalid-context");
  assert.equal(code({ ...host("scout"), allocate: 5 }), "invalid-context");
  assert.equal(
    code({ ...host("scout"), allocate: () => ({ eventId: "e", seq: 0 }) }),
    "invalid-allocation",
  );
  assert.equal(
    code({ ...host("scout"), allocate: () => ({ eventId: "", seq: 1 }) }),
    "invalid-allocation",
  );
  assert.equal(
    code({
      ...host("scout"),
      allocate: () => {
        throw new Error("db down");
      },
    }),
    "invalid-allocation",
  );
  // ids no SSE id line or header could carry (CR, LF, NUL, a lone surrogate) are the host's mistake
  for (const bad of ["a\nb", "a\rb", "a\u0000b", "t\ud800"]) {
    assert.equal(code({ ...host("scout"), conversationId: bad }), "invalid-context", bad);
    assert.equal(code({ ...host("scout"), turnId: bad }), "invalid-context", bad);
    assert.equal(
      code({ ...host("scout"), allocate: () => ({ eventId: bad, seq: 1 }) }),
      "invalid-allocation",
      bad,
    );
    const tool = frame({ type: "tool_start", tool: "search" });
    const mapped = upgradeLegacyChatFrame(tool, { ...host("scout"), callIdFor: () => bad });
    assert.equal(!mapped.ok && mapped.error.code, "invalid-context", bad);
  }
});

for (
  const [name, dialect] of [
    ["scout_turn", "scout"],
    ["scout_transport_turn", "scout"],
    ["scout_runtime_turn", "scout"],
    ["papercup_turn", "papercup"],
  ] as const
) {
  Deno.test(`golden: upgrade fixtures/legacy/${name}.sse (no host mapping, retryable false)`, async () => {
    const ctx = host(dialect, { retryable: false });
    const frames = sseFrames(await readFixture(`legacy/${name}.sse`));
    await assertGolden(
      `legacy/${name}.upgraded.json`,
      frames.map((f) => upgradeLegacyChatFrame(f, ctx)),
    );
  });
}

Deno.test("upgraded events must satisfy the v1 contract (a card without createdAt is refused)", () => {
  const ctx = host("scout");
  const r = upgradeLegacyChatFrame(
    frame({ type: "card", card: { correlationId: "c1", prompt: "Pick" } }),
    ctx,
  );
  assert.equal(!r.ok && r.error.code, "invalid-event");
  assert.match(!r.ok ? r.error.message : "", /createdAt/);
  assert.equal(ctx.calls(), 0);
});

Deno.test("upgradeDecodedLegacyChatFrame: decode once, upgrade chat frames, refuse junk without throwing", () => {
  const ctx = host("scout", { retryable: false });
  const d = decodeLegacyChatFrame(frame({ type: "token", content: "Hi" }, "2"), "scout");
  assert.ok(d.ok);
  const up = upgradeDecodedLegacyChatFrame(d.value, ctx);
  assert.ok(up.ok);
  assert.deepEqual(up.value.event, { type: "delta", text: "Hi" });
  const domain = decodeLegacyChatFrame(frame({ type: "products" }), "scout");
  assert.ok(domain.ok);
  const r = upgradeDecodedLegacyChatFrame(domain.value, ctx);
  assert.equal(!r.ok && r.error.code, "not-chat-event");
  for (
    const junk of [null, {}, { kind: "chat" }, { kind: "chat", event: { type: "card" } }, {
      kind: "chat",
      event: 5,
    }]
  ) {
    const j = upgradeDecodedLegacyChatFrame(junk as unknown as LegacyDecodedFrame, ctx);
    assert.equal(j.ok, false, JSON.stringify(junk));
  }
  assert.equal(ctx.calls(), 1);
});

Deno.test("a context whose getters throw is refused, never thrown (callIdFor, retryable, at, decode, allocate's result)", () => {
  const throwing = (key: string) => {
    const ctx = host("scout", { retryable: false }) as unknown as Record<string, unknown>;
    Object.defineProperty(ctx, key, {
      get() {
        throw new Error(`getter ${key}`);
      },
    });
    return ctx as unknown as LegacyUpgradeContext;
  };
  const tool = frame({ type: "tool_start", tool: "search" }, "4");
  const error = frame({ type: "error", message: "boom" }, "5");
  for (const key of ["callIdFor", "retryable", "retryAfterMs", "errorCode", "at", "decode"]) {
    for (const f of [tool, error]) {
      const r = upgradeLegacyChatFrame(f, throwing(key));
      assert.equal(!r.ok && r.error.code, "invalid-context", key);
      const d = decodeLegacyChatFrame(f, "scout");
      assert.ok(d.ok && d.value.kind === "chat");
      const u = upgradeDecodedLegacyChatFrame(d.value, throwing(key));
      assert.equal(!u.ok && u.error.code, "invalid-context", key);
    }
  }
  const badDecode = host("scout", {
    decode: {
      get maxDataLength(): number {
        throw new Error("bound");
      },
    },
  });
  assert.equal(
    (() => {
      const r = upgradeLegacyChatFrame(frame({ type: "token", content: "x" }), badDecode);
      return !r.ok && r.error.code;
    })(),
    "invalid-context",
  );
  const unreadable = host("scout", {
    allocate: () =>
      new Proxy({}, {
        get() {
          throw new Error("proxy");
        },
      }) as { eventId: string; seq: number },
  });
  const r = upgradeLegacyChatFrame(frame({ type: "token", content: "x" }), unreadable);
  assert.equal(!r.ok && r.error.code, "invalid-allocation");
});

Deno.test("allocate() returning a duplicate or decreasing seq on the same context → invalid-allocation", () => {
  const token = (n: number) => frame({ type: "token", content: `t${n}` }, String(n));
  const seqs = [1, 2, 2, 1, 3, 7, 7];
  let i = 0;
  const ctx = host("scout", { allocate: () => ({ eventId: `e${i}`, seq: seqs[i++] }) });
  const got = seqs.map((_, n) => {
    const r = upgradeLegacyChatFrame(token(n + 1), ctx);
    return r.ok ? r.value.seq : r.error.code;
  });
  // a gap (3 → 7) is the host's business (it may emit its own v1 events in between)
  assert.deepEqual(got, [
    1,
    2,
    "invalid-allocation",
    "invalid-allocation",
    3,
    7,
    "invalid-allocation",
  ]);
  const r = upgradeLegacyChatFrame(
    token(9),
    host("scout", { allocate: () => ({ eventId: "x", seq: 1 }) }),
  );
  assert.ok(r.ok, "a fresh context starts over");
  const msg = (() => {
    let k = 0;
    const c = host("scout", { allocate: () => ({ eventId: `e${k}`, seq: [5, 4][k++] }) });
    upgradeLegacyChatFrame(token(1), c);
    const again = upgradeLegacyChatFrame(token(2), c);
    return again.ok ? "" : again.error.message;
  })();
  assert.match(msg, /seq 4 after seq 5/);
});

Deno.test("ctx.at must be epoch ms: a negative or non-finite `at` is refused, never stamped on an envelope", () => {
  const f = frame({ type: "token", content: "x" });
  for (const at of [-1, NaN, Infinity, "2026-01-01"]) {
    const r = upgradeLegacyChatFrame(f, host("scout", { at: at as number }));
    assert.equal(!r.ok && r.error.code, "invalid-context", String(at));
  }
  const ok = upgradeLegacyChatFrame(f, host("scout", { at: 1767225600000 }));
  assert.ok(ok.ok);
  assert.equal(ok.value.at, 1767225600000);
});

Deno.test('tool_result with ok "true" (a string) is unknown-result-status, and the message says why', () => {
  for (const ok of ["true", 1, null]) {
    const r = upgradeLegacyChatFrame(
      { event: "tool_result", data: JSON.stringify({ name: "s", callId: "k", ok }) },
      host("papercup"),
    );
    assert.equal(!r.ok && r.error.code, "unknown-result-status", String(ok));
    assert.match(!r.ok ? r.error.message : "", /not a boolean/);
  }
});

Deno.test("an unknown ctx.dialect is the host's mistake: invalid-context, not invalid-frame", () => {
  const r = upgradeLegacyChatFrame(
    frame({ type: "token", content: "x" }),
    host("klingon" as "scout"),
  );
  assert.equal(!r.ok && r.error.code, "invalid-context");
  assert.match(!r.ok ? r.error.message : "", /dialect/);
});

Deno.test("a legacy `state` without a snapshot is refused by the upgrade, not turned into an unsendable v1 envelope", () => {
  // Regression: the upgrade produced `snapshot: undefined`, which the v1 SSE encoder wrote
  // without the key and parseChatEnvelopeJson then refused.
  for (const dialect of ["scout", "papercup"] as const) {
    const ctx = host(dialect);
    const state = (payload: unknown) => ({ ...frame(payload), event: "state" });
    const r = upgradeLegacyChatFrame(state({ type: "state", version: 2 }), ctx);
    assert.deepEqual(!r.ok && [r.error.code, r.error.type], ["invalid-event", "state"]);
    assert.equal(ctx.calls(), 0);
    const ok = upgradeLegacyChatFrame(state({ type: "state", version: 2, snapshot: null }), ctx);
    assert.ok(ok.ok, JSON.stringify(ok));
  }
});
