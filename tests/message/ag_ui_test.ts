/**
 * v1 → AG-UI: every event passes `@ag-ui/core`'s EventSchemas, and the whole
 * run passes `@ag-ui/client`'s `verifyEvents` (through a real `HttpAgent`
 * fed by `@ag-ui/encoder`'s SSE encoding).
 */
import assert from "node:assert/strict";
import { envelope } from "./_envelopes.ts";
import { EventSchemas } from "@ag-ui/core/schemas";
import { HttpAgent, verifyEvents } from "@ag-ui/client";
import { EventEncoder } from "@ag-ui/encoder";
import { V1ToAgUi, v1ToAgUiEvents } from "../../ag_ui.ts";
import { assertGolden } from "../_helpers/golden.ts";

const read = (p: string) =>
  JSON.parse(Deno.readTextFileSync(new URL(`../../fixtures/${p}`, import.meta.url)));
const TURNS = ["v1_turn", "v1_turn_error", "v1_turn_cancelled"];

/** Run `events` through HttpAgent (SSE parse) + verifyEvents; resolve with what came out or the error. */
function verify(events: unknown[]): Promise<{ events: { type: string }[]; error?: string }> {
  const encoder = new EventEncoder();
  const body = events.map((e) => encoder.encodeSSE(e as never)).join("");
  const agent = new HttpAgent({
    url: "http://127.0.0.1:1/never",
    fetch: () =>
      Promise.resolve(new Response(body, { headers: { "content-type": "text/event-stream" } })),
  });
  const seen: { type: string }[] = [];
  return new Promise((resolve) => {
    agent.run({
      threadId: "conv-1",
      runId: "run",
      tools: [],
      context: [],
      forwardedProps: {},
      state: {},
      messages: [],
    }).pipe(verifyEvents(false)).subscribe({
      next: (e: { type: string }) => seen.push(e),
      error: (e: unknown) => resolve({ events: seen, error: String(e) }),
      complete: () => resolve({ events: seen }),
    });
  });
}

Deno.test("v1 → AG-UI: every event passes @ag-ui/core EventSchemas; goldens", async () => {
  for (const t of TURNS) {
    const { events, refused } = v1ToAgUiEvents(read(`message/${t}.json`));
    assert.deepEqual(refused, []);
    for (const e of events) {
      const r = EventSchemas.safeParse(e);
      assert.ok(r.success, `${t}: ${JSON.stringify(e)} ${JSON.stringify(r.error?.issues)}`);
    }
    await assertGolden(`message/${t}.ag_ui.json`, events);
  }
});

Deno.test("v1 → AG-UI: each run passes @ag-ui/client verifyEvents end to end", async () => {
  for (const t of TURNS) {
    const { events } = v1ToAgUiEvents(read(`message/${t}.json`));
    const r = await verify(events);
    assert.equal(r.error, undefined, `${t}: ${r.error}`);
    assert.deepEqual(r.events.map((e) => e.type), events.map((e) => e.type), t);
  }
});

Deno.test("verifyEvents is a real check here: a broken sequence is rejected", async () => {
  const { events } = v1ToAgUiEvents(read("message/v1_turn.json"));
  const noStart = events.filter((e) => e.type !== "TEXT_MESSAGE_START");
  const r = await verify(noStart);
  assert.match(String(r.error), /TEXT_MESSAGE_CONTENT|TEXT_MESSAGE_START/, String(r.error));
  const afterEnd = [...events, { type: "TEXT_MESSAGE_START", messageId: "x", role: "assistant" }];
  const late = await verify(afterEnd);
  assert.match(String(late.error), /RUN_FINISHED|finished/i, String(late.error));
});

Deno.test("v1 → AG-UI mapping details", () => {
  const { events } = v1ToAgUiEvents(read("message/v1_turn.json"));
  assert.deepEqual(events[0], { type: "RUN_STARTED", threadId: "conv-1", runId: "turn-1" });
  assert.deepEqual(events.at(-1), {
    type: "RUN_FINISHED",
    threadId: "conv-1",
    runId: "turn-1",
    result: { stopReason: "stop", usage: { totalTokens: 42 } },
    outcome: { type: "success" },
    usage: [{ provider: "anthropic", model: "claude-x", totalTokens: 42 }],
    metadata: { stopReason: "stop" },
  });
  const results = events.filter((e) => e.type === "TOOL_CALL_RESULT");
  assert.deepEqual(results.map((e) => (e as { content: string }).content), [
    '{"tempC":18}',
    '{"ok":false,"summary":"calendar offline"}',
  ]);
  const err = v1ToAgUiEvents(read("message/v1_turn_error.json")).events.at(-1);
  assert.deepEqual(err, {
    type: "RUN_ERROR",
    message: "provider overloaded",
    code: "overloaded",
    metadata: { retryable: true, retryAfterMs: 1000 },
  });
  const cancelled = v1ToAgUiEvents(read("message/v1_turn_cancelled.json")).events.at(-1);
  assert.deepEqual(cancelled, {
    type: "RUN_FINISHED",
    threadId: "conv-1",
    runId: "turn-3",
    outcome: { type: "cancelled" },
    metadata: { reason: "user stop" },
  });
  const a = new V1ToAgUi();
  const turn = read("message/v1_turn.json");
  assert.ok(a.push(turn[0]).ok);
  const again = a.push(turn[0]);
  assert.ok(!again.ok && again.error.code === "duplicate");
  const junk = a.push({
    schemaVersion: 1,
    turnId: "turn-1",
    conversationId: "c",
    seq: 2,
    event: { type: "delta", text: 5 },
  });
  assert.ok(!junk.ok && junk.error.code === "invalid-envelope");
  assert.ok(!a.push(null).ok);
});

Deno.test("v1 → AG-UI: refused envelopes change nothing; other conversations and unknown events are refused", async () => {
  const env = envelope;
  // an invalid first envelope must not consume RUN_STARTED
  const badFirst = v1ToAgUiEvents([
    env(1, { type: "delta", text: 5 }),
    env(2, { type: "delta", text: "hi" }),
    env(3, { type: "done" }),
  ]);
  // seq 1 never arrived valid: the rest is converted after one `gap`
  assert.deepEqual(badFirst.refused.map((r) => [r.index, r.error.code]), [
    [0, "invalid-envelope"],
    [1, "gap"],
  ]);
  assert.equal(badFirst.events[0].type, "RUN_STARTED");
  assert.equal((await verify(badFirst.events)).error, undefined);
  const mixed = v1ToAgUiEvents([
    env(1, { type: "delta", text: "a" }),
    env(2, { type: "delta", text: "b" }, { conversationId: "other" }),
    env(3, { type: "teleport", where: 1 }),
    env(4, { type: "state", version: 1 }), // snapshot key missing: not v1
    env(5, { type: "done" }),
  ]);
  assert.deepEqual(mixed.refused.map((r) => [r.index, r.error.code]), [
    [1, "foreign-conversation"],
    [2, "invalid-envelope"],
    [3, "invalid-envelope"],
    [4, "gap"], // seq 2–4 never arrived valid; `done` is converted after reporting it
  ]);
  assert.deepEqual(
    mixed.events.filter((e) => e.type === "TEXT_MESSAGE_CONTENT").map((e) =>
      (e as { delta: string }).delta
    ),
    ["a"],
  );
  for (const e of mixed.events) assert.ok(EventSchemas.safeParse(e).success, JSON.stringify(e));
  assert.equal((await verify(mixed.events)).error, undefined);
});
