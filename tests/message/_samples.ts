/**
 * Test samples: hand-built UIMessages covering every part type and every tool
 * state (static and dynamic).
 *
 * @module
 */
import { type ChatMessage, TOOL_PART_STATES, type UIMessage } from "../../message.ts";

/** An agent's message with plain agent provenance (a fresh copy each call). */
export function agentMessage(): ChatMessage {
  return {
    id: "m1",
    threadId: "th1",
    authorId: "agent:coach",
    role: "assistant",
    createdAt: "2026-11-30T01:00:00.000Z",
    parts: [{ type: "text", text: "Done." }],
    provenance: { authored: "agent" },
  };
}

const PM = { anthropic: { signature: "sig", n: 1, nested: { a: [1, null] } } };

/** One message per part kind, plus every tool state for static and dynamic tools. */
export function handBuiltMessages(): UIMessage[] {
  const tool = (state: string, extra: Record<string, unknown> = {}) => ({
    type: "tool-get-weather",
    toolCallId: `c-${state}`,
    state,
    input: { city: "Paris" },
    ...extra,
  });
  const states: Record<string, Record<string, unknown>> = {
    "input-streaming": { input: { city: "Pa" }, rawInput: '{"city":"Pa', inputEncoding: "json" },
    "input-available": { title: "Weather", toolMetadata: { k: "v" }, callProviderMetadata: PM },
    "approval-requested": {
      approval: {
        id: "ap1",
        descriptor: { type: "object" },
        requestReason: "risky",
        signature: "s",
      },
    },
    "approval-responded": { approval: { id: "ap1", approved: false, reason: "later" } },
    "output-available": {
      output: { tempC: 18 },
      approval: { id: "ap1", approved: true },
      preliminary: false,
      providerExecuted: true,
      resultProviderMetadata: PM,
    },
    "output-error": { errorText: "" },
    "output-denied": { approval: { id: "ap1", approved: false, reason: "no" } },
  };
  const toolParts = TOOL_PART_STATES.map((s) => tool(s, states[s]));
  const dynParts = TOOL_PART_STATES.map((s) => {
    const { type: _t, ...rest } = tool(s, states[s]);
    return { type: "dynamic-tool", toolName: "mcp.search", ...rest, toolCallId: `d-${s}` };
  });
  return [
    {
      id: "u1",
      role: "user",
      metadata: { anything: [1, "x"] },
      parts: [
        { type: "text", text: "Hello" },
        {
          type: "file",
          mediaType: "image/png",
          url: "data:image/png;base64,AA==",
          filename: "a.png",
        },
      ],
    },
    { id: "s1", role: "system", parts: [{ type: "text", text: "Be brief." }] },
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        { type: "reasoning", id: "r1", text: "think", state: "done", providerMetadata: PM },
        {
          type: "text",
          text: "See [1].",
          state: "streaming",
          citations: [{
            source: { type: "source", sourceType: "url", id: "s1", url: "https://e.x", title: "E" },
            startIndex: 4,
            endIndex: 7,
            citedText: "[1]",
          }],
        },
        {
          type: "source-url",
          sourceId: "s1",
          url: "https://e.x",
          title: "E",
          providerMetadata: PM,
        },
        {
          type: "source-document",
          sourceId: "s2",
          mediaType: "application/pdf",
          title: "Doc",
          filename: "d.pdf",
        },
        {
          type: "file",
          mediaType: "text/plain",
          url: "https://f.x/a.txt",
          providerReference: { openai: "file-1" },
        },
        { type: "data-weather_card", id: "w1", data: { tempC: 18 } },
        { type: "data-log", data: null },
        ...toolParts,
        ...dynParts,
      ] as UIMessage["parts"],
    },
    { id: "a2", role: "assistant", parts: [] },
  ];
}
