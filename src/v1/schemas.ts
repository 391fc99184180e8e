/**
 * Zod schemas for the v1 contract: every v1 event, {@link ChatEventEnvelopeSchema},
 * and the pieces they are built from.
 *
 * These schemas are the normative, readable statement of the contract. The
 * hot path ({@link parseChatEnvelope}) uses a hand-written validator that a
 * property test keeps in agreement with them (same inputs accepted and
 * refused).
 *
 * Unknown keys: **stripped** at envelope, event, usage, block and source
 * level; opaque data (`tool_call.input`, `tool_result.output`,
 * `state.snapshot`) is kept as is, and a `card` keeps every key (it is
 * validated structurally: `correlationId` non-empty string, `prompt` string,
 * `createdAt` finite number).
 *
 * @module
 */
import { z } from "zod";
import { refusingProtoKey } from "../_internal/record_schema.ts";
import { WIRE_ID_PATTERN } from "../_internal/id.ts";
import { EXTENSION_NAME_PATTERN } from "./extensions.ts";
import { MAX_EXTENSION_NAME_LENGTH, MAX_EXTENSION_STATE_NAMES } from "./limits.ts";
import { jsonProblem } from "./_validate.ts";
import { jsonValueProblem } from "../_internal/json_value.ts";
import type { OpenCardSnapshot } from "../cards/types.ts";
import type {
  CardClosedEventV1,
  CardEventV1,
  CardResolution,
  ChatCapabilities,
  ChatEventEnvelope,
  ChatEventV1,
  ChatStateV1,
  ChatUsage,
  DeltaEventV1,
  DoneEventV1,
  ElidedEventV1,
  ErrorEventV1,
  ExtensionEventV1,
  GroundedBlock,
  NavigateEventV1,
  ProvenanceEventV1,
  ReasoningEventV1,
  SessionEventV1,
  SourceRef,
  StateEventV1,
  ToolCallEventV1,
  ToolCallStateV1,
  ToolProgressEventV1,
  ToolResultEventV1,
  TurnStatusEventV1,
} from "./types.ts";

/** Opaque data must be JSON data (the rule of `../_internal/json_value.ts`, as the parser checks it). */
const NOT_JSON = { message: "is not JSON data (not-json)" };
const jsonData = () => z.unknown().refine((v) => jsonValueProblem(v, "") === null, NOT_JSON);
const nonEmpty = () => z.string().min(1);
/** A v1 id: non-empty, no CR, LF, NUL or lone surrogate (it can be an SSE `id:` or a header value). */
const wireId = () => z.string().regex(WIRE_ID_PATTERN);
const finiteNonNegative = () => z.number().nonnegative();

/**
 * Structural check of an {@link OpenCardSnapshot} on the v1 wire:
 * `correlationId` a wire id, `prompt` string, `createdAt` finite
 * number (epoch ms); every other key passes through unvalidated.
 *
 * Deliberately structural: the envelope must not refuse a card whose
 * presentation uses a product's own kinds (the cards module's extension
 * point). Validate a card deeply with the cards module's
 * `OpenCardSnapshotSchema` / `createCardSchemas` where you render it.
 */
export const OpenCardSnapshotV1Schema: z.ZodType<OpenCardSnapshot> = z.looseObject({
  correlationId: wireId(),
  prompt: z.string(),
  createdAt: z.number(),
}) as unknown as z.ZodType<OpenCardSnapshot>;

/** An opaque source reference: `ref` non-empty, optional plain-text `label`. */
export const SourceRefSchema: z.ZodType<SourceRef> = z.object({
  ref: nonEmpty(),
  label: z.string().optional(),
});

/** A grounded result block: `id` non-empty, plain `text`, `sources` array of {@link SourceRefSchema}. */
export const GroundedBlockSchema: z.ZodType<GroundedBlock> = z.object({
  id: nonEmpty(),
  text: z.string(),
  sources: z.array(SourceRefSchema),
});

/** Usage: each count optional, finite and non-negative (tokens; `costUsd` in USD). */
export const ChatUsageSchema: z.ZodType<ChatUsage> = z.object({
  totalTokens: finiteNonNegative().optional(),
  inputTokens: finiteNonNegative().optional(),
  outputTokens: finiteNonNegative().optional(),
  costUsd: finiteNonNegative().optional(),
});

/** The card resolutions. */
export const CardResolutionSchema: z.ZodType<CardResolution> = z.enum([
  "submitted",
  "declined",
  "cancelled",
  "expired",
  "interrupted",
]);

const sessionEventV1Raw = z.object({
  type: z.literal("session"),
  sessionId: wireId(),
});
/** `session`: `sessionId` a wire id (non-empty, no CR, LF, NUL or lone surrogate). */
export const SessionEventV1Schema: z.ZodType<SessionEventV1> = sessionEventV1Raw;
const deltaEventV1Raw = z.object({
  type: z.literal("delta"),
  text: z.string(),
});
/** `delta`: `text` string (empty accepted). */
export const DeltaEventV1Schema: z.ZodType<DeltaEventV1> = deltaEventV1Raw;
const reasoningEventV1Raw = z.object({
  type: z.literal("reasoning"),
  text: z.string(),
});
/** `reasoning`: `text` string (empty accepted). */
export const ReasoningEventV1Schema: z.ZodType<ReasoningEventV1> = reasoningEventV1Raw;
const toolCallEventV1Raw = z.object({
  type: z.literal("tool_call"),
  callId: wireId(),
  name: nonEmpty(),
  input: jsonData().optional(),
});
/** `tool_call`: `callId` a wire id, non-empty `name`; `input` any JSON (kept as data). */
export const ToolCallEventV1Schema: z.ZodType<ToolCallEventV1> = toolCallEventV1Raw;
const toolProgressEventV1Raw = z.object({
  type: z.literal("tool_progress"),
  callId: wireId(),
  message: z.string().optional(),
  progress: z.number().min(0).max(1).optional(),
});
/** `tool_progress`: `callId` a wire id; optional `message`; optional `progress` in [0, 1]. */
export const ToolProgressEventV1Schema: z.ZodType<ToolProgressEventV1> = toolProgressEventV1Raw;
/** Grounded blocks whose ids are unique within the list (the parser's `readBlocks`). */
const groundedBlocksRaw = z.array(GroundedBlockSchema).superRefine(uniqueBlockIds);
const toolResultEventV1Raw = z.object({
  type: z.literal("tool_result"),
  callId: wireId(),
  name: nonEmpty(),
  ok: z.boolean(),
  summary: z.string().optional(),
  output: jsonData().optional(),
  blocks: groundedBlocksRaw.optional(),
});
/** Grounded blocks whose ids are unique within the list. */
function uniqueBlockIds(blocks: GroundedBlock[], ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  blocks.forEach((b, i) => {
    if (seen.has(b.id)) {
      ctx.addIssue({
        code: "custom",
        message: "repeats the id of an earlier block",
        path: [i, "id"],
      });
    }
    seen.add(b.id);
  });
}

/**
 * `tool_result`: `callId` a wire id, non-empty `name`, boolean `ok`, optional
 * `summary`, `output` (data), `blocks` (block ids unique within the list).
 */
export const ToolResultEventV1Schema: z.ZodType<ToolResultEventV1> = toolResultEventV1Raw;
const provenanceEventV1Raw = z.object({
  type: z.literal("provenance"),
  engine: nonEmpty(),
  model: nonEmpty(),
  provider: z.string().optional(),
  accountRoute: z.string().nullable().optional(),
});
/** `provenance`: non-empty `engine` and `model`; optional `provider`; `accountRoute` string or `null`. */
export const ProvenanceEventV1Schema: z.ZodType<ProvenanceEventV1> = provenanceEventV1Raw;
const cardEventV1Raw = z.object({
  type: z.literal("card"),
  card: OpenCardSnapshotV1Schema,
});
/** `card`: `{type, card}` with {@link OpenCardSnapshotV1Schema}. */
export const CardEventV1Schema: z.ZodType<CardEventV1> = cardEventV1Raw;
const cardClosedEventV1Raw = z.object({
  type: z.literal("card_closed"),
  correlationId: wireId(),
  resolution: CardResolutionSchema.optional(),
});
/** `card_closed`: `correlationId` a wire id, optional `resolution`. */
export const CardClosedEventV1Schema: z.ZodType<CardClosedEventV1> = cardClosedEventV1Raw;
const stateEventV1Raw = z.object({
  type: z.literal("state"),
  version: z.int().nonnegative(),
  snapshot: z.unknown().check((ctx) => {
    if (ctx.value === undefined) {
      ctx.issues.push({
        code: "custom",
        message: "is required (use null for none)",
        input: undefined,
      });
    } else if (jsonValueProblem(ctx.value, "") !== null) {
      ctx.issues.push({ code: "custom", ...NOT_JSON, input: ctx.value });
    }
  }),
});
/**
 * `state`: `version` non-negative safe integer; `snapshot` any JSON value
 * (kept as data), required: `undefined` (absent from JSON) is refused, use
 * `null` for none.
 */
export const StateEventV1Schema: z.ZodType<StateEventV1> = stateEventV1Raw;
const doneEventV1Raw = z.object({
  type: z.literal("done"),
  stopReason: z.string().optional(),
  usage: ChatUsageSchema.optional(),
});
/** `done`: optional `stopReason`, optional {@link ChatUsageSchema}. */
export const DoneEventV1Schema: z.ZodType<DoneEventV1> = doneEventV1Raw;
const errorFields = {
  message: z.string(),
  code: z.string().optional(),
  retryable: z.boolean(),
  retryAfterMs: finiteNonNegative().optional(),
};
/** The retry rule of `error` (the event and a folded state's `error`). */
const retryAllowed = (e: { retryable: boolean; retryAfterMs?: number }) =>
  e.retryable || e.retryAfterMs === undefined;
const retryRule = {
  message: "retryAfterMs is only allowed when retryable is true",
  path: ["retryAfterMs"],
};
const errorEventV1Raw = z.object({ type: z.literal("error"), ...errorFields }).refine(
  retryAllowed,
  retryRule,
);
/**
 * `error`: `message` string, optional `code`, **required** boolean
 * `retryable`; `retryAfterMs` (finite, non-negative, milliseconds) only when
 * `retryable` is `true`.
 */
export const ErrorEventV1Schema: z.ZodType<ErrorEventV1> = errorEventV1Raw;
const navigateEventV1Raw = z.object({
  type: z.literal("navigate"),
  href: z.string(),
});
/** `navigate`: `href` string. */
export const NavigateEventV1Schema: z.ZodType<NavigateEventV1> = navigateEventV1Raw;
const turnStatusEventV1Raw = z.object({
  type: z.literal("turn_status"),
  status: z.enum(["running", "cancelled", "interrupted", "needs-reconciliation"]),
  reason: z.string().optional(),
});
/** `turn_status`: `status` one of running/cancelled/interrupted/needs-reconciliation; optional `reason`. */
export const TurnStatusEventV1Schema: z.ZodType<TurnStatusEventV1> = turnStatusEventV1Raw;

const extensionNameRaw = z.string().max(MAX_EXTENSION_NAME_LENGTH).regex(EXTENSION_NAME_PATTERN);
/** Bounded JSON data (`readJson`'s rules); missing is refused (`undefined` is no JSON). */
const extensionDataRaw = z.unknown().superRefine((v, ctx) => {
  const problem = jsonProblem(v);
  if (problem !== "") ctx.addIssue({ code: "custom", message: problem });
});
const extensionEntryRaw = z.object({ data: extensionDataRaw, seq: z.int().positive() });
const extensionEventV1Raw = z.object({
  type: z.literal("ext"),
  name: extensionNameRaw,
  channel: z.enum(["event", "state", "transient"]).optional(),
  data: extensionDataRaw,
});
/**
 * `ext`: `name` an extension name (lowercase `namespace.name` segments, at
 * most 128 characters: {@link EXTENSION_NAME_PATTERN}); optional `channel`
 * event, state or transient; `data` required bounded JSON data (at most 32
 * levels of arrays/objects and 10,000 values; no `undefined`, functions,
 * non-finite numbers or non-plain objects).
 */
export const ExtensionEventV1Schema: z.ZodType<ExtensionEventV1> = extensionEventV1Raw as z.ZodType<
  ExtensionEventV1
>;
const elidedEventV1Raw = z.object({
  type: z.literal("elided"),
  of: z.enum(["navigate", "ext"]),
});
/** `elided`: `of` the type of the transient event it stands for (navigate or ext). */
export const ElidedEventV1Schema: z.ZodType<ElidedEventV1> = elidedEventV1Raw;

/** Any v1 event; an unknown `type` is refused. */
export const ChatEventV1Schema: z.ZodType<ChatEventV1> = z.discriminatedUnion("type", [
  sessionEventV1Raw,
  deltaEventV1Raw,
  reasoningEventV1Raw,
  toolCallEventV1Raw,
  toolProgressEventV1Raw,
  toolResultEventV1Raw,
  provenanceEventV1Raw,
  cardEventV1Raw,
  cardClosedEventV1Raw,
  stateEventV1Raw,
  doneEventV1Raw,
  errorEventV1Raw,
  navigateEventV1Raw,
  turnStatusEventV1Raw,
  extensionEventV1Raw,
  elidedEventV1Raw,
]) as z.ZodType<ChatEventV1>;

/**
 * The v1 envelope: `schemaVersion` literal `1`; `conversationId`, `turnId`,
 * `eventId` wire ids (non-empty, no CR, LF, NUL or lone surrogate: each can be
 * an SSE `id:` or a header value); `seq` positive safe integer; optional `at` (epoch ms,
 * finite, non-negative); `event` a {@link ChatEventV1Schema}.
 */
export const ChatEventEnvelopeSchema: z.ZodType<ChatEventEnvelope> = z.object({
  schemaVersion: z.literal(1),
  conversationId: wireId(),
  turnId: wireId(),
  eventId: wireId(),
  seq: z.int().positive(),
  at: finiteNonNegative().optional(),
  event: ChatEventV1Schema,
});

/** {@link ChatCapabilities}: five strict booleans (no coercion), unknown keys stripped. */
export const ChatCapabilitiesSchema: z.ZodType<ChatCapabilities> = z.object({
  connectionReplay: z.boolean(),
  persistedHistory: z.boolean(),
  persistedDecisions: z.boolean(),
  completedToolCheckpoints: z.boolean(),
  interruptedTurnRecovery: z.boolean(),
});

const toolCallStateV1Raw = z.object({
  callId: wireId(),
  name: nonEmpty(),
  input: z.unknown().optional(),
  status: z.enum(["running", "ok", "error", "unfinished"]),
  progress: z.number().min(0).max(1).optional(),
  progressMessage: z.string().optional(),
  summary: z.string().optional(),
  output: z.unknown().optional(),
  blocks: groundedBlocksRaw.optional(),
  startedSeq: z.int().positive(),
  finishedSeq: z.int().positive().optional(),
}).refine((t) => (t.status === "running") === (t.finishedSeq === undefined), {
  message: "finishedSeq is present exactly when the call is no longer running",
  path: ["finishedSeq"],
});
/**
 * {@link ToolCallStateV1}: `callId` a wire id, non-empty `name`; `status`
 * running, ok, error or unfinished (still running when its turn ended); `startedSeq` (and `finishedSeq`) positive safe integers;
 * `finishedSeq` present exactly when the status is not `running`; optional
 * `progress` in [0, 1], `progressMessage`, `summary`, `blocks`, opaque
 * `input` / `output`. Unknown keys stripped.
 */
export const ToolCallStateV1Schema: z.ZodType<ToolCallStateV1> = toolCallStateV1Raw;

const providerProvenanceRaw = provenanceEventV1Raw.omit({ type: true });

/**
 * {@link ChatStateV1}: a folded turn, as `ChatStateFolder.state()` produces it
 * and `resumeChatState` accepts it. Field rules are those of the events
 * the fold reads them from (non-empty ids, `progress` 0..1, known card
 * resolutions, finite usage, the retry rule of `error`…); unknown keys are
 * stripped. Cross-field rules, each refused with an issue at the named path:
 * - `lastEventId` is `null` exactly when `lastSeq` is 0, else a non-empty string;
 * - `awaiting-input` has an open card, `running`, `completed`, `failed` and
 *   `cancelled` have none (cards close with the turn);
 * - a finished turn (`completed`, `failed`, `cancelled`) has no `running`
 *   tool call, and only a finished turn has `unfinished` ones;
 * - `extensionState` (1 to 128 extension names) and `extensionEvents`
 *   (non-empty, `seq` increasing) hold bounded JSON `data`, every `seq` at
 *   most `lastSeq`;
 * - `done` is present exactly when `completed`, `error` exactly when `failed`;
 * - tool `callId`s are unique; card `correlationId`s are unique across
 *   `openCards` and `closedCards` together;
 * - every tool's `startedSeq` / `finishedSeq` is at most `lastSeq`.
 *
 * Agrees with `resumeChatState` on every input (a property test holds
 * them together).
 */
export const ChatStateV1Schema: z.ZodType<ChatStateV1> = z.object({
  schemaVersion: z.literal(1),
  conversationId: wireId(),
  turnId: wireId(),
  status: z.enum([
    "running",
    "awaiting-input",
    "completed",
    "failed",
    "cancelled",
    "interrupted",
    "needs-reconciliation",
  ]),
  lastSeq: z.int().nonnegative(),
  lastEventId: wireId().nullable(),
  sessionId: wireId().optional(),
  text: z.string(),
  reasoning: z.string(),
  tools: z.array(toolCallStateV1Raw),
  provenance: providerProvenanceRaw.optional(),
  openCards: z.array(OpenCardSnapshotV1Schema),
  closedCards: z.array(cardClosedEventV1Raw.omit({ type: true })),
  state: z.object({ version: z.int().nonnegative(), snapshot: z.unknown().optional() })
    .optional(),
  done: doneEventV1Raw.omit({ type: true }).optional(),
  error: z.object(errorFields).refine(retryAllowed, retryRule).optional(),
  statusReason: z.string().optional(),
  extensionState: refusingProtoKey(
    z.record(extensionNameRaw, extensionEntryRaw).refine(
      (r) => Object.keys(r).length >= 1 && Object.keys(r).length <= MAX_EXTENSION_STATE_NAMES,
      { message: `must hold 1 to ${MAX_EXTENSION_STATE_NAMES} names (absent when none)` },
    ),
  ).optional(),
  extensionEvents: z.array(extensionEntryRaw.extend({ name: extensionNameRaw })).min(1)
    .optional(),
}).superRefine((s, ctx) => {
  const issue = (path: (string | number)[], message: string) =>
    ctx.addIssue({ code: "custom", message, path });
  if ((s.lastSeq === 0) !== (s.lastEventId === null)) {
    issue(["lastEventId"], "is null exactly when lastSeq is 0");
  }
  const open = s.openCards.length;
  if (s.status === "awaiting-input" && open === 0) {
    issue(["status"], "is awaiting-input but no card is open");
  }
  const ended = s.status === "completed" || s.status === "failed" || s.status === "cancelled";
  if ((s.status === "running" || ended) && open > 0) {
    issue(["status"], `is ${s.status} but cards are open`);
  }
  s.tools.forEach((t, i) => {
    if (ended ? t.status === "running" : t.status === "unfinished") {
      issue(["tools", i, "status"], `is ${t.status} but the turn is ${s.status}`);
    }
  });
  const seqIn = (seq: number, path: (string | number)[]) => {
    if (seq > s.lastSeq) issue(path, "is after lastSeq");
  };
  for (const [name, e] of Object.entries(s.extensionState ?? {})) {
    seqIn(e.seq, ["extensionState", name, "seq"]);
  }
  let previous = 0;
  (s.extensionEvents ?? []).forEach((e, i) => {
    seqIn(e.seq, ["extensionEvents", i, "seq"]);
    if (e.seq <= previous) issue(["extensionEvents", i, "seq"], "must be after the previous one's");
    previous = e.seq;
  });
  if ((s.status === "completed") !== (s.done !== undefined)) {
    issue(["done"], "is present exactly when the status is completed");
  }
  if ((s.status === "failed") !== (s.error !== undefined)) {
    issue(["error"], "is present exactly when the status is failed");
  }
  const callIds = new Set<string>();
  s.tools.forEach((t, i) => {
    if (callIds.has(t.callId)) issue(["tools", i, "callId"], "is repeated");
    callIds.add(t.callId);
    if (t.startedSeq > s.lastSeq) issue(["tools", i, "startedSeq"], "is after lastSeq");
    if (t.finishedSeq !== undefined && t.finishedSeq > s.lastSeq) {
      issue(["tools", i, "finishedSeq"], "is after lastSeq");
    }
  });
  const cardIds = new Set<string>();
  s.openCards.forEach((c, i) => {
    if (cardIds.has(c.correlationId)) issue(["openCards", i, "correlationId"], "is repeated");
    cardIds.add(c.correlationId);
  });
  s.closedCards.forEach((c, i) => {
    if (cardIds.has(c.correlationId)) issue(["closedCards", i, "correlationId"], "is repeated");
    cardIds.add(c.correlationId);
  });
}) as unknown as z.ZodType<ChatStateV1>;
