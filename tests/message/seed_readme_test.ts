/**
 * The titan seed's documented API: every code example of
 * `HJewkes/titan-platform` `packages/chat-protocol/README.md` (commit
 * 1462ff3), verbatim, with only the package specifier changed
 * (`@titan-design/chat-protocol` → `@papercusp/chat-protocol/message`, which
 * Deno resolves to this package's own `./message` entry point). Each example sits between `// README >>>` and `// <<< README`;
 * the free variables it uses (`row`, `render`, `inbound`, `gate`, …) are
 * supplied around it, and what it computes is checked after it.
 */
import assert from "node:assert/strict";
import type { UIMessage } from "../../message.ts";
// The README's import lines (kept as written: deno fmt would reorder them).
// deno-fmt-ignore
import { chatMessage, toUIMessage, type ChatMessage } from "@papercusp/chat-protocol/message";
// deno-fmt-ignore
import { fromMessagingInbound, toMessagingOutbound, deliveryFromSendResult } from "@papercusp/chat-protocol/message";
// deno-fmt-ignore
import { fromHitlGate, toHitlAnswer } from "@papercusp/chat-protocol/message";
// The example that uses dataPart has no import line in the README.
import { dataPart } from "../../message.ts";
import type { GateSnapshot, MessagingInbound } from "../../message.ts";
import { MessageArgumentError } from "../../message.ts";

Deno.test("README: chatMessage.parse a stored row, then render it as a plain UIMessage", () => {
  const row: unknown = JSON.parse(JSON.stringify({
    id: "m1",
    threadId: "th1",
    authorId: "agent:coach",
    role: "assistant",
    createdAt: "2026-01-01T00:00:00.000Z",
    parts: [{ type: "text", text: "Hello" }],
    provenance: { authored: "agent", endorsedBy: "human", attestedBy: "user:alice" },
    delivery: [{ participantId: "u1", status: "accepted", at: "2026-01-01T00:00:01.000Z" }],
  }));
  const rendered: UIMessage[] = [];
  const render = (m: UIMessage) => rendered.push(m);
  // README >>>
  const message: ChatMessage = chatMessage.parse(row);
  render(toUIMessage(message)); // a plain UIMessage; the envelope is gone
  // <<< README
  assert.deepEqual(rendered, [{
    id: "m1",
    role: "assistant",
    parts: [{ type: "text", text: "Hello" }],
  }]);
  assert.deepEqual(message.provenance, {
    authored: "agent",
    endorsedBy: "human",
    attestedBy: "user:alice",
  }, "the endorsement survives the parse (the seed's schema erased it)");
  assert.throws(() => chatMessage.parse({ ...(row as object), createdAt: 5 }));
});

Deno.test("README: a data-* key may not contain a hyphen after the prefix", () => {
  const results: boolean[] = [];
  const record = (b: boolean) => results.push(b);
  // README >>>
  dataPart.safeParse({ type: "data-gate_ref", data: {} }).success; // true
  dataPart.safeParse({ type: "data-gate-ref", data: {} }).success; // false
  // <<< README
  record(dataPart.safeParse({ type: "data-gate_ref", data: {} }).success);
  record(dataPart.safeParse({ type: "data-gate-ref", data: {} }).success);
  assert.deepEqual(results, [true, false]);
});

Deno.test("README: messaging adapter in and out", () => {
  const inbound: MessagingInbound = {
    status: "accepted",
    handle: "+1555",
    guid: "g-1",
    text: "hi",
  };
  const threadId = "th1";
  const authorId = "user:bob";
  const createdAt = "2026-01-01T00:00:00.000Z";
  const handle = "+1555";
  // README >>>
  const message = fromMessagingInbound(inbound, { threadId, authorId, createdAt });
  const { send, dropped } = toMessagingOutbound(message, handle);
  // dropped lists part types the seam cannot carry; it never swallows one silently
  // <<< README
  assert.deepEqual(message, {
    id: "g-1",
    threadId,
    authorId,
    role: "user",
    createdAt,
    parts: [{ type: "text", text: "hi" }],
    provenance: { authored: "human" },
  });
  assert.deepEqual(send, { handle, text: "hi" });
  assert.deepEqual(dropped, []);
  assert.deepEqual(deliveryFromSendResult({ ok: true }, authorId, createdAt), {
    participantId: authorId,
    status: "accepted",
    at: createdAt,
  });
});

Deno.test("README: a hitl gate as a message, and its answer", () => {
  const threadId = "th1";
  const authorId = "agent:ops";
  for (
    const [gate, expected] of [
      [
        { id: "g1", prompt: "Deploy?", status: "pending", createdAt: "2026-01-01T00:00:00.000Z" },
        undefined,
      ],
      [
        {
          id: "g1",
          prompt: "Deploy?",
          status: "resolved",
          payload: { ok: true },
          createdAt: "2026-01-01T00:00:00.000Z",
        },
        { action: "accept", gateId: "g1", payload: { ok: true } },
      ],
      [
        { id: "g1", prompt: "Deploy?", status: "expired", createdAt: "2026-01-01T00:00:00.000Z" },
        { action: "decline", gateId: "g1", reason: "expired" },
      ],
    ] as [GateSnapshot, unknown][]
  ) {
    // README >>>
    const message = fromHitlGate(gate, { threadId, authorId });
    const answer = toHitlAnswer(message); // undefined while the gate is still open
    // <<< README
    assert.equal(message.id, "gate:g1");
    assert.equal(message.parts[0].type, "tool-gate");
    assert.deepEqual(answer, expected);
  }
  // a row that breaks GateSnapshot is a programmer's mistake: a typed error, never a denial
  assert.throws(
    () =>
      fromHitlGate({ id: "g1", prompt: "?", status: "gone", createdAt: "x" } as never, {
        threadId,
        authorId,
      }),
    (e: unknown) => e instanceof MessageArgumentError && e.code === "unknown-gate-status",
  );
});
