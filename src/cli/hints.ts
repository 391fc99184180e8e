/**
 * Hints for near-miss captures: input that is almost a format `inspect`
 * reads (a JSON array that does not parse, pretty-printed JSON instead of
 * NDJSON, frames wrapped in an object, a HAR file, SSE without blank lines,
 * UTF-16, a provider's own stream). A hint says what was seen and how to get
 * a capture inspect reads; it is not a problem and never changes the exit
 * code.
 *
 * @module
 */
import { isRecord, own } from "../_internal/guards.ts";
import { quoteClipped } from "../_internal/describe.ts";
import type { Capture } from "./capture.ts";
import { parseData } from "./detect.ts";
import { scanJsonSequence } from "./json_array.ts";
import type { InspectHint } from "./report.ts";

/** At most this many frames are looked at for per-frame hints. */
const HINT_FRAMES = 200;

/** The first own property of `obj` holding a non-empty array of objects (the likely frames). */
function wrappedArrayKey(
  obj: Record<string, unknown>,
): { key: string; length: number } | undefined {
  for (const key of Object.keys(obj)) {
    const v = own(obj, key);
    if (Array.isArray(v) && v.length > 0 && isRecord(v[0])) return { key, length: v.length };
  }
  return undefined;
}

function jqPath(key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `.${key}` : `.[${JSON.stringify(key)}]`;
}

/** Hints for a capture whose JSON-ish text did not read as frames. */
function jsonHints(text: string, capture: Capture, invalidJson: number): InspectHint[] {
  const hints: InspectHint[] = [];
  if (capture.arrayError !== undefined) {
    hints.push({
      code: "json-array-invalid",
      message: "the capture starts with `[` like a JSON array of frames, but it is not one " +
        `(line ${capture.arrayError.line}: ${capture.arrayError.message}); it was read as ` +
        "NDJSON instead. Fix the array, or write one frame per line (NDJSON)",
    });
    return hints;
  }
  if (capture.format !== "ndjson" || (invalidJson === 0 && capture.truncatedAt === undefined)) {
    return hints;
  }
  const seq = scanJsonSequence(text);
  if (seq === null) return hints;
  if (seq.count === 1 && isRecord(seq.first)) {
    const log = own(seq.first, "log");
    if (isRecord(log) && Array.isArray(own(log, "entries"))) {
      hints.push({
        code: "har-file",
        message: "this is a HAR file (browser devtools' network export), not a capture: the " +
          "stream's body is in log.entries[].response.content.text; extract it with " +
          '`jq -r \'.log.entries[] | select(.response.content.mimeType | test("event-stream")) ' +
          "| .response.content.text' FILE.har > capture.sse`",
      });
      return hints;
    }
    const wrapped = wrappedArrayKey(seq.first);
    if (wrapped !== undefined) {
      hints.push({
        code: "wrapped-frames",
        message: `the capture is one JSON object; its ${quoteClipped(wrapped.key)} field holds ` +
          `${wrapped.length} object(s). If those are the frames, inspect them as a JSON array: ` +
          `\`jq '${jqPath(wrapped.key)}' FILE > capture.json\``,
      });
      return hints;
    }
  }
  if (seq.multiLine > 0) {
    hints.push({
      code: "pretty-printed-json",
      message: `the capture is ${seq.count} pretty-printed JSON value(s) spread over several ` +
        "lines; NDJSON needs one value per line: `jq -c . FILE > capture.ndjson` converts it " +
        "(or wrap them in `[` … `]` with commas: a JSON array of frames is read as is)",
    });
  }
  return hints;
}

/** Provider streams people capture by mistake: what their frames look like. */
function providerOf(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  const object = own(value, "object");
  if (object === "chat.completion.chunk") return "an OpenAI Chat Completions stream";
  const type = own(value, "type");
  if (typeof type !== "string") return undefined;
  if (type === "message_start" || type === "content_block_delta") {
    return "an Anthropic Messages stream";
  }
  if (type.startsWith("response.")) return "an OpenAI Responses stream";
  return undefined;
}

/**
 * Every hint for a capture that was read into `capture` from `text`, given
 * how many frames were `invalid-json` and whether the dialect is unknown.
 */
export function captureHints(
  text: string,
  capture: Capture,
  invalidJson: number,
  unknownDialect: boolean,
  utf16?: "le" | "be",
): InspectHint[] {
  const hints: InspectHint[] = [];
  if (utf16 !== undefined) {
    hints.push({
      code: "utf-16",
      message: `the capture is UTF-16 (${utf16 === "le" ? "little" : "big"}-endian, with a ` +
        "byte order mark), as PowerShell's `>` writes files; inspect decoded it, but SSE on " +
        "the wire is UTF-8: save captures as UTF-8 (`Out-File -Encoding utf8`, `curl -o`)",
    });
  }
  hints.push(...jsonHints(text, capture, invalidJson));
  let glued = 0;
  let provider: string | undefined;
  const n = Math.min(capture.frames.length, HINT_FRAMES);
  for (let i = 0; i < n; i++) {
    const f = capture.frames[i];
    if (capture.format === "sse" && glued === 0 && f.data.includes("\n")) {
      const parts = f.data.split("\n");
      if (parseData(f.data) === undefined && parts.every((p) => parseData(p) !== undefined)) {
        glued = f.line;
      }
    }
    if (unknownDialect && provider === undefined) provider = providerOf(parseData(f.data)?.value);
  }
  if (glued > 0) {
    hints.push({
      code: "sse-no-blank-lines",
      message: `the event starting on line ${glued} has several \`data:\` lines that are each ` +
        "JSON: SSE joins the `data:` lines of one event with a newline and ends an event only " +
        "at a blank line, so the capture seems to lack the blank line after each event",
    });
  }
  if (provider !== undefined) {
    hints.push({
      code: "provider-stream",
      message: `the frames look like ${provider}: that is the model provider's wire, not a ` +
        "chat stream; capture what your host sends to its clients instead",
    });
  }
  return hints;
}
