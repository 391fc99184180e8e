/**
 * Golden: our fold equals the real AI SDK `readUIMessageStream` on every real
 * capture in fixtures/ai-sdk/ (made by scripts/update_fixtures.ts), and the
 * stored expectations still match what the installed `ai` computes.
 */
import assert from "node:assert/strict";
import { createParser } from "eventsource-parser";
import {
  detectAiSdkStream,
  foldUIMessage,
  foldUIMessageChunks,
  foldUIMessageStream,
} from "../../ai_sdk.ts";
import { askAi, json } from "./_oracle_client.ts";

const DIR = new URL("../../fixtures/ai-sdk/", import.meta.url);
const names = [...Deno.readDirSync(DIR)]
  .filter((e) => e.name.endsWith(".sse"))
  .map((e) => e.name.slice(0, -4))
  .sort();

function load(name: string) {
  const sse = Deno.readTextFileSync(new URL(`${name}.sse`, DIR));
  const expected = JSON.parse(Deno.readTextFileSync(new URL(`${name}.expected.json`, DIR)));
  return { sse, expected };
}

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === "object") {
    Object.freeze(v);
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
  }
  return v;
}

Deno.test("fixtures cover the five required scenarios and a provider error", () => {
  assert.deepEqual(names, [
    "approval_request",
    "plain_text",
    "reasoning",
    "stream_error",
    "tool_error",
    "tool_two_steps",
  ]);
});

for (const name of names) {
  Deno.test(`golden fold: ${name} equals readUIMessageStream`, async () => {
    const { sse, expected } = load(name);
    const summary = detectAiSdkStream(sse);
    assert.ok(summary, "capture recognised");
    assert.equal(summary.done, true);
    assert.deepEqual(summary.issues, []);
    assert.equal(summary.messageId, `msg-${name}`);
    const chunks = deepFreeze(summary.chunks);
    const before = JSON.stringify(chunks);
    const r = foldUIMessageChunks(chunks);
    assert.deepEqual(r.issues, []);
    assert.deepEqual(json(r.message), expected);
    assert.equal(JSON.stringify(chunks), before, "input not mutated");
    // same through the async entry point
    const viaStream = await foldUIMessageStream(ReadableStream.from(chunks));
    assert.deepEqual(json(viaStream.message), expected);
  });
}

Deno.test("our SSE recogniser reads the same events as eventsource-parser", () => {
  for (const name of names) {
    const { sse } = load(name);
    const data: string[] = [];
    const p = createParser({ onEvent: (e) => data.push(e.data) });
    p.feed(sse);
    const ours = detectAiSdkStream(sse)!;
    const theirs = data.filter((d) => d !== "[DONE]").map((d) => JSON.parse(d));
    assert.deepEqual(ours.chunks, theirs, name);
  }
});

Deno.test("stored expectations equal what the installed ai computes now", async () => {
  const streams = names.map((n) => detectAiSdkStream(load(n).sse)!.chunks);
  const [answers] = await askAi([{ op: "fold", streams }]) as [
    { message: unknown; error: string | null }[],
  ];
  names.forEach((n, i) => {
    assert.equal(answers[i].error, n === "stream_error" ? "Error: provider overloaded" : null, n);
    assert.deepEqual(answers[i].message, load(n).expected, n);
  });
});

Deno.test("a real errored stream: the error is reported, the partial text kept", () => {
  const r = foldUIMessageChunks(detectAiSdkStream(load("stream_error").sse)!.chunks);
  assert.deepEqual(r.errors, ["provider overloaded"]);
  assert.equal(r.finishReason, "error");
  assert.deepEqual(r.issues, []);
  assert.deepEqual(r.message.parts.at(-1), {
    type: "text",
    text: "Let me think",
    state: "streaming",
  });
});

Deno.test("fold of a tool stream cut mid-input shows the partial input like ai", async () => {
  const cut = [
    { type: "start", messageId: "m" },
    { type: "start-step" },
    { type: "tool-input-start", toolCallId: "c1", toolName: "weather" },
    { type: "tool-input-delta", toolCallId: "c1", inputTextDelta: '{"city":"Par' },
  ];
  const cut2 = [...cut, {
    type: "tool-input-delta",
    toolCallId: "c1",
    inputTextDelta: 'is","days":[1,2',
  }];
  const cut3 = [...cut, {
    type: "tool-input-delta",
    toolCallId: "c1",
    inputTextDelta: 'is","n":tr',
  }];
  const [answers] = await askAi([{ op: "fold", streams: [cut, cut2, cut3] }]) as [
    { message: unknown }[],
  ];
  assert.deepEqual(json(foldUIMessage(cut).message), answers[0].message);
  assert.deepEqual(json(foldUIMessage(cut2).message), answers[1].message);
  assert.deepEqual(json(foldUIMessage(cut3).message), answers[2].message);
});
