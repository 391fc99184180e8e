/** Tolerant broker payload readers: unit cases and 10,000-run property tests. */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import {
  brokerEvent,
  brokerHistory,
  brokerSession,
  brokerSessions,
  MAX_REPORTED_ISSUES,
  parseBrokerHistory,
  parseBrokerSessions,
} from "../../agents.ts";
import { readFixture } from "../_helpers/golden.ts";
import { eventArb } from "./_arbitrary.ts";

Deno.test("spec samples parse cleanly with the strict and tolerant readers", async () => {
  for (const n of [1, 2, 3]) {
    const s = JSON.parse(await readFixture(`agents/sample${n}_sessions.json`));
    const h = JSON.parse(await readFixture(`agents/sample${n}_history.json`));
    assert.ok(brokerSessions.safeParse(s).success);
    assert.ok(brokerHistory.safeParse(h).success);
    const ps = parseBrokerSessions(s);
    const ph = parseBrokerHistory(h);
    assert.ok(ps.ok && ph.ok);
    assert.equal(ps.value.malformed, 0);
    assert.equal(ph.value.malformed, 0);
    assert.equal(ps.value.sessions.length, s.sessions.length);
    assert.equal(ph.value.events.length, h.items.length);
  }
});

Deno.test("session schema keeps the read fields and strips the rest", async () => {
  const s = JSON.parse(await readFixture("agents/sample1_sessions.json"));
  const tpc = brokerSession.parse(s.sessions[0]);
  assert.deepEqual(tpc.observed, {
    gitBranch: "main",
    claudeSessionId: "9b1f6c2e-4d1a-4c1e-9f3b-2a7d5e8c1b40",
  });
  assert.deepEqual(tpc.tags, [{ tag: "seat:titan" }]);
  assert.deepEqual(tpc.declared, { role: "coordinator" });
});

Deno.test("history: bad rows counted with reasons, unknown kinds kept, null meta read as {}", () => {
  const r = parseBrokerHistory({
    items: [
      { msgId: "a", kind: "kind_from_the_future", from: "x", text: "", at: 1, meta: {} },
      { msgId: "b", kind: "message", from: "x", text: "", at: "2", meta: {} },
      7,
      { msgId: "c", kind: "message", from: "x", text: "", at: 3, meta: null },
      { msgId: "d", kind: "message", from: "x", text: "", at: 4, meta: { n: 5 } },
    ],
  });
  assert.ok(r.ok);
  assert.deepEqual(r.value.events.map((e) => e.msgId), ["a", "c"]);
  assert.deepEqual(r.value.events[1].meta, {});
  assert.equal(r.value.malformed, 3);
  assert.deepEqual(r.value.issues.map((i) => i.index), [1, 2, 4]);
  assert.match(r.value.issues[0].message, /^at: /);
  assert.match(r.value.issues[2].message, /^meta\.n: /);
});

Deno.test("issues are capped, the count is exact", () => {
  const r = parseBrokerHistory({ items: Array.from({ length: 50 }, () => null) });
  assert.ok(r.ok);
  assert.equal(r.value.malformed, 50);
  assert.equal(r.value.issues.length, MAX_REPORTED_ISSUES);
});

Deno.test("whole-body refusals are typed, never thrown", () => {
  for (const bad of [null, 3, "x", {}, { items: {} }, { sessions: "no" }]) {
    const h = parseBrokerHistory(bad);
    const s = parseBrokerSessions(bad);
    assert.equal(h.ok, false);
    assert.equal(s.ok, false);
    if (!h.ok) assert.deepEqual([h.error.code, h.error.payload], ["malformed-payload", "history"]);
    if (!s.ok) assert.deepEqual([s.error.code, s.error.payload], ["malformed-payload", "sessions"]);
  }
  const bare = parseBrokerHistory([]);
  assert.ok(bare.ok, "a bare array of rows is accepted");
  const noUptime = parseBrokerSessions({ sessions: [] });
  assert.ok(noUptime.ok && noUptime.value.brokerUptimeMs === null);
});

Deno.test("__proto__ keys cannot pollute or replace prototypes", () => {
  const text =
    '{"items":[{"msgId":"a","kind":"agent_spawned","from":"c","text":"","at":1,"meta":{"__proto__":{"polluted":"yes"},"target":"w"}},' +
    '{"msgId":"b","kind":"message","from":"c","text":"","at":2,"meta":{"__proto__":"x","target":"w"}},' +
    '{"msgId":"c","kind":"message","from":"c","text":"","at":3,"meta":{"target":"w"},"__proto__":{"polluted":"yes"}}]}';
  const r = parseBrokerHistory(JSON.parse(text));
  assert.ok(r.ok);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  for (const e of r.value.events) {
    assert.equal(Object.getPrototypeOf(e), Object.prototype);
    assert.equal(Object.getPrototypeOf(e.meta), Object.prototype);
    assert.equal((e as unknown as Record<string, unknown>).polluted, undefined);
  }
  // An own `__proto__` key of `meta` is refused, never stripped: rows a and b
  // are malformed; row c's top-level `__proto__` is an unknown key (stripped,
  // as every unknown top-level key is).
  assert.equal(r.value.malformed, 2);
  assert.deepEqual(r.value.events.map((e) => [e.msgId, { ...e.meta }]), [["c", { target: "w" }]]);
  for (const e of r.value.events) assert.equal(Object.hasOwn(e, "__proto__"), false);
});

/** Arbitrary JSON-ish values plus broker-shaped rows and hostile keys. */
const hostile = fc.constantFrom(
  JSON.parse('{"__proto__":{"polluted":1}}'),
  JSON.parse('{"constructor":{"prototype":{"polluted":1}}}'),
  JSON.parse(
    '{"msgId":"x","kind":"agent_spawned","from":"__proto__","text":"","at":1,"meta":{"target":"constructor","__proto__":"p"}}',
  ),
);
/** `body[key]` when `body` is a non-array object with an own array there. */
const ownArray = (body: unknown, key: string): unknown[] | undefined => {
  if (typeof body !== "object" || body === null || !Object.hasOwn(body, key)) return undefined;
  const v = (body as Record<string, unknown>)[key];
  return Array.isArray(v) ? v : undefined;
};
const rowish = fc.oneof(eventArb, fc.jsonValue(), hostile, fc.anything());

Deno.test("property: parseBrokerHistory never throws; kept + malformed = rows; kept rows satisfy the schema", () => {
  fc.assert(
    fc.property(
      fc.oneof(fc.anything(), fc.record({ items: fc.array(rowish, { maxLength: 8 }) })),
      (body) => {
        const r = parseBrokerHistory(body);
        const rows = Array.isArray(body) ? body : ownArray(body, "items");
        // Refused exactly when there is no row array to read.
        assert.equal(r.ok, rows !== undefined);
        if (!r.ok || rows === undefined) return;
        assert.equal(r.value.events.length + r.value.malformed, rows.length);
        for (const e of r.value.events) assert.ok(brokerEvent.safeParse(e).success);
        assert.equal(({} as Record<string, unknown>).polluted, undefined);
      },
    ),
    { numRuns: 10_000 },
  );
});

const sessionish = fc.oneof(
  fc.record({
    name: fc.string(),
    workingOn: fc.string(),
    cwd: fc.string(),
    status: fc.constantFrom("working", "available", "blocked", "asleep"),
    idleMs: fc.oneof(fc.integer(), fc.double()),
    registeredAt: fc.integer(),
  }, { requiredKeys: [] }),
  fc.anything(),
  hostile,
);

Deno.test("property: parseBrokerSessions never throws; kept + malformed = rows", () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.anything(),
        fc.record({
          sessions: fc.array(sessionish, { maxLength: 6 }),
          brokerUptimeMs: fc.anything(),
        }),
      ),
      (body) => {
        const r = parseBrokerSessions(body);
        const rows = Array.isArray(body) ? undefined : ownArray(body, "sessions");
        assert.equal(r.ok, rows !== undefined);
        if (!r.ok || rows === undefined) return;
        assert.equal(r.value.sessions.length + r.value.malformed, rows.length);
        assert.ok(r.value.brokerUptimeMs === null || Number.isFinite(r.value.brokerUptimeMs));
        assert.equal(({} as Record<string, unknown>).polluted, undefined);
      },
    ),
    { numRuns: 10_000 },
  );
});
