/**
 * Typed errors of the SSE codec: {@link SseEncodeError} (the host asked the
 * encoder to write something the event-stream format cannot carry),
 * {@link SseArgumentError} (the host gave the decoder an argument of the
 * wrong type) and {@link SseLimitError} (an incoming stream exceeded a
 * configured bound).
 *
 * @module
 */
import { initCodedError } from "../_internal/coded_error.ts";

/** Reason codes of {@link SseEncodeError}. */
export type SseEncodeErrorCode =
  | "invalid-frame"
  | "invalid-id"
  | "invalid-event"
  | "invalid-data"
  | "invalid-retry"
  | "invalid-comment";

/**
 * Thrown by the SSE encoder ({@link encodeSseFrame}, {@link encodeSseComment},
 * the encoder streams) when the host passes a value that cannot be written
 * as an event stream without changing its meaning, e.g. an `id` containing
 * CR, LF or NUL (it would split the line or be ignored by every client), an
 * `event` name containing CR or LF, a non-string `data`, or a `retry` that is
 * not a non-negative safe integer.
 *
 * It is a programmer error on the producing side, so it is thrown rather than
 * returned. It extends `TypeError`, so `catch (e) { if (e instanceof
 * TypeError) ... }` also matches it; match on {@link SseEncodeError.code}.
 *
 * @example
 * ```ts
 * import { encodeSseFrame, SseEncodeError } from "@papercusp/chat-protocol/sse";
 * try {
 *   encodeSseFrame({ id: "a\nb", data: "x" });
 * } catch (e) {
 *   if (e instanceof SseEncodeError) console.log(e.code); // "invalid-id"
 * }
 * ```
 */
export class SseEncodeError extends TypeError {
  /** Stable machine-readable reason. */
  declare readonly code: SseEncodeErrorCode;
  /** Create the error: a stable `code` and one sentence (`message`, not stable). */
  constructor(code: SseEncodeErrorCode, message: string) {
    super(message);
    initCodedError(this, "SseEncodeError", code);
  }
}

/** Reason codes of {@link SseArgumentError} (each explained there). */
export type SseArgumentErrorCode =
  | "invalid-options"
  | "invalid-callback"
  | "invalid-limit"
  | "invalid-last-event-id"
  | "invalid-chunk";

/**
 * A decoder argument of the wrong type, a programmer's mistake on the
 * consuming side: {@link SseParser}'s constructor (and
 * {@link SseDecoderStream}'s) throws it with `invalid-options` (the options
 * cannot be read: a throwing getter, a revoked proxy), `invalid-callback`
 * (`onEvent` not a function, `onRetry` / `onComment` neither a function nor
 * `undefined`), `invalid-limit` (`maxLineLength` / `maxEventLength` not a
 * positive safe integer) or `invalid-last-event-id` (neither a string nor
 * `undefined`); {@link SseParser.feed} throws `invalid-chunk` for a chunk
 * that is neither a string nor a `Uint8Array` (the parser's state is
 * unchanged), and the stream form errors with it. Bytes never cause it:
 * they decode per the WHATWG rules, and only a size bound raises
 * {@link SseLimitError}. A `TypeError` subclass; match on its `code`.
 *
 * @example
 * ```ts
 * import { SseDecoderStream } from "@papercusp/chat-protocol/sse";
 * const decoded = ReadableStream.from<unknown>([null]).pipeThrough(new SseDecoderStream() as never);
 * await decoded.getReader().read().catch((e) => e.code); // "invalid-chunk"
 * ```
 */
export class SseArgumentError extends TypeError {
  /** Stable machine-readable reason. */
  declare readonly code: SseArgumentErrorCode;
  /** Create the error: a stable `code` and one sentence (`message`, not stable). */
  constructor(code: SseArgumentErrorCode, message: string) {
    super(message);
    initCodedError(this, "SseArgumentError", code);
  }
}

/** Reason codes of {@link SseLimitError}. */
export type SseLimitErrorCode = "line-too-long" | "event-too-large";

/**
 * Raised by the SSE decoder ({@link SseParser}, {@link SseDecoderStream}) when
 * untrusted input exceeds a configured bound:
 *
 * - `"line-too-long"`: one line (excluding its CR / LF / CRLF terminator) is
 *   longer than `maxLineLength` UTF-16 code units. Detected while the line is
 *   still being buffered, so a never-ending line never grows the buffer past
 *   the limit.
 * - `"event-too-large"`: the data buffer of one event (all `data` values
 *   joined with LF) is longer than `maxEventLength` UTF-16 code units.
 *
 * {@link SseParser.feed} throws it; {@link SseDecoderStream} errors the
 * stream with it (readers see it as the rejection of `read()`).
 */
export class SseLimitError extends Error {
  /** Which bound was exceeded. */
  readonly code: SseLimitErrorCode;
  /** The configured bound that was exceeded, in UTF-16 code units. */
  readonly limit: number;
  /**
   * Create the error.
   *
   * @param code which bound was exceeded
   * @param limit the configured bound, in UTF-16 code units
   */
  constructor(code: SseLimitErrorCode, limit: number) {
    super(
      code === "line-too-long"
        ? `SSE line longer than ${limit} UTF-16 code units`
        : `SSE event data longer than ${limit} UTF-16 code units`,
    );
    this.name = "SseLimitError";
    this.code = code;
    this.limit = limit;
  }
}
