/**
 * {@link TurnSource}: where the stream response helpers read one turn's
 * v1 envelopes from: the host's retained replay window, its live feed, or
 * both.
 *
 * @module
 */
import type { ReplayWindowSeam } from "../recovery/replay.ts";
import type { RecoveryProfile } from "../recovery/profile.ts";

/**
 * One turn's envelopes, as the host has them. At least one of `window` and
 * `live` must be given.
 *
 * - `window`: the retained replay window (the `ReplayWindowSeam` of
 *   `./recovery`: `MemoryReplayWindow`, or `PostgresReplayLog` from
 *   `@papercusp/chat-protocol-postgres`). A response first replays the
 *   window after the client's cursor (`replayAfter`, which refuses stale,
 *   beyond-latest, gapped or foreign windows with a typed code), and fills
 *   any gap between the replay and the live feed from it.
 * - `live(afterSeq, signal)`: the turn's envelopes as they are produced,
 *   starting at or before `afterSeq + 1` (earlier ones are skipped: the
 *   helper keeps only `seq` it has not sent, in order). It is called
 *   **before** the window is read, so nothing appended in between is missed;
 *   buffer from the moment it is called. An `AsyncIterable` or a
 *   `ReadableStream`; the helper stops reading (`return()` / `cancel()`)
 *   when the response ends, and `signal` aborts then.
 * - `wake(signal)`: with `window` and no `live`: resolves when new frames
 *   may have been appended (a `LISTEN`/`NOTIFY` notification, a timer);
 *   the helper then reads the window again after the last `seq` it sent.
 *   Make it resolve on a timer too (e.g. every second), so a notification
 *   that came just before it was called is never waited for forever. It
 *   must settle when `signal` aborts.
 *
 * With `window` alone, the response replays what is retained and ends.
 * Every response ends after the turn's terminal event (`done`, `error`,
 * `turn_status: cancelled`), when `live` ends, and when the request is
 * aborted.
 */
export interface TurnSource {
  /** The turn's conversation id. */
  readonly conversationId: string;
  /** The turn's id. */
  readonly turnId: string;
  /** The retained replay window. */
  readonly window?: ReplayWindowSeam;
  /** The live feed of the turn's envelopes (see the interface documentation). */
  readonly live?: (
    afterSeq: number,
    signal: AbortSignal,
  ) => AsyncIterable<unknown> | ReadableStream<unknown>;
  /** With `window` and no `live`: resolves when the window may have grown. */
  readonly wake?: (signal: AbortSignal) => Promise<unknown>;
  /** When given, replay is refused (`capability-not-offered`) unless it offers `connectionReplay`. */
  readonly profile?: RecoveryProfile;
}
