/**
 * Extension events (`ext`) and their stand-in `elided`: the wire rules (name
 * syntax, bounded JSON data, channel), the host registry (Standard Schema or
 * function validators, strict), the fold by channel, resume, and the zod
 * schema agreeing with the parser.
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import { z } from "zod";
import {
  ChatStateFolder,
  createExtensionRegistry,
  foldChatState,
  isExtensionName,
  MAX_EXTENSION_DEPTH,
  MAX_EXTENSION_NAME_LENGTH,
  MAX_EXTENSION_STATE_NAMES,
  MAX_EXTENSION_VALUES,
  parseChatEnvelope,
  parseChatEnvelopeJson,
  resumeChatState,
} from "../../mod.ts";
import { ChatEventEnvelopeSchema } from "../../schemas.ts";

const env = (seq: number, event: unknown) => ({
  schemaVersion: 1,
  conversationId: "c1",
  turnId: "t1",
  eventId: `e${seq}`,
  seq,
  event,
});
const ext = (name: string, data: unknown, channel?: string) =>
  channel === undefined ? { type: "ext", name, data } : { type: "ext", name, channel, data };

function refusedAt(value: unknown, path: string, message?: RegExp) {
  const r = parseChatEnvelope(value);
  assert.equal(r.ok, false, `${path} must be refused`);
  if (r.ok) return;
  assert.equal(r.error.code, "invalid-envelope");
  const issues = (r.error as unknown as { issues: { path: string; message: string }[] }).issues;
  const hit = issues.find((i) => i.path === path);
  assert.ok(hit, `${path} in ${JSON.stringify(issues)}`);
  if (message) assert.match(hit.message, message);
  assert.equal(ChatEventEnvelopeSchema.safeParse(value).success, false, `zod: ${path}`);
}

Deno.test("extension names: namespace.name, lowercase segments, single underscores, at most 128", () => {
  for (
    const good of ["scout.products", "acme.cart.updated", "a.b", "x1.open_drawer", "a.b2_c3_d"]
  ) {
    assert.ok(isExtensionName(good), good);
    assert.ok(parseChatEnvelope(env(1, ext(good, null))).ok, good);
  }
  const long = "a." + "b".repeat(MAX_EXTENSION_NAME_LENGTH - 2);
  assert.equal(long.length, 128);
  assert.ok(isExtensionName(long));
  for (
    const bad of [
      "products", // no namespace
      "Scout.products",
      "scout.Products",
      "scout.",
      ".products",
      "scout..products",
      "1scout.products",
      "scout.1products",
      "scout.open__drawer",
      "scout._drawer",
      "scout.drawer_",
      "scout.open-drawer",
      "scout products",
      "scout.prödukte",
      long + "c",
      "",
    ]
  ) {
    assert.equal(isExtensionName(bad), false, bad);
    refusedAt(env(1, ext(bad, null)), "event.name");
  }
  for (const v of [1, null, undefined, ["a.b"], new String("a.b")]) {
    assert.equal(isExtensionName(v), false);
  }
});

Deno.test("extension data: bounded JSON, required, copied; code and class instances refused", () => {
  const data = { products: [{ id: "p1", price: 9.5, tags: ["a"], on: true, note: null }] };
  const r = parseChatEnvelope(env(1, ext("scout.products", data, "state")));
  assert.ok(r.ok);
  assert.deepEqual(r.value.event, { type: "ext", name: "scout.products", channel: "state", data });
  // a copy: nothing the caller changes later reaches the parsed event
  assert.notEqual((r.value.event as { data: unknown }).data, data);
  data.products[0].id = "changed";
  assert.equal(
    (r.value.event as { data: typeof data }).data.products[0].id,
    "p1",
  );
  const nested = (depth: number): unknown => depth === 0 ? 1 : [nested(depth - 1)];
  assert.ok(parseChatEnvelope(env(1, ext("a.b", nested(MAX_EXTENSION_DEPTH)))).ok);
  refusedAt(env(1, ext("a.b", nested(MAX_EXTENSION_DEPTH + 1))), "event.data", /deeper than 32/);
  assert.ok(parseChatEnvelope(env(1, ext("a.b", new Array(MAX_EXTENSION_VALUES - 1).fill(0)))).ok);
  refusedAt(
    env(1, ext("a.b", new Array(MAX_EXTENSION_VALUES).fill(0))),
    "event.data",
    /more than 10000 JSON values/,
  );
  class Product {
    id = "p1";
  }
  for (
    const [bad, why] of [
      [undefined, /undefined/],
      [() => 1, /function/],
      [{ run: () => 1 }, /function/],
      [{ toJSON: () => 1 }, /function/],
      [[1, , 3], /undefined/],
      [{ a: undefined }, /undefined/],
      [NaN, /not finite/],
      [[Infinity], /not finite/],
      [10n, /bigint/],
      [Symbol("s"), /symbol/],
      [new Date(0), /not plain/],
      [new Map(), /not plain/],
      [new Product(), /not plain/],
    ] as const
  ) {
    refusedAt(env(1, ext("a.b", bad)), "event.data", why);
  }
  // absent data is refused (null for none)
  refusedAt(env(1, { type: "ext", name: "a.b" }), "event.data");
  assert.ok(parseChatEnvelope(env(1, ext("a.b", null))).ok);
  // null-prototype objects are plain data; a `__proto__` key stays a key
  const bare = Object.assign(Object.create(null), { x: 1 });
  assert.ok(parseChatEnvelope(env(1, ext("a.b", bare))).ok);
  const j = parseChatEnvelopeJson(
    JSON.stringify(env(1, { type: "ext", name: "a.b", data: {} })).replace(
      '"data":{}',
      '"data":{"__proto__":{"polluted":true}}',
    ),
  );
  assert.ok(j.ok);
  const copied = (j.value.event as { data: Record<string, unknown> }).data;
  assert.equal(Object.getPrototypeOf(copied), Object.prototype);
  assert.ok(Object.hasOwn(copied, "__proto__"));
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

Deno.test("extension channel: event (default), state or transient", () => {
  for (const channel of ["event", "state", "transient"]) {
    assert.ok(parseChatEnvelope(env(1, ext("a.b", 1, channel))).ok, channel);
  }
  for (const channel of ["State", "", "history", null, 1]) {
    refusedAt(env(1, { type: "ext", name: "a.b", channel, data: 1 }), "event.channel");
  }
  // unknown keys are stripped, as everywhere
  const r = parseChatEnvelope(env(1, { ...ext("a.b", 1), extra: true }));
  assert.deepEqual(r.ok && r.value.event, { type: "ext", name: "a.b", data: 1 });
});

Deno.test("elided: of navigate or ext; applied as a no-op", () => {
  for (const stands of ["navigate", "ext"]) {
    assert.ok(parseChatEnvelope(env(1, { type: "elided", of: stands })).ok);
  }
  for (const stands of ["delta", "card", undefined, 1]) {
    refusedAt(env(1, { type: "elided", of: stands }), "event.of");
  }
  const f = new ChatStateFolder("c1", "t1");
  assert.ok(f.push(env(1, { type: "delta", text: "a" })).ok);
  const before = JSON.stringify({ ...f.state(), lastSeq: 0, lastEventId: null });
  assert.ok(f.push(env(2, { type: "elided", of: "navigate" })).ok);
  assert.equal(f.lastSeq, 2);
  assert.equal(JSON.stringify({ ...f.state(), lastSeq: 0, lastEventId: null }), before);
});

Deno.test("the fold keeps extension events by channel: state last-write-wins, event appended, transient dropped", () => {
  const f = new ChatStateFolder("c1", "t1");
  const push = (seq: number, event: unknown) => assert.ok(f.push(env(seq, event)).ok);
  push(1, ext("scout.products", { products: ["p1"] }, "state"));
  push(2, ext("scout.log", "searched"));
  push(3, ext("scout.highlight", { id: "p1" }, "transient"));
  push(4, ext("scout.products", { products: ["p2"] }, "state"));
  push(5, ext("scout.log", "found", "event"));
  push(6, ext("scout.broaden", [], "state"));
  const s = f.state();
  assert.deepEqual(s.extensionState, {
    "scout.products": { data: { products: ["p2"] }, seq: 4 },
    "scout.broaden": { data: [], seq: 6 },
  });
  assert.deepEqual(s.extensionEvents, [
    { name: "scout.log", data: "searched", seq: 2 },
    { name: "scout.log", data: "found", seq: 5 },
  ]);
  assert.ok(Object.isFrozen(s.extensionState) && Object.isFrozen(s.extensionEvents));
  // absent while none, so a turn without extensions looks as before
  assert.ok(!("extensionState" in new ChatStateFolder("c", "t").state()));
  // resume (also through JSON) keeps them
  const resumed = resumeChatState(JSON.parse(JSON.stringify(s)));
  assert.ok(resumed.ok);
  assert.deepEqual(resumed.value.state(), s);
  // a paused or finished turn takes no extension event, like any content event
  push(7, { type: "turn_status", status: "interrupted" });
  assert.equal(f.push(env(8, ext("scout.log", 1))).ok, false);
});

Deno.test("state-channel extension names are bounded per turn (too-many-extensions)", () => {
  const f = new ChatStateFolder("c1", "t1");
  for (let i = 0; i < MAX_EXTENSION_STATE_NAMES; i++) {
    assert.ok(f.push(env(i + 1, ext(`x.n${i}`, i, "state"))).ok);
  }
  const n = MAX_EXTENSION_STATE_NAMES + 1;
  const r = f.push(env(n, ext("x.one_more", 1, "state")));
  assert.deepEqual(!r.ok && [r.error.code, r.error.seq], ["too-many-extensions", n]);
  // an existing name still updates; event-channel ones are not counted
  assert.ok(f.push(env(n, ext("x.n0", "again", "state"))).ok);
  assert.ok(f.push(env(n + 1, ext("x.one_more", 1))).ok);
  assert.equal(Object.keys(f.state().extensionState!).length, MAX_EXTENSION_STATE_NAMES);
});

Deno.test("a host registry: Standard Schema and function validators, strict, never throws", () => {
  const extensions = createExtensionRegistry({
    "scout.products": z.object({ products: z.array(z.object({ id: z.string() })) }),
    "scout.broaden": (data) => Array.isArray(data) || "must be a list of options",
    "scout.boom": () => {
      throw new Error("kaboom");
    },
    "scout.async": {
      "~standard": { version: 1, vendor: "x", validate: () => Promise.resolve({ value: 1 }) },
    },
  }, { strict: true });
  const check = (event: unknown) => parseChatEnvelope(env(1, event), { extensions });
  assert.ok(check(ext("scout.products", { products: [{ id: "p1" }] }, "state")).ok);
  const bad = check(ext("scout.products", { products: [{ id: 1 }] }, "state"));
  assert.deepEqual(!bad.ok && [bad.error.code, (bad.error as { name: string }).name], [
    "invalid-extension",
    "scout.products",
  ]);
  assert.deepEqual(
    !bad.ok && (bad.error as unknown as { issues: { path: string }[] }).issues.map((i) => i.path),
    ["event.data.products.0.id"],
  );
  assert.ok(check(ext("scout.broaden", [])).ok);
  const fn = check(ext("scout.broaden", {}));
  assert.match(!fn.ok ? fn.error.message : "", /must be a list of options/);
  const threw = check(ext("scout.boom", 1));
  assert.match(!threw.ok ? threw.error.message : "", /the validator threw: .*kaboom/);
  const later = check(ext("scout.async", 1));
  assert.match(!later.ok ? later.error.message : "", /asynchronously/);
  const unknown = check(ext("scout.other", 1));
  assert.deepEqual(!unknown.ok && unknown.error.code, "unknown-extension");
  // not strict: unregistered names pass as opaque data
  const lax = createExtensionRegistry({ "scout.broaden": () => false });
  assert.ok(parseChatEnvelope(env(1, ext("scout.other", 1)), { extensions: lax }).ok);
  assert.equal(parseChatEnvelope(env(1, ext("scout.broaden", 1)), { extensions: lax }).ok, false);
  // other events never reach the registry
  assert.ok(parseChatEnvelope(env(1, { type: "delta", text: "x" }), { extensions }).ok);
  // the fold takes the registry too; a refused ext event changes nothing
  const f = new ChatStateFolder("c1", "t1", { extensions });
  const r = f.push(env(1, ext("scout.other", 1)));
  assert.deepEqual(!r.ok && [r.error.code, r.error.name, r.error.seq], [
    "unknown-extension",
    "scout.other",
    1,
  ]);
  assert.equal(f.lastSeq, 0);
  const rep = foldChatState([env(1, ext("scout.broaden", {}))], { extensions });
  assert.deepEqual(rep.refusals.map((x) => x.error.code), ["invalid-extension"]);
  // a hostile registry is a refusal, never a throw
  for (
    const [i, registry] of [
      {
        check() {
          throw new Error("x");
        },
      },
      { check: () => ({ code: "ok" }) },
      { check: () => 5 },
      {},
      new Proxy({}, {
        get() {
          throw new Error("trap");
        },
      }),
    ].entries()
  ) {
    const h = parseChatEnvelope(env(1, ext("a.b", 1)), { extensions: registry as never });
    assert.equal(!h.ok && h.error.code, "invalid-extension", `registry ${i}`);
  }
  // a programmer's mistake when building one is a TypeError
  assert.throws(() => createExtensionRegistry({ products: () => true }), TypeError);
  assert.throws(() => createExtensionRegistry({ "a.b": 5 as never }), TypeError);
  assert.throws(() => createExtensionRegistry(null as never), TypeError);
});

Deno.test("property: the zod schema and the parser agree on extension events (10k runs)", () => {
  const name = fc.oneof(
    fc.constantFrom("scout.products", "a.b", "Scout.x", "x", "a..b", "a.b_", "a.b__c"),
    fc.stringMatching(/^[a-z_.0-9]{0,12}$/),
  );
  const data = fc.oneof(
    fc.jsonValue({ maxDepth: 4 }),
    fc.constantFrom(undefined, NaN, () => 1, new Date(0), [1, undefined]),
  );
  fc.assert(
    fc.property(
      name,
      fc.constantFrom(undefined, "event", "state", "transient", "x"),
      data,
      (n, c, d) => {
        const value = env(1, { type: "ext", name: n, channel: c, data: d });
        const hand = parseChatEnvelope(value);
        const zod = ChatEventEnvelopeSchema.safeParse(value);
        assert.equal(hand.ok, zod.success, fc.stringify([n, c, d]));
        if (hand.ok && zod.success) {
          assert.deepEqual(
            JSON.parse(JSON.stringify(hand.value)),
            JSON.parse(JSON.stringify(zod.data)),
          );
        }
      },
    ),
    { numRuns: 10_000 },
  );
});
