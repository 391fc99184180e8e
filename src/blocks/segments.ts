/**
 * The segment shapes produced by {@link splitTurnText} and the streaming
 * {@link TurnTextScanner}.
 *
 * @module
 */
import type { AskBlock, ReportBlock } from "./types.ts";

/** Why a tagged block was not turned into a structured segment. */
export type InvalidBlockReason =
  /**
   * The text ended before a close tag of that name (and within the size
   * bound): `raw` is the opening tag alone, and the text after it is scanned
   * as usual.
   */
  | "unclosed"
  /** No close tag within {@link MAX_BLOCK_BODY_LENGTH} characters of the body. */
  | "too-large"
  /** The body is empty or whitespace only. */
  | "empty-body"
  /** The trimmed body is not JSON. */
  | "malformed-json"
  /** The JSON is not a valid block ({@link parseAskBlock} / {@link parseReportBlock} gave `null`). */
  | "invalid-block";

/** Plain text between blocks. */
export interface TextSegment {
  /** Segment discriminant. */
  readonly kind: "text";
  /** The text, exactly as in the input. */
  readonly text: string;
}

/** A valid `<report>` block; `raw` is the exact source text, tags included. */
export interface ReportSegment {
  /** Segment discriminant. */
  readonly kind: "report";
  /** The normalised block. */
  readonly block: ReportBlock;
  /** The exact source text this segment covers. */
  readonly raw: string;
}

/** A valid `<ask>` block; `raw` is the exact source text, tags included. */
export interface AskSegment {
  /** Segment discriminant. */
  readonly kind: "ask";
  /** The normalised block. */
  readonly block: AskBlock;
  /** The exact source text this segment covers. */
  readonly raw: string;
}

/**
 * A tag that could not be read. `raw` is the source text it covers: the whole
 * `<tag>…</tag>` for `empty-body` / `malformed-json` / `invalid-block`; the
 * opening tag alone for `unclosed` (what follows is text and blocks again,
 * just as {@link parseReportTag} still finds a `<report>` after a stray
 * `<ask>`); the opening tag plus
 * the first `MAX_BLOCK_BODY_LENGTH + closeTag.length` body characters for
 * `too-large` (scanning resumes right after). Nothing of the input is lost:
 * concatenating every segment's `text` / `raw` gives the input back.
 */
export interface InvalidSegment {
  /** Segment discriminant. */
  readonly kind: "invalid";
  /** Which tag was opened. */
  readonly tag: "ask" | "report";
  /** The exact source text this segment covers. */
  readonly raw: string;
  /** Why the block was not readable. */
  readonly reason: InvalidBlockReason;
}

/**
 * One piece of an assistant turn's text. All fields are JSON values, so a
 * segment list can be printed or stored as is.
 */
export type TurnTextSegment = TextSegment | ReportSegment | AskSegment | InvalidSegment;

/**
 * The normal form of a segment list: adjacent `text` segments merged and
 * empty `text` segments dropped. {@link splitTurnText} always returns this
 * form; the streaming scanner may split text across calls, and
 * `normalizeSegments(all scanner output)` equals `splitTurnText(whole text)`
 * for any chunking. Returns a new array; segments are not mutated.
 *
 * Never throws: input that is not an array (or whose elements cannot be
 * read) gives `[]`; an element that is not a readable text segment (another
 * kind, or an object whose `kind` or `text` cannot be read or is not a
 * string) is passed through unchanged, in place. Each element and field is
 * read once.
 *
 * @example
 * ```ts
 * import { normalizeSegments } from "@papercusp/chat-protocol/blocks";
 * normalizeSegments([{ kind: "text", text: "a" }, { kind: "text", text: "" }, { kind: "text", text: "b" }]);
 * // → [{ kind: "text", text: "ab" }]
 * ```
 */
export function normalizeSegments(segments: readonly TurnTextSegment[]): TurnTextSegment[] {
  const items = elementsOf(segments) ?? [];
  const out: TurnTextSegment[] = [];
  let pending: string[] = [];
  const flush = () => {
    if (pending.length > 0) {
      const text = pending.join("");
      if (text !== "") out.push({ kind: "text", text });
      pending = [];
    }
  };
  for (const seg of items) {
    const text = textOf(seg);
    if (text !== null) pending.push(text);
    else {
      flush();
      out.push(seg as TurnTextSegment);
    }
  }
  flush();
  return out;
}

/**
 * Concatenate the source text of segments (`text` or `raw`). For the output
 * of {@link splitTurnText} this is the original text. Never throws: `null`
 * when `segments` is not a readable array or an element has no readable
 * string `text` (a `text` segment) or `raw` (any other kind). Each element
 * and field is read once.
 *
 * @example
 * ```ts
 * import { segmentsToText, splitTurnText } from "@papercusp/chat-protocol/blocks";
 * const text = 'Hi <ask>{"question":"Ok?"}</ask>!';
 * segmentsToText(splitTurnText(text)) === text; // → true
 * ```
 */
export function segmentsToText(segments: readonly TurnTextSegment[]): string | null {
  const items = elementsOf(segments);
  if (items === null) return null;
  let s = "";
  for (const seg of items) {
    const kind = field(seg, "kind");
    const text = field(seg, kind === "text" ? "text" : "raw");
    if (typeof text !== "string") return null;
    s += text;
  }
  return s;
}

/**
 * The elements of an untrusted array, each read once (a copy), or `null`
 * when `v` is not an array or its length or an element cannot be read.
 */
function elementsOf(v: unknown): unknown[] | null {
  try {
    if (!Array.isArray(v)) return null;
    const n = v.length;
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) out[i] = v[i];
    return out;
  } catch {
    return null; // a revoked proxy, a throwing trap or getter
  }
}

/** The field `key` of `seg`, read once, or `undefined` when it cannot be read. */
function field(seg: unknown, key: string): unknown {
  if (typeof seg !== "object" || seg === null) return undefined;
  try {
    return (seg as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/** `seg.text` for a text segment with a string `text`, else `null`. */
function textOf(seg: unknown): string | null {
  if (field(seg, "kind") !== "text") return null;
  const text = field(seg, "text");
  return typeof text === "string" ? text : null;
}
