/**
 * {@link StreamRefusal}: why a stream response helper answered a request
 * with an error instead of a stream, the HTTP status for each code, and the
 * JSON error response ({@link streamRefusalResponse}).
 *
 * @module
 */
import type { Refusal } from "../result.ts";
import { readFields } from "../_internal/fields.ts";

/**
 * The codes of {@link StreamRefusal} and the HTTP status each is answered
 * with:
 *
 * | code | status | meaning |
 * |---|---|---|
 * | `invalid-cursor` | 400 | the `Last-Event-ID` cannot name an event (a negative, fractional or `0` seq) |
 * | `foreign-cursor` | 400 | the `Last-Event-ID` names an event of another turn |
 * | `cursor-too-long` | 431 | the `Last-Event-ID` is longer than the bound |
 * | `unknown-cursor` | 404 | the `Last-Event-ID` is no event of this turn's retained window |
 * | `stale-cursor` | 410 | retention dropped events after the cursor: they cannot be replayed |
 * | `cursor-beyond-latest` | 409 | the cursor is after the latest event: it was never issued for this turn |
 * | `unknown-resume-card` | 409 | a continuation names a card no retained `card` event opened |
 * | `capability-not-offered` | 501 | the host's profile does not offer connection replay |
 * | `replay-unavailable` | 503 | the replay window (the host's store) failed |
 * | `invalid-window` | 500 | the replay window answered something malformed (bounds, frames) |
 * | `gap`, `reordered`, `foreign-frame` | 500 | the replay window's frames are not the contiguous suffix of this turn |
 * | `window-too-large` | 500 | more frames than `maxFrames` would have to be replayed |
 * | `invalid-request` | 500 | the source's ids are not strings (a programmer's mistake) |
 */
export type StreamRefusalCode =
  | "invalid-cursor"
  | "foreign-cursor"
  | "cursor-too-long"
  | "unknown-cursor"
  | "stale-cursor"
  | "cursor-beyond-latest"
  | "unknown-resume-card"
  | "capability-not-offered"
  | "replay-unavailable"
  | "invalid-window"
  | "gap"
  | "reordered"
  | "foreign-frame"
  | "window-too-large"
  | "invalid-request";

/** A typed refusal to stream, with the cursor involved when there is one. */
export interface StreamRefusal extends Refusal<StreamRefusalCode> {
  /** The HTTP status it is answered with (see {@link StreamRefusalCode}). */
  readonly status: number;
  /** The `seq` the cursor resolved to (cursor refusals after resolution). */
  readonly afterSeq?: number;
  /** Lowest retained `seq` (`stale-cursor`). */
  readonly lowestRetainedSeq?: number;
  /** Latest `seq` (`cursor-beyond-latest`). */
  readonly latestSeq?: number;
}

/** The HTTP status of each {@link StreamRefusalCode}. */
export const STREAM_REFUSAL_STATUS: Readonly<Record<StreamRefusalCode, number>> = Object.freeze({
  "invalid-cursor": 400,
  "foreign-cursor": 400,
  "cursor-too-long": 431,
  "unknown-cursor": 404,
  "stale-cursor": 410,
  "cursor-beyond-latest": 409,
  "unknown-resume-card": 409,
  "capability-not-offered": 501,
  "replay-unavailable": 503,
  "invalid-window": 500,
  "gap": 500,
  "reordered": 500,
  "foreign-frame": 500,
  "window-too-large": 500,
  "invalid-request": 500,
});

/** The status of a known code (own keys only: `__proto__` is no code). */
function statusOf(code: unknown): number | undefined {
  return typeof code === "string" && Object.hasOwn(STREAM_REFUSAL_STATUS, code)
    ? STREAM_REFUSAL_STATUS[code as StreamRefusalCode]
    : undefined;
}

/**
 * A {@link StreamRefusal} of `code`, with its status from
 * {@link STREAM_REFUSAL_STATUS} (500 for a code not in it). Never throws:
 * a `message` that is not a string is replaced, `extra` fields that are not
 * finite numbers are left out.
 *
 * @example
 * ```ts
 * import { streamRefusal } from "@papercusp/chat-protocol/http";
 * streamRefusal("stale-cursor", "cursor 3 is below the window", { afterSeq: 3 });
 * // { code: "stale-cursor", message: "cursor 3 is below the window", status: 410, afterSeq: 3 }
 * ```
 */
export function streamRefusal(
  code: StreamRefusalCode,
  message: string,
  extra: { afterSeq?: number; lowestRetainedSeq?: number; latestSeq?: number } = {},
): StreamRefusal {
  const status = statusOf(code) ?? 500;
  const out: Record<string, unknown> = {
    code: typeof code === "string" ? code : "invalid-request",
    message: typeof message === "string" ? message : "the stream was refused",
    status,
  };
  const f = readFields(extra, ["afterSeq", "lowestRetainedSeq", "latestSeq"]);
  for (const k of ["afterSeq", "lowestRetainedSeq", "latestSeq"] as const) {
    const v = f?.[k];
    if (typeof v === "number" && Number.isFinite(v)) out[k] = v;
  }
  return out as unknown as StreamRefusal;
}

/**
 * The error response for a refusal: its status (a `status` between 400
 * and 599 as given, else the code's from {@link STREAM_REFUSAL_STATUS},
 * else 500), `content-type:
 * application/json`, `cache-control: no-store`, and the body
 * `{"error":{"code":…,"message":…}}` (plus `afterSeq`,
 * `lowestRetainedSeq`, `latestSeq` when known), so a client reads the typed
 * code. A browser `EventSource` stops reconnecting on it (any status but
 * 200 fails the connection for good); the page decides what to do (e.g.
 * reload the turn from its persisted state on `stale-cursor`). Never
 * throws: an unreadable refusal is answered 500 `invalid-request`.
 *
 * @example
 * ```ts
 * import { streamRefusal, streamRefusalResponse } from "@papercusp/chat-protocol/http";
 * const res = streamRefusalResponse(streamRefusal("stale-cursor", "cursor 3 is below the window"));
 * res.status; // 410
 * ```
 */
export function streamRefusalResponse(refusal: StreamRefusal): Response {
  const f = readFields(refusal, [
    "code",
    "message",
    "status",
    "afterSeq",
    "lowestRetainedSeq",
    "latestSeq",
  ]);
  const code = typeof f?.code === "string" ? f.code : "invalid-request";
  const known = statusOf(code);
  const given = f?.status;
  const status = typeof given === "number" && Number.isInteger(given) && given >= 400 &&
      given <= 599
    ? given
    : known ?? 500;
  const error: Record<string, unknown> = {
    code,
    message: typeof f?.message === "string" ? f.message : "the stream was refused",
  };
  for (const k of ["afterSeq", "lowestRetainedSeq", "latestSeq"] as const) {
    if (typeof f?.[k] === "number" && Number.isFinite(f[k])) error[k] = f[k];
  }
  return new Response(JSON.stringify({ error }), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store" },
  });
}
