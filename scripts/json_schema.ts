/**
 * The JSON Schema 2020-12 generator: turns the library's zod schemas into the
 * checked-in files under `schema/` (one file per top-level document type and
 * a bundle). Used by `deno task schema:gen` (writes the files) and by the
 * drift test (compares them).
 *
 * How: every named zod schema is registered under a stable name and emitted
 * with `z.toJSONSchema(registry, { io: "input" })` (so an object that strips
 * unknown keys accepts them, as the library does), each name becoming a
 * `$defs` entry referenced as `#/$defs/<Name>`. What `z.toJSONSchema` cannot
 * see (refinements, custom types, transforms) is written here as an explicit
 * override keyed by the zod schema instance; a refinement or custom type
 * without an override makes generation fail, so a new rule can never be
 * dropped from the JSON Schema silently. Regular expressions are rewritten
 * into the subset that ECMAScript (`u` flag) and Python's `re` read the same
 * way (`\d` → `[0-9]`, a final `$` → `(?![\s\S])`, since Python's `$` also
 * matches before a final newline).
 *
 * What JSON Schema cannot express (seq continuity, lifecycle transitions,
 * uniqueness of ids within a list, `seq` bounds relative to `lastSeq`) is
 * named in each document's `$comment` and covered by the conformance corpus.
 *
 * @module
 */
import { z } from "zod";
import * as v1 from "../src/v1/schemas.ts";
import * as v0 from "../src/v0/schemas.ts";
import * as cards from "../src/cards/schemas.ts";
import * as blocks from "../src/blocks/schemas.ts";
import * as parts from "../src/message/parts.ts";
import * as envelope from "../src/message/envelope.ts";
import * as delivery from "../src/message/delivery_schemas.ts";
import { BUILTIN_KINDS } from "../src/cards/kinds.ts";
import { MAX_EXTENSION_STATE_NAMES } from "../src/v1/limits.ts";
import { refuseProtoKey } from "../src/_internal/record_schema.ts";

/** Base of every `$id`: an identifier, not a URL to fetch. */
export const SCHEMA_ID_BASE = "https://schemas.papercusp.dev/chat-protocol/";
/** The JSON Schema dialect of every file. */
export const DIALECT = "https://json-schema.org/draft/2020-12/schema";

type Json = Record<string, unknown>;
type Zod = z.ZodType;

/** One generated top-level document. */
export interface SchemaDocument {
  /** Path under `schema/`, e.g. `v1/chat-event-envelope.schema.json`. */
  readonly file: string;
  /** Name of the root `$defs` entry. */
  readonly root: string;
  /** Human title. */
  readonly title: string;
  /** One-paragraph description. */
  readonly description: string;
  /** Rules of the document that JSON Schema cannot express (in `$comment`). */
  readonly notExpressed?: string;
}

// ---------------------------------------------------------------------------
// Reaching inner zod instances (for overrides of schemas that are not exported)

interface ZodInternals {
  _zod: {
    def: {
      type: string;
      shape?: Record<string, Zod>;
      innerType?: Zod;
      valueType?: Zod;
      in?: Zod;
      out?: Zod;
      transform?: unknown;
      checks?: { _zod: { def: { check: string } } }[];
    };
  };
}
const internals = (s: unknown) => (s as ZodInternals)._zod.def;
/** `true` for the pipe `refusingProtoKey` builds (src/_internal/record_schema.ts). */
function isProtoKeyGuard(s: unknown): boolean {
  const def = internals(s);
  return def.type === "pipe" && def.in !== undefined &&
    internals(def.in).transform === refuseProtoKey;
}
/** The schema inside optional/nullable wrappers and `refusingProtoKey` pipes. */
function unwrap(schema: unknown): Zod {
  let s = schema as Zod;
  for (;;) {
    const def = internals(s);
    if (def.innerType !== undefined) s = def.innerType;
    else if (isProtoKeyGuard(s)) s = def.out!;
    else return s;
  }
}
/** `schema.shape[key]`, unwrapped (see {@link unwrap}). */
function field(schema: unknown, key: string): Zod {
  const s = internals(schema).shape?.[key];
  if (s === undefined) throw new Error(`schema has no field ${key}`);
  return unwrap(s);
}

// ---------------------------------------------------------------------------
// Names (the `$defs` keys)

const NAMED: [string, unknown][] = [
  // v1
  ["ChatEventEnvelope", v1.ChatEventEnvelopeSchema],
  ["ChatEventV1", v1.ChatEventV1Schema],
  ["SessionEventV1", v1.SessionEventV1Schema],
  ["DeltaEventV1", v1.DeltaEventV1Schema],
  ["ReasoningEventV1", v1.ReasoningEventV1Schema],
  ["ToolCallEventV1", v1.ToolCallEventV1Schema],
  ["ToolProgressEventV1", v1.ToolProgressEventV1Schema],
  ["ToolResultEventV1", v1.ToolResultEventV1Schema],
  ["ProvenanceEventV1", v1.ProvenanceEventV1Schema],
  ["CardEventV1", v1.CardEventV1Schema],
  ["CardClosedEventV1", v1.CardClosedEventV1Schema],
  ["StateEventV1", v1.StateEventV1Schema],
  ["DoneEventV1", v1.DoneEventV1Schema],
  ["ErrorEventV1", v1.ErrorEventV1Schema],
  ["NavigateEventV1", v1.NavigateEventV1Schema],
  ["TurnStatusEventV1", v1.TurnStatusEventV1Schema],
  ["ExtensionEventV1", v1.ExtensionEventV1Schema],
  ["ElidedEventV1", v1.ElidedEventV1Schema],
  ["OpenCardSnapshotV1", v1.OpenCardSnapshotV1Schema],
  ["SourceRef", v1.SourceRefSchema],
  ["GroundedBlock", v1.GroundedBlockSchema],
  ["ChatUsage", v1.ChatUsageSchema],
  ["CardResolution", v1.CardResolutionSchema],
  ["ChatCapabilities", v1.ChatCapabilitiesSchema],
  ["ChatStateV1", v1.ChatStateV1Schema],
  ["ToolCallStateV1", v1.ToolCallStateV1Schema],
  // v0
  ["ChatEvent", v0.ChatEventSchema],
  ["SessionEvent", v0.SessionEventSchema],
  ["DeltaEvent", v0.DeltaEventSchema],
  ["ToolCallEvent", v0.ToolCallEventSchema],
  ["ToolResultEvent", v0.ToolResultEventSchema],
  ["ProvenanceEvent", v0.ProvenanceEventSchema],
  ["WireCard", v0.WireCardSchema],
  ["CardEvent", v0.CardEventSchema],
  ["CardClosedEvent", v0.CardClosedEventSchema],
  ["StateEvent", v0.StateEventSchema],
  ["DoneUsage", v0.DoneUsageSchema],
  ["DoneEvent", v0.DoneEventSchema],
  ["ErrorEvent", v0.ErrorEventSchema],
  ["NavigateEvent", v0.NavigateEventSchema],
  // cards
  ["CardPresentationKind", cards.CardPresentationKindSchema],
  ["CardOption", cards.CardOptionSchema],
  ["CardApproval", cards.CardApprovalSchema],
  ["CardPresentation", cards.CardPresentationSchema],
  ["CardSpec", cards.CardSpecSchema],
  ["OpenCardSnapshot", cards.OpenCardSnapshotSchema],
  ["CardResponse", cards.CardResponseSchema],
  // blocks
  ["GoalOwnerReportRefV1", blocks.GoalOwnerReportRefV1Schema],
  ["ReportItem", blocks.ReportItemSchema],
  ["ReportPlan", blocks.ReportPlanSchema],
  ["ReportBlock", blocks.ReportBlockSchema],
  ["AskOption", blocks.AskOptionSchema],
  ["AskBlock", blocks.AskBlockSchema],
  // message
  ["ProviderMetadata", parts.providerMetadata],
  ["TextPart", parts.textPart],
  ["ReasoningPart", parts.reasoningPart],
  ["SourceUrlPart", parts.sourceUrlPart],
  ["SourceDocumentPart", parts.sourceDocumentPart],
  ["FilePart", parts.filePart],
  ["StepStartPart", parts.stepStartPart],
  ["ToolApproval", parts.toolApproval],
  ["ToolPart", parts.toolPart],
  ["DynamicToolPart", parts.dynamicToolPart],
  ["DataPart", parts.dataPart],
  ["ChatPart", parts.chatPart],
  ["MessageRole", parts.messageRole],
  ["UIMessage", parts.uiMessage],
  ["ThreadKind", envelope.threadKind],
  ["ParticipantKind", envelope.participantKind],
  ["AddressScheme", envelope.addressScheme],
  ["Participant", envelope.participant],
  ["ChatThread", envelope.chatThread],
  ["Provenance", envelope.provenance],
  ["ChatMessage", envelope.chatMessage],
  ["InboundChatMessage", envelope.inboundChatMessage],
  ["DeliveryStatus", delivery.deliveryStatus],
  ["DeliveryState", delivery.deliveryState],
];

/** The top-level documents, one file each (plus `bundle.schema.json`). */
export const DOCUMENTS: readonly SchemaDocument[] = [
  {
    file: "v1/chat-event-envelope.schema.json",
    root: "ChatEventEnvelope",
    title: "ChatEventEnvelope (v1)",
    description:
      "One v1 frame: schemaVersion 1, host-allocated non-empty conversationId/turnId/eventId, a positive per-turn seq, optional `at` (epoch ms) and one v1 event. Unknown keys are accepted and ignored (the library strips them).",
    notExpressed:
      "Not expressed here (see the conformance corpus): seq continuity per turn (gap, duplicate, reordered), foreign conversation/turn, lifecycle transitions, tool call and card identity across frames, grounded block ids unique within a tool result, an ext event's data at most 32 levels of arrays/objects and 10,000 JSON values.",
  },
  {
    file: "v1/chat-event.schema.json",
    root: "ChatEventV1",
    title: "ChatEventV1",
    description: "Any one v1 event (the `event` of an envelope), discriminated by `type`.",
    notExpressed:
      "Not expressed here (see the conformance corpus): grounded block ids unique within a tool result, an ext event's data at most 32 levels of arrays/objects and 10,000 JSON values.",
  },
  {
    file: "v1/chat-state.schema.json",
    root: "ChatStateV1",
    title: "ChatStateV1",
    description:
      "The folded state of one turn, as the v1 fold produces it and resumeChatState accepts it.",
    notExpressed:
      "Not expressed here (resumeChatState refuses them; see the conformance corpus): tool callIds unique; card correlationIds unique across openCards and closedCards; every tool's startedSeq and finishedSeq at most lastSeq; grounded block ids unique within a tool; every extensionState / extensionEvents seq at most lastSeq, extensionEvents seqs increasing; extension data at most 32 levels of arrays/objects and 10,000 JSON values.",
  },
  {
    file: "v1/chat-capabilities.schema.json",
    root: "ChatCapabilities",
    title: "ChatCapabilities",
    description: "The five durability promises a host declares, each a boolean.",
  },
  {
    file: "v0/chat-event.schema.json",
    root: "ChatEvent",
    title: "ChatEvent (v0)",
    description:
      "A v0 event as parseChatEvent normalises it (the payload of a named SSE event, with its `type`).",
  },
  {
    file: "cards/open-card-snapshot.schema.json",
    root: "OpenCardSnapshot",
    title: "OpenCardSnapshot",
    description: "A card as it is open on the wire, with the built-in presentation kinds.",
    notExpressed:
      "Per-kind card rules (options present and unique for radio/checkbox/select, slider bounds, ISO date bounds) are checked when an answer is validated; see the conformance corpus (card-answer cases).",
  },
  {
    file: "cards/card-spec.schema.json",
    root: "CardSpec",
    title: "CardSpec",
    description: "What a card asks (an open card without correlationId and createdAt).",
  },
  {
    file: "cards/card-response.schema.json",
    root: "CardResponse",
    title: "CardResponse",
    description:
      "An answer to a card: submit (with a value object), decline or cancel. Whether it answers a given card is validateCardResponse's job (see the corpus).",
  },
  {
    file: "blocks/report-block.schema.json",
    root: "ReportBlock",
    title: "ReportBlock",
    description:
      "A normalised <report> block (the output of parseReportBlock: strings trimmed and non-empty).",
  },
  {
    file: "blocks/ask-block.schema.json",
    root: "AskBlock",
    title: "AskBlock",
    description:
      "A normalised <ask> block (the output of parseAskBlock: strings trimmed and non-empty).",
  },
  {
    file: "message/ui-message.schema.json",
    root: "UIMessage",
    title: "UIMessage",
    description: "The AI SDK UIMessage restricted to this document's parts.",
  },
  {
    file: "message/chat-message.schema.json",
    root: "ChatMessage",
    title: "ChatMessage",
    description:
      "The message document: a UIMessage plus thread, author, time, reply link, broker-set provenance and per-recipient delivery.",
  },
  {
    file: "message/inbound-chat-message.schema.json",
    root: "InboundChatMessage",
    title: "InboundChatMessage",
    description:
      "The message body a transport may hand in: a ChatMessage without provenance or delivery, and no other key.",
  },
  {
    file: "message/chat-thread.schema.json",
    root: "ChatThread",
    title: "ChatThread",
    description: "A thread and its participants.",
  },
];

// ---------------------------------------------------------------------------
// Regular expressions readable by ECMAScript (u flag) and Python `re` alike

const END = "(?![\\s\\S])";

/**
 * Rewrite an ECMAScript pattern into the portable subset: `\d` → `[0-9]`
 * (Python's `\d` matches every Unicode digit), a final unescaped `$` →
 * `(?![\s\S])` (Python's `$` also matches before a final newline). Throws
 * on constructs that mean different things in the two dialects.
 */
export function portablePattern(source: string): string {
  let out = source.replaceAll("\\d", "[0-9]");
  if (/\\[wWbBsS]/.test(out.replaceAll("[\\s\\S]", ""))) {
    throw new Error(`pattern ${source} uses a class that differs between ECMAScript and Python`);
  }
  if (out.endsWith("$") && !out.endsWith("\\$")) out = out.slice(0, -1) + END;
  if (/(?<!\\)\$/.test(out)) throw new Error(`pattern ${source} has a $ that is not at its end`);
  return out;
}

/**
 * The JavaScript `String.prototype.trim` whitespace set (WhiteSpace and
 * LineTerminator), as a character class body.
 */
const TRIM_SET =
  "\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff";
/** A non-empty string equal to its own `trim()`. */
export const NON_BLANK_PATTERN = `^[^${TRIM_SET}](?:[\\s\\S]*[^${TRIM_SET}])?${END}`;

// ---------------------------------------------------------------------------
// Overrides: what z.toJSONSchema cannot see

const ref = (name: string) => ({ $ref: `#/$defs/${name}` });
// `type: "object"` in these fragments only restates the enclosing object type
// (ajv's strictTypes asks for it); it never changes a verdict.
const has = (...keys: string[]) => ({ type: "object", required: keys });
const not = (s: Json) => ({ not: s });
const whenProp = (key: string, schema: Json) => ({
  type: "object",
  properties: { [key]: schema },
  required: [key],
});

/** Replace every key of `target` by those of `source`. */
function replace(target: Json, source: Json): void {
  for (const k of Object.keys(target)) delete target[k];
  Object.assign(target, source);
}

/** Append subschemas to `allOf` (creating it). */
function allOf(target: Json, ...schemas: Json[]): void {
  const list = (target.allOf as Json[] | undefined) ?? [];
  target.allOf = [...list, ...schemas];
}

const TOOL_STATES_INPUT_REQUIRED = [
  "input-available",
  "approval-requested",
  "approval-responded",
  "output-available",
  "output-denied",
];

/** The ai@7 tool part state rules (`toolStateRules` in src/message/parts.ts). */
function toolStateRules(): Json[] {
  const state = (...s: string[]) =>
    whenProp("state", s.length === 1 ? { const: s[0] } : { enum: s });
  return [
    { if: state("input-streaming", "input-available"), then: not(has("approval")) },
    {
      if: state("approval-requested"),
      then: {
        required: ["approval"],
        properties: { approval: not({ anyOf: [has("approved"), has("reason")] }) },
      },
    },
    {
      if: state("approval-responded"),
      then: { required: ["approval"], properties: { approval: has("approved") } },
    },
    {
      if: state("output-available", "output-error"),
      then: { properties: { approval: whenProp("approved", { const: true }) } },
    },
    {
      if: state("output-denied"),
      then: {
        required: ["approval"],
        properties: { approval: whenProp("approved", { const: false }) },
      },
    },
    { if: state("output-error"), then: has("errorText"), else: not(has("errorText")) },
    { if: state("output-available"), then: has("output"), else: not(has("output")) },
    { if: state(...TOOL_STATES_INPUT_REQUIRED), then: has("input") },
    {
      if: state("input-streaming"),
      then: { properties: { rawInput: { type: "string" } } },
    },
  ];
}

/** The dispatch of `chatPart` (`schemaForPart` in src/message/parts.ts). */
function chatPartDispatch(): Json {
  const byType: [string, string][] = [
    ["text", "TextPart"],
    ["reasoning", "ReasoningPart"],
    ["source-url", "SourceUrlPart"],
    ["source-document", "SourceDocumentPart"],
    ["file", "FilePart"],
    ["step-start", "StepStartPart"],
    ["dynamic-tool", "DynamicToolPart"],
  ];
  const prefixed: [string, string][] = [["^tool-", "ToolPart"], ["^data-", "DataPart"]];
  let chain: Json | false = false;
  for (let i = prefixed.length - 1; i >= 0; i--) {
    const [pattern, name] = prefixed[i];
    chain = {
      if: { properties: { type: { type: "string", pattern } } },
      then: ref(name),
      else: chain,
    };
  }
  for (let i = byType.length - 1; i >= 0; i--) {
    const [type, name] = byType[i];
    chain = { if: { properties: { type: { const: type } } }, then: ref(name), else: chain };
  }
  return {
    type: "object",
    required: ["type"],
    properties: { type: { type: "string" } },
    ...(chain as Json),
  };
}

type Patch = (json: Json) => void;

/** A `ChatStateV1` whose tool calls have no `status` of `status`. */
function toolsWithout(status: string): Json {
  return {
    properties: {
      tools: {
        type: "array",
        items: { type: "object", properties: { status: not({ const: status }) } },
      },
    },
  };
}

function overrides(): Map<unknown, Patch> {
  const m = new Map<unknown, Patch>();
  // v1: the retry rule (event and folded state).
  const retryRule: Patch = (j) =>
    allOf(j, {
      if: whenProp("retryable", { const: false }),
      then: not(has("retryAfterMs")),
    });
  m.set(v1.ErrorEventV1Schema, retryRule);
  m.set(field(v1.ChatStateV1Schema, "error"), retryRule);
  m.set(v1.ToolCallStateV1Schema, (j) =>
    allOf(j, {
      if: whenProp("status", { const: "running" }),
      then: not(has("finishedSeq")),
      else: has("finishedSeq"),
    }));
  m.set(v1.ChatStateV1Schema, (j) => {
    const status = (...s: string[]) =>
      whenProp("status", s.length === 1 ? { const: s[0] } : { enum: s });
    allOf(
      j,
      {
        if: whenProp("lastSeq", { const: 0 }),
        then: { properties: { lastEventId: { type: "null" } } },
        else: { properties: { lastEventId: { type: "string" } } },
      },
      {
        if: status("awaiting-input"),
        then: { properties: { openCards: { type: "array", minItems: 1 } } },
      },
      {
        if: status("running", "completed", "failed", "cancelled"),
        then: { properties: { openCards: { type: "array", maxItems: 0 } } },
      },
      {
        // a finished turn has no running tool call; only a finished turn has unfinished ones
        if: status("completed", "failed", "cancelled"),
        then: toolsWithout("running"),
        else: toolsWithout("unfinished"),
      },
      { if: status("completed"), then: has("done"), else: not(has("done")) },
      { if: status("failed"), then: has("error"), else: not(has("error")) },
    );
  });
  // v1: grounded block ids unique within a list (not expressible: see notExpressed).
  m.set(field(v1.ToolResultEventV1Schema, "blocks"), () => {});
  // v1: extension data is any JSON value, required (its depth and size bounds: see notExpressed).
  m.set(field(v1.ExtensionEventV1Schema, "data"), (j) => replace(j, {}));
  const extensionEntry = internals(field(v1.ChatStateV1Schema, "extensionState")).valueType;
  const extensionEvent = (internals(field(v1.ChatStateV1Schema, "extensionEvents")) as {
    element?: Zod;
  }).element;
  for (const s of [v1.ExtensionEventV1Schema, extensionEntry, extensionEvent]) {
    m.set(s, (j) => {
      const required = (j.required as string[] | undefined) ?? [];
      if (!required.includes("data")) j.required = [...required, "data"];
    });
  }
  m.set(
    field(v1.ChatStateV1Schema, "extensionState"),
    (j) => Object.assign(j, { minProperties: 1, maxProperties: MAX_EXTENSION_STATE_NAMES }),
  );
  // v1: opaque data is any JSON value (the refinement refuses what JSON cannot carry).
  m.set(field(v1.ToolCallEventV1Schema, "input"), (j) => replace(j, {}));
  m.set(field(v1.ToolResultEventV1Schema, "output"), (j) => replace(j, {}));
  // v1: a state's snapshot is required (any JSON value, null for none).
  m.set(field(v1.StateEventV1Schema, "snapshot"), (j) => replace(j, {}));
  m.set(v1.StateEventV1Schema, (j) => {
    const required = (j.required as string[] | undefined) ?? [];
    if (!required.includes("snapshot")) j.required = [...required, "snapshot"];
  });
  // v0: the custom types.
  m.set(field(v0.StateEventSchema, "version"), (j) => replace(j, { type: "number" }));
  m.set(v0.DoneUsageSchema, (j) => replace(j, { type: "object" }));
  // cards: the kind refinement.
  m.set(
    field(cards.CardPresentationSchema, "kind"),
    (j) => replace(j, { type: "string", enum: [...BUILTIN_KINDS] }),
  );
  // blocks: non-blank strings, a plan or a goal report.
  m.set(
    field(blocks.ReportItemSchema, "text"),
    (j) => replace(j, { type: "string", pattern: NON_BLANK_PATTERN }),
  );
  m.set(blocks.ReportBlockSchema, (j) =>
    allOf(j, {
      anyOf: [{ properties: { plans: { type: "array", minItems: 1 } } }, has("goalReport")],
    }));
  // message: JSON values, tool state rules, data parts, part dispatch, messages.
  const jsonValue = unwrap(
    internals(unwrap(internals(unwrap(parts.providerMetadata)).valueType)).valueType,
  );
  m.set(jsonValue, (j) => replace(j, {}));
  m.set(
    field(parts.toolPart, "type"),
    (j) => replace(j, { type: "string", pattern: `^tool-[\\s\\S]+${END}` }),
  );
  m.set(parts.toolPart, (j) => allOf(j, ...toolStateRules()));
  m.set(parts.dynamicToolPart, (j) => allOf(j, ...toolStateRules()));
  m.set(field(parts.dataPart, "data"), (j) => replace(j, {}));
  m.set(parts.dataPart, (j) => {
    const required = (j.required as string[] | undefined) ?? [];
    if (!required.includes("data")) j.required = [...required, "data"];
  });
  m.set(parts.chatPart, (j) => replace(j, chatPartDispatch()));
  m.set(parts.uiMessage, (j) =>
    allOf(j, {
      if: not(whenProp("role", { const: "assistant" })),
      then: { properties: { parts: { type: "array", minItems: 1 } } },
    }));
  return m;
}

const UNREPRESENTABLE = new Set([
  "custom",
  "transform",
  "pipe",
  "bigint",
  "symbol",
  "date",
  "map",
  "set",
  "nan",
  "void",
  "undefined",
  "function",
  "promise",
]);

function hasCustomCheck(s: unknown): boolean {
  return (internals(s).checks ?? []).some((c) => c._zod.def.check === "custom");
}

// ---------------------------------------------------------------------------
// Generation

/** Rewrite every `pattern` into the portable subset; drop `$schema`/`$id` of defs. */
function finish(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(finish);
  if (typeof value !== "object" || value === null) return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === "pattern" && typeof v === "string") out[k] = portablePattern(v);
    else if (k === "properties" || k === "$defs") {
      const props: Json = {};
      for (const [name, s] of Object.entries(v as Json)) setOwn(props, name, finish(s));
      out[k] = props;
    } else out[k] = finish(v);
  }
  return out;
}

/** `o[k] = v` as an own property, also for `__proto__`. */
function setOwn(o: Json, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

function refsOf(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const v of value) refsOf(v, into);
  } else if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (k === "$ref" && typeof v === "string" && v.startsWith("#/$defs/")) {
        into.add(v.slice("#/$defs/".length));
      } else refsOf(v, into);
    }
  }
}

/** Every named definition, keyed by name, in registration order. */
export function generateDefinitions(): Map<string, Json> {
  const registry = z.registry<{ id: string }>();
  const names = new Set<string>();
  for (const [name, schema] of NAMED) {
    if (names.has(name)) throw new Error(`duplicate schema name ${name}`);
    names.add(name);
    registry.add(schema as Zod, { id: name });
  }
  const patches = overrides();
  const used = new Set<unknown>();
  const problems: string[] = [];
  const out = z.toJSONSchema(registry, {
    target: "draft-2020-12",
    io: "input",
    unrepresentable: "any",
    uri: (id) => `#/$defs/${id}`,
    override(ctx) {
      const s = ctx.zodSchema;
      const patch = patches.get(s);
      if (patch !== undefined) {
        used.add(s);
        patch(ctx.jsonSchema as Json);
        return;
      }
      const type = internals(s).type;
      if (isProtoKeyGuard(s)) {
        // every record is read through `refusingProtoKey`: an own `__proto__`
        // key is refused, never stripped (the record's own keys stay as they are)
        const j = ctx.jsonSchema as Json;
        const names = (j.propertyNames ?? {}) as Json;
        if (names.not !== undefined) throw new Error("a record key schema with its own `not`");
        j.propertyNames = { ...names, not: { const: "__proto__" } };
        return;
      }
      if (UNREPRESENTABLE.has(type) || hasCustomCheck(s)) {
        problems.push(`${ctx.path.join(".") || "(root)"} (${type})`);
      }
    },
  });
  if (problems.length > 0) {
    throw new Error(
      `zod schemas with a refinement, custom type or transform but no JSON Schema override in scripts/json_schema.ts: ${
        problems.join(", ")
      }`,
    );
  }
  for (const s of patches.keys()) {
    if (!used.has(s)) throw new Error("an override was never applied (its schema moved?)");
  }
  const defs = new Map<string, Json>();
  for (const [name] of NAMED) {
    const { $schema: _s, $id: _i, ...rest } = out.schemas[name] as Json;
    defs.set(name, finish(rest) as Json);
  }
  return defs;
}

/** The closure of `$defs` a root needs, in registration order. */
function closure(defs: Map<string, Json>, root: string): Json {
  const need = new Set<string>([root]);
  const queue = [root];
  while (queue.length > 0) {
    const found = new Set<string>();
    refsOf(defs.get(queue.pop()!), found);
    for (const f of found) {
      if (!defs.has(f)) throw new Error(`reference to unknown definition ${f}`);
      if (!need.has(f)) {
        need.add(f);
        queue.push(f);
      }
    }
  }
  const out: Json = {};
  for (const name of defs.keys()) if (need.has(name)) out[name] = defs.get(name);
  return out;
}

/** Every file under `schema/`: path (relative to `schema/`) → JSON text (2-space, final newline). */
export function generateJsonSchemas(): Map<string, string> {
  const defs = generateDefinitions();
  const files = new Map<string, string>();
  for (const doc of DOCUMENTS) {
    const json: Json = {
      $schema: DIALECT,
      $id: SCHEMA_ID_BASE + doc.file,
      title: doc.title,
      description: doc.description,
    };
    if (doc.notExpressed !== undefined) json.$comment = doc.notExpressed;
    json.$ref = `#/$defs/${doc.root}`;
    json.$defs = closure(defs, doc.root);
    files.set(doc.file, JSON.stringify(json, null, 2) + "\n");
  }
  const all: Json = {};
  for (const [name, def] of defs) all[name] = def;
  const bundle = {
    $schema: DIALECT,
    $id: SCHEMA_ID_BASE + "bundle.schema.json",
    title: "@papercusp/chat-protocol JSON Schemas",
    description:
      "Every definition of the package's documents in one file: reference one as bundle.schema.json#/$defs/<Name> (e.g. ChatEventEnvelope, ChatStateV1, OpenCardSnapshot, ChatMessage). Generated from the zod schemas by `deno task schema:gen`.",
    $defs: all,
  };
  files.set("bundle.schema.json", JSON.stringify(bundle, null, 2) + "\n");
  return files;
}
