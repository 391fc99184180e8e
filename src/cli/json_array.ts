/**
 * Reading captures saved as JSON rather than as a stream: a top-level JSON
 * array of frames (what a test harness, a log exporter or `jq -s` writes),
 * and, for hints only, a sequence of pretty-printed JSON values.
 *
 * The scanner finds where each top-level value starts and ends without
 * recursion (brackets are counted, strings skipped), so every frame keeps
 * its line number and a value nested 100 000 deep costs no call stack;
 * `JSON.parse` then validates each value.
 *
 * @module
 */
import type { CapturedFrame } from "./capture.ts";
import { parseData } from "./detect.ts";
import { stringifyJson } from "./json_text.ts";

function isJsonSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** Index of the first non-whitespace character at or after `pos`. */
function skipSpace(text: string, pos: number): number {
  while (pos < text.length && isJsonSpace(text.charCodeAt(pos))) pos++;
  return pos;
}

/**
 * End (exclusive) of the JSON value starting at `pos`, by bracket counting:
 * it does not validate the value, `JSON.parse` of the slice does. `-1` when
 * the text ends inside the value.
 */
export function scanJsonValue(text: string, pos: number): number {
  const n = text.length;
  let depth = 0;
  let i = pos;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) { // a string: skip to its closing quote
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i += 2;
        else if (d === 0x22) break;
        else i++;
      }
      if (i >= n) return -1;
      i++;
      if (depth === 0) return i;
      continue;
    }
    if (c === 0x5b || c === 0x7b) depth++;
    else if (c === 0x5d || c === 0x7d) {
      if (depth === 0) return i; // a scalar ends before its container's closing bracket
      depth--;
      if (depth === 0) return i + 1;
    } else if (depth === 0 && (c === 0x2c || isJsonSpace(c))) return i;
    i++;
  }
  return depth === 0 && i > pos ? i : -1;
}

/** Counts lines while moving forward through a text (CRLF, LF and CR each end a line). */
class LineCounter {
  line = 1;
  #pos = 0;
  readonly #text: string;
  constructor(text: string) {
    this.#text = text;
  }
  /** The 1-based line of `pos` (positions must not go backwards). */
  at(pos: number): number {
    const t = this.#text;
    for (let i = this.#pos; i < pos; i++) {
      const c = t.charCodeAt(i);
      if (c === 0x0a) this.line++;
      else if (c === 0x0d && t.charCodeAt(i + 1) !== 0x0a) this.line++;
    }
    this.#pos = Math.max(this.#pos, pos);
    return this.line;
  }
}

/** Why a text that starts with `[` is not a JSON array of frames, and where. */
export interface JsonArrayError {
  /** 1-based line of the problem. */
  line: number;
  /** What is wrong. */
  message: string;
}

/** Field names of an SSE-shaped element (`{"event":"delta","data":{…}}`). */
const SSE_RECORD_KEYS = new Set(["id", "event", "data", "retry"]);

/** A frame for one array element: a string is the data itself; `{event?, id?, data}` an SSE record; anything else is the frame's JSON. */
function elementFrame(line: number, slice: string, value: unknown): CapturedFrame {
  if (typeof value === "string") return { line, data: value };
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const rec = value as Record<string, unknown>;
    const keys = Object.keys(rec);
    if (Object.hasOwn(rec, "data") && keys.every((k) => SSE_RECORD_KEYS.has(k))) {
      const f: CapturedFrame = {
        line,
        data: typeof rec.data === "string" ? rec.data : stringifyJson(rec.data, 0),
      };
      if (typeof rec.id === "string") f.id = rec.id;
      if (typeof rec.event === "string") f.event = rec.event;
      return f;
    }
  }
  return { line, data: slice };
}

/**
 * Read `text` (a BOM allowed) as one JSON array whose elements are frames:
 * envelopes or chunks (their JSON is the frame), strings (the frame's data,
 * e.g. `"[DONE]"`), or SSE records `{ "event"?, "id"?, "data" }`. Each frame
 * keeps the line where its element starts. An element that is not valid
 * JSON (a raw control character inside a string, say) is still a frame, its
 * text the data, so its analysis reports `invalid-json` there and the other
 * elements are read. Returns the frames, or where and why the text is not
 * such an array (its brackets and commas are wrong).
 */
export function readJsonArray(
  text: string,
): { ok: true; frames: CapturedFrame[] } | { ok: false; error: JsonArrayError } {
  const lines = new LineCounter(text);
  const fail = (pos: number, message: string) => ({
    ok: false as const,
    error: { line: lines.at(pos), message },
  });
  let pos = skipSpace(text, text.charCodeAt(0) === 0xfeff ? 1 : 0);
  if (text.charCodeAt(pos) !== 0x5b) return fail(pos, "it does not start with `[`");
  pos = skipSpace(text, pos + 1);
  const frames: CapturedFrame[] = [];
  if (text.charCodeAt(pos) === 0x5d) {
    const rest = skipSpace(text, pos + 1);
    return rest < text.length ? fail(rest, "text follows the closing `]`") : { ok: true, frames };
  }
  while (true) {
    if (pos >= text.length) return fail(pos, "the array never closes (the capture was cut off?)");
    const c = text.charCodeAt(pos);
    if (c === 0x5d) return fail(pos, "a trailing comma before `]` (not JSON)");
    const end = scanJsonValue(text, pos);
    if (end === -1) return fail(pos, "an element never ends (the capture was cut off?)");
    const slice = text.slice(pos, end);
    const parsed = parseData(slice);
    // An element that is not JSON (a raw control character in a string, a typo) is a frame
    // whose data is not JSON, reported on its own line like an NDJSON line; the rest is read on.
    frames.push(
      parsed === undefined
        ? { line: lines.at(pos), data: slice }
        : elementFrame(lines.at(pos), slice, parsed.value),
    );
    pos = skipSpace(text, end);
    const sep = text.charCodeAt(pos);
    if (sep === 0x2c) {
      pos = skipSpace(text, pos + 1);
      continue;
    }
    if (sep === 0x5d) {
      const rest = skipSpace(text, pos + 1);
      if (rest < text.length) return fail(rest, "text follows the closing `]`");
      return { ok: true, frames };
    }
    if (pos >= text.length) return fail(pos, "the array never closes (the capture was cut off?)");
    return fail(pos, "expected `,` or `]` after an element");
  }
}

/** What {@link scanJsonSequence} found: top-level values one after another. */
export interface JsonSequence {
  /** How many values. */
  count: number;
  /** How many of them span more than one line. */
  multiLine: number;
  /** The first value, parsed (for a single wrapping object). */
  first: unknown;
}

/**
 * Whether `text` is a sequence of whitespace-separated JSON values (what a
 * pretty-printer writes for several objects), each valid; `null` if not.
 * Reads at most `maxValues` values (then reports what it saw so far).
 */
export function scanJsonSequence(text: string, maxValues = 10_000): JsonSequence | null {
  const lines = new LineCounter(text);
  let pos = skipSpace(text, text.charCodeAt(0) === 0xfeff ? 1 : 0);
  const seq: JsonSequence = { count: 0, multiLine: 0, first: undefined };
  while (pos < text.length && seq.count < maxValues) {
    const end = scanJsonValue(text, pos);
    if (end === -1) return null;
    const parsed = parseData(text.slice(pos, end));
    if (parsed === undefined) return null;
    if (seq.count === 0) seq.first = parsed.value;
    seq.count++;
    const startLine = lines.at(pos);
    if (lines.at(end) > startLine) seq.multiLine++;
    pos = skipSpace(text, end);
  }
  return seq.count === 0 ? null : seq;
}
