/**
 * v1 ↔ AI SDK UI message stream adapters, checked against the real
 * `readUIMessageStream` and the v1 parser / fold.
 */
import assert from "node:assert/strict";
import { foldChatState, parseChatEnvelope } from "../../mod.ts";
import {
  detectAiSdkStream,
  foldUIMessage,
  isUIMessageChunk,
  uiMessageChunksToV1,
  V1ToUIMessageChunks,
  v1ToUIMessageChunks,
} from "../../ai_sdk.ts";
import { assertGolden } from "../_helpers/golden.ts";
import { askAi, json } from "./_oracle_client.ts";

const read = (p: string) =>
  JSON.parse(Deno.readTextFileSync(new URL(`../../fixtures/${p}`, import.meta.url)));
const TURNS = ["v1_turn", "v1_turn_error", "v1_turn_cancelled"];
const CAPTURES = [
  "approval_request",
  "plain_text",
  "reasoning",
  "stream_error",
  "tool_error",
  "tool_two_steps",
];
const capture = (n: string) =>
  detectAiSdkStream(
    Deno.readTextFileSync(new URL(`../../fixtures/ai-sdk/${n}.sse`, import.meta.url)),
  )!.chunks;

function allocator(conversationId = "conv-9", turnId = "turn-9") {
  let n = 0;
  return { conversationId, turnId, nextEventId: () => `ev-${++n}` };
}

Deno.test("fixtures: every v1 envelope passes the v1 parser", () => {
  for (const t of TURNS) {
    for (const env of read(`message/${t}.json`)) {
      assert.ok(parseChatEnvelope(env).ok, `${t} ${env.seq}`);
    }
  }
});

Deno.test("v1 → chunks: golden wire shapes, every chunk valid for us and for ai", async () => {
  const all: unknown[] = [];
  for (const t of TURNS) {
    const { chunks, refused } = v1ToUIMessageChunks(read(`message/${t}.json`));
    assert.deepEqual(refused, []);
    assert.ok(chunks.every(isUIMessageChunk));
    await assertGolden(`message/${t}.ui_chunks.json`, chunks);
    all.push(...chunks);
  }
  const [verdicts] = await askAi([{ op: "chunk", chunks: all }]) as [boolean[]];
  assert.ok(verdicts.every(Boolean), "ai's uiMessageChunkSchema accepts every chunk");
});

Deno.test("v1 → chunks → real readUIMessageStream equals our fold (of chunks and of v1)", async () => {
  const streams = TURNS.map((t) => v1ToUIMessageChunks(read(`message/${t}.json`)).chunks);
  const [answers] = await askAi([{ op: "fold", streams }]) as [
    { message: unknown; error: string | null }[],
  ];
  TURNS.forEach((t, i) => {
    const fromChunks = foldUIMessage(streams[i]);
    const fromV1 = foldUIMessage(read(`message/${t}.json`));
    assert.deepEqual(fromChunks.issues, [], t);
    assert.deepEqual(fromV1.issues, [], t);
    assert.deepEqual(json(fromChunks.message), answers[i].message, t);
    assert.deepEqual(json(fromV1.message), answers[i].message, t);
  });
  // the main turn, spelled out
  const m = json(foldUIMessage(read("message/v1_turn.json")).message);
  await assertGolden("message/v1_turn.ui_message.json", m);
  assert.equal(m.id, "turn-1");
  assert.deepEqual(m.metadata, {
    conversationId: "conv-1",
    turnId: "turn-1",
    sessionId: "s1",
    provenance: { engine: "loop", model: "claude-x", provider: "anthropic" },
    status: "completed",
    stopReason: "stop",
    usage: { totalTokens: 42 },
  });
  assert.deepEqual(
    m.parts.map((p) => p.type),
    // content after a tool result opens a new step, as an AI SDK agent loop does
    [
      "step-start",
      "reasoning",
      "text",
      "tool-weather",
      "step-start",
      "tool-calendar",
      "step-start",
      "text",
      "data-state",
      "data-card",
    ],
  );
  assert.equal(answers[1].error, "Error: provider overloaded");
});

Deno.test("v1 → chunks refuses bad, foreign, out-of-order and post-terminal envelopes", () => {
  const turn = read("message/v1_turn.json");
  const a = new V1ToUIMessageChunks();
  assert.ok(a.push(turn[0]).ok);
  const dup = a.push(turn[0]);
  assert.ok(!dup.ok && dup.error.code === "duplicate");
  const gap = a.push(turn[2]);
  assert.ok(!gap.ok && gap.error.code === "gap");
  const other = a.push({ ...turn[1], turnId: "other" });
  assert.ok(!other.ok && other.error.code === "foreign-turn");
  const otherConversation = a.push({ ...turn[1], conversationId: "elsewhere" });
  assert.ok(!otherConversation.ok && otherConversation.error.code === "foreign-conversation");
  const notV1 = a.push({ ...turn[1], event: { type: "state", version: 1 } }); // no snapshot key
  assert.ok(!notV1.ok && notV1.error.code === "invalid-envelope");
  const bad = a.push({ ...turn[1], event: { type: "delta" } });
  assert.ok(!bad.ok && bad.error.code === "invalid-envelope");
  const unknown = a.push({ ...turn[1], event: { type: "teleport" } });
  assert.ok(!unknown.ok && unknown.error.code === "invalid-envelope");
  for (const env of turn.slice(1)) assert.ok(a.push(env).ok);
  const late = a.push({ ...turn[0], eventId: "new", seq: turn.length + 1 });
  assert.ok(!late.ok && late.error.code === "after-terminal");
  const resent = a.push(turn.at(-1)); // a re-sent terminal event is a duplicate, not after-terminal
  assert.ok(!resent.ok && resent.error.code === "duplicate");
  const r = foldUIMessage([...turn.slice(0, 3), 7, turn[3]]);
  assert.deepEqual(r.issues.map((i) => [i.index, i.code]), [[3, "invalid-chunk"]]);
});

Deno.test("chunks → v1: host ids, seq from 1, valid envelopes, v1 fold agrees with the UI fold", async () => {
  for (const name of CAPTURES) {
    const chunks = capture(name);
    const { envelopes, issues } = uiMessageChunksToV1(chunks, allocator());
    envelopes.forEach((e, i) => {
      assert.equal(e.seq, i + 1);
      assert.equal(e.eventId, `ev-${i + 1}`);
      assert.equal(e.conversationId, "conv-9");
      assert.equal(e.turnId, "turn-9");
      assert.equal(e.at, undefined);
      assert.ok(parseChatEnvelope(e).ok, `${name} #${i}`);
    });
    const ui = foldUIMessage(chunks).message;
    const text = ui.parts.filter((p) => p.type === "text").map((p) => (p as { text: string }).text)
      .join("");
    const reasoning = ui.parts.filter((p) => p.type === "reasoning").map((p) =>
      (p as { text: string }).text
    )
      .join("");
    const { state, refusals } = foldChatState(envelopes);
    assert.deepEqual(refusals, [], name);
    assert.equal(state!.text, text, name);
    assert.equal(state!.reasoning, reasoning, name);
    const tools = ui.parts.filter((p) => p.type.startsWith("tool-")).length;
    assert.equal(state!.tools.length, tools, name);
    if (name === "approval_request") {
      assert.deepEqual(issues.map((i) => i.message), ["tool-approval-request has no v1 event"]);
    } else assert.deepEqual(issues, [], name);
    await assertGolden(`message/${name}.v1.json`, envelopes);
  }
});

Deno.test("chunks → v1 → chunks keeps text, reasoning and tool outcomes (checked by ai)", async () => {
  const back = CAPTURES.map((n) =>
    v1ToUIMessageChunks(uiMessageChunksToV1(capture(n), allocator()).envelopes).chunks
  );
  const [answers] = await askAi([{ op: "fold", streams: back }]) as [
    { message: { parts: unknown[] } }[],
  ];
  CAPTURES.forEach((n, i) => {
    const orig = foldUIMessage(capture(n)).message.parts;
    const summary = (parts: unknown[]) =>
      (parts as {
        type: string;
        text?: string;
        state?: string;
        output?: unknown;
        errorText?: string;
      }[])
        .filter((p) => p.type !== "step-start")
        .map((p) =>
          p.type === "text" || p.type === "reasoning"
            ? `${p.type}:${p.text}`
            : `${p.type}:${p.state === "approval-requested" ? "input-available" : p.state}`
        );
    assert.deepEqual(summary(answers[i].message.parts), summary(orig), n);
    assert.deepEqual(json(foldUIMessage(back[i]).message), answers[i].message, n);
  });
});

Deno.test("chunks → v1: preliminary outputs, unknown tools and post-finish chunks are reported", () => {
  const { envelopes, issues } = uiMessageChunksToV1([
    { type: "tool-input-available", toolCallId: "a", toolName: "t", input: 1 },
    { type: "tool-output-available", toolCallId: "a", output: 1, preliminary: true },
    { type: "tool-output-available", toolCallId: "zz", output: 1 },
    { type: "data-x", data: 1 },
    { type: "abort", reason: "stop" },
    { type: "text-delta", id: "t", delta: "late" },
    { nope: 1 },
  ], allocator());
  assert.deepEqual(envelopes.map((e) => e.event.type), ["tool_call", "turn_status"]);
  assert.deepEqual(issues.map((i) => [i.index, i.code]), [
    [1, "unsupported-chunk"],
    [2, "orphan-chunk"],
    [3, "unsupported-chunk"],
    [5, "orphan-chunk"],
    [6, "invalid-chunk"],
  ]);
});

Deno.test("chunks → v1: an errored AI SDK stream (error, finish-step, finish) maps cleanly", () => {
  // streamText closes a failed step with finish-step + finish (finishReason "error")
  const { envelopes, issues } = uiMessageChunksToV1([
    { type: "start", messageId: "m" },
    { type: "start-step" },
    { type: "text-start", id: "t" },
    { type: "text-delta", id: "t", delta: "Hel" },
    { type: "error", errorText: "provider overloaded" },
    { type: "finish-step" },
    { type: "finish", finishReason: "error" },
    { type: "text-delta", id: "t", delta: "late" },
  ], allocator());
  assert.deepEqual(envelopes.map((e) => e.event), [
    { type: "delta", text: "Hel" },
    { type: "error", message: "provider overloaded", retryable: false },
  ]);
  assert.deepEqual(envelopes.map((e) => parseChatEnvelope(e).ok), [true, true]);
  // only the content after the end is reported, not the AI SDK's own closing finish
  assert.deepEqual(issues.map((i) => [i.index, i.code]), [[7, "orphan-chunk"]]);
});

Deno.test("chunks → v1: a call id reused in a later step is reported, and the turn stays valid v1", () => {
  const { envelopes, issues } = uiMessageChunksToV1([
    { type: "start", messageId: "m" },
    { type: "start-step" },
    { type: "tool-input-available", toolCallId: "c1", toolName: "a", input: {} },
    { type: "tool-output-available", toolCallId: "c1", output: 1 },
    { type: "finish-step" },
    { type: "start-step" },
    { type: "tool-input-start", toolCallId: "c1", toolName: "a" },
    { type: "tool-input-available", toolCallId: "c1", toolName: "a", input: { x: 1 } },
    { type: "tool-output-available", toolCallId: "c1", output: 2 },
    { type: "tool-input-error", toolCallId: "c1", toolName: "a", input: {}, errorText: "e" },
    { type: "finish" },
  ], allocator());
  assert.deepEqual(envelopes.map((e) => e.event.type), ["tool_call", "tool_result", "done"]);
  assert.deepEqual(issues.map((i) => [i.index, i.code]), [
    [6, "unsupported-chunk"],
    [7, "orphan-chunk"],
    [8, "unsupported-chunk"],
    [9, "unsupported-chunk"],
  ]);
  const { state, refusals } = foldChatState(envelopes);
  assert.deepEqual(refusals, []);
  assert.equal(state!.status, "completed");
});
