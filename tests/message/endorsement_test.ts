/**
 * markHumanEndorsed: only plain agent provenance can be endorsed, and an
 * existing endorsement is never silently overwritten.
 */
import assert from "node:assert/strict";
import { type ChatMessage, markHumanEndorsed, type Provenance } from "../../src/message/mod.ts";

const agent: ChatMessage = {
  id: "m1",
  threadId: "th1",
  authorId: "agent:coach",
  role: "assistant",
  createdAt: "2026-11-30T01:00:00.000Z",
  parts: [{ type: "text", text: "Done." }],
  provenance: { authored: "agent" },
};

Deno.test("markHumanEndorsed refuses a message without plain agent provenance", () => {
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
    const r = markHumanEndorsed(m, "user:alice");
    assert.ok(!r.ok, name);
    assert.equal(r.error.code, "not-agent-authored", name);
  }
  // inherited provenance is not the message's provenance
  const inherited = Object.create({ provenance: { authored: "agent" } });
  Object.assign(inherited, noProvenance);
  const ri = markHumanEndorsed(inherited as ChatMessage, "user:alice");
  assert.ok(!ri.ok && ri.error.code === "not-agent-authored");
});

Deno.test("markHumanEndorsed never overwrites an earlier attester; the same attester is a no-op", () => {
  const first = markHumanEndorsed(agent, "user:alice");
  assert.ok(first.ok);
  const other = markHumanEndorsed(first.value, "user:mallory");
  assert.ok(!other.ok);
  assert.equal(other.error.code, "already-endorsed");
  assert.deepEqual(first.value.provenance, {
    authored: "agent",
    endorsedBy: "human",
    attestedBy: "user:alice",
  });
  const same = markHumanEndorsed(first.value, "user:alice");
  assert.ok(same.ok);
  assert.deepEqual(same.value, first.value);
});

Deno.test("markHumanEndorsed: hostile input is a refusal, not an exception", () => {
  const getter = Object.defineProperty({ ...agent }, "provenance", {
    enumerable: true,
    get() {
      throw new Error("boom");
    },
  });
  const r = markHumanEndorsed(getter, "user:alice");
  assert.ok(!r.ok && r.error.code === "not-agent-authored");
  const n = markHumanEndorsed(null as unknown as ChatMessage, "user:alice");
  assert.ok(!n.ok && n.error.code === "not-agent-authored");
});
