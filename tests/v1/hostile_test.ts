/**
 * Every public v1 function against hostile values (proxies, revoked proxies,
 * throwing and value-changing getters, null prototypes, throwing
 * `toString`, very deep values) in every argument position, 10^4 runs each.
 * What each may throw is what its documentation says: nothing.
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import {
  canTransition,
  chatEventChannel,
  ChatStateFolder,
  createChatState,
  createExtensionRegistry,
  foldChatState,
  foldChatStateStrict,
  isChatEventV1Type,
  isExtensionName,
  isTerminalTurnStatus,
  isTurnStatus,
  negotiateChatVersion,
  negotiateChatVersions,
  nextTurnStatus,
  parseChatEnvelope,
  parseChatEnvelopeJson,
  replayEnvelope,
  requireChatCapabilities,
  resumeChatState,
} from "../../mod.ts";
import { utf8ByteLength } from "../../src/v1/parse.ts";
import { arg, assertResult, attack } from "../_helpers/attack.ts";
import { validEnvelope, validEvent } from "./_arbitraries.ts";

const status = fc.constantFrom("running", "awaiting-input", "completed", "interrupted");
const envelopes = fc.array(validEnvelope, { maxLength: 4 });
const capabilities = fc.record({
  connectionReplay: fc.boolean(),
  persistedHistory: fc.boolean(),
  persistedDecisions: fc.boolean(),
  completedToolCheckpoints: fc.boolean(),
  interruptedTurnRecovery: fc.boolean(),
});
const savedState = fc.constant(createChatState("c1", "t1"));
const foldOptions = fc.record({
  conversationId: fc.constant("c1"),
  turnId: fc.constant("t1"),
  from: savedState,
  extensions: fc.constant(createExtensionRegistry({}, { strict: true })),
}, { requiredKeys: [] });
const boolean = (r: unknown) => assert.equal(typeof r, "boolean");

const registry = fc.constant(createExtensionRegistry({ "scout.products": (d) => d !== null }));
const parseOptions = fc.record({ extensions: registry }, { requiredKeys: [] });
const extEnvelope = fc.constantFrom("state", "event", "transient").map((channel) => ({
  schemaVersion: 1,
  conversationId: "c1",
  turnId: "t1",
  eventId: "e1",
  seq: 1,
  event: { type: "ext", name: "scout.products", channel, data: { products: [{ id: "p1" }] } },
}));
const anyEnvelope = fc.oneof(validEnvelope, extEnvelope);

Deno.test("hostile: parseChatEnvelope / parseChatEnvelopeJson", () => {
  attack([arg(anyEnvelope), arg(parseOptions)], (v, o) => parseChatEnvelope(v, o as never), {
    check: assertResult,
  });
  attack(
    [
      arg(anyEnvelope.map((v) => JSON.stringify(v))),
      arg(fc.record({ maxBytes: fc.nat(), extensions: registry }, { requiredKeys: [] })),
    ],
    (t, o) => parseChatEnvelopeJson(t as string, o as never),
    { check: assertResult },
  );
});

Deno.test("hostile: isExtensionName, chatEventChannel, replayEnvelope, createExtensionRegistry", () => {
  attack([arg(fc.constantFrom("scout.products", "x"))], (n) => isExtensionName(n), {
    check: boolean,
  });
  attack([arg(validEvent)], (e) => chatEventChannel(e as never), {
    check: (c) => assert.ok(c === "event" || c === "state" || c === "transient"),
  });
  attack([arg(anyEnvelope)], (e) => replayEnvelope(e as never));
  // building a registry from a bad record is a programmer's mistake: a TypeError, documented
  attack(
    [arg(fc.constant({ "scout.products": () => true })), arg(fc.record({ strict: fc.boolean() }))],
    (v, o) => {
      const r = createExtensionRegistry(v as never, o as never);
      assert.equal(typeof r.check, "function");
    },
    { allowed: (e) => e instanceof TypeError },
  );
});

Deno.test("hostile: ChatStateFolder (constructor, push, resync, from, state)", () => {
  const idError = (e: unknown) =>
    e instanceof TypeError && /must be a non-empty string/.test(e.message);
  attack(
    [arg(fc.constant("c1")), arg(fc.constant("t1")), arg(anyEnvelope), arg(parseOptions)],
    (c, t, v, o) => {
      const f = new ChatStateFolder(c as string, t as string, o as never);
      assertResult(f.push(v));
      assertResult(f.resync(v));
      assert.equal(f.state().conversationId, c); // opaque data (a card) is kept by reference
    },
    { allowed: idError },
  );
  attack([arg(fc.constant("c1")), arg(fc.constant("t1"))], (c, t) => {
    assert.deepEqual(createChatState(c as string, t as string).tools, []);
  }, { allowed: idError });
  attack(
    [arg(savedState), arg(parseOptions)],
    (s, o) => resumeChatState(s as never, o as never),
    { check: assertResult },
  );
});

Deno.test("hostile: foldChatState / foldChatStateStrict", () => {
  attack([arg(envelopes), arg(foldOptions)], (e, o) => {
    const r = foldChatState(e as unknown[], o as never);
    assert.ok(Array.isArray(r.refusals));
    assertResult(foldChatStateStrict(e as unknown[], o as never));
  });
});

Deno.test("hostile: lifecycle (isTurnStatus, isTerminalTurnStatus, canTransition, nextTurnStatus)", () => {
  attack([arg(status)], (s) => isTurnStatus(s), { check: boolean });
  attack([arg(status)], (s) => isTerminalTurnStatus(s as never), { check: boolean });
  attack([arg(status), arg(status)], (a, b) => canTransition(a as never, b as never), {
    check: boolean,
  });
  attack(
    [arg(status), arg(validEvent), arg(fc.nat({ max: 3 }))],
    (s, e, n) => nextTurnStatus(s as never, e as never, n as number),
    // an unknown status never transitions: it comes back as given, or null
    { check: (r, [s]) => assert.ok(r === null || isTurnStatus(r) || r === s) },
  );
  attack([arg(fc.constantFrom("delta", "done"))], (s) => isChatEventV1Type(s), { check: boolean });
});

Deno.test("hostile: capabilities and version negotiation", () => {
  attack(
    [arg(capabilities), arg(fc.array(fc.constantFrom("connectionReplay", "x"), { maxLength: 3 }))],
    (d, r) => requireChatCapabilities(d as never, r as never),
    { check: assertResult },
  );
  attack([arg(fc.constantFrom(0, 1, 2))], (v) => negotiateChatVersion(v), {
    check: assertResult,
  });
  attack(
    [arg(fc.array(fc.constantFrom(0, 1, 2))), arg(fc.constant([1, 0]))],
    (a, b) => negotiateChatVersions(a as unknown[], b as never),
    { check: assertResult },
  );
});

Deno.test("hostile: utf8ByteLength counts strings and refuses anything else with a TypeError", () => {
  attack([arg(fc.string())], (s) => utf8ByteLength(s as string), {
    allowed: (e) => e instanceof TypeError && /utf8ByteLength/.test(e.message),
    check: (n) => assert.ok(Number.isSafeInteger(n)),
  });
});
