/**
 * The v0 channel partition (v0-wire spec §2): three readonly tuples forming a
 * complete, disjoint partition of the eleven {@link ChatEventType}s, and the
 * replay gates built on them.
 *
 * @module
 */
import type { ChatEventType } from "./types.ts";

/** Append-only events, safe to replay as history on reconnect. Order as declared in the spec. */
export const EVENT_CHANNEL_TYPES: readonly [
  "session",
  "delta",
  "tool_call",
  "tool_result",
  "provenance",
  "done",
  "error",
] = Object.freeze(
  ["session", "delta", "tool_call", "tool_result", "provenance", "done", "error"] as const,
);

/**
 * Last-write-wins events: re-sent as a snapshot on reconnect, never replayed
 * as history (so an answered card never re-prompts).
 */
export const STATE_CHANNEL_TYPES: readonly ["card", "card_closed", "state"] = Object.freeze(
  ["card", "card_closed", "state"] as const,
);

/** Fire-once actions: never replayed, no "last value" to re-send. */
export const TRANSIENT_CHANNEL_TYPES: readonly ["navigate"] = Object.freeze(["navigate"] as const);

const ALL_TYPES: ReadonlySet<string> = new Set<string>([
  ...EVENT_CHANNEL_TYPES,
  ...STATE_CHANNEL_TYPES,
  ...TRANSIENT_CHANNEL_TYPES,
]);
const STATE_TYPES: ReadonlySet<string> = new Set<string>(STATE_CHANNEL_TYPES);
const EVENT_TYPES: ReadonlySet<string> = new Set<string>(EVENT_CHANNEL_TYPES);

/** `true` iff `type` is on the state channel (`card`, `card_closed`, `state`). */
export function isStateChannelEvent(type: string): boolean {
  return STATE_TYPES.has(type);
}

/**
 * `true` iff `type` is on the event channel: the correct replay gate.
 * (Gating replay on `!isStateChannelEvent` is wrong: it would replay `navigate`.)
 */
export function isReplayableEvent(type: string): boolean {
  return EVENT_TYPES.has(type);
}

/**
 * Type guard: `true` iff `s` is one of the eleven v0 event types. Backed by a
 * `Set`, so inherited names such as `toString` are `false`; non-strings are
 * `false`.
 */
export function isChatEventType(s: string): s is ChatEventType {
  return ALL_TYPES.has(s);
}
