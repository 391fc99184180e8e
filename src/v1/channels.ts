/**
 * The v1 channels and replay: which channel every v1 event type is on
 * ({@link CHAT_EVENT_V1_CHANNELS}, {@link chatEventChannel}), and what a
 * replay source re-sends in place of a retained envelope
 * ({@link replayEnvelope}).
 *
 * The replay rule: `seq` is per turn and continuous over all channels. A
 * resume after `Last-Event-ID` re-sends every retained envelope after the
 * cursor, in `seq` order, with its own `eventId` and `seq`: event-channel
 * and state-channel envelopes as they are (the fold re-applies state
 * frames in order, so the last write still wins), and transient ones
 * (`navigate`, an `ext` event on the `transient` channel) as an `elided`
 * event that keeps the envelope and drops the payload, so nothing fires
 * twice (a navigation minutes late is a wrong navigation) and the client
 * sees no gap.
 *
 * The table extends the v0 channels (`./v0`, `EVENT_CHANNEL_TYPES` …): each
 * v0 name keeps its v0 channel.
 *
 * @module
 */
import type { ChatChannel, ChatEventEnvelope, ChatEventV1, ChatEventV1Type } from "./types.ts";

/**
 * The channel of every v1 event type:
 *
 * | channel | types | folded as | on replay |
 * |---|---|---|---|
 * | `event` | `session`, `delta`, `reasoning`, `tool_call`, `tool_result`, `provenance`, `done`, `error`, `turn_status`, `ext` (default) | appended / applied in order | re-sent as is |
 * | `state` | `card`, `card_closed` (per card), `state` (per turn), `tool_progress` (per call: last progress wins), `ext` with `channel: "state"` (per name) | last write wins per key | re-sent as is |
 * | `transient` | `navigate`, `ext` with `channel: "transient"`, `elided` | not folded | re-sent as `elided` (an `elided` as it is) |
 *
 * `ext` is listed with its default; an `ext` event's own `channel` field
 * decides ({@link chatEventChannel}).
 */
export const CHAT_EVENT_V1_CHANNELS: Readonly<Record<ChatEventV1Type, ChatChannel>> = Object
  .freeze({
    session: "event",
    delta: "event",
    reasoning: "event",
    tool_call: "event",
    tool_progress: "state",
    tool_result: "event",
    provenance: "event",
    card: "state",
    card_closed: "state",
    state: "state",
    done: "event",
    error: "event",
    navigate: "transient",
    turn_status: "event",
    ext: "event",
    elided: "transient",
  });

/**
 * The channel of `event`: {@link CHAT_EVENT_V1_CHANNELS} by `type`, an `ext`
 * event's own `channel` (default `event`). Never throws: an event whose
 * fields cannot be read, or with an unknown type, is `event` (what a replay
 * re-sends as it is, so nothing is dropped).
 *
 * @example
 * ```ts
 * import { chatEventChannel } from "@papercusp/chat-protocol";
 * chatEventChannel({ type: "navigate", href: "/p/1" }); // "transient"
 * chatEventChannel({ type: "ext", name: "scout.products", channel: "state", data: [] }); // "state"
 * ```
 */
export function chatEventChannel(event: ChatEventV1): ChatChannel {
  try {
    const type = event.type;
    if (type === "ext") {
      const channel = event.channel;
      return channel === "state" || channel === "transient" ? channel : "event";
    }
    return Object.hasOwn(CHAT_EVENT_V1_CHANNELS, type) ? CHAT_EVENT_V1_CHANNELS[type] : "event";
  } catch {
    return "event";
  }
}

/**
 * What a replay re-sends in place of the retained `envelope` (see the module
 * doc): the same envelope for the event and state channels; for a transient
 * one, a fresh envelope with the same ids, `seq` and `at` whose event is
 * `{ type: "elided", of: <its type> }`. An `elided` envelope is re-sent as it
 * is. Apply it to every frame of a replay (e.g. each frame `replayAfter` of
 * `./recovery` returns) before sending. Never throws: a value whose event
 * cannot be read is returned as it is (a replay's own validation refuses
 * it).
 *
 * @example
 * ```ts
 * import { replayEnvelope } from "@papercusp/chat-protocol";
 * replayEnvelope({
 *   schemaVersion: 1, conversationId: "c1", turnId: "t1", eventId: "e7", seq: 7,
 *   event: { type: "navigate", href: "/p/1" },
 * }).event; // { type: "elided", of: "navigate" }
 * ```
 */
export function replayEnvelope(envelope: ChatEventEnvelope): ChatEventEnvelope {
  try {
    const event = envelope.event;
    if (chatEventChannel(event) !== "transient" || event.type === "elided") return envelope;
    const { conversationId, turnId, eventId, seq, at } = envelope;
    const elided: ChatEventV1 = { type: "elided", of: event.type === "ext" ? "ext" : "navigate" };
    // the parser's key order: `at` (when present) before `event`
    return at === undefined
      ? { schemaVersion: 1, conversationId, turnId, eventId, seq, event: elided }
      : { schemaVersion: 1, conversationId, turnId, eventId, seq, at, event: elided };
  } catch {
    return envelope;
  }
}
