/**
 * `agUiResponse` against AG-UI's own client over real HTTP: `HttpAgent`
 * (its SSE parser, schemas and `verifyEvents` run inside `runAgent`), the
 * bytes as `@ag-ui/encoder` writes them, heartbeats the client skips, and
 * the interrupt / resume round trip (`RUN_FINISHED` with the interrupt
 * outcome, `runAgent({ resume })`, `parseAgUiResume`, the continuation
 * run).
 */
import assert from "node:assert/strict";
import { HttpAgent } from "@ag-ui/client";
import { type ChatEventEnvelope, foldChatState } from "../../mod.ts";
import { MemoryReplayWindow } from "../../recovery.ts";
import { parseAgUiResume, v1ToAgUiEvents } from "../../ag_ui.ts";
import { agUiResponse, type TurnSource } from "../../http.ts";
import { agUiSse } from "../message/_peers.ts";
import { env, LiveFeed, serve } from "./_server.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

const read = (p: string) =>
  JSON.parse(Deno.readTextFileSync(new URL(`../../fixtures/${p}`, import.meta.url)));

function windowOf(envs: readonly ChatEventEnvelope[]): MemoryReplayWindow {
  const w = new MemoryReplayWindow();
  for (const e of envs) assert.ok(w.append(e));
  return w;
}

/** Run `agent` once; the events its subscriber saw (after its own verification) and the result. */
async function run(agent: HttpAgent, params: Any = {}) {
  const types: string[] = [];
  const result = await agent.runAgent(params, {
    onEvent: ({ event }: Any) => void types.push(event.type),
  });
  return { types, result };
}

Deno.test("HttpAgent runs a whole turn from agUiResponse; the bytes are @ag-ui/encoder's", async () => {
  const envs = read("message/v1_turn_full.json") as ChatEventEnvelope[];
  const source: TurnSource = {
    conversationId: "conv-1",
    turnId: "turn-full",
    window: windowOf(envs),
  };
  const server = serve((req) => agUiResponse(req, source, { heartbeatMs: 0 }));
  try {
    const raw = await fetch(server.url, { method: "POST", body: "{}" });
    assert.equal(raw.headers.get("content-type"), "text/event-stream");
    assert.equal(raw.headers.get("cache-control"), "no-cache");
    assert.equal(await raw.text(), agUiSse(v1ToAgUiEvents(envs).events));
    const agent = new HttpAgent({ url: server.url, threadId: "conv-1" });
    const { types, result } = await run(agent);
    assert.deepEqual(types, v1ToAgUiEvents(envs).events.map((e) => e.type));
    assert.deepEqual(result.result, {
      stopReason: "end_turn",
      usage: { inputTokens: 120, outputTokens: 40, totalTokens: 160, costUsd: 0.002 },
    });
    const text = agent.messages.filter((m: Any) =>
      m.role === "assistant" && typeof m.content === "string"
    )
      .map((m: Any) => m.content).join("");
    assert.equal(text, "Here is the plan.  Next:  Thanks.Deployed.");
  } finally {
    await server.close();
  }
});

Deno.test("heartbeats while the turn is idle do not disturb HttpAgent", async () => {
  const live = new LiveFeed();
  const server = serve((req) =>
    agUiResponse(req, { conversationId: "c1", turnId: "t1", live: live.feed }, { heartbeatMs: 2 })
  );
  try {
    const agent = new HttpAgent({ url: server.url, threadId: "c1" });
    const running = run(agent);
    live.push(env(1, { type: "delta", text: "a" }));
    await new Promise((r) => setTimeout(r, 30)); // several heartbeats
    live.push(env(2, { type: "delta", text: "b" }), env(3, { type: "done" }));
    const { types } = await running;
    assert.deepEqual(types, [
      "RUN_STARTED",
      "TEXT_MESSAGE_START",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_END",
      "RUN_FINISHED",
    ]);
  } finally {
    await server.close();
  }
});

Deno.test("interrupt and resume: the run ends with the interrupt outcome; runAgent({ resume }) continues the turn in a new run", async () => {
  const T = "turn-int";
  const window = windowOf([
    env(1, { type: "delta", text: "Deleting needs approval. " }, T),
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
        timeoutMs: 3_600_000,
        approval: { title: "delete", question: "Delete /tmp/x?", body: [] },
        callId: "call-del",
        dataSchemaJson: { type: "object" },
      },
    }, T),
  ]);
  const source: TurnSource = {
    conversationId: "c1",
    turnId: T,
    window,
    wake: (signal) => new Promise((r) => signal.addEventListener("abort", r, { once: true })),
  };
  const inputs: Any[] = [];
  const server = serve(async (req) => {
    const input = await req.json();
    inputs.push(input);
    const resumed = parseAgUiResume(input);
    assert.ok(resumed.ok);
    if (resumed.value.responses.length === 0) {
      return agUiResponse(req, source, { heartbeatMs: 0, runId: resumed.value.runId });
    }
    // the host checks the answer against the open card, then the turn goes on
    assert.deepEqual(
      foldChatState(window.readAfter(T, 0)).state!.openCards.map((c) => c.correlationId),
      [
        "card-del",
      ],
    );
    assert.deepEqual(resumed.value.responses, [{
      action: "submit",
      correlationId: "card-del",
      value: { confirmed: true },
    }]);
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
    window.append(env(6, { type: "delta", text: "Done." }, T));
    window.append(env(7, { type: "done" }, T));
    return agUiResponse(req, source, {
      heartbeatMs: 0,
      runId: resumed.value.runId,
      continuation: { cardIds: resumed.value.responses.map((r) => r.correlationId) },
    });
  });
  try {
    const agent = new HttpAgent({ url: server.url, threadId: "c1" });
    const first = await run(agent);
    assert.deepEqual(first.types.at(-1), "RUN_FINISHED");
    const pending = (agent as Any).pendingInterrupts as Any[];
    assert.deepEqual(pending.map((i) => [i.id, i.reason, i.toolCallId]), [[
      "card-del",
      "approval",
      "call-del",
    ]]);
    assert.deepEqual(pending[0].responseSchema, { type: "object" });
    const second = await run(agent, {
      resume: [{ interruptId: "card-del", status: "resolved", payload: { approved: true } }],
    });
    assert.equal(second.types[0], "RUN_STARTED");
    assert.equal(second.types.at(-1), "RUN_FINISHED");
    assert.ok(second.types.includes("TOOL_CALL_RESULT"));
    assert.deepEqual((agent as Any).pendingInterrupts, []);
    assert.equal(inputs.length, 2);
    assert.notEqual(inputs[0].runId, inputs[1].runId);
    const text = agent.messages.filter((m: Any) =>
      m.role === "assistant" && typeof m.content === "string"
    )
      .map((m: Any) => m.content).join("");
    assert.equal(text, "Deleting needs approval. Done.");
  } finally {
    await server.close();
  }
});
