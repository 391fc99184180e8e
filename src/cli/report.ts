/**
 * The `inspect` report: the stable shape `inspect --json` prints.
 *
 * Shape `schema: "papercusp.inspect/2"`, all fields JSON:
 * - `source`: the file name, `-` for stdin, or the bundled capture's path;
 * - `format`: `sse` | `ndjson` | `json-array` (one top-level JSON array of
 *   frames) | `unknown`;
 * - `dialect`: `v1` (envelopes) | `v0` (Papercup named events) | `scout`
 *   (Scout legacy) | `ai-sdk` (AI SDK UI message stream) | `unknown`;
 *   `dialectReason` says why;
 * - `strict`: whether warnings count as violations (`--strict`);
 * - `exitCode`: 0 clean, 1 contract violations (some problem has severity
 *   `error`, or with `strict` any problem at all), 2 unreadable input;
 * - `hints`: advice about a capture that is almost, but not quite, a
 *   format inspect reads (`{ code, message }`; not problems, never change
 *   the exit code);
 * - `problemGroups`: every problem grouped by `code` and `severity`, in
 *   order of first appearance: `count`, `firstLine`, up to
 *   {@link INSPECT_GROUP_LINES} `lines` and up to
 *   {@link INSPECT_GROUP_EXAMPLES} `examples`;
 * - `problems`: the problems in input order (each: `line`, 1-based line of
 *   the frame's first line or `null` for a whole-capture finding; `turn`,
 *   the index into `turns` when the problem belongs to one; `severity`;
 *   stable `code`; `message` for a person), at most
 *   {@link INSPECT_MAX_PROBLEMS} of them unless `--all`;
 *   `problemsOmitted` counts the rest;
 * - `turns`: every folded turn in order of first appearance (v1: one per
 *   conversation/turn id pair; legacy: a new turn at a `session` frame after
 *   a terminal frame; AI SDK: a new message at a `start` chunk after
 *   `finish`, `abort` or `[DONE]`), each with its own `summary`;
 * - `timeline`: frame by frame (`at` epoch ms where the capture has it:
 *   v1 `at`, heartbeat `tsMs`), offsets from the first timed frame, and the
 *   gaps in time over `gapThresholdMs`; `rows` is bounded unless `--all`;
 * - `summary`: counts and the final status.
 *
 * Changes from `papercusp.inspect/1`: `problems` is bounded and
 * `problemGroups` added (200 000 bad envelopes used to give 200 000
 * entries); `turn` became `turns` (multi-turn captures) with a `summary`
 * each and every folded field (`statusReason`, error `code` and
 * `retryAfterMs`, tool progress and blocks, the `state` snapshot, full card
 * snapshots, navigations, AI SDK metadata and parts); new `hints`,
 * `timeline`, `strict`, `problemsOmitted`; `format` may be `json-array`.
 * Field names are stable within `papercusp.inspect/2`; new optional fields
 * may be added.
 *
 * Problem codes (stable; new codes may be added):
 * - unreadable input (exit 2, `line: null`): `unreadable` (missing file,
 *   directory, no permission), `too-large`, `not-text` (no frame at all and
 *   invalid UTF-8 or control characters: binary data), `no-frames` (empty,
 *   comments only, an event that never ends), `internal-error` (a bug in
 *   inspect: it failed on this input; the message says how);
 * - any dialect: `control-character` (a raw C0 control character on the
 *   line, e.g. ESC: JSON text cannot hold it unescaped), `invalid-utf8` (the
 *   line's bytes are not UTF-8; shown with U+FFFD), `sse-limit` (an SSE line
 *   or event over 1 MiB: that event is skipped, the rest is read),
 *   `unknown-dialect`, `invalid-json`, `mixed-dialect` (warning: a frame of
 *   another dialect), `unterminated-event` (warning: the last SSE event has
 *   no blank line and is discarded), `truncated-line` (warning: the last
 *   NDJSON line is cut off and ignored), `invalid-array-element` (json-array:
 *   an element that is not a frame), `time-backwards` (warning: a frame's
 *   `at` is earlier than the previous frame's of the same turn);
 * - v1: the fold's refusal codes (`gap`, `duplicate`, `reordered`,
 *   `illegal-transition`, `invalid-envelope`, `unsupported-version`, … see
 *   `ChatFoldRefusalCode`), `id-mismatch` and `event-name-mismatch`
 *   (warnings), `no-terminal-event` (warning), `interleaved-turn` (warning:
 *   a turn's frames resume after another turn's began), `too-large` (an
 *   envelope over parseChatEnvelopeJson's 1 MiB bound);
 * - Scout / v0: the legacy adapter's refusal codes (`invalid-event`,
 *   `missing-type`, `invalid-id`, `missing-call-identity`,
 *   `unknown-result-status`, … see `LegacyRefusalCode`), then the v1 fold's;
 *   `after-terminal`, `non-monotonic-id`; warnings `missing-id`, `id-precision`,
 *   `scout-name`, `derived-call-id`, `paired-by-name`, `no-retry-permission`;
 * - AI SDK: `invalid-chunk`, the UI message fold's issue codes (e.g.
 *   `orphan-chunk`), `after-done`; warnings `no-finish`, `no-done`.
 *
 * @module
 */
import type { TurnTextSegment } from "../blocks/segments.ts";

export type { TurnTextSegment };

/** `--json` shape version. */
export const INSPECT_SCHEMA = "papercusp.inspect/2";

/** Most entries of {@link InspectReport.problems} without `--all`. */
export const INSPECT_MAX_PROBLEMS = 100;
/** Most `lines` per {@link InspectProblemGroup}. */
export const INSPECT_GROUP_LINES = 10;
/** Most `examples` per {@link InspectProblemGroup}. */
export const INSPECT_GROUP_EXAMPLES = 3;

/** The dialects `inspect` recognises. */
export type InspectDialect = "v1" | "v0" | "scout" | "ai-sdk" | "unknown";

/** Container formats `inspect` reads. */
export type InspectFormat = "sse" | "ndjson" | "json-array" | "unknown";

/** One finding about the capture. */
export interface InspectProblem {
  /** 1-based line where the frame starts; `null` for a finding about the whole capture. */
  line: number | null;
  /** Index into {@link InspectReport.turns} of the turn it belongs to, when it belongs to one. */
  turn?: number;
  /** `error`: a contract violation (exit 1). `warning`: worth knowing, a violation only with `--strict`. */
  severity: "error" | "warning";
  /** Stable machine-readable code, e.g. `invalid-event`, `gap`, `missing-call-identity`. */
  code: string;
  /** One sentence a person understands (untrusted text in it is quoted and bounded). */
  message: string;
}

/** All problems of one code and severity. */
export interface InspectProblemGroup {
  /** The problems' code. */
  code: string;
  /** The problems' severity. */
  severity: "error" | "warning";
  /** How many problems the group has. */
  count: number;
  /** Line of the first one (`null`: whole-capture findings only). */
  firstLine: number | null;
  /** The first distinct lines, ascending (at most {@link INSPECT_GROUP_LINES}). */
  lines: number[];
  /** The first problems (at most {@link INSPECT_GROUP_EXAMPLES}). */
  examples: InspectProblem[];
}

/** Advice about a near-miss capture. */
export interface InspectHint {
  /** Stable code: `json-array-invalid`, `pretty-printed-json`, `wrapped-frames`, `har-file`, `sse-no-blank-lines`, `utf-16`, `provider-stream`. */
  code: string;
  /** What inspect saw and what to do. */
  message: string;
}

/** A tool call of a folded turn. */
export interface InspectTool {
  /** The call id (`null` when the capture never gave one). */
  callId: string | null;
  /** The tool's name. */
  name: string;
  /** `running` (no result seen), `ok`, `error`, or a dialect-specific state (AI SDK part state). */
  status: string;
  /** The call's input (JSON), when known. */
  input?: unknown;
  /** The tool's output (JSON), when known. */
  output?: unknown;
  /** Plain-text summary of the result (v0 / v1). */
  summary?: string;
  /** Error text of a failed call (AI SDK). */
  errorText?: string;
  /** Last progress fraction, 0 to 1 (v1 `tool_progress`). */
  progress?: number;
  /** Last progress message (v1 `tool_progress`). */
  progressMessage?: string;
  /** Grounded result blocks (v1 `tool_result.blocks`). */
  blocks?: unknown[];
  /** `seq` of the `tool_call` (v1). */
  startedSeq?: number;
  /** `seq` of the `tool_result` (v1). */
  finishedSeq?: number;
  /** Every other field the folded call has (AI SDK part fields such as `providerExecuted`, `approval`, `title`). */
  extra?: Record<string, unknown>;
}

/** A card of a folded turn. */
export interface InspectCard {
  /** The card's correlation id. */
  correlationId: string;
  /** The card's prompt, when the capture showed the card opening. */
  prompt?: string;
  /** `open` or `closed`. */
  status: "open" | "closed";
  /** How it closed (v1 `resolution`), when stated. */
  resolution?: string;
  /** The open-card snapshot as sent (every field), when the capture showed it opening. */
  card?: unknown;
}

/** An error a turn reported. */
export interface InspectTurnError {
  /** The error message as sent (plain text). */
  message: string;
  /** Retry permission when the dialect states it (v1); absent when unknown. */
  retryable?: boolean;
  /** Machine-readable error code, when the dialect has one. */
  code?: string;
  /** Delay before a permitted retry, in milliseconds (v1). */
  retryAfterMs?: number;
}

/** A domain event passed through (Scout `products`, …). */
export interface InspectDomainEvent {
  /** 1-based line where the frame starts. */
  line: number;
  /** The domain event's name. */
  type: string;
}

/** A `navigate` event (transient: the fold keeps no state for it). */
export interface InspectNavigation {
  /** 1-based line where the frame starts. */
  line: number;
  /** The navigation target as sent. */
  href: string;
}

/** Where a turn sits in the capture and how it went. */
export interface InspectTurnSummary {
  /** Line of the turn's first frame. */
  firstLine: number;
  /** Line of the turn's last frame. */
  lastLine: number;
  /** Frames attributed to the turn (heartbeats included). */
  frames: number;
  /** Frames accepted as chat events (or AI SDK chunks). */
  events: number;
  /** Problems with severity `error` on the turn's frames. */
  errors: number;
  /** Problems with severity `warning` on the turn's frames. */
  warnings: number;
  /** Earliest `at` of the turn's frames (epoch ms), when any has one. */
  startAt?: number;
  /** Latest `at` (epoch ms). */
  endAt?: number;
  /** `endAt - startAt`, milliseconds. */
  durationMs?: number;
}

/** A folded turn. */
export interface InspectTurn {
  /** The conversation id on the wire (v1). */
  conversationId?: string;
  /** The turn id on the wire (v1). */
  turnId?: string;
  /** The message id of the `start` chunk (AI SDK). */
  messageId?: string;
  /** Final status: v1 `TurnStatus` names (`completed`, `failed`, `running`, …); AI SDK adds `aborted`. */
  status: string;
  /** Reason of the last `turn_status` event (v1). */
  statusReason?: string;
  /** `seq` of the last applied event (v1). */
  lastSeq?: number;
  /** `eventId` of the last applied event: the resume cursor (v1). */
  lastEventId?: string | null;
  /** The session id the stream announced. */
  sessionId?: string;
  /** Provider provenance (engine, model, provider, account route). */
  provenance?: unknown;
  /** The assistant text, concatenated. */
  text: string;
  /** `text` split into text / `<report>` / `<ask>` / invalid-block segments. */
  segments: TurnTextSegment[];
  /** Reasoning text, when the dialect has it. */
  reasoning?: string;
  /** Tool calls in the order they started. */
  tools: InspectTool[];
  /** Cards: closed ones first (in close order), then the ones still open. */
  cards: InspectCard[];
  /** Errors the turn reported. */
  errors: InspectTurnError[];
  /** Domain events passed through (legacy dialects). */
  domainEvents: InspectDomainEvent[];
  /** `navigate` events, in order. */
  navigations?: InspectNavigation[];
  /** Last `state` snapshot (v0 / v1 state channel). */
  state?: { version: number; snapshot: unknown };
  /** Why the turn stopped (v0/v1 `stopReason`, AI SDK `finishReason`). */
  stopReason?: string;
  /** Token / cost usage, as sent. */
  usage?: unknown;
  /** Message metadata (AI SDK `messageMetadata`). */
  metadata?: unknown;
  /** AI SDK parts other than text, reasoning and tools (sources, files, `data-*`, step starts). */
  parts?: unknown[];
  /** Folded fields inspect has no slot for (a newer library's state), by name. */
  extra?: Record<string, unknown>;
  /** Where the turn sits in the capture and how it went. */
  summary: InspectTurnSummary;
}

/** One frame in the timeline. */
export interface InspectTimelineRow {
  /** 1-based line where the frame starts. */
  line: number;
  /** 0-based position of the frame in the capture (rows skip frames in a long capture). */
  index: number;
  /** Index into {@link InspectReport.turns}, when the frame belongs to a turn. */
  turn?: number;
  /** The frame's type: v1 event type, SSE event name (v0), `type` (Scout, AI SDK), `heartbeat`, `[DONE]`, `not JSON`. */
  type: string;
  /** v1 `seq`. */
  seq?: number;
  /** The frame's time, epoch ms (v1 `at`, heartbeat `tsMs`). */
  at?: number;
  /** `at` minus the first timed frame's `at`, milliseconds. */
  offsetMs?: number;
  /** Milliseconds since the previous timed frame of the same turn, when over the gap threshold. */
  gapMs?: number;
  /** The SSE `id`, when the frame had one. */
  id?: string;
  /** The SSE event name, when the frame had one. */
  event?: string;
  /** The frame's data: the parsed JSON (every field), or the raw text when it is not JSON. */
  data: unknown;
}

/** A gap in time between two frames of one turn. */
export interface InspectTimeGap {
  /** Line of the frame after the gap. */
  line: number;
  /** Line of the previous timed frame. */
  previousLine: number;
  /** The gap, milliseconds. */
  gapMs: number;
  /** Offset of the frame after the gap, milliseconds. */
  offsetMs: number;
}

/** The capture frame by frame. */
export interface InspectTimeline {
  /** First timed frame's `at` (epoch ms), if any frame has one. */
  startAt?: number;
  /** Last timed frame's `at` (epoch ms). */
  endAt?: number;
  /** `endAt - startAt`, milliseconds. */
  durationMs?: number;
  /** Frames with a time. */
  timedFrames: number;
  /** Gaps over this many milliseconds are flagged (`--gap-ms`, default 5000). */
  gapThresholdMs: number;
  /** How many gaps are over the threshold. */
  gapCount: number;
  /** The gaps, largest first (at most 20 unless `--all`). */
  gaps: InspectTimeGap[];
  /** Frames shown: all of them for a short capture or with `--all`; else the start, the end, and the frames around gaps, turn starts and first problems. */
  rows: InspectTimelineRow[];
  /** Frames not in `rows`. */
  rowsOmitted: number;
}

/** Counts and the outcome. */
export interface InspectSummary {
  /** Frames read (SSE events, NDJSON lines or array elements), heartbeats included. */
  frames: number;
  /** Heartbeat frames (`event: heartbeat`). */
  heartbeats: number;
  /** SSE comment lines (`: …`, e.g. `: heartbeat` keep-alives or annotations). */
  comments: number;
  /** Frames accepted as chat events (or AI SDK chunks). */
  events: number;
  /** Domain events passed through. */
  domainEvents: number;
  /** Turns folded. */
  turns: number;
  /** Problems with severity `error`. */
  errors: number;
  /** Problems with severity `warning`. */
  warnings: number;
  /** The last turn's final status, or `unknown`. */
  status: string;
}

/** The whole report. */
export interface InspectReport {
  /** Shape version of this report. */
  schema: typeof INSPECT_SCHEMA;
  /** The file name, `-` for stdin, or the bundled capture. */
  source: string;
  /** Container format; `unknown` when the input was unreadable. */
  format: InspectFormat;
  /** The detected (or forced) dialect. */
  dialect: InspectDialect;
  /** Why that dialect. */
  dialectReason: string;
  /** Whether warnings count as violations. */
  strict: boolean;
  /** 0 clean, 1 contract violations, 2 unreadable input. */
  exitCode: 0 | 1 | 2;
  /** Advice about a near-miss capture. */
  hints: InspectHint[];
  /** Every problem, grouped by code and severity. */
  problemGroups: InspectProblemGroup[];
  /** Problems in input order (bounded unless `--all`). */
  problems: InspectProblem[];
  /** Problems not in `problems`. */
  problemsOmitted: number;
  /** The folded turns. */
  turns: InspectTurn[];
  /** The capture frame by frame. */
  timeline: InspectTimeline;
  /** Counts and the outcome. */
  summary: InspectSummary;
}

/**
 * What `inspect --json` prints on stdout for bad usage (an unknown option,
 * two files, a bad `--gap-ms` or `--dialect`; `inspect agents` too): the same `schema` as a
 * report, no report fields, `error.code` `"usage"`, exit code 2. The human
 * message also goes to stderr.
 */
export interface InspectUsageError {
  /** {@link INSPECT_SCHEMA} (`papercusp.inspect/2`), as in a report. */
  schema: typeof INSPECT_SCHEMA;
  /** What was wrong with the command line. */
  error: { code: "usage"; message: string };
  /** Always 2. */
  exitCode: 2;
}

/** The {@link InspectUsageError} for `message`. */
export function usageErrorReport(message: string): InspectUsageError {
  return { schema: INSPECT_SCHEMA, error: { code: "usage", message }, exitCode: 2 };
}
