/**
 * endorseAgentMessage (the checked form of markHumanEndorsed): only plain
 * agent provenance can be endorsed, and an existing endorsement is never
 * silently overwritten.
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import { type ChatMessage, endorseAgentMessage, type Provenance } from "../../message.ts";
import { agentMessage } from "./_samples.ts";

const agent: ChatMessage = agentMessage();

Deno.test("endorseAgentMessage refuses a message without plain agent provenance", () => {
  const { provenance: _p, ...noProvenance } = agent;
  const cases: [string, ChatMessage][] = [
    ["no provenance", noProvenance],
    ["no provenance, role user", { ...noProvenance, role: "user", authorId: "user:bob" }],
    ["human provenance", { ...agent, provenance: { authored: "human" } }],
    ["human provenance, role user", { ...agent, role: "user", provenance: { authored: "human" } }],
    ["not an object", { ...agent, provenance: "agent" as unknown as Provenance }],
    ["null", { ...agent, provenance: null as unknown as Provenance }],
    ["unknown authored", { ...agent, provenance: { authored: "robot" } as unknown as Provenance }],
  ];
  for (const [name, m] of cases) {
    const r = endorseAgentMessage(m, "user:alice");
    assert.ok(!r.ok, name);
    assert.equal(r.error.code, "not-agent-authored", name);
  }
  // inherited provenance is not the message's provenance
  const inherited = Object.create({ provenance: { authored: "agent" } });
  Object.assign(inherited, noProvenance);
  const ri = endorseAgentMessage(inherited as ChatMessage, "user:alice");
  assert.ok(!ri.ok && ri.error.code === "not-agent-authored");
});

Deno.test("endorseAgentMessage never overwrites an earlier attester; the same attester is a no-op", () => {
  const first = endorseAgentMessage(agent, "user:alice");
  assert.ok(first.ok);
  const other = endorseAgentMessage(first.value, "user:mallory");
  assert.ok(!other.ok);
  assert.equal(other.error.code, "already-endorsed");
  assert.deepEqual(first.value.provenance, {
    authored: "agent",
    endorsedBy: "human",
    attestedBy: "user:alice",
  });
  const same = endorseAgentMessage(first.value, "user:alice");
  assert.ok(same.ok);
  assert.deepEqual(same.value, first.value);
});

Deno.test("endorseAgentMessage: hostile input is a refusal, not an exception", () => {
  const getter = Object.defineProperty({ ...agent }, "provenance", {
    enumerable: true,
    get() {
      throw new Error("boom");
    },
  });
  const r = endorseAgentMessage(getter, "user:alice");
  assert.ok(!r.ok && r.error.code === "not-agent-authored");
  const n = endorseAgentMessage(null as unknown as ChatMessage, "user:alice");
  assert.ok(!n.ok && n.error.code === "not-agent-authored");
});

Deno.test("endorseAgentMessage: a message that throws when copied is a refusal, not an exception", () => {
  const parts = Object.defineProperty({ ...agent }, "parts", {
    enumerable: true,
    get() {
      throw new Error("boom");
    },
  });
  const keys = new Proxy({ ...agent }, {
    ownKeys() {
      throw new Error("boom");
    },
  });
  for (const m of [parts, keys]) {
    const r = endorseAgentMessage(m, "user:alice");
    assert.ok(!r.ok);
    assert.equal(r.error.code, "not-agent-authored");
  }
  const arr = Object.assign([1, 2], { provenance: { authored: "agent" } });
  const ra = endorseAgentMessage(arr as unknown as ChatMessage, "user:alice");
  assert.ok(!ra.ok && ra.error.code === "not-agent-authored");
});

Deno.test("endorseAgentMessage: same attester returns a fresh provenance, never a re-read of the input's", () => {
  let reads = 0;
  const flip = Object.defineProperty({ ...agent }, "provenance", {
    enumerable: true,
    get: (): Provenance => ({
      authored: "agent",
      endorsedBy: "human",
      attestedBy: reads++ === 0 ? "user:alice" : "user:mallory",
    }),
  });
  const r = endorseAgentMessage(flip, "user:alice");
  assert.ok(r.ok);
  assert.deepEqual(r.value.provenance, {
    authored: "agent",
    endorsedBy: "human",
    attestedBy: "user:alice",
  });
  const endorsed = { ...agent, provenance: Object.freeze({ ...r.value.provenance! }) };
  const again = endorseAgentMessage(endorsed, "user:alice");
  assert.ok(again.ok);
  assert.notEqual(again.value.provenance, endorsed.provenance);
  assert.deepEqual(again.value.provenance, endorsed.provenance);
  // odd but valid shapes of plain agent provenance are endorsed
  for (const p of [Object.freeze({ authored: "agent" }), new Proxy({ authored: "agent" }, {})]) {
    const e = endorseAgentMessage({ ...agent, provenance: p as Provenance }, "user:bob");
    assert.ok(e.ok);
    assert.deepEqual(e.value.provenance, {
      authored: "agent",
      endorsedBy: "human",
      attestedBy: "user:bob",
    });
  }
});

Deno.test("endorseAgentMessage: never throws, and an endorsement is only ever minted from plain agent provenance or the same attester", () => {
  const provenance = fc.oneof(
    fc.constant({ authored: "agent" }),
    fc.constant({ authored: "human" }),
    fc.record({
      authored: fc.constantFrom("agent", "human", "robot"),
      endorsedBy: fc.constantFrom("human", "agent"),
      attestedBy: fc.constantFrom("user:alice", "user:bob", ""),
    }, { requiredKeys: ["authored"] }),
    fc.anything(),
  );
  const message = fc.oneof(
    fc.record({ provenance }).map((o) => ({ ...agent, ...o })),
    fc.anything(),
  );
  fc.assert(
    fc.property(message, fc.constantFrom("user:alice", "user:bob", ""), (m, by) => {
      const before = (m !== null && typeof m === "object" && Object.hasOwn(m, "provenance"))
        ? JSON.stringify((m as ChatMessage).provenance)
        : undefined;
      const r = endorseAgentMessage(m as ChatMessage, by);
      if (!r.ok) return;
      assert.notEqual(by, "");
      assert.deepEqual(r.value.provenance, {
        authored: "agent",
        endorsedBy: "human",
        attestedBy: by,
      });
      assert.ok(
        before === JSON.stringify({ authored: "agent" }) ||
          before === JSON.stringify({ authored: "agent", endorsedBy: "human", attestedBy: by }),
        `minted from ${before}`,
      );
    }),
    { numRuns: 2_000 },
  );
});
