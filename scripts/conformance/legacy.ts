/**
 * Legacy upgrades: Scout and Papercup frames plus the host's context → v1
 * envelopes, or the refusal code, frame by frame.
 *
 * Context (see `conformance/README.md`): `dialect`, `conversationId`,
 * `turnId`, optional `retryable` / `retryAfterMs` / `errorCode` / `at`,
 * `callIds` (the host's mapping: the n-th call / result without callId gets
 * `callIds.call[n]` / `callIds.result[n]`, `null` = no mapping) and
 * `allocations` (the host's eventId/seq answers in order; default
 * `<turnId>:<n>` and n = 1, 2, 3 … per accepted frame).
 *
 * @module
 */
import type { CaseDef, CaseGroup } from "./_def.ts";
import type { Json, JsonObject } from "../../conformance/ts/kinds.ts";

const scout = (type: string, fields: JsonObject = {}, id?: string): JsonObject =>
  id === undefined
    ? { data: JSON.stringify({ type, ...fields }) }
    : { id, data: JSON.stringify({ type, ...fields }) };
const papercup = (event: string, payload: Json, id?: string): JsonObject =>
  id === undefined
    ? { event, data: JSON.stringify(payload) }
    : { id, event, data: JSON.stringify(payload) };

const ctx = (dialect: string, over: JsonObject = {}): JsonObject => ({
  dialect,
  conversationId: "c1",
  turnId: "t1",
  ...over,
});

function legacy(
  id: string,
  description: string,
  kill: string,
  context: JsonObject,
  frames: Json[],
  want: Json[],
  rules?: string[],
): CaseDef {
  return {
    id: `legacy.${id}`,
    kind: "legacy",
    description,
    kill,
    rules,
    input: { context, frames },
    want: { results: want },
  };
}
const ok = (seq: number, event: JsonObject, extra: JsonObject = {}) => ({
  ok: true,
  envelope: {
    schemaVersion: 1,
    conversationId: "c1",
    turnId: "t1",
    eventId: `t1:${seq}`,
    seq,
    ...extra,
    event,
  },
});
const no = (code: string) => ({ ok: false, code });

const scoutCases: CaseDef[] = [
  legacy(
    "scout.token",
    "Scout token{content} becomes delta{text}",
    "legacy.scout.token",
    ctx("scout"),
    [scout("token", { content: "Hi" }, "1")],
    [ok(1, { type: "delta", text: "Hi" })],
  ),
  legacy(
    "scout.token-empty",
    "an empty token is an empty delta",
    "legacy.scout.token",
    ctx("scout"),
    [scout("token", { content: "" }, "2")],
    [ok(1, { type: "delta", text: "" })],
  ),
  legacy(
    "scout.token-no-content",
    "a token without content is invalid-event",
    "legacy.scout.token",
    ctx("scout"),
    [scout("token", { text: "Hi" })],
    [no("invalid-event")],
  ),
  legacy(
    "scout.tool-start-name",
    "tool_start{name, callId} (Scout's runtime) becomes tool_call",
    "legacy.scout.tool-start",
    ctx("scout"),
    [scout("tool_start", { name: "search", callId: "k1" }, "3")],
    [ok(1, { type: "tool_call", callId: "k1", name: "search" })],
  ),
  legacy(
    "scout.tool-start-both-differ",
    "tool and name both present and different is invalid-event",
    "legacy.scout.tool-start",
    ctx("scout"),
    [scout("tool_start", { tool: "a", name: "b", callId: "k1" })],
    [no("invalid-event")],
  ),
  legacy(
    "scout.tool-start-name-number",
    "a name that is not a string is invalid-event",
    "legacy.scout.tool-start",
    ctx("scout"),
    [scout("tool_start", { tool: "a", name: 5, callId: "k1" })],
    [no("invalid-event")],
  ),
  legacy(
    "scout.tool-start-numeric-call",
    "a numeric callId is refused, never converted",
    "legacy.scout.tool-start",
    ctx("scout"),
    [scout("tool_start", { tool: "a", callId: 7 })],
    [no("invalid-event")],
  ),
  legacy(
    "scout.tool-start-input",
    "tool_start input is kept as the call's input",
    "legacy.scout.tool-start",
    ctx("scout"),
    [scout("tool_start", { name: "search", callId: "k1", input: { q: "x" } })],
    [ok(1, { type: "tool_call", callId: "k1", name: "search", input: { q: "x" } })],
  ),
  legacy(
    "scout.id-digits",
    "Scout ids are decimal digits (leading zeros fine); an empty id is kept",
    "legacy.scout.token",
    ctx("scout"),
    [scout("token", { content: "a" }, "0012"), scout("token", { content: "b" }, "")],
    [ok(1, { type: "delta", text: "a" }), ok(2, { type: "delta", text: "b" })],
    ["legacy.scout.decimal-id"],
  ),
  legacy(
    "scout.id-letters",
    "a Scout id with letters is invalid-id",
    "legacy.scout.decimal-id",
    ctx("scout"),
    [scout("token", { content: "a" }, "abc")],
    [no("invalid-id")],
  ),
  legacy(
    "scout.id-negative",
    "a Scout id with a sign is invalid-id",
    "legacy.scout.decimal-id",
    ctx("scout"),
    [scout("token", { content: "a" }, "-1")],
    [no("invalid-id")],
  ),
  legacy(
    "scout.products",
    "Scout products is a domain frame",
    "legacy.domain-frames",
    ctx("scout"),
    [scout("products", { products: [] }, "4")],
    [no("not-chat-event")],
  ),
  legacy("scout.broaden", "Scout broaden is a domain frame", "legacy.domain-frames", ctx("scout"), [
    scout("broaden", { query: "x" }),
  ], [no("not-chat-event")]),
  legacy(
    "scout.heartbeat",
    "a heartbeat is not a chat event",
    "legacy.domain-frames",
    ctx("scout"),
    [{ event: "heartbeat", data: '{"tsMs":1}' }],
    [no("not-chat-event")],
  ),
  legacy(
    "scout.error-no-permission",
    "a legacy error without the host's retryable is refused",
    "legacy.retry-permission",
    ctx("scout"),
    [scout("error", { message: "boom" })],
    [no("missing-retry-permission")],
  ),
  legacy(
    "scout.error-retry",
    "the host's retry decision, delay and code are stamped",
    "legacy.retry-permission",
    ctx("scout", { retryable: true, retryAfterMs: 500, errorCode: "legacy_error" }),
    [scout("error", { message: "boom" })],
    [ok(1, {
      type: "error",
      message: "boom",
      retryable: true,
      code: "legacy_error",
      retryAfterMs: 500,
    })],
  ),
  legacy(
    "scout.error-no-retry",
    "retryable false drops retryAfterMs",
    "legacy.retry-permission",
    ctx("scout", { retryable: false, retryAfterMs: 500 }),
    [scout("error", { message: "boom" })],
    [ok(1, { type: "error", message: "boom", retryable: false })],
  ),
  legacy(
    "scout.error-retry-string",
    "a retryable that is not a boolean is no permission",
    "legacy.retry-permission",
    ctx("scout", { retryable: "yes" }),
    [scout("error", { message: "boom" })],
    [no("missing-retry-permission")],
  ),
  legacy(
    "scout.card-no-created",
    "a Scout card without createdAt is not a valid v1 card",
    "legacy.v1-valid",
    ctx("scout"),
    [scout("card", { card: { correlationId: "q1", prompt: "Which?" } })],
    [no("invalid-event")],
  ),
  legacy(
    "scout.bad-json",
    "data that is not JSON is invalid-json",
    "legacy.frame-json",
    ctx("scout"),
    [{ id: "1", data: "{oops" }],
    [no("invalid-json")],
  ),
  legacy("scout.empty-data", "empty data is invalid-json", "legacy.frame-json", ctx("scout"), [{
    data: "  ",
  }], [no("invalid-json")]),
  legacy("scout.array", "Scout data must be an object", "legacy.frame-json", ctx("scout"), [{
    data: "[1]",
  }], [no("not-an-object")]),
  legacy("scout.no-type", "Scout data needs a type", "legacy.frame-json", ctx("scout"), [{
    data: '{"content":"x"}',
  }], [no("missing-type")]),
  legacy(
    "scout.no-data",
    "a frame without data is invalid-frame",
    "legacy.frame-json",
    ctx("scout"),
    [{ id: "1" }],
    [no("invalid-frame")],
  ),
  legacy(
    "scout.numeric-id",
    "a frame whose id is a number is invalid-frame",
    "legacy.frame-json",
    ctx("scout"),
    [{ id: 1, data: '{"type":"token","content":"x"}' }],
    [no("invalid-frame")],
  ),
];

const papercupCases: CaseDef[] = [
  legacy(
    "papercup.delta",
    "Papercup's named delta upgrades",
    "legacy.papercup.named",
    ctx("papercup"),
    [papercup("delta", { text: "Hi" })],
    [ok(1, { type: "delta", text: "Hi" })],
  ),
  legacy(
    "papercup.no-name",
    "a Papercup frame without an event name is refused",
    "legacy.papercup.named",
    ctx("papercup"),
    [{ data: '{"type":"delta","text":"x"}' }],
    [no("missing-event-name")],
  ),
  legacy(
    "papercup.message-name",
    "event: message is no name",
    "legacy.papercup.named",
    ctx("papercup"),
    [papercup("message", { text: "x" })],
    [no("missing-event-name")],
  ),
  legacy(
    "papercup.type-mismatch",
    "a payload type other than the event name is refused",
    "legacy.papercup.named",
    ctx("papercup"),
    [papercup("delta", { type: "token", text: "x" })],
    [no("type-mismatch")],
  ),
  legacy(
    "papercup.delta-no-text",
    "a delta without text is invalid-event",
    "legacy.papercup.v0-fields",
    ctx("papercup"),
    [papercup("delta", {})],
    [no("invalid-event")],
  ),
  legacy(
    "papercup.tool-no-name",
    "a tool_call with an empty name is invalid-event",
    "legacy.papercup.v0-fields",
    ctx("papercup"),
    [papercup("tool_call", { name: "", callId: "k" })],
    [no("invalid-event")],
  ),
  legacy(
    "papercup.card-no-prompt",
    "a card without prompt is invalid-event",
    "legacy.papercup.v0-fields",
    ctx("papercup"),
    [papercup("card", { card: { correlationId: "q" } })],
    [no("invalid-event")],
  ),
  legacy(
    "papercup.provenance-empty",
    "an empty engine passes v0 but not v1",
    "legacy.v1-valid",
    ctx("papercup"),
    [papercup("provenance", { engine: "", model: "m" })],
    [no("invalid-event")],
  ),
  legacy(
    "papercup.state-fraction",
    "a fractional state version passes v0 but not v1",
    "legacy.v1-valid",
    ctx("papercup"),
    [papercup("state", { version: 1.5, snapshot: {} })],
    [no("invalid-event")],
  ),
  legacy(
    "papercup.token-name",
    "token is not a v0 name: a domain frame",
    "legacy.domain-frames",
    ctx("papercup"),
    [papercup("token", { content: "x" })],
    [no("not-chat-event")],
  ),
  legacy(
    "papercup.domain",
    "a Papercup event outside v0 is a domain frame",
    "legacy.domain-frames",
    ctx("papercup"),
    [papercup("products", { items: [] })],
    [no("not-chat-event")],
  ),
  legacy(
    "papercup.no-call-id",
    "a tool_call without callId and without a mapping is refused",
    "legacy.call-identity",
    ctx("papercup"),
    [papercup("tool_call", { name: "search" })],
    [no("missing-call-identity")],
  ),
  legacy(
    "papercup.mapping",
    "the host maps the n-th call and result to its callId",
    "legacy.call-identity",
    ctx("papercup", { callIds: { call: ["a", "b"], result: ["a", "b"] } }),
    [
      papercup("tool_call", { name: "s" }),
      papercup("tool_call", { name: "t" }),
      papercup("tool_result", { name: "s", ok: true }),
      papercup("tool_result", { name: "t", ok: false }),
    ],
    [
      ok(1, { type: "tool_call", callId: "a", name: "s" }),
      ok(2, { type: "tool_call", callId: "b", name: "t" }),
      ok(3, { type: "tool_result", callId: "a", name: "s", ok: true }),
      ok(4, { type: "tool_result", callId: "b", name: "t", ok: false }),
    ],
  ),
  legacy(
    "papercup.mapping-null",
    "a null mapping is no mapping",
    "legacy.call-identity",
    ctx("papercup", { callIds: { call: [null, "b"] } }),
    [papercup("tool_call", { name: "s" }), papercup("tool_call", { name: "t" })],
    [no("missing-call-identity"), ok(1, { type: "tool_call", callId: "b", name: "t" })],
  ),
  legacy(
    "papercup.payload-call-id",
    "a callId in the payload wins; the mapping's index counts every call frame",
    "legacy.call-identity",
    ctx("papercup", { callIds: { call: [null, "mapped"] } }),
    [papercup("tool_call", { name: "s", callId: "own" }), papercup("tool_call", { name: "t" })],
    [
      ok(1, { type: "tool_call", callId: "own", name: "s" }),
      ok(2, { type: "tool_call", callId: "mapped", name: "t" }),
    ],
  ),
  legacy(
    "papercup.result-no-ok",
    "a result without ok is never a success",
    "legacy.result-status",
    ctx("papercup"),
    [papercup("tool_result", { name: "s", callId: "k" })],
    [no("unknown-result-status")],
  ),
  legacy(
    "papercup.result-ok-string",
    'ok "true" is not a boolean',
    "legacy.result-status",
    ctx("papercup"),
    [papercup("tool_result", { name: "s", callId: "k", ok: "true" })],
    [no("unknown-result-status")],
  ),
];

const hostCases: CaseDef[] = [
  legacy(
    "host.refused-consumes-no-seq",
    "a refused frame consumes no seq",
    "legacy.allocation",
    ctx("scout"),
    [scout("token", { content: "a" }), scout("products", {}), scout("token", { content: "b" })],
    [
      ok(1, { type: "delta", text: "a" }),
      no("not-chat-event"),
      ok(2, { type: "delta", text: "b" }),
    ],
  ),
  legacy(
    "host.allocations",
    "the host's allocations are used in order",
    "legacy.allocation-checked",
    ctx("scout", { allocations: [{ eventId: "x7", seq: 7 }, { eventId: "x9", seq: 9 }] }),
    [scout("token", { content: "a" }), scout("token", { content: "b" })],
    [{ ok: true, envelope: { eventId: "x7", seq: 7 } }, {
      ok: true,
      envelope: { eventId: "x9", seq: 9 },
    }],
  ),
  legacy(
    "host.allocation-repeat",
    "a seq that does not grow is invalid-allocation",
    "legacy.allocation-checked",
    ctx("scout", { allocations: [{ eventId: "a", seq: 5 }, { eventId: "b", seq: 5 }] }),
    [scout("token", { content: "a" }), scout("token", { content: "b" })],
    [{ ok: true, envelope: { seq: 5 } }, no("invalid-allocation")],
  ),
  legacy(
    "host.allocation-empty-id",
    "an empty eventId is invalid-allocation",
    "legacy.allocation-checked",
    ctx("scout", { allocations: [{ eventId: "", seq: 1 }] }),
    [scout("token", { content: "a" })],
    [no("invalid-allocation")],
  ),
  legacy(
    "host.allocation-zero",
    "seq 0 is invalid-allocation",
    "legacy.allocation-checked",
    ctx("scout", { allocations: [{ eventId: "a", seq: 0 }] }),
    [scout("token", { content: "a" })],
    [no("invalid-allocation")],
  ),
  legacy(
    "host.allocation-exhausted",
    "an allocate() that throws is invalid-allocation",
    "legacy.allocation-checked",
    ctx("scout", { allocations: [] }),
    [scout("token", { content: "a" })],
    [no("invalid-allocation")],
  ),
  legacy(
    "host.at",
    "the host's at is stamped on every envelope",
    "legacy.host-context",
    ctx("scout", { at: 1767225600000 }),
    [scout("token", { content: "a" })],
    [ok(1, { type: "delta", text: "a" }, { at: 1767225600000 })],
  ),
  legacy(
    "host.empty-conversation",
    "an empty conversationId is invalid-context",
    "legacy.host-context",
    ctx("scout", { conversationId: "" }),
    [scout("token", { content: "a" })],
    [no("invalid-context")],
  ),
  legacy(
    "host.negative-at",
    "a negative at is invalid-context",
    "legacy.host-context",
    ctx("scout", { at: -1 }),
    [scout("token", { content: "a" })],
    [no("invalid-context")],
  ),
  legacy(
    "host.bad-dialect",
    "an unknown dialect is invalid-context",
    "legacy.host-context",
    ctx("slack"),
    [scout("token", { content: "a" })],
    [no("invalid-context")],
  ),
];

/** Every legacy case, grouped into files. */
export const LEGACY_GROUPS: CaseGroup[] = [
  { file: "legacy/scout.json", cases: scoutCases },
  { file: "legacy/papercup.json", cases: papercupCases },
  { file: "legacy/host.json", cases: hostCases },
];
