/**
 * The v1 wire contract's types: the {@link ChatEventEnvelope} that frames
 * every event, the v1 event union, the normalized turn lifecycle, errors with
 * explicit retry permission, provider provenance, grounded result blocks and
 * capabilities.
 *
 * v1 is additive over the v0 vocabulary (v0-wire spec §1): the same event
 * names keep their meaning; v1 makes identity explicit (host-allocated ids,
 * per-turn `seq`, a required tool `callId`) and adds `reasoning`,
 * `tool_progress`, `turn_status`, the extension event `ext` and the replay
 * stand-in `elided`.
 *
 * Parsing validates the contract only. Authorization, cursor ordering across
 * connections, retention and atomic mutation belong to the host: no parser
 * starts a turn, allocates an id, dispatches a tool or grants access.
 *
 * @module
 */
import type { OpenCardSnapshot } from "../cards/types.ts";
import type { Refusal } from "../result.ts";

/** The only envelope schema version this module produces and accepts. */
export const CHAT_SCHEMA_VERSION = 1 as const;

/** Wire protocol versions this package speaks: 0 (named v0 events) and 1 (envelopes). */
export type ChatProtocolVersion = 0 | 1;

/**
 * The normalized turn lifecycle.
 *
 * - `running`: the turn is producing events.
 * - `awaiting-input`: at least one card is open; the turn waits on an answer.
 * - `completed`: ended normally (`done`). Terminal.
 * - `failed`: ended by an `error` event. Terminal.
 * - `cancelled`: the host committed a cancellation. Terminal.
 * - `interrupted`: the producer stopped without a terminal event (crash,
 *   restart, lost connection on the host side). Recoverable only where the
 *   host declares `interruptedTurnRecovery`.
 * - `needs-reconciliation`: a tool effect's outcome is unknown (uncertain
 *   acknowledgement, dispatch error); the host must reconcile it through its
 *   own idempotency lookup before the turn may continue.
 *
 * The legal transitions are {@link TURN_TRANSITIONS}.
 */
export type TurnStatus =
  | "running"
  | "awaiting-input"
  | "completed"
  | "failed"
  | "cancelled"
  | "interrupted"
  | "needs-reconciliation";

/**
 * Provider provenance: what actually runs this turn. Sent before the first
 * model event.
 */
export interface ProviderProvenance {
  /** Execution engine, e.g. `loop`, `claude-code`, `codex`, `omp`. */
  engine: string;
  /** Model id as the provider names it. */
  model: string;
  /** Provider, e.g. `anthropic`, `openai`. Optional (absent in v0 frames). */
  provider?: string;
  /** Account route the host used; `null` when explicitly none. */
  accountRoute?: string | null;
}

/**
 * An opaque reference to a source. The host resolves and authorizes it and
 * renders any string through its own safe components. Nothing here is a URL
 * the client should fetch or markup it should inject.
 */
export interface SourceRef {
  /** Opaque reference, e.g. `doc:123#p4`. Never dereferenced by this package. */
  ref: string;
  /** Plain-text label (rendered as text, never as markup). */
  label?: string;
}

/** A result block grounded in opaque source references. Plain text only. */
export interface GroundedBlock {
  /** Stable id within the tool result: unique among the result's blocks (a repeat is refused). */
  id: string;
  /** Plain text (never HTML, Markdown-as-code or script). */
  text: string;
  /** Sources supporting `text`; may be empty when the block is ungrounded. */
  sources: SourceRef[];
}

/** Token and cost usage of a turn (all counts are tokens; cost in USD). */
export interface ChatUsage {
  /** Total tokens. */
  totalTokens?: number;
  /** Prompt (input) tokens. */
  inputTokens?: number;
  /** Completion (output) tokens. */
  outputTokens?: number;
  /** Cost in US dollars. */
  costUsd?: number;
}

/** How a closed card was resolved. */
export type CardResolution = "submitted" | "declined" | "cancelled" | "expired" | "interrupted";

/** `session`: the conversation's session id for the client to keep. */
export interface SessionEventV1 {
  /** The event discriminant. */
  type: "session";
  /** The conversation's session id for the client to keep. */
  sessionId: string;
}
/** `delta`: one fragment of assistant text; the consumer appends it. */
export interface DeltaEventV1 {
  /** The event discriminant. */
  type: "delta";
  /** The text fragment (appended by the consumer). */
  text: string;
}
/** `reasoning`: one fragment of model reasoning text (appended). */
export interface ReasoningEventV1 {
  /** The event discriminant. */
  type: "reasoning";
  /** The text fragment (appended by the consumer). */
  text: string;
}
/** `tool_call`: a tool call starts. `callId` is stable for the call's life. */
export interface ToolCallEventV1 {
  /** The event discriminant. */
  type: "tool_call";
  /** Pairs a call with its progress and result. */
  callId: string;
  /** Catalog name, e.g. `chat:ask_choice`. */
  name: string;
  /** Tool input as sent by the model (JSON data, never code). */
  input?: unknown;
}
/** `tool_progress`: progress of a running tool call. */
export interface ToolProgressEventV1 {
  /** The event discriminant. */
  type: "tool_progress";
  /** Pairs a call with its progress and result. */
  callId: string;
  /** Plain-text status line. */
  message?: string;
  /** Fraction done, 0 to 1 inclusive. */
  progress?: number;
}
/** `tool_result`: a tool call finished. `ok: false` = tool-level failure the turn survived. */
export interface ToolResultEventV1 {
  /** The event discriminant. */
  type: "tool_result";
  /** Pairs a call with its progress and result. */
  callId: string;
  /** Catalog tool name in colon form, e.g. `chat:ask_choice`. */
  name: string;
  /** `false` = tool-level failure the turn survived. */
  ok: boolean;
  /** Plain-text summary. */
  summary?: string;
  /** Tool output (JSON). Data, never code. */
  output?: unknown;
  /** Grounded result blocks. */
  blocks?: GroundedBlock[];
}
/** `provenance`: what will actually run this turn. */
export interface ProvenanceEventV1 extends ProviderProvenance {
  /** The event discriminant. */
  type: "provenance";
}
/** `card`: a card opens (state channel). */
export interface CardEventV1 {
  /** The event discriminant. */
  type: "card";
  /** The open card snapshot. */
  card: OpenCardSnapshot;
}
/** `card_closed`: a card closed (state channel). */
export interface CardClosedEventV1 {
  /** The event discriminant. */
  type: "card_closed";
  /** The card's correlation id. */
  correlationId: string;
  /** How the card was resolved. */
  resolution?: CardResolution;
}
/** `state`: last-write-wins snapshot (state channel). `version` is a non-negative integer. */
export interface StateEventV1 {
  /** The event discriminant. */
  type: "state";
  /** Snapshot version; a higher version supersedes a lower one (last write wins). */
  version: number;
  /** The state snapshot (opaque JSON data). */
  snapshot: unknown;
}
/** `done`: the turn completed. */
export interface DoneEventV1 {
  /** The event discriminant. */
  type: "done";
  /** Emitter-defined, e.g. `complete`, `max_steps`. */
  stopReason?: string;
  /** Token and cost usage. */
  usage?: ChatUsage;
}
/**
 * `error`: the turn failed. `retryable` is explicit retry permission for the
 * whole turn request: a client never guesses. `retryAfterMs` (milliseconds)
 * only with `retryable: true`.
 */
export interface ErrorEventV1 {
  /** The event discriminant. */
  type: "error";
  /** Human-readable message (plain text). */
  message: string;
  /** Stable machine-readable code chosen by the host, e.g. `rate_limited`. */
  code?: string;
  /** Explicit retry permission: `true` only if the host allows retrying. */
  retryable: boolean;
  /** Wait at least this many milliseconds before retrying (only with `retryable: true`). */
  retryAfterMs?: number;
}
/** `navigate`: fire-once client navigation (transient channel). */
export interface NavigateEventV1 {
  /** The event discriminant. */
  type: "navigate";
  /** Navigation target (interpreted by the client's router). */
  href: string;
}
/**
 * `turn_status`: an explicit lifecycle change the other events do not imply:
 * `cancelled`, `interrupted`, `needs-reconciliation`, or `running` again after
 * a recovery or reconciliation.
 */
export interface TurnStatusEventV1 {
  /** The event discriminant. */
  type: "turn_status";
  /** The status the turn moves to. */
  status: "running" | "cancelled" | "interrupted" | "needs-reconciliation";
  /** Plain-text reason. */
  reason?: string;
}

/**
 * A JSON value: `null`, a boolean, a finite number, a string, an array or a
 * plain object of JSON values. What an extension event's `data` holds.
 */
export type ChatJsonValue =
  | null
  | boolean
  | number
  | string
  | ChatJsonValue[]
  | { [key: string]: ChatJsonValue };

/**
 * The replay channel of a v1 event (the full table: `CHAT_EVENT_V1_CHANNELS`):
 * - `event`: append-only history, folded in order and re-sent on replay;
 * - `state`: last write wins per key (a card, a call's progress, the
 *   `state` snapshot, an extension name), re-sent on replay like the rest;
 * - `transient`: fire-once (`navigate`), never folded into state and never
 *   re-sent: a replay sends an `elided` event in its place.
 */
export type ChatChannel = "event" | "state" | "transient";

/**
 * `ext`: a product's own event (e.g. Scout's product list). The parser
 * checks the wire rules: `name` is an extension name (`scout.products`:
 * namespace, `.`, name; see `isExtensionName`), `data` is bounded JSON data
 * (at most 32 levels deep and 10,000 values; no functions, `undefined`,
 * non-finite numbers or class instances: data, never code), `channel` one
 * of {@link ChatChannel}. A host's registry may validate `data` further.
 *
 * The fold keeps it by channel: `state` → `ChatStateV1.extensionState[name]`
 * (last write wins), `event` → appended to `ChatStateV1.extensionEvents`,
 * `transient` → not kept (like `navigate`).
 */
export interface ExtensionEventV1 {
  /** The event discriminant. */
  type: "ext";
  /** The namespaced name, e.g. `scout.products`. */
  name: string;
  /** Its replay channel; absent means `event` (append-only). */
  channel?: ChatChannel;
  /** The payload: JSON data (a fresh copy after parsing), `null` for none. */
  data: ChatJsonValue;
}

/**
 * `elided`: stands where a transient event (`navigate`, or an `ext` event on
 * the `transient` channel) was, when a replay re-sends the turn: the `seq`
 * stays taken, so the stream has no gap, and nothing fires again. The fold
 * applies it as a no-op.
 */
export interface ElidedEventV1 {
  /** The event discriminant. */
  type: "elided";
  /** The type of the event it stands for. */
  of: "navigate" | "ext";
}

/** The v1 event union (the `event` of a {@link ChatEventEnvelope}). */
export type ChatEventV1 =
  | SessionEventV1
  | DeltaEventV1
  | ReasoningEventV1
  | ToolCallEventV1
  | ToolProgressEventV1
  | ToolResultEventV1
  | ProvenanceEventV1
  | CardEventV1
  | CardClosedEventV1
  | StateEventV1
  | DoneEventV1
  | ErrorEventV1
  | NavigateEventV1
  | TurnStatusEventV1
  | ExtensionEventV1
  | ElidedEventV1;

/** The `type` strings of {@link ChatEventV1}. */
export type ChatEventV1Type = ChatEventV1["type"];

/**
 * The v1 envelope framing every event.
 *
 * All ids are allocated by the host; `seq` is a positive integer (1, 2, 3, …)
 * per turn, without gaps. `eventId` is what the SSE `id:` field carries and a
 * client returns as `Last-Event-ID`.
 *
 * Every v1 id (`conversationId`, `turnId`, `eventId`, a `sessionId`, a tool
 * `callId`, a card `correlationId`) is a **wire id**: a non-empty string with
 * no CR, LF or NUL and no lone UTF-16 surrogate, so it can travel as an SSE
 * `id:` line, a `Last-Event-ID` or an HTTP header value (e.g. the turn id a
 * host echoes for resumption) and come back unchanged. The parser refuses
 * any other id; nothing is left to fail later at the SSE encoder. Names and
 * references inside events (tool `name`, `engine`, `model`, a grounded
 * block's `id`, a source `ref`) are only required to be non-empty.
 */
export interface ChatEventEnvelope<E extends { type: string } = ChatEventV1> {
  /** Always `1`. */
  schemaVersion: 1;
  /** Host-allocated wire id. */
  conversationId: string;
  /** Host-allocated wire id. */
  turnId: string;
  /** Host-allocated wire id, unique within the conversation: the SSE `id:` and `Last-Event-ID`. */
  eventId: string;
  /** Positive integer, per turn, starting at 1, no gaps. */
  seq: number;
  /** Epoch milliseconds when the host recorded the event (optional). */
  at?: number;
  /** The event. */
  event: E;
}

/**
 * Capabilities a host declares independently. Each flag is a promise about
 * durability the host keeps; none implies another (persisted history never
 * implies restart recovery).
 */
export interface ChatCapabilities {
  /** A dropped connection can resume from `Last-Event-ID` within the retained window. */
  connectionReplay: boolean;
  /** Finished turns can be read back after a reload. */
  persistedHistory: boolean;
  /** Card answers / approvals survive a restart. */
  persistedDecisions: boolean;
  /** Completed tool results are checkpointed and never re-run. */
  completedToolCheckpoints: boolean;
  /** A turn interrupted by a host restart can be resumed. */
  interruptedTurnRecovery: boolean;
}

/** The name of one {@link ChatCapabilities} flag. */
export type ChatCapability = keyof ChatCapabilities;

/** A tool call as folded into {@link ChatStateV1}. */
export interface ToolCallStateV1 {
  /** The call's stable id. */
  callId: string;
  /** Catalog tool name. */
  name: string;
  /** Tool input (JSON data). */
  input?: unknown;
  /**
   * `running` until a `tool_result`; then `ok` or `error` (from `ok: false`).
   * `unfinished`: the turn ended (completed, failed or cancelled) while the
   * call still ran: it never got its result (`finishedSeq` is the seq of the
   * event that ended the turn).
   */
  status: "running" | "ok" | "error" | "unfinished";
  /** Last progress fraction (0..1), if any. */
  progress?: number;
  /** Last progress message, if any. */
  progressMessage?: string;
  /** Plain-text result summary. */
  summary?: string;
  /** Tool output (JSON data, never code). */
  output?: unknown;
  /** Grounded result blocks. */
  blocks?: GroundedBlock[];
  /** `seq` of the `tool_call` event. */
  startedSeq: number;
  /** `seq` of the `tool_result` event (`unfinished`: of the event that ended the turn). */
  finishedSeq?: number;
}

/**
 * The folded state of one turn (`schemaVersion: 1`). Produced by the v1
 * fold; JSON-serialisable.
 *
 * A snapshot from the fold (`ChatStateFolder.state()`) costs O(1) and
 * shares structure with the fold's other snapshots: its collections and
 * small objects are frozen (copy before changing them), and a collection is
 * materialized when first read (its fields are accessors that
 * `JSON.stringify`, spread and `structuredClone` read like plain fields).
 * Assigning to a field of the snapshot changes that snapshot only.
 */
export interface ChatStateV1 {
  /** Always `1`. */
  schemaVersion: 1;
  /** The folded turn's conversation. */
  conversationId: string;
  /** The folded turn. */
  turnId: string;
  /** Current lifecycle status. */
  status: TurnStatus;
  /** `seq` of the last applied event (0 before any). */
  lastSeq: number;
  /** `eventId` of the last applied event (`null` before any): the resume cursor. */
  lastEventId: string | null;
  /** Last `session` event's id. */
  sessionId?: string;
  /** Concatenated `delta` text. */
  text: string;
  /** Concatenated `reasoning` text. */
  reasoning: string;
  /** Tool calls in the order they started (a frozen array of frozen objects). */
  tools: readonly Readonly<ToolCallStateV1>[];
  /** Last `provenance` event (frozen). */
  provenance?: Readonly<ProviderProvenance>;
  /** Cards currently open, in the order they opened (a frozen array; the cards are the events' own). */
  openCards: readonly OpenCardSnapshot[];
  /** Cards closed during the turn, in close order (a frozen array of frozen objects). */
  closedCards: readonly Readonly<{ correlationId: string; resolution?: CardResolution }>[];
  /** Last `state` event (frozen; `snapshot` is the event's own). */
  state?: Readonly<{ version: number; snapshot: unknown }>;
  /** The terminal `done`, if the turn completed (frozen, `usage` too). */
  done?: Readonly<{ stopReason?: string; usage?: Readonly<ChatUsage> }>;
  /** The terminal `error`, if the turn failed (frozen). */
  error?: Readonly<{ message: string; code?: string; retryable: boolean; retryAfterMs?: number }>;
  /** Reason of the last `turn_status` event. */
  statusReason?: string;
  /**
   * State-channel extension events: the last `data` of each name (last write
   * wins) with its `seq`, at most 128 names; absent when there is none.
   * Frozen.
   */
  extensionState?: Readonly<Record<string, Readonly<{ data: ChatJsonValue; seq: number }>>>;
  /**
   * Event-channel extension events, in order, each with its name, `data` and
   * `seq`; absent when there is none. Frozen, shared like `tools`.
   */
  extensionEvents?: readonly Readonly<{ name: string; data: ChatJsonValue; seq: number }>[];
}

/**
 * The ordering verdicts every consumer of v1 envelopes gives, with one
 * meaning everywhere (the v1 fold, the AI SDK and AG-UI adapters):
 *
 * | code | meaning |
 * |---|---|
 * | `foreign-conversation` / `foreign-turn` | the envelope belongs to another conversation / turn |
 * | `duplicate` | its `seq` was passed and its `eventId` applied: a re-send |
 * | `reordered` | it arrived after an envelope with a higher `seq` of its turn |
 * | `gap` | its `seq` skips `seq`s that never arrived |
 */
export type ChatOrderingCode =
  | "foreign-conversation"
  | "foreign-turn"
  | "duplicate"
  | "reordered"
  | "gap";

/** What a verdict about one envelope says about it (each field when known). */
export interface ChatOrderingDetail {
  /** `seq` of the envelope. */
  readonly seq?: number;
  /** `eventId` of the envelope. */
  readonly eventId?: string;
  /** `event.type` of the envelope. */
  readonly eventType?: string;
  /** `gap` / `reordered` / `duplicate`: the `seq` expected next. */
  readonly expectedSeq?: number;
  /** `foreign-*`: the id expected. */
  readonly expected?: string;
  /** `foreign-*`: the id received (other refusals: the value received). */
  readonly received?: unknown;
}

/** The codes of {@link EnvelopeAdmissionRefusal}. */
export type EnvelopeAdmissionCode =
  | "invalid-envelope"
  | ChatOrderingCode
  | "after-terminal"
  | "refusals-omitted";

/**
 * Why a single-turn adapter of v1 envelopes (v1 → AI SDK UI message chunks,
 * v1 → AG-UI) refused one envelope, or, from a whole-stream conversion, what
 * it reports about one: `invalid-envelope` (the v1 parser refused it, or
 * the input is not an iterable of envelopes, e.g. a string), a
 * {@link ChatOrderingCode}, or `after-terminal` (a new envelope after the
 * turn ended). Ordering verdicts carry the envelope's position. A
 * whole-stream list keeps the first 1,000 (`MAX_REFUSALS`) and then ends
 * with one `refusals-omitted` entry counting the rest (`omitted`).
 */
export interface EnvelopeAdmissionRefusal
  extends Refusal<EnvelopeAdmissionCode>, ChatOrderingDetail {
  /** `refusals-omitted`: how many refusals were found and not listed. */
  readonly omitted?: number;
}
