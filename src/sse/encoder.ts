/**
 * SSE encoder: turn frames into `text/event-stream` text, in the field order
 * `id` → `event` → `data` → `retry` (the `@papercusp/sse` wire convention).
 * Format: WHATWG HTML §9.2.6 "Interpreting an event stream".
 *
 * @module
 */
import { SseEncodeError } from "./errors.ts";
import { readFields } from "../_internal/fields.ts";

/** The {@link SseFrameInput} fields, each read once. */
const FRAME_KEYS = ["id", "event", "data", "retry"] as const;

/**
 * One event to write.
 *
 * - `id`: optional. Put the host's resume cursor here: clients send the last
 *   one they saw back as the `Last-Event-ID` header when reconnecting (and
 *   {@link SseMessage.lastEventId} exposes it). Must not contain CR, LF or
 *   NUL, nor a lone UTF-16 surrogate (the UTF-8 stream would carry U+FFFD,
 *   so the client's `Last-Event-ID` would not match the host's id). `""`
 *   writes an empty `id:` line, which resets the client's cursor.
 * - `event`: optional event type; omitted when `undefined` or `""` (both mean
 *   "message" to a browser, and `undefined` to {@link SseParser}). Any other
 *   name, `"message"` included, is written as given (the legacy
 *   `@papercusp/sse` producer also dropped `"message"`; a browser sees no
 *   difference, {@link SseParser} reports `"message"` instead of
 *   `undefined`). Must not contain CR or LF, nor a lone surrogate.
 * - `data`: any string; written as one `data:` line per line of the string.
 *   CRLF and lone CR are line breaks too, so the decoder gives the data back
 *   with every CRLF / CR normalised to LF. Everything else round-trips
 *   exactly (leading spaces, `:`, NUL, JSON, unicode), except that a lone
 *   UTF-16 surrogate becomes U+FFFD once encoded as UTF-8 (`JSON.stringify`
 *   escapes lone surrogates, so JSON data is safe).
 * - `retry`: optional reconnection time in milliseconds, a non-negative safe
 *   integer.
 */
export interface SseFrameInput {
  /** Event id / resume cursor (no CR, LF or NUL). */
  readonly id?: string | undefined;
  /** Event type (no CR or LF); omitted when absent or empty. */
  readonly event?: string | undefined;
  /** Payload; line breaks become separate `data:` lines. */
  readonly data: string;
  /** Reconnection time in milliseconds (non-negative safe integer). */
  readonly retry?: number | undefined;
}

const CR_LF_NUL = /[\r\n\0]/;
const CR_LF = /[\r\n]/;
/** A UTF-16 surrogate without its partner: UTF-8 turns it into U+FFFD. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LINE_BREAK = /\r\n|\r|\n/;

function field(name: string, value: string): string {
  return value === "" ? name + ":\n" : name + ": " + value + "\n";
}

/** `value` if it is a string fit for the one-line `id` / `event` field, else throws. */
function checkName(
  name: "id" | "event",
  value: unknown,
  forbidden: RegExp,
  forbiddenText: string,
): string {
  const code = name === "id" ? "invalid-id" : "invalid-event";
  if (typeof value !== "string") throw new SseEncodeError(code, `SSE ${name} must be a string`);
  if (forbidden.test(value)) {
    throw new SseEncodeError(code, `SSE ${name} must not contain ${forbiddenText}`);
  }
  if (LONE_SURROGATE.test(value)) {
    throw new SseEncodeError(
      code,
      `SSE ${name} must not contain a lone surrogate (it would reach the client as U+FFFD)`,
    );
  }
  return value;
}

function lines(name: string, value: string): string {
  if (value.indexOf("\n") === -1 && value.indexOf("\r") === -1) return field(name, value);
  let out = "";
  for (const line of value.split(LINE_BREAK)) out += field(name, line);
  return out;
}

/**
 * Encode one event as an SSE frame: `id:` → `event:` → `data:` (one line per
 * line of `data`) → `retry:`, ending with a blank line (`"\n\n"`). Values are
 * written after `": "` so a leading space survives the decoder's removal of
 * one space.
 *
 * @param frame the event (see {@link SseFrameInput})
 * @returns the frame text (LF line endings)
 * @throws {SseEncodeError} `invalid-frame` (not an object, or its fields
 *   cannot be read: a throwing getter, a revoked proxy), `invalid-id`
 *   (not a string, or contains CR/LF/NUL or a lone surrogate), `invalid-event`
 *   (not a string, or contains CR/LF or a lone surrogate), `invalid-data`
 *   (not a string), `invalid-retry` (not a non-negative safe integer)
 *
 * @example
 * ```ts
 * import { encodeSseFrame } from "@papercusp/chat-protocol/sse";
 * encodeSseFrame({ id: "42", event: "delta", data: '{"text":"hi"}' });
 * // 'id: 42\nevent: delta\ndata: {"text":"hi"}\n\n'
 * encodeSseFrame({ data: "two\nlines", retry: 3000 });
 * // 'data: two\ndata: lines\nretry: 3000\n\n'
 * ```
 */
export function encodeSseFrame(frame: SseFrameInput): string {
  if (frame === null || typeof frame !== "object") {
    throw new SseEncodeError("invalid-frame", "SSE frame must be an object");
  }
  const fields = readFields(frame, FRAME_KEYS);
  if (fields === null) {
    throw new SseEncodeError("invalid-frame", "the SSE frame's fields could not be read");
  }
  const { id, event, data, retry } = fields;
  let out = "";
  if (id !== undefined) out = field("id", checkName("id", id, CR_LF_NUL, "CR, LF or NUL"));
  if (event !== undefined && checkName("event", event, CR_LF, "CR or LF") !== "") {
    out += "event: " + event + "\n";
  }
  if (typeof data !== "string") {
    throw new SseEncodeError("invalid-data", "SSE data must be a string");
  }
  out += lines("data", data);
  if (retry !== undefined) {
    if (typeof retry !== "number" || !Number.isSafeInteger(retry) || retry < 0) {
      throw new SseEncodeError(
        "invalid-retry",
        "SSE retry must be a non-negative safe integer (milliseconds)",
      );
    }
    out += "retry: " + retry + "\n";
  }
  return out + "\n";
}

/**
 * Encode a comment block: every line of `text` (split on CRLF, CR or LF)
 * becomes a `: line` comment line, followed by a blank line. Clients ignore
 * comments (decoders may report them, see `onComment`); servers send them as
 * keep-alives so proxies do not close idle connections.
 *
 * @param text comment text; default `""` (writes `":\n\n"`)
 * @returns the comment frame
 * @throws {SseEncodeError} `invalid-comment` when `text` is not a string
 *
 * @example
 * ```ts
 * import { encodeSseComment } from "@papercusp/chat-protocol/sse";
 * encodeSseComment("keep-alive"); // ": keep-alive\n\n"
 * ```
 */
export function encodeSseComment(text: string = ""): string {
  if (typeof text !== "string") {
    throw new SseEncodeError("invalid-comment", "SSE comment must be a string");
  }
  return lines("", text) + "\n";
}

/** The heartbeat frame written by {@link sseHeartbeat}: `": heartbeat\n\n"`. */
export const SSE_HEARTBEAT = ": heartbeat\n\n";

/**
 * The keep-alive comment frame `": heartbeat\n\n"` (what the agents `/events`
 * tail sends every 25 s). It dispatches nothing and does not move the
 * client's last event ID.
 *
 * @returns {@link SSE_HEARTBEAT}
 *
 * @example
 * ```ts
 * import { sseHeartbeat } from "@papercusp/chat-protocol/sse";
 * const { readable, writable } = new TransformStream<string, string>();
 * const writer = writable.getWriter();
 * const timer = setInterval(() => writer.write(sseHeartbeat()), 25_000);
 * clearInterval(timer); // when the response ends
 * ```
 */
export function sseHeartbeat(): string {
  return SSE_HEARTBEAT;
}
