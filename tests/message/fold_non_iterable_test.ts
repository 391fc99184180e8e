import assert from "node:assert/strict";
import { foldUIMessage } from "../../mod.ts";

Deno.test("foldUIMessage refuses a non-iterable input with an issue instead of throwing", () => {
  for (const bad of [null, undefined, 5, {}, { length: 2 }, true]) {
    const r = foldUIMessage(bad as never);
    assert.deepEqual(r.issues, [
      { index: -1, code: "invalid-chunk", message: "input is not an iterable of chunks" },
    ]);
    assert.deepEqual(r.message.parts, []);
  }
  // A string is iterable (its characters): each character is an invalid chunk, never a throw.
  const s = foldUIMessage("ab" as never);
  assert.equal(s.issues.length, 2);
});
