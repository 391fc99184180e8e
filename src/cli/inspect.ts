/**
 * The `inspect` engine: pure functions from a capture (bytes or text) to an
 * {@link InspectReport}. No I/O here; `main.ts` reads files and prints.
 *
 * @module
 */
import { type Capture, type CapturedFrame, detectFormat, readNdjson, readSse } from "./capture.ts";
import { utf8ByteLength } from "../_internal/guards.ts";
import {
  detectDialect,
  DIALECT_NAMES,
  frameDialect,
  invalidJsonProblem,
  parseData,
} from "./detect.ts";
import { analyzeAiSdk } from "./analyze_ai_sdk.ts";
import { analyzeLegacy } from "./analyze_legacy.ts";
import { analyzeV1 } from "./analyze_v1.ts";
import type { InspectDialect, InspectProblem, InspectReport, InspectTurn } from "./report.ts";

export type * from "./report.ts";

/** Largest capture `inspect` reads: 64 MiB (67_108_864 bytes). Larger input is unreadable (exit 2). */
export const INSPECT_MAX_BYTES = 64 * 1024 * 1024;

/** Options of {@link inspectText} / {@link inspectBytes}. */
export interface InspectOptions {
  /** Name shown in the report (`-` for stdin). Default `-`. */
  source?: string;
  /** Force a dialect instead of detecting it. */
  dialect?: Exclude<InspectDialect, "unknown">;
  /** Size bound in UTF-8 bytes (default {@link INSPECT_MAX_BYTES}). */
  maxBytes?: number;
}

/** A report for input that could not be read at all (exit 2). */
export function unreadableReport(
  source: string,
  message: string,
  code = "unreadable",
): InspectReport {
  return {
    schema: "papercusp.inspect/1",
    source,
    format: "unknown",
    dialect: "unknown",
    dialectReason: "the input could not be read",
    exitCode: 2,
    problems: [{ line: null, severity: "error", code, message }],
    turn: null,
    summary: {
      frames: 0,
      heartbeats: 0,
      comments: 0,
      events: 0,
      domainEvents: 0,
      errors: 1,
      warnings: 0,
      status: "unknown",
    },
  };
}

/** Why a capture that was read has no frame at all, for a person. */
function noFramesReason(text: string, capture: Capture): string {
  if ((text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).trim() === "") {
    return "the input is empty: there is no frame to inspect";
  }
  if (capture.truncatedAt !== undefined) {
    return `the only line (line ${capture.truncatedAt}) is cut off: no newline and not ` +
      "complete JSON";
  }
  if (capture.unterminatedAt !== undefined) {
    return `the only event (line ${capture.unterminatedAt}) never ends: SSE dispatches an ` +
      "event at a blank line, and there is none after it";
  }
  if (capture.format === "sse" && capture.comments > 0) {
    return `the capture has only SSE comment lines (${capture.comments}, lines starting ` +
      'with ":") and no event with a `data:` line';
  }
  return "no frames found: this is neither an SSE capture (no `data:` line) nor NDJSON " +
    "(the first line is not a JSON object)";
}

/** Control characters other than TAB, LF, CR (and a BOM) mark binary input. */
function looksBinary(text: string): boolean {
  // deno-lint-ignore no-control-regex
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(text);
}

/**
 * Inspect capture bytes: refuse (exit 2) input over the size bound, input
 * that is not UTF-8, and binary input (NUL or other C0 control characters);
 * otherwise {@link inspectText}.
 */
export function inspectBytes(bytes: Uint8Array, options: InspectOptions = {}): InspectReport {
  const source = options.source ?? "-";
  const max = options.maxBytes ?? INSPECT_MAX_BYTES;
  if (bytes.byteLength > max) {
    return unreadableReport(
      source,
      `the input is ${bytes.byteLength} bytes, over the ${max}-byte bound`,
      "too-large",
    );
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return unreadableReport(source, "the input is not UTF-8 text (binary data?)", "not-text");
  }
  return inspectWithinBound(text, options);
}

/**
 * What every dialect's analysis yields (`domainEvents`: a count). `problems`
 * come in push order: {@link inspectWithinBound} sorts them once, by line.
 */
interface Analysis {
  problems: InspectProblem[];
  turn: InspectTurn | null;
  events: number;
  heartbeats: number;
  domainEvents: number;
}

/** Run the analysis of `dialect` over `frames` (`unknown`: only JSON checks). */
function analyze(frames: readonly CapturedFrame[], dialect: InspectDialect): Analysis {
  switch (dialect) {
    case "v1":
      return { ...analyzeV1(frames), domainEvents: 0 };
    case "ai-sdk":
      return { ...analyzeAiSdk(frames), domainEvents: 0 };
    case "v0":
    case "scout": {
      const a = analyzeLegacy(frames, dialect === "v0" ? "papercup" : "scout");
      return { ...a, domainEvents: a.domainEvents.length };
    }
    case "unknown": {
      const problems: InspectProblem[] = [];
      for (const f of frames) {
        if (f.event === "heartbeat" || f.data === "[DONE]" || parseData(f.data) !== undefined) {
          continue;
        }
        problems.push(invalidJsonProblem(f));
      }
      problems.push({
        line: null,
        severity: "error",
        code: "unknown-dialect",
        message: "no frame is a v1 envelope, a v0 named event, a Scout frame or an AI SDK chunk",
      });
      return { problems, turn: null, events: 0, heartbeats: 0, domainEvents: 0 };
    }
  }
}

/**
 * Inspect a capture given as text: detect SSE or NDJSON and the dialect,
 * validate every frame, fold the turn, and report. Never throws. Text whose
 * UTF-8 encoding is over `options.maxBytes` (default {@link INSPECT_MAX_BYTES})
 * is unreadable (`too-large`, exit 2).
 *
 * @example
 * ```ts
 * const report = inspectText('id: 1\ndata: {"type":"token","content":"Hi"}\n\n', { source: "x.sse" });
 * report.dialect; // "scout"
 * report.turn?.text; // "Hi"
 * ```
 */
export function inspectText(text: string, options: InspectOptions = {}): InspectReport {
  const max = options.maxBytes ?? INSPECT_MAX_BYTES;
  // UTF-16 code units never outnumber UTF-8 bytes: count bytes only when the cheap test passes.
  if (text.length > max || utf8ByteLength(text) > max) {
    return unreadableReport(
      options.source ?? "-",
      `the input is over the ${max}-byte bound (UTF-8)`,
      "too-large",
    );
  }
  return inspectWithinBound(text, options);
}

/** {@link inspectText} after the size bound was checked (by the caller, once). */
function inspectWithinBound(text: string, options: InspectOptions): InspectReport {
  const source = options.source ?? "-";
  if (looksBinary(text)) {
    return unreadableReport(
      source,
      "the input contains control characters: binary data, not a capture",
      "not-text",
    );
  }
  const format = detectFormat(text);
  const capture = format === "ndjson" ? readNdjson(text) : readSse(text);
  if (capture.fatal !== undefined) {
    return unreadableReport(
      source,
      `line ${capture.fatal.line}: ${capture.fatal.message}`,
      "sse-limit",
    );
  }
  if (capture.frames.length === 0) {
    const report = unreadableReport(source, noFramesReason(text, capture), "no-frames");
    report.summary.comments = capture.comments;
    return report;
  }
  const detected = options.dialect !== undefined
    ? { dialect: options.dialect, reason: "chosen with --dialect" }
    : detectDialect(capture.frames);
  const { problems, turn, events, heartbeats, domainEvents } = analyze(
    capture.frames,
    detected.dialect,
  );
  if (detected.dialect !== "unknown") {
    for (const f of capture.frames) {
      const v = frameDialect(f);
      if (v === undefined || !v.strong || v.dialect === detected.dialect) continue;
      problems.push({
        line: f.line,
        severity: "warning",
        code: "mixed-dialect",
        message: `this frame looks like ${DIALECT_NAMES[v.dialect]}, but the capture is read ` +
          `as ${detected.dialect}: one turn's capture should use one dialect`,
      });
    }
  }
  if (capture.truncatedAt !== undefined) {
    problems.push({
      line: capture.truncatedAt,
      severity: "warning",
      code: "truncated-line",
      message: "the capture ends in the middle of a line (no newline, not complete JSON): it " +
        "was cut off; that partial line is ignored",
    });
  }
  if (capture.unterminatedAt !== undefined) {
    problems.push({
      line: capture.unterminatedAt,
      severity: "warning",
      code: "unterminated-event",
      message: "the capture ends inside an event (no blank line after it); SSE discards it",
    });
  }
  // Input order (stable: findings on one line keep their order); whole-capture findings last.
  problems.sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity));
  const errors = problems.filter((p) => p.severity === "error").length;
  return {
    schema: "papercusp.inspect/1",
    source,
    format: capture.format,
    dialect: detected.dialect,
    dialectReason: detected.reason,
    exitCode: errors > 0 ? 1 : 0,
    problems,
    turn,
    summary: {
      frames: capture.frames.length,
      heartbeats,
      comments: capture.comments,
      events,
      domainEvents,
      errors,
      warnings: problems.length - errors,
      status: turn?.status ?? "unknown",
    },
  };
}
