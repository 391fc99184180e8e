/**
 * The vendored UIMessage part schemas: every part type and tool state round
 * trips unchanged, real AI SDK messages pass, ai's own validator accepts what
 * we accept (and rejects the approval-rule violations we reject).
 */
import assert from "node:assert/strict";
import {
  chatPart,
  createDataPart,
  DATA_PART_KEY_PATTERN,
  isDataPartType,
  isToolPartType,
  uiMessage,
} from "../../message.ts";
import { askAi, json } from "./_oracle_client.ts";
import { handBuiltMessages } from "./_samples.ts";

Deno.test("every hand-built part type and tool state passes our schema unchanged", () => {
  const msgs = handBuiltMessages();
  const kinds = new Set<string>(
    msgs.flatMap((m) => m.parts.map((p) => p.type.startsWith("data-") ? "data-*" : p.type)),
  );
  for (
    const k of [
      "text",
      "reasoning",
      "source-url",
      "source-document",
      "file",
      "step-start",
      "dynamic-tool",
      "data-*",
    ]
  ) {
    assert.ok(kinds.has(k), k);
  }
  for (const m of msgs) {
    const r = uiMessage.safeParse(m);
    assert.ok(r.success, JSON.stringify(r.error?.issues));
    assert.deepEqual(r.data, m);
  }
});

Deno.test("real UIMessages (ai's fold of the captures) pass our schema unchanged", () => {
  const dir = new URL("../../fixtures/ai-sdk/", import.meta.url);
  let n = 0;
  for (const e of Deno.readDirSync(dir)) {
    if (!e.name.endsWith(".expected.json")) continue;
    const m = JSON.parse(Deno.readTextFileSync(new URL(e.name, dir)));
    const r = uiMessage.safeParse(m);
    assert.ok(r.success, e.name);
    assert.deepEqual(r.data, m, e.name);
    n++;
  }
  assert.equal(n, 6);
});

const violations: [string, Record<string, unknown>][] = [
  ["approval-requested without approval", { state: "approval-requested" }],
  ["approval-requested with approved", {
    state: "approval-requested",
    approval: { id: "a", approved: true },
  }],
  ["approval-responded without approved", { state: "approval-responded", approval: { id: "a" } }],
  ["approval-responded without approval", { state: "approval-responded" }],
  ["output-denied without approval", { state: "output-denied" }],
  ["output-denied approved true", {
    state: "output-denied",
    approval: { id: "a", approved: true },
  }],
  ["output-error without errorText", { state: "output-error" }],
  ["output-available with a denied approval", {
    state: "output-available",
    output: 1,
    approval: { id: "a", approved: false },
  }],
  ["input-available with approval", { state: "input-available", approval: { id: "a" } }],
  ["input-available with output", { state: "input-available", output: 1 }],
  ["output-available with errorText", { state: "output-available", output: 1, errorText: "x" }],
  ["unknown state", { state: "done" }],
  ["empty toolCallId", { state: "input-available", toolCallId: "" }],
];

Deno.test("tool approval / state rules are enforced", () => {
  for (const [why, extra] of violations) {
    const part = { type: "tool-x", toolCallId: "c", input: {}, ...extra };
    assert.equal(chatPart.safeParse(part).success, false, why);
    const dyn = { ...part, type: "dynamic-tool", toolName: "x" };
    assert.equal(chatPart.safeParse(dyn).success, false, `dynamic: ${why}`);
  }
});

Deno.test("ai's safeValidateUIMessages accepts our messages unchanged and rejects our violations", async () => {
  const ours = handBuiltMessages();
  const bad = violations
    .filter(([why]) => why !== "empty toolCallId") // ai allows an empty toolCallId; we are stricter
    .map(([, extra]) => [{
      id: "m",
      role: "assistant",
      parts: [{ type: "tool-x", toolCallId: "c", input: {}, ...extra }],
    }]);
  const [res] = await askAi([{ op: "validate", messages: [ours, ...bad] }]) as [
    { success: boolean; data?: unknown; error?: string }[],
  ];
  assert.equal(res[0].success, true, res[0].error);
  assert.deepEqual(res[0].data, json(ours));
  res.slice(1).forEach((r, i) =>
    assert.equal(r.success, false, `ai accepted: ${JSON.stringify(bad[i])}`)
  );
});

Deno.test("data part names: identifiers only", () => {
  for (const ok of ["data-gate_ref", "data-_x", "data-slot", "data-A1"]) {
    assert.ok(isDataPartType(ok), ok);
  }
  for (const no of ["data-gate-ref", "data-a.b", "data-1abc", "data-", "data", "data-é"]) {
    assert.ok(!isDataPartType(no), no);
  }
  assert.ok(DATA_PART_KEY_PATTERN.test("data-x"));
  const good = createDataPart("gate_ref", { g: 1 }, "id1");
  assert.ok(good.ok);
  assert.deepEqual(good.value, { type: "data-gate_ref", id: "id1", data: { g: 1 } });
  for (const name of ["gate-ref", "a.b", "1abc", "", "x y"]) {
    const r = createDataPart(name, 1);
    assert.ok(!r.ok);
    assert.equal(r.error.code, "invalid-data-part-name");
  }
  assert.equal(chatPart.safeParse({ type: "data-gate-ref", data: 1 }).success, false);
  assert.equal(chatPart.safeParse({ type: "data-x" }).success, false, "data is required");
});

Deno.test("tool type pattern and other part refusals", () => {
  assert.ok(isToolPartType("tool-gate-x"));
  assert.ok(!isToolPartType("tool-"));
  assert.equal(
    chatPart.safeParse({ type: "tool-", toolCallId: "c", state: "input-available" }).success,
    false,
  );
  assert.equal(
    chatPart.safeParse({ type: "text", text: "x", providerMetadata: { a: 1 } }).success,
    false,
  );
  assert.equal(chatPart.safeParse({ type: "custom", kind: "x" }).success, false);
  assert.equal(
    chatPart.safeParse({ type: "reasoning-file", url: "u", mediaType: "m" }).success,
    false,
  );
  assert.equal(chatPart.safeParse(null).success, false);
  assert.equal(uiMessage.safeParse({ id: "u", role: "user", parts: [] }).success, false);
  assert.equal(uiMessage.safeParse({ id: "a", role: "assistant", parts: [] }).success, true);
  assert.equal(uiMessage.safeParse({ id: "t", role: "tool", parts: [] }).success, false);
});

Deno.test("input / output / rawInput presence rules agree with ai's safeValidateUIMessages", async () => {
  const tool = (state: string, extra: Record<string, unknown>) => ({
    type: "tool-x",
    toolCallId: "c",
    state,
    ...extra,
  });
  const granted = { id: "a", approved: true };
  const cases: [Record<string, unknown>, boolean][] = [
    [tool("input-available", {}), false],
    [tool("approval-requested", { approval: { id: "a" } }), false],
    [tool("approval-responded", { approval: granted }), false],
    [tool("output-available", { output: 1 }), false],
    [tool("output-available", { input: {} }), false],
    [tool("output-denied", { approval: { id: "a", approved: false } }), false],
    [tool("input-streaming", { rawInput: 5 }), false],
    [tool("input-streaming", {}), true],
    [tool("input-streaming", { rawInput: '{"a":' }), true],
    [tool("output-error", { errorText: "e" }), true],
    [tool("output-error", { errorText: "e", rawInput: 5 }), true],
    [tool("input-available", { input: null }), true],
    [tool("output-available", { input: {}, output: null }), true],
  ];
  const msgs = cases.map(([p]) => [{ id: "m", role: "assistant", parts: [p] }]);
  const [res] = await askAi([{ op: "validate", messages: msgs }]) as [{ success: boolean }[]];
  cases.forEach(([p, valid], i) => {
    assert.equal(chatPart.safeParse(p).success, valid, `ours: ${JSON.stringify(p)}`);
    const dyn = { ...p, type: "dynamic-tool", toolName: "x" };
    assert.equal(chatPart.safeParse(dyn).success, valid, `ours: ${JSON.stringify(dyn)}`);
    assert.equal(res[i].success, valid, `ai: ${JSON.stringify(p)}`);
  });
});
