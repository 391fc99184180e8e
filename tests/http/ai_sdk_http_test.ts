/**
 * `uiMessageStreamResponse` against the AI SDK's own client over real HTTP:
 * `Chat` (headless `AbstractChat`) with `DefaultChatTransport`, and
 * `parseJsonEventStream` + `uiMessageChunkSchema` on the raw body. Covers a
 * whole turn, the approval round trip (pause, `addToolApprovalResponse`,
 * automatic send, continuation in the same message), resumption
 * (`resumeStream`: replay and 204), an error with its retry metadata and a
 * cancelled turn.
 */
import assert from "node:assert/strict";
import {
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  parseJsonEventStream,
  uiMessageChunkSchema,
} from "ai";
import { type ChatEventEnvelope, foldChatState } from "../../mod.ts";
import { MemoryReplayWindow } from "../../recovery.ts";
import { v1ToUIMessageChunks } from "../../ai_sdk.ts";
import { toHitlAnswers } from "../../message.ts";
import {
  type TurnSource,
  UI_MESSAGE_STREAM_HEADERS_V1,
  uiMessageStreamResponse,
} from "../../http.ts";
import { aiFold } from "../message/_peers.ts";
import { assertTextGolden, env, serve } from "./_server.ts";
import { HeadlessChat } from "../_helpers/headless_chat.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

const read = (p: string) =>
  JSON.parse(Deno.readTextFileSync(new URL(`../../fixtures/${p}`, import.meta.url)));

const Chat = HeadlessChat;

/** Wait until `cond` holds (the chat settles asynchronously). */
async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function windowOf(envs: readonly ChatEventEnvelope[]): MemoryReplayWindow {
  const w = new MemoryReplayWindow();
  for (const e of envs) assert.ok(w.append(e));
  return w;
}

Deno.test("the AI SDK's Chat reads a whole turn from uiMessageStreamResponse; the raw body passes parseJsonEventStream + uiMessageChunkSchema", async () => {
  const envs = read("message/v1_turn_full.json") as ChatEventEnvelope[];
  const source: TurnSource = {
    conversationId: "conv-1",
    turnId: "turn-full",
    window: windowOf(envs),
  };
  const server = serve((req) => uiMessageStreamResponse(req, source, { heartbeatMs: 0 }));
  try {
    const raw = await fetch(`${server.url}/api/chat`, { method: "POST", body: "{}" });
    for (const [k, v] of Object.entries(UI_MESSAGE_STREAM_HEADERS_V1)) {
      assert.equal(raw.headers.get(k), v, k);
    }
    const [forParse, forText] = raw.body!.tee();
    const parsed: unknown[] = [];
    const reader = parseJsonEventStream({ stream: forParse, schema: uiMessageChunkSchema })
      .getReader();
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      assert.ok(r.value.success, JSON.stringify(r.value));
      parsed.push(r.value.value);
    }
    const text = await new Response(forText).text();
    await assertTextGolden("http/v1_turn_full.ui_message_stream.sse", text);
    assert.ok(text.endsWith("data: [DONE]\n\n"));
    const expected = v1ToUIMessageChunks(envs).chunks;
    assert.deepEqual(parsed, JSON.parse(JSON.stringify(expected)));

    const chat = new Chat({
      id: "chat-1",
      transport: new DefaultChatTransport({ api: `${server.url}/api/chat` }),
    });
    await chat.sendMessage({ text: "status?" });
    await until(() => chat.status === "ready", "ready");
    assert.equal(chat.error, undefined);
    const last = chat.messages.at(-1) as Any;
    assert.deepEqual(JSON.parse(JSON.stringify(last)), (await aiFold(expected)).message);
    assert.equal(last.metadata.status, "completed");
    assert.equal(last.metadata.stopReason, "end_turn");
  } finally {
    await server.close();
  }
});

Deno.test("approval round trip: the response pauses at the approval, Chat answers it, the continuation extends the same message", async () => {
  const T = "turn-ap";
  const opening: ChatEventEnvelope[] = [
    env(1, { type: "delta", text: "I need your approval. " }, T),
    env(
      2,
      { type: "tool_call", callId: "call-del", name: "deleteFile", input: { path: "/tmp/x" } },
      T,
    ),
    env(3, {
      type: "card",
      card: {
        correlationId: "card-del",
        prompt: "Delete /tmp/x?",
        createdAt: Date.now(),
        approval: { title: "delete", question: "Delete /tmp/x?", body: ["/tmp/x"] },
        callId: "call-del",
      },
    }, T),
  ];
  const window = windowOf(opening);
  let wakeUp: (() => void) | null = null;
  const source: TurnSource = {
    conversationId: "c1",
    turnId: T,
    window,
    wake: (signal) =>
      new Promise((r) => {
        wakeUp = () => r(undefined);
        signal.addEventListener("abort", () => r(undefined), { once: true });
      }),
  };
  const requests: string[] = [];
  const server = serve(async (req) => {
    const body = await req.json();
    const lastAssistant = [...body.messages].reverse().find((m: Any) => m.role === "assistant");
    const answers = lastAssistant === undefined ? [] : toHitlAnswers(lastAssistant);
    requests.push(answers.map((a) => `${a.action}:${a.gateId}`).join(",") || "new");
    if (answers.length === 0) return uiMessageStreamResponse(req, source, { heartbeatMs: 0 });
    // the host resolves the answer against the OPEN card (here: it is card-del, open)
    const open = foldChatState(window.readAfter(T, 0)).state!.openCards.map((c) => c.correlationId);
    assert.deepEqual(open, ["card-del"]);
    assert.equal(answers[0].action, "accept");
    window.append(
      env(4, { type: "card_closed", correlationId: "card-del", resolution: "submitted" }, T),
    );
    window.append(
      env(5, {
        type: "tool_result",
        callId: "call-del",
        name: "deleteFile",
        ok: true,
        output: { deleted: true },
      }, T),
    );
    window.append(env(6, { type: "delta", text: "Deleted." }, T));
    window.append(env(7, { type: "done" }, T));
    return uiMessageStreamResponse(req, source, {
      heartbeatMs: 0,
      continuation: { cardIds: answers.map((a) => a.gateId) },
    });
  });
  try {
    const chat = new Chat({
      id: "chat-ap",
      transport: new DefaultChatTransport({ api: `${server.url}/api/chat` }),
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    });
    await chat.sendMessage({ text: "delete it" });
    await until(() => chat.status === "ready", "the paused response");
    let last = chat.messages.at(-1) as Any;
    const part = last.parts.find((p: Any) => p.type === "tool-deleteFile");
    assert.equal(part.state, "approval-requested");
    assert.equal(last.metadata.status, "awaiting-input");
    await chat.addToolApprovalResponse({ id: "card-del", approved: true });
    await until(
      () =>
        (chat.messages.at(-1) as Any).metadata?.status === "completed" && chat.status === "ready",
      "the continuation",
    );
    assert.deepEqual(requests, ["new", "accept:card-del"]);
    assert.equal(chat.messages.filter((m) => m.role === "assistant").length, 1, "one message");
    last = chat.messages.at(-1);
    const done = last.parts.find((p: Any) => p.type === "tool-deleteFile");
    assert.equal(done.state, "output-available");
    assert.deepEqual(done.output, { deleted: true });
    assert.equal(done.approval.approved, true);
    const texts = last.parts.filter((p: Any) => p.type === "text").map((p: Any) => p.text);
    assert.deepEqual(texts, ["I need your approval. ", "Deleted."]);
    assert.equal(wakeUp === null || typeof wakeUp === "function", true);
  } finally {
    await server.close();
  }
});

Deno.test("resumeStream: DefaultChatTransport's GET <api>/<id>/stream replays the message (204 when nothing runs)", async () => {
  const T = "turn-res";
  const envs = [
    env(1, { type: "delta", text: "Hello " }, T),
    env(2, { type: "delta", text: "again." }, T),
    env(3, { type: "done" }, T),
  ];
  const source: TurnSource = { conversationId: "c1", turnId: T, window: windowOf(envs) };
  let active = true;
  const server = serve((req) => {
    const url = new URL(req.url);
    assert.equal(req.method, "GET");
    assert.equal(url.pathname, "/api/chat/chat-res/stream");
    return active
      ? uiMessageStreamResponse(req, source, { heartbeatMs: 0 })
      : new Response(null, { status: 204 });
  });
  try {
    const chat = new Chat({
      id: "chat-res",
      transport: new DefaultChatTransport({ api: `${server.url}/api/chat` }),
    });
    // a page that reloaded mid-turn: a partial assistant message is replaced by the replay
    chat.messages = [
      { id: "u1", role: "user", parts: [{ type: "text", text: "hi" }] },
      { id: T, role: "assistant", parts: [{ type: "text", text: "Hel" }] },
    ];
    await chat.resumeStream();
    await until(() => chat.status === "ready", "ready");
    const texts = (chat.messages.at(-1) as Any).parts.filter((p: Any) => p.type === "text")
      .map((p: Any) => p.text);
    assert.deepEqual(texts, ["Hello again."]);
    assert.equal(chat.messages.length, 2);
    active = false;
    await chat.resumeStream();
    assert.equal(chat.status, "ready");
    assert.equal(chat.messages.length, 2);
  } finally {
    await server.close();
  }
});

Deno.test("an error reaches Chat with its retry permission, code and delay in the message metadata; a cancelled turn is no normal finish", async () => {
  const error = read("message/v1_turn_error.json") as ChatEventEnvelope[];
  const cancelled = read("message/v1_turn_cancelled.json") as ChatEventEnvelope[];
  const server = serve((req) => {
    const which = new URL(req.url).pathname.includes("error") ? error : cancelled;
    return uiMessageStreamResponse(req, {
      conversationId: which[0].conversationId,
      turnId: which[0].turnId,
      window: windowOf(which),
    }, { heartbeatMs: 0 });
  });
  try {
    const errors: string[] = [];
    const chat = new Chat({
      id: "x",
      transport: new DefaultChatTransport({ api: `${server.url}/error` }),
      onError: (e) => errors.push(e.message),
    });
    await chat.sendMessage({ text: "go" });
    await until(() => chat.status === "error", "error status");
    assert.deepEqual(errors, ["provider overloaded"]);
    const meta = (chat.messages.at(-1) as Any).metadata;
    assert.deepEqual(meta.error, {
      message: "provider overloaded",
      retryable: true,
      code: "overloaded",
      retryAfterMs: 1000,
    });
    let finish: string | undefined = "unset";
    const chat2 = new Chat({
      id: "y",
      transport: new DefaultChatTransport({ api: `${server.url}/cancel` }),
      onFinish: (o) => finish = o.finishReason,
    });
    await chat2.sendMessage({ text: "go" });
    await until(() => chat2.status === "ready" && finish !== "unset", "ready");
    assert.equal(finish, undefined, "no finish reason: the stream was aborted, not finished");
    assert.equal((chat2.messages.at(-1) as Any).metadata.status, "cancelled");
  } finally {
    await server.close();
  }
});

Deno.test("continuation refusals: a card no retained event opened is 409 unknown-resume-card", async () => {
  const envs = [env(1, { type: "delta", text: "x" })];
  const res = await uiMessageStreamResponse(
    new Request("http://x/"),
    { conversationId: "c1", turnId: "t1", window: windowOf(envs) },
    { continuation: { cardIds: ["nope"] } },
  );
  assert.equal(res.status, 409);
  assert.equal((await res.json()).error.code, "unknown-resume-card");
});
