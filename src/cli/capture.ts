/**
 * Reading a capture into frames that remember their line numbers. SSE is
 * parsed by the package's own {@link SseParser}; this module only feeds it
 * one source line at a time so each dispatched message can be tied to the
 * lines it came from.
 *
 * @module
 */
import { SseLimitError } from "../sse/errors.ts";
import { SseParser } from "../sse/parser.ts";
import { parseData } from "./detect.ts";

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
  format: "sse" | "ndjson";
  frames: CapturedFrame[];
  /** SSE comment lines (`: …`), e.g. `: heartbeat`. */
  comments: number;
  /** A whole-capture reading problem (an SSE bound exceeded), if any. */
  fatal?: { line: number; message: string };
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
}

/** Split `text` into lines, keeping each line's terminator (CRLF, LF or CR). */
function* linesOf(text: string): Generator<string> {
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

/** Guess the container format: NDJSON when the first non-blank line is a JSON object or array. */
export function detectFormat(text: string): "sse" | "ndjson" {
  for (const raw of linesOf(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)) {
    const line = raw.trim();
    if (line === "") continue;
    if (line.startsWith("{") || line.startsWith("[")) return "ndjson";
    return "sse";
  }
  return "sse";
}

/** Read SSE text into frames with line numbers, using {@link SseParser}. */
export function readSse(text: string): Capture {
  const frames: CapturedFrame[] = [];
  let comments = 0;
  let lineNo = 0;
  let blockStart = 0;
  let blockHasData = false;
  const parser = new SseParser({
    onEvent: (m) => {
      const f: CapturedFrame = { line: blockStart, data: m.data };
      if (m.id !== undefined) f.id = m.id;
      if (m.event !== undefined) f.event = m.event;
      frames.push(f);
    },
    onComment: () => comments++,
  });
  const capture: Capture = { format: "sse", frames, comments };
  for (const line of linesOf(text)) {
    lineNo++;
    const bare = lineNo === 1 && line.charCodeAt(0) === 0xfeff ? line.slice(1) : line;
    const blank = bare === "\n" || bare === "\r\n" || bare === "\r" || bare === "";
    // A frame starts at its first field line: a comment (`: …`) is not part of any frame.
    if (!blank && blockStart === 0 && !bare.startsWith(":")) blockStart = lineNo;
    // Only a block with a `data` field is dispatched (WHATWG: the data buffer is non-empty).
    if (/^data(?:[:\r\n]|$)/.test(bare)) blockHasData = true;
    try {
      parser.feed(line);
    } catch (e) {
      const message = e instanceof SseLimitError ? e.message : "the SSE parser refused the input";
      capture.fatal = { line: lineNo, message };
      break;
    }
    if (blank) {
      blockStart = 0;
      blockHasData = false;
    }
  }
  if (capture.fatal === undefined && blockStart !== 0 && blockHasData) {
    capture.unterminatedAt = blockStart;
  }
  parser.end();
  capture.comments = comments;
  return capture;
}

/**
 * Read NDJSON text: one frame per non-blank line. A last line without a line
 * terminator that is not complete JSON is a capture cut off mid-line: it is
 * reported as {@link Capture.truncatedAt}, not as a frame.
 */
export function readNdjson(text: string): Capture {
  const frames: CapturedFrame[] = [];
  const capture: Capture = { format: "ndjson", frames, comments: 0 };
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
