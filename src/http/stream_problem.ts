/**
 * {@link StreamProblem}: something a stream response (or an SSE encoder
 * stream) skipped or could not do after the response started, reported to
 * the host instead of failing the stream silently.
 *
 * @module
 */

/**
 * Codes of {@link StreamProblem}:
 *
 * - `invalid-frame`: a frame (from the live feed, the replay window or the
 *   writer) is not a v1 envelope, or its SSE encoding was refused (an id
 *   an SSE `id:` line cannot carry); it was skipped;
 * - `foreign-frame`: a live frame of another conversation or turn; skipped;
 * - `refused-frame`: the adapter refused a frame (the v1 fold's verdict,
 *   e.g. an illegal transition); skipped;
 * - `gap`: frames are missing between what was sent and the next live
 *   frame, and the replay window could not fill them; the stream went on
 *   after them;
 * - `not-json`: a chunk or event cannot be serialized as JSON; skipped;
 * - `live-failed`: the live feed threw; the stream ended;
 * - `replay-failed`: re-reading the replay window failed after the
 *   response started; the stream ended;
 * - `callback-failed`: the host's `wake` threw or rejected; the stream ended.
 */
export type StreamProblemCode =
  | "invalid-frame"
  | "foreign-frame"
  | "refused-frame"
  | "gap"
  | "not-json"
  | "live-failed"
  | "replay-failed"
  | "callback-failed";

/** One problem a stream met after it started (see {@link StreamProblemCode}). */
export interface StreamProblem {
  /** Stable machine-readable reason. */
  readonly code: StreamProblemCode;
  /** One human-readable sentence; not stable, do not match on it. */
  readonly message: string;
  /** `seq` of the frame concerned, when known. */
  readonly seq?: number;
}
