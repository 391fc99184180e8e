/**
 * The fold's behaviour where the anchors fail: replay without duplication,
 * no adoption of another message, reused tool call ids, bad chunks reported
 * and skipped; plus the remaining chunk kinds, bounds and incremental use.
 */
import assert from "node:assert/strict";
import { detectAiSdkStream, foldUIMessage, UIMessageFold } from "../../ai_sdk.ts";
import { type UIMessage, uiMessage } from "../../message.ts";
import { json } from "./_oracle_client.ts";

const DIR = new URL("../../fixtures/ai-sdk/", import.meta.url);
const capture = (name: string) =>
  detectAiSdkStream(Deno.readTextFileSync(new URL(`${name}.sse`, DIR)))!.chunks;
const expected = (name: string) =>
  JSON.parse(Deno.readTextFileSync(new URL(`${name}.expected.json`, DIR)));

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === "object") {
    Object.freeze(v);
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
  }
  return v;
}

Deno.test("fault 1: replaying a stream onto a persisted partial message does not duplicate text", () => {
  const chunks = capture("tool_two_steps");
  // persisted while streaming: the first 7 chunks (text done, tool input streaming)
  const partial = deepFreeze(json(foldUIMessage(chunks.slice(0, 7)).message));
  assert.equal((partial.parts[1] as { text: string }).text, "Let me check.");
  const before = JSON.stringify(partial);
  const r = foldUIMessage(chunks, { message: partial, replay: true });
  assert.deepEqual(r.issues, []);
  assert.deepEqual(json(r.message), expected("tool_two_steps"));
  const texts = r.message.parts.filter((p) => p.type === "text").map((p) =>
    (p as { text: string }).text
  );
  assert.deepEqual(texts, ["Let me check.", "It is 18°C in Paris."]);
  assert.equal(JSON.stringify(partial), before, "persisted message not mutated");
});

Deno.test("fault 1 (contrast): without replay, the stream continues the message", () => {
  const first = json(foldUIMessage(capture("plain_text")).message);
  const r = foldUIMessage([
    { type: "start", messageId: "msg-plain_text" },
    { type: "start-step" },
    { type: "text-start", id: "t9" },
    { type: "text-delta", id: "t9", delta: "More." },
    { type: "text-end", id: "t9" },
  ], { message: first });
  assert.deepEqual(
    r.message.parts.map((p) => p.type === "text" ? p.text : p.type),
    ["step-start", "Hello, world!", "step-start", "More."],
  );
});

Deno.test("fault 1: a replay that diverges supersedes the stale persisted tail", () => {
  const persisted: UIMessage = {
    id: "m",
    role: "assistant",
    parts: [{ type: "step-start" }, { type: "text", text: "old", state: "streaming" }, {
      type: "tool-x",
      toolCallId: "c",
      state: "input-available",
      input: {},
    }],
  };
  const r = foldUIMessage([
    { type: "start", messageId: "m" },
    { type: "start-step" },
    { type: "reasoning-start", id: "r" },
    { type: "reasoning-delta", id: "r", delta: "new" },
  ], { message: persisted, replay: true });
  assert.deepEqual(json(r.message.parts), [
    { type: "step-start" },
    { type: "reasoning", id: "r", text: "new", state: "streaming" },
  ]);
});

Deno.test("fault 2: a start chunk for another message id does not adopt the previous turn's message", () => {
  const previous = deepFreeze(json(foldUIMessage(capture("reasoning")).message));
  const r = foldUIMessage(capture("plain_text"), { message: previous });
  assert.equal(r.message.id, "msg-plain_text");
  assert.deepEqual(json(r.message), expected("plain_text"));
  assert.ok(!r.message.parts.some((p) => p.type === "reasoning"));
  // two messages in one stream: the result is the last one, clean
  const two = foldUIMessage([...capture("reasoning"), ...capture("plain_text")]);
  assert.deepEqual(json(two.message), expected("plain_text"));
});

Deno.test("fault 2: a non-assistant message is never continued", () => {
  const user: UIMessage = { id: "u1", role: "user", parts: [{ type: "text", text: "hi" }] };
  const r = foldUIMessage([{ type: "text-start", id: "t" }, {
    type: "text-delta",
    id: "t",
    delta: "x",
  }], {
    message: user,
  });
  assert.equal(r.message.role, "assistant");
  assert.deepEqual(json(r.message.parts), [{ type: "text", text: "x", state: "streaming" }]);
});

Deno.test("fault 3: a tool call id reused in a later step does not overwrite the earlier part", () => {
  const r = foldUIMessage([
    { type: "start", messageId: "m" },
    { type: "start-step" },
    {
      type: "tool-input-available",
      toolCallId: "c1",
      toolName: "weather",
      input: { city: "Paris" },
    },
    { type: "tool-output-available", toolCallId: "c1", output: { tempC: 18 } },
    { type: "finish-step" },
    { type: "start-step" },
    {
      type: "tool-input-available",
      toolCallId: "c1",
      toolName: "weather",
      input: { city: "Oslo" },
    },
    { type: "tool-output-available", toolCallId: "c1", output: { tempC: 3 } },
    { type: "finish-step" },
    { type: "finish" },
  ]);
  assert.deepEqual(r.issues, []);
  const tools = r.message.parts.filter((p) => p.type === "tool-weather") as {
    input: unknown;
    output: unknown;
    state: string;
  }[];
  assert.equal(tools.length, 2);
  assert.deepEqual(tools.map((t) => [t.input, t.output, t.state]), [
    [{ city: "Paris" }, { tempC: 18 }, "output-available"],
    [{ city: "Oslo" }, { tempC: 3 }, "output-available"],
  ]);
});

Deno.test("fault 3: an approval id reused later resolves to the latest part", () => {
  const r = foldUIMessage([
    { type: "start-step" },
    { type: "tool-input-available", toolCallId: "a", toolName: "rm", input: {} },
    { type: "tool-approval-request", approvalId: "ap", toolCallId: "a" },
    { type: "tool-approval-response", approvalId: "ap", approved: false, reason: "no" },
    { type: "tool-output-denied", toolCallId: "a" },
    { type: "start-step" },
    { type: "tool-input-available", toolCallId: "b", toolName: "rm", input: {} },
    { type: "tool-approval-request", approvalId: "ap", toolCallId: "b" },
    { type: "tool-approval-response", approvalId: "ap", approved: true },
  ]);
  const [a, b] = r.message.parts.filter((p) => p.type === "tool-rm") as {
    state: string;
    approval: unknown;
  }[];
  assert.equal(a.state, "output-denied");
  assert.deepEqual(a.approval, { id: "ap", approved: false, reason: "no" });
  assert.equal(b.state, "approval-responded");
  assert.deepEqual(b.approval, { id: "ap", approved: true });
});

Deno.test("fault 4: bad and unknown chunks are reported with their index; the rest folds", () => {
  const good = capture("plain_text");
  const stream: unknown[] = [
    good[0],
    good[1],
    { type: "text-delta" }, // 2: invalid (no id/delta)
    42, // 3: not an object
    { type: "mystery" }, // 4: unknown
    { type: "custom", kind: "x" }, // 5: ai-only kind
    { type: "text-delta", id: "nope", delta: "x" }, // 6: orphan
    ...good.slice(2),
    { type: "tool-output-available", toolCallId: "ghost", output: 1 }, // 13: orphan
  ];
  const r = foldUIMessage(stream);
  assert.deepEqual(r.issues.map((i) => [i.index, i.code]), [
    [2, "invalid-chunk"],
    [3, "invalid-chunk"],
    [4, "invalid-chunk"],
    [5, "unsupported-chunk"],
    [6, "orphan-chunk"],
    [14, "orphan-chunk"],
  ]);
  assert.deepEqual(json(r.message), expected("plain_text"));
  assert.equal(r.count, stream.length);
});

Deno.test("inherited properties do not make a chunk valid; __proto__ metadata does not pollute", () => {
  const proto = { type: "text-start", id: "t" };
  const sneaky = Object.create(proto);
  const meta = JSON.parse(
    '{"type":"message-metadata","messageMetadata":{"__proto__":{"polluted":1},"a":1}}',
  );
  const r = foldUIMessage([
    sneaky,
    { type: "start", messageMetadata: { b: { c: 1 } } },
    meta,
  ]);
  assert.equal(r.issues.length, 1);
  assert.equal(r.issues[0].index, 0);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(Object.getPrototypeOf(r.message.metadata), Object.prototype);
  // merged metadata skips prototype keys (as ai's mergeObjects does)
  assert.deepEqual(json(r.message.metadata), { a: 1, b: { c: 1 } });
});

Deno.test("reset-step drops the current step's parts and their lookups", () => {
  const r = foldUIMessage([
    { type: "start-step" },
    { type: "text-start", id: "t" },
    { type: "text-delta", id: "t", delta: "keep" },
    { type: "text-end", id: "t" },
    { type: "finish-step" },
    { type: "start-step" },
    { type: "tool-input-available", toolCallId: "c", toolName: "x", input: 1 },
    { type: "reset-step" },
    { type: "tool-output-available", toolCallId: "c", output: 2 },
    { type: "text-start", id: "u" },
    { type: "text-delta", id: "u", delta: "again" },
  ]);
  assert.deepEqual(r.issues.map((i) => [i.index, i.code]), [[8, "orphan-chunk"]]);
  assert.deepEqual(json(r.message.parts), [
    { type: "step-start" },
    { type: "text", text: "keep", state: "done" },
    { type: "step-start" },
    { type: "text", text: "again", state: "streaming" },
  ]);
});

Deno.test("data parts: upsert by type+id, transient skipped; sources, files, metadata, finish", () => {
  const r = foldUIMessage([
    { type: "start", messageId: "m", messageMetadata: { a: 1 } },
    { type: "data-weather", id: "w", data: { s: "loading" } },
    { type: "data-weather", id: "w", data: { s: "done" } },
    { type: "data-note", data: 1, transient: true },
    { type: "data-log", data: "x" },
    { type: "source-url", sourceId: "s1", url: "https://e.x", title: "E" },
    { type: "source-document", sourceId: "s2", mediaType: "application/pdf", title: "D" },
    { type: "file", url: "data:,x", mediaType: "text/plain" },
    { type: "error", errorText: "boom" },
    { type: "abort", reason: "user" },
    { type: "finish", finishReason: "stop", messageMetadata: { b: 2 } },
  ]);
  assert.deepEqual(json(r.message), {
    id: "m",
    role: "assistant",
    metadata: { a: 1, b: 2 },
    parts: [
      { type: "data-weather", id: "w", data: { s: "done" } },
      { type: "data-log", data: "x" },
      { type: "source-url", sourceId: "s1", url: "https://e.x", title: "E" },
      { type: "source-document", sourceId: "s2", mediaType: "application/pdf", title: "D" },
      { type: "file", url: "data:,x", mediaType: "text/plain" },
    ],
  });
  assert.deepEqual(r.errors, ["boom"]);
  assert.equal(r.aborted, true);
  assert.equal(r.finishReason, "stop");
});

Deno.test("bounds: maxParts and maxChars refuse with a limit issue", () => {
  const many = Array.from({ length: 10 }, () => ({ type: "start-step" }));
  const r = foldUIMessage(many, { maxParts: 3 });
  assert.equal(r.message.parts.length, 3);
  assert.equal(r.issues.filter((i) => i.code === "limit").length, 7);
  const t = foldUIMessage([
    { type: "text-start", id: "t" },
    { type: "text-delta", id: "t", delta: "12345" },
    { type: "text-delta", id: "t", delta: "678" },
  ], { maxChars: 6 });
  assert.equal((t.message.parts[0] as { text: string }).text, "12345");
  assert.deepEqual(t.issues.map((i) => [i.index, i.code]), [[2, "limit"]]);
  const capped = foldUIMessage(Array.from({ length: 50 }, () => 1), { maxIssues: 5 });
  assert.equal(capped.issues.length, 5);
  assert.equal(capped.droppedIssues, 45);
});

Deno.test("incremental fold: result() mid-stream then more chunks", () => {
  const chunks = capture("tool_two_steps");
  const f = new UIMessageFold();
  chunks.slice(0, 7).forEach((c) => f.push(c));
  const early = f.result().message.parts.find((p) => p.type === "tool-weather") as {
    input: unknown;
  };
  assert.deepEqual(early.input, {}); // '{"city":' shows as {}
  f.push(chunks[7]);
  const mid = json(f.result().message);
  const tool = mid.parts.find((p) => p.type === "tool-weather") as {
    state: string;
    input: unknown;
  };
  assert.equal(tool.state, "input-streaming");
  assert.deepEqual(tool.input, { city: "Paris" });
  chunks.slice(8).forEach((c) => f.push(c));
  assert.deepEqual(json(f.result().message), expected("tool_two_steps"));
});

Deno.test("dynamic tools, tool-input-error and approval flow fold like ai's rules", () => {
  const r = foldUIMessage([
    { type: "start-step" },
    {
      type: "tool-input-start",
      toolCallId: "d",
      toolName: "mcp_search",
      dynamic: true,
      title: "Search",
    },
    { type: "tool-input-delta", toolCallId: "d", inputTextDelta: '{"q":"x"}' },
    {
      type: "tool-input-available",
      toolCallId: "d",
      toolName: "mcp_search",
      input: { q: "x" },
      dynamic: true,
    },
    { type: "tool-output-available", toolCallId: "d", output: ["r"], dynamic: true },
    {
      type: "tool-input-error",
      toolCallId: "e",
      toolName: "calc",
      input: "1/",
      errorText: "bad input",
    },
  ]);
  assert.deepEqual(json(r.message.parts), [
    { type: "step-start" },
    {
      type: "dynamic-tool",
      toolName: "mcp_search",
      toolCallId: "d",
      state: "output-available",
      title: "Search",
      input: { q: "x" },
      output: ["r"],
    },
    {
      type: "tool-calc",
      toolCallId: "e",
      state: "output-error",
      input: "1/",
      errorText: "bad input",
    },
  ]);
});

Deno.test("a non-identifier data chunk is refused (invalid-chunk), so the folded message passes our schema (documented)", () => {
  const r = foldUIMessage([
    { type: "start", messageId: "m" },
    { type: "data-gate-ref", data: 1 },
    { type: "data-gate_ref", data: 2 },
  ]);
  assert.deepEqual(r.issues.map((i) => [i.code, i.index]), [["invalid-chunk", 1]]);
  assert.deepEqual(r.message.parts.map((p) => p.type), ["data-gate_ref"]);
  assert.equal(uiMessage.safeParse(r.message).success, true);
});

Deno.test("a malformed persisted message is reported (index -1), never thrown on", () => {
  const chunks = [
    { type: "start-step" },
    { type: "text-start", id: "t" },
    { type: "text-delta", id: "t", delta: "ok" },
  ];
  const bad = [
    { id: "m", role: "assistant", parts: null },
    { id: "m", role: "assistant", parts: [null, { type: 5 }, { type: "text", text: "kept" }] },
    "not a message",
    { role: "assistant", parts: [] },
  ];
  for (const replay of [false, true]) {
    for (const message of bad) {
      const r = foldUIMessage(chunks, { message: message as unknown as UIMessage, replay });
      assert.ok(r.issues.length > 0, JSON.stringify(message));
      assert.ok(r.issues.every((i) => i.index === -1 && i.code === "invalid-chunk"));
      assert.equal(typeof r.message.id, "string");
      assert.deepEqual(r.message.parts.at(-1), { type: "text", text: "ok", state: "streaming" });
    }
  }
  const kept = foldUIMessage(chunks, {
    message: { id: "m", role: "assistant", parts: [null, { type: "text", text: "kept" }] } as never,
  });
  assert.deepEqual(kept.message.parts.map((p) => p.type === "text" ? p.text : p.type), [
    "kept",
    "step-start",
    "ok",
  ]);
  assert.deepEqual(kept.issues.map((i) => i.index), [-1]);
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const r = foldUIMessage(chunks, { message: revoked.proxy as never });
  assert.deepEqual(r.issues.map((i) => [i.index, i.code]), [[-1, "invalid-chunk"]]);
});
