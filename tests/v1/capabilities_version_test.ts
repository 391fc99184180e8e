import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import {
  CHAT_CAPABILITIES,
  type ChatCapabilities,
  type ChatCapability,
  negotiateChatVersion,
  negotiateChatVersions,
  NO_CAPABILITIES,
  requireChatCapabilities,
} from "../../mod.ts";
import { ChatCapabilitiesSchema } from "../../schemas.ts";

Deno.test("NO_CAPABILITIES: all false, frozen, schema-valid", () => {
  assert.deepEqual(NO_CAPABILITIES, {
    connectionReplay: false,
    persistedHistory: false,
    persistedDecisions: false,
    completedToolCheckpoints: false,
    interruptedTurnRecovery: false,
  });
  assert.ok(Object.isFrozen(NO_CAPABILITIES));
  assert.ok(ChatCapabilitiesSchema.safeParse(NO_CAPABILITIES).success);
  assert.deepEqual(CHAT_CAPABILITIES, Object.keys(NO_CAPABILITIES));
});

Deno.test("requireChatCapabilities: names exactly what is missing", () => {
  const declared: ChatCapabilities = {
    ...NO_CAPABILITIES,
    connectionReplay: true,
    persistedHistory: true,
  };
  const r = requireChatCapabilities(declared, [
    "connectionReplay",
    "persistedDecisions",
    "interruptedTurnRecovery",
  ]);
  assert.equal(r.ok, false);
  assert.equal(!r.ok && r.error.code, "missing-capabilities");
  assert.deepEqual(!r.ok && r.error.missing, ["persistedDecisions", "interruptedTurnRecovery"]);
  assert.match(!r.ok ? r.error.message : "", /persistedDecisions, interruptedTurnRecovery/);
  const good = requireChatCapabilities(declared, ["persistedHistory", "connectionReplay"]);
  assert.deepEqual(good, { ok: true, value: declared });
  assert.ok(requireChatCapabilities(NO_CAPABILITIES, []).ok);
  // record form: only `true` flags are required
  const rec = requireChatCapabilities(declared, {
    persistedHistory: true,
    completedToolCheckpoints: true,
    connectionReplay: false,
  });
  assert.deepEqual(!rec.ok && rec.error.missing, ["completedToolCheckpoints"]);
  // truthy is not true
  const truthy = { ...NO_CAPABILITIES, persistedDecisions: 1 } as unknown as ChatCapabilities;
  assert.deepEqual(requireChatCapabilities(truthy, ["persistedDecisions"]).ok, false);
  // non-object declared declares nothing (no throw)
  const none = requireChatCapabilities(null as unknown as ChatCapabilities, ["connectionReplay"]);
  assert.deepEqual(!none.ok && none.error.missing, ["connectionReplay"]);
  // inherited flags do not count
  const inherited = Object.create({ connectionReplay: true }) as ChatCapabilities;
  assert.equal(requireChatCapabilities(inherited, ["connectionReplay"]).ok, false);
});

Deno.test("requireChatCapabilities fails closed on names it does not know", () => {
  const all: ChatCapabilities = {
    connectionReplay: true,
    persistedHistory: true,
    persistedDecisions: true,
    completedToolCheckpoints: true,
    interruptedTurnRecovery: true,
  };
  // A typo must not read as "nothing required", even for a host that declares everything.
  const typo = requireChatCapabilities(all, ["interruptedTurnRecovry" as ChatCapability]);
  assert.deepEqual(!typo.ok && [typo.error.code, typo.error.missing, typo.error.unknown], [
    "missing-capabilities",
    [],
    ["interruptedTurnRecovry"],
  ]);
  assert.match(!typo.ok ? typo.error.message : "", /interruptedTurnRecovry/);
  const rec = requireChatCapabilities(all, { persistedHistroy: true } as Partial<ChatCapabilities>);
  assert.deepEqual(!rec.ok && rec.error.unknown, ["persistedHistroy"]);
  // inherited names are not capabilities either
  assert.deepEqual(
    ((r) => !r.ok && r.error.unknown)(requireChatCapabilities(all, ["toString" as ChatCapability])),
    ["toString"],
  );
  // a required that is not a list or record is refused, not treated as empty
  for (const bad of ["persistedHistory", undefined, null, 5]) {
    const r = requireChatCapabilities(all, bad as unknown as ChatCapability[]);
    assert.equal(r.ok, false, String(bad));
  }
  const mixed = requireChatCapabilities(NO_CAPABILITIES, [
    "persistedHistory",
    7 as unknown as ChatCapability,
  ]);
  assert.deepEqual(!mixed.ok && [mixed.error.missing, mixed.error.unknown], [["persistedHistory"], [
    "(number)",
  ]]);
  // false flags in the record form are not required, known or not
  assert.ok(
    requireChatCapabilities(
      NO_CAPABILITIES,
      { persistedHistory: false, bogus: false } as Partial<ChatCapabilities>,
    ).ok,
  );
  // a non-object declaration declares nothing: the value is NO_CAPABILITIES, not null
  assert.deepEqual(requireChatCapabilities(null as unknown as ChatCapabilities, []), {
    ok: true,
    value: NO_CAPABILITIES,
  });
  // ...and so does an array (it is not a capability record)
  assert.deepEqual(requireChatCapabilities([] as unknown as ChatCapabilities, []), {
    ok: true,
    value: NO_CAPABILITIES,
  });
});

Deno.test("requireChatCapabilities: a requirement is exactly true; anything but true/false is refused, never read as not required", () => {
  const all: ChatCapabilities = {
    connectionReplay: true,
    persistedHistory: true,
    persistedDecisions: true,
    completedToolCheckpoints: true,
    interruptedTurnRecovery: true,
  };
  for (const flag of [1, "true", "yes", null, {}, [], 0, "", NaN]) {
    const required = { persistedHistory: flag } as unknown as Partial<ChatCapabilities>;
    for (const declared of [all, NO_CAPABILITIES]) {
      const r = requireChatCapabilities(declared, required);
      assert.equal(r.ok, false, `${JSON.stringify(flag)} must not pass`);
      assert.deepEqual(!r.ok && [r.error.missing, r.error.unknown, r.error.invalid], [
        [],
        [],
        ["persistedHistory"],
      ]);
      assert.match(!r.ok ? r.error.message : "", /other than true or false: "persistedHistory"/);
    }
  }
  // true requires, false and undefined do not
  assert.ok(requireChatCapabilities(all, { persistedHistory: true }).ok);
  assert.ok(
    requireChatCapabilities(NO_CAPABILITIES, {
      persistedHistory: false,
      connectionReplay: undefined,
    }).ok,
  );
  const ok = requireChatCapabilities(all, ["connectionReplay"]);
  assert.ok(ok.ok);
  const miss = requireChatCapabilities(NO_CAPABILITIES, ["connectionReplay"]);
  assert.deepEqual(!miss.ok && miss.error.invalid, []);
});

Deno.test("persistedHistory never implies interruptedTurnRecovery (nor anything else)", () => {
  const historyOnly: ChatCapabilities = { ...NO_CAPABILITIES, persistedHistory: true };
  const r = requireChatCapabilities(historyOnly, ["interruptedTurnRecovery"]);
  assert.deepEqual(!r.ok && r.error.missing, ["interruptedTurnRecovery"]);
  fc.assert(
    fc.property(
      fc.record({
        connectionReplay: fc.boolean(),
        persistedHistory: fc.constant(true),
        persistedDecisions: fc.boolean(),
        completedToolCheckpoints: fc.boolean(),
        interruptedTurnRecovery: fc.constant(false),
      }),
      (caps) => {
        const res = requireChatCapabilities(caps, ["interruptedTurnRecovery"]);
        assert.equal(res.ok, false);
        for (const name of CHAT_CAPABILITIES) {
          assert.equal(requireChatCapabilities(caps, [name]).ok, caps[name]);
        }
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("ChatCapabilitiesSchema: strict booleans, no coercion, unknown keys stripped", () => {
  assert.equal(
    ChatCapabilitiesSchema.safeParse({ ...NO_CAPABILITIES, connectionReplay: "true" }).success,
    false,
  );
  assert.equal(
    ChatCapabilitiesSchema.safeParse({ ...NO_CAPABILITIES, connectionReplay: 1 }).success,
    false,
  );
  const { interruptedTurnRecovery: _, ...four } = NO_CAPABILITIES;
  assert.equal(ChatCapabilitiesSchema.safeParse(four).success, false);
  const r = ChatCapabilitiesSchema.safeParse({ ...NO_CAPABILITIES, extra: true });
  assert.ok(r.success);
  assert.deepEqual(r.data, NO_CAPABILITIES);
});

Deno.test("negotiateChatVersion: exactly the numbers 0 and 1", () => {
  assert.deepEqual(negotiateChatVersion(0), { ok: true, value: 0 });
  assert.deepEqual(negotiateChatVersion(1), { ok: true, value: 1 });
  assert.deepEqual(negotiateChatVersion(1.0), { ok: true, value: 1 });
  const z = negotiateChatVersion(-0);
  assert.ok(z.ok && Object.is(z.value, 0));
  for (
    const bad of ["1", "0", 1.5, NaN, null, undefined, 2, -1, Infinity, 1n, {}, [1], true, {
      valueOf: () => 1,
    }]
  ) {
    const r = negotiateChatVersion(bad);
    assert.equal(r.ok, false, String(bad));
    assert.equal(!r.ok && r.error.code, "unsupported-version");
    assert.equal(!r.ok && r.error.received, bad);
  }
  fc.assert(
    fc.property(fc.anything(), (x) => {
      const r = negotiateChatVersion(x);
      assert.equal(r.ok, x === 0 || x === 1);
    }),
    { numRuns: 2000 },
  );
});

Deno.test("negotiateChatVersions: highest common version", () => {
  assert.deepEqual(negotiateChatVersions([0, 1]), { ok: true, value: 1 });
  assert.deepEqual(negotiateChatVersions([1, 0], [0]), { ok: true, value: 0 });
  assert.deepEqual(negotiateChatVersions(["1", 0]), { ok: true, value: 0 });
  assert.deepEqual(negotiateChatVersions([2, 3, 1]), { ok: true, value: 1 });
  for (const offers of [[], [2], ["1"], null]) {
    const r = negotiateChatVersions(offers as unknown[]);
    assert.equal(!r.ok && r.error.code, "unsupported-version");
  }
  assert.equal(negotiateChatVersions([1], [0]).ok, false);
});

Deno.test("hostile inputs: requireChatCapabilities fails closed, negotiateChatVersions refuses; no throw", () => {
  const revoked = Proxy.revocable([], {});
  revoked.revoke();
  const getter = {
    get persistedHistory(): boolean {
      throw new Error("boom");
    },
  } as unknown as ChatCapabilities;
  for (
    const [declared, required] of [
      [getter, ["persistedHistory"]],
      [NO_CAPABILITIES, revoked.proxy],
      [revoked.proxy, ["connectionReplay"]],
    ] as const
  ) {
    const r = requireChatCapabilities(
      declared as unknown as ChatCapabilities,
      required as unknown as ChatCapability[],
    );
    assert.equal(!r.ok && r.error.code, "missing-capabilities");
  }
  const v = negotiateChatVersions(revoked.proxy as unknown as unknown[]);
  assert.equal(!v.ok && v.error.code, "unsupported-version");
});
