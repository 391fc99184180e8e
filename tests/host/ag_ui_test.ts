/**
 * AG-UI's own `HttpAgent` (its SSE parser, schemas and event verifier run
 * inside `runAgent`) against the running host's `POST /api/ag-ui`: a run
 * that ends with the interrupt outcome at the approval card, then
 * `runAgent({ resume })` that the host resolves server-side and continues
 * to the end of the turn; blocks arrive as CUSTOM events, never as text.
 */
import assert from "node:assert/strict";
import { HttpAgent } from "@ag-ui/client";
import { startHost } from "./_host_process.ts";
import { api } from "./_client.ts";
import { closingText, middleText, openingText } from "../../examples/chat_host/script.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

function visible(text: string): string {
  return text.replace(/<report>[\s\S]*?<\/report>/g, "").replace(/<ask>[\s\S]*?<\/ask>/g, "");
}

async function run(agent: HttpAgent, params: Any = {}) {
  const events: Any[] = [];
  const result = await agent.runAgent(params, {
    onEvent: ({ event }: Any) => void events.push(event),
  });
  return { events, result };
}

Deno.test({
  name: "AG-UI HttpAgent: a whole turn, interrupted at the approval and resumed",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const host = await startHost({ deltaMs: 2, effectMs: 50, args: ["--delta-chars", "24"] });
    try {
      const prompt = "My lamp arrived broken, refund please";
      const agent = new HttpAgent({
        url: `${host.url}api/ag-ui`,
        threadId: "thread-1",
        headers: { "x-user-id": "erin" },
      });
      agent.messages = [{ id: "u1", role: "user", content: prompt }] as Any;
      const first = await run(agent);
      assert.equal(first.events[0].type, "RUN_STARTED");
      assert.equal(first.events.at(-1).type, "RUN_FINISHED");
      const pending = (agent as Any).pendingInterrupts as Any[];
      assert.equal(pending.length, 1);
      const cardId = pending[0].id as string;
      assert.match(cardId, /:approve-refund$/);
      assert.equal(pending[0].reason, "approval");
      assert.match(pending[0].toolCallId, /:issue_refund$/);
      const custom = first.events.filter((e) => e.type === "CUSTOM").map((e) => e.name);
      assert.equal(custom.length >= 2, true, JSON.stringify(custom));

      const second = await run(agent, {
        resume: [{ interruptId: cardId, status: "resolved", payload: { approved: true } }],
      });
      assert.equal(second.events[0].type, "RUN_STARTED");
      assert.equal(second.events.at(-1).type, "RUN_FINISHED");
      assert.ok(second.events.some((e) => e.type === "TOOL_CALL_RESULT"));
      assert.deepEqual((agent as Any).pendingInterrupts, []);
      const text = agent.messages.filter((m: Any) =>
        m.role === "assistant" && typeof m.content === "string"
      ).map((m: Any) => m.content).join("");
      assert.equal(
        text,
        visible(openingText(prompt) + middleText(prompt) + closingText(prompt, true)),
      );
      for (const e of [...first.events, ...second.events]) {
        if (e.type === "TEXT_MESSAGE_CONTENT") {
          assert.ok(!/<\/?(report|ask)/.test(e.delta), e.delta);
        }
      }
      // the same resume again is a replayed answer: refused, nothing changes
      const turnId = cardId.slice(0, -":approve-refund".length);
      const ledgerBefore =
        (await api(host.url, "/api/ledger", { user: "erin" })).body.effects.length;
      const replay = await api(host.url, "/api/ag-ui", {
        user: "erin",
        json: {
          threadId: "thread-1",
          runId: "run-replay",
          messages: [],
          tools: [],
          context: [],
          state: {},
          forwardedProps: {},
          resume: [{ interruptId: cardId, status: "resolved", payload: { approved: true } }],
        },
      });
      assert.equal(replay.status, 409);
      assert.equal(replay.body.error.code, "duplicate");
      assert.equal(
        (await api(host.url, "/api/ledger", { user: "erin" })).body.effects.length,
        ledgerBefore,
      );
      const ledger = (await api(host.url, "/api/ledger", { user: "erin" })).body.effects as Any[];
      assert.deepEqual(
        ledger.filter((r) => r.turnId === turnId).map((r) => r.toolName),
        ["lookup_order", "issue_refund"],
      );
      console.log(
        `AG-UI: run 1 ${first.events.length} events (interrupt), run 2 ${second.events.length} events`,
      );
    } finally {
      await host.stop();
    }
  },
});
