/**
 * The reference host's scripted agent turn: deterministic text, blocks,
 * tool calls and a card, with no network model. Everything a turn emits
 * is a function of its id and prompt (and of the card's answer), so a
 * restarted host regenerates exactly what an uninterrupted run would have
 * emitted and continues after what the log already holds.
 *
 * @module
 */

/** The two tools of the scripted turn, in the order they run. */
export const TOOLS = ["lookup_order", "issue_refund"] as const;

/** A tool of the scripted turn. */
export type ToolName = typeof TOOLS[number];

/** The card's answer schema id (an approval: `{ confirmed: true }`, or a decline). */
export const APPROVAL_SCHEMA = { id: "refund-approval", revision: 1 } as const;

/** The order the scripted turn talks about (derived from the prompt, deterministic). */
export function orderIdOf(prompt: string): string {
  let h = 0;
  for (let i = 0; i < prompt.length; i++) h = (h * 31 + prompt.charCodeAt(i)) >>> 0;
  return `A-${1000 + (h % 9000)}`;
}

/** The tool call id of `tool` in `turnId` (stable for the call's life). */
export function callIdOf(turnId: string, tool: ToolName): string {
  return `${turnId}:${tool}`;
}

/** The card id (interaction id / correlationId) of `turnId`. */
export function cardIdOf(turnId: string): string {
  return `${turnId}:approve-refund`;
}

/** The input the model "sends" to `tool`. */
export function toolInput(tool: ToolName, prompt: string): Record<string, unknown> {
  const orderId = orderIdOf(prompt);
  return tool === "lookup_order" ? { orderId } : { orderId, amountCents: 4_200 };
}

/** What `tool`'s side effect returns (the tool's output). */
export function toolOutput(tool: ToolName, turnId: string, prompt: string): unknown {
  const orderId = orderIdOf(prompt);
  return tool === "lookup_order"
    ? { orderId, status: "delivered", item: "Desk lamp", amountCents: 4_200 }
    : { orderId, refundId: `rf-${turnId.slice(-8)}`, amountCents: 4_200 };
}

/** The opening text, with a `<report>` block. */
export function openingText(prompt: string): string {
  const orderId = orderIdOf(prompt);
  const report = {
    title: `Refund request for ${orderId}`,
    plans: [{
      title: "What I will do",
      status: "wip",
      items: [
        { id: "look", text: `Look up order ${orderId}`, status: "wip" },
        { id: "ask", text: "Ask you to approve the refund", status: "todo" },
        { id: "refund", text: "Issue the refund", status: "todo" },
      ],
    }],
  };
  // The prompt is echoed without angle brackets: a user cannot plant a block tag in the reply.
  const echo = prompt.slice(0, 200).replace(/[<>]/g, "");
  return `You asked: "${echo}". I will check the order first.\n` +
    `<report>${JSON.stringify(report)}</report>\n` +
    `Looking up ${orderId} now.`;
}

/** The text after the lookup, with an `<ask>` block. */
export function middleText(prompt: string): string {
  const orderId = orderIdOf(prompt);
  const ask = {
    question: `Refund 42.00 EUR for ${orderId}?`,
    options: [{ id: "yes", label: "Refund it" }, { id: "no", label: "Keep the order" }],
  };
  return `\nOrder ${orderId} was delivered (a desk lamp, 42.00 EUR). ` +
    `<ask>${JSON.stringify(ask)}</ask>\n` +
    `Please approve the refund below.`;
}

/** The closing text, after the card was answered. */
export function closingText(prompt: string, approved: boolean): string {
  const orderId = orderIdOf(prompt);
  return approved
    ? `\nDone: 42.00 EUR for ${orderId} is on its way back to you. <b>Nothing</b> else to do.`
    : `\nUnderstood: no refund for ${orderId}. The order stays as it is.`;
}

/**
 * Split `text` into the small deltas the turn streams (`size` UTF-16 code
 * units each, never splitting a surrogate pair), so tags are cut across
 * deltas the way a real model's tokens cut them.
 */
export function deltas(text: string, size = 6): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    let end = Math.min(text.length, i + size);
    const c = text.charCodeAt(end - 1);
    if (end < text.length && c >= 0xd800 && c <= 0xdbff) end++;
    out.push(text.slice(i, end));
    i = end;
  }
  return out;
}
