/**
 * v0 wire (v0-wire spec §1–3): the eleven-member {@link ChatEvent} union, the
 * channel partition and its replay gates, the frame normaliser
 * {@link parseChatEvent}, and a zod schema per event.
 *
 * @example
 * ```ts
 * import { isReplayableEvent, parseChatEvent } from "@papercusp/chat-protocol";
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
} from "./types.ts";
export {
  EVENT_CHANNEL_TYPES,
  isChatEventType,
  isReplayableEvent,
  isStateChannelEvent,
  STATE_CHANNEL_TYPES,
  TRANSIENT_CHANNEL_TYPES,
} from "./channels.ts";
export { parseChatEvent } from "./parse.ts";
export {
  CardClosedEventSchema,
  CardEventSchema,
  ChatEventSchema,
  DeltaEventSchema,
  DoneEventSchema,
  DoneUsageSchema,
  ErrorEventSchema,
  NavigateEventSchema,
  ProvenanceEventSchema,
  SessionEventSchema,
  StateEventSchema,
  ToolCallEventSchema,
  ToolResultEventSchema,
  WireCardSchema,
} from "./schemas.ts";
