/**
 * `@papercusp/chat-protocol/v0`: the v0 wire (v0-wire spec §1–3), the
 * eleven named SSE events a Papercup-style host already sends.
 *
 * - The {@link ChatEvent} union (`session`, `delta`, `tool_call`,
 *   `tool_result`, `provenance`, `card`, `card_closed`, `state`, `done`,
 *   `error`, `navigate`).
 * - Its three channels: {@link EVENT_CHANNEL_TYPES} (append-only, replayed on
 *   reconnect), {@link STATE_CHANNEL_TYPES} (last-write-wins snapshots) and
 *   {@link TRANSIENT_CHANNEL_TYPES} (fire-once), with the replay gate
 *   {@link isReplayableEvent}.
 * - The frame normaliser {@link parseChatEvent}: a named event's data in, a
 *   typed event or `null` out, never a throw.
 *
 * The zod schema of each event is in `./schemas`; the card types a `card`
 * event carries are in `./cards`.
 *
 * @example
 * ```ts
 * import { isReplayableEvent, parseChatEvent } from "@papercusp/chat-protocol/v0";
 * const ev = parseChatEvent("tool_call", { name: "chat:ask_choice", callId: "c1" });
 * if (ev && isReplayableEvent(ev.type)) console.log("replay", ev);
 * ```
 *
 * @module
 */
export type {
  CardClosedEvent,
  CardEvent,
  ChatEvent,
  ChatEventType,
  DeltaEvent,
  DoneEvent,
  DoneUsage,
  ErrorEvent,
  NavigateEvent,
  ProvenanceEvent,
  SessionEvent,
  StateEvent,
  ToolCallEvent,
  ToolResultEvent,
} from "./src/v0/types.ts";
export {
  EVENT_CHANNEL_TYPES,
  isChatEventType,
  isReplayableEvent,
  isStateChannelEvent,
  STATE_CHANNEL_TYPES,
  TRANSIENT_CHANNEL_TYPES,
} from "./src/v0/channels.ts";
export { parseChatEvent } from "./src/v0/parse.ts";
