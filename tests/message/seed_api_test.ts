/**
 * The seed's documented names and signatures (titan-message.md §7), their
 * documented behaviour, the typed error for a programmer's mistake, and the
 * Result-returning forms for untrusted input beside them.
 */
import assert from "node:assert/strict";
import * as message from "../../message.ts";
import {
  type ChatMessage,
  chatMessage,
  createDataPart,
  endorseAgentMessage,
  fromHitlGate,
  inboundChatMessage,
  markHumanEndorsed,
  parseHitlGate,
  toHitlAnswer,
  toMessagingOutbound,
  toolNameOf,
  toUIMessage,
} from "../../message.ts";
import { MessageArgumentError } from "../../src/message/errors.ts";
import { revokedProxy, withThrowingGetter } from "../_helpers/hostile.ts";
import { agentMessage } from "./_samples.ts";

const { provenance: _p, ...m }: ChatMessage = agentMessage();

function throwsCode(f: () => unknown, code: MessageArgumentError["code"]): void {
  assert.throws(f, (e: unknown) => e instanceof MessageArgumentError && e.code === code);
}

Deno.test("every name of the seed's root entry exists here, with the seed's kind", () => {
  const functions = [
    "isDataPartType",
    "isToolPartType",
    "markHumanEndorsed",
    "capDeliveryStatus",
    "toUIMessage",
    "fromUIMessage",
    "fromMessagingInbound",
    "toMessagingOutbound",
    "deliveryFromSendResult",
    "fromHitlGate",
    "toHitlAnswer",
  ];
  const schemas = [
    "providerMetadata",
    "textPart",
    "reasoningPart",
    "sourceUrlPart",
    "sourceDocumentPart",
    "filePart",
    "stepStartPart",
    "toolApproval",
    "toolPart",
    "dataPart",
    "chatPart",
    "messageRole",
    "threadKind",
    "participantKind",
    "addressScheme",
    "participant",
    "chatThread",
    "deliveryStatus",
    "deliveryState",
    "provenance",
    "chatMessage",
    "inboundChatMessage",
  ];
  const all = message as unknown as Record<string, unknown>;
  for (const f of functions) assert.equal(typeof all[f], "function", f);
  for (const s of schemas) {
    assert.equal(typeof (all[s] as { safeParse?: unknown })?.safeParse, "function", s);
  }
  assert.deepEqual(
    [
      all.DATA_PART_KEY_PATTERN instanceof RegExp,
      all.TRANSPORT_DELIVERY_CEILING,
      all.GATE_TOOL_NAME,
      all.GATE_PART_TYPE,
    ],
    [true, "accepted", "gate", "tool-gate"],
  );
});

Deno.test("markHumanEndorsed: the seed's behaviour (a copy, provenance replaced) that survives chatMessage", () => {
  const expected = { authored: "agent", endorsedBy: "human", attestedBy: "user:alice" };
  for (const provenance of [undefined, { authored: "agent" }, { authored: "human" }, expected]) {
    const input = provenance === undefined ? m : { ...m, provenance } as ChatMessage;
    const before = JSON.stringify(input);
    const out = markHumanEndorsed(input, "user:alice");
    assert.notEqual(out, input);
    assert.deepEqual(out, { ...m, provenance: expected });
    assert.equal(JSON.stringify(input), before, "the input is not mutated");
    assert.deepEqual(chatMessage.parse(out).provenance, expected);
    assert.equal(inboundChatMessage.safeParse(out).success, false, "never passes as inbound");
  }
  const other = markHumanEndorsed({ ...m, provenance: expected } as ChatMessage, "user:bob");
  assert.equal((other.provenance as { attestedBy: string }).attestedBy, "user:bob");
});

Deno.test("markHumanEndorsed: a programmer's mistake is a MessageArgumentError, nothing else", () => {
  for (const a of ["", 1, undefined, null, Symbol("s")]) {
    throwsCode(() => markHumanEndorsed(m, a as string), "invalid-attestation");
  }
  for (
    const bad of [
      null,
      1,
      "m",
      [],
      revokedProxy(),
      withThrowingGetter({ ...m }, "parts", () => 1),
    ]
  ) {
    throwsCode(() => markHumanEndorsed(bad as ChatMessage, "user:alice"), "invalid-argument");
  }
  // the checked form refuses what the seed's form overwrites
  const human = endorseAgentMessage({ ...m, provenance: { authored: "human" } }, "user:alice");
  assert.ok(!human.ok && human.error.code === "not-agent-authored");
});

Deno.test("createDataPart refuses, never throws: dataPart(Symbol()) threw before the rename", () => {
  const cases: [unknown, unknown, unknown, string][] = [
    [Symbol("s"), 1, undefined, "invalid-data-part-name"],
    [{ toString: () => "x" }, 1, undefined, "invalid-data-part-name"],
    [Object.create(null), 1, undefined, "invalid-data-part-name"],
    ["x", 1, Symbol("id"), "invalid-data-part-id"],
    ["x", 1, 5, "invalid-data-part-id"],
    ["x", undefined, undefined, "missing-data"],
  ];
  for (const [name, data, id, code] of cases) {
    const r = createDataPart(name as string, data, id as string);
    assert.ok(!r.ok);
    assert.equal(r.error.code, code);
  }
  const ok = createDataPart("gate_ref", null, "g1");
  assert.ok(ok.ok);
  assert.deepEqual(ok.value, { type: "data-gate_ref", id: "g1", data: null });
  assert.equal(message.dataPart.safeParse(ok.value).success, true);
});

Deno.test("fromHitlGate returns the message; parseHitlGate is its Result form", () => {
  const gate = { id: "g1", prompt: "Deploy?", status: "pending", createdAt: m.createdAt } as const;
  const ctx = { threadId: "th1", authorId: "agent:ops" };
  const msg = fromHitlGate(gate, ctx);
  const r = parseHitlGate(gate, ctx);
  assert.ok(r.ok);
  assert.deepEqual(msg, r.value);
  assert.equal(toHitlAnswer(msg), undefined);
  throwsCode(
    () => fromHitlGate({ ...gate, status: "gone" as "pending" }, ctx),
    "unknown-gate-status",
  );
  throwsCode(() => fromHitlGate({ ...gate, createdAt: "yesterday" }, ctx), "invalid-gate");
  throwsCode(() => fromHitlGate(revokedProxy() as never, ctx), "invalid-gate");
  const refused = parseHitlGate({ ...gate, status: "gone" as "pending" }, ctx);
  assert.ok(!refused.ok && refused.error.code === "unknown-status");
});

Deno.test("the other typed builders throw only MessageArgumentError on unreadable arguments", () => {
  throwsCode(() => toUIMessage(revokedProxy() as ChatMessage), "invalid-argument");
  throwsCode(() => toMessagingOutbound({ ...m, parts: 5 } as never, "h"), "invalid-argument");
  assert.equal(toHitlAnswer(revokedProxy() as never), undefined); // a request body: never throws
  // a part that cannot be read is not a gate part (isRecord is false for a revoked proxy)
  assert.equal(toHitlAnswer({ ...m, parts: [revokedProxy()] } as never), undefined);
  throwsCode(() => toolNameOf({ type: "text" } as never), "invalid-argument");
  assert.equal(toolNameOf({ type: "tool-get-weather" } as never), "get-weather");
  assert.equal(message.isDataPartType(Symbol("s") as never), false);
  assert.equal(message.isToolPartType(5 as never), false);
});
