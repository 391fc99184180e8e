/**
 * Tolerant readers for the broker's `/api/sessions` and `/api/history`
 * bodies: each row is checked on its own with the zod schemas, bad rows are
 * skipped and counted (with the first few reasons), unknown event kinds parse.
 * Only a body that is not the expected object at all is refused.
 *
 * @module
 */
import { isRecord } from "../_internal/guards.ts";
import { readItems, readOwnFields } from "../_internal/fields.ts";
import { err, ok, type Refusal, type Result } from "../result.ts";
import { type BrokerEvent, brokerEvent, type BrokerSession, brokerSession } from "./types.ts";

/** At most this many row problems are kept in a parse report (the count is exact). */
export const MAX_REPORTED_ISSUES = 20;

/** Why one row was skipped. */
export interface RowIssue {
  /** Index of the row in the input array. */
  index: number;
  /** First schema problem, e.g. `at: Invalid input: expected number, received string`. */
  message: string;
}

/** A refused broker body: `code: 'malformed-payload'`, and which body. */
export interface BrokerPayloadRefusal extends Refusal<"malformed-payload"> {
  /** `sessions` or `history`. */
  readonly payload: "sessions" | "history";
}

/** Tolerant read of `/api/history`. */
export interface ParsedHistory {
  /** Valid rows, input order. */
  events: BrokerEvent[];
  /** Rows skipped. */
  malformed: number;
  /** Up to {@link MAX_REPORTED_ISSUES} reasons. */
  issues: RowIssue[];
}

/** Tolerant read of `/api/sessions`. */
export interface ParsedSessions {
  /** Valid sessions, input order. */
  sessions: BrokerSession[];
  /** Broker uptime, ms; null when missing or not a finite number. */
  brokerUptimeMs: number | null;
  /** Sessions skipped. */
  malformed: number;
  /** Up to {@link MAX_REPORTED_ISSUES} reasons. */
  issues: RowIssue[];
}

function rows<T>(
  input: readonly unknown[],
  schema: {
    safeParse(
      v: unknown,
    ): { success: true; data: T } | {
      success: false;
      error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
    };
  },
): { values: T[]; malformed: number; issues: RowIssue[] } {
  const values: T[] = [];
  const issues: RowIssue[] = [];
  let malformed = 0;
  input.forEach((row, index) => {
    // zod reads the row, and formats its issues from it: a row it cannot read
    // (a throwing getter, a revoked proxy, in the parse or in the issue's
    // message) is malformed, never thrown
    let value: { ok: true; data: T } | { ok: false; message: string };
    try {
      const parsed = schema.safeParse(row);
      if (parsed.success) value = { ok: true, data: parsed.data };
      else {
        const first = issues.length < MAX_REPORTED_ISSUES ? parsed.error.issues[0] : undefined;
        const path = first ? first.path.map(String).join(".") : "";
        const message = first ? first.message : "invalid";
        value = { ok: false, message: `${path ? `${path}: ` : ""}${String(message)}` };
      }
    } catch {
      value = { ok: false, message: "unreadable row" };
    }
    if (value.ok) {
      values.push(value.data);
      return;
    }
    malformed++;
    if (issues.length < MAX_REPORTED_ISSUES) issues.push({ index, message: value.message });
  });
  return { values, malformed, issues };
}

/**
 * Read a `/api/history` body (`{items: QueueItem[]}`, already JSON-parsed).
 * A bare array of rows is accepted too. Refuses (`malformed-payload`) only
 * when there is no `items` array.
 *
 * @example
 * ```ts
 * import { parseBrokerHistory } from "@papercusp/chat-protocol/agents";
 * const r = parseBrokerHistory({ items: [{ msgId: "x", kind: "new_kind", from: "a", text: "", at: 1, meta: {} }, 42] });
 * if (r.ok) { r.value.events.length; r.value.malformed; } // 1, 1
 * ```
 */
export function parseBrokerHistory(json: unknown): Result<ParsedHistory, BrokerPayloadRefusal> {
  const items = readItems(json) ?? readItems(readOwnFields(json, ["items"])?.items);
  if (items === null) {
    return err({
      code: "malformed-payload",
      payload: "history",
      message: "expected a /api/history body: an object with an `items` array",
    });
  }
  const { values, malformed, issues } = rows(items, brokerEvent);
  return ok({ events: values, malformed, issues });
}

/**
 * Read a `/api/sessions` body (`{sessions: SessionInfo[], brokerUptimeMs}`,
 * already JSON-parsed). Refuses (`malformed-payload`) only when there is no
 * `sessions` array; a missing uptime reads as null.
 */
export function parseBrokerSessions(json: unknown): Result<ParsedSessions, BrokerPayloadRefusal> {
  const body = isRecord(json) ? readOwnFields(json, ["sessions", "brokerUptimeMs"]) : null;
  const sessions = readItems(body?.sessions);
  if (body === null || sessions === null) {
    return err({
      code: "malformed-payload",
      payload: "sessions",
      message: "expected a /api/sessions body: an object with a `sessions` array",
    });
  }
  const uptime = body.brokerUptimeMs;
  const { values, malformed, issues } = rows(sessions, brokerSession);
  return ok({
    sessions: values,
    brokerUptimeMs: typeof uptime === "number" && Number.isFinite(uptime) ? uptime : null,
    malformed,
    issues,
  });
}
