/**
 * Every message `foldUIMessage` returns passes its own `UIMessageSchema`:
 * a data chunk whose name is not an identifier (`data-1x`, `data-a.b`) is
 * refused (`invalid-chunk`), never kept as a part; a tool output after its
 * approval was answered `approved: false` is reported (a tool ran after it
 * was denied) and does not turn the part into `output-available`. The
 * property prints its seed; set FC_SEED to replay one.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { foldUIMessage } from "../../ai_sdk.ts";
import { uiMessage as UIMessageSchema } from "../../message.ts";
import { validChunk } from "./_arbitraries.ts";

function seedOf(): number {
  const s = Number(Deno.env.get("FC_SEED") ?? NaN);
  const seed = Number.isSafeInteger(s) ? s : Math.floor(Math.random() * 2 ** 31);
  console.log("seed", seed);
  return seed;
}

function assertValid(message: unknown, what: string): void {
  const r = UIMessageSchema.safeParse(message);
  assert.ok(
    r.success,
    `${what}: ${JSON.stringify(message)}\n${r.success ? "" : JSON.stringify(r.error.issues)}`,
  );
}

Deno.test("data chunks named data-1x / data-a.b / data-gate-ref are refused, not kept", () => {
  for (const type of ["data-1x", "data-a.b", "data-gate-ref", "data-"]) {
    for (const id of [undefined, "d1"]) {
      const r = foldUIMessage([
        { type: "start", messageId: "m1" },
        id === undefined ? { type, data: 1 } : { type, id, data: 1 },
        { type: "data-ok_1", data: 2 },
      ]);
      assertValid(r.message, type);
      assert.deepEqual(r.message.parts, [{ type: "data-ok_1", data: 2 }], type);
      assert.equal(r.issues.length, 1, type);
      assert.equal(r.issues[0].code, "invalid-chunk");
      assert.equal(r.issues[0].index, 1);
    }
  }
});

Deno.test("a tool output after a denied approval is reported, the part stays denied", () => {
  for (const type of ["tool-output-available", "tool-output-error"] as const) {
    const r = foldUIMessage([
      { type: "start", messageId: "m1" },
      { type: "tool-input-available", toolCallId: "c1", toolName: "rm", input: {} },
      { type: "tool-approval-request", approvalId: "a1", toolCallId: "c1" },
      { type: "tool-approval-response", approvalId: "a1", approved: false },
      type === "tool-output-available"
        ? { type, toolCallId: "c1", output: "deleted" }
        : { type, toolCallId: "c1", errorText: "failed" },
    ]);
    assertValid(r.message, type);
    const part = r.message.parts[0] as { state: string; approval?: { approved?: boolean } };
    assert.notEqual(part.state, "output-available");
    assert.equal(part.approval?.approved, false);
    assert.equal(r.issues.length, 1, JSON.stringify(r.issues));
    assert.equal(r.issues[0].index, 4);
    assert.match(r.issues[0].message, /denied/);
  }
});

const chunk = fc.oneof(
  { weight: 8, arbitrary: validChunk },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constantFrom("data-1x", "data-a.b", "data-gate-ref", "data-ok"),
      id: fc.constantFrom("a", "b"),
      data: fc.jsonValue({ maxDepth: 1 }),
    }, { requiredKeys: ["type", "data"] }),
  },
);

Deno.test("property: every message foldUIMessage returns passes UIMessageSchema", () => {
  fc.assert(
    fc.property(fc.array(chunk, { maxLength: 30 }), (chunks) => {
      const r = foldUIMessage(chunks);
      assertValid(r.message, "folded");
    }),
    { numRuns: 5_000, seed: seedOf() },
  );
});
