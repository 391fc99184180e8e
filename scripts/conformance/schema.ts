/**
 * Schema fixtures: valid and invalid JSON documents for every document type
 * of `schema/`. Each case states its verdict; an invalid one names (in
 * `kill`) the one rule it breaks.
 *
 * @module
 */
import type { CaseDef, CaseGroup } from "./_def.ts";
import type { Json, JsonObject } from "../../conformance/ts/kinds.ts";

function sc(
  id: string,
  document: string,
  value: Json,
  valid: boolean,
  kill: string,
  description: string,
): CaseDef {
  return {
    id: `schema.${id}`,
    kind: "schema",
    description,
    kill,
    input: { document, value },
    want: { valid },
  };
}

const ENV = "v1/chat-event-envelope";
const base = { schemaVersion: 1, conversationId: "c1", turnId: "t1", eventId: "e1", seq: 1 };
/** An envelope around `event`, with `extra` envelope fields (a field set to `undefined` is removed). */
function env(event: Json, extra: Record<string, Json | undefined> = {}): Json {
  const out: JsonObject = { ...base, event };
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}
const ev = (type: string, fields: JsonObject = {}): JsonObject => ({ type, ...fields });

/** Valid and invalid envelopes, by rule: `[name, envelope, valid, description]`. */
const envelopeCases: Record<string, [string, Json, boolean, string][]> = {
  "v1.envelope.object": [
    ["array", [], false, "an array is not an envelope"],
    ["string", "delta", false, "a string is not an envelope"],
    ["null", null, false, "null is not an envelope"],
    ["number", 1, false, "a number is not an envelope"],
  ],
  "v1.envelope.schema-version": [
    [
      "version-missing",
      env(ev("delta", { text: "x" }), { schemaVersion: undefined }),
      false,
      "schemaVersion is required",
    ],
    [
      "version-string",
      env(ev("delta", { text: "x" }), { schemaVersion: "1" }),
      false,
      'the string "1" is not the number 1',
    ],
    [
      "version-2",
      env(ev("delta", { text: "x" }), { schemaVersion: 2 }),
      false,
      "a future version is refused",
    ],
    [
      "version-0",
      env(ev("delta", { text: "x" }), { schemaVersion: 0 }),
      false,
      "version 0 has no envelope",
    ],
    [
      "version-true",
      env(ev("delta", { text: "x" }), { schemaVersion: true }),
      false,
      "true is not the number 1",
    ],
    [
      "version-null",
      env(ev("delta", { text: "x" }), { schemaVersion: null }),
      false,
      "null is not the number 1",
    ],
    [
      "version-fraction",
      env(ev("delta", { text: "x" }), { schemaVersion: 1.5 }),
      false,
      "1.5 is not 1",
    ],
  ],
  "v1.envelope.ids": [
    [
      "ids-unicode",
      env(ev("delta", { text: "x" }), { conversationId: "conv 1", turnId: "tür-𝄞", eventId: "x" }),
      true,
      "ids are any non-empty strings: spaces, non-ASCII and one character are fine",
    ],
    [
      "conversation-missing",
      env(ev("delta", { text: "x" }), { conversationId: undefined }),
      false,
      "conversationId is required",
    ],
    [
      "conversation-empty",
      env(ev("delta", { text: "x" }), { conversationId: "" }),
      false,
      "conversationId must not be empty",
    ],
    [
      "conversation-number",
      env(ev("delta", { text: "x" }), { conversationId: 7 }),
      false,
      "conversationId is a string",
    ],
    [
      "turn-empty",
      env(ev("delta", { text: "x" }), { turnId: "" }),
      false,
      "turnId must not be empty",
    ],
    ["turn-null", env(ev("delta", { text: "x" }), { turnId: null }), false, "turnId is a string"],
    [
      "event-id-missing",
      env(ev("delta", { text: "x" }), { eventId: undefined }),
      false,
      "eventId is required (it is the SSE id and Last-Event-ID cursor)",
    ],
    [
      "event-id-empty",
      env(ev("delta", { text: "x" }), { eventId: "" }),
      false,
      "eventId must not be empty",
    ],
    [
      "event-id-array",
      env(ev("delta", { text: "x" }), { eventId: ["e1"] }),
      false,
      "eventId is a string",
    ],
  ],
  "v1.envelope.seq": [
    [
      "seq-max",
      env(ev("delta", { text: "x" }), { seq: 9007199254740991 }),
      true,
      "the largest safe integer is a valid seq",
    ],
    ["seq-zero", env(ev("delta", { text: "x" }), { seq: 0 }), false, "seq starts at 1"],
    ["seq-negative", env(ev("delta", { text: "x" }), { seq: -1 }), false, "seq is positive"],
    ["seq-fraction", env(ev("delta", { text: "x" }), { seq: 1.5 }), false, "seq is an integer"],
    [
      "seq-string",
      env(ev("delta", { text: "x" }), { seq: "1" }),
      false,
      "seq is a number, not a string",
    ],
    [
      "seq-unsafe",
      env(ev("delta", { text: "x" }), { seq: 9007199254740992 }),
      false,
      "seq above 2^53-1 is refused",
    ],
    [
      "seq-huge",
      env(ev("delta", { text: "x" }), { seq: 1e300 }),
      false,
      "1e300 is not a safe integer",
    ],
    ["seq-missing", env(ev("delta", { text: "x" }), { seq: undefined }), false, "seq is required"],
    ["seq-null", env(ev("delta", { text: "x" }), { seq: null }), false, "seq is a number"],
  ],
  "v1.envelope.at": [
    ["at-zero", env(ev("delta", { text: "x" }), { at: 0 }), true, "at 0 (the epoch) is valid"],
    [
      "at-fraction",
      env(ev("delta", { text: "x" }), { at: 1767225600000.5 }),
      true,
      "at may have a fraction of a millisecond",
    ],
    ["at-negative", env(ev("delta", { text: "x" }), { at: -1 }), false, "at is not negative"],
    [
      "at-string",
      env(ev("delta", { text: "x" }), { at: "2026-01-01T00:00:00Z" }),
      false,
      "at is epoch milliseconds, not an ISO string",
    ],
    [
      "at-null",
      env(ev("delta", { text: "x" }), { at: null }),
      false,
      "at, when present, is a number",
    ],
    ["at-true", env(ev("delta", { text: "x" }), { at: true }), false, "at is a number"],
  ],
  "v1.envelope.event": [
    ["event-missing", env(null, { event: undefined }), false, "event is required"],
    ["event-null", env(null), false, "event is an object"],
    ["event-array", env([]), false, "event is an object, not an array"],
    ["event-string", env("delta"), false, "event is an object, not its type"],
    ["event-no-type", env({ text: "x" }), false, "event needs a type"],
    ["event-type-number", env({ type: 3 }), false, "event.type is a string"],
    ["event-type-null", env({ type: null, text: "x" }), false, "event.type is a string"],
  ],
  "v1.envelope.event-type": [
    [
      "type-products",
      env(ev("products", { products: [] })),
      false,
      "a domain event is not a v1 type",
    ],
    [
      "type-token",
      env(ev("token", { content: "x" })),
      false,
      "the legacy token name is not a v1 type",
    ],
    [
      "type-tool-start",
      env(ev("tool_start", { name: "x" })),
      false,
      "the legacy tool_start name is not a v1 type",
    ],
    ["type-case", env(ev("Delta", { text: "x" })), false, "types are case-sensitive"],
    ["type-empty", env(ev("", { text: "x" })), false, "the empty string is not a v1 type"],
    ["type-heartbeat", env(ev("heartbeat", {})), false, "heartbeat is not a v1 event"],
  ],
  "v1.envelope.unknown-keys": [
    [
      "extra-envelope-key",
      env(ev("delta", { text: "x" }), { trace: "abc" }),
      true,
      "an unknown envelope key is accepted and ignored",
    ],
    [
      "extra-event-key",
      env(ev("delta", { text: "x", model: "m" })),
      true,
      "an unknown event key is accepted and ignored",
    ],
    [
      "extra-usage-key",
      env(ev("done", { usage: { totalTokens: 3, cachedTokens: 1 } })),
      true,
      "an unknown usage key is accepted",
    ],
    [
      "extra-block-keys",
      env(
        ev("tool_result", {
          callId: "k",
          name: "n",
          ok: true,
          blocks: [{ id: "b", text: "t", sources: [{ ref: "r", page: 4 }], score: 1 }],
        }),
      ),
      true,
      "unknown block and source keys are accepted",
    ],
    [
      "proto-key",
      JSON.parse(
        '{"schemaVersion":1,"conversationId":"c1","turnId":"t1","eventId":"e1","seq":1,"__proto__":{"x":1},"event":{"type":"delta","text":"x","__proto__":null}}',
      ),
      true,
      "an own __proto__ key is an unknown key like any other",
    ],
  ],
  "v1.event.session": [
    [
      "session-one-char",
      env(ev("session", { sessionId: "s" })),
      true,
      "a one-character sessionId is fine",
    ],
    ["session-missing", env(ev("session")), false, "session needs sessionId"],
    ["session-empty", env(ev("session", { sessionId: "" })), false, "sessionId is non-empty"],
    ["session-number", env(ev("session", { sessionId: 5 })), false, "sessionId is a string"],
  ],
  "v1.event.text": [
    ["delta-empty", env(ev("delta", { text: "" })), true, "an empty delta is valid"],
    [
      "reasoning-empty",
      env(ev("reasoning", { text: "" })),
      true,
      "an empty reasoning fragment is valid",
    ],
    ["delta-missing", env(ev("delta")), false, "delta needs text"],
    ["delta-null", env(ev("delta", { text: null })), false, "delta text is a string"],
    ["delta-number", env(ev("delta", { text: 5 })), false, "delta text is a string"],
    ["reasoning-array", env(ev("reasoning", { text: ["a"] })), false, "reasoning text is a string"],
  ],
  "v1.event.tool-call": [
    [
      "tool-call-input-null",
      env(ev("tool_call", { callId: "k1", name: "search", input: null })),
      true,
      "tool input may be null",
    ],
    [
      "tool-call-input-array",
      env(ev("tool_call", { callId: "k1", name: "search", input: [1, "a"] })),
      true,
      "tool input may be any JSON, an array too",
    ],
    [
      "tool-call-no-call-id",
      env(ev("tool_call", { name: "search" })),
      false,
      "a v1 tool_call needs a callId",
    ],
    [
      "tool-call-empty-call-id",
      env(ev("tool_call", { callId: "", name: "search" })),
      false,
      "callId is non-empty",
    ],
    [
      "tool-call-number-call-id",
      env(ev("tool_call", { callId: 1, name: "search" })),
      false,
      "callId is a string",
    ],
    ["tool-call-no-name", env(ev("tool_call", { callId: "k1" })), false, "tool_call needs a name"],
    [
      "tool-call-empty-name",
      env(ev("tool_call", { callId: "k1", name: "" })),
      false,
      "name is non-empty",
    ],
  ],
  "v1.event.tool-progress": [
    [
      "progress-zero",
      env(ev("tool_progress", { callId: "k1", progress: 0 })),
      true,
      "progress 0 is valid",
    ],
    [
      "progress-one",
      env(ev("tool_progress", { callId: "k1", progress: 1 })),
      true,
      "progress 1 is valid (inclusive)",
    ],
    [
      "progress-empty-message",
      env(ev("tool_progress", { callId: "k1", message: "" })),
      true,
      "an empty message is valid",
    ],
    [
      "progress-below",
      env(ev("tool_progress", { callId: "k1", progress: -0.01 })),
      false,
      "progress is at least 0",
    ],
    [
      "progress-above",
      env(ev("tool_progress", { callId: "k1", progress: 1.01 })),
      false,
      "progress is at most 1",
    ],
    [
      "progress-percent",
      env(ev("tool_progress", { callId: "k1", progress: 50 })),
      false,
      "progress is a fraction, not a percentage",
    ],
    [
      "progress-string",
      env(ev("tool_progress", { callId: "k1", progress: "0.5" })),
      false,
      "progress is a number",
    ],
    [
      "progress-message-number",
      env(ev("tool_progress", { callId: "k1", message: 3 })),
      false,
      "message is a string",
    ],
    [
      "progress-no-call-id",
      env(ev("tool_progress", { progress: 0.5 })),
      false,
      "tool_progress needs a callId",
    ],
  ],
  "v1.event.tool-result": [
    [
      "result-empty-summary",
      env(ev("tool_result", { callId: "k1", name: "n", ok: false, summary: "" })),
      true,
      "an empty summary is valid; ok false is a tool-level failure",
    ],
    [
      "result-output-null",
      env(ev("tool_result", { callId: "k1", name: "n", ok: true, output: null })),
      true,
      "output may be null",
    ],
    [
      "result-no-ok",
      env(ev("tool_result", { callId: "k1", name: "n" })),
      false,
      "ok is required: a result never defaults to success",
    ],
    [
      "result-ok-string",
      env(ev("tool_result", { callId: "k1", name: "n", ok: "true" })),
      false,
      "ok is a boolean, not a string",
    ],
    [
      "result-ok-number",
      env(ev("tool_result", { callId: "k1", name: "n", ok: 1 })),
      false,
      "ok is a boolean, not 1",
    ],
    [
      "result-no-call-id",
      env(ev("tool_result", { name: "n", ok: true })),
      false,
      "tool_result needs a callId",
    ],
    [
      "result-empty-name",
      env(ev("tool_result", { callId: "k1", name: "", ok: true })),
      false,
      "name is non-empty",
    ],
    [
      "result-summary-number",
      env(ev("tool_result", { callId: "k1", name: "n", ok: true, summary: 1 })),
      false,
      "summary is a string",
    ],
  ],
  "v1.event.grounded-blocks": [
    [
      "blocks-empty",
      env(ev("tool_result", { callId: "k1", name: "n", ok: true, blocks: [] })),
      true,
      "an empty blocks array is valid",
    ],
    [
      "blocks-no-sources",
      env(
        ev("tool_result", {
          callId: "k1",
          name: "n",
          ok: true,
          blocks: [{ id: "b1", text: "", sources: [] }],
        }),
      ),
      true,
      "an ungrounded block (no sources) is valid",
    ],
    [
      "blocks-object",
      env(ev("tool_result", { callId: "k1", name: "n", ok: true, blocks: {} })),
      false,
      "blocks is an array",
    ],
    [
      "blocks-item-number",
      env(ev("tool_result", { callId: "k1", name: "n", ok: true, blocks: [1] })),
      false,
      "each block is an object",
    ],
    [
      "blocks-empty-id",
      env(
        ev("tool_result", {
          callId: "k1",
          name: "n",
          ok: true,
          blocks: [{ id: "", text: "t", sources: [] }],
        }),
      ),
      false,
      "a block id is non-empty",
    ],
    [
      "blocks-no-text",
      env(
        ev("tool_result", {
          callId: "k1",
          name: "n",
          ok: true,
          blocks: [{ id: "b", sources: [] }],
        }),
      ),
      false,
      "a block needs text",
    ],
    [
      "blocks-no-sources-key",
      env(
        ev("tool_result", { callId: "k1", name: "n", ok: true, blocks: [{ id: "b", text: "t" }] }),
      ),
      false,
      "a block needs a sources array",
    ],
    [
      "blocks-source-empty-ref",
      env(
        ev("tool_result", {
          callId: "k1",
          name: "n",
          ok: true,
          blocks: [{ id: "b", text: "t", sources: [{ ref: "" }] }],
        }),
      ),
      false,
      "a source ref is non-empty",
    ],
    [
      "blocks-source-label-number",
      env(
        ev("tool_result", {
          callId: "k1",
          name: "n",
          ok: true,
          blocks: [{ id: "b", text: "t", sources: [{ ref: "r", label: 2 }] }],
        }),
      ),
      false,
      "a source label is a string",
    ],
  ],
  "v1.event.provenance": [
    [
      "provenance-route-null",
      env(ev("provenance", { engine: "loop", model: "m", accountRoute: null })),
      true,
      "accountRoute null means explicitly none",
    ],
    [
      "provenance-empty-provider",
      env(ev("provenance", { engine: "loop", model: "m", provider: "" })),
      true,
      "provider may be empty",
    ],
    [
      "provenance-empty-engine",
      env(ev("provenance", { engine: "", model: "m" })),
      false,
      "engine is non-empty",
    ],
    [
      "provenance-no-model",
      env(ev("provenance", { engine: "loop" })),
      false,
      "provenance needs a model",
    ],
    [
      "provenance-provider-number",
      env(ev("provenance", { engine: "loop", model: "m", provider: 1 })),
      false,
      "provider is a string",
    ],
    [
      "provenance-route-false",
      env(ev("provenance", { engine: "loop", model: "m", accountRoute: false })),
      false,
      "accountRoute is a string or null",
    ],
  ],
  "v1.event.card": [
    [
      "card-empty-prompt",
      env(ev("card", { card: { correlationId: "k1", prompt: "", createdAt: 0 } })),
      true,
      "an empty prompt is valid",
    ],
    [
      "card-negative-time",
      env(ev("card", { card: { correlationId: "k1", prompt: "Which?", createdAt: -5 } })),
      true,
      "createdAt is only required to be finite",
    ],
    [
      "card-product-kind",
      env(
        ev("card", {
          card: {
            correlationId: "k1",
            prompt: "Rate",
            createdAt: 1,
            presentation: { kind: "rating", stars: 5 },
          },
        }),
      ),
      true,
      "a product's own card kind passes the envelope",
    ],
    ["card-missing", env(ev("card")), false, "card needs a card object"],
    ["card-array", env(ev("card", { card: [] })), false, "card is an object"],
    [
      "card-empty-correlation",
      env(ev("card", { card: { correlationId: "", prompt: "p", createdAt: 0 } })),
      false,
      "correlationId is non-empty",
    ],
    [
      "card-no-prompt",
      env(ev("card", { card: { correlationId: "k1", createdAt: 0 } })),
      false,
      "a card needs a prompt",
    ],
    [
      "card-created-string",
      env(ev("card", { card: { correlationId: "k1", prompt: "p", createdAt: "0" } })),
      false,
      "createdAt is a number",
    ],
    [
      "card-no-created",
      env(ev("card", { card: { correlationId: "k1", prompt: "p" } })),
      false,
      "a v1 card needs createdAt",
    ],
  ],
  "v1.event.card-closed": [
    [
      "closed-no-resolution",
      env(ev("card_closed", { correlationId: "k1" })),
      true,
      "resolution is optional",
    ],
    [
      "closed-interrupted",
      env(ev("card_closed", { correlationId: "k1", resolution: "interrupted" })),
      true,
      "interrupted is a resolution",
    ],
    [
      "closed-empty-id",
      env(ev("card_closed", { correlationId: "" })),
      false,
      "correlationId is non-empty",
    ],
    [
      "closed-unknown-resolution",
      env(ev("card_closed", { correlationId: "k1", resolution: "answered" })),
      false,
      "resolution is one of five",
    ],
    [
      "closed-null-resolution",
      env(ev("card_closed", { correlationId: "k1", resolution: null })),
      false,
      "resolution, when present, is a string",
    ],
  ],
  "v1.event.state": [
    [
      "state-version-zero",
      env(ev("state", { version: 0, snapshot: { a: 1 } })),
      true,
      "version 0 is valid",
    ],
    [
      "state-snapshot-null",
      env(ev("state", { version: 3, snapshot: null })),
      true,
      "snapshot null means none",
    ],
    [
      "state-no-snapshot",
      env(ev("state", { version: 1 })),
      false,
      "the snapshot key is required (null for none)",
    ],
    [
      "state-version-negative",
      env(ev("state", { version: -1, snapshot: null })),
      false,
      "version is non-negative",
    ],
    [
      "state-version-fraction",
      env(ev("state", { version: 1.5, snapshot: null })),
      false,
      "version is an integer",
    ],
    [
      "state-version-string",
      env(ev("state", { version: "1", snapshot: null })),
      false,
      "version is a number",
    ],
    [
      "state-version-unsafe",
      env(ev("state", { version: 9007199254740992, snapshot: null })),
      false,
      "version is a safe integer",
    ],
  ],
  "v1.event.done": [
    ["done-empty-usage", env(ev("done", { usage: {} })), true, "an empty usage object is valid"],
    [
      "done-zero-usage",
      env(ev("done", { stopReason: "complete", usage: { totalTokens: 0, costUsd: 0 } })),
      true,
      "zero counts are valid",
    ],
    ["done-stop-number", env(ev("done", { stopReason: 1 })), false, "stopReason is a string"],
    ["done-usage-array", env(ev("done", { usage: [] })), false, "usage is an object"],
    [
      "done-usage-negative",
      env(ev("done", { usage: { totalTokens: -1 } })),
      false,
      "counts are not negative",
    ],
    [
      "done-usage-string",
      env(ev("done", { usage: { inputTokens: "5" } })),
      false,
      "counts are numbers",
    ],
    [
      "done-usage-null",
      env(ev("done", { usage: { costUsd: null } })),
      false,
      "a present count is a number",
    ],
  ],
  "v1.event.error": [
    [
      "error-empty",
      env(ev("error", { message: "", code: "", retryable: false })),
      true,
      "empty message and code are valid",
    ],
    [
      "error-no-retryable",
      env(ev("error", { message: "boom" })),
      false,
      "retryable is required: a client never guesses",
    ],
    [
      "error-retryable-string",
      env(ev("error", { message: "boom", retryable: "true" })),
      false,
      "retryable is a boolean",
    ],
    [
      "error-retryable-null",
      env(ev("error", { message: "boom", retryable: null })),
      false,
      "retryable is a boolean",
    ],
    ["error-no-message", env(ev("error", { retryable: false })), false, "error needs a message"],
    [
      "error-code-number",
      env(ev("error", { message: "m", code: 429, retryable: true })),
      false,
      "code is a string",
    ],
  ],
  "v1.event.retry-rule": [
    [
      "retry-zero-wait",
      env(ev("error", { message: "m", retryable: true, retryAfterMs: 0 })),
      true,
      "retryAfterMs 0 with retryable true is valid",
    ],
    [
      "retry-not-allowed",
      env(ev("error", { message: "m", retryable: false, retryAfterMs: 1000 })),
      false,
      "retryAfterMs is only allowed when retryable is true",
    ],
    [
      "retry-not-allowed-zero",
      env(ev("error", { message: "m", retryable: false, retryAfterMs: 0 })),
      false,
      "even retryAfterMs 0 needs retryable true",
    ],
    [
      "retry-negative",
      env(ev("error", { message: "m", retryable: true, retryAfterMs: -1 })),
      false,
      "retryAfterMs is not negative",
    ],
    [
      "retry-string",
      env(ev("error", { message: "m", retryable: true, retryAfterMs: "1000" })),
      false,
      "retryAfterMs is a number of milliseconds",
    ],
    [
      "retry-null",
      env(ev("error", { message: "m", retryable: true, retryAfterMs: null })),
      false,
      "a present retryAfterMs is a number",
    ],
  ],
  "v1.event.navigate": [
    [
      "navigate-empty",
      env(ev("navigate", { href: "" })),
      true,
      "an empty href is valid (the client's router decides)",
    ],
    ["navigate-missing", env(ev("navigate")), false, "navigate needs href"],
    ["navigate-number", env(ev("navigate", { href: 5 })), false, "href is a string"],
  ],
  "v1.event.turn-status": [
    [
      "turn-status-empty-reason",
      env(ev("turn_status", { status: "cancelled", reason: "" })),
      true,
      "an empty reason is valid",
    ],
    [
      "turn-status-completed",
      env(ev("turn_status", { status: "completed" })),
      false,
      "completed comes from done, not turn_status",
    ],
    [
      "turn-status-failed",
      env(ev("turn_status", { status: "failed" })),
      false,
      "failed comes from error, not turn_status",
    ],
    [
      "turn-status-awaiting",
      env(ev("turn_status", { status: "awaiting-input" })),
      false,
      "awaiting-input comes from cards",
    ],
    [
      "turn-status-upper",
      env(ev("turn_status", { status: "RUNNING" })),
      false,
      "statuses are case-sensitive",
    ],
    [
      "turn-status-missing",
      env(ev("turn_status", { reason: "x" })),
      false,
      "turn_status needs a status",
    ],
    [
      "turn-status-reason-number",
      env(ev("turn_status", { status: "running", reason: 1 })),
      false,
      "reason is a string",
    ],
  ],
};

/** Bare events against `v1/chat-event`. */
const eventCases: [string, Json, boolean, string, string][] = [
  [
    "event-doc-extra",
    ev("delta", { text: "hi", extra: true }),
    true,
    "v1.envelope.unknown-keys",
    "an unknown event key is accepted in a bare event too",
  ],
  [
    "event-doc-unknown-type",
    ev("products", {}),
    false,
    "v1.envelope.event-type",
    "a bare event of an unknown type is refused",
  ],
  [
    "event-doc-retry",
    ev("error", { message: "m", retryable: false, retryAfterMs: 5 }),
    false,
    "v1.event.retry-rule",
    "the retry rule holds for a bare event",
  ],
  [
    "event-doc-progress",
    ev("tool_progress", { callId: "k", progress: 1 }),
    true,
    "v1.event.tool-progress",
    "progress 1 in a bare event",
  ],
  ["event-doc-array", [], false, "v1.envelope.object", "a bare event is an object"],
];

// ---------------------------------------------------------------------------
// ChatStateV1

const state = (over: Record<string, Json | undefined>): Json => {
  const s: JsonObject = {
    schemaVersion: 1,
    conversationId: "c1",
    turnId: "t1",
    status: "running",
    lastSeq: 3,
    lastEventId: "e3",
    text: "Hello",
    reasoning: "",
    tools: [{
      callId: "k1",
      name: "search",
      status: "ok",
      startedSeq: 1,
      finishedSeq: 2,
      input: { q: 1 },
    }],
    openCards: [],
    closedCards: [],
  };
  for (const [k, v] of Object.entries(over)) {
    if (v === undefined) delete s[k];
    else s[k] = v;
  }
  return s;
};
const card = (id: string): JsonObject => ({ correlationId: id, prompt: "Which?", createdAt: 0 });
const STATE = "v1/chat-state";

const stateCases: [string, Json, boolean, string, string][] = [
  [
    "state-fresh",
    state({ lastSeq: 0, lastEventId: null, text: "", tools: [] }),
    true,
    "v1.state.last-event-id",
    "a fresh state: lastSeq 0 and lastEventId null",
  ],
  [
    "state-zero-with-id",
    state({ lastSeq: 0, lastEventId: "e1", tools: [] }),
    false,
    "v1.state.last-event-id",
    "lastSeq 0 has no lastEventId",
  ],
  [
    "state-seq-without-id",
    state({ lastEventId: null }),
    false,
    "v1.state.last-event-id",
    "lastSeq 3 needs a lastEventId",
  ],
  [
    "state-empty-last-id",
    state({ lastEventId: "" }),
    false,
    "v1.state.last-event-id",
    "lastEventId is non-empty",
  ],
  [
    "state-failed-open-card",
    state({ status: "failed", openCards: [card("q1")], error: { message: "m", retryable: false } }),
    true,
    "v1.state.status-cards",
    "a failed turn may still list an open card",
  ],
  [
    "state-awaiting-no-card",
    state({ status: "awaiting-input" }),
    false,
    "v1.state.status-cards",
    "awaiting-input needs an open card",
  ],
  [
    "state-running-with-card",
    state({ openCards: [card("q1")] }),
    false,
    "v1.state.status-cards",
    "running has no open card",
  ],
  [
    "state-completed-with-card",
    state({ status: "completed", done: {}, openCards: [card("q1")] }),
    false,
    "v1.state.status-cards",
    "completed has no open card",
  ],
  [
    "state-cancelled-plain",
    state({ status: "cancelled", statusReason: "user" }),
    true,
    "v1.state.status-terminal",
    "cancelled has neither done nor error",
  ],
  [
    "state-completed-no-done",
    state({ status: "completed" }),
    false,
    "v1.state.status-terminal",
    "completed needs done",
  ],
  [
    "state-running-with-done",
    state({ done: { stopReason: "x" } }),
    false,
    "v1.state.status-terminal",
    "done only when completed",
  ],
  [
    "state-failed-no-error",
    state({ status: "failed" }),
    false,
    "v1.state.status-terminal",
    "failed needs error",
  ],
  [
    "state-cancelled-with-error",
    state({ status: "cancelled", error: { message: "m", retryable: false } }),
    false,
    "v1.state.status-terminal",
    "error only when failed",
  ],
  [
    "state-tool-error",
    state({ tools: [{ callId: "k1", name: "n", status: "error", startedSeq: 1, finishedSeq: 1 }] }),
    true,
    "v1.state.tool-finished",
    "a failed tool has finishedSeq",
  ],
  [
    "state-running-tool-finished",
    state({
      tools: [{ callId: "k1", name: "n", status: "running", startedSeq: 1, finishedSeq: 2 }],
    }),
    false,
    "v1.state.tool-finished",
    "a running tool has no finishedSeq",
  ],
  [
    "state-ok-tool-unfinished",
    state({ tools: [{ callId: "k1", name: "n", status: "ok", startedSeq: 1 }] }),
    false,
    "v1.state.tool-finished",
    "a finished tool needs finishedSeq",
  ],
  [
    "state-call-equals-card",
    state({ status: "awaiting-input", openCards: [card("k1")] }),
    true,
    "v1.state.unique-ids",
    "a callId and a correlationId may be equal (separate namespaces)",
  ],
  [
    "state-duplicate-call",
    state({
      tools: [{ callId: "k1", name: "n", status: "running", startedSeq: 1 }, {
        callId: "k1",
        name: "n",
        status: "running",
        startedSeq: 2,
      }],
    }),
    false,
    "v1.state.unique-ids",
    "callIds are unique",
  ],
  [
    "state-card-open-and-closed",
    state({
      status: "awaiting-input",
      openCards: [card("q1")],
      closedCards: [{ correlationId: "q1" }],
    }),
    false,
    "v1.state.unique-ids",
    "a card is open or closed, not both",
  ],
  [
    "state-closed-twice",
    state({
      closedCards: [{ correlationId: "q1" }, { correlationId: "q1", resolution: "expired" }],
    }),
    false,
    "v1.state.unique-ids",
    "a card closes once",
  ],
  [
    "state-duplicate-open",
    state({ status: "awaiting-input", openCards: [card("q1"), card("q1")] }),
    false,
    "v1.state.unique-ids",
    "an open card is listed once",
  ],
  [
    "state-seq-at-bound",
    state({ tools: [{ callId: "k1", name: "n", status: "ok", startedSeq: 3, finishedSeq: 3 }] }),
    true,
    "v1.state.seq-bounds",
    "startedSeq and finishedSeq may equal lastSeq",
  ],
  [
    "state-started-after",
    state({ tools: [{ callId: "k1", name: "n", status: "running", startedSeq: 4 }] }),
    false,
    "v1.state.seq-bounds",
    "startedSeq is at most lastSeq",
  ],
  [
    "state-finished-after",
    state({ tools: [{ callId: "k1", name: "n", status: "ok", startedSeq: 1, finishedSeq: 9 }] }),
    false,
    "v1.state.seq-bounds",
    "finishedSeq is at most lastSeq",
  ],
  [
    "state-extra-key",
    state({ cursor: "x" }),
    true,
    "v1.state.shape",
    "unknown keys of a saved state are ignored",
  ],
  [
    "state-bad-status",
    state({ status: "done" }),
    false,
    "v1.state.shape",
    "status is one of the seven",
  ],
  [
    "state-negative-seq",
    state({ lastSeq: -1, lastEventId: "e" }),
    false,
    "v1.state.shape",
    "lastSeq is non-negative",
  ],
  ["state-fraction-seq", state({ lastSeq: 2.5 }), false, "v1.state.shape", "lastSeq is an integer"],
  [
    "state-empty-conversation",
    state({ conversationId: "" }),
    false,
    "v1.state.shape",
    "conversationId is non-empty",
  ],
  ["state-text-null", state({ text: null }), false, "v1.state.shape", "text is a string"],
  ["state-tools-object", state({ tools: {} }), false, "v1.state.shape", "tools is an array"],
  [
    "state-empty-session",
    state({ sessionId: "" }),
    false,
    "v1.state.shape",
    "sessionId, when present, is non-empty",
  ],
  [
    "state-reason-number",
    state({ statusReason: 5 }),
    false,
    "v1.state.shape",
    "statusReason is a string",
  ],
];

// ---------------------------------------------------------------------------
// Other documents

const CAP = "v1/chat-capabilities";
const caps = (over: JsonObject = {}): JsonObject => ({
  connectionReplay: true,
  persistedHistory: true,
  persistedDecisions: false,
  completedToolCheckpoints: false,
  interruptedTurnRecovery: false,
  ...over,
});
const capabilityCases: [string, Json, boolean, string][] = [
  ["capabilities-extra", caps({ futureFlag: true }), true, "an unknown capability key is ignored"],
  [
    "capabilities-missing",
    (() => {
      const c = caps();
      delete c.persistedDecisions;
      return c;
    })(),
    false,
    "every capability is declared",
  ],
  [
    "capabilities-string",
    caps({ connectionReplay: "true" }),
    false,
    "a capability is a boolean, not a string",
  ],
  [
    "capabilities-number",
    caps({ interruptedTurnRecovery: 1 }),
    false,
    "a capability is a boolean, not 1",
  ],
  [
    "capabilities-null",
    caps({ persistedHistory: null }),
    false,
    "a capability is a boolean, not null",
  ],
];

const V0 = "v0/chat-event";
const v0Cases: [string, Json, boolean, string][] = [
  ["v0-session-empty", { type: "session", sessionId: "" }, true, "v0 accepts an empty sessionId"],
  [
    "v0-card-closed-empty",
    { type: "card_closed", correlationId: "" },
    true,
    "v0 accepts an empty correlationId",
  ],
  [
    "v0-state-fraction",
    { type: "state", version: 1.5, snapshot: null },
    true,
    "v0 state.version is any number",
  ],
  [
    "v0-provenance-empty",
    { type: "provenance", engine: "", model: "" },
    true,
    "v0 provenance strings may be empty",
  ],
  ["v0-error-empty", { type: "error", message: "" }, true, "an empty error message is a v0 error"],
  [
    "v0-token",
    { type: "token", content: "x" },
    false,
    "token is not a v0 event (the legacy name never leaks in)",
  ],
  ["v0-delta-missing", { type: "delta" }, false, "delta needs text"],
  [
    "v0-tool-call-empty-name",
    { type: "tool_call", name: "" },
    false,
    "tool_call needs a non-empty name",
  ],
  [
    "v0-tool-result-ok-string",
    { type: "tool_result", name: "n", ok: "yes" },
    false,
    "tool_result ok, when present, is a boolean",
  ],
  [
    "v0-card-no-prompt",
    { type: "card", card: { correlationId: "k" } },
    false,
    "a v0 card needs a string prompt",
  ],
  ["v0-navigate-number", { type: "navigate", href: 1 }, false, "navigate href is a string"],
  ["v0-error-missing", { type: "error" }, false, "a normalised v0 error has a message"],
  [
    "v0-state-string-version",
    { type: "state", version: "1", snapshot: {} },
    false,
    "v0 state.version is a number",
  ],
  ["v0-done-usage-array", { type: "done", usage: [] }, false, "v0 done.usage is an object"],
  ["v0-no-type", { text: "x" }, false, "a normalised v0 event carries its type"],
];

const SNAP = "cards/open-card-snapshot";
const cardCases: [string, string, Json, boolean, string, string][] = [
  [
    "card-confirm",
    SNAP,
    { correlationId: "k1", prompt: "Proceed?", createdAt: 1767225600000 },
    true,
    "cards.snapshot.shape",
    "a plain confirm card (no presentation)",
  ],
  [
    "card-approval",
    SNAP,
    {
      correlationId: "k1",
      prompt: "Apply?",
      createdAt: 0,
      approval: { title: "Update(a.js)", question: "Apply?", body: ["+1"] },
      allowDecline: true,
      timeoutMs: 0,
    },
    true,
    "cards.snapshot.shape",
    "an approval card",
  ],
  [
    "card-product-kind",
    SNAP,
    { correlationId: "k1", prompt: "Rate", createdAt: 0, presentation: { kind: "rating" } },
    false,
    "cards.snapshot.shape",
    "the built-in card schema refuses a product kind (register it with createCardSchemas)",
  ],
  [
    "card-option-no-label",
    SNAP,
    {
      correlationId: "k1",
      prompt: "p",
      createdAt: 0,
      presentation: { kind: "radio", options: [{ id: "a" }] },
    },
    false,
    "cards.snapshot.shape",
    "an option needs a label",
  ],
  [
    "card-created-string",
    SNAP,
    { correlationId: "k1", prompt: "p", createdAt: "0" },
    false,
    "cards.snapshot.shape",
    "createdAt is a number",
  ],
  [
    "card-no-correlation",
    SNAP,
    { prompt: "p", createdAt: 0 },
    false,
    "cards.snapshot.shape",
    "an open card needs a correlationId",
  ],
  [
    "card-decline-string",
    SNAP,
    { correlationId: "k1", prompt: "p", createdAt: 0, allowDecline: "yes" },
    false,
    "cards.snapshot.shape",
    "allowDecline is a boolean",
  ],
  [
    "card-timeout-negative",
    SNAP,
    { correlationId: "k1", prompt: "p", createdAt: 0, timeoutMs: -1 },
    false,
    "cards.snapshot.shape",
    "timeoutMs is not negative",
  ],
  [
    "card-approval-body",
    SNAP,
    {
      correlationId: "k1",
      prompt: "p",
      createdAt: 0,
      approval: { title: "t", question: "q", body: "x" },
    },
    false,
    "cards.snapshot.shape",
    "approval.body is an array of lines",
  ],
  [
    "card-style",
    SNAP,
    {
      correlationId: "k1",
      prompt: "p",
      createdAt: 0,
      presentation: { kind: "radio", options: [{ id: "a", label: "A", style: "loud" }] },
    },
    false,
    "cards.snapshot.shape",
    "an option style is default, primary or danger",
  ],
  [
    "spec-plain",
    "cards/card-spec",
    { prompt: "Proceed?", fallbackText: "Say yes" },
    true,
    "cards.snapshot.shape",
    "a card spec without presentation",
  ],
  [
    "spec-no-prompt",
    "cards/card-spec",
    { presentation: { kind: "text" } },
    false,
    "cards.snapshot.shape",
    "a card spec needs a prompt",
  ],
  [
    "response-empty-value",
    "cards/card-response",
    { action: "submit", correlationId: "k1", value: {} },
    true,
    "cards.response.shape",
    "a submit with an empty value (a confirm card)",
  ],
  [
    "response-accept",
    "cards/card-response",
    { action: "accept", correlationId: "k1" },
    false,
    "cards.response.shape",
    "accept is an MCP action, not a card action",
  ],
  [
    "response-submit-no-value",
    "cards/card-response",
    { action: "submit", correlationId: "k1" },
    false,
    "cards.response.shape",
    "submit needs a value",
  ],
  [
    "response-value-array",
    "cards/card-response",
    { action: "submit", correlationId: "k1", value: [] },
    false,
    "cards.response.shape",
    "value is an object",
  ],
  [
    "response-correlation-number",
    "cards/card-response",
    { action: "cancel", correlationId: 1 },
    false,
    "cards.response.shape",
    "correlationId is a string",
  ],
];

const REPORT = "blocks/report-block", ASK = "blocks/ask-block";
const goal = {
  schemaVersion: 1,
  goalId: "g1",
  reportId: "r1",
  bodySha256: "0123456789abcdef".repeat(4),
};
const blockCases: [string, string, Json, boolean, string, string][] = [
  [
    "report-inner-space",
    REPORT,
    { plans: [{ title: "Ship it" }] },
    true,
    "blocks.normalised-strings",
    "inner whitespace is kept",
  ],
  [
    "report-goal-only",
    REPORT,
    { plans: [], goalReport: goal },
    true,
    "blocks.report.plans-or-goal",
    "a goal report alone is a report",
  ],
  [
    "report-goal",
    REPORT,
    { plans: [{ title: "A" }], goalReport: goal, title: "T" },
    true,
    "blocks.goal-report-ref",
    "a valid goal report reference",
  ],
  [
    "report-one-item",
    REPORT,
    { plans: [{ title: "A", items: [{ text: "x" }] }] },
    true,
    "blocks.non-empty-lists",
    "a plan with one item",
  ],
  [
    "report-untrimmed-title",
    REPORT,
    { plans: [{ title: " A" }] },
    false,
    "blocks.normalised-strings",
    "a normalised title has no surrounding whitespace",
  ],
  [
    "report-empty-title",
    REPORT,
    { plans: [{ title: "" }] },
    false,
    "blocks.normalised-strings",
    "a normalised title is non-empty",
  ],
  [
    "report-newline-status",
    REPORT,
    { plans: [{ title: "A", status: "done\n" }] },
    false,
    "blocks.normalised-strings",
    "a trailing newline is surrounding whitespace",
  ],
  [
    "report-nbsp",
    REPORT,
    { plans: [{ title: "A\u00a0" }] },
    false,
    "blocks.normalised-strings",
    "U+00A0 counts as whitespace (JavaScript trim)",
  ],
  [
    "report-no-plans",
    REPORT,
    { plans: [] },
    false,
    "blocks.report.plans-or-goal",
    "a report needs a plan or a goal report",
  ],
  [
    "report-goal-extra",
    REPORT,
    { plans: [], goalReport: { ...goal, extra: 1 } },
    false,
    "blocks.goal-report-ref",
    "a goal report reference is a closed object",
  ],
  [
    "report-goal-upper",
    REPORT,
    { plans: [], goalReport: { ...goal, bodySha256: "ABCDEF0123456789".repeat(4) } },
    false,
    "blocks.goal-report-ref",
    "bodySha256 is lowercase hex",
  ],
  [
    "report-goal-short",
    REPORT,
    { plans: [], goalReport: { ...goal, bodySha256: "a".repeat(63) } },
    false,
    "blocks.goal-report-ref",
    "bodySha256 has 64 characters",
  ],
  [
    "report-goal-newline",
    REPORT,
    { plans: [], goalReport: { ...goal, bodySha256: "a".repeat(64) + "\n" } },
    false,
    "blocks.goal-report-ref",
    "a trailing newline is not hex (regex end is the string end)",
  ],
  [
    "report-goal-version",
    REPORT,
    { plans: [], goalReport: { ...goal, schemaVersion: 2 } },
    false,
    "blocks.goal-report-ref",
    "goal report references are version 1",
  ],
  [
    "report-empty-items",
    REPORT,
    { plans: [{ title: "A", items: [] }] },
    false,
    "blocks.non-empty-lists",
    "items, when present, is non-empty",
  ],
  [
    "ask-plain",
    ASK,
    { question: "Merge it?" },
    true,
    "blocks.normalised-strings",
    "a question alone",
  ],
  [
    "ask-one-option",
    ASK,
    { question: "Q", options: [{ id: "y", label: "Y" }] },
    true,
    "blocks.non-empty-lists",
    "one option",
  ],
  [
    "ask-empty-options",
    ASK,
    { question: "Q", options: [] },
    false,
    "blocks.non-empty-lists",
    "options, when present, is non-empty",
  ],
  [
    "ask-empty-refs",
    ASK,
    { question: "Q", refs: [] },
    false,
    "blocks.non-empty-lists",
    "refs, when present, is non-empty",
  ],
  [
    "ask-blank-question",
    ASK,
    { question: " " },
    false,
    "blocks.normalised-strings",
    "the question is non-blank",
  ],
  [
    "ask-padded-ref",
    ASK,
    { question: "Q", refs: [" P-1"] },
    false,
    "blocks.normalised-strings",
    "refs are trimmed",
  ],
];

const UI = "message/ui-message",
  CHAT = "message/chat-message",
  INBOUND = "message/inbound-chat-message";
const msg = (over: JsonObject = {}): JsonObject => ({
  id: "m1",
  threadId: "th1",
  authorId: "u1",
  role: "user",
  createdAt: "2026-01-01T00:00:00Z",
  parts: [{ type: "text", text: "Hi" }],
  ...over,
});
const messageCases: [string, string, Json, boolean, string, string][] = [
  [
    "ui-assistant-empty",
    UI,
    { id: "m1", role: "assistant", parts: [] },
    true,
    "message.non-assistant-parts",
    "an assistant message may have no part yet",
  ],
  [
    "ui-user-empty",
    UI,
    { id: "m1", role: "user", parts: [] },
    false,
    "message.non-assistant-parts",
    "a user message has at least one part",
  ],
  [
    "ui-system-empty",
    UI,
    { id: "m1", role: "system", parts: [] },
    false,
    "message.non-assistant-parts",
    "a system message has at least one part",
  ],
  [
    "ui-dynamic-tool",
    UI,
    {
      id: "m1",
      role: "assistant",
      parts: [{
        type: "dynamic-tool",
        toolName: "x",
        toolCallId: "k",
        state: "input-available",
        input: {},
      }],
    },
    true,
    "message.part-types",
    "a dynamic tool part",
  ],
  [
    "ui-custom-part",
    UI,
    { id: "m1", role: "assistant", parts: [{ type: "custom", kind: "x" }] },
    false,
    "message.part-types",
    "custom parts are not part of this document",
  ],
  [
    "ui-tool-no-name",
    UI,
    {
      id: "m1",
      role: "assistant",
      parts: [{ type: "tool-", toolCallId: "k", state: "input-available", input: {} }],
    },
    false,
    "message.part-types",
    "tool-<name> needs a name",
  ],
  [
    "ui-part-no-type",
    UI,
    { id: "m1", role: "assistant", parts: [{ text: "x" }] },
    false,
    "message.part-types",
    "a part needs a type",
  ],
  [
    "ui-denied",
    UI,
    {
      id: "m1",
      role: "assistant",
      parts: [{
        type: "tool-x",
        toolCallId: "k",
        state: "output-denied",
        input: {},
        approval: { id: "a", approved: false },
      }],
    },
    true,
    "message.tool-states",
    "a denied tool call",
  ],
  [
    "ui-output-missing",
    UI,
    {
      id: "m1",
      role: "assistant",
      parts: [{ type: "tool-x", toolCallId: "k", state: "output-available", input: {} }],
    },
    false,
    "message.tool-states",
    "output-available needs output",
  ],
  [
    "ui-error-text-missing",
    UI,
    {
      id: "m1",
      role: "assistant",
      parts: [{ type: "tool-x", toolCallId: "k", state: "output-error" }],
    },
    false,
    "message.tool-states",
    "output-error needs errorText",
  ],
  [
    "ui-requested-approved",
    UI,
    {
      id: "m1",
      role: "assistant",
      parts: [{
        type: "tool-x",
        toolCallId: "k",
        state: "approval-requested",
        input: {},
        approval: { id: "a", approved: true },
      }],
    },
    false,
    "message.tool-states",
    "a requested approval carries no decision",
  ],
  [
    "ui-input-with-approval",
    UI,
    {
      id: "m1",
      role: "assistant",
      parts: [{
        type: "tool-x",
        toolCallId: "k",
        state: "input-available",
        input: {},
        approval: { id: "a" },
      }],
    },
    false,
    "message.tool-states",
    "input-available has no approval",
  ],
  [
    "ui-raw-input-number",
    UI,
    {
      id: "m1",
      role: "assistant",
      parts: [{ type: "tool-x", toolCallId: "k", state: "input-streaming", rawInput: 3 }],
    },
    false,
    "message.tool-states",
    "rawInput is a string while input-streaming",
  ],
  [
    "ui-output-in-input",
    UI,
    {
      id: "m1",
      role: "assistant",
      parts: [{ type: "tool-x", toolCallId: "k", state: "input-available", input: {}, output: 1 }],
    },
    false,
    "message.tool-states",
    "output only in output-available",
  ],
  [
    "ui-data-null",
    UI,
    { id: "m1", role: "assistant", parts: [{ type: "data-weather", data: null }] },
    true,
    "message.data-part",
    "data may be null",
  ],
  [
    "ui-data-missing",
    UI,
    { id: "m1", role: "assistant", parts: [{ type: "data-weather" }] },
    false,
    "message.data-part",
    "a data part needs data",
  ],
  [
    "ui-data-bad-name",
    UI,
    { id: "m1", role: "assistant", parts: [{ type: "data-1x", data: 1 }] },
    false,
    "message.data-part",
    "data-<identifier> starts with a letter or _",
  ],
  [
    "ui-data-dash",
    UI,
    { id: "m1", role: "assistant", parts: [{ type: "data-a-b", data: 1 }] },
    false,
    "message.data-part",
    "an identifier has no dash",
  ],
  [
    "chat-offset",
    CHAT,
    msg({ createdAt: "2026-01-01T02:00:00.250+02:00" }),
    true,
    "message.iso-time",
    "an offset and fractional seconds",
  ],
  [
    "chat-date-only",
    CHAT,
    msg({ createdAt: "2026-01-01" }),
    false,
    "message.iso-time",
    "a date alone is not a date-time",
  ],
  [
    "chat-no-offset",
    CHAT,
    msg({ createdAt: "2026-01-01T00:00:00" }),
    false,
    "message.iso-time",
    "a date-time needs Z or an offset",
  ],
  [
    "chat-feb-30",
    CHAT,
    msg({ createdAt: "2026-02-30T00:00:00Z" }),
    false,
    "message.iso-time",
    "February 30th does not exist",
  ],
  [
    "chat-arabic-digits",
    CHAT,
    msg({ createdAt: "\u0662\u0660\u0662\u0666-01-01T00:00:00Z" }),
    false,
    "message.iso-time",
    "a date-time's digits are ASCII digits (not Arabic-Indic ones)",
  ],
  [
    "chat-trailing-newline",
    CHAT,
    msg({ createdAt: "2026-01-01T00:00:00Z\n" }),
    false,
    "message.iso-time",
    "a trailing newline is not part of a date-time",
  ],
  [
    "chat-delivery-at",
    CHAT,
    msg({ delivery: [{ participantId: "p", status: "read", at: "yesterday" }] }),
    false,
    "message.iso-time",
    "delivery at is a date-time",
  ],
  [
    "chat-endorsed",
    CHAT,
    msg({ provenance: { authored: "agent", endorsedBy: "human", attestedBy: "u1" } }),
    true,
    "message.provenance",
    "a stored endorsement is kept",
  ],
  [
    "chat-endorsed-no-attest",
    CHAT,
    msg({ provenance: { authored: "agent", endorsedBy: "human" } }),
    false,
    "message.provenance",
    "an endorsement needs attestedBy",
  ],
  [
    "chat-authored-robot",
    CHAT,
    msg({ provenance: { authored: "robot" } }),
    false,
    "message.provenance",
    "authored is human or agent",
  ],
  [
    "chat-provenance-extra",
    CHAT,
    msg({ provenance: { authored: "human", trusted: true } }),
    false,
    "message.provenance",
    "provenance objects are closed",
  ],
  [
    "inbound-provenance",
    INBOUND,
    msg({ provenance: { authored: "human" } }),
    false,
    "message.inbound-closed",
    "a transport may not claim provenance",
  ],
  [
    "inbound-delivery",
    INBOUND,
    msg({ delivery: [] }),
    false,
    "message.inbound-closed",
    "a transport may not claim delivery",
  ],
  [
    "inbound-extra",
    INBOUND,
    msg({ priority: 1 }),
    false,
    "message.inbound-closed",
    "an inbound body is closed",
  ],
];

function group(
  file: string,
  rows: [string, string, Json, boolean, string, string][],
): CaseGroup {
  return {
    file,
    cases: rows.map(([id, doc, value, valid, kill, d]) => sc(id, doc, value, valid, kill, d)),
  };
}

/** Every schema fixture, grouped into files. */
export const SCHEMA_GROUPS: CaseGroup[] = [
  {
    file: "schema/v1-envelope.json",
    cases: [
      ...Object.entries(envelopeCases).flatMap(([kill, rows]) =>
        rows.map(([name, value, valid, d]) => sc(`v1.${name}`, ENV, value, valid, kill, d))
      ),
      ...eventCases.map(([name, value, valid, kill, d]) =>
        sc(`v1.${name}`, "v1/chat-event", value, valid, kill, d)
      ),
    ],
  },
  {
    file: "schema/v1-state.json",
    cases: stateCases.map(([name, value, valid, kill, d]) =>
      sc(`v1.${name}`, STATE, value, valid, kill, d)
    ),
  },
  group(
    "schema/v1-capabilities.json",
    capabilityCases.map(([n, v, ok, d]) => [`v1.${n}`, CAP, v, ok, "v1.capabilities.shape", d]),
  ),
  group(
    "schema/v0-event.json",
    v0Cases.map(([n, v, ok, d]) => [n, V0, v, ok, "v0.event.shape", d]),
  ),
  group("schema/cards.json", cardCases),
  group("schema/blocks.json", blockCases),
  group("schema/message.json", messageCases),
];
