/**
 * Fold cases that make a client check its own envelopes and events.
 *
 * The schema fixtures may be answered by any JSON Schema validator, so a
 * client whose own parser accepts anything would pass them. These cases push
 * the same broken frames through the client's fold: each broken frame must
 * be refused (`invalid-envelope` or `unsupported-version`, nothing applied),
 * and what the fold keeps must be exactly the contract's fields (unknown keys
 * dropped, provenance replaced, `statusReason` cleared). Every v1 event type
 * has at least one broken-field case here.
 *
 * @module
 */
import type { CaseDef, CaseGroup } from "./_def.ts";
import type { Json, JsonObject } from "../../conformance/ts/kinds.ts";
import { turn } from "./fold.ts";

const TURN = { conversationId: "c1", turnId: "t1" };
const ev = (type: string, fields: JsonObject = {}): JsonObject => ({ type, ...fields });
const delta = (text: string) => ev("delta", { text });

/** A fold case over `frames`, `want` defaulting to no refusals. */
function strict(
  id: string,
  description: string,
  kill: string,
  frames: Json[],
  want: JsonObject,
): CaseDef {
  return {
    id: `fold.strict.${id}`,
    kind: "fold",
    description,
    kill,
    input: { turn: TURN, frames },
    want: { refusals: [], ...want },
  };
}

/**
 * A delta at seq 1, then `event` (with envelope `over`rides) at seq 2: the
 * second frame must be refused with `code` and the state keep only "a".
 */
function refusedSecond(
  id: string,
  description: string,
  kill: string,
  event: JsonObject,
  over: JsonObject = {},
  code = "invalid-envelope",
): CaseDef {
  return strict(id, description, kill, turn([delta("a"), [event, over]]), {
    refusals: [{ index: 1, code }],
    state: { text: "a", lastSeq: 1, lastEventId: "e1", status: "running" },
  });
}

const envelope: CaseDef[] = [
  refusedSecond(
    "schema-version-true",
    "schemaVersion true is not the number 1: unsupported-version",
    "v1.envelope.schema-version",
    delta("b"),
    { schemaVersion: true },
    "unsupported-version",
  ),
  refusedSecond(
    "schema-version-string",
    'schemaVersion "1" is not the number 1: unsupported-version',
    "v1.envelope.schema-version",
    delta("b"),
    { schemaVersion: "1" },
    "unsupported-version",
  ),
  refusedSecond(
    "at-negative",
    "at -5 is refused (at is epoch ms ≥ 0)",
    "v1.envelope.at",
    delta("b"),
    { at: -5 },
  ),
  refusedSecond(
    "at-string",
    'at "5" is refused (at is a number)',
    "v1.envelope.at",
    delta("b"),
    { at: "5" },
  ),
  strict(
    "seq-unsafe",
    "seq 2^53+2 is an integer but not a safe one: refused",
    "v1.envelope.seq",
    turn([[delta("a"), { seq: 2 ** 53 + 2 }]]),
    { refusals: [{ index: 0, code: "invalid-envelope" }], state: { text: "", lastSeq: 0 } },
  ),
  strict(
    "seq-2-53",
    "seq 2^53 is one past the largest safe integer: refused",
    "v1.envelope.seq",
    turn([[delta("a"), { seq: 2 ** 53 }]]),
    { refusals: [{ index: 0, code: "invalid-envelope" }], state: { text: "", lastSeq: 0 } },
  ),
  refusedSecond(
    "seq-fraction",
    "seq 2.5 is refused",
    "v1.envelope.seq",
    delta("b"),
    { seq: 2.5 },
  ),
  refusedSecond(
    "conversation-id-number",
    "a numeric conversationId is refused",
    "v1.envelope.ids",
    delta("b"),
    { conversationId: 1 },
  ),
];

/** Event field cases: `[id, description, kill, event]`, each refused at frame 1. */
const EVENT_CASES: [string, string, string, JsonObject][] = [
  [
    "session-empty",
    "session with an empty sessionId",
    "v1.event.session",
    ev("session", {
      sessionId: "",
    }),
  ],
  ["session-missing", "session without sessionId", "v1.event.session", ev("session")],
  [
    "session-number",
    "session with a numeric sessionId",
    "v1.event.session",
    ev("session", {
      sessionId: 7,
    }),
  ],
  ["delta-number", "delta whose text is a number", "v1.event.text", ev("delta", { text: 5 })],
  ["delta-missing", "delta without text", "v1.event.text", ev("delta")],
  [
    "reasoning-null",
    "reasoning whose text is null",
    "v1.event.text",
    ev("reasoning", {
      text: null,
    }),
  ],
  ["reasoning-missing", "reasoning without text", "v1.event.text", ev("reasoning")],
  [
    "tool-call-name-number",
    "tool_call whose name is a number",
    "v1.event.tool-call",
    ev(
      "tool_call",
      { callId: "k1", name: 3 },
    ),
  ],
  [
    "tool-call-empty-id",
    "tool_call with an empty callId",
    "v1.event.tool-call",
    ev("tool_call", {
      callId: "",
      name: "search",
    }),
  ],
  [
    "tool-progress-above-one",
    "tool_progress with progress 1.5",
    "v1.event.tool-progress",
    ev("tool_progress", { callId: "k1", progress: 1.5 }),
  ],
  [
    "tool-progress-negative",
    "tool_progress with progress -0.1",
    "v1.event.tool-progress",
    ev("tool_progress", { callId: "k1", progress: -0.1 }),
  ],
  [
    "tool-progress-message-number",
    "tool_progress whose message is a number",
    "v1.event.tool-progress",
    ev("tool_progress", { callId: "k1", message: 5 }),
  ],
  [
    "tool-progress-no-call",
    "tool_progress without callId",
    "v1.event.tool-progress",
    ev("tool_progress", { progress: 0.5 }),
  ],
  [
    "tool-result-no-ok",
    "tool_result without ok (ok is required)",
    "v1.event.tool-result",
    ev("tool_result", { callId: "k1", name: "search", summary: "s" }),
  ],
  [
    "tool-result-ok-string",
    'tool_result with ok "true"',
    "v1.event.tool-result",
    ev("tool_result", { callId: "k1", name: "search", ok: "true" }),
  ],
  [
    "tool-result-empty-name",
    "tool_result with an empty name",
    "v1.event.tool-result",
    ev("tool_result", { callId: "k1", name: "", ok: true }),
  ],
  [
    "tool-result-summary-number",
    "tool_result whose summary is a number",
    "v1.event.tool-result",
    ev("tool_result", { callId: "k1", name: "search", ok: true, summary: 1 }),
  ],
  [
    "tool-result-blocks-object",
    "tool_result whose blocks is an object, not an array",
    "v1.event.grounded-blocks",
    ev("tool_result", { callId: "k1", name: "search", ok: true, blocks: { id: "b" } }),
  ],
  [
    "tool-result-block-no-sources",
    "tool_result with a block without sources",
    "v1.event.grounded-blocks",
    ev("tool_result", { callId: "k1", name: "search", ok: true, blocks: [{ id: "b", text: "t" }] }),
  ],
  [
    "provenance-empty-engine",
    "provenance with an empty engine",
    "v1.event.provenance",
    ev("provenance", { engine: "", model: "m" }),
  ],
  [
    "provenance-no-model",
    "provenance without model",
    "v1.event.provenance",
    ev("provenance", { engine: "e" }),
  ],
  [
    "provenance-provider-number",
    "provenance whose provider is a number",
    "v1.event.provenance",
    ev("provenance", { engine: "e", model: "m", provider: 1 }),
  ],
  [
    "provenance-route-number",
    "provenance whose accountRoute is a number (string or null only)",
    "v1.event.provenance",
    ev("provenance", { engine: "e", model: "m", accountRoute: 0 }),
  ],
  [
    "card-no-created-at",
    "card without createdAt",
    "v1.event.card",
    ev("card", { card: { correlationId: "q1", prompt: "Go?" } }),
  ],
  [
    "card-empty-correlation",
    "card with an empty correlationId",
    "v1.event.card",
    ev("card", { card: { correlationId: "", prompt: "Go?", createdAt: 1 } }),
  ],
  [
    "card-prompt-number",
    "card whose prompt is a number",
    "v1.event.card",
    ev("card", { card: { correlationId: "q1", prompt: 1, createdAt: 1 } }),
  ],
  ["card-not-object", "card whose card is a string", "v1.event.card", ev("card", { card: "q1" })],
  [
    "card-closed-resolution",
    'card_closed with resolution "done" (not one of the five)',
    "v1.event.card-closed",
    ev("card_closed", { correlationId: "q1", resolution: "done" }),
  ],
  [
    "card-closed-no-id",
    "card_closed without correlationId",
    "v1.event.card-closed",
    ev("card_closed", { resolution: "submitted" }),
  ],
  [
    "state-negative-version",
    "state with version -1",
    "v1.event.state",
    ev("state", { version: -1, snapshot: null }),
  ],
  [
    "state-fraction-version",
    "state with version 1.5",
    "v1.event.state",
    ev("state", { version: 1.5, snapshot: null }),
  ],
  [
    "state-no-snapshot",
    "state without the snapshot key (null is required for none)",
    "v1.event.state",
    ev("state", { version: 1 }),
  ],
  [
    "done-stop-reason-number",
    "done whose stopReason is a number",
    "v1.event.done",
    ev("done", { stopReason: 1 }),
  ],
  [
    "done-negative-usage",
    "done whose usage.totalTokens is -1",
    "v1.event.done",
    ev("done", { usage: { totalTokens: -1 } }),
  ],
  [
    "done-usage-string",
    "done whose usage is a string",
    "v1.event.done",
    ev("done", { usage: "lots" }),
  ],
  [
    "done-cost-string",
    'done whose usage.costUsd is "0.1"',
    "v1.event.done",
    ev("done", { usage: { costUsd: "0.1" } }),
  ],
  [
    "error-no-message",
    "error without message",
    "v1.event.error",
    ev("error", { retryable: false }),
  ],
  [
    "error-code-number",
    "error whose code is a number",
    "v1.event.error",
    ev("error", { message: "m", code: 500, retryable: false }),
  ],
  [
    "navigate-number",
    "navigate whose href is a number",
    "v1.event.navigate",
    ev("navigate", {
      href: 1,
    }),
  ],
  ["navigate-missing", "navigate without href", "v1.event.navigate", ev("navigate")],
  [
    "turn-status-completed",
    "turn_status completed is not an event status (done completes a turn)",
    "v1.event.turn-status",
    ev("turn_status", { status: "completed" }),
  ],
  [
    "turn-status-failed",
    "turn_status failed is not an event status (error fails a turn)",
    "v1.event.turn-status",
    ev("turn_status", { status: "failed" }),
  ],
  [
    "turn-status-reason-number",
    "turn_status whose reason is a number",
    "v1.event.turn-status",
    ev("turn_status", { status: "interrupted", reason: 5 }),
  ],
];

const events: CaseDef[] = EVENT_CASES.map(([id, description, kill, event]) =>
  refusedSecond(`event.${id}`, `${description} is refused and changes nothing`, kill, event)
);

const kept: CaseDef[] = [
  strict(
    "unknown-key.error",
    "an unknown key of error (html) is not kept in the state's error",
    "v1.envelope.unknown-keys",
    turn([[ev("error", { message: "boom", retryable: false, html: "<b>x</b>" }), { note: 1 }]]),
    { state: { status: "failed", error: { message: "boom", retryable: false } } },
  ),
  strict(
    "unknown-key.provenance",
    "an unknown key of provenance is not kept in the state's provenance",
    "v1.envelope.unknown-keys",
    turn([ev("provenance", { engine: "e", model: "m", secret: "k" })]),
    { state: { provenance: { engine: "e", model: "m" } } },
  ),
  strict(
    "unknown-key.done",
    "unknown keys of done and its usage are not kept in the state's done",
    "v1.envelope.unknown-keys",
    turn([ev("done", { stopReason: "stop", usage: { totalTokens: 3, cached: 1 }, extra: true })]),
    { state: { status: "completed", done: { stopReason: "stop", usage: { totalTokens: 3 } } } },
  ),
  strict(
    "unknown-key.tool-result",
    "unknown keys of a tool_result, its blocks and sources are not kept in the tool",
    "v1.envelope.unknown-keys",
    turn([
      ev("tool_call", { callId: "k1", name: "search" }),
      ev("tool_result", {
        callId: "k1",
        name: "search",
        ok: true,
        debug: 1,
        blocks: [{ id: "b1", text: "t", x: 1, sources: [{ ref: "r", label: "l", y: 2 }] }],
      }),
    ]),
    { state: { tools: [{ callId: "k1", status: "ok" }] } },
  ),
  strict(
    "unknown-key.state",
    "an unknown key of a state event is not kept in the state's state",
    "v1.envelope.unknown-keys",
    turn([ev("state", { version: 2, snapshot: { a: 1 }, patch: [] })]),
    { state: { state: { version: 2, snapshot: { a: 1 } } } },
  ),
  strict(
    "provenance-replaced",
    "a later provenance replaces the earlier one: its absent provider and accountRoute stay absent",
    "v1.fold.last-write-wins",
    turn([
      ev("provenance", { engine: "e1", model: "m1", provider: "p", accountRoute: "r" }),
      ev("provenance", { engine: "e2", model: "m2" }),
    ]),
    { state: { provenance: { engine: "e2", model: "m2" } } },
  ),
  strict(
    "status-reason-cleared",
    "a later turn_status without reason clears statusReason",
    "v1.lifecycle.turn-status",
    turn([
      ev("turn_status", { status: "interrupted", reason: "network" }),
      ev("turn_status", { status: "running" }),
      ev("turn_status", { status: "interrupted" }),
    ]),
    { state: { status: "interrupted", statusReason: undefined as unknown as Json } },
  ),
];

/**
 * The order of the envelope checks, where one frame breaks two rules: not an
 * object, then schemaVersion (`unsupported-version`), then event and its
 * type being a string, then the type being known (`unknown-event-type`),
 * then every other field (`invalid-envelope`).
 */
const checkOrder: CaseDef[] = [
  refusedSecond(
    "order.version-before-type",
    "schemaVersion 2 with an unknown event type is unsupported-version",
    "v1.envelope.schema-version",
    ev("products", { items: [] }),
    { schemaVersion: 2 },
    "unsupported-version",
  ),
  refusedSecond(
    "order.version-before-event",
    "schemaVersion 2 with an event that is not an object is unsupported-version",
    "v1.envelope.schema-version",
    { type: "delta" },
    { schemaVersion: 2, event: 5 },
    "unsupported-version",
  ),
  refusedSecond(
    "order.type-before-fields",
    "an unknown event type with seq 0 and at -1 is unknown-event-type, not invalid-envelope",
    "v1.envelope.event-type",
    ev("products", { items: [] }),
    { seq: 0, at: -1 },
    "unknown-event-type",
  ),
  refusedSecond(
    "order.type-before-ids",
    "an unknown event type without eventId is unknown-event-type",
    "v1.envelope.event-type",
    ev("products"),
    { eventId: undefined as unknown as Json },
    "unknown-event-type",
  ),
];

const big = (text: string, seq: number) =>
  JSON.stringify({ ...turn([delta(text)])[0], seq, eventId: `e${seq}` });

/**
 * The 1 MiB bound on a text frame counts UTF-8 bytes: 524,250 "é" are about
 * 524,360 UTF-16 code units but 1,048,610 bytes with the envelope around them.
 */
const tooLarge: CaseDef[] = [
  {
    id: "fold.strict.too-large-utf8",
    kind: "fold",
    description:
      "an NDJSON frame of over 1 MiB of UTF-8 (but about 524,360 UTF-16 code units) is too-large and skipped",
    kill: "v1.frame.too-large",
    input: {
      turn: TURN,
      ndjson: [big("a", 1), big("é".repeat(524_250), 2), big("b", 2)].join("\n") + "\n",
    },
    want: { refusals: [{ index: 1, code: "too-large" }], state: { text: "ab", lastSeq: 2 } },
  },
];

/**
 * Numbers that overflow a double (`1e400`) are Infinity in JavaScript (inf
 * in Python): wherever a finite number is required the frame is refused as
 * `invalid-envelope`, never `invalid-json`. JSON Schema cannot carry this
 * (the corpus's own JSON turns Infinity into null), so text frames do.
 */
const overflowLine = (over: string, event = '{"type":"delta","text":"b"}') =>
  `{"schemaVersion":1,"conversationId":"c1","turnId":"t1","eventId":"e2","seq":2${over},"event":${event}}`;
const first = JSON.stringify(turn([delta("a")])[0]);
const overflow: CaseDef[] = [
  ["at", ',"at":1e400', "v1.envelope.at", undefined],
  ["seq", "", "v1.envelope.seq", undefined],
  [
    "progress",
    "",
    "v1.event.tool-progress",
    '{"type":"tool_progress","callId":"k1","progress":1e400}',
  ],
  ["usage", "", "v1.event.done", '{"type":"done","usage":{"totalTokens":1e400}}'],
  ["state-version", "", "v1.event.state", '{"type":"state","version":1e400,"snapshot":null}'],
].map(([name, over, kill, event]) => ({
  id: `fold.strict.overflow.${name}`,
  kind: "fold" as const,
  description: `${name} written 1e400 (Infinity once parsed) is invalid-envelope, not invalid-json`,
  kill: kill as string,
  input: {
    turn: TURN,
    ndjson: first + "\n" +
      (name === "seq"
        ? overflowLine("").replace('"seq":2', '"seq":1e400')
        : overflowLine(over as string, event)) +
      "\n",
  },
  want: {
    refusals: [{ index: 1, code: "invalid-envelope" }],
    state: { text: "a", lastSeq: 1 },
  },
}));

/** The strict fold cases; the 1 MiB case in a file of its own. */
export const STRICT_FOLD_GROUPS: CaseGroup[] = [
  {
    file: "fold/strict.json",
    cases: [...envelope, ...events, ...kept, ...checkOrder, ...overflow],
  },
  { file: "fold/too_large.json", cases: tooLarge },
];
