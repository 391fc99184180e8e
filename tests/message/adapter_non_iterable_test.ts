/**
 * The one-shot v1 adapters (`v1ToUIMessageChunks`, `v1ToAgUiEvents`) take
 * untyped input: a non-iterable or a throwing iterator is a refusal, never a
 * throw, like `foldUIMessage`.
 */
import assert from "node:assert/strict";
import { v1ToAgUiEvents } from "../../ag_ui.ts";
import { v1ToUIMessageChunks } from "../../ai_sdk.ts";
import { envelope } from "./_envelopes.ts";

const env = envelope;

function* source() {
  yield env(1, { type: "delta", text: "hi" });
  yield "not an envelope";
  throw new Error("socket closed");
}

const ONE_SHOTS = [
  (x: unknown) => {
    const r = v1ToUIMessageChunks(x as never);
    return { out: r.chunks as { type: string }[], refused: r.refused };
  },
  (x: unknown) => {
    const r = v1ToAgUiEvents(x as never);
    return { out: r.events as { type: string }[], refused: r.refused };
  },
];

Deno.test("v1 one-shot adapters refuse a non-iterable input instead of throwing", () => {
  const revoked = Proxy.revocable([], {});
  revoked.revoke();
  const getter = {
    get [Symbol.iterator]() {
      throw new Error("getter");
    },
  };
  for (const convert of ONE_SHOTS) {
    for (const bad of [null, undefined, 5, {}, { length: 2 }, true, getter, revoked.proxy]) {
      const r = convert(bad);
      assert.deepEqual(r.out, []);
      assert.deepEqual(r.refused, [{
        index: -1,
        error: { code: "invalid-envelope", message: "input is not an iterable of envelopes" },
      }]);
    }
  }
});

Deno.test("v1 one-shot adapters: a throwing iterator is a refusal at its index; what was read is converted", () => {
  for (const convert of ONE_SHOTS) {
    for (const bad of [{ [Symbol.iterator]: () => 5 }, { [Symbol.iterator]: () => ({}) }]) {
      const r = convert(bad);
      assert.deepEqual(r.out, []);
      assert.equal(r.refused.length, 1);
      assert.equal(r.refused[0].index, 0);
      assert.equal(r.refused[0].error.code, "invalid-envelope");
    }
    const r = convert(source());
    assert.deepEqual(r.refused.map((x) => [x.index, x.error.code]), [
      [1, "invalid-envelope"],
      [2, "invalid-envelope"],
    ]);
    assert.match(r.refused[1].error.message, /socket closed/);
    const types = r.out.map((c) => c.type);
    // the delta was converted and its open text closed; no end of turn invented
    assert.ok(types.includes("text-delta") || types.includes("TEXT_MESSAGE_CONTENT"));
    assert.ok(types.includes("text-end") || types.includes("TEXT_MESSAGE_END"));
    assert.ok(!types.includes("finish") && !types.includes("RUN_FINISHED"));
  }
});
