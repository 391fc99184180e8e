/**
 * {@link DroppedEvent}: what a v1 → peer adapter (AI SDK UI message chunks,
 * AG-UI events) could not carry, reported instead of dropped silently.
 *
 * @module
 */

/**
 * Why part of a v1 event did not reach the peer:
 *
 * - `held-text`: turn text held back at the end of the output while the
 *   turn had not ended: a fragment that may still become a `<report>` /
 *   `<ask>` tag, an open block waiting for its close tag, or half of a
 *   surrogate pair. No client ever receives a partial tag; the text reaches
 *   the client when the turn goes on (a later response replays the turn).
 * - `not-json`: a value the peer needs as JSON (AG-UI tool arguments and
 *   results, an AI SDK tool input or output, an SSE `data:` line) is not
 *   JSON data (a `BigInt`, a cycle, a `Map`, a getter that throws).
 * - `no-peer-field`: the peer's event for this has no field for it (the AI
 *   SDK's `output-denied` tool state carries no output; an AG-UI
 *   `timestamp` must be an integer).
 * - `unknown-outcome`: a `card_closed` without a `resolution` closed an
 *   approval, so whether it was approved is unknown; the peer's approval
 *   answer (a boolean) is not invented.
 */
export type DropReason = "held-text" | "not-json" | "no-peer-field" | "unknown-outcome";

/**
 * One report of something a v1 adapter could not carry to its peer. The
 * envelope is named by its position (`seq`, `eventId`, `eventType`); `field`
 * names the part of the event (`text`, `output`, `input`, `at`, …).
 */
export interface DroppedEvent {
  /** Stable machine-readable reason. */
  readonly code: DropReason;
  /** One human-readable sentence; not stable, do not match on it. */
  readonly message: string;
  /** `seq` of the envelope whose event it is. */
  readonly seq: number;
  /** `eventId` of that envelope. */
  readonly eventId: string;
  /** `event.type` of that envelope. */
  readonly eventType: string;
  /** The part of the event not carried, e.g. `text`, `output`, `input`, `at`. */
  readonly field: string;
}
