/**
 * Roster fold (spec agents.md §4): live presence joined to lifecycle records,
 * plus every incarnation known only from history.
 *
 * @module
 */
import { ownString } from "../_internal/guards.ts";
import { readFields, readItems } from "../_internal/fields.ts";
import { validEvents, validSessions } from "./_rows.ts";
import { idClaimer } from "./_unique_ids.ts";
import {
  agedOutFacts,
  countOutOfOrder,
  countUnknownKinds,
  limitOf,
  windowOf,
} from "./_fold_window.ts";
import { lifecycleOf } from "./_lifecycle_fold.ts";
import type { AgentOrphanRecord, AgentRecord } from "./lifecycle.ts";
import {
  type AgentRosterEntry,
  type AgentRosterSnapshot,
  type AgentState,
  type BrokerEvent,
  type BrokerSession,
  type FoldDiagnostics,
  type HistoryWindow,
  type SpawnRowStatus,
} from "./types.ts";

/** Below this broker uptime (ms) the in-memory registry is still refilling after a restart. */
export const RECONNECT_WINDOW_MS = 10_000;

/** A seat owns the agents named `<prefix>-…`. */
export interface SeatPrefix {
  /** Seat name reported in `AgentRosterEntry.seat`. */
  seat: string;
  /** Name prefix, matched as `prefix + '-'`. */
  prefix: string;
}

/** Input of {@link foldRoster}. Times are epoch ms, durations ms. */
export interface RosterInput {
  /** `/api/sessions` `sessions` (invalid rows are skipped and counted). */
  sessions: readonly BrokerSession[];
  /** `/api/sessions` `brokerUptimeMs`, or null when unknown. */
  brokerUptimeMs: number | null;
  /** `/api/history` `items`, oldest first (invalid rows are skipped and counted). */
  events: readonly BrokerEvent[];
  /**
   * The `?limit=` the history was fetched with (the broker caps it at 1,000,
   * so 1,000 rows count as a full window whatever the limit). A finite value
   * ≥ 1 is rounded down; anything else reads as 1,000.
   */
  historyLimit: number;
  /**
   * Rows the broker returned, when `events` was pre-filtered (e.g. by
   * `parseBrokerHistory`, which drops malformed rows); defaults to
   * `events.length`. Used for `history.events` and the full-window test.
   */
  historyRows?: number;
  /** Current time, epoch ms (used for `lastEventAt` of live rows and `generatedAt`). */
  now: number;
  /** Seat prefixes; the longest matching prefix wins. */
  seatPrefixes?: readonly SeatPrefix[];
  /**
   * Priced transcript total (US dollars) for a Claude session id, from
   * session-analytics. Only a finite number counts; anything else (or a
   * throw) falls back to the exit report.
   */
  costOf?: (claudeSessionId: string) => number | undefined;
}

const TASK_ID = /\b[A-Z][A-Z0-9]*-\d+\b/;

/** The {@link RosterInput} fields, each read once. */
const ROSTER_KEYS = [
  "sessions",
  "brokerUptimeMs",
  "events",
  "historyLimit",
  "historyRows",
  "now",
  "seatPrefixes",
  "costOf",
] as const;

/** What the row builders read of the input: the session-analytics price lookup. */
interface Input {
  readonly costOf?: unknown;
}

/** `v` when it is a finite number, else `fallback`. */
function finiteOr<T>(v: unknown, fallback: T): number | T {
  return typeof v === "number" && Number.isFinite(v) ? v : fallback;
}

/**
 * The window a fold saw: `{events: events.length, limit, oldestAt: min(at) or null}`.
 * `oldestAt` is epoch ms; rows without a finite numeric `at` are ignored for it.
 */
export function historyWindowOf(events: readonly BrokerEvent[], limit: number): HistoryWindow {
  let oldest: number | null = null;
  const rows = readItems(events) ?? [];
  for (const e of rows) {
    const at = readFields(e, ["at"])?.at;
    if (typeof at === "number" && Number.isFinite(at) && (oldest === null || at < oldest)) {
      oldest = at;
    }
  }
  return { events: rows.length, limit, oldestAt: oldest };
}

/**
 * The seat of `name`: among prefixes where `name` starts with `prefix + '-'`,
 * the longest wins (ties keep the earlier); none → null. (`tpc-x` with
 * `tp`/`tpc` → the `tpc` seat; `tpcx` → null; the bare name `tpc` → null.)
 * Never throws: a non-string `name` or a non-array `prefixes` → null, and
 * prefixes without string `seat`/`prefix` are skipped.
 */
export function seatOf(name: string, prefixes: readonly SeatPrefix[]): string | null {
  if (typeof name !== "string") return null;
  return seatIn(name, seatPrefixesOf(prefixes));
}

/** The well-formed `{seat, prefix}` entries of `prefixes`, each read once (hostile values skipped). */
function seatPrefixesOf(prefixes: unknown): SeatPrefix[] {
  const out: SeatPrefix[] = [];
  for (const p of readItems(prefixes) ?? []) {
    const f = readFields(p, ["seat", "prefix"]);
    if (typeof f?.prefix === "string" && typeof f.seat === "string") {
      out.push({ seat: f.seat, prefix: f.prefix });
    }
  }
  return out;
}

/** {@link seatOf} over prefixes already read. */
function seatIn(name: string, prefixes: readonly SeatPrefix[]): string | null {
  let best: SeatPrefix | null = null;
  for (const p of prefixes) {
    if (!name.startsWith(`${p.prefix}-`)) continue;
    if (best === null || p.prefix.length > best.prefix.length) best = p;
  }
  return best?.seat ?? null;
}

function taskIdOf(
  declared: Record<string, string> | undefined,
  workingOn: string | null,
): string | null {
  const stated = ownString(declared, "task") ?? ownString(declared, "taskId");
  if (stated) return stated;
  return TASK_ID.exec(workingOn ?? "")?.[0] ?? null;
}

function priced(input: Input, claudeSessionId: string | null): number | undefined {
  const costOf = input.costOf;
  if (!claudeSessionId || typeof costOf !== "function") return undefined;
  try {
    const value = costOf(claudeSessionId);
    return typeof value === "number" && Number.isFinite(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function costFacts(
  input: Input,
  claudeSessionId: string | null,
  record: AgentRecord | AgentOrphanRecord | undefined,
): Pick<AgentRosterEntry, "costUsd" | "costSource"> {
  const value = priced(input, claudeSessionId);
  if (value !== undefined) return { costUsd: value, costSource: "session-analytics" };
  if (record !== undefined && record.exitCostUsd !== null) {
    return { costUsd: record.exitCostUsd, costSource: "exit-report" };
  }
  return { costUsd: null, costSource: null };
}

function originOf(record: AgentRecord | undefined): AgentRosterEntry["origin"] {
  return record === undefined ? "unknown" : record.adopted ? "adopted" : "spawned";
}

function historyState(lifecycle: AgentRecord["lifecycle"]): AgentState {
  return lifecycle === "live" ? "detached" : lifecycle;
}

/**
 * Make roster ids unique. Presence rows claim their ids first (in session
 * order), then the newest incarnations' history rows, then superseded
 * ones; a row whose id is already taken — a respawn that resumed the same
 * Claude session, two spawns of a name in the same millisecond — gets
 * `#<agentId>` appended (`#<name>` for a presence row or a row without a
 * spawn row; agent ids, live names and such rows' names are unique); when
 * that is taken too (identical rows), `#2`, `#3`, … after it (see
 * `_unique_ids.ts`: bounded ids, near-linear). Mutates the rows.
 */
function uniqueIds(live: AgentRosterEntry[], past: AgentRosterEntry[]): void {
  const claim = idClaimer();
  // Two live connections claiming one Claude session: the later one gets `#<name>`.
  for (const row of live) row.id = claim(row.id, row.name);
  for (const row of past) {
    if (row.supersededBy === null) row.id = claim(row.id, row.agentId ?? row.name);
  }
  for (const row of past) {
    if (row.supersededBy !== null) row.id = claim(row.id, row.agentId ?? row.name);
  }
}

/**
 * Fold presence and history into roster rows (spec agents.md §4).
 *
 * - One presence row per valid session, in input order, joined to the
 *   **newest** incarnation of its name (`stateSource: 'presence'`).
 * - Then one history row per lifecycle record not joined to a live session —
 *   names not live, and every superseded incarnation (respawns keep their own
 *   state, cost and session) — sorted by `lastEventAt` descending (stable).
 *   A history `live` lifecycle shows as `detached` (no socket).
 * - Ids are unique: a superseded incarnation whose id (same Claude session
 *   id, or same `<name>@<spawnedAt>`) is already taken by another row gets
 *   `#<agentId>` appended, so a respawned name never shares its
 *   predecessor's id.
 * - `retired` is final; `reconnecting` = uptime < {@link RECONNECT_WINDOW_MS}.
 * - Rows are walked in the given order (the broker's: oldest first);
 *   `diagnostics.outOfOrderRows` counts rows older than their predecessor.
 * - `history` is the window seen; `diagnostics` counts skipped rows and names
 *   whose spawn row likely aged out (full window and lifecycle rows without a
 *   spawn row, or a live session that registered before the oldest row with
 *   no spawn row in the window). Such rows say `origin: 'unknown'`.
 * - No record is lost when a spawn row aged out: a name with lifecycle rows
 *   (attached, detached, exited, resumed, retired) before any spawn row of
 *   it in the window gets a history row built from those rows
 *   ({@link AgentOrphanRecord}) unless a live session of the name joins them
 *   (then the presence row takes its exit-report cost and times) — only
 *   while those rows leave it running (`live`/`detached`): after a final
 *   exit, failure or retirement the session is a later one and the
 *   name-keyed row stays, with its state and cost, beside it. That row
 *   is keyed by name — `id: 'name:<name>'`, `idSource: 'name'`,
 *   `agentId: null`, `origin: 'unknown'`, `spawnRow: 'likely-aged-out'`
 *   (`'absent'` when the window is not full) — with `state` from the rows
 *   (`live` → `detached`, `retired` final), `costUsd` from the exit report,
 *   `lastEventAt` = its newest row, `spawnedAt`/`spawnedBy`/`seat`/
 *   `workingOn` null (nothing is guessed), and `supersededBy` = the agent id
 *   of a later spawn of the name in the window, if any.
 *
 * Never throws on malformed rows: they are skipped and counted; an input
 * whose fields cannot be read (a throwing getter, a revoked proxy) folds as
 * empty, and a `costOf` that throws falls back to the exit report.
 *
 * @example
 * ```ts
 * import { foldRoster } from "@papercusp/chat-protocol/agents";
 * const snapshot = foldRoster({
 *   sessions: [],
 *   brokerUptimeMs: 2300,
 *   events: [
 *     { msgId: "5e0c9a17", kind: "agent_spawned", from: "tpc", text: "TP-841: fold roster", at: 1000, meta: { target: "tpc-impl" } },
 *   ],
 *   historyLimit: 1000,
 *   now: 5000,
 *   seatPrefixes: [{ seat: "titan", prefix: "tpc" }],
 * });
 * snapshot.reconnecting; // true
 * snapshot.agents[0].state; // "spawning"
 * snapshot.agents[0].seat; // "titan"
 * ```
 */
export function foldRoster(input: RosterInput): AgentRosterSnapshot {
  // Each input field is read once (an unreadable input reads as empty).
  const raw = readFields(input, ROSTER_KEYS);
  const { events, malformed: malformedEvents } = validEvents(raw?.events);
  const { sessions, malformed: malformedSessions } = validSessions(raw?.sessions);
  const prefixes = seatPrefixesOf(raw?.seatPrefixes);
  const now = finiteOr(raw?.now, 0);
  const limit = limitOf(raw?.historyLimit);
  const uptime = finiteOr(raw?.brokerUptimeMs, null);
  const costed: Input = { costOf: raw?.costOf as Input["costOf"] };

  const fold = lifecycleOf(events, malformedEvents);
  const window = windowOf(raw?.events, limit, raw?.historyRows);
  const aged = agedOutFacts(fold, window);
  const agedOut = new Set<string>(aged.orphans);
  const joined = new Set<AgentRecord | AgentOrphanRecord>();

  const live: AgentRosterEntry[] = sessions.map((session) => {
    const record = fold.newest.get(session.name);
    if (record !== undefined) joined.add(record);
    // No spawn row in the window: the session is the incarnation the
    // lifecycle rows without one describe (the newest known) only while those
    // rows leave it running (live/detached); after an exit/failure/retirement
    // (final) it is a later session, which must not take that exit cost.
    const candidate = record === undefined ? fold.orphans.get(session.name) : undefined;
    const orphan = candidate !== undefined &&
        (candidate.lifecycle === "live" || candidate.lifecycle === "detached")
      ? candidate
      : undefined;
    if (orphan !== undefined) joined.add(orphan);
    let spawnRow: SpawnRowStatus = "seen";
    if (record === undefined) {
      const before = window.oldestAt !== null && session.registeredAt < window.oldestAt;
      spawnRow = aged.full && (aged.orphans.has(session.name) || before)
        ? "likely-aged-out"
        : "absent";
      if (spawnRow === "likely-aged-out") agedOut.add(session.name);
    }
    const observedId = session.observed?.claudeSessionId;
    const claudeSessionId = observedId ?? (record && ownString(record.meta, "session_id")) ?? null;
    const cost = costFacts(costed, claudeSessionId, record ?? orphan);
    return {
      id: claudeSessionId ? claudeSessionId : `${session.name}@${session.registeredAt}`,
      idSource: claudeSessionId ? "claudeSessionId" : "nameAtRegisteredAt",
      name: session.name,
      agentId: record?.agentId ?? null,
      state: session.status,
      stateSource: "presence",
      origin: originOf(record),
      workingOn: session.workingOn,
      cwd: session.cwd,
      gitBranch: session.observed?.gitBranch ?? null,
      seat: record === undefined ? null : seatIn(record.name, prefixes),
      surface: (record && ownString(record.meta, "surface")) || null,
      profile: (record && ownString(record.meta, "profile")) || null,
      taskId: taskIdOf(session.declared, session.workingOn),
      spawnedBy: record?.spawnedBy ?? null,
      claudeSessionId: claudeSessionId ? claudeSessionId : null,
      registeredAt: session.registeredAt,
      spawnedAt: record?.spawnedAt ?? null,
      lastEventAt: Math.max(
        now - session.idleMs,
        record?.lastEventAt ?? orphan?.lastEventAt ?? 0,
      ),
      idleMs: session.idleMs,
      dnd: session.dnd ?? false,
      provisional: session.provisional ?? false,
      tags: (session.tags ?? []).map((t) => t.tag),
      costUsd: cost.costUsd,
      costSource: cost.costSource,
      spawnRow,
      supersededBy: record?.supersededBy ?? null,
    } satisfies AgentRosterEntry;
  });

  const past: AgentRosterEntry[] = [
    ...[...fold.records.values()].filter((record) => !joined.has(record)).map((record) =>
      spawnedRow(costed, record, prefixes)
    ),
    ...[...fold.orphans.values()].filter((orphan) => !joined.has(orphan)).map((orphan) =>
      orphanRow(costed, orphan, aged.full)
    ),
  ].sort((a, b) => b.lastEventAt! - a.lastEventAt!);

  uniqueIds(live, past);

  const diagnostics: FoldDiagnostics = {
    malformedEvents,
    malformedSessions,
    unknownKinds: countUnknownKinds(events),
    outOfOrderRows: countOutOfOrder(events),
    historyFull: aged.full,
    spawnRowsLikelyAgedOut: [...agedOut].sort(),
  };
  return {
    agents: [...live, ...past],
    brokerUptimeMs: uptime,
    reconnecting: uptime !== null && uptime < RECONNECT_WINDOW_MS,
    history: window,
    generatedAt: now,
    diagnostics,
  };
}

/**
 * The fields of a history-only row that only a live session could fill (no
 * idle time, flags or tags), plus its cost; spread in place, so key order
 * stays that of {@link AgentRosterEntry}.
 */
function notLive(
  cost: Pick<AgentRosterEntry, "costUsd" | "costSource">,
): Pick<AgentRosterEntry, "idleMs" | "dnd" | "provisional" | "tags" | "costUsd" | "costSource"> {
  return {
    idleMs: null,
    dnd: false,
    provisional: false,
    tags: [],
    costUsd: cost.costUsd,
    costSource: cost.costSource,
  };
}

/** History row of one incarnation whose spawn row is in the window. */
function spawnedRow(
  input: Input,
  record: AgentRecord,
  prefixes: readonly SeatPrefix[],
): AgentRosterEntry {
  const claudeSessionId = ownString(record.meta, "session_id") || null;
  const workingOn = record.brief.split("\n", 1)[0] || null;
  const cost = costFacts(input, claudeSessionId, record);
  return {
    id: claudeSessionId ? claudeSessionId : `${record.name}@${record.spawnedAt}`,
    idSource: claudeSessionId ? "claudeSessionId" : "nameAtRegisteredAt",
    name: record.name,
    agentId: record.agentId,
    state: historyState(record.lifecycle),
    stateSource: "history",
    origin: originOf(record),
    workingOn,
    cwd: ownString(record.meta, "cwd") || null,
    gitBranch: null,
    seat: seatIn(record.name, prefixes),
    surface: ownString(record.meta, "surface") || null,
    profile: ownString(record.meta, "profile") || null,
    taskId: taskIdOf(undefined, workingOn),
    spawnedBy: record.spawnedBy,
    claudeSessionId,
    registeredAt: null,
    spawnedAt: record.spawnedAt,
    lastEventAt: record.lastEventAt,
    ...notLive(cost),
    spawnRow: "seen",
    supersededBy: record.supersededBy,
  } satisfies AgentRosterEntry;
}

/**
 * History row of a name known only from lifecycle rows whose spawn row is
 * not in the window: keyed by name, nothing guessed (see {@link foldRoster}).
 */
function orphanRow(
  input: Input,
  orphan: AgentOrphanRecord,
  full: boolean,
): AgentRosterEntry {
  const cost = costFacts(input, null, orphan);
  return {
    id: `name:${orphan.name}`,
    idSource: "name",
    name: orphan.name,
    agentId: null,
    state: historyState(orphan.lifecycle),
    stateSource: "history",
    origin: "unknown",
    workingOn: null,
    cwd: null,
    gitBranch: null,
    seat: null,
    surface: null,
    profile: null,
    taskId: null,
    spawnedBy: null,
    claudeSessionId: null,
    registeredAt: null,
    spawnedAt: null,
    lastEventAt: orphan.lastEventAt,
    ...notLive(cost),
    spawnRow: full ? "likely-aged-out" : "absent",
    supersededBy: orphan.supersededBy,
  };
}
