import assert from "node:assert/strict";
import { foldUIMessage } from "../../ai_sdk.ts";

Deno.test("foldUIMessage refuses a non-iterable input with an issue instead of throwing", () => {
  for (const bad of [null, undefined, 5, {}, { length: 2 }, true]) {
    const r = foldUIMessage(bad as never);
    assert.deepEqual(r.issues, [
      { index: -1, code: "invalid-chunk", message: "input is not an iterable of chunks" },
    ]);
    assert.deepEqual(r.message.parts, []);
  }
  // A string is iterable (its characters), but it is refused whole: one issue, never one per character.
  const s = foldUIMessage("ab" as never);
  assert.deepEqual(s.issues.map((i) => [i.index, i.code]), [[-1, "invalid-chunk"]]);
});

Deno.test("foldUIMessage: a broken iterator is an issue, never a throw; what was read is folded", () => {
  const revoked = Proxy.revocable([], {});
  revoked.revoke();
  const broken: unknown[] = [
    { [Symbol.iterator]: () => 5 },
    { [Symbol.iterator]: () => ({}) },
    {
      get [Symbol.iterator]() {
        throw new Error("getter");
      },
    },
    revoked.proxy,
  ];
  for (const bad of broken) {
    const r = foldUIMessage(bad as never);
    assert.deepEqual(r.message.parts, []);
    assert.equal(r.issues.length, 1);
    assert.equal(r.issues[0].code, "invalid-chunk");
  }
  function* source() {
    yield { type: "start", messageId: "m" };
    yield { type: "text-start", id: "t" };
    yield { type: "text-delta", id: "t", delta: "hi" };
    throw new Error("socket closed");
  }
  const r = foldUIMessage(source());
  assert.equal(r.message.id, "m");
  assert.equal(r.message.parts.length, 1);
  assert.equal((r.message.parts[0] as { text: string }).text, "hi");
  assert.equal(r.issues.length, 1);
  assert.equal(r.issues[0].index, 3);
  assert.equal(r.issues[0].code, "invalid-chunk");
  assert.match(r.issues[0].message, /socket closed/);
  // the same for a v1 envelope stream
  function* v1() {
    yield {
      schemaVersion: 1,
      conversationId: "c",
      turnId: "t",
      eventId: "e1",
      seq: 1,
      event: { type: "delta", text: "hi" },
    };
    throw new Error("socket closed");
  }
  const rv = foldUIMessage(v1());
  assert.equal((rv.message.parts.find((p) => p.type === "text") as { text: string }).text, "hi");
  assert.deepEqual(rv.issues.at(-1)?.index, 1);
  assert.match(rv.issues.at(-1)!.message, /socket closed/);
});

Deno.test("foldUIMessage: null options are the defaults, not a throw", () => {
  const r = foldUIMessage([{ type: "start", messageId: "m" }], null as never);
  assert.equal(r.message.id, "m");
  assert.deepEqual(r.issues, []);
});
