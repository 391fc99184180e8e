/**
 * A Cloudflare Worker test module that runs the library inside workerd
 * (Cloudflare's real runtime), proving it is edge-safe: workerd has no `Deno`
 * global and rejects `node:` builtins. It imports every entry point
 * (`scripts/edge_check.ts` refuses to run when one of deno.json's entry files
 * is missing here) and calls at least one function of each; the recovery and
 * interactions conformance kits run in full against their in-memory
 * reference stores.
 *
 * Bundled and run by `scripts/edge_check.ts`.
 *
 * @module
 */
import { ChatStateFolder, parseChatEnvelope } from "../../mod.ts";
import { isReplayableEvent, parseChatEvent } from "../../v0.ts";
import { encodeChatEnvelopeFrame, type SseMessage, SseParser } from "../../sse.ts";
import { decodeLegacyChatFrame } from "../../legacy.ts";
import { validateCardResponse } from "../../cards.ts";
import { splitTurnText } from "../../blocks.ts";
import { parseInboundChatMessage } from "../../message.ts";
import { foldUIMessage, v1ToUIMessageChunks } from "../../ai_sdk.ts";
import { v1ToAgUiEvents } from "../../ag_ui.ts";
import { agUiResponse, uiMessageStreamResponse, v1SseResponse } from "../../http.ts";
import { ChatEventEnvelopeSchema } from "../../schemas.ts";
import { MemoryRecoveryHost, MemoryReplayWindow, TurnRecovery } from "../../recovery.ts";
import { memoryConformanceHost, recoveryConformanceCases } from "../../recovery_testing.ts";
import { callerMayAct } from "../../interactions.ts";
import {
  interactionStoreConformance,
  memoryInteractionHarness,
} from "../../interactions_testing.ts";
import { glowStrength, layoutSpawnTree } from "../../agents.ts";

function check(cond: unknown, what: string): void {
  if (!cond) throw new Error(`edge check failed: ${what}`);
}

async function runCases(
  label: string,
  cases: readonly { name: string; skip?: string; run(): Promise<void> }[],
): Promise<number> {
  let ran = 0;
  for (const c of cases) {
    if (c.skip !== undefined) continue;
    try {
      await c.run();
    } catch (e) {
      throw new Error(`edge check failed: ${label} case "${c.name}": ${String(e)}`);
    }
    ran++;
  }
  check(ran > 0, `${label} ran no case`);
  return ran;
}

const ENVELOPE = {
  schemaVersion: 1,
  conversationId: "c",
  turnId: "t",
  eventId: "e1",
  seq: 1,
  event: { type: "delta", text: "x" },
};

export default {
  async test(): Promise<void> {
    // .
    const env = parseChatEnvelope(ENVELOPE);
    check(env.ok, "parseChatEnvelope accepts a valid envelope");
    const folder = new ChatStateFolder("c", "t");
    check(env.ok && folder.push(env.value).ok && folder.state().text === "x", "ChatStateFolder");
    // ./v0
    check(parseChatEvent("delta", { text: "hi" })?.type === "delta", "parseChatEvent");
    check(isReplayableEvent("delta"), "isReplayableEvent");
    // ./sse
    const got: SseMessage[] = [];
    const parser = new SseParser({ onEvent: (m) => got.push(m) });
    parser.feed(new TextEncoder().encode('id: 1\ndata: {"a":1}\n\n'));
    check(got.length === 1 && got[0].data === '{"a":1}', "SseParser decodes bytes");
    check(env.ok && encodeChatEnvelopeFrame(env.value).startsWith("id: e1\n"), "SSE frame");
    // ./legacy
    check(decodeLegacyChatFrame({ data: '{"type":"done"}' }, "scout").ok, "legacy decode");
    // ./cards
    check(
      validateCardResponse(
        { correlationId: "k", createdAt: 0, prompt: "?" },
        { action: "submit", correlationId: "k", value: {} },
      ).ok,
      "validateCardResponse",
    );
    // ./blocks
    check(splitTurnText('a<ask>{"question":"q"}</ask>b').length === 3, "splitTurnText");
    // ./message
    check(
      parseInboundChatMessage({
        id: "m",
        threadId: "t",
        authorId: "u",
        role: "user",
        createdAt: "2026-01-01T00:00:00.000Z",
        parts: [{ type: "text", text: "hi" }],
      }).ok,
      "parseInboundChatMessage",
    );
    // ./ai-sdk
    check(foldUIMessage([{ type: "start", messageId: "m" }]).message.id === "m", "foldUIMessage");
    check(v1ToUIMessageChunks([ENVELOPE]).chunks.length > 0, "v1ToUIMessageChunks");
    // ./ag-ui
    check(v1ToAgUiEvents([ENVELOPE]).events.length > 0, "v1ToAgUiEvents");
    // ./http: the three stream responses over a replay window, read to the end
    const window = new MemoryReplayWindow();
    window.append({ ...ENVELOPE, eventId: "t:1" } as never);
    window.append({ ...ENVELOPE, eventId: "t:2", seq: 2, event: { type: "done" } } as never);
    const source = { conversationId: "c", turnId: "t", window };
    const sse = await v1SseResponse(new Request("http://edge/t"), source);
    const sseText = await sse.text();
    check(
      sse.headers.get("content-type") === "text/event-stream" && sseText.includes("id: t:2\n"),
      "v1SseResponse",
    );
    const resumed = await v1SseResponse(
      new Request("http://edge/t", { headers: { "last-event-id": "t:1" } }),
      source,
    );
    check(
      !(await resumed.text()).includes("id: t:1\n"),
      "v1SseResponse resumes after Last-Event-ID",
    );
    const stale = await v1SseResponse(
      new Request("http://edge/t", { headers: { "last-event-id": "t:9" } }),
      source,
    );
    check(
      stale.status === 409 && (await stale.json()).error.code === "cursor-beyond-latest",
      "refusal",
    );
    const ui = await uiMessageStreamResponse(new Request("http://edge/chat"), source);
    check((await ui.text()).endsWith("data: [DONE]\n\n"), "uiMessageStreamResponse");
    const ag = await agUiResponse(new Request("http://edge/agent", { method: "POST" }), source);
    check((await ag.text()).includes('"RUN_FINISHED"'), "agUiResponse");
    // ./schemas (zod runs on the edge too)
    check(ChatEventEnvelopeSchema.safeParse(ENVELOPE).success, "ChatEventEnvelopeSchema");
    // ./agents
    check(layoutSpawnTree([]).nodes.length === 0, "layoutSpawnTree");
    check(glowStrength({ at: 0 } as never, 0) === 1, "glowStrength");
    // ./recovery
    const host = new MemoryRecoveryHost();
    host.grant("p", "t");
    const recovery = new TurnRecovery(host.seams());
    const begun = await recovery.beginTurn({
      conversationId: "c",
      turnId: "t",
      principal: "p",
      effectIds: ["e"],
    });
    const run = await recovery.runEffect({
      turnId: "t",
      effectId: "e",
      principal: "p",
      dispatch: () => 1,
    });
    check(begun.ok && run.ok && run.value.status === "completed", "TurnRecovery");

    // ./interactions
    check(typeof callerMayAct === "function", "callerMayAct");
    // ./recovery/testing and ./interactions/testing (with ./interactions)
    const recoveryCases = await runCases(
      "recovery conformance",
      recoveryConformanceCases(() => memoryConformanceHost(), { holdMs: 20 }),
    );
    const interactionCases = await runCases(
      "interactions conformance",
      interactionStoreConformance(() => memoryInteractionHarness(), { holdMs: 20 }),
    );
    console.log(
      `edge check ok: every entry point, ${recoveryCases} recovery and ${interactionCases} interactions conformance cases`,
    );
  },
};
