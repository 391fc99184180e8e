/**
 * Incremental, dependency-free parser for `text/event-stream` (Server-Sent
 * Events), following WHATWG HTML §9.2.6 "Interpreting an event stream"
 * (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation).
 *
 * @module
 */
import { SseArgumentError, SseLimitError } from "./errors.ts";
import { describeValue } from "../_internal/describe.ts";
import { readOptions } from "../_internal/fields.ts";
import { DECODE_OPTION_KEYS } from "./_options.ts";

/** Default for {@link SseParserOptions.maxLineLength} and `maxEventLength`: 1 MiB (1_048_576) UTF-16 code units. */
export const SSE_DEFAULT_MAX_LENGTH = 1_048_576;

/**
 * One dispatched event-stream message.
 *
 * `id`, `event` and `data` have exactly the meaning of `eventsource-parser`'s
 * `EventSourceMessage` (so the two can be compared directly); `lastEventId`
 * is what a browser's `MessageEvent.lastEventId` would carry.
 */
export interface SseMessage {
  /**
   * The value of the last valid `id` field inside this event's block (since
   * the previous blank line), or `undefined` if the block had none. An `id`
   * value containing NUL is ignored (WHATWG). `""` means the block contained
   * an empty `id` field, which resets the last event ID.
   */
  readonly id: string | undefined;
  /**
   * The event type (`event` field), or `undefined` when the block had no
   * `event` field or an empty one. A browser would report `"message"` then.
   */
  readonly event: string | undefined;
  /** All `data` field values of the block joined with LF (`"\n"`). */
  readonly data: string;
  /**
   * The stream's last event ID at dispatch time (WHATWG "last event ID
   * string"): the most recent valid `id` value seen anywhere earlier in the
   * stream (it persists across events, unlike {@link SseMessage.id}), or `""`
   * if none (or the initial value given in {@link SseParserOptions.lastEventId}).
   * This is the cursor to send back as the `Last-Event-ID` header when
   * reconnecting.
   */
  readonly lastEventId: string;
}

/** Limits and initial state shared by {@link SseParser} and {@link SseDecoderStream}. */
export interface SseDecodeOptions {
  /**
   * Called with the reconnection time in milliseconds for every `retry`
   * field whose value is one or more ASCII digits (other values are ignored,
   * WHATWG). The number comes from `parseInt(value, 10)`, so an absurdly long
   * digit string yields a very large number or `Infinity`: clamp it.
   */
  onRetry?: (retryMs: number) => void;
  /**
   * Called for every comment line (a line starting with `:`) with the text
   * after the colon, one leading space removed (same as `eventsource-parser`).
   * Browsers ignore comments; servers use them as heartbeats.
   */
  onComment?: (comment: string) => void;
  /**
   * Longest accepted line, in UTF-16 code units, excluding its terminator.
   * Longer lines raise {@link SseLimitError} `"line-too-long"`. A positive
   * safe integer; default {@link SSE_DEFAULT_MAX_LENGTH} (1 MiB).
   */
  maxLineLength?: number;
  /**
   * Longest accepted event data (all `data` values joined with LF), in UTF-16
   * code units. Longer data raises {@link SseLimitError} `"event-too-large"`.
   * A positive safe integer; default {@link SSE_DEFAULT_MAX_LENGTH} (1 MiB).
   */
  maxEventLength?: number;
  /**
   * Initial last event ID (e.g. the cursor a resumed connection was opened
   * with). Default `""`.
   */
  lastEventId?: string;
}

/** Options of {@link SseParser}: {@link SseDecodeOptions} plus the event callback. */
export interface SseParserOptions extends SseDecodeOptions {
  /** Called synchronously, in stream order, for every dispatched message. */
  onEvent: (message: SseMessage) => void;
}

const LF = 10;
const SPACE = 32;
const COLON = 58;
const BOM = 0xfeff;
/** Pending line pieces are compacted into one string every this many pieces. */
const COMPACT_EVERY = 256;
const DIGITS = /^[0-9]+$/;

function checkLimit(name: string, value: unknown): number {
  if (value === undefined) return SSE_DEFAULT_MAX_LENGTH;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw new SseArgumentError(
      "invalid-limit",
      `${name} must be a positive safe integer, got ${describeValue(value)}`,
    );
  }
  return value;
}

function optionalCallback<T>(name: string, value: unknown): T | undefined {
  if (value === undefined || typeof value === "function") return value as T | undefined;
  throw new SseArgumentError(
    "invalid-callback",
    `SseParser's ${name} must be a function, got ${describeValue(value)}`,
  );
}

/** The option fields, each read once (options are caller data: proxies, getters). */
const OPTION_KEYS = ["onEvent", ...DECODE_OPTION_KEYS] as const;

/** `chunk` is a real `Uint8Array` (a proxy or a revoked proxy is not; never throws). */
function isBytes(chunk: unknown): chunk is Uint8Array {
  return ArrayBuffer.isView(chunk) && chunk instanceof Uint8Array;
}

/**
 * Low-level incremental SSE parser: feed it string or UTF-8 byte chunks split
 * anywhere, get callbacks for messages, `retry` values and comments.
 *
 * Implements WHATWG HTML §9.2.6 "Interpreting an event stream":
 * - bytes are decoded as UTF-8 exactly as a streaming WHATWG `TextDecoder`
 *   would (a multibyte character may be split across chunks; invalid
 *   sequences become U+FFFD), by one-shot decodes of each chunk with an
 *   incomplete trailing sequence (at most 3 bytes) carried to the next;
 * - one U+FEFF byte order mark is removed at the start of the stream only;
 * - lines end with CRLF, LF or CR (a CR at the end of one chunk followed by
 *   an LF at the start of the next is one line end; a lone CR is dispatched
 *   immediately, so it also counts at the very end of the stream);
 * - a line without a colon is a field name with an empty value; one space
 *   after the colon is removed; lines starting with `:` are comments;
 * - `data` values are joined with LF; a blank line dispatches the event
 *   unless no `data` field was seen (then nothing is dispatched);
 * - an `id` value containing NUL is ignored; the last event ID persists
 *   across events ({@link SseMessage.lastEventId});
 * - `retry` is reported only when it is all ASCII digits; unknown fields are
 *   ignored;
 * - an unterminated event at the end of the stream is discarded.
 *
 * Memory is bounded by `maxLineLength` and `maxEventLength` (UTF-16 code
 * units, default 1 MiB each): past them {@link SseParser.feed} throws
 * {@link SseLimitError}, after which the parser refuses further chunks with
 * the same error until {@link SseParser.end} starts a new stream. Time is
 * linear in the input however it is chunked.
 *
 * Mixing string and byte chunks is allowed; a string chunk first flushes any
 * incomplete UTF-8 sequence left by earlier bytes (as U+FFFD).
 *
 * @example
 * ```ts
 * import { SseParser } from "@papercusp/chat-protocol/sse";
 * const seen: string[] = [];
 * const parser = new SseParser({ onEvent: (m) => seen.push(`${m.event}:${m.data}`) });
 * parser.feed("event: delta\nda");
 * parser.feed(new TextEncoder().encode("ta: hé\n\n"));
 * parser.end();
 * console.log(seen); // ["delta:hé"]
 * ```
 */
export class SseParser {
  readonly #onEvent: (message: SseMessage) => void;
  readonly #onRetry: ((retryMs: number) => void) | undefined;
  readonly #onComment: ((comment: string) => void) | undefined;
  readonly #maxLine: number;
  readonly #maxEvent: number;

  /** UTF-8 decoder, only used for one-shot `decode()` calls (see `#decode`). */
  #decoder: TextDecoder | undefined;
  /** The last 1–3 bytes of the previous byte chunk: a possibly incomplete UTF-8 sequence. */
  #carry: Uint8Array | undefined;
  #started = false;
  #skipLF = false;
  #pending: string[] = [];
  #pendingLength = 0;
  #compacted = 0;

  #dataLines = 0;
  #dataLength = 0;
  #firstData = "";
  #moreData: string[] | undefined;
  #eventType: string | undefined;
  #blockId: string | undefined;
  /** WHATWG "last event ID buffer": the latest valid `id`, also inside an unfinished block. */
  #idBuffer: string;
  /** WHATWG "last event ID string": `#idBuffer` as of the last blank line. */
  #lastEventId: string;
  #failed: SseLimitError | undefined;

  /**
   * Create a parser. Each option is read once (a getter that throws, or a
   * revoked proxy, is an {@link SseArgumentError}, not whatever the getter
   * threw).
   *
   * @param options callbacks, limits and initial last event ID
   * @throws {SseArgumentError} `invalid-limit` if a limit is not a positive
   *   safe integer; `invalid-callback` if `onEvent` is not a function, or
   *   `onRetry` / `onComment` is neither a function nor `undefined`;
   *   `invalid-last-event-id` if `lastEventId` is neither a string nor
   *   `undefined`; `invalid-options` if the options cannot be read
   */
  constructor(options: SseParserOptions) {
    const o = readOptions(options, OPTION_KEYS);
    if (o === null) {
      throw new SseArgumentError("invalid-options", "SseParser's options could not be read");
    }
    if (typeof o.onEvent !== "function") {
      throw new SseArgumentError("invalid-callback", "SseParser needs an onEvent callback");
    }
    this.#onEvent = o.onEvent as (message: SseMessage) => void;
    this.#onRetry = optionalCallback("onRetry", o.onRetry);
    this.#onComment = optionalCallback("onComment", o.onComment);
    this.#maxLine = checkLimit("maxLineLength", o.maxLineLength);
    this.#maxEvent = checkLimit("maxEventLength", o.maxEventLength);
    const lastEventId = o.lastEventId ?? "";
    if (typeof lastEventId !== "string") {
      throw new SseArgumentError(
        "invalid-last-event-id",
        `SseParser's lastEventId must be a string, got ${describeValue(lastEventId)}`,
      );
    }
    this.#lastEventId = lastEventId;
    this.#idBuffer = this.#lastEventId;
  }

  /**
   * The stream's current last event ID (WHATWG "last event ID string"): the
   * most recent valid `id` value of a block that was ended by a blank line
   * (even a block that dispatched nothing), else the initial one. An `id` in
   * a block that has not ended yet (or never ends: the stream was cut, or a
   * limit error) does not count, so this is always safe to send back as
   * `Last-Event-ID`: the server never skips an event the client did not get.
   */
  get lastEventId(): string {
    return this.#lastEventId;
  }

  /**
   * Parse the next chunk. Callbacks run synchronously before it returns.
   *
   * If a callback throws, the exception propagates out of `feed` and the
   * rest of that chunk is not parsed: call {@link SseParser.end} before
   * feeding the parser again.
   *
   * @param chunk text, or UTF-8 bytes (any split point is fine)
   * @throws {SseLimitError} when a bound is exceeded (and on every later call
   *   until {@link SseParser.end})
   * @throws {SseArgumentError} `invalid-chunk` when `chunk` is neither a
   *   string nor a `Uint8Array` (e.g. `null`); the parser's state is unchanged
   */
  feed(chunk: string | Uint8Array): void {
    if (this.#failed !== undefined) throw this.#failed;
    let text: string;
    if (typeof chunk !== "string" && !isBytes(chunk)) {
      throw new SseArgumentError(
        "invalid-chunk",
        `SseParser.feed takes a string or a Uint8Array, got ${describeValue(chunk)}`,
      );
    }
    if (typeof chunk === "string") {
      const carry = this.#carry;
      if (carry !== undefined) {
        // A string chunk ends the byte run: an incomplete sequence becomes U+FFFD.
        this.#carry = undefined;
        text = this.#decoder!.decode(carry) + chunk;
      } else {
        text = chunk;
      }
    } else {
      text = this.#decode(chunk);
    }
    if (text.length !== 0) this.#process(text);
  }

  /**
   * End the current stream: discard an unterminated line or event, with any
   * `id` it carried (WHATWG), and reset all per-stream state including a
   * limit failure, so the same parser can read the next connection's stream.
   * {@link SseParser.lastEventId} is kept, as a browser's `EventSource` keeps
   * it across reconnections. Never throws.
   */
  end(): void {
    this.#carry = undefined;
    this.#started = false;
    this.#skipLF = false;
    this.#clearPending();
    this.#resetEvent();
    this.#idBuffer = this.#lastEventId;
    this.#failed = undefined;
  }

  /**
   * Decode a byte chunk as the streaming UTF-8 decoder would, but with
   * one-shot `decode()` calls, which are much faster than `stream: true`
   * (Deno: ~1.6x). The chunk is cut before its last non-continuation byte when
   * that byte starts a sequence longer than what is left of the chunk; those
   * 1–3 bytes are carried over and decoded in front of the next chunk. Every
   * non-continuation byte is read by a WHATWG UTF-8 decoder in its initial
   * state (a pending sequence it interrupts has already produced its U+FFFD),
   * so decoding the pieces separately gives exactly the streaming result.
   */
  #decode(chunk: Uint8Array): string {
    const decoder = this.#decoder ??= new TextDecoder("utf-8", { ignoreBOM: true });
    let bytes = chunk;
    const carry = this.#carry;
    if (carry !== undefined) {
      this.#carry = undefined;
      bytes = new Uint8Array(carry.length + chunk.length);
      bytes.set(carry);
      bytes.set(chunk, carry.length);
    }
    const n = bytes.length;
    const stop = n > 4 ? n - 4 : 0;
    for (let i = n - 1; i >= stop; i--) {
      const b = bytes[i];
      if (b < 0x80 || b >= 0xc0) {
        // Sequence length announced by this lead byte (1 for ASCII and invalid leads).
        const need = b < 0xc2 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : b < 0xf5 ? 4 : 1;
        if (n - i < need) {
          this.#carry = bytes.slice(i);
          bytes = bytes.subarray(0, i);
        }
        break;
      }
    }
    return bytes.length === 0 ? "" : decoder.decode(bytes);
  }

  #clearPending(): void {
    this.#pending = [];
    this.#pendingLength = 0;
    this.#compacted = 0;
  }

  #resetEvent(): void {
    this.#dataLines = 0;
    this.#dataLength = 0;
    this.#firstData = "";
    this.#moreData = undefined;
    this.#eventType = undefined;
    this.#blockId = undefined;
  }

  #fail(code: "line-too-long" | "event-too-large"): never {
    const error = new SseLimitError(
      code,
      code === "line-too-long" ? this.#maxLine : this.#maxEvent,
    );
    this.#failed = error;
    this.#clearPending();
    this.#resetEvent();
    this.#idBuffer = this.#lastEventId;
    throw error;
  }

  #process(s: string): void {
    const n = s.length;
    let pos = 0;
    if (!this.#started) {
      this.#started = true;
      if (s.charCodeAt(0) === BOM) pos = 1;
    }
    if (this.#skipLF) {
      if (pos < n) {
        this.#skipLF = false;
        if (s.charCodeAt(pos) === LF) pos++;
      }
    }
    let cr = s.indexOf("\r", pos);
    let lf = s.indexOf("\n", pos);
    if (this.#pending.length !== 0) {
      // The first line of this chunk completes the buffered partial line.
      if (cr === -1 && lf === -1) {
        this.#buffer(pos === 0 ? s : s.slice(pos));
        return;
      }
      const end = cr === -1 ? lf : lf === -1 ? cr : cr < lf ? cr : lf;
      if (this.#pendingLength + (end - pos) > this.#maxLine) this.#fail("line-too-long");
      this.#pending.push(s.slice(pos, end));
      const line = this.#pending.join("");
      this.#clearPending();
      this.#line(line, 0, line.length);
      if (end === cr) {
        if (end + 1 === n) {
          this.#skipLF = true;
          return;
        }
        pos = s.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
        cr = s.indexOf("\r", pos);
      } else {
        pos = end + 1;
      }
      if (lf !== -1 && lf < pos) lf = s.indexOf("\n", pos);
    }
    pos = cr === -1 ? this.#lfLines(s, pos, lf) : this.#anyLines(s, pos, cr, lf);
    if (pos < n) this.#buffer(pos === 0 ? s : s.slice(pos));
  }

  /**
   * Fast path for a chunk without CR: walk LFs only, and dispatch a lone
   * `data:` line followed by a blank line without going through the buffers.
   * Returns the start of the unterminated rest.
   */
  #lfLines(s: string, pos: number, lf: number): number {
    const maxLine = this.#maxLine;
    while (lf !== -1) {
      if (lf !== pos) {
        if (lf - pos > maxLine) this.#fail("line-too-long");
        if (
          s.charCodeAt(pos) === 100 && s.charCodeAt(pos + 1) === 97 &&
          s.charCodeAt(pos + 2) === 116 && s.charCodeAt(pos + 3) === 97 &&
          s.charCodeAt(pos + 4) === COLON
        ) {
          const v = s.charCodeAt(pos + 5) === SPACE ? pos + 6 : pos + 5;
          if (this.#dataLines === 0 && s.charCodeAt(lf + 1) === LF) {
            const data = s.slice(v, lf);
            if (data.length > this.#maxEvent) this.#fail("event-too-large");
            this.#lastEventId = this.#idBuffer;
            const message: SseMessage = {
              id: this.#blockId,
              event: this.#eventType,
              data,
              lastEventId: this.#lastEventId,
            };
            this.#eventType = undefined;
            this.#blockId = undefined;
            this.#onEvent(message);
            pos = lf + 2;
            lf = s.indexOf("\n", pos);
            continue;
          }
          this.#appendData(s.slice(v, lf));
        } else if (
          s.charCodeAt(pos) === 105 && s.charCodeAt(pos + 1) === 100 &&
          s.charCodeAt(pos + 2) === COLON
        ) {
          this.#setId(s.slice(s.charCodeAt(pos + 3) === SPACE ? pos + 4 : pos + 3, lf));
        } else if (
          s.charCodeAt(pos) === 101 && s.charCodeAt(pos + 1) === 118 &&
          s.charCodeAt(pos + 2) === 101 && s.charCodeAt(pos + 3) === 110 &&
          s.charCodeAt(pos + 4) === 116 && s.charCodeAt(pos + 5) === COLON
        ) {
          const v = s.charCodeAt(pos + 6) === SPACE ? pos + 7 : pos + 6;
          this.#eventType = v < lf ? s.slice(v, lf) : undefined;
        } else {
          this.#line(s, pos, lf);
        }
      } else {
        this.#dispatch();
      }
      pos = lf + 1;
      lf = s.indexOf("\n", pos);
    }
    return pos;
  }

  /**
   * General path: lines ended by CR, LF or CRLF. Next CR / LF positions are
   * cached and only searched again once passed, so this is linear however
   * they are mixed. Returns the start of the unterminated rest (or the chunk
   * length when it ended with CR, remembering to skip a following LF).
   */
  #anyLines(s: string, pos: number, cr: number, lf: number): number {
    const n = s.length;
    const maxLine = this.#maxLine;
    while (cr !== -1 || lf !== -1) {
      const end = cr === -1 ? lf : lf === -1 ? cr : cr < lf ? cr : lf;
      if (end - pos > maxLine) this.#fail("line-too-long");
      this.#line(s, pos, end);
      if (end === cr) {
        if (end + 1 === n) {
          this.#skipLF = true;
          return n;
        }
        pos = s.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
        cr = s.indexOf("\r", pos);
      } else {
        pos = end + 1;
      }
      if (lf !== -1 && lf < pos) lf = s.indexOf("\n", pos);
    }
    return pos;
  }

  #buffer(piece: string): void {
    this.#pendingLength += piece.length;
    if (this.#pendingLength > this.#maxLine) this.#fail("line-too-long");
    const pending = this.#pending;
    pending.push(piece);
    if (pending.length - this.#compacted >= COMPACT_EVERY) {
      // Join the recent small pieces into one so a line arriving in tiny
      // chunks costs O(length) memory and time, not one array slot per chunk.
      const joined = pending.splice(this.#compacted).join("");
      pending.push(joined);
      this.#compacted = pending.length;
    }
  }

  /** Interpret one complete line `s[start, end)` (terminator excluded). */
  #line(s: string, start: number, end: number): void {
    if (start === end) {
      this.#dispatch();
      return;
    }
    // The code unit at `end` is CR, LF or past the string (NaN), never a
    // letter, colon or space, so the prefix checks below cannot run past the line.
    const c = s.charCodeAt(start);
    if (c === 100) { // d
      if (
        s.charCodeAt(start + 1) === 97 && s.charCodeAt(start + 2) === 116 &&
        s.charCodeAt(start + 3) === 97 && s.charCodeAt(start + 4) === COLON
      ) {
        const v = s.charCodeAt(start + 5) === SPACE ? start + 6 : start + 5;
        this.#appendData(s.slice(v, end));
        return;
      }
    } else if (c === COLON) {
      if (this.#onComment !== undefined) {
        const v = s.charCodeAt(start + 1) === SPACE ? start + 2 : start + 1;
        this.#onComment(s.slice(v, end));
      }
      return;
    } else if (c === 105) { // i
      if (s.charCodeAt(start + 1) === 100 && s.charCodeAt(start + 2) === COLON) {
        const v = s.charCodeAt(start + 3) === SPACE ? start + 4 : start + 3;
        this.#setId(s.slice(v, end));
        return;
      }
    } else if (c === 101) { // e
      if (
        s.charCodeAt(start + 1) === 118 && s.charCodeAt(start + 2) === 101 &&
        s.charCodeAt(start + 3) === 110 && s.charCodeAt(start + 4) === 116 &&
        s.charCodeAt(start + 5) === COLON
      ) {
        const v = s.charCodeAt(start + 6) === SPACE ? start + 7 : start + 6;
        this.#eventType = v < end ? s.slice(v, end) : undefined;
        return;
      }
    }
    // General case: slice first so the colon search is bounded by the line.
    const line = end - start === s.length ? s : s.slice(start, end);
    const colon = line.indexOf(":");
    let field: string;
    let value: string;
    if (colon === -1) {
      field = line;
      value = "";
    } else {
      field = line.slice(0, colon);
      value = line.slice(line.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1);
    }
    switch (field) {
      case "data":
        this.#appendData(value);
        break;
      case "event":
        this.#eventType = value === "" ? undefined : value;
        break;
      case "id":
        this.#setId(value);
        break;
      case "retry":
        if (this.#onRetry !== undefined && DIGITS.test(value)) {
          this.#onRetry(Number.parseInt(value, 10));
        }
        break;
      default:
        // Unknown field: ignored (WHATWG).
        break;
    }
  }

  #setId(value: string): void {
    if (value.indexOf("\0") !== -1) return;
    this.#blockId = value;
    this.#idBuffer = value;
  }

  #appendData(value: string): void {
    if (this.#dataLines === 0) {
      this.#dataLength = value.length;
      if (this.#dataLength > this.#maxEvent) this.#fail("event-too-large");
      this.#firstData = value;
    } else {
      this.#dataLength += value.length + 1;
      if (this.#dataLength > this.#maxEvent) this.#fail("event-too-large");
      (this.#moreData ??= []).push(value);
    }
    this.#dataLines++;
  }

  #dispatch(): void {
    this.#lastEventId = this.#idBuffer;
    if (this.#dataLines === 0) {
      this.#eventType = undefined;
      this.#blockId = undefined;
      return;
    }
    const more = this.#moreData;
    const message: SseMessage = {
      id: this.#blockId,
      event: this.#eventType,
      data: more === undefined ? this.#firstData : this.#firstData + "\n" + more.join("\n"),
      lastEventId: this.#lastEventId,
    };
    this.#resetEvent();
    this.#onEvent(message);
  }
}
