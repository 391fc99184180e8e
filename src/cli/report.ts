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
 * @module
 */
import type { TurnTextSegment } from "../blocks/mod.ts";

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
  name: string;
  /** `running` (no result seen), `ok`, `error`, or a dialect-specific state (AI SDK part state). */
  status: string;
  input?: unknown;
  output?: unknown;
  summary?: string;
  errorText?: string;
}

/** A card of the folded turn. */
export interface InspectCard {
  correlationId: string;
  prompt?: string;
  /** `open` or `closed`. */
  status: "open" | "closed";
  resolution?: string;
}

/** An error the turn reported. */
export interface InspectTurnError {
  message: string;
  /** Retry permission when the dialect states it (v1); absent when unknown. */
  retryable?: boolean;
  code?: string;
}

/** A domain event passed through (Scout `products`, …). */
export interface InspectDomainEvent {
  line: number;
  type: string;
}

/** The folded turn. */
export interface InspectTurn {
  /** Final status: v1 `TurnStatus` names (`completed`, `failed`, `running`, …); AI SDK adds `aborted`. */
  status: string;
  sessionId?: string;
  provenance?: unknown;
  /** The assistant text, concatenated. */
  text: string;
  /** `text` split into text / `<report>` / `<ask>` / invalid-block segments. */
  segments: TurnTextSegment[];
  /** Reasoning text, when the dialect has it. */
  reasoning?: string;
  tools: InspectTool[];
  cards: InspectCard[];
  errors: InspectTurnError[];
  domainEvents: InspectDomainEvent[];
  stopReason?: string;
  usage?: unknown;
}

/** Counts and the outcome. */
export interface InspectSummary {
  /** Frames read (SSE events or NDJSON lines), heartbeats included. */
  frames: number;
  heartbeats: number;
  /** Frames accepted as chat events (or AI SDK chunks). */
  events: number;
  domainEvents: number;
  errors: number;
  warnings: number;
  /** The turn's final status, or `unknown`. */
  status: string;
}

/** The whole report. */
export interface InspectReport {
  schema: "papercusp.inspect/1";
  source: string;
  format: "sse" | "ndjson" | "unknown";
  dialect: InspectDialect;
  dialectReason: string;
  exitCode: 0 | 1 | 2;
  problems: InspectProblem[];
  turn: InspectTurn | null;
  summary: InspectSummary;
}
