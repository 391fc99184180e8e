/**
 * The `inspect` report: the stable shape `inspect --json` prints.
 *
 * Shape (`schema: "papercusp.inspect/1"`), all fields JSON:
 * - `source`: the file name, `-` for stdin, or the bundled capture's path;
 * - `format`: `sse` | `ndjson` | `unknown`;
 * - `dialect`: `v1` (envelopes) | `v0` (Papercup named events) | `scout`
 *   (Scout legacy) | `ai-sdk` (AI SDK UI message stream) | `unknown`;
 *   `dialectReason` says why;
 * - `exitCode`: 0 clean, 1 contract violations (some problem has severity
 *   `error`), 2 unreadable input;
 * - `problems`: every finding, in input order: `line` (1-based line of the
 *   frame's first line, `null` for whole-capture findings), `severity`
 *   (`error` counts as a violation, `warning` does not), a stable `code` and
 *   a `message` a person understands;
 * - `turn`: the folded turn (`null` when nothing could be folded);
 * - `summary`: counts and the final status.
 *
 * Field order and names are stable within `schema` `papercusp.inspect/1`;
 * new optional fields may be added.
 *
 * Problem codes (stable; new codes may be added):
 * - unreadable input (exit 2, `line: null`): `unreadable` (missing file,
 *   directory, no permission), `too-large`, `not-text` (not UTF-8, or
 *   control characters), `sse-limit` (an SSE line or event over 1 MiB),
 *   `no-frames` (empty, comments only, an event that never ends);
 * - any dialect: `unknown-dialect`, `invalid-json`, `mixed-dialect`
 *   (warning: a frame of another dialect), `unterminated-event` (warning:
 *   the last SSE event has no blank line and is discarded), `truncated-line`
 *   (warning: the last NDJSON line is cut off and ignored);
 * - v1: the fold's refusal codes (`gap`, `duplicate`, `reordered`,
 *   `foreign-turn`, `illegal-transition`, `invalid-envelope`,
 *   `unsupported-version`, … see `ChatFoldRefusalCode`), `id-mismatch` and
 *   `event-name-mismatch` (warnings), `no-terminal-event` (warning),
 *   `too-large` (an envelope over parseChatEnvelopeJson's 1 MiB bound);
 * - Scout / v0: the legacy adapter's refusal codes (`invalid-event`,
 *   `missing-type`, `invalid-id`, `missing-call-identity`,
 *   `unknown-result-status`, … see `LegacyRefusalCode`), then the v1 fold's;
 *   `after-terminal`, `non-monotonic-id`; warnings `missing-id`, `id-precision`,
 *   `scout-name`, `derived-call-id`, `paired-by-name`, `no-retry-permission`;
 * - AI SDK: `invalid-chunk`, the UI message fold's issue codes (e.g.
 *   `orphan-chunk`), `more-issues`, `after-done`; warnings `no-finish`,
 *   `no-done`.
 *
 * @module
 */
import type { TurnTextSegment } from "../blocks/segments.ts";

export type { TurnTextSegment };

/** The dialects `inspect` recognises. */
export type InspectDialect = "v1" | "v0" | "scout" | "ai-sdk" | "unknown";

/** One finding about the capture. */
export interface InspectProblem {
  /** 1-based line where the frame starts; `null` for a finding about the whole capture. */
  line: number | null;
  /** `error`: a contract violation (exit 1). `warning`: worth knowing, not a violation. */
  severity: "error" | "warning";
  /** Stable machine-readable code, e.g. `invalid-event`, `gap`, `missing-call-identity`. */
  code: string;
  /** One sentence a person understands. */
  message: string;
}

/** A tool call of the folded turn. */
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
}

/** A card of the folded turn. */
export interface InspectCard {
  /** The card's correlation id. */
  correlationId: string;
  /** The card's prompt, when the capture showed the card opening. */
  prompt?: string;
  /** `open` or `closed`. */
  status: "open" | "closed";
  /** How it closed (v1 `resolution`), when stated. */
  resolution?: string;
}

/** An error the turn reported. */
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

/** The folded turn. */
export interface InspectTurn {
  /** Final status: v1 `TurnStatus` names (`completed`, `failed`, `running`, …); AI SDK adds `aborted`. */
  status: string;
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
  /** Why the turn stopped (v0/v1 `stopReason`, AI SDK `finishReason`). */
  stopReason?: string;
  /** Token / cost usage, as sent. */
  usage?: unknown;
}

/** Counts and the outcome. */
export interface InspectSummary {
  /** Frames read (SSE events or NDJSON lines), heartbeats included. */
  frames: number;
  /** Heartbeat frames (`event: heartbeat`). */
  heartbeats: number;
  /** SSE comment lines (`: …`, e.g. `: heartbeat` keep-alives or annotations). */
  comments: number;
  /** Frames accepted as chat events (or AI SDK chunks). */
  events: number;
  /** Domain events passed through. */
  domainEvents: number;
  /** Problems with severity `error`. */
  errors: number;
  /** Problems with severity `warning`. */
  warnings: number;
  /** The turn's final status, or `unknown`. */
  status: string;
}

/** The whole report. */
export interface InspectReport {
  /** Shape version of this report. */
  schema: "papercusp.inspect/1";
  /** The file name, `-` for stdin, or the bundled capture. */
  source: string;
  /** Container format; `unknown` when the input was unreadable. */
  format: "sse" | "ndjson" | "unknown";
  /** The detected (or forced) dialect. */
  dialect: InspectDialect;
  /** Why that dialect. */
  dialectReason: string;
  /** 0 clean, 1 contract violations, 2 unreadable input. */
  exitCode: 0 | 1 | 2;
  /** Every finding, by line. */
  problems: InspectProblem[];
  /** The folded turn, or `null`. */
  turn: InspectTurn | null;
  /** Counts and the outcome. */
  summary: InspectSummary;
}
