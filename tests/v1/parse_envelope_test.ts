import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import {
  CHAT_EVENT_V1_TYPES,
  DEFAULT_MAX_ENVELOPE_BYTES,
  isChatEventV1Type,
  parseChatEnvelope,
  parseChatEnvelopeJson,
} from "../../mod.ts";
import { ChatEventEnvelopeSchema, ChatEventV1Schema } from "../../schemas.ts";
import { utf8ByteLength } from "../../src/v1/parse.ts";
import { nearEnvelope, validEnvelope } from "./_arbitraries.ts";

const base = {
  schemaVersion: 1,
  conversationId: "c1",
  turnId: "t1",
  eventId: "e1",
  seq: 1,
} as const;
const env = (event: unknown, extra: Record<string, unknown> = {}) => ({ ...base, ...extra, event });

function refuse(value: unknown) {
  const r = parseChatEnvelope(value);
  if (r.ok) assert.fail(`expected refusal of ${JSON.stringify(value)}`);
  return (r as { ok: false; error: { code: string; issues?: { path: string }[] } }).error;
}
function invalidAt(value: unknown, path: string) {
  const e = refuse(value);
  assert.equal(e.code, "invalid-envelope");
  assert.ok(e.issues!.some((i) => i.path === path), `${path} in ${JSON.stringify(e.issues)}`);
  assert.equal(ChatEventEnvelopeSchema.safeParse(value).success, false);
}

Deno.test("every v1 event type parses; result equals the stripped input", () => {
  const events = [
    { type: "session", sessionId: "s1" },
    { type: "delta", text: "" },
    { type: "reasoning", text: "think" },
    { type: "tool_call", callId: "c1", name: "search", input: { q: "x" } },
    { type: "tool_progress", callId: "c1", message: "half", progress: 0.5 },
    {
      type: "tool_result",
      callId: "c1",
      name: "search",
      ok: true,
      summary: "2 hits",
      output: [1, 2],
      blocks: [{
        id: "b1",
        text: "Fact",
        sources: [{ ref: "doc:1#p2", label: "Doc 1" }, { ref: "doc:2" }],
      }],
    },
    { type: "provenance", engine: "loop", model: "m", provider: "anthropic", accountRoute: null },
    { type: "card", card: { correlationId: "k1", prompt: "Pick", createdAt: 1 } },
    { type: "card_closed", correlationId: "k1", resolution: "submitted" },
    { type: "state", version: 0, snapshot: null },
    { type: "done", stopReason: "complete", usage: { totalTokens: 10, costUsd: 0.01 } },
    {
      type: "error",
      message: "rate limited",
      code: "rate_limited",
      retryable: true,
      retryAfterMs: 1500,
    },
    { type: "navigate", href: "/orders" },
    { type: "turn_status", status: "needs-reconciliation", reason: "ack lost" },
    { type: "ext", name: "scout.products", channel: "state", data: { products: [{ id: "p1" }] } },
    { type: "elided", of: "navigate" },
  ];
  assert.deepEqual(events.map((e) => e.type), [...CHAT_EVENT_V1_TYPES]);
  for (const event of events) {
    const value = env(event, { at: 1767225600000 });
    const r = parseChatEnvelope(value);
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.value, value);
    assert.notEqual(r.value, value);
    assert.notEqual(r.value.event, event);
    assert.ok(ChatEventEnvelopeSchema.safeParse(value).success, event.type);
    assert.ok(ChatEventV1Schema.safeParse(event).success, event.type);
  }
  assert.equal(isChatEventV1Type("turn_status"), true);
  assert.equal(isChatEventV1Type("toString"), false);
  assert.equal(isChatEventV1Type(1), false);
});

Deno.test("unknown keys are stripped at every structural level; data kept by reference", () => {
  const input = { q: 1, __extra: true };
  const output = { deep: [1] };
  const snapshot = { s: 1 };
  const card = {
    correlationId: "k1",
    prompt: "p",
    createdAt: 5,
    presentation: { kind: "text" },
    custom: 1,
  };
  const r1 = parseChatEnvelope(
    env({ type: "tool_call", callId: "c", name: "n", input, junk: 1 }, { junk: 2 }),
  );
  assert.ok(r1.ok);
  assert.deepEqual(r1.value, env({ type: "tool_call", callId: "c", name: "n", input }));
  assert.equal((r1.value.event as { input: unknown }).input, input);
  const r2 = parseChatEnvelope(env({
    type: "tool_result",
    callId: "c",
    name: "n",
    ok: false,
    output,
    blocks: [{ id: "b", text: "t", sources: [{ ref: "r", x: 1 }], y: 2 }],
  }));
  assert.ok(r2.ok);
  const ev2 = r2.value.event as { output: unknown; blocks: unknown };
  assert.equal(ev2.output, output);
  assert.deepEqual(ev2.blocks, [{ id: "b", text: "t", sources: [{ ref: "r" }] }]);
  const r3 = parseChatEnvelope(env({ type: "state", version: 2, snapshot }));
  assert.ok(r3.ok);
  assert.equal((r3.value.event as { snapshot: unknown }).snapshot, snapshot);
  const r4 = parseChatEnvelope(env({ type: "card", card }));
  assert.ok(r4.ok);
  assert.equal((r4.value.event as { card: unknown }).card, card);
  const r5 = parseChatEnvelope(env({ type: "done", usage: { totalTokens: 1, other: 2 } }));
  assert.ok(r5.ok);
  assert.deepEqual(r5.value.event, { type: "done", usage: { totalTokens: 1 } });
  // explicit undefined optionals are omitted
  const r6 = parseChatEnvelope(env({ type: "delta", text: "x" }, { at: undefined }));
  assert.ok(r6.ok);
  assert.ok(!Object.hasOwn(r6.value, "at"));
});

Deno.test("refusal codes: unsupported-version, unknown-event-type, invalid-envelope", () => {
  for (const v of [undefined, 0, 2, "1", 1.5, null]) {
    const e = refuse({ ...env({ type: "delta", text: "x" }), schemaVersion: v }) as unknown as {
      code: string;
      received: unknown;
    };
    assert.equal(e.code, "unsupported-version");
    assert.equal(e.received, v);
  }
  const legacy = refuse({ type: "token", content: "x" });
  assert.equal(legacy.code, "unsupported-version");
  for (const t of ["token", "tool_start", "TOOL_CALL_START", "toString", "__proto__", ""]) {
    const e = refuse(env({ type: t })) as unknown as { code: string; received: unknown };
    assert.equal(e.code, "unknown-event-type", t);
    assert.equal(e.received, t);
  }
  for (const v of [null, undefined, 1, "x", [], [env({ type: "delta", text: "" })]]) {
    const e = refuse(v);
    assert.equal(e.code, "invalid-envelope");
  }
  invalidAt(env(null), "event");
  invalidAt(env({ text: "x" }), "event.type");
});

Deno.test("envelope constraints with paths", () => {
  const d = { type: "delta", text: "x" };
  for (const k of ["conversationId", "turnId", "eventId"]) {
    for (const v of ["", 1, null, undefined]) invalidAt({ ...env(d), [k]: v }, k);
  }
  for (const seq of [0, -1, 1.5, NaN, Infinity, 2 ** 53, "1", null, undefined]) {
    invalidAt({ ...env(d), seq }, "seq");
  }
  assert.ok(parseChatEnvelope({ ...env(d), seq: 2 ** 53 - 1 }).ok);
  for (const at of [-1, NaN, Infinity, "0", null]) invalidAt({ ...env(d), at }, "at");
  assert.ok(parseChatEnvelope({ ...env(d), at: 0 }).ok);
});

Deno.test("event constraints with paths", () => {
  invalidAt(env({ type: "session", sessionId: "" }), "event.sessionId");
  invalidAt(env({ type: "delta" }), "event.text");
  invalidAt(env({ type: "reasoning", text: 1 }), "event.text");
  for (const t of ["tool_call", "tool_progress", "tool_result"]) {
    invalidAt(env({ type: t, name: "n", ok: true }), "event.callId");
    invalidAt(env({ type: t, callId: "", name: "n", ok: true }), "event.callId");
  }
  invalidAt(env({ type: "tool_call", callId: "c", name: "" }), "event.name");
  for (const progress of [-0.01, 1.01, NaN, Infinity, "0.5", null]) {
    invalidAt(env({ type: "tool_progress", callId: "c", progress }), "event.progress");
  }
  for (const progress of [0, 1, 0.999]) {
    assert.ok(parseChatEnvelope(env({ type: "tool_progress", callId: "c", progress })).ok);
  }
  invalidAt(env({ type: "tool_result", callId: "c", name: "n" }), "event.ok");
  invalidAt(env({ type: "tool_result", callId: "c", name: "n", ok: 1 }), "event.ok");
  invalidAt(
    env({ type: "tool_result", callId: "c", name: "n", ok: true, blocks: {} }),
    "event.blocks",
  );
  invalidAt(
    env({
      type: "tool_result",
      callId: "c",
      name: "n",
      ok: true,
      blocks: [{ id: "b", text: "t", sources: [{ ref: "" }] }],
    }),
    "event.blocks.0.sources.0.ref",
  );
  invalidAt(
    env({
      type: "tool_result",
      callId: "c",
      name: "n",
      ok: true,
      blocks: [{ id: "b", text: "t" }],
    }),
    "event.blocks.0.sources",
  );
  invalidAt(env({ type: "provenance", engine: "", model: "m" }), "event.engine");
  invalidAt(
    env({ type: "provenance", engine: "e", model: "m", accountRoute: 1 }),
    "event.accountRoute",
  );
  invalidAt(
    env({ type: "card", card: { correlationId: "k", prompt: "p" } }),
    "event.card.createdAt",
  );
  invalidAt(
    env({ type: "card", card: { correlationId: "k", prompt: "p", createdAt: Infinity } }),
    "event.card.createdAt",
  );
  invalidAt(
    env({ type: "card", card: { correlationId: "", prompt: "p", createdAt: 1 } }),
    "event.card.correlationId",
  );
  invalidAt(env({ type: "card", card: [] }), "event.card");
  invalidAt(
    env({ type: "card_closed", correlationId: "k", resolution: "answered" }),
    "event.resolution",
  );
  for (const version of [-1, 1.5, NaN, "1", undefined]) {
    invalidAt(env({ type: "state", version, snapshot: null }), "event.version");
  }
  invalidAt(env({ type: "state", version: 1 }), "event.snapshot");
  // `undefined` is not JSON: refused, so that what parses also survives a JSON round trip
  invalidAt(env({ type: "state", version: 1, snapshot: undefined }), "event.snapshot");
  assert.ok(parseChatEnvelope(env({ type: "state", version: 1, snapshot: null })).ok);
  invalidAt(env({ type: "done", usage: { totalTokens: -1 } }), "event.usage.totalTokens");
  invalidAt(env({ type: "done", usage: [] }), "event.usage");
  invalidAt(env({ type: "error", message: "m" }), "event.retryable");
  invalidAt(env({ type: "error", message: "m", retryable: "false" }), "event.retryable");
  invalidAt(
    env({ type: "error", message: "m", retryable: false, retryAfterMs: 10 }),
    "event.retryAfterMs",
  );
  invalidAt(
    env({ type: "error", message: "m", retryable: true, retryAfterMs: -1 }),
    "event.retryAfterMs",
  );
  invalidAt(
    env({ type: "error", message: "m", retryable: true, retryAfterMs: Infinity }),
    "event.retryAfterMs",
  );
  assert.ok(
    parseChatEnvelope(env({ type: "error", message: "m", retryable: true, retryAfterMs: 0 })).ok,
  );
  assert.ok(parseChatEnvelope(env({ type: "error", message: "m", retryable: false })).ok);
  invalidAt(env({ type: "navigate" }), "event.href");
  invalidAt(env({ type: "turn_status", status: "completed" }), "event.status");
  invalidAt(env({ type: "turn_status", status: "awaiting-input" }), "event.status");
});

/** Ids no SSE `id:` line or header could carry: CR, LF, NUL, lone surrogates. */
const NOT_WIRE_IDS = [
  "a\nb",
  "a\rb",
  "\r\n",
  "a\u0000b",
  "e\ud800",
  "\udc00e",
  "\udc00\ud800",
  "\ud800",
];
/** Odd but sendable: a surrogate pair, other control characters, spaces, non-ASCII. */
const WIRE_IDS = ["\ud83d\ude00", "a\tb", "a\u000bb", " x ", "é-€", "a:b/c?d=1"];

Deno.test("ids the SSE encoder cannot send are refused at parse, for every v1 id field", () => {
  // every place an id lives, as [path, envelope with the id put there]
  const places: [string, (id: string) => unknown][] = [
    ["conversationId", (id) => ({ ...env({ type: "delta", text: "x" }), conversationId: id })],
    ["turnId", (id) => ({ ...env({ type: "delta", text: "x" }), turnId: id })],
    ["eventId", (id) => ({ ...env({ type: "delta", text: "x" }), eventId: id })],
    ["event.sessionId", (id) => env({ type: "session", sessionId: id })],
    ["event.callId", (id) => env({ type: "tool_call", callId: id, name: "n" })],
    ["event.callId", (id) => env({ type: "tool_progress", callId: id })],
    ["event.callId", (id) => env({ type: "tool_result", callId: id, name: "n", ok: true })],
    [
      "event.card.correlationId",
      (id) => env({ type: "card", card: { correlationId: id, prompt: "p", createdAt: 1 } }),
    ],
    ["event.correlationId", (id) => env({ type: "card_closed", correlationId: id })],
  ];
  for (const [path, make] of places) {
    for (const id of NOT_WIRE_IDS) {
      invalidAt(make(id), path);
      assert.equal(
        parseChatEnvelopeJson(JSON.stringify(make(id))).ok,
        false,
        `${path} ${JSON.stringify(id)} (JSON)`,
      );
    }
    for (const id of WIRE_IDS) {
      assert.ok(parseChatEnvelope(make(id)).ok, `${path} ${JSON.stringify(id)}`);
      assert.ok(ChatEventEnvelopeSchema.safeParse(make(id)).success, `${path} zod`);
    }
  }
  const e = refuse({ ...env({ type: "delta", text: "x" }), eventId: "e\n1" });
  assert.match(
    (e as unknown as { message: string }).message,
    /eventId must be a non-empty string without CR, LF, NUL or a lone surrogate/,
  );
  // names and references are not ids: any non-empty string
  assert.ok(parseChatEnvelope(env({ type: "tool_call", callId: "k", name: "a\nb" })).ok);
  assert.ok(parseChatEnvelope(env({ type: "provenance", engine: "\ud800", model: "m" })).ok);
});

Deno.test("a tool result's grounded blocks have unique ids", () => {
  const block = (id: string) => ({ id, text: "t", sources: [] });
  const result = (...ids: string[]) =>
    env({ type: "tool_result", callId: "k", name: "n", ok: true, blocks: ids.map(block) });
  invalidAt(result("b1", "b1"), "event.blocks.1.id");
  invalidAt(result("b1", "b2", "b3", "b2"), "event.blocks.3.id");
  assert.ok(parseChatEnvelope(result("b1", "b2", "b3")).ok);
  assert.ok(ChatEventEnvelopeSchema.safeParse(result("b1", "b2")).success);
  // ids are compared exactly: case and Unicode forms differ
  assert.ok(parseChatEnvelope(result("b", "B", "\u00e9", "e\u0301")).ok);
});

Deno.test("refusal messages name the path and issues are summarised", () => {
  const e = refuse(env({ type: "tool_call", callId: "", name: "" })) as unknown as {
    message: string;
    issues: { path: string; message: string }[];
  };
  assert.match(e.message, /event\.callId/);
  assert.ok(e.issues.length >= 2);
  assert.ok(e.issues.some((i) => i.path === "event.name"));
});

Deno.test("parseChatEnvelopeJson: JSON errors and the size bound", () => {
  const line = JSON.stringify(env({ type: "delta", text: "héllo" }));
  const r = parseChatEnvelopeJson(line);
  assert.ok(r.ok);
  assert.equal((r.value.event as { text: string }).text, "héllo");
  assert.equal(parseChatEnvelopeJson("{").ok, false);
  assert.equal(
    (parseChatEnvelopeJson("{") as { error: { code: string } }).error.code,
    "invalid-json",
  );
  assert.equal(
    (parseChatEnvelopeJson("") as { error: { code: string } }).error.code,
    "invalid-json",
  );
  assert.equal(
    (parseChatEnvelopeJson(5 as unknown as string) as { error: { code: string } }).error.code,
    "invalid-json",
  );
  assert.equal(DEFAULT_MAX_ENVELOPE_BYTES, 1_048_576);
  const bytes = new TextEncoder().encode(line).length;
  assert.equal(utf8ByteLength(line), bytes);
  assert.ok(parseChatEnvelopeJson(line, { maxBytes: bytes }).ok);
  const tooLarge = parseChatEnvelopeJson(line, { maxBytes: bytes - 1 });
  assert.deepEqual(tooLarge.ok ? null : { ...tooLarge.error, message: "" }, {
    code: "too-large",
    message: "",
    maxBytes: bytes - 1,
    bytes,
  });
  const big = JSON.stringify(env({ type: "delta", text: "x".repeat(DEFAULT_MAX_ENVELOPE_BYTES) }));
  assert.equal((parseChatEnvelopeJson(big) as { error: { code: string } }).error.code, "too-large");
  for (const s of ["a", "é", "€", "😀", "\ud800", "\ud800x", "x\udc00"]) {
    assert.equal(utf8ByteLength(s), new TextEncoder().encode(s).length, JSON.stringify(s));
  }
});

Deno.test("property: hand-written validator and zod schema agree (10k runs)", () => {
  fc.assert(
    fc.property(fc.oneof(nearEnvelope, validEnvelope, fc.jsonValue()), (value) => {
      const hand = parseChatEnvelope(value);
      const zod = ChatEventEnvelopeSchema.safeParse(value);
      assert.equal(hand.ok, zod.success, JSON.stringify(value) + " " + JSON.stringify(hand));
      if (hand.ok && zod.success) {
        // both strip the same keys (zod keeps undefined-valued optionals; drop them for the comparison)
        assert.deepEqual(
          JSON.parse(JSON.stringify(hand.value)),
          JSON.parse(JSON.stringify(zod.data)),
        );
      }
    }),
    { numRuns: 10_000 },
  );
});

const hostileKeys = fc.constantFrom(
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
);
const hostileJson = fc.oneof(
  nearEnvelope.map((v) => JSON.stringify(v)),
  fc.tuple(validEnvelope, hostileKeys, fc.jsonValue()).map(([v, k, x]) => {
    const s = JSON.stringify(v);
    return s.slice(0, -1) + `,${JSON.stringify(k)}:${JSON.stringify(x)}}`;
  }),
  fc.tuple(validEnvelope, hostileKeys, fc.jsonValue()).map(([v, k, x]) => {
    const s = JSON.stringify(v);
    return s.replace('"event":{', `"event":{${JSON.stringify(k)}:${JSON.stringify(x)},`);
  }),
  fc.string(),
  fc.jsonValue().map((v) => JSON.stringify(v)),
);

function assertClean(o: unknown, depth = 0) {
  if (depth > 2 || typeof o !== "object" || o === null) return;
  assert.equal(Object.getPrototypeOf(o), Array.isArray(o) ? Array.prototype : Object.prototype);
  assert.ok(!Object.hasOwn(o, "__proto__"));
  assert.ok(!Object.hasOwn(o, "constructor"));
}

Deno.test("property: parseChatEnvelopeJson/parseChatEnvelope never throw, never leak __proto__/constructor (10k runs)", () => {
  fc.assert(
    fc.property(hostileJson, (text) => {
      const r = parseChatEnvelopeJson(text);
      if (r.ok) {
        assertClean(r.value);
        assertClean(r.value.event);
        const ev = r.value.event as unknown as Record<string, unknown>;
        if (Array.isArray(ev.blocks)) { for (const b of ev.blocks) assertClean(b); }
        if (ev.usage) assertClean(ev.usage);
      } else {
        assert.equal(typeof r.error.code, "string");
        assert.equal(typeof r.error.message, "string");
      }
    }),
    { numRuns: 10_000 },
  );
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.deepEqual(Object.keys(Object.prototype), []);
});

Deno.test("hostile objects: throwing getters and proxies are refused, not thrown", () => {
  const getter = Object.defineProperty({ ...env({ type: "delta", text: "x" }) }, "seq", {
    get() {
      throw new Error("boom");
    },
  });
  assert.equal(refuse(getter).code, "invalid-envelope");
  const proxy = new Proxy({}, {
    get() {
      throw new Error("trap");
    },
  });
  assert.equal(refuse(proxy).code, "invalid-envelope");
  const inherited = Object.create(env({ type: "delta", text: "x" }));
  // inherited keys are read the way zod reads them: both accept
  assert.equal(ChatEventEnvelopeSchema.safeParse(inherited).success, true);
  const r = parseChatEnvelope(inherited);
  assert.ok(r.ok);
  // ...and the result is a fresh plain object with own keys only
  assert.equal(Object.getPrototypeOf(r.value), Object.prototype);
  assert.deepEqual(Object.keys(r.value), [
    "schemaVersion",
    "conversationId",
    "turnId",
    "eventId",
    "seq",
    "event",
  ]);
});

Deno.test("property: parseChatEnvelope never throws on anything (incl. null-prototype objects) (10k runs)", () => {
  const anything = fc.anything({
    withNullPrototype: true,
    withBoxedValues: true,
    withMap: true,
    withSet: true,
    withSparseArray: true,
    key: fc.oneof(
      fc.string(),
      fc.constantFrom("__proto__", "constructor", "event", "seq", "schemaVersion"),
    ),
  });
  const shaped = fc.tuple(validEnvelope, anything, anything).map(([v, a, b]) => ({
    ...v,
    event: a,
    at: b,
  }));
  fc.assert(
    fc.property(fc.oneof(anything, shaped, nearEnvelope), (value) => {
      const r = parseChatEnvelope(value);
      if (r.ok) {
        assertClean(r.value);
        assertClean(r.value.event);
      } else {assert.ok(
          ["invalid-envelope", "unsupported-version", "unknown-event-type"].includes(r.error.code),
        );}
    }),
    { numRuns: 10_000 },
  );
  assert.deepEqual(Object.keys(Object.prototype), []);
});

Deno.test("issues: one pass lists the envelope's and the event's problems, first one in the message", () => {
  const e = refuse({
    ...env({ type: "tool_result", callId: "", name: 5, ok: "yes", blocks: [{ id: "" }] }),
    turnId: "",
    seq: 0,
  }) as unknown as { message: string; issues: { path: string }[] };
  assert.match(e.message, /^invalid v1 envelope: turnId /);
  assert.deepEqual(e.issues.map((i) => i.path), [
    "turnId",
    "seq",
    "event.callId",
    "event.name",
    "event.ok",
    "event.blocks.0.id",
    "event.blocks.0.text",
    "event.blocks.0.sources",
  ]);
  // bounded: a thousand bad blocks give at most 20 issues
  const many = refuse(env({
    type: "tool_result",
    callId: "c",
    name: "n",
    ok: true,
    blocks: Array.from({ length: 1000 }, () => ({})),
  })) as unknown as { issues: unknown[] };
  assert.equal(many.issues.length, 20);
});

Deno.test("parseChatEnvelopeJson: options whose getter throws leave the default bound (never throws)", () => {
  // Regression: `options.maxBytes` was read unguarded, so a throwing getter threw out of
  // a function documented "never throws".
  const line = JSON.stringify(env({ type: "delta", text: "x" }));
  for (
    const thrown of [() => new Error("boom"), () => Object.create(null), () => "s"]
  ) {
    const options = Object.defineProperty({}, "maxBytes", {
      get() {
        throw thrown();
      },
    });
    assert.ok(parseChatEnvelopeJson(line, options).ok);
  }
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  assert.ok(parseChatEnvelopeJson(line, revoked.proxy).ok);
  assert.equal(
    (parseChatEnvelopeJson("x".repeat(2_000_000), revoked.proxy) as { error: { code: string } })
      .error.code,
    "too-large",
  );
});

Deno.test("parse: a thrown value with no prototype while reading is described safely", () => {
  const value = {
    schemaVersion: 1,
    get event() {
      throw Object.create(null);
    },
  };
  const e = refuse(value);
  assert.equal(e.code, "invalid-envelope");
  assert.match((e as unknown as { message: string }).message, /reading it threw/);
});
