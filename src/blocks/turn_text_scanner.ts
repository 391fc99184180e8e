/**
 * Incremental (streaming) `<ask>` / `<report>` scanner for assistant turn
 * text.
 *
 * @module
 */
import { parseAskBlock } from "./ask_block.ts";
import { parseReportBlock } from "./report_block.ts";
import { MAX_BLOCK_BODY_LENGTH } from "./limits.ts";
import type { InvalidBlockReason, TurnTextSegment } from "./segments.ts";
// Tags by index (0 ask, 1 report): numbers, not names, on the hot paths.
import {
  CLOSE_TAGS as CLOSES,
  isTagChar,
  OPEN_TAGS as OPENS,
  TAG_NAMES as NAMES,
} from "./_tag_match.ts";

/** Options of {@link TurnTextScanner} and {@link splitTurnText}. */
export interface TurnTextScannerOptions {
  /**
   * Size bound of a block body in UTF-16 code units: default and maximum
   * {@link MAX_BLOCK_BODY_LENGTH}.
   */
  readonly maxBlockBodyLength?: number;
}

/**
 * The body size bound from untrusted options, never throwing: not an object,
 * an unreadable `maxBlockBodyLength` (throwing getter, revoked proxy) or a
 * value that is not a number (or `NaN`) → {@link MAX_BLOCK_BODY_LENGTH};
 * else clamped to [0, MAX_BLOCK_BODY_LENGTH] and floored. Read once.
 */
function boundOf(options: unknown): number {
  let n: unknown;
  try {
    if (typeof options !== "object" || options === null) return MAX_BLOCK_BODY_LENGTH;
    n = (options as TurnTextScannerOptions).maxBlockBodyLength;
  } catch {
    return MAX_BLOCK_BODY_LENGTH;
  }
  if (typeof n !== "number" || Number.isNaN(n)) return MAX_BLOCK_BODY_LENGTH;
  return Math.max(0, Math.min(MAX_BLOCK_BODY_LENGTH, Math.floor(n)));
}

const LT = 0x3c; // <
const GT = 0x3e; // >
const LOWER_A = 0x61;
const LOWER_R = 0x72;

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/**
 * Index of the first "<" in `s` at or after `from`, or -1. A plain loop for a
 * short rest (a streamed delta is a few characters, and a call to
 * `indexOf` costs more than reading them), `indexOf` otherwise.
 */
function findLt(s: string, from: number): number {
  const n = s.length;
  if (n - from > 8) return s.indexOf("<", from);
  for (let k = from; k < n; k++) if (s.charCodeAt(k) === LT) return k;
  return -1;
}

/** An open block's body is kept as one string per this many code units (or more). */
const CHUNK = 4096;

/**
 * Incremental scanner: feed text deltas with {@link TurnTextScanner.push} as
 * they arrive, call {@link TurnTextScanner.end} once at the end of the turn.
 *
 * Text is emitted as soon as it is safe: the scanner holds back ONLY a
 * trailing fragment that could still become an opening tag (`<`, `<a`,
 * `<AS`, `<repo`, … at most 7 characters), a trailing high surrogate (so an
 * emoji split across deltas is never shown in halves), or an open block
 * awaiting its close tag, so a UI never shows `<ask>{"que` to a person. A
 * block is emitted whole once its close tag arrives. An open block is held
 * for at most {@link MAX_BLOCK_BODY_LENGTH} + 9 characters: beyond that it
 * becomes an `invalid` segment (reason `too-large`) and scanning continues,
 * so memory is bounded whatever the input.
 *
 * Work is linear in the input and small per delta: every character is read a
 * bounded number of times; a tag split across deltas is matched on from
 * where it stopped (held-back text is never joined to the next delta and
 * scanned again); no regular expression runs; a delta allocates little
 * beyond its output (an open block's body is appended to one string, moved
 * aside every 4,096 characters).
 *
 * For ANY chunking, `normalizeSegments(all pushes + end)` deep-equals
 * `splitTurnText(whole text)` (property-tested). Tag rules are those of
 * {@link splitTurnText}.
 *
 * After `end()` the scanner is finished: further `push`/`end` calls return
 * `[]`. Never throws.
 *
 * @example
 * ```ts
 * import { TurnTextScanner } from "@papercusp/chat-protocol/blocks";
 * const s = new TurnTextScanner();
 * s.push("Pick one: <as");            // → [{ kind: "text", text: "Pick one: " }]
 * s.push('k>{"question":"Which?"}');  // → [] (block still open)
 * s.push("</ask> ok");                // → [{ kind: "ask", block: { question: "Which?" }, raw: … }, { kind: "text", text: " ok" }]
 * s.end();                            // → []
 * ```
 */
export class TurnTextScanner {
  readonly #maxBody: number;
  #ended = false;

  // Text mode.
  /** A trailing fragment that may still become an opening tag (starts with "<"; "" = none). */
  #partial = "";
  /** A trailing high surrogate held back from the previous delta ("" = none). */
  #lead = "";

  // Block mode (`#tag >= 0`).
  /** The open block's tag (0 ask, 1 report), or -1 in text mode. */
  #tag = -1;
  /** The opening tag as written (original case). */
  #openRaw = "";
  /** The newest body characters (fewer than {@link CHUNK} after each delta). */
  #acc = "";
  /** Older body characters, one string per {@link CHUNK} or more. */
  #chunks: string[] = [];
  /** Body length so far, UTF-16 code units. */
  #bodyLen = 0;
  /** How many characters of the close tag end the body so far (0 = none). */
  #closeMatched = 0;

  /**
   * Tags found unclosed at the end of the turn (bit 1 ask, bit 2 report): no
   * close tag of that name follows, so each later opening tag of that name
   * is unclosed too.
   */
  #unclosed = 0;
  /**
   * Output of the current `push`/`end` call: text not yet emitted (adjacent
   * text is merged here, so a call never returns two text segments in a row)
   * and the segments before it (`null` until there is one, so a call that
   * emits only text allocates no growing array).
   */
  #text = "";
  #out: TurnTextSegment[] | null = null;

  /**
   * Create a scanner with an empty buffer.
   *
   * @param options.maxBlockBodyLength the size bound in UTF-16 code units
   * (default and maximum {@link MAX_BLOCK_BODY_LENGTH}; values below 0 or
   * non-integers are clamped/floored). Lower it to hold back less per open
   * block. Options that are not an object, or whose `maxBlockBodyLength`
   * cannot be read (a throwing getter, a revoked proxy) or is not a number,
   * mean the default; the field is read once.
   */
  constructor(options: TurnTextScannerOptions = {}) {
    this.#maxBody = boundOf(options);
  }

  /**
   * Feed the next text delta; returns the segments that became final, in
   * order (adjacent text merged within this call). Non-string input is
   * ignored.
   */
  push(delta: string): TurnTextSegment[] {
    if (this.#ended || typeof delta !== "string" || delta === "") return [];
    if (
      this.#tag < 0 && this.#partial === "" && this.#lead === "" && findLt(delta, 0) === -1 &&
      !isHighSurrogate(delta.charCodeAt(delta.length - 1))
    ) {
      // Most deltas of a real stream: plain text, nothing held back.
      return [{ kind: "text", text: delta }];
    }
    if (
      this.#tag >= 0 && this.#closeMatched === 0 && findLt(delta, 0) === -1 &&
      this.#bodyLen + delta.length < this.#maxBody + CLOSES[this.#tag].length
    ) {
      // Inside a block, a delta with no "<" is body, and the block stays open.
      this.#keep(delta, 0, delta.length, 0, false);
      return [];
    }
    this.#feed(delta, false);
    return this.#take();
  }

  /**
   * Finish the turn: returns the remaining segments. A held-back tag
   * fragment becomes text; an open block's opening tag becomes `invalid`
   * (`unclosed`) and the text held after it is scanned again, so blocks that
   * followed a stray opening tag are still found.
   */
  end(): TurnTextSegment[] {
    if (this.#ended) return [];
    this.#ended = true;
    this.#feed("", true);
    return this.#take();
  }

  /** Scan `s` (the next delta, or `""` with `final` at the end of the turn). */
  #feed(s: string, final: boolean): void {
    if (this.#lead !== "") {
      this.#text += this.#lead;
      this.#lead = "";
    }
    let i = 0;
    for (;;) {
      if (this.#tag >= 0) {
        i = this.#blockStep(s, i, final);
        if (i < 0) {
          // The turn ended inside a block that never closed: only its opening
          // tag is invalid; what followed it is text and blocks again.
          s = this.#unclosedBody();
          i = 0;
        } else if (this.#tag >= 0) return; // all of `s` is body; still open
      } else {
        if (i >= s.length && (!final || this.#partial === "")) return;
        i = this.#textMode(s, i, final);
      }
    }
  }

  /**
   * Text mode from `s[i]`: emits text up to the first opening tag and opens
   * it (returns the index after it), or emits all of `s` as text except a
   * trailing fragment that may still become a tag (`#partial`) or a trailing
   * high surrogate (`#lead`), and returns `s.length`.
   *
   * One pass over the characters with the match state of the current
   * candidate tag; a fragment held from earlier deltas is matched on from
   * where it stopped, never joined to `s` and scanned again. When the whole
   * tag would fit in `s`, its `>` (at offset 4 of `<ask>`, 7 of `<report>`)
   * is read right after the letter that names it: most `<` that open no tag
   * are rejected with two reads.
   */
  #textMode(s: string, i: number, final: boolean): number {
    const n = s.length;
    let p = this.#partial; // the candidate's characters from earlier deltas
    this.#partial = "";
    let m = p.length; // characters of the candidate matched so far (0: none)
    let tag = m < 2 ? -1 : (p.charCodeAt(1) | 0x20) === LOWER_A ? 0 : 1;
    let start = i; // where the candidate starts in `s` (i when it began in `p`)
    const from = i; // text of `s` not yet added starts here
    let k = i;
    while (k < n) {
      if (m === 0) {
        const j = findLt(s, k);
        if (j === -1) break;
        start = j;
        k = j + 1;
        m = 1;
        continue;
      }
      const c = s.charCodeAt(k);
      if (c === LT) {
        // A "<" ends the candidate (text) and starts the next one.
        if (p !== "") {
          this.#text += p;
          p = "";
        }
        start = k++;
        m = 1;
        continue;
      }
      if (m === 1) {
        const lc = c | 0x20;
        tag = lc === LOWER_A ? 0 : lc === LOWER_R ? 1 : -1;
        if (
          tag >= 0 &&
          (p !== "" || start + OPENS[tag].length > n ||
            s.charCodeAt(start + OPENS[tag].length - 1) === GT)
        ) {
          m = 2;
          k++;
          continue;
        }
      } else {
        const open = OPENS[tag];
        if (m === open.length - 1) {
          if (c === GT) {
            let raw: string;
            if (p !== "") raw = p + s.slice(i, k + 1);
            else {
              if (start > from) this.#text += s.slice(from, start);
              raw = s.slice(start, k + 1);
            }
            this.#open(tag, raw);
            return k + 1;
          }
        } else if ((c | 0x20) === open.charCodeAt(m)) {
          m++;
          k++;
          continue;
        }
      }
      // A mismatch at `s[k]`: the candidate is text; look at `s[k]` again.
      if (p !== "") {
        this.#text += p;
        p = "";
      }
      m = 0;
    }
    if (m > 0 && !final) {
      // `s` ends inside a candidate: hold it back.
      if (p !== "") this.#partial = p + (i === 0 ? s : s.slice(i));
      else {
        if (start > from) this.#text += s.slice(from, start);
        this.#partial = start === 0 ? s : s.slice(start);
      }
      return n;
    }
    if (p !== "") this.#text += p;
    if (n === from) return n;
    // Never split a surrogate pair across deltas: hold back a trailing high
    // surrogate so a UI never shows half an emoji.
    if (!final && isHighSurrogate(s.charCodeAt(n - 1))) {
      if (n - 1 > from) this.#text += s.slice(from, n - 1);
      this.#lead = s.slice(n - 1);
      return n;
    }
    this.#text += from === 0 ? s : s.slice(from);
    return n;
  }

  /** Start a block (or emit an `unclosed` tag at once when no close of that name can follow). */
  #open(tag: number, raw: string): void {
    if ((this.#unclosed & (1 << tag)) !== 0) {
      this.#emit({ kind: "invalid", tag: NAMES[tag], raw, reason: "unclosed" });
      return;
    }
    this.#tag = tag;
    this.#openRaw = raw;
  }

  /**
   * Consume block body from `s` at `i`. Returns the index where text mode
   * resumes (the block ended: valid, invalid or too large), `s.length` when
   * all of `s` is body (the block is still open), or -1 at the end of the
   * turn for a block that never closed.
   */
  #blockStep(s: string, i: number, final: boolean): number {
    const close = CLOSES[this.#tag];
    const cl = close.length;
    const n = s.length;
    // Only the first maxBody + cl body characters may hold the close tag.
    const room = this.#maxBody + cl - this.#bodyLen;
    const end = n - i <= room ? n : i + room;
    let k = i;
    // 1. A close tag that began in an earlier delta.
    let m = this.#closeMatched;
    if (m > 0) {
      for (; k < end && isTagChar(s.charCodeAt(k), close.charCodeAt(m)); k++) {
        if (++m === cl) {
          const whole = this.#body() + s.slice(i, k + 1);
          this.#finish(whole.slice(0, whole.length - cl), whole.slice(whole.length - cl));
          return k + 1;
        }
      }
      if (k >= end) return this.#keep(s, i, end, m, final);
      // A mismatch: the fragment ("<", "</", "</a", …) holds no other "<".
    }
    // 2. A close tag starting in this delta.
    for (let j = findLt(s, k); j !== -1 && j < end; j = findLt(s, j + 1)) {
      m = 1;
      let p = j + 1;
      while (p < end && m < cl && isTagChar(s.charCodeAt(p), close.charCodeAt(m))) {
        p++;
        m++;
      }
      if (m === cl) {
        const body = j === i ? "" : s.slice(i, j);
        this.#finish(this.#bodyLen === 0 ? body : this.#body() + body, s.slice(j, p));
        return p;
      }
      if (p >= end) return this.#keep(s, i, end, m, final); // the close tag may continue
    }
    return this.#keep(s, i, end, 0, final);
  }

  /**
   * Keep `s[i, end)` as body, with `matched` close-tag characters at its
   * end; then end the block if it reached the size bound (`too-large`) or
   * the turn ended (returns -1). Returns what `#blockStep` returns.
   */
  #keep(s: string, i: number, end: number, matched: number, final: boolean): number {
    if (end > i) {
      this.#acc += i === 0 && end === s.length ? s : s.slice(i, end);
      this.#bodyLen += end - i;
      if (this.#acc.length >= CHUNK) {
        this.#chunks.push(this.#acc);
        this.#acc = "";
      }
    }
    this.#closeMatched = matched;
    if (this.#bodyLen >= this.#maxBody + CLOSES[this.#tag].length) {
      // Too large. Never cut between the halves of a surrogate pair: a
      // trailing high surrogate goes back to text mode (it is `s[end - 1]`:
      // the bound was reached in this delta).
      let raw = this.#openRaw + this.#body();
      let resume = end;
      if (isHighSurrogate(s.charCodeAt(end - 1))) {
        raw = raw.slice(0, -1);
        resume--;
      }
      this.#invalid("too-large", raw);
      return resume;
    }
    return final ? -1 : s.length;
  }

  /** The body held so far. */
  #body(): string {
    return this.#chunks.length === 0 ? this.#acc : this.#chunks.join("") + this.#acc;
  }

  /** End a block left open at the end of the turn (`unclosed`); returns its body, to scan again as text. */
  #unclosedBody(): string {
    const body = this.#body();
    this.#unclosed |= 1 << this.#tag;
    this.#invalid("unclosed", this.#openRaw);
    return body;
  }

  /** Emit a non-text segment after the pending text. */
  #emit(seg: TurnTextSegment): void {
    const text = this.#text;
    if (text !== "") {
      this.#text = "";
      if (this.#out === null) this.#out = [{ kind: "text", text }, seg];
      else this.#out.push({ kind: "text", text }, seg);
    } else if (this.#out === null) this.#out = [seg];
    else this.#out.push(seg);
  }

  /** The segments of this call (pending text last), resetting the output. */
  #take(): TurnTextSegment[] {
    const text = this.#text;
    const out = this.#out;
    this.#text = "";
    this.#out = null;
    if (out === null) return text === "" ? [] : [{ kind: "text", text }];
    if (text !== "") out.push({ kind: "text", text });
    return out;
  }

  /** Leave block mode. */
  #endBlock(): void {
    this.#tag = -1;
    this.#openRaw = "";
    this.#acc = "";
    if (this.#chunks.length > 0) this.#chunks = [];
    this.#bodyLen = 0;
    this.#closeMatched = 0;
  }

  /** Leave block mode, emitting an `invalid` segment for the block. */
  #invalid(reason: InvalidBlockReason, raw: string): void {
    const tag = NAMES[this.#tag];
    this.#endBlock();
    this.#emit({ kind: "invalid", tag, raw, reason });
  }

  /** The block closed: parse its body and emit the segment. */
  #finish(body: string, closeRaw: string): void {
    const raw = this.#openRaw + body + closeRaw;
    let json: unknown;
    try {
      // JSON.parse skips JSON whitespace itself; trim() (which also strips
      // e.g. NBSP and U+2028, as the spec's trim-then-parse does) is only
      // needed on the rare failure path.
      json = JSON.parse(body);
    } catch {
      const trimmedBody = body.trim();
      if (trimmedBody === "") return this.#invalid("empty-body", raw);
      if (trimmedBody.length === body.length) return this.#invalid("malformed-json", raw);
      try {
        json = JSON.parse(trimmedBody);
      } catch {
        return this.#invalid("malformed-json", raw);
      }
    }
    if (this.#tag === 0) {
      const block = parseAskBlock(json);
      if (block === null) return this.#invalid("invalid-block", raw);
      this.#endBlock();
      this.#emit({ kind: "ask", block, raw });
    } else {
      const block = parseReportBlock(json);
      if (block === null) return this.#invalid("invalid-block", raw);
      this.#endBlock();
      this.#emit({ kind: "report", block, raw });
    }
  }
}

/**
 * A `TransformStream<string, TurnTextSegment>` wrapping
 * {@link TurnTextScanner}: pipe text deltas in, get segments out as soon as
 * they are safe to show. Works in Deno, Node ≥ 18, browsers and edge
 * runtimes (Web Streams only). A chunk that is not a string errors the
 * stream with a `TypeError` (pipe bytes through `TextDecoderStream` first).
 *
 * @example
 * ```ts
 * import { TurnTextScannerStream } from "@papercusp/chat-protocol/blocks";
 * const segments = ReadableStream.from(["Hi <ask>", '{"question":"Ok?"}</ask>'])
 *   .pipeThrough(new TurnTextScannerStream());
 * for await (const seg of segments) console.log(seg.kind); // "text", "ask"
 * ```
 */
export class TurnTextScannerStream extends TransformStream<string, TurnTextSegment> {
  /**
   * Create the stream around a fresh {@link TurnTextScanner}.
   *
   * @param options see {@link TurnTextScannerOptions}.
   */
  constructor(options: TurnTextScannerOptions = {}) {
    const scanner = new TurnTextScanner(options);
    super({
      transform(chunk, controller) {
        if (typeof chunk !== "string") {
          // Never drop input silently (e.g. bytes piped in without a
          // TextDecoderStream): error the stream instead.
          throw new TypeError(
            `TurnTextScannerStream takes string chunks, got ${
              chunk === null ? "null" : typeof chunk
            }; decode bytes with TextDecoderStream first`,
          );
        }
        for (const seg of scanner.push(chunk)) controller.enqueue(seg);
      },
      flush(controller) {
        for (const seg of scanner.end()) controller.enqueue(seg);
      },
    });
  }
}
