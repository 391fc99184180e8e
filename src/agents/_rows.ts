/**
 * Internal: cheap structural guards the folds run on every row, so a fold
 * given arbitrary JSON skips (and counts) bad rows instead of throwing, and
 * never reads inherited properties such as `constructor` or `__proto__`.
 *
 * @module
 */
import { isRecord, own as ownValue, ownString } from "../_internal/guards.ts";
import { type BrokerEvent, type BrokerSession, PRESENCE_STATES } from "./types.ts";

const PRESENCE: ReadonlySet<string> = new Set(PRESENCE_STATES);

/** `meta[key]` of a row that passed {@link isEvent}: own string values only. */
export function metaOf(event: BrokerEvent, key: string): string | undefined {
  // `meta` is already known to be a record: skip ownString's re-check on this hot path.
  const value = ownValue(event.meta, key);
  return typeof value === "string" ? value : undefined;
}

/**
 * True when `value` has the {@link BrokerEvent} shape: string msgId/kind/from/
 * text, finite `at`, object `meta`. (`meta` values are checked on read, with
 * own-property checks; top-level fields are only read, so an inherited one
 * cannot do harm, and JSON never produces inherited fields.)
 */
export function isEvent(value: unknown): value is BrokerEvent {
  if (typeof value !== "object" || value === null) return false;
  const e = value as Partial<Record<keyof BrokerEvent, unknown>>;
  const at = e.at;
  const meta = e.meta;
  return typeof e.msgId === "string" && typeof e.kind === "string" &&
    typeof e.from === "string" && typeof e.text === "string" &&
    typeof at === "number" && at - at === 0 &&
    typeof meta === "object" && meta !== null && !Array.isArray(meta);
}

/** The valid rows of `events` (same objects, same order) and how many were skipped. */
export function validEvents(events: unknown): { events: BrokerEvent[]; malformed: number } {
  if (!Array.isArray(events)) return { events: [], malformed: 0 };
  let malformed = 0;
  for (let i = 0; i < events.length; i++) if (!isEvent(events[i])) malformed++;
  // Common case: nothing to drop, reuse the caller's array (never mutated).
  if (malformed === 0) return { events: events as BrokerEvent[], malformed };
  return { events: events.filter(isEvent), malformed };
}

/**
 * Normalise one session: a fresh {@link BrokerSession} holding only the read
 * fields, or null when a required field is missing or mistyped. Optional
 * fields of the wrong type are dropped (as if absent).
 */
export function readSession(value: unknown): BrokerSession | null {
  if (!isRecord(value)) return null;
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
  const tags = ownValue(value, "tags");
  if (Array.isArray(tags)) {
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
  if (!Array.isArray(sessions)) return { sessions: [], malformed: 0 };
  const out: BrokerSession[] = [];
  let malformed = 0;
  for (const s of sessions) {
    const session = readSession(s);
    if (session) out.push(session);
    else malformed++;
  }
  return { sessions: out, malformed };
}
