/**
 * `toHitlAnswer` / `toHitlAnswers` read the AI SDK's `approval-responded`
 * state, on the gate part and, by approval id, on any tool part; checked on
 * the message the AI SDK's own fold makes of an approval stream.
 */
import assert from "node:assert/strict";
import { toHitlAnswer, toHitlAnswers } from "../../message.ts";
import { v1ToUIMessageChunks } from "../../ai_sdk.ts";
import { aiFold } from "./_peers.ts";

const read = (p: string) =>
  JSON.parse(Deno.readTextFileSync(new URL(`../../fixtures/${p}`, import.meta.url)));

const part = (type: string, state: string, approval: Record<string, unknown>) => ({
  type,
  toolCallId: "c",
  state,
  input: {},
  approval,
});

Deno.test("approval-responded is an answer: accept { confirmed: true } or decline with the reason", () => {
  const yes = { parts: [part("tool-gate", "approval-responded", { id: "g1", approved: true })] };
  assert.deepEqual(toHitlAnswer(yes), {
    action: "accept",
    gateId: "g1",
    payload: { confirmed: true },
  });
  const no = {
    parts: [
      part("tool-gate", "approval-responded", { id: "g1", approved: false, reason: "not now" }),
    ],
  };
  assert.deepEqual(toHitlAnswer(no), { action: "decline", gateId: "g1", reason: "not now" });
  const noReason = {
    parts: [part("tool-gate", "approval-responded", { id: "g1", approved: false })],
  };
  assert.deepEqual(toHitlAnswer(noReason), { action: "decline", gateId: "g1", reason: "declined" });
  // still open
  const open = { parts: [part("tool-gate", "approval-requested", { id: "g1" })] };
  assert.equal(toHitlAnswer(open), undefined);
});

Deno.test("by approval id on any tool part, and every answer of a message", () => {
  const m = {
    parts: [
      { type: "text", text: "x" },
      part("tool-deploy", "approval-responded", { id: "card-1", approved: true }),
      part("dynamic-tool", "output-denied", { id: "card-2", approved: false, reason: "no" }),
      part("tool-rm", "approval-requested", { id: "card-3" }),
      { ...part("tool-gate", "output-available", { id: "g9", approved: true }), output: { v: 1 } },
    ],
  };
  // without an id, the first tool-gate part answers (its output is the payload)
  assert.deepEqual(toHitlAnswer(m), { action: "accept", gateId: "g9", payload: { v: 1 } });
  assert.deepEqual(toHitlAnswer(m, { approvalId: "card-1" }), {
    action: "accept",
    gateId: "card-1",
    payload: { confirmed: true },
  });
  assert.deepEqual(toHitlAnswer(m, { approvalId: "card-2" }), {
    action: "decline",
    gateId: "card-2",
    reason: "no",
  });
  assert.equal(toHitlAnswer(m, { approvalId: "card-3" }), undefined);
  assert.deepEqual(toHitlAnswers(m).map((a) => [a.action, a.gateId]), [
    ["accept", "card-1"],
    ["decline", "card-2"],
    ["accept", "g9"],
  ]);
});

Deno.test("the AI SDK's own message for a v1 approval turn, answered as addToolApprovalResponse does", async () => {
  const { chunks } = v1ToUIMessageChunks(read("message/v1_turn_awaiting.json"));
  const message = (await aiFold(chunks)).message!;
  assert.deepEqual(toHitlAnswers(message), []);
  // what addToolApprovalResponse({ id: "card-del", approved: true }) does to the part
  const answered = {
    ...message,
    parts: message.parts.map((p) =>
      "approval" in p && (p as { approval: { id: string } }).approval.id === "card-del"
        ? { ...p, state: "approval-responded", approval: { id: "card-del", approved: true } }
        : p
    ),
  };
  assert.deepEqual(toHitlAnswers(answered), [{
    action: "accept",
    gateId: "card-del",
    payload: { confirmed: true },
  }]);
});
