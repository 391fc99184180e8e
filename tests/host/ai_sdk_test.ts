/**
 * The AI SDK's own `Chat` (headless `AbstractChat`) with
 * `DefaultChatTransport` against the running host's `POST /api/chat`: the
 * whole scripted turn, the `<report>` / `<ask>` blocks arriving as data
 * parts (no text part ever holds a tag or a partial tag: sampled at every
 * message update), the approval round trip (`addToolApprovalResponse` +
 * `sendAutomaticallyWhen`, resolved server-side, continued in the same
 * message), and `resumeStream` (replay of a running turn, 204 after it).
 */
import assert from "node:assert/strict";
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from "ai";
import { HeadlessChat, type HeadlessChatInit } from "../_helpers/headless_chat.ts";
import { startHost } from "./_host_process.ts";
import { api, until } from "./_client.ts";
import { closingText, middleText, openingText } from "../../examples/chat_host/script.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

/** Every text part the chat ever showed, sampled at each message update. */
const seenTexts: string[] = [];

/** A headless Chat that samples every text part it shows. */
function sampledChat(init: HeadlessChatInit): HeadlessChat {
  return new HeadlessChat(init, (m) => {
    for (const p of m.parts) if (p.type === "text") seenTexts.push(p.text);
  });
}

/** The visible text of the scripted turn: the blocks travel as data parts. */
function visible(text: string): string {
  return text.replace(/<report>[\s\S]*?<\/report>/g, "").replace(/<ask>[\s\S]*?<\/ask>/g, "");
}

const TAGS = ["<report>", "</report>", "<ask>", "</ask>"];

/** A tag, or a tag cut at the end of the text (`<as`, `</rep`). */
function partialTag(text: string): string | null {
  for (const t of TAGS) {
    if (text.includes(t)) return t;
    for (let n = 2; n < t.length; n++) if (text.endsWith(t.slice(0, n))) return t.slice(0, n);
  }
  return null;
}

Deno.test({
  name:
    "AI SDK Chat + DefaultChatTransport: the whole turn with blocks as data parts, the approval round trip, resumeStream",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const host = await startHost({ deltaMs: 2, effectMs: 50, args: ["--delta-chars", "24"] });
    try {
      const prompt = "Where is my order? I want a refund.";
      const headers = { "x-user-id": "dora" };
      const chat = sampledChat({
        id: "chat-1",
        transport: new DefaultChatTransport({ api: `${host.url}api/chat`, headers }),
        sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
      });
      await chat.sendMessage({ text: prompt });
      await until(() => chat.status === "ready", "the paused response");
      assert.equal(chat.error, undefined);
      let last = chat.messages.at(-1) as Any;
      assert.equal(last.role, "assistant");
      const approvalPart = last.parts.find((p: Any) => p.type === "tool-issue_refund");
      assert.equal(approvalPart.state, "approval-requested");
      const cardId = approvalPart.approval.id as string;
      assert.match(cardId, /:approve-refund$/);
      assert.equal(last.metadata.status, "awaiting-input");

      // resumeStream while the turn waits: a second client replays the message up to the pause
      const other = sampledChat({
        id: "chat-1",
        transport: new DefaultChatTransport({ api: `${host.url}api/chat`, headers }),
      });
      await other.resumeStream();
      await until(() => other.status === "ready", "the resumed stream");
      const replayed = other.messages.at(-1) as Any;
      assert.equal(replayed.role, "assistant");
      assert.deepEqual(
        replayed.parts.filter((p: Any) => p.type === "text").map((p: Any) => p.text).join(""),
        last.parts.filter((p: Any) => p.type === "text").map((p: Any) => p.text).join(""),
      );

      await chat.addToolApprovalResponse({ id: cardId, approved: true });
      await until(
        () =>
          (chat.messages.at(-1) as Any).metadata?.status === "completed" &&
          chat.status === "ready",
        "the continuation",
        120_000,
      );
      assert.equal(chat.error, undefined);
      assert.equal(chat.messages.filter((m) => m.role === "assistant").length, 1, "one message");
      last = chat.messages.at(-1);
      const text = last.parts.filter((p: Any) => p.type === "text").map((p: Any) => p.text)
        .join("");
      assert.equal(
        text,
        visible(openingText(prompt) + middleText(prompt) + closingText(prompt, true)),
      );
      // the blocks are data parts
      const data = last.parts.filter((p: Any) => p.type.startsWith("data-"));
      const kinds = data.map((p: Any) => p.type);
      assert.ok(kinds.some((k: string) => k.includes("report")), JSON.stringify(kinds));
      assert.ok(kinds.some((k: string) => k.includes("ask")), JSON.stringify(kinds));
      // tools with their outputs; the approval recorded
      const lookup = last.parts.find((p: Any) => p.type === "tool-lookup_order");
      assert.equal(lookup.state, "output-available");
      assert.equal(lookup.output.status, "delivered");
      const refund = last.parts.find((p: Any) => p.type === "tool-issue_refund");
      assert.equal(refund.state, "output-available");
      assert.equal(refund.approval.approved, true);
      assert.equal(refund.output.amountCents, 4200);
      // no text part ever showed a tag or a cut tag
      assert.ok(seenTexts.length > 20, `${seenTexts.length} samples`);
      for (const t of seenTexts) assert.equal(partialTag(t), null, JSON.stringify(t));
      // the ledger holds both effects once
      const turnId = cardId.slice(0, -":approve-refund".length);
      const ledger = (await api(host.url, "/api/ledger", { user: "dora" })).body.effects as Any[];
      assert.deepEqual(
        ledger.filter((r) => r.turnId === turnId).map((r) => r.toolName),
        ["lookup_order", "issue_refund"],
      );
      // nothing to resume once the turn ended
      const after = await fetch(`${host.url}api/chat/chat-1/stream`, { headers });
      assert.equal(after.status, 204);
      await after.body?.cancel();
      console.log(
        `AI SDK: ${seenTexts.length} text samples, 0 partial tags, ${data.length} data parts`,
      );
    } finally {
      await host.stop();
    }
  },
});
