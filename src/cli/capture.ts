/**
 * Reading a capture into frames that remember their line numbers. SSE is
 * parsed by the package's own {@link SseParser}; this module only feeds it
 * one source line at a time so each dispatched message can be tied to the
 * lines it came from.
 *
 * @module
 */
import { SseParser } from "../sse/parser.ts";
import { SseLimitError } from "../sse/errors.ts";
import { describeThrown, quoteClipped } from "../_internal/describe.ts";
import { parseData } from "./detect.ts";
import { type JsonArrayError, readJsonArray } from "./json_array.ts";
import type { InspectProblem } from "./report.ts";

/** One frame of a capture: an SSE message or an NDJSON line. */
export interface CapturedFrame {
  /** 1-based line of the frame's first line. */
  line: number;
  /** SSE `id:` of the frame (SSE only). */
  id?: string;
  /** SSE `event:` name (SSE only; absent for unnamed events). */
  event?: string;
  /** The `data:` payload or the NDJSON line: JSON text (or `[DONE]`). */
  data: string;
}

/** A capture split into frames. */
export interface Capture {
  format: "sse" | "ndjson" | "json-array";
  frames: CapturedFrame[];
  /** SSE comment lines (`: …`), e.g. `: heartbeat`. */
  comments: number;
  /** Problems found while reading (an SSE event over the parser's bounds), each on its line. */
  problems: InspectProblem[];
  /**
   * Line where the capture's last event starts when it has a `data:` line but
   * never got its blank line (SSE discards it).
   */
  unterminatedAt?: number;
  /**
   * NDJSON only: the line number of a last line that has no line terminator
   * and is not complete JSON, i.e. a capture cut off mid-line. That line is
   * not a frame.
   */
  truncatedAt?: number;
  /** The text starts with `[` but is not a JSON array of frames: where and why (it was read as NDJSON). */
  arrayError?: JsonArrayError;
}

/** Split `text` into lines, keeping each line's terminator (CRLF, LF or CR). */
export function* linesOf(text: string): Generator<string> {
  let pos = 0;
  const n = text.length;
  while (pos < n) {
    let i = pos;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 10 || c === 13) break;
      i++;
    }
    if (i >= n) {
      yield text.slice(pos);
      return;
    }
    const end = text.charCodeAt(i) === 13 && text.charCodeAt(i + 1) === 10 ? i + 2 : i + 1;
    yield text.slice(pos, end);
    pos = end;
  }
}

/** The first non-blank character of `text` after a BOM (`""` when there is none). */
function firstChar(text: string): string {
  const m = /\S/.exec(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  return m === null ? "" : m[0];
}

/**
 * Read a capture in whichever container it is: a JSON array of frames when
 * it starts with `[` and is one; NDJSON when it starts with `{` or `[` (an
 * array that does not parse is read as NDJSON, with
 * {@link Capture.arrayError} saying why it was not an array); else SSE.
 */
export function readCapture(text: string): Capture {
  const first = firstChar(text);
  if (first === "[") {
    const array = readJsonArray(text);
    if (array.ok) return { format: "json-array", frames: array.frames, comments: 0, problems: [] };
    return { ...readNdjson(text), arrayError: array.error };
  }
  return first === "{" ? readNdjson(text) : readSse(text);
}

/**
 * Read SSE text into frames with line numbers, using {@link SseParser}. A
 * line or event over the parser's bounds is an `sse-limit` problem on its
 * line: that event is skipped (up to the next blank line) and reading goes
 * on with a fresh parser, so one oversized event does not hide the rest.
 */
export function readSse(text: string): Capture {
  const frames: CapturedFrame[] = [];
  const problems: InspectProblem[] = [];
  let comments = 0;
  let lineNo = 0;
  let blockStart = 0;
  let blockHasData = false;
  let skipping = false;
  const parser = new SseParser({
    onEvent: (m) => {
      const f: CapturedFrame = { line: blockStart, data: m.data };
      if (m.id !== undefined) f.id = m.id;
      if (m.event !== undefined) f.event = m.event;
      frames.push(f);
    },
    onComment: () => comments++,
  });
  const capture: Capture = { format: "sse", frames, comments, problems };
  for (const line of linesOf(text)) {
    lineNo++;
    const bare = lineNo === 1 && line.charCodeAt(0) === 0xfeff ? line.slice(1) : line;
    const blank = bare === "\n" || bare === "\r\n" || bare === "\r" || bare === "";
    if (skipping) {
      if (blank) skipping = false;
      continue;
    }
    // A frame starts at its first field line: a comment (`: …`) is not part of any frame.
    if (!blank && blockStart === 0 && !bare.startsWith(":")) blockStart = lineNo;
    // Only a block with a `data` field is dispatched (WHATWG: the data buffer is non-empty).
    if (/^data(?:[:\r\n]|$)/.test(bare)) blockHasData = true;
    if (!blank && !bare.startsWith(":")) {
      const dropped = unknownFieldProblem(lineNo, bare);
      if (dropped !== null) problems.push(dropped);
    }
    try {
      parser.feed(line);
    } catch (e) {
      const why = e instanceof SseLimitError ? e.message : describeThrown(e);
      problems.push({
        line: lineNo,
        severity: "error",
        code: "sse-limit",
        message: `${why}: a client using this package's SSE parser stops reading the stream ` +
          "here; inspect skips this event and reads on",
      });
      parser.end();
      skipping = !blank;
      blockStart = 0;
      blockHasData = false;
      continue;
    }
    if (blank) {
      blockStart = 0;
      blockHasData = false;
    }
  }
  if (!skipping && blockStart !== 0 && blockHasData) capture.unterminatedAt = blockStart;
  parser.end();
  capture.comments = comments;
  return capture;
}

const SSE_FIELDS = new Set(["data", "event", "id", "retry"]);

/**
 * A `dropped-line` warning for an SSE line whose field is none of `data`,
 * `event`, `id`, `retry`: an SSE client ignores the whole line, so a typo
 * (`Data:`, `date:`) or a bare JSON line pasted into the stream loses its
 * content without a trace. `null` for a known field.
 */
function unknownFieldProblem(line: number, text: string): InspectProblem | null {
  const bare = text.replace(/\r?\n$|\r$/, "");
  const colon = bare.indexOf(":");
  const name = colon === -1 ? bare : bare.slice(0, colon);
  if (SSE_FIELDS.has(name)) return null;
  const lower = name.trim().toLowerCase();
  const why = /^[[{]/.test(bare.trimStart())
    ? "a bare JSON line inside an SSE stream (an NDJSON line?): without `data: ` before it"
    : SSE_FIELDS.has(lower)
    ? `the field ${quoteClipped(name, 40)} is not \`${lower}\` (field names are case- and ` +
      "space-sensitive)"
    : `the field ${quoteClipped(name, 40)} is not one SSE knows (data, event, id, retry)`;
  return {
    line,
    severity: "warning",
    code: "dropped-line",
    message: `${why}; an SSE client ignores the whole line and so does inspect`,
  };
}

/**
 * Read NDJSON text: one frame per non-blank line. A last line without a line
 * terminator that is not complete JSON is a capture cut off mid-line: it is
 * reported as {@link Capture.truncatedAt}, not as a frame.
 */
export function readNdjson(text: string): Capture {
  const frames: CapturedFrame[] = [];
  const capture: Capture = { format: "ndjson", frames, comments: 0, problems: [] };
  let lineNo = 0;
  for (const raw of linesOf(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)) {
    lineNo++;
    const line = raw.replace(/\r?\n$|\r$/, "");
    if (line.trim() === "") continue;
    if (line.length === raw.length && parseData(line) === undefined) {
      capture.truncatedAt = lineNo; // only the last line can lack its terminator
      continue;
    }
    frames.push({ line: lineNo, data: line });
  }
  return capture;
}
