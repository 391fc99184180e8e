/**
 * The `inspect` engine: pure functions from a capture (bytes or text) to an
 * {@link InspectReport}. No I/O here; `main.ts` reads files and prints.
 *
 * @module
 */
import { type Capture, type CapturedFrame, readCapture } from "./capture.ts";
import { describeThrown } from "../_internal/describe.ts";
import { utf8ByteLength } from "../_internal/guards.ts";
import {
  detectDialect,
  DIALECT_NAMES,
  frameDialect,
  invalidJsonProblem,
  parseData,
} from "./detect.ts";
import { type Analysis, type FrameNote, type TurnBody, typeLabel } from "./analysis.ts";
import { analyzeAiSdk } from "./analyze_ai_sdk.ts";
import { analyzeLegacy } from "./analyze_legacy.ts";
import { analyzeV1 } from "./analyze_v1.ts";
import { groupProblems } from "./problems.ts";
import { captureHints } from "./hints.ts";
import { buildTimeline, DEFAULT_GAP_MS, frameAt, measureTimes } from "./timeline.ts";
import {
  controlCharacterProblems,
  type DecodedInput,
  decodeInput,
  invalidUtf8Problems,
} from "./text_input.ts";
import {
  INSPECT_MAX_PROBLEMS,
  INSPECT_SCHEMA,
  type InspectDialect,
  type InspectHint,
  type InspectProblem,
  type InspectReport,
  type InspectTurn,
} from "./report.ts";

export type * from "./report.ts";
export { INSPECT_MAX_PROBLEMS, INSPECT_SCHEMA } from "./report.ts";

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
  /** Warnings count as violations (exit 1). Default `false`. */
  strict?: boolean;
  /** Keep every problem, gap and timeline row (no output bound). Default `false`. */
  all?: boolean;
  /** Flag gaps in time over this many milliseconds (default 5 000). */
  gapMs?: number;
}

/** A report for input that could not be read or analysed at all (exit 2). */
export function unreadableReport(
  source: string,
  message: string,
  code = "unreadable",
  options: { strict?: boolean; hints?: InspectHint[]; comments?: number } = {},
): InspectReport {
  const problem: InspectProblem = { line: null, severity: "error", code, message };
  return {
    schema: INSPECT_SCHEMA,
    source,
    format: "unknown",
    dialect: "unknown",
    dialectReason: "the input could not be read",
    strict: options.strict === true,
    exitCode: 2,
    hints: options.hints ?? [],
    problemGroups: groupProblems([problem]),
    problems: [problem],
    problemsOmitted: 0,
    turns: [],
    timeline: {
      timedFrames: 0,
      gapThresholdMs: DEFAULT_GAP_MS,
      gapCount: 0,
      gaps: [],
      rows: [],
      rowsOmitted: 0,
    },
    summary: {
      frames: 0,
      heartbeats: 0,
      comments: options.comments ?? 0,
      events: 0,
      domainEvents: 0,
      turns: 0,
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
  if (capture.format === "json-array") return "the JSON array is empty: there is no frame";
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
    "(the first line is not a JSON object) nor a JSON array of frames";
}

/** Run the analysis of `dialect` over `frames` (`unknown`: only JSON checks). */
function analyze(frames: readonly CapturedFrame[], dialect: InspectDialect): Analysis {
  switch (dialect) {
    case "v1":
      return analyzeV1(frames);
    case "ai-sdk":
      return analyzeAiSdk(frames);
    case "v0":
    case "scout":
      return analyzeLegacy(frames, dialect === "v0" ? "papercup" : "scout");
    case "unknown": {
      const problems: InspectProblem[] = [];
      const notes: FrameNote[] = [];
      let heartbeats = 0;
      for (const f of frames) {
        if (f.event === "heartbeat") {
          heartbeats++;
          notes.push({ turn: -1, type: "heartbeat" });
          continue;
        }
        const parsed = f.data === "[DONE]" ? { value: "[DONE]" } : parseData(f.data);
        notes.push({
          turn: -1,
          type: parsed === undefined ? "not JSON" : typeLabel(parsed.value, f.event ?? "frame"),
        });
        if (parsed === undefined) problems.push(invalidJsonProblem(f));
      }
      problems.push({
        line: null,
        severity: "error",
        code: "unknown-dialect",
        message: "no frame is a v1 envelope, a v0 named event, a Scout frame or an AI SDK chunk",
      });
      return { problems, turns: [], notes, heartbeats, domainEvents: 0 };
    }
  }
}

/** A real `Uint8Array` (a proxy of one is not: it has no typed-array slots); never throws. */
function isBytes(v: unknown): v is Uint8Array {
  try {
    return ArrayBuffer.isView(v) && v instanceof Uint8Array;
  } catch {
    return false;
  }
}

/** {@link InspectOptions} read once, checked, defaults filled in. */
interface Settings {
  source: string;
  dialect?: Exclude<InspectDialect, "unknown">;
  maxBytes: number;
  strict: boolean;
  all: boolean;
  gapMs: number;
}

const FORCEABLE: ReadonlySet<string> = new Set(["v1", "v0", "scout", "ai-sdk"]);

/**
 * Read `options` once, each field inside a guard (a throwing getter or a
 * proxy reads as absent), keeping only values of the documented types.
 */
function settings(options: unknown): Settings {
  const read = (key: string): unknown => {
    try {
      return typeof options === "object" && options !== null
        ? (options as Record<string, unknown>)[key]
        : undefined;
    } catch {
      return undefined;
    }
  };
  const source = read("source");
  const dialect = read("dialect");
  const maxBytes = read("maxBytes");
  const gapMs = read("gapMs");
  const s: Settings = {
    source: typeof source === "string" ? source : "-",
    maxBytes: typeof maxBytes === "number" && maxBytes >= 0 ? maxBytes : INSPECT_MAX_BYTES,
    strict: read("strict") === true,
    all: read("all") === true,
    gapMs: typeof gapMs === "number" && gapMs >= 0 && Number.isFinite(gapMs)
      ? gapMs
      : DEFAULT_GAP_MS,
  };
  if (typeof dialect === "string" && FORCEABLE.has(dialect)) {
    s.dialect = dialect as Exclude<InspectDialect, "unknown">;
  }
  return s;
}

/**
 * Inspect capture bytes: refuse (exit 2) input over the size bound;
 * decode UTF-8 (UTF-16 with a byte order mark), where lines that are not
 * UTF-8 become `invalid-utf8` problems on their lines; otherwise as
 * {@link inspectText}. Input with no frame at all that has invalid UTF-8 or
 * control characters is binary data (`not-text`, exit 2). Never throws: a
 * value that is not a `Uint8Array` is `unreadable`, and options are read
 * as {@link inspectText} reads them.
 */
export function inspectBytes(bytes: Uint8Array, options: InspectOptions = {}): InspectReport {
  const s = settings(options);
  return guarded(s, () => {
    if (!isBytes(bytes)) {
      return unreadableReport(s.source, "the input is not bytes (a Uint8Array)", "unreadable", s);
    }
    if (bytes.byteLength > s.maxBytes) {
      return unreadableReport(
        s.source,
        `the input is ${bytes.byteLength} bytes, over the ${s.maxBytes}-byte bound`,
        "too-large",
        s,
      );
    }
    return inspectDecoded(decodeInput(bytes), s);
  });
}

/**
 * Inspect a capture given as text: read it as SSE, NDJSON or a JSON array of
 * frames, detect the dialect, validate every frame, fold every turn, and
 * report (problems grouped by code, a timeline, hints for near-miss
 * captures). Text whose UTF-8 encoding is over `options.maxBytes` (default
 * {@link INSPECT_MAX_BYTES}) is unreadable (`too-large`, exit 2).
 *
 * Never throws: a `text` that is not a string is `unreadable`; each option
 * is read once, and one that throws or has the wrong type counts as absent;
 * a failure inside inspect itself is an `internal-error` report (exit 2).
 *
 * @example
 * ```ts
 * const report = inspectText('id: 1\ndata: {"type":"token","content":"Hi"}\n\n', { source: "x.sse" });
 * report.dialect; // "scout"
 * report.turns[0]?.text; // "Hi"
 * ```
 */
export function inspectText(text: string, options: InspectOptions = {}): InspectReport {
  const s = settings(options);
  return guarded(s, () => {
    if (typeof text !== "string") {
      return unreadableReport(s.source, "the input is not text (a string)", "unreadable", s);
    }
    // UTF-16 code units never outnumber UTF-8 bytes: count bytes only when the cheap test passes.
    if (text.length > s.maxBytes || utf8ByteLength(text) > s.maxBytes) {
      return unreadableReport(
        s.source,
        `the input is over the ${s.maxBytes}-byte bound (UTF-8)`,
        "too-large",
        s,
      );
    }
    return inspectDecoded({ text, invalidUtf8Lines: [] }, s);
  });
}

/** Run `f`; a throw (a bug in inspect) becomes an `internal-error` report. */
function guarded(s: Settings, f: () => InspectReport): InspectReport {
  try {
    return f();
  } catch (e) {
    return unreadableReport(
      s.source,
      `inspect failed on this input (a bug in inspect, please report it): ${
        describeThrown(e, 300)
      }`,
      "internal-error",
      s,
    );
  }
}

/**
 * The keys of {@link InspectTurn} in the order the JSON shows them. A record
 * type, so a field added to the turn and not listed here fails to compile.
 */
const TURN_KEY_ORDER: Record<keyof TurnBody, true> = {
  conversationId: true,
  turnId: true,
  messageId: true,
  status: true,
  statusReason: true,
  lastSeq: true,
  lastEventId: true,
  sessionId: true,
  provenance: true,
  text: true,
  segments: true,
  reasoning: true,
  tools: true,
  cards: true,
  errors: true,
  domainEvents: true,
  navigations: true,
  state: true,
  stopReason: true,
  usage: true,
  metadata: true,
  parts: true,
  extra: true,
};
const TURN_KEYS = Object.keys(TURN_KEY_ORDER) as (keyof TurnBody)[];

/** `body` with its keys in {@link TURN_KEYS} order, whichever order the analysis set them in. */
function inOrder(body: TurnBody): TurnBody {
  const out: Record<string, unknown> = {};
  for (const k of TURN_KEYS) if (body[k] !== undefined) out[k] = body[k];
  return out as unknown as TurnBody;
}

/** The whole analysis of decoded text. */
function inspectDecoded(input: DecodedInput, s: Settings): InspectReport {
  const { source, strict, all, gapMs } = s;
  const text = input.text;
  const reading = [
    ...invalidUtf8Problems(input.invalidUtf8Lines),
    ...controlCharacterProblems(text),
  ];
  const capture = readCapture(text);
  const { frames } = capture;
  if (frames.length === 0) {
    const hints = captureHints(text, capture, 0, false, input.utf16);
    if (reading.length > 0) {
      const bad = input.invalidUtf8Lines.length;
      return unreadableReport(
        source,
        `binary data, not a capture: no frame found, and ${bad} line(s) are not UTF-8 and ` +
          `${reading.length - bad} line(s) hold control characters (first on line ` +
          `${Math.min(...reading.map((p) => p.line ?? Infinity))})`,
        "not-text",
        { strict, hints },
      );
    }
    const limit = capture.problems.find((p) => p.code === "sse-limit");
    if (limit !== undefined) {
      return unreadableReport(
        source,
        `line ${limit.line}: ${limit.message.replace(/; inspect skips.*$/, "")}; no other frame`,
        "sse-limit",
        { strict, hints, comments: capture.comments },
      );
    }
    return unreadableReport(source, noFramesReason(text, capture), "no-frames", {
      strict,
      hints,
      comments: capture.comments,
    });
  }
  const detected = s.dialect !== undefined
    ? { dialect: s.dialect, reason: "chosen with --dialect" }
    : detectDialect(frames);
  const analysis = analyze(frames, detected.dialect);
  const problems = [...reading, ...capture.problems, ...analysis.problems];
  if (detected.dialect !== "unknown") {
    for (const f of frames) {
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
  const { notes } = analysis;
  const times = measureTimes(frames, notes, gapMs);
  problems.push(...times.problems);
  // Input order (stable: findings on one line keep their order); whole-capture findings last.
  problems.sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity));
  for (const p of problems) {
    if (p.turn !== undefined || p.line === null) continue;
    const i = frameAt(frames, p.line);
    if (i >= 0 && notes[i].turn !== -1) p.turn = notes[i].turn;
  }
  // One key order for every problem in the JSON: line, turn, severity, code, message.
  for (let i = 0; i < problems.length; i++) {
    const { line, turn, severity, code, message } = problems[i];
    problems[i] = turn === undefined
      ? { line, severity, code, message }
      : { line, turn, severity, code, message };
  }
  let errors = 0;
  const perTurn = analysis.turns.map(() => ({ errors: 0, warnings: 0 }));
  for (const p of problems) {
    const isError = p.severity === "error";
    if (isError) errors++;
    if (p.turn !== undefined && perTurn[p.turn] !== undefined) {
      if (isError) perTurn[p.turn].errors++;
      else perTurn[p.turn].warnings++;
    }
  }
  const warnings = problems.length - errors;
  const turns: InspectTurn[] = analysis.turns.map((t, i) => ({
    ...inOrder(t.body),
    summary: {
      firstLine: 0,
      lastLine: 0,
      frames: 0,
      events: t.events,
      errors: perTurn[i].errors,
      warnings: perTurn[i].warnings,
    },
  }));
  for (let i = 0; i < notes.length; i++) {
    const turn = turns[notes[i].turn];
    if (turn === undefined) continue;
    const s = turn.summary;
    if (s.frames++ === 0) s.firstLine = frames[i].line;
    s.lastLine = frames[i].line;
    const at = notes[i].at;
    if (at !== undefined) {
      s.startAt = s.startAt === undefined ? at : Math.min(s.startAt, at);
      s.endAt = s.endAt === undefined ? at : Math.max(s.endAt, at);
      s.durationMs = s.endAt - s.startAt;
    }
  }
  const problemGroups = groupProblems(problems);
  const invalidJson = problemGroups.find((g) => g.code === "invalid-json")?.count ?? 0;
  const shown = all ? problems : problems.slice(0, INSPECT_MAX_PROBLEMS);
  return {
    schema: INSPECT_SCHEMA,
    source,
    format: capture.format,
    dialect: detected.dialect,
    dialectReason: detected.reason,
    strict,
    exitCode: errors > 0 || (strict && warnings > 0) ? 1 : 0,
    hints: captureHints(text, capture, invalidJson, detected.dialect === "unknown", input.utf16),
    problemGroups,
    problems: shown,
    problemsOmitted: problems.length - shown.length,
    turns,
    timeline: buildTimeline(frames, notes, times, problemGroups, gapMs, all),
    summary: {
      frames: frames.length,
      heartbeats: analysis.heartbeats,
      comments: capture.comments,
      events: analysis.turns.reduce((n, t) => n + t.events, 0),
      domainEvents: analysis.domainEvents,
      turns: turns.length,
      errors,
      warnings,
      status: turns.length === 0 ? "unknown" : turns[turns.length - 1].status,
    },
  };
}
