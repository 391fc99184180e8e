/**
 * Generated JSON documents for the schema agreement test: plausible
 * documents of every type (mostly valid), and a mutator that breaks them
 * field by field (wrong types, missing keys, extra keys, boundary numbers,
 * bad ids, odd strings). Every document is JSON (passed through
 * `JSON.stringify`/`JSON.parse`), since that is what a JSON Schema judges.
 */
import fc from "../_helpers/seed.ts";
import { TOOL_PART_STATES } from "../../message.ts";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Values a mutation writes somewhere: every JSON type and the boundaries the contract cares about. */
export const ZOO: readonly Json[] = [
  null,
  true,
  false,
  0,
  1,
  -1,
  0.5,
  1.5,
  2,
  -0.000001,
  1e308,
  -1e308,
  9007199254740991,
  9007199254740992,
  1e21,
  "",
  " ",
  "x",
  " x",
  "x ",
  "\u0000",
  "\ud800",
  "\udc00x",
  "𝄞",
  "\n",
  "x\n",
  "\u2028x",
  "\ufeff",
  "\u00a0x",
  "running",
  "completed",
  "submitted",
  "delta",
  "error",
  "text",
  "tool-x",
  "data-x",
  "data-",
  "tool-",
  "assistant",
  "user",
  "output-available",
  "2024-02-29T00:00:00Z",
  "2023-02-29T00:00:00Z",
  "2024-01-01T00:00:00+01:00",
  "2024-01-01T00:00:00.5Z\n",
  "\u0662\u0660\u0662\u0664-01-01T00:00:00Z",
  "a".repeat(64),
  "A".repeat(64),
  [],
  {},
  [1],
  ["x"],
  { a: 1 },
];

/** Key names a mutation adds: unknown ones, prototype names and contract names. */
const EXTRA_KEYS = [
  "extra",
  "__proto__",
  "constructor",
  "type",
  "retryAfterMs",
  "retryable",
  "approval",
  "approved",
  "reason",
  "errorText",
  "output",
  "input",
  "rawInput",
  "done",
  "error",
  "finishedSeq",
  "goalReport",
  "provenance",
  "delivery",
  "lastEventId",
  "snapshot",
  "plans",
  "options",
  "value",
];

type Path = (string | number)[];

function paths(v: Json, at: Path, out: Path[]): void {
  out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...at, i], out));
  else if (v !== null && typeof v === "object") {
    for (const k of Object.keys(v)) paths(v[k], [...at, k], out);
  }
}

function setOwn(o: Record<string, Json>, k: string, v: Json): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

function get(root: Json, path: Path): Json {
  let v = root;
  for (const p of path) v = (v as Record<string, Json>)[p as string];
  return v;
}

/** Apply one mutation (chosen by the three numbers) to a copy of `doc`. */
function mutateOnce(doc: Json, [at, op, pick]: [number, number, number]): Json {
  const root: Json = JSON.parse(JSON.stringify(doc));
  const all: Path[] = [];
  paths(root, [], all);
  const path = all[at % all.length];
  const value = get(root, path);
  const zoo = ZOO[pick % ZOO.length];
  let next: Json | undefined = zoo;
  switch (op % 8) {
    case 0: // replace with a zoo value
      break;
    case 1: // delete (or empty)
      next = undefined;
      break;
    case 2: { // add a key (objects), push (arrays), else replace
      if (Array.isArray(value)) next = [...value, zoo];
      else if (value !== null && typeof value === "object") {
        const copy = { ...value };
        const names = [...EXTRA_KEYS, ...Object.keys(value)];
        setOwn(copy, names[pick % names.length], zoo);
        next = copy;
      }
      break;
    }
    case 3: // numbers: boundaries around the value
      if (typeof value === "number") {
        const around = [value + 1, value - 1, -value, value + 0.5, value * 2 ** 53, 0, -1, 2 ** 53];
        next = around[pick % around.length];
      }
      break;
    case 4: // strings: blank, padded, cased
      if (typeof value === "string") {
        const around = ["", " ", value + " ", " " + value, value.toUpperCase(), value + "\n", "\t"];
        next = around[pick % around.length];
      }
      break;
    case 5: // arrays: empty, repeat the first element
      if (Array.isArray(value)) next = pick % 2 === 0 ? [] : [...value, ...value.slice(0, 1)];
      break;
    case 6: // wrap
      next = pick % 2 === 0 ? [value] : { value };
      break;
    case 7: // drop every other key of an object
      if (value !== null && typeof value === "object" && !Array.isArray(value)) {
        const copy: Record<string, Json> = {};
        Object.keys(value).forEach((k, i) => {
          if ((i + pick) % 2 === 0) setOwn(copy, k, value[k]);
        });
        next = copy;
      }
      break;
  }
  if (path.length === 0) return next === undefined ? null : next;
  const parent = get(root, path.slice(0, -1)) as Record<string, Json> | Json[];
  const key = path[path.length - 1];
  if (Array.isArray(parent)) {
    if (next === undefined) parent.splice(key as number, 1);
    else parent[key as number] = next;
  } else if (next === undefined) delete parent[key as string];
  else setOwn(parent, key as string, next);
  return root;
}

const choice = fc.tuple(fc.nat(), fc.nat(), fc.nat());

/**
 * `base` documents, each either kept (a quarter of the runs) or broken by one
 * to three mutations. The result is JSON.
 */
export function mutated(base: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.tuple(base, fc.array(choice, { minLength: 0, maxLength: 3 }), fc.nat(3)).map(
    ([doc, changes, keep]) => {
      let d = JSON.parse(JSON.stringify(doc)) as Json;
      if (keep !== 0) { for (const c of changes) d = mutateOnce(d, c); }
      return JSON.parse(JSON.stringify(d));
    },
  );
}

// ---------------------------------------------------------------------------
// Plausible documents per type

const ids = fc.constantFrom("a", "c1", "t-1", "e:7", "𝄞", " x", "x\ty", "\u00e9");
const texts = fc.constantFrom("", "Hello", " world ", "ünï", "line\nbreak", "x".repeat(40));
const nonBlank = fc.constantFrom("a", "Ship it", "x y", "é", "𝄞", "P-1");
const nat = fc.constantFrom(0, 1, 2, 7, 1000, 9007199254740991);
const pos = fc.constantFrom(1, 2, 3, 10, 9007199254740991);
const fraction = fc.constantFrom(0, 0.25, 0.5, 1);
const epochMs = fc.constantFrom(0, 1767225600000, 1767225600000.5);
const json = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>;
/** Extension names, good and bad (no namespace, uppercase, a double underscore). */
const extNames = fc.constantFrom(
  "scout.products",
  "a.b_c",
  "acme.cart.updated",
  "products",
  "Scout.x",
  "a.b__c",
);

const opt = (
  o: Record<string, fc.Arbitrary<unknown>>,
  required: string[],
): fc.Arbitrary<Record<string, unknown>> => fc.record(o, { requiredKeys: required as never[] });

const sourceRef = opt({ ref: ids, label: texts }, ["ref"]);
const groundedBlock = fc.record({
  id: ids,
  text: texts,
  sources: fc.array(sourceRef, { maxLength: 2 }),
});
const usage = opt({ totalTokens: nat, inputTokens: nat, outputTokens: nat, costUsd: fraction }, []);

const cardOption = opt({
  id: ids,
  label: texts,
  description: texts,
  hint: texts,
  style: fc.constantFrom("default", "primary", "danger"),
}, ["id", "label"]);
const presentation = opt({
  kind: fc.constantFrom("radio", "checkbox", "text", "date", "slider", "select"),
  options: fc.array(cardOption, { maxLength: 3 }),
  placeholder: texts,
  multiline: fc.boolean(),
  min: fc.constantFrom(0, 1, "2024-01-01"),
  max: fc.constantFrom(10, "2024-12-31"),
  step: fc.constantFrom(1, 0.5),
  voiceAnswerable: fc.boolean(),
}, ["kind"]);
const goalReport = fc.record({
  schemaVersion: fc.constant(1),
  goalId: nonBlank,
  reportId: nonBlank,
  bodySha256: fc.constantFrom("a".repeat(64), "0123456789abcdef".repeat(4)),
});
const reportItem = opt({ id: nonBlank, text: nonBlank, status: nonBlank, ref: nonBlank }, ["text"]);
const reportPlan = opt({
  slug: nonBlank,
  title: nonBlank,
  status: nonBlank,
  summary: nonBlank,
  items: fc.array(reportItem, { minLength: 1, maxLength: 2 }),
}, ["title"]);

/** A normalised `<report>` block. */
export const reportBlock = opt({
  title: nonBlank,
  plans: fc.array(reportPlan, { maxLength: 2 }),
  goalReport,
}, ["plans"]);
/** A normalised `<ask>` block. */
export const askBlock = opt({
  question: nonBlank,
  options: fc.array(
    opt({ id: nonBlank, label: nonBlank, description: nonBlank }, ["id", "label"]),
    {
      minLength: 1,
      maxLength: 2,
    },
  ),
  refs: fc.array(nonBlank, { minLength: 1, maxLength: 2 }),
}, ["question"]);

const cardSpecFields = {
  prompt: texts,
  presentation,
  fallbackText: texts,
  details: texts,
  approval: fc.record({ title: texts, question: texts, body: fc.array(texts, { maxLength: 2 }) }),
  allowDecline: fc.boolean(),
  timeoutMs: nat,
  report: fc.record({ plans: fc.array(fc.record({ title: texts }), { maxLength: 1 }) }),
};
/** A card spec. */
export const cardSpec = opt(cardSpecFields, ["prompt"]);
/** An open card snapshot. */
export const openCard = opt({
  ...cardSpecFields,
  correlationId: ids,
  createdAt: epochMs,
  dataSchemaJson: fc.constant({ type: "object" }),
}, ["prompt", "correlationId", "createdAt"]);
/** A card response. */
export const cardResponse = fc.oneof(
  fc.record({ action: fc.constant("submit"), correlationId: ids, value: fc.dictionary(ids, json) }),
  fc.record({ action: fc.constantFrom("decline", "cancel"), correlationId: ids }),
);

const v1Event = fc.oneof(
  fc.record({ type: fc.constant("session"), sessionId: ids }),
  fc.record({ type: fc.constantFrom("delta", "reasoning"), text: texts }),
  opt({ type: fc.constant("tool_call"), callId: ids, name: ids, input: json }, [
    "type",
    "callId",
    "name",
  ]),
  opt({ type: fc.constant("tool_progress"), callId: ids, message: texts, progress: fraction }, [
    "type",
    "callId",
  ]),
  opt({
    type: fc.constant("tool_result"),
    callId: ids,
    name: ids,
    ok: fc.boolean(),
    summary: texts,
    output: json,
    blocks: fc.array(groundedBlock, { maxLength: 2 }),
  }, ["type", "callId", "name", "ok"]),
  opt({
    type: fc.constant("provenance"),
    engine: ids,
    model: ids,
    provider: texts,
    accountRoute: fc.constantFrom(null, "r1"),
  }, ["type", "engine", "model"]),
  fc.record({ type: fc.constant("card"), card: openCard }),
  opt({
    type: fc.constant("card_closed"),
    correlationId: ids,
    resolution: fc.constantFrom("submitted", "declined", "cancelled", "expired", "interrupted"),
  }, ["type", "correlationId"]),
  fc.record({ type: fc.constant("state"), version: nat, snapshot: json }),
  opt({ type: fc.constant("done"), stopReason: texts, usage }, ["type"]),
  // every retry combination, valid or not
  opt({
    type: fc.constant("error"),
    message: texts,
    code: ids,
    retryable: fc.constantFrom(true, false, "true", null, 0),
    retryAfterMs: fc.constantFrom(0, 1500, -1, 1.5, "5", null),
  }, ["type", "message"]),
  fc.record({ type: fc.constant("navigate"), href: texts }),
  opt({
    type: fc.constant("turn_status"),
    status: fc.constantFrom("running", "cancelled", "interrupted", "needs-reconciliation"),
    reason: texts,
  }, ["type", "status"]),
  opt({
    type: fc.constant("ext"),
    name: extNames,
    channel: fc.constantFrom("event", "state", "transient", "State", null),
    data: json,
  }, ["type", "name", "data"]),
  fc.record({ type: fc.constant("elided"), of: fc.constantFrom("navigate", "ext", "delta") }),
);
/** A v1 event. */
export const v1EventDoc = v1Event;
/** A v1 envelope. */
export const envelopeDoc = opt({
  schemaVersion: fc.constantFrom(1, 1, 1, 1, 0, 2, "1"),
  conversationId: ids,
  turnId: ids,
  eventId: ids,
  seq: pos,
  at: epochMs,
  event: v1Event,
}, ["schemaVersion", "conversationId", "turnId", "eventId", "seq", "event"]);

const goodExtNames = fc.constantFrom("scout.products", "a.b_c", "acme.cart.updated");
const extEntry = fc.record({ data: json, seq: fc.constantFrom(1, 1, 1, 0) });
const toolState = fc.oneof(
  opt({
    callId: ids,
    name: ids,
    input: json,
    status: fc.constant("running"),
    progress: fraction,
    progressMessage: texts,
    startedSeq: fc.constantFrom(1, 2),
  }, ["callId", "name", "status", "startedSeq"]),
  opt({
    callId: ids,
    name: ids,
    status: fc.constantFrom("ok", "error", "unfinished"),
    summary: texts,
    output: json,
    blocks: fc.array(groundedBlock, { maxLength: 1 }),
    startedSeq: fc.constantFrom(1, 2),
    finishedSeq: fc.constantFrom(2, 3),
  }, ["callId", "name", "status", "startedSeq", "finishedSeq"]),
);
const statuses = fc.constantFrom(
  "running",
  "awaiting-input",
  "completed",
  "failed",
  "cancelled",
  "interrupted",
  "needs-reconciliation",
);
/** A folded state (consistent most of the time: the status decides cards, done and error). */
export const stateDoc = fc.record({
  status: statuses,
  lastSeq: fc.constantFrom(0, 3, 5),
  tools: fc.array(toolState, { maxLength: 2 }),
  cards: fc.array(openCard, { maxLength: 2 }),
  closed: fc.array(
    opt({ correlationId: ids, resolution: fc.constantFrom("submitted", "expired") }, [
      "correlationId",
    ]),
    { maxLength: 2 },
  ),
  extra: opt({
    sessionId: ids,
    provenance: opt({
      engine: ids,
      model: ids,
      provider: texts,
      accountRoute: fc.constantFrom(null, "r"),
    }, [
      "engine",
      "model",
    ]),
    state: opt({ version: nat, snapshot: json }, ["version"]),
    statusReason: texts,
    extensionState: fc.dictionary(goodExtNames, extEntry, { minKeys: 1, maxKeys: 2 }),
    extensionEvents: fc.array(
      fc.record({ name: goodExtNames, data: json, seq: fc.constantFrom(1, 1, 2) }),
      { minLength: 1, maxLength: 2 },
    ),
  }, []),
  done: opt({ stopReason: texts, usage }, []),
  error: opt({
    message: texts,
    code: ids,
    retryable: fc.boolean(),
    retryAfterMs: fc.constantFrom(0, 20),
  }, [
    "message",
    "retryable",
  ]),
  text: texts,
}).map(({ status, lastSeq, tools, cards, closed, extra, done, error, text }) => {
  const s: Record<string, unknown> = {
    schemaVersion: 1,
    conversationId: "c1",
    turnId: "t1",
    status,
    lastSeq,
    lastEventId: lastSeq === 0 ? null : `e${lastSeq}`,
    text,
    reasoning: "",
    // a finished turn's running calls are unfinished; only a finished turn has unfinished ones
    tools: lastSeq === 0
      ? []
      : tools.map((t) =>
        ["completed", "failed", "cancelled"].includes(status)
          ? (t.status === "running" ? { ...t, status: "unfinished", finishedSeq: 3 } : t)
          : (t.status === "unfinished" ? { ...t, status: "error" } : t)
      ),
    openCards: status === "awaiting-input" || status === "interrupted" ? cards : [],
    closedCards: closed,
    ...extra,
  };
  if (status === "completed") s.done = done;
  if (status === "failed") s.error = error;
  return s;
});

/** A capabilities declaration. */
export const capabilitiesDoc = fc.record({
  connectionReplay: fc.boolean(),
  persistedHistory: fc.boolean(),
  persistedDecisions: fc.boolean(),
  completedToolCheckpoints: fc.boolean(),
  interruptedTurnRecovery: fc.boolean(),
});

/** A v0 event (normalised shape). */
export const v0EventDoc = fc.oneof(
  fc.record({ type: fc.constant("session"), sessionId: texts }),
  fc.record({ type: fc.constant("delta"), text: texts }),
  opt({ type: fc.constant("tool_call"), name: ids, input: json, callId: texts }, ["type", "name"]),
  opt({
    type: fc.constant("tool_result"),
    name: ids,
    callId: texts,
    ok: fc.boolean(),
    summary: texts,
  }, [
    "type",
    "name",
  ]),
  opt({
    type: fc.constant("provenance"),
    engine: texts,
    model: texts,
    accountRoute: fc.constantFrom(null, "r"),
  }, [
    "type",
    "engine",
    "model",
  ]),
  fc.record({
    type: fc.constant("card"),
    card: opt({ correlationId: texts, prompt: texts, createdAt: epochMs }, [
      "correlationId",
      "prompt",
    ]),
  }),
  fc.record({ type: fc.constant("card_closed"), correlationId: texts }),
  fc.record({ type: fc.constant("state"), version: fc.constantFrom(0, 1.5, -3), snapshot: json }),
  opt({ type: fc.constant("done"), stopReason: texts, usage: fc.constant({ anything: "goes" }) }, [
    "type",
  ]),
  fc.record({ type: fc.constant("error"), message: texts }),
  fc.record({ type: fc.constant("navigate"), href: texts }),
);

// ---------------------------------------------------------------------------
// The message document

const providerMetadata = fc.constant({
  anthropic: { signature: "sig", n: 1, nested: [1, { a: null }] },
});
const toolStates = fc.constantFrom(...TOOL_PART_STATES);
const approval = opt({
  id: ids,
  approved: fc.boolean(),
  reason: texts,
  isAutomatic: fc.boolean(),
}, ["id"]);
/** A tool part in one of its states, with the fields that state needs (usually). */
const toolPart = fc.record({
  name: fc.constantFrom("tool-weather", "tool-x"),
  state: toolStates,
  toolCallId: ids,
  input: json,
  output: json,
  errorText: texts,
  approval,
  approved: fc.boolean(),
  rawInput: fc.constantFrom('{"a', 3),
}).map(({ name, state, toolCallId, input, output, errorText, approval, approved, rawInput }) => {
  const p: Record<string, unknown> = { type: name, toolCallId, state };
  if (state !== "input-streaming" && state !== "output-error") p.input = input;
  if (state === "input-streaming") p.rawInput = rawInput;
  if (state === "output-available") p.output = output;
  if (state === "output-error") p.errorText = errorText;
  if (state === "approval-requested") p.approval = { id: approval.id };
  if (state === "approval-responded") p.approval = { ...approval, approved };
  if (state === "output-denied") p.approval = { id: approval.id, approved: false };
  return p;
});
const part = fc.oneof(
  opt({
    type: fc.constant("text"),
    text: texts,
    state: fc.constantFrom("streaming", "done"),
    providerMetadata,
  }, [
    "type",
    "text",
  ]),
  opt({ type: fc.constant("reasoning"), text: texts, id: ids, providerMetadata }, ["type", "text"]),
  opt({ type: fc.constant("source-url"), sourceId: ids, url: texts, title: texts }, [
    "type",
    "sourceId",
    "url",
  ]),
  opt({
    type: fc.constant("source-document"),
    sourceId: ids,
    mediaType: texts,
    title: texts,
    filename: texts,
  }, [
    "type",
    "sourceId",
    "mediaType",
    "title",
  ]),
  opt({ type: fc.constant("file"), mediaType: texts, url: texts, filename: texts }, [
    "type",
    "mediaType",
    "url",
  ]),
  fc.record({ type: fc.constant("step-start") }),
  toolPart,
  toolPart.map((p) => ({ ...p, type: "dynamic-tool", toolName: "x" })),
  opt({ type: fc.constantFrom("data-weather", "data-x_1"), id: ids, data: json }, ["type", "data"]),
);
/** A `UIMessage`. */
export const uiMessageDoc = opt({
  id: ids,
  role: fc.constantFrom("system", "user", "assistant"),
  metadata: json,
  parts: fc.array(part, { maxLength: 3 }),
}, ["id", "role", "parts"]);
const isoTimes = fc.constantFrom("2026-01-01T00:00:00Z", "2024-02-29T12:30:00.123+02:00");
const participant = opt({
  id: ids,
  role: fc.constantFrom("system", "user", "assistant"),
  displayName: texts,
  kind: fc.constantFrom("human", "agent", "device", "service"),
  address: fc.record({ scheme: fc.constantFrom("telegram", "mcp"), value: ids }),
}, ["id", "role", "displayName", "kind"]);
/** A `ChatThread`. */
export const threadDoc = opt({
  id: ids,
  kind: fc.constantFrom("coach", "agent-run", "bus", "device", "harness"),
  title: texts,
  participants: fc.array(participant, { maxLength: 2 }),
  createdAt: isoTimes,
}, ["id", "kind", "participants", "createdAt"]);
const messageBody = {
  id: ids,
  threadId: ids,
  authorId: ids,
  role: fc.constantFrom("system", "user", "assistant"),
  createdAt: isoTimes,
  parts: fc.array(part, { maxLength: 3 }),
  metadata: fc.constant({ k: 1 }),
  inReplyTo: ids,
};
/** An inbound message body. */
export const inboundMessageDoc = opt(messageBody, [
  "id",
  "threadId",
  "authorId",
  "role",
  "createdAt",
  "parts",
]);
/** A stored `ChatMessage`. */
export const chatMessageDoc = opt({
  ...messageBody,
  provenance: fc.constantFrom(
    { authored: "human" },
    { authored: "agent" },
    { authored: "agent", endorsedBy: "human", attestedBy: "p1" },
  ),
  delivery: fc.array(
    opt({
      participantId: ids,
      status: fc.constantFrom("pending", "read", "held"),
      at: isoTimes,
      reason: texts,
    }, ["participantId", "status", "at"]),
    { maxLength: 2 },
  ),
}, ["id", "threadId", "authorId", "role", "createdAt", "parts"]);
