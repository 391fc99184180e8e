/**
 * The v0 event union (v0-wire spec §1): eleven members framed as named SSE
 * events. The SSE `event:` line is the discriminant; the `data:` line is JSON
 * of the same object and may also carry `type`.
 *
 * @module
 */
import type { OpenCardSnapshot } from "../cards/types.ts";

/** `session`: the conversation's session id (empty string accepted on the wire). */
export interface SessionEvent {
  /** The event discriminant. */
  type: "session";
  /** The conversation's session id for the client to keep. */
  sessionId: string;
}

/** `delta`: one text fragment; the consumer appends it. */
export interface DeltaEvent {
  /** The event discriminant. */
  type: "delta";
  /** The text fragment (appended by the consumer). */
  text: string;
}

/**
 * `tool_call`: a tool call starts. `name` is the catalog name in colon form
 * (e.g. `chat:ask_choice`); `callId` pairs it with a later `tool_result`.
 */
export interface ToolCallEvent {
  /** The event discriminant. */
  type: "tool_call";
  /** Catalog tool name in colon form, e.g. `chat:ask_choice`. */
  name: string;
  /** Tool input as sent by the model (JSON data, never code). */
  input?: unknown;
  /** Pairs a call with its progress and result. */
  callId?: string;
}

/** `tool_result`: a tool call finished; `ok: false` is a tool-level failure the turn survived. */
export interface ToolResultEvent {
  /** The event discriminant. */
  type: "tool_result";
  /** Catalog tool name in colon form, e.g. `chat:ask_choice`. */
  name: string;
  /** Pairs a call with its progress and result. */
  callId?: string;
  /** `false` = tool-level failure the turn survived. */
  ok?: boolean;
  /** Plain-text summary of the result. */
  summary?: string;
}

/**
 * `provenance`: what will actually run this turn (engine, model, account
 * route); sent before the first model event and persisted with the turn.
 */
export interface ProvenanceEvent {
  /** The event discriminant. */
  type: "provenance";
  /** e.g. `loop`, `claude-code`, `codex`, `omp`. */
  engine: string;
  /** Model id as the provider names it. */
  model: string;
  /** Account route the host used; `null` when explicitly none. */
  accountRoute?: string | null;
}

/** `card`: a card opens (state channel). */
export interface CardEvent {
  /** The event discriminant. */
  type: "card";
  /** The open card snapshot. */
  card: OpenCardSnapshot;
}

/** `card_closed`: a card closed (state channel). */
export interface CardClosedEvent {
  /** The event discriminant. */
  type: "card_closed";
  /** The card's correlation id. */
  correlationId: string;
}

/** `state`: last-write-wins snapshot (state channel). */
export interface StateEvent {
  /** The event discriminant. */
  type: "state";
  /** Snapshot version; a higher version supersedes a lower one (last write wins). */
  version: number;
  /** The state snapshot (opaque JSON data). */
  snapshot: unknown;
}

/** Usage reported by `done` (token counts; `costUsd` in US dollars). Inner fields are not validated by {@link parseChatEvent}. */
export interface DoneUsage {
  /** Total tokens. */
  totalTokens?: number;
  /** Prompt (input) tokens. */
  inputTokens?: number;
  /** Completion (output) tokens. */
  outputTokens?: number;
  /** Cost in US dollars. */
  costUsd?: number;
}

/** `done`: the turn ended. `stopReason` is emitter-defined (`complete`, `aborted`, `max_steps`, …). */
export interface DoneEvent {
  /** The event discriminant. */
  type: "done";
  /** Emitter-defined, e.g. `complete`, `aborted`, `max_steps`. */
  stopReason?: string;
  /** Token and cost usage. */
  usage?: DoneUsage;
}

/** `error`: the stream failed. */
export interface ErrorEvent {
  /** The event discriminant. */
  type: "error";
  /** Human-readable message (plain text). */
  message: string;
}

/** `navigate`: generic fire-once client navigation (transient channel). */
export interface NavigateEvent {
  /** The event discriminant. */
  type: "navigate";
  /** Navigation target (interpreted by the client's router). */
  href: string;
}

/** The eleven-member v0 event union (v0-wire spec §1). */
export type ChatEvent =
  | SessionEvent
  | DeltaEvent
  | ToolCallEvent
  | ToolResultEvent
  | ProvenanceEvent
  | CardEvent
  | CardClosedEvent
  | StateEvent
  | DoneEvent
  | ErrorEvent
  | NavigateEvent;

/** The eleven `type` strings of {@link ChatEvent}. */
export type ChatEventType = ChatEvent["type"];
