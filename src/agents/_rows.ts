/**
 * The structural readers the folds run on every row, so a fold
 * given arbitrary values (JSON, proxies, getters) skips (and counts) bad rows
 * instead of throwing, works on fresh copies read once, and never reads
 * inherited `meta` entries such as `constructor` or `__proto__`.
 *
 * @module
 */
import { isRecord, own as ownValue, ownString } from "../_internal/guards.ts";
import { readItems } from "../_internal/fields.ts";
import { type BrokerEvent, type BrokerSession, PRESENCE_STATES } from "./types.ts";

const PRESENCE: ReadonlySet<string> = new Set(PRESENCE_STATES);

/** `meta[key]` of a row that passed {@link isEvent}: own string values only. */
export function metaOf(event: BrokerEvent, key: string): string | undefined {
  // `meta` is already known to be a record: skip ownString's re-check on this hot path.
  const value = ownValue(event.meta, key);
  return typeof value === "string" ? value : undefined;
}

/**
 * A fresh copy of a {@link BrokerEvent} row, or `null` when `value` does not
 * have the shape (string msgId/kind/from/text, finite `at`, object `meta`)
 * or cannot be read (a throwing getter, a revoked proxy). Each field is read
 * once; `meta` keeps only its own string values (all the folds read), so a
 * later read of the copy can neither throw nor answer differently. Top-level
 * fields are read like zod reads them (an inherited one counts, as JSON never
 * produces one).
 */
export function readEvent(value: unknown): BrokerEvent | null {
  if (typeof value !== "object" || value === null) return null;
  try {
    const e = value as Partial<Record<keyof BrokerEvent, unknown>>;
    const msgId = e.msgId, kind = e.kind, from = e.from, text = e.text, at = e.at;
    const meta = e.meta;
    if (
      typeof msgId !== "string" || typeof kind !== "string" || typeof from !== "string" ||
      typeof text !== "string" || typeof at !== "number" || at - at !== 0 || !isRecord(meta)
    ) return null;
    return { msgId, kind, from, text, at, meta: ownStrings(meta) };
  } catch {
    return null;
  }
}

/** A fresh record of the own string values of `meta` (an own `__proto__` key is kept as data). */
function ownStrings(meta: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(meta)) {
    const v = meta[key];
    if (typeof v !== "string") continue;
    if (key === "__proto__") {
      Object.defineProperty(out, key, {
        value: v,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else out[key] = v;
  }
  return out;
}

/**
 * The valid rows of `events` (fresh copies, same order: see
 * {@link readEvent}) and how many were skipped. A value that is not an array
 * (or cannot be read) has no rows.
 */
export function validEvents(events: unknown): { events: BrokerEvent[]; malformed: number } {
  const items = readItems(events);
  if (items === null) return { events: [], malformed: 0 };
  const out: BrokerEvent[] = [];
  let malformed = 0;
  for (const item of items) {
    const event = readEvent(item);
    if (event === null) malformed++;
    else out.push(event);
  }
  return { events: out, malformed };
}

/**
 * Normalise one session: a fresh {@link BrokerSession} holding only the read
 * fields, or null when a required field is missing or mistyped (or cannot
 * be read). Optional fields of the wrong type are dropped (as if absent).
 */
export function readSession(value: unknown): BrokerSession | null {
  if (!isRecord(value)) return null;
  try {
    return sessionOf(value);
  } catch {
    return null; // a throwing getter or a proxy trap: not a session
  }
}

function sessionOf(value: Record<string, unknown>): BrokerSession | null {
  const name = ownValue(value, "name");
  const workingOn = ownValue(value, "workingOn");
  const cwd = ownValue(value, "cwd");
  const status = ownValue(value, "status");
  const idleMs = ownValue(value, "idleMs");
  const registeredAt = ownValue(value, "registeredAt");
  if (
    typeof name !== "string" || typeof workingOn !== "string" || typeof cwd !== "string" ||
    typeof status !== "string" || !PRESENCE.has(status) ||
    typeof idleMs !== "number" || !Number.isFinite(idleMs) ||
    typeof registeredAt !== "number" || !Number.isFinite(registeredAt)
  ) return null;
  const session: BrokerSession = {
    name,
    workingOn,
    cwd,
    status: status as BrokerSession["status"],
    idleMs,
    registeredAt,
  };
  const dnd = ownValue(value, "dnd");
  if (typeof dnd === "boolean") session.dnd = dnd;
  const provisional = ownValue(value, "provisional");
  if (typeof provisional === "boolean") session.provisional = provisional;
  const tags = readItems(ownValue(value, "tags"));
  if (tags !== null) {
    session.tags = [];
    for (const t of tags) {
      const tag = ownString(t, "tag");
      if (tag !== undefined) session.tags.push({ tag });
    }
  }
  const observed = ownValue(value, "observed");
  if (isRecord(observed)) {
    const gitBranch = ownString(observed, "gitBranch");
    const claudeSessionId = ownString(observed, "claudeSessionId");
    session.observed = {};
    if (gitBranch !== undefined) session.observed.gitBranch = gitBranch;
    if (claudeSessionId !== undefined) session.observed.claudeSessionId = claudeSessionId;
  }
  const declared = ownValue(value, "declared");
  if (isRecord(declared)) {
    const task = ownString(declared, "task");
    const taskId = ownString(declared, "taskId");
    const out: Record<string, string> = {};
    if (task !== undefined) out.task = task;
    if (taskId !== undefined) out.taskId = taskId;
    session.declared = out;
  }
  return session;
}

/** The valid sessions of `sessions` (normalised copies, same order) and how many were skipped. */
export function validSessions(sessions: unknown): { sessions: BrokerSession[]; malformed: number } {
  const items = readItems(sessions);
  if (items === null) return { sessions: [], malformed: 0 };
  const out: BrokerSession[] = [];
  let malformed = 0;
  for (const s of items) {
    const session = readSession(s);
    if (session) out.push(session);
    else malformed++;
  }
  return { sessions: out, malformed };
}
