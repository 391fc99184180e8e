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
  type: "session";
  sessionId: string;
}

/** `delta`: one text fragment; the consumer appends it. */
export interface DeltaEvent {
  type: "delta";
  text: string;
}

/**
 * `tool_call`: a tool call starts. `name` is the catalog name in colon form
 * (e.g. `chat:ask_choice`); `callId` pairs it with a later `tool_result`.
 */
export interface ToolCallEvent {
  type: "tool_call";
  name: string;
  input?: unknown;
  callId?: string;
}

/** `tool_result`: a tool call finished; `ok: false` is a tool-level failure the turn survived. */
export interface ToolResultEvent {
  type: "tool_result";
  name: string;
  callId?: string;
  ok?: boolean;
  summary?: string;
}

/**
 * `provenance`: what will actually run this turn (engine, model, account
 * route); sent before the first model event and persisted with the turn.
 */
export interface ProvenanceEvent {
  type: "provenance";
  /** e.g. `loop`, `claude-code`, `codex`, `omp`. */
  engine: string;
  model: string;
  accountRoute?: string | null;
}

/** `card`: a card opens (state channel). */
export interface CardEvent {
  type: "card";
  card: OpenCardSnapshot;
}

/** `card_closed`: a card closed (state channel). */
export interface CardClosedEvent {
  type: "card_closed";
  correlationId: string;
}

/** `state`: last-write-wins snapshot (state channel). */
export interface StateEvent {
  type: "state";
  version: number;
  snapshot: unknown;
}

/** Usage reported by `done` (token counts; `costUsd` in US dollars). Inner fields are not validated by {@link parseChatEvent}. */
export interface DoneUsage {
  totalTokens?: number;
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number;
}

/** `done`: the turn ended. `stopReason` is emitter-defined (`complete`, `aborted`, `max_steps`, …). */
export interface DoneEvent {
  type: "done";
  stopReason?: string;
  usage?: DoneUsage;
}

/** `error`: the stream failed. */
export interface ErrorEvent {
  type: "error";
  message: string;
}

/** `navigate`: generic fire-once client navigation (transient channel). */
export interface NavigateEvent {
  type: "navigate";
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
