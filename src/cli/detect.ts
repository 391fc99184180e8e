/**
 * Dialect detection for `inspect`: votes per frame, strong signals first.
 *
 * @module
 */
import { isChatEventType } from "../v0/channels.ts";
import { isRecord } from "../_internal/guards.ts";
import { SCOUT_ONLY_CHAT_TYPES, SCOUT_SHARED_CHAT_TYPES } from "../legacy/decode.ts";
import type { CapturedFrame } from "./capture.ts";
import type { InspectDialect, InspectProblem } from "./report.ts";

/** AI SDK UI message chunk types that no other dialect uses. */
const AI_SDK_TYPES = new Set([
  "start",
  "finish",
  "abort",
  "start-step",
  "finish-step",
  "text-start",
  "text-delta",
  "text-end",
  "reasoning-start",
  "reasoning-delta",
  "reasoning-end",
  "tool-input-start",
  "tool-input-delta",
  "tool-input-available",
  "tool-input-error",
  "tool-approval-request",
  "tool-output-available",
  "tool-output-error",
  "tool-output-denied",
  "source-url",
  "source-document",
  "file",
  "message-metadata",
]);

/**
 * The deepest nesting of arrays and objects inspect parses: 16 384 levels
 * (a tool input 10 000 deep still reads).
 * Deeper data (`[[[[…` megabytes long) is refused before `JSON.parse`
 * runs, which would take seconds and gigabytes building it.
 */
export const MAX_JSON_DEPTH = 16_384;

/**
 * Whether `data` nests arrays and objects more than `max` levels deep, by
 * one linear scan that skips strings (no parse, no allocation).
 */
export function nestsDeeperThan(data: string, max: number = MAX_JSON_DEPTH): boolean {
  const n = data.length;
  if (n <= max) return false; // each level takes a character
  let depth = 0;
  for (let i = 0; i < n; i++) {
    const c = data.charCodeAt(i);
    if (c === 0x22) { // a string: skip to its closing quote
      for (i++; i < n; i++) {
        const d = data.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * Parse a frame's JSON once; `undefined` when it is not JSON or nests
 * deeper than {@link MAX_JSON_DEPTH} (then it is never parsed).
 */
export function parseData(data: string): { value: unknown } | undefined {
  if (nestsDeeperThan(data)) return undefined;
  try {
    return { value: JSON.parse(data) };
  } catch {
    return undefined;
  }
}

/**
 * Why `data` is not JSON, in the parser's words (e.g. `Unexpected end of JSON
 * input`, positions as 1-based characters of the data), cut to 120
 * characters; `empty` for empty or blank data.
 */
export function jsonError(data: string): string {
  if (data.trim() === "") return "empty";
  if (nestsDeeperThan(data)) {
    return `nested more than ${MAX_JSON_DEPTH} levels deep: inspect does not parse it`;
  }
  try {
    JSON.parse(data);
    return "valid JSON";
  } catch (e) {
    // V8 counts positions within the data, not the capture's lines: say so.
    const m = (e instanceof Error ? e.message : String(e)).replace(
      / in JSON at position (\d+)(?: \(line \d+ column \d+\))?/,
      (_, n: string) => ` at character ${Number(n) + 1} of the data`,
    );
    return m.length > 120 ? `${m.slice(0, 120)}…` : m;
  }
}

/**
 * The `invalid-json` error for a frame whose data is not JSON: the parser's
 * reason ({@link jsonError}), then `hint` (what the dialect expects), if any.
 */
export function invalidJsonProblem(frame: CapturedFrame, hint?: string): InspectProblem {
  if (nestsDeeperThan(frame.data)) {
    return {
      line: frame.line,
      severity: "error",
      code: "too-deep",
      message: `the data nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep: ` +
        "inspect does not parse it (that would take seconds and gigabytes) and reads on",
    };
  }
  return {
    line: frame.line,
    severity: "error",
    code: "invalid-json",
    message: `the data is not JSON (${jsonError(frame.data)})${
      hint === undefined ? "" : `; ${hint}`
    }`,
  };
}

/**
 * Which dialect one frame points at, and how strongly (`undefined`: no
 * evidence, e.g. a heartbeat or a Scout domain event).
 */
export function frameDialect(
  frame: CapturedFrame,
): { dialect: InspectDialect; strong: boolean } | undefined {
  if (frame.event === "heartbeat") return undefined;
  if (frame.data === "[DONE]") return { dialect: "ai-sdk", strong: true };
  const parsed = parseData(frame.data);
  const value = parsed?.value;
  if (isRecord(value) && Object.hasOwn(value, "schemaVersion") && Object.hasOwn(value, "event")) {
    return { dialect: "v1", strong: true };
  }
  const named = frame.event !== undefined && frame.event !== "message";
  if (named && isChatEventType(frame.event!)) return { dialect: "v0", strong: true };
  if (!isRecord(value) || !Object.hasOwn(value, "type")) return undefined;
  const type = value.type;
  if (typeof type !== "string") return undefined;
  if (SCOUT_ONLY_CHAT_TYPES.has(type)) return { dialect: "scout", strong: true };
  if (AI_SDK_TYPES.has(type) || type.startsWith("data-")) {
    return { dialect: "ai-sdk", strong: true };
  }
  if (!named && SCOUT_SHARED_CHAT_TYPES.has(type)) return { dialect: "scout", strong: false };
  if (isChatEventType(type)) return { dialect: "v0", strong: false };
  return undefined;
}

/** What each dialect looks like, for messages. */
export const DIALECT_NAMES: Readonly<Record<InspectDialect, string>> = {
  "v1": "v1 envelopes (schemaVersion + event)",
  "v0": "named v0 events (event: delta, tool_call, …)",
  "scout": "Scout legacy frames (unnamed, type inside data: token, tool_start, …)",
  "ai-sdk": "an AI SDK UI message stream (text-delta, tool-input-available, [DONE], …)",
  "unknown": "unknown",
};

/** Detection looks at the first this many frames (the analysis then checks every frame). */
export const DETECT_FRAMES = 2_000;

/** The detected dialect and a sentence saying why. */
export interface DetectedDialect {
  dialect: InspectDialect;
  reason: string;
}

/**
 * Detect the dialect of a capture: the dialect with the most strong votes
 * (v1 envelope keys; `[DONE]` or AI SDK chunk types; a named v0 event;
 * Scout's `token` / `tool_start`), else the most weak votes (unnamed frames
 * with a shared chat `type` count for Scout), over the first
 * {@link DETECT_FRAMES} frames. No votes → `unknown`.
 */
export function detectDialect(frames: readonly CapturedFrame[]): DetectedDialect {
  const strong = new Map<InspectDialect, number>();
  const weak = new Map<InspectDialect, number>();
  let seen = 0;
  for (const f of frames) {
    if (++seen > DETECT_FRAMES) break;
    const v = frameDialect(f);
    if (v === undefined) continue;
    const m = v.strong ? strong : weak;
    m.set(v.dialect, (m.get(v.dialect) ?? 0) + 1);
  }
  const pick = (m: Map<InspectDialect, number>) => {
    let best: InspectDialect | undefined;
    let n = 0;
    for (const [d, c] of m) {
      if (c > n) {
        best = d;
        n = c;
      }
    }
    return best === undefined ? undefined : { dialect: best, n };
  };
  const names = DIALECT_NAMES;
  const s = pick(strong);
  if (s !== undefined) {
    return { dialect: s.dialect, reason: `${s.n} frame(s) look like ${names[s.dialect]}` };
  }
  const w = pick(weak);
  if (w !== undefined) {
    return {
      dialect: w.dialect,
      reason: `${w.n} frame(s) weakly suggest ${names[w.dialect]}; no frame was conclusive`,
    };
  }
  return { dialect: "unknown", reason: "no frame looks like any known dialect" };
}
