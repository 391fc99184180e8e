/**
 * Incremental (streaming) `<ask>` / `<report>` scanner for assistant turn
 * text.
 *
 * @module
 */
import { parseAskBlock } from "./ask_block.ts";
import { parseReportBlock } from "./report_block.ts";
import { MAX_BLOCK_BODY_LENGTH } from "./limits.ts";
import { BlockArgumentError } from "./errors.ts";
import type { InvalidBlockReason, TurnTextSegment } from "./segments.ts";
// Tags by index (0 ask, 1 report): numbers, not names, on the hot paths.
import { CLOSE_TAGS as CLOSES, TAG_NAMES as NAMES } from "./_tag_match.ts";

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

/**
 * Whether the "<" at `s[j]` cannot open a tag, judged from two characters
 * when a whole tag would fit in `s`: the letter after "<" names the tag,
 * and its ">" is at a fixed offset (4 in "<ask>", 7 in "<report>"). Most "<"
 * that open no tag stop here. `false` when `s` is too short to tell.
 */
function cannotOpen(s: string, j: number): boolean {
  const n = s.length;
  if (n - j <= 4) return false;
  const lc = s.charCodeAt(j + 1) | 0x20;
  const gt = lc === LOWER_A ? j + 4 : lc === LOWER_R ? j + 7 : -1;
  return gt < 0 || (gt < n && s.charCodeAt(gt) !== GT);
}

/** An open block's body is kept as one string per this many code units (or more). */
const CHUNK = 4096;

// Text mode matches the opening tags with one integer state: 0 no
// candidate, 1 "<", 2-4 "<a" "<as" "<ask", 5-10 "<r" … "<report"; a ">"
// after "<ask" / "<report" gives OPENED + tag. Any ASCII case.
const OPENED = 11;
/** Letters of the tag name matched in each state (and in OPENED + tag). */
const LETTERS = [0, 0, 1, 2, 3, 1, 2, 3, 4, 5, 6, 3, 6] as const;
/** The tag of each state from 2 on (0 ask, 1 report). */
const TAG_OF = [0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 1] as const;

/** `NEXT[state << 7 | c]`: the state after ASCII character `c` (0 when it ends the candidate). */
const NEXT = (() => {
  const next = new Uint8Array(OPENED << 7);
  for (let st = 0; st < OPENED; st++) next[(st << 7) | LT] = 1;
  const letters = (name: string, first: number): number => {
    let st = 1;
    for (let k = 0; k < name.length; k++) {
      const c = name.charCodeAt(k);
      next[(st << 7) | c] = next[(st << 7) | (c - 0x20)] = first + k;
      st = first + k;
    }
    return st;
  };
  next[(letters("ask", 2) << 7) | GT] = OPENED;
  next[(letters("report", 5) << 7) | GT] = OPENED + 1;
  return next;
})();

/**
 * Block mode matches its close tag the same way: `CLOSE_NEXT[(tag << 4 | m)
 * << 7 | c]` is how many characters of the close tag are matched after
 * ASCII character `c` when `m` were (1 after a "<", 0 after anything else
 * that does not continue it).
 */
const CLOSE_NEXT = (() => {
  const next = new Uint8Array(2 << 11);
  for (let tag = 0; tag < 2; tag++) {
    const close = CLOSES[tag];
    for (let m = 0; m < close.length; m++) {
      const row = ((tag << 4) | m) << 7;
      next[row | LT] = 1;
      const c = close.charCodeAt(m);
      next[row | c] = m + 1;
      if (c >= 0x61) next[row | (c - 0x20)] = m + 1;
    }
  }
  return next;
})();

/** {@link fragment}'s strings by `state << 6 | caps` ("" until first asked for). */
const FRAGMENTS: string[] = new Array<string>(13 << 6).fill("");

/**
 * The text of a candidate in state `st` (1 to OPENED + 1) whose letters
 * have upper-case bits `caps`, e.g. "<RePo" or "<ASK>": the scanner keeps a
 * held-back fragment as these two numbers, never as a string joined from
 * deltas. At most 13 × 64 strings of up to 8 characters, made once.
 */
function fragment(st: number, caps: number): string {
  const key = (st << 6) | caps;
  let f = FRAGMENTS[key];
  if (f === "") {
    const name = NAMES[TAG_OF[st]];
    f = "<";
    for (let k = 0; k < LETTERS[st]; k++) {
      f += (caps >> k) & 1 ? name[k].toUpperCase() : name[k];
    }
    if (st >= OPENED) f += ">";
    FRAGMENTS[key] = f;
  }
  return f;
}

/**
 * Incremental scanner: feed text deltas as they arrive and take the
 * segments that became final, then call {@link TurnTextScanner.end} once at
 * the end of the turn. Two ways to feed it, mixable:
 *
 * - {@link TurnTextScanner.push}: one call per delta, returning what that
 *   delta made final at once (a relay forwarding each delta);
 * - {@link TurnTextScanner.write} per delta and {@link TurnTextScanner.drain}
 *   when the caller is ready to show output (once per animation frame, say):
 *   `write` returns nothing and allocates no output, and the plain text
 *   written between two drains comes out as one `text` segment.
 *
 * Text is released as soon as it is safe: the scanner holds back ONLY a
 * trailing fragment that could still become an opening tag (`<`, `<a`,
 * `<AS`, `<repo`, … at most 7 characters), a trailing high surrogate (so an
 * emoji split across deltas is never shown in halves), or an open block
 * awaiting its close tag, so a UI never shows `<ask>{"que` to a person. A
 * block is emitted whole once its close tag arrives. An open block is held
 * for at most {@link MAX_BLOCK_BODY_LENGTH} + 9 characters: beyond that it
 * becomes an `invalid` segment (reason `too-large`) and scanning continues,
 * so memory is bounded whatever the input (besides output written and not
 * yet drained, which is the caller's to take).
 *
 * Work is linear in the input and small per delta: every character is read
 * a bounded number of times; a tag split across deltas is matched on from
 * where it stopped, and a held-back fragment is kept as two numbers (how
 * much of which tag matched, which letters were upper case), never joined
 * to the next delta and scanned again; no regular expression runs; a delta
 * allocates little beyond its output (an open block's body is appended to
 * one string, moved aside every 4,096 characters).
 *
 * For ANY chunking, `normalizeSegments(all output)` deep-equals
 * `splitTurnText(whole text)` (property-tested). Tag rules are those of
 * {@link splitTurnText}.
 *
 * After `end()` the scanner is finished: `write` ignores input and `push`,
 * `drain` and `end` return `[]`. Never throws.
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
 *
 * @example Write every delta, drain once per frame
 * ```ts
 * import { TurnTextScanner } from "@papercusp/chat-protocol/blocks";
 * const s = new TurnTextScanner();
 * for (const delta of ["Hel", "lo ", "<a", "sk>"]) s.write(delta);
 * s.drain(); // → [{ kind: "text", text: "Hello " }] (the open <ask> is held)
 * s.end();   // → [{ kind: "invalid", tag: "ask", raw: "<ask>", reason: "unclosed" }]
 * ```
 */
export class TurnTextScanner {
  readonly #maxBody: number;
  #ended = false;

  // Text mode.
  /** The candidate opening tag at the end of the input: its state (0: none; see NEXT). */
  #st = 0;
  /** Which of the candidate's letters are upper case (bit k: letter k). */
  #caps = 0;
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
   * Output not yet taken: the newest text (adjacent text is merged here, so
   * a drain never returns two text segments in a row) and the segments
   * before it (`null` until there is one).
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
   * ignored. The same as {@link TurnTextScanner.write} then
   * {@link TurnTextScanner.drain} (so output written before and not yet
   * drained comes first).
   */
  push(delta: string): TurnTextSegment[] {
    this.write(delta);
    return this.drain();
  }

  /**
   * Feed the next text delta and keep what it makes final for the next
   * {@link TurnTextScanner.drain} (or `push`, or `end`). Returns nothing and
   * makes no output array or segment: text is appended to one pending
   * string (V8 joins the pieces lazily), an open block's body likewise, and
   * a block that closes is parsed here. Non-string input, and input after
   * `end()`, is ignored. Never throws. What `write` keeps for the next drain
   * is the caller's to take: memory held by the scanner itself stays bounded
   * (see the class doc), pending output grows with what is written.
   */
  write(delta: string): void {
    if (this.#ended || typeof delta !== "string") return;
    const n = delta.length;
    let i = 0;
    if (this.#tag < 0) {
      if (n === 0) return;
      let j = 0;
      if (this.#st === 0 && this.#lead === "") {
        // Most deltas of a real stream: plain text, nothing held back.
        j = findLt(delta, 0);
        if (j === -1) {
          if (!isHighSurrogate(delta.charCodeAt(n - 1))) {
            this.#text += delta;
            return;
          }
          j = n;
        }
      }
      if ((i = this.#textMode(delta, 0, j)) === n) return;
    } else {
      if (
        this.#closeMatched === 0 && findLt(delta, 0) === -1 &&
        this.#bodyLen + n < this.#maxBody + CLOSES[this.#tag].length
      ) {
        // Inside a block, a delta with no "<" is body, and the block stays open.
        this.#keep(delta, 0, n);
        return;
      }
      if ((i = this.#blockStep(delta, 0, false)) === n) return; // else the block ended at `i`
    }
    this.#feed(delta, i);
  }

  /**
   * The segments that became final since the last drain (or `push`), in
   * order, adjacent text merged: all plain text written in between is one
   * `text` segment. `[]` when there is none. What is held back (a possible
   * tag start, a trailing high surrogate, an open block) stays held. The
   * array is fresh on every call (the caller may keep or change it). After
   * `end()`, `[]`. Never throws.
   */
  drain(): TurnTextSegment[] {
    const text = this.#text;
    const out = this.#out;
    if (out === null) {
      if (text === "") return [];
      this.#text = "";
      return [{ kind: "text", text }];
    }
    this.#out = null;
    if (text !== "") {
      this.#text = "";
      out.push({ kind: "text", text });
    }
    return out;
  }

  /**
   * Finish the turn: returns the remaining segments (all output not yet
   * drained). A held-back tag fragment becomes text; an open block's
   * opening tag becomes `invalid` (`unclosed`) and the text held after it is
   * scanned again, so blocks that followed a stray opening tag are still
   * found.
   */
  end(): TurnTextSegment[] {
    if (this.#ended) return [];
    this.#ended = true;
    this.#feed("", 0, true);
    // What is still held is text now.
    if (this.#st !== 0) {
      this.#text += fragment(this.#st, this.#caps);
      this.#st = 0;
    }
    if (this.#lead !== "") {
      this.#text += this.#lead;
      this.#lead = "";
    }
    return this.drain();
  }

  /** Scan `s` from `s[i]` (the next delta, or `""` with `final` at the end of the turn). */
  #feed(s: string, i: number, final = false): void {
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
        if (i >= s.length) return;
        i = this.#textMode(s, i, i);
      }
    }
  }

  /**
   * Text mode from `s[i]`: adds text to the output up to the first opening
   * tag and opens it (returns the index after it), or adds all of `s` except
   * a trailing fragment that may still become a tag (kept as `#st` and
   * `#caps`) or a trailing high surrogate (`#lead`), and returns `s.length`.
   *
   * No "<" is in `s[i, k)` when there is no candidate (the caller looked).
   * One pass over the characters, matching on a candidate that began in an
   * earlier delta from where it stopped (its text is {@link fragment}, never
   * joined to `s`), hopping from "<" to "<" where there is no candidate.
   * Where a whole tag would fit in `s`, the letter after a "<" and the `>`
   * it implies are read first.
   */
  #textMode(s: string, i: number, k: number): number {
    if (this.#lead !== "") {
      this.#text += this.#lead;
      this.#lead = "";
    }
    const n = s.length;
    let st = this.#st; // the candidate's state (0: none)
    let caps = this.#caps; // its upper-case letters
    let start = st === 0 ? i : -1; // where it starts in `s` (-1: in an earlier delta)
    let from = i; // text of `s` not yet added starts here
    while (k < n) {
      if (st === 0) {
        const j = findLt(s, k);
        if (j === -1) break;
        k = j + 1;
        if (cannotOpen(s, j)) continue;
        start = j;
        st = 1;
        caps = 0;
        continue;
      }
      const c = s.charCodeAt(k);
      const next = c < 128 ? NEXT[(st << 7) | c] : 0;
      if (next >= 2) {
        if (next < OPENED) {
          if ((c & 0x20) === 0) caps |= 1 << (LETTERS[next] - 1); // an upper-case letter
          st = next;
          k++;
          continue;
        }
        // The opening tag is complete.
        if (start > from) this.#text += s.slice(from, start);
        this.#st = 0;
        this.#open(next - OPENED, fragment(next, caps));
        return k + 1;
      }
      // A mismatch at `s[k]`: the candidate is text.
      if (start < 0) {
        // It began in an earlier delta: its text is "<" and the letters
        // matched, made from the state (no slicing, no joining).
        this.#text += fragment(st, caps);
        from = k;
      }
      start = k; // a "<" starts the next candidate (else any index will do)
      st = next === 1 && !cannotOpen(s, k) ? 1 : 0;
      caps = 0;
      k++;
    }
    if (st !== 0) {
      // `s` ends inside a candidate: hold it back.
      if (start > from) this.#text += s.slice(from, start);
      this.#st = st;
      this.#caps = caps;
      return n;
    }
    this.#st = 0;
    // Never split a surrogate pair across deltas: hold back a trailing high
    // surrogate so a UI never shows half an emoji.
    if (isHighSurrogate(s.charCodeAt(n - 1))) {
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
   * Consume block body from `s` at `i`: one pass matching the close tag on
   * from where the previous delta left it. Returns the index where text mode
   * resumes (the block ended: valid, invalid or too large), `s.length` when
   * all of `s` is body (the block is still open), or -1 at the end of the
   * turn for a block that never closed.
   */
  #blockStep(s: string, i: number, final: boolean): number {
    const cl = CLOSES[this.#tag].length;
    const n = s.length;
    // Only the first maxBody + cl body characters may hold the close tag.
    const room = this.#maxBody + cl - this.#bodyLen;
    const end = n - i <= room ? n : i + room;
    const row = this.#tag << 4;
    let m = this.#closeMatched;
    let k = i;
    while (k < end) {
      if (m === 0) {
        const j = findLt(s, k);
        if (j === -1 || j >= end) break;
        m = 1;
        k = j + 1;
        continue;
      }
      const c = s.charCodeAt(k++);
      m = c < 128 ? CLOSE_NEXT[((row | m) << 7) | c] : 0;
      if (m === cl) {
        // The close tag ends at `k` (it may have begun in earlier deltas).
        const whole = this.#bodyLen === 0 ? s.slice(i, k) : this.#body() + s.slice(i, k);
        this.#finish(whole.slice(0, whole.length - cl), whole.slice(whole.length - cl));
        return k;
      }
    }
    this.#keep(s, i, end);
    this.#closeMatched = m;
    if (this.#bodyLen >= this.#maxBody + cl) {
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
    return final ? -1 : n;
  }

  /** Append `s[i, end)` to the body. */
  #keep(s: string, i: number, end: number): void {
    if (end === i) return;
    this.#acc += i === 0 && end === s.length ? s : s.slice(i, end);
    this.#bodyLen += end - i;
    if (this.#acc.length >= CHUNK) {
      this.#chunks.push(this.#acc);
      this.#acc = "";
    }
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
 * stream with a {@link BlockArgumentError} (`invalid-chunk`; pipe bytes
 * through `TextDecoderStream` first).
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
          throw new BlockArgumentError(
            "invalid-chunk",
            `TurnTextScannerStream takes string chunks, got ${
              chunk === null ? "null" : typeof chunk
            }; decode bytes with TextDecoderStream first`,
          );
        }
        scanner.write(chunk);
        for (const seg of scanner.drain()) controller.enqueue(seg);
      },
      flush(controller) {
        for (const seg of scanner.end()) controller.enqueue(seg);
      },
    });
  }
}
