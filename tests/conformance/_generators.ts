/**
 * Generated conformance inputs for the differential test (TypeScript library
 * vs the Python client): each arbitrary produces a case input of one kind, in
 * the corpus's input format, mixing valid and broken material.
 */
import fc from "../_helpers/seed.ts";
import type { Json, JsonObject } from "../../conformance/ts/kinds.ts";
import * as docs from "../json_schema/_documents.ts";

const json = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>;
const pick = (...xs: Json[]): fc.Arbitrary<Json> => fc.constantFrom(...xs);

// ---------------------------------------------------------------------------
// fold

const callIds = pick("k1", "k2", "", "k\n1", "k\ud800");
const cardIds = pick("q1", "q2", "q\r");
const event: fc.Arbitrary<JsonObject> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ type: fc.constant("delta"), text: pick("a", "", "𝄞", "\ud800", "é") }),
  },
  fc.record({ type: fc.constant("reasoning"), text: pick("r", "") }),
  fc.record({ type: fc.constant("session"), sessionId: pick("s1", "s2", "") }),
  fc.record({
    type: fc.constant("tool_call"),
    callId: callIds,
    name: pick("search", "fetch"),
    input: json,
  }),
  fc.record({
    type: fc.constant("tool_progress"),
    callId: callIds,
    progress: pick(0, 0.5, 1, 2),
    message: pick("m", ""),
  }),
  fc.record({
    type: fc.constant("tool_result"),
    callId: callIds,
    name: pick("search", "fetch"),
    ok: pick(true, false, "true"),
    summary: pick("s", 1),
  }),
  fc.record({
    type: fc.constant("card"),
    card: fc.record({ correlationId: cardIds, prompt: pick("p"), createdAt: pick(0, "0") }),
  }),
  fc.record({
    type: fc.constant("card_closed"),
    correlationId: cardIds,
    resolution: pick("submitted", "expired", "bogus"),
  }, { requiredKeys: ["type", "correlationId"] }),
  fc.record({ type: fc.constant("state"), version: pick(0, 1, 1.5), snapshot: json }, {
    requiredKeys: ["type", "version"],
  }),
  fc.record({
    type: fc.constant("provenance"),
    engine: pick("loop", ""),
    model: pick("m"),
    accountRoute: pick(null, "r", 5),
  }, { requiredKeys: ["type", "engine", "model"] }),
  fc.record({
    type: fc.constant("done"),
    stopReason: pick("complete"),
    usage: fc.record({ totalTokens: pick(1, -1, 0) }),
  }, { requiredKeys: ["type"] }),
  fc.record({
    type: fc.constant("error"),
    message: pick("boom"),
    retryable: pick(true, false, null),
    retryAfterMs: pick(0, 5, -1),
  }, { requiredKeys: ["type", "message"] }),
  fc.record({
    type: fc.constant("turn_status"),
    status: pick("running", "cancelled", "interrupted", "needs-reconciliation", "completed"),
    reason: pick("why", ""),
  }, { requiredKeys: ["type", "status"] }),
  fc.record({ type: fc.constant("navigate"), href: pick("/x", "") }),
  fc.record({ type: fc.constant("products"), items: fc.constant([] as Json[]) }),
  fc.record({
    type: fc.constant("ext"),
    name: pick("scout.products", "scout.log", "a.b_c", "Scout.x", "products"),
    channel: pick("state", "event", "transient", "x"),
    data: json,
  }, { requiredKeys: ["type", "name"] }),
  fc.record({ type: fc.constant("elided"), of: pick("navigate", "ext", "delta") }),
);
const step = fc.record({
  event,
  seqMove: fc.oneof({ weight: 8, arbitrary: fc.constant(1) }, fc.constantFrom(0, 2, -1, 5)),
  reuseId: fc.nat(9),
  foreign: fc.nat(19),
  extra: fc.nat(9),
});

/** A fold case: frames mostly in order, some re-sent, skipped, foreign or broken. */
export const foldInput: fc.Arbitrary<JsonObject> = fc.tuple(
  fc.array(step, { minLength: 1, maxLength: 14 }),
  fc.nat(5),
).map(([steps, how]): JsonObject => {
  let seq = 0;
  const frames: JsonObject[] = [];
  steps.forEach((s, i) => {
    seq = Math.max(1, seq + s.seqMove);
    const env: JsonObject = {
      schemaVersion: 1,
      conversationId: s.foreign === 0 ? "other" : "c1",
      turnId: s.foreign === 1 ? "other" : "t1",
      eventId: s.reuseId === 0 && frames.length > 0 ? frames[frames.length - 1].eventId : `e${i}`,
      seq: s.seqMove === 0 && frames.length > 0 ? frames[frames.length - 1].seq : seq,
      event: s.event,
    };
    if (s.extra === 0) env.schemaVersion = 2;
    if (s.extra === 1) env.trace = "x";
    frames.push(env);
  });
  const turn = { conversationId: "c1", turnId: "t1" };
  if (how === 0) {
    const lines = frames.map((f) => JSON.stringify(f));
    if (lines.length > 1) lines[1] = lines[1].slice(0, 20);
    return { turn, ndjson: lines.join(how % 2 === 0 ? "\n" : "\r\n") };
  }
  if (how === 1) {
    return {
      turn,
      sse: frames.map((f) => `id: ${f.eventId}\r\ndata: ${JSON.stringify(f)}\r\n\r\n`).join(""),
    };
  }
  return { turn, frames };
});

// ---------------------------------------------------------------------------
// sse

const sseLine = pick(
  "data: x",
  "data:y",
  "data:  sp",
  "data",
  "data: 𝄞é",
  "id: 7",
  "id",
  "id: a\u0000b",
  "event: e",
  "event:",
  "retry: 10",
  "retry: 1x",
  "retry:",
  ": comment",
  ":",
  "",
  "",
  "foo: bar",
  "Data: no",
);
const ending = pick("\n", "\r", "\r\n");
const rawBytes = fc.constantFrom(
  [0xff],
  [0xc3],
  [0xe2, 0x82],
  [0xed, 0xa0, 0x80],
  [0xf0, 0x9f, 0x98],
  [0xef, 0xbb, 0xbf],
);

/** An SSE case: lines, endings and stray bytes, split into byte and text chunks anywhere. */
export const sseInput = fc.tuple(
  fc.array(fc.tuple(sseLine, ending, fc.option(rawBytes, { freq: 6 })), { maxLength: 12 }),
  fc.boolean(),
  fc.array(fc.nat(60), { maxLength: 4 }),
  fc.nat(7),
  fc.nat(4),
).map(([lines, bom, cuts, textChunks, limits]): JsonObject => {
  const bytes: number[] = bom ? [0xef, 0xbb, 0xbf] : [];
  for (const [line, end, raw] of lines) {
    bytes.push(...new TextEncoder().encode(line as string));
    if (raw !== null) bytes.push(...raw);
    bytes.push(...new TextEncoder().encode(end as string));
  }
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Json[] = [];
  let prev = 0;
  for (const p of [...points, bytes.length]) {
    const piece = bytes.slice(prev, p);
    prev = p;
    if (piece.length === 0) continue;
    // Some chunks as text (when the bytes are valid UTF-8 on their own).
    const text = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(
      new Uint8Array(piece),
    );
    const clean = !text.includes("\ufffd") && chunks.length % 8 === textChunks % 8;
    chunks.push(clean ? text : { base64: btoa(String.fromCharCode(...piece)) });
  }
  const input: JsonObject = { chunks };
  if (limits === 1) input.maxLineLength = 8;
  if (limits === 2) input.maxEventLength = 5;
  if (limits === 3) input.lastEventId = "start";
  return input;
});

// ---------------------------------------------------------------------------
// blocks

const blockToken = pick(
  "<ask>",
  "<ASK>",
  "</ask>",
  "</Ask>",
  "<report>",
  "</report>",
  "</REPORT>",
  "<ask >",
  "<",
  "</",
  "<as",
  "text",
  " ",
  "\n",
  "\u00a0",
  '{"question":"Q"}',
  '{"question":" "}',
  '{"question":"Q","options":[{"id":" y "}],"refs":[" r "]}',
  '{"plans":[{"title":"T"}]}',
  '{"plans":[{"slug":"s","items":[{"id":"i"}]}]}',
  '{"plans":[]}',
  "{oops",
  "𝄞",
  "𝄞𝄞𝄞𝄞𝄞",
  "[]",
);
/** A blocks case: tags, bodies and text in any order, sometimes with a small body bound. */
export const blocksInput: fc.Arbitrary<JsonObject> = fc.tuple(
  fc.array(blockToken, { maxLength: 14 }),
  fc.option(fc.nat(40), { freq: 3 }),
).map(([tokens, bound]): JsonObject =>
  bound === null ? { text: tokens.join("") } : { text: tokens.join(""), maxBlockBodyLength: bound }
);

// ---------------------------------------------------------------------------
// card answers

const options = fc.array(fc.record({ id: pick("a", "b", "c", "a"), label: pick("A") }), {
  maxLength: 3,
});
const presentation = fc.oneof(
  fc.record({ kind: pick("radio", "select", "checkbox"), options }),
  fc.record({ kind: fc.constant("text") }),
  fc.record({
    kind: fc.constant("slider"),
    min: pick(0, 5),
    max: pick(10, 1),
    step: pick(0.5, 0.1, 0),
  }, { requiredKeys: ["kind"] }),
  fc.record(
    { kind: fc.constant("date"), min: pick("2026-01-01", "bad"), max: pick("2026-12-31") },
    { requiredKeys: ["kind"] },
  ),
  fc.record({ kind: fc.constant("rating") }),
);
const cardArb = fc.record({
  correlationId: pick("q1"),
  prompt: pick("p"),
  createdAt: pick(0),
  presentation,
  approval: fc.constant({ title: "t", question: "q", body: [] }),
  allowDecline: pick(true, false, null, "yes"),
}, { requiredKeys: ["correlationId", "prompt", "createdAt"] });
const value = fc.oneof(
  fc.record({ optionId: pick("a", "b", "z", 1) }),
  fc.record({
    optionIds: fc.oneof(fc.array(pick("a", "b", "c", "z", 1), { maxLength: 3 }), pick("a")),
  }),
  fc.record({ text: pick("hi", " ", 5) }),
  fc.record({ value: pick(0, 0.5, 0.30000000000000004, 2.25, 10, 11, -1, "5") }),
  fc.record({ date: pick("2026-02-28", "2026-02-29", "2027-01-01", "2026-3-1") }),
  fc.record({ confirmed: pick(true, false) }),
  fc.constant({}),
  fc.record({ text: pick("a"), extra: pick(1) }),
);
/** A card-answer case. */
export const cardAnswerInput = fc.record({
  card: cardArb,
  response: fc.oneof(
    fc.record({ action: pick("submit"), correlationId: pick("q1", "q2"), value }),
    fc.record({ action: pick("decline", "cancel", "accept"), correlationId: pick("q1") }),
    fc.record({ action: pick("submit"), correlationId: pick("q1"), value: pick([], null) }),
  ),
  allowDeclineDefault: fc.boolean(),
}, { requiredKeys: ["card", "response"] }) as unknown as fc.Arbitrary<JsonObject>;

// ---------------------------------------------------------------------------
// legacy

const scoutData = pick(
  { type: "token", content: "Hi" },
  { type: "token" },
  { type: "tool_start", tool: "search" },
  { type: "tool_start", name: "search", callId: "k1" },
  { type: "tool_start", tool: "a", name: "b" },
  { type: "tool_start", tool: "a", callId: 5 },
  { type: "session", sessionId: "s" },
  { type: "card", card: { correlationId: "q", prompt: "p", createdAt: 0 } },
  { type: "card", card: { correlationId: "q", prompt: "p" } },
  { type: "card_closed", correlationId: "q" },
  { type: "state", version: 1, snapshot: { a: 1 } },
  { type: "state", version: -1, snapshot: null },
  { type: "done", usage: { totalTokens: 3, costUsd: -1, inputTokens: 1 } },
  { type: "error", message: "boom" },
  { type: "navigate", href: "/x" },
  { type: "products", products: [] },
  { content: "x" },
);
const papercupFrame = fc.oneof(
  fc.record({
    event: pick("delta"),
    data: pick('{"text":"a"}', "{}", '{"type":"token","text":"a"}'),
  }),
  fc.record({
    event: pick("tool_call"),
    data: pick('{"name":"s"}', '{"name":"s","callId":"own"}', '{"name":""}'),
  }),
  fc.record({
    event: pick("tool_result"),
    data: pick('{"name":"s","ok":true}', '{"name":"s"}', '{"name":"s","ok":"true"}'),
  }),
  fc.record({
    event: pick("provenance"),
    data: pick('{"engine":"e","model":"m"}', '{"engine":"","model":"m"}'),
  }),
  fc.record({
    event: pick("state"),
    data: pick('{"version":2,"snapshot":null}', '{"version":1.5,"snapshot":{}}'),
  }),
  fc.record({
    event: pick("error", "message", "products", "heartbeat"),
    data: pick('{"message":"m"}', "{oops", "[]"),
  }),
  fc.record({ data: pick('{"type":"delta","text":"a"}') }),
);
/** A legacy case: one turn's frames and the host's context. */
export const legacyInput: fc.Arbitrary<JsonObject> = fc.tuple(
  fc.boolean(),
  fc.array(fc.tuple(scoutData, pick(null, "1", "0012", "x", "")), { maxLength: 6 }),
  fc.array(papercupFrame, { maxLength: 6 }),
  fc.record({
    retryable: pick(true, false, "yes"),
    retryAfterMs: pick(0, 500, -1),
    errorCode: pick("legacy", ""),
    at: pick(0, 1767225600000, -1),
    callIds: fc.record({
      call: fc.array(pick("c1", "c2", null), { maxLength: 3 }),
      result: fc.array(pick("c1", null), { maxLength: 3 }),
    }),
    allocations: fc.array(fc.record({ eventId: pick("x", ""), seq: pick(1, 2, 3, 0) }), {
      maxLength: 4,
    }),
  }, { requiredKeys: [] }),
).map(([scout, scoutFrames, papercupFrames, host]): JsonObject => {
  const context: JsonObject = {
    dialect: scout ? "scout" : "papercup",
    conversationId: "c1",
    turnId: "t1",
    ...host,
  };
  const frames = scout
    ? scoutFrames.map((
      [data, id],
    ): Json => (id === null ? { data: JSON.stringify(data) } : { id, data: JSON.stringify(data) }))
    : papercupFrames;
  return { context, frames };
});

// ---------------------------------------------------------------------------
// replay

/** A replay case: bounds, a cursor and the seam's answer, sometimes broken. */
export const replayInput: fc.Arbitrary<JsonObject> = fc.record({
  low: fc.nat(4),
  latest: fc.nat(6),
  after: fc.integer({ min: -1, max: 8 }),
  mutate: fc.nat(7),
  maxFrames: fc.option(fc.nat(6), { freq: 3 }),
  moved: fc.boolean(),
}).map(({ low, latest, after, mutate, maxFrames, moved }): JsonObject => {
  const frames: JsonObject[] = [];
  for (let s = Math.max(after + 1, 1); s <= latest; s++) {
    frames.push({
      schemaVersion: 1,
      conversationId: "c1",
      turnId: "t1",
      eventId: `e${s}`,
      seq: s,
      event: { type: "delta", text: String(s) },
    });
  }
  if (mutate === 0 && frames.length > 1) frames.splice(1, 1);
  if (mutate === 1 && frames.length > 1) [frames[0], frames[1]] = [frames[1], frames[0]];
  if (mutate === 2 && frames.length > 0) frames[0] = { ...frames[0], turnId: "t2" };
  if (mutate === 3 && frames.length > 1) {
    frames[1] = { ...frames[1], eventId: "e" + (frames[0].seq as number) };
  }
  if (mutate === 4 && frames.length > 0) frames.pop();
  const input: JsonObject = {
    request: maxFrames === null
      ? { conversationId: "c1", turnId: "t1", afterSeq: after }
      : { conversationId: "c1", turnId: "t1", afterSeq: after, maxFrames },
    bounds: { lowestRetainedSeq: low, latestSeq: latest },
    frames,
  };
  if (moved) input.boundsAfter = { lowestRetainedSeq: low + 2, latestSeq: latest };
  return input;
});

// ---------------------------------------------------------------------------
// capabilities, version, schema

const names = pick(
  "connectionReplay",
  "persistedHistory",
  "persistedDecisions",
  "completedToolCheckpoints",
  "interruptedTurnRecovery",
  "typo",
  3,
  null,
);
/** A capabilities case. */
export const capabilitiesInput = fc.record({
  declared: fc.oneof(
    fc.dictionary(names.map(String), pick(true, false, "true", 1, null)),
    pick(null, [], "x"),
  ),
  required: fc.oneof(
    fc.array(names, { maxLength: 4 }),
    fc.dictionary(names.map(String), pick(true, false, 1)),
    pick("connectionReplay", 5),
  ),
}) as unknown as fc.Arbitrary<JsonObject>;
/** A version case. */
export const versionInput = fc.oneof(
  fc.record({ offer: pick(0, 1, -0, 1.0, 2, 1.5, "1", true, null, [1]) }, { requiredKeys: [] }),
  fc.record({
    offers: fc.oneof(fc.array(pick(0, 1, 2, "1", null), { maxLength: 4 }), pick("1")),
    server: fc.array(pick(0, 1), { maxLength: 2 }),
  }, { requiredKeys: ["offers"] }),
) as unknown as fc.Arbitrary<JsonObject>;

/** A schema case over every document type (valid and broken documents). */
export const schemaInput: fc.Arbitrary<JsonObject> = fc.oneof(
  docs.mutated(docs.envelopeDoc).map((value) => ({
    document: "v1/chat-event-envelope",
    value: value as Json,
  })),
  docs.mutated(docs.v1EventDoc).map((value) => ({
    document: "v1/chat-event",
    value: value as Json,
  })),
  docs.mutated(docs.stateDoc).map((value) => ({ document: "v1/chat-state", value: value as Json })),
  docs.mutated(docs.v0EventDoc).map((value) => ({
    document: "v0/chat-event",
    value: value as Json,
  })),
  docs.mutated(docs.openCard).map((value) => ({
    document: "cards/open-card-snapshot",
    value: value as Json,
  })),
  docs.mutated(docs.cardResponse).map((value) => ({
    document: "cards/card-response",
    value: value as Json,
  })),
  docs.mutated(docs.reportBlock).map((value) => ({
    document: "blocks/report-block",
    value: value as Json,
  })),
  docs.mutated(docs.askBlock).map((value) => ({
    document: "blocks/ask-block",
    value: value as Json,
  })),
  docs.mutated(docs.uiMessageDoc).map((value) => ({
    document: "message/ui-message",
    value: value as Json,
  })),
  docs.mutated(docs.chatMessageDoc).map((value) => ({
    document: "message/chat-message",
    value: value as Json,
  })),
  docs.mutated(docs.inboundMessageDoc).map((value) => ({
    document: "message/inbound-chat-message",
    value: value as Json,
  })),
  docs.mutated(docs.threadDoc).map((value) => ({
    document: "message/chat-thread",
    value: value as Json,
  })),
  docs.mutated(docs.capabilitiesDoc).map((value) => ({
    document: "v1/chat-capabilities",
    value: value as Json,
  })),
);
