/**
 * Incremental (streaming) `<ask>` / `<report>` scanner for assistant turn
 * text.
 *
 * @module
 */
import { parseAskBlock } from "./ask_block.ts";
import { parseReportBlock } from "./report_block.ts";
import { MAX_BLOCK_BODY_LENGTH } from "./limits.ts";
import {
  type BlockTagName,
  CLOSE_TAG,
  findTag,
  matchAt,
  NO_MATCH,
  OPEN_TAG,
  PARTIAL,
} from "./_tag_match.ts";
import { lowerAscii } from "./_util.ts";
import type { InvalidBlockReason, TurnTextSegment } from "./segments.ts";

/** Options of {@link TurnTextScanner} and {@link splitTurnText}. */
export interface TurnTextScannerOptions {
  /**
   * Size bound of a block body in UTF-16 code units: default and maximum
   * {@link MAX_BLOCK_BODY_LENGTH}.
   */
  readonly maxBlockBodyLength?: number;
}

function clampBound(n: number | undefined): number {
  if (typeof n !== "number" || Number.isNaN(n)) return MAX_BLOCK_BODY_LENGTH;
  return Math.max(0, Math.min(MAX_BLOCK_BODY_LENGTH, Math.floor(n)));
}

interface OpenBlock {
  readonly name: BlockTagName;
  /** The opening tag as written (original case). */
  readonly openRaw: string;
  /** Body chunks received so far (joined only once, when the block ends). */
  readonly parts: string[];
  /** Total length of `parts`. */
  len: number;
  /** Last `closeTag.length - 1` body characters, to find a close tag split across chunks. */
  tail: string;
}

/** Returns the tag name at `s[j] === "<"`, `PARTIAL` if undecidable yet, or `NO_MATCH`. */
function matchOpen(s: string, j: number): BlockTagName | typeof PARTIAL | typeof NO_MATCH {
  if (j + 1 >= s.length) return PARTIAL;
  const c = lowerAscii(s.charCodeAt(j + 1));
  const name: BlockTagName | null = c === 0x61 ? "ask" : c === 0x72 ? "report" : null;
  if (name === null) return NO_MATCH;
  const m = matchAt(s, j, OPEN_TAG[name]);
  return m === NO_MATCH ? NO_MATCH : m === PARTIAL ? PARTIAL : name;
}

/**
 * Incremental scanner: feed text deltas with {@link TurnTextScanner.push} as
 * they arrive, call {@link TurnTextScanner.end} once at the end of the turn.
 *
 * Text is emitted as soon as it is safe: the scanner holds back ONLY a
 * trailing fragment that could still become an opening tag (`<`, `<a`,
 * `<AS`, `<repo`, … at most 7 characters), a trailing high surrogate (so an
 * emoji split across deltas is never shown in halves), or an open block
 * awaiting its close tag, so a UI never shows `<ask>{"que` to a person. A block is emitted
 * whole once its close tag arrives. An open block is held for at most
 * {@link MAX_BLOCK_BODY_LENGTH} + 9 characters: beyond that it becomes an
 * `invalid` segment (reason `too-large`) and scanning continues, so memory is
 * bounded whatever the input. Work is linear in the input (each delta is
 * scanned once with `indexOf`; no regular expressions).
 *
 * For ANY chunking, `normalizeSegments(all pushes + end)` deep-equals
 * `splitTurnText(whole text)` (property-tested). Tag rules are those of
 * {@link splitTurnText}.
 *
 * After `end()` the scanner is finished: further `push`/`end` calls return
 * `[]`.
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
  #carry = "";
  #block: OpenBlock | null = null;
  #ended = false;
  /**
   * Tag names found unclosed at the end of the turn: no close tag of that
   * name follows, so each later opening tag of that name is unclosed too.
   */
  readonly #unclosed = new Set<BlockTagName>();
  /** The body of an unclosed block, scanned again as text by `end()`. */
  #rescan = "";
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
   * block.
   */
  constructor(options: TurnTextScannerOptions = {}) {
    this.#maxBody = clampBound(options.maxBlockBodyLength);
  }

  /**
   * Feed the next text delta; returns the segments that became final, in
   * order (adjacent text merged within this call). Non-string input is
   * ignored.
   */
  push(delta: string): TurnTextSegment[] {
    if (this.#ended || typeof delta !== "string" || delta === "") return [];
    let firstLt = -1;
    if (this.#block === null && this.#carry === "") {
      firstLt = delta.indexOf("<");
      // Fast path (most deltas of a real stream): nothing held back and no
      // "<" that could start a tag (each is followed, inside the delta, by a
      // character other than a/A/r/R), so the whole delta is final text —
      // unless it ends with a high surrogate, which the general path holds
      // back.
      let j = firstLt;
      const n = delta.length;
      while (j !== -1 && j + 1 < n) {
        const c = delta.charCodeAt(j + 1);
        if (c === 0x3c) {
          j++; // a "<<<" run: step without an indexOf call per "<"
          continue;
        }
        const next = c | 0x20;
        if (next === 0x61 || next === 0x72) break;
        j = delta.indexOf("<", j + 2);
      }
      if (j === -1) {
        const last = delta.charCodeAt(n - 1);
        if (last < 0xd800 || last > 0xdbff) return [{ kind: "text", text: delta }];
      }
      firstLt = j;
    }
    this.#feed(delta, false, firstLt);
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
    this.#feed("", true);
    this.#ended = true;
    return this.#take();
  }

  /**
   * Scan `delta` (after any held-back fragment). `firstLt`, when > 0, is the
   * index of the first "<" in `delta` that could start a tag (found by
   * `push`, so the text before it is not searched twice); any other value
   * means "unknown".
   */
  #feed(delta: string, final: boolean, firstLt = -1): void {
    let s = delta;
    let i = 0;
    if (this.#block === null && this.#carry !== "") {
      s = this.#carry + delta;
      this.#carry = "";
      firstLt = -1;
    }
    for (;;) {
      if (this.#block !== null) {
        i = this.#blockStep(s, i, final);
        if (i === RESCAN) {
          // The turn ended inside a block that never closed: only its opening
          // tag is invalid; what followed it is text and blocks again.
          s = this.#rescan;
          this.#rescan = "";
          i = 0;
        } else if (i < 0) return;
      }
      // Text mode.
      const textStart = i;
      for (;;) {
        let j = firstLt > i ? firstLt : s.indexOf("<", i);
        firstLt = -1;
        // A run of "<<<…": only the last "<" of the run can open a tag; skip
        // the run with a plain loop instead of one indexOf call per "<".
        while (j !== -1 && s.charCodeAt(j + 1) === 0x3c) j++;
        if (j === -1) {
          // Never split a surrogate pair across deltas: hold back a trailing
          // high surrogate so a UI never shows half an emoji.
          const last = s.charCodeAt(s.length - 1);
          if (!final && last >= 0xd800 && last <= 0xdbff && s.length > textStart) {
            this.#text += s.slice(textStart, s.length - 1);
            this.#carry = s.slice(s.length - 1);
            return;
          }
          this.#text += s.slice(textStart);
          return;
        }
        // Fast path: '<' followed by anything but a/A/r/R is never a tag.
        const next = s.charCodeAt(j + 1) | 0x20;
        if (next !== 0x61 && next !== 0x72 && j + 1 < s.length) {
          i = j + 1;
          continue;
        }
        const m = matchOpen(s, j);
        if (m === NO_MATCH || (m === PARTIAL && final)) {
          i = j + 1;
          continue;
        }
        this.#text += s.slice(textStart, j);
        if (m === PARTIAL) {
          this.#carry = s.slice(j);
          return;
        }
        const openLen = OPEN_TAG[m].length;
        if (this.#unclosed.has(m)) {
          this.#emit({ kind: "invalid", tag: m, raw: s.slice(j, j + openLen), reason: "unclosed" });
          i = j + openLen;
          break;
        }
        this.#block = {
          name: m,
          openRaw: s.slice(j, j + openLen),
          parts: [],
          len: 0,
          tail: "",
        };
        i = j + openLen;
        break;
      }
    }
  }

  /**
   * Consume block body from `s` at `i`. Returns the index where text mode
   * resumes, -1 when all of `s` was consumed (block still open), or
   * {@link RESCAN} at the end of the turn for a block that never closed.
   */
  #blockStep(s: string, i: number, final: boolean): number {
    const b = this.#block!;
    const close = CLOSE_TAG[b.name];
    const cl = close.length;
    const need = this.#maxBody + cl;
    const n = Math.min(s.length - i, need - b.len);
    // 1. A close tag that started in the previous chunk(s).
    if (n > 0 && mayStartCloseTag(b.tail)) {
      const u = b.tail + s.slice(i, i + Math.min(n, cl - 1));
      const k = findTag(u, close, 0, b.tail.length - 1);
      if (k !== -1) {
        const bodyLen = b.len - b.tail.length + k;
        const body = b.parts.join("").slice(0, bodyLen);
        this.#finish(body, u.slice(k, k + cl));
        return i + (k + cl - b.tail.length);
      }
    }
    // 2. A close tag starting in this chunk, fully inside the size bound.
    const k = findTag(s, close, i, i + n - cl);
    if (k !== -1) {
      const piece = s.slice(i, k);
      const body = b.parts.length === 0 ? piece : b.parts.join("") + piece;
      this.#finish(body, s.slice(k, k + cl));
      return k + cl;
    }
    // 3. No close yet: keep the body (bounded by `need`).
    if (n > 0) {
      const piece = s.slice(i, i + n);
      b.parts.push(piece);
      b.len += n;
      b.tail = piece.length >= cl - 1
        ? piece.slice(piece.length - (cl - 1))
        : (b.tail + piece).slice(-(cl - 1));
    }
    if (b.len >= need) {
      this.#invalid("too-large", b.openRaw + b.parts.join(""));
      return i + n;
    }
    if (final) {
      this.#rescan = b.parts.join("");
      this.#unclosed.add(b.name);
      this.#invalid("unclosed", b.openRaw);
      return RESCAN;
    }
    return -1;
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

  #invalid(reason: InvalidBlockReason, raw: string): void {
    const tag = this.#block!.name;
    this.#block = null;
    this.#emit({ kind: "invalid", tag, raw, reason });
  }

  #finish(body: string, closeRaw: string): void {
    const b = this.#block!;
    const raw = b.openRaw + body + closeRaw;
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
    if (b.name === "ask") {
      const block = parseAskBlock(json);
      if (block === null) return this.#invalid("invalid-block", raw);
      this.#block = null;
      this.#emit({ kind: "ask", block, raw });
    } else {
      const block = parseReportBlock(json);
      if (block === null) return this.#invalid("invalid-block", raw);
      this.#block = null;
      this.#emit({ kind: "report", block, raw });
    }
  }
}

/** {@link TurnTextScanner}'s block step result: scan the unclosed body again as text. */
const RESCAN = -2;

/** Whether a close tag (`</…`) could start inside `tail` and continue in the next chunk. */
function mayStartCloseTag(tail: string): boolean {
  for (let p = tail.indexOf("<"); p !== -1; p = tail.indexOf("<", p + 1)) {
    if (p === tail.length - 1 || tail.charCodeAt(p + 1) === 0x2f) return true;
  }
  return false;
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
