/**
 * {@link StreamResponseOptions}: the options every stream response helper
 * of `./http` takes.
 *
 * @module
 */
import type { StreamProblem } from "./stream_problem.ts";

/** Options every stream response helper takes. */
export interface StreamResponseOptions {
  /**
   * Milliseconds between heartbeat comments (`: heartbeat`) while nothing
   * else is written; default 15,000; `0` for none. Keeps proxies from
   * closing an idle connection; the timer stops with the response.
   */
  readonly heartbeatMs?: number;
  /** Ends the stream too when it aborts (besides the request's own signal). */
  readonly signal?: AbortSignal;
  /** Most frames one replay may buffer (default `DEFAULT_MAX_REPLAY_FRAMES` of `./recovery`). */
  readonly maxFrames?: number;
  /** Extra response headers (they override the defaults of the same name). */
  readonly headers?: HeadersInit;
  /** Called with each {@link StreamProblem} met after the response started. */
  readonly onProblem?: (problem: StreamProblem) => void;
}

/** The default heartbeat interval, in milliseconds. */
export const DEFAULT_HEARTBEAT_MS = 15_000;
