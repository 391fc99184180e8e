/**
 * Wire shapes of the agent-chat broker's read API (`/api/sessions`,
 * `/api/history`) and of the roster / spawn-graph snapshots folded from them,
 * as zod schemas plus their TypeScript types.
 *
 * Source of the shapes: agent-chat `src/api-contract.ts` (`SessionInfo`,
 * `QueueItem`), `src/broker/event-log.ts` (history projection) and the titan
 * `@titan-design/chat-protocol/agents` types (0.3.0 names). Our snapshots add
 * a few fields titan lacks (`spawnRow`, `supersededBy`, `diagnostics`); every
 * titan field is present with titan's meaning.
 *
 * Units: every `…At` is epoch milliseconds (broker clock), every `…Ms` is a
 * duration in milliseconds, `costUsd` is US dollars.
 *
 * @module
 */
import { z } from "zod";
import { ownRecord } from "../_internal/record_schema.ts";

// ---------------------------------------------------------------------------
// Constants
// ---------------------------------------------------------------------------

/** Presence states a live broker session reports (`SessionInfo.status`). */
export const PRESENCE_STATES = ["working", "available", "blocked"] as const;

/** States known only from the history log (no live socket needed to know them). */
export const HISTORY_STATES = ["spawning", "detached", "exited", "failed", "retired"] as const;

/** History states whose process may still be running (`spawning`, `detached`). */
export const LIVE_HISTORY_STATES = ["spawning", "detached"] as const;

/** Activity categories a graph node glows with (see `activityCategory`). */
export const ACTIVITY_CATEGORIES = ["message", "question", "notice", "thinking"] as const;

/**
 * The 24 event kinds of agent-chat's `EVENT_KINDS` (stored version). Folds
 * accept any string as a kind and ignore kinds they do not know; this list is
 * only used to count unknown kinds in {@link FoldDiagnostics}.
 */
export const EVENT_KINDS: readonly string[] = [
  "message",
  "broadcast",
  "question",
  "notice",
  "answer",
  "resolution",
  "approval_request",
  "endorse_request",
  "decided",
  "registered",
  "deregistered",
  "route_failed",
  "agent_spawned",
  "agent_attached",
  "agent_detached",
  "agent_resumed",
  "agent_exited",
  "agent_retired",
  "agent_handoff",
  "agent_stood_down",
  "isolation_allocated",
  "isolation_released",
  "agent_spawn_refused",
  "verdict_refused",
];

// ---------------------------------------------------------------------------
// Broker payloads
// ---------------------------------------------------------------------------

/** A string→string map (broker `meta`, session `declared`). */
export type StringMap = Record<string, string>;

/** `Record<string,string>` schema; an own `__proto__` key is refused (never stripped). */
const stringMap: z.ZodType<StringMap> = ownRecord(z.string(), z.string());

/**
 * One `/api/history` row (`QueueItem`): `msgId` (the row's `msg_id`, or its
 * numeric id as a string), `kind` (any string: new kinds parse and are
 * ignored by the folds), `from` (the actor), `text` (body or `''`), `at`
 * (epoch ms, stamped at append) and `meta` (string→string, with the row's
 * `target` column merged in as `meta.target`). A missing or `null` `meta` is
 * read as `{}`.
 */
export interface BrokerEvent {
  /** Row message id; for `agent_spawned` it is the durable agent id. */
  msgId: string;
  /** Event kind, e.g. `agent_spawned`, `message`. Unknown kinds are allowed. */
  kind: string;
  /** Actor name. */
  from: string;
  /** Body, `''` when the row has none. */
  text: string;
  /** Append time, epoch ms. */
  at: number;
  /** String→string metadata; `target` holds the row's target column. */
  meta: StringMap;
}

/** Schema of {@link BrokerEvent}; unknown keys are stripped. */
export const brokerEvent: z.ZodType<BrokerEvent> = z.object({
  msgId: z.string(),
  kind: z.string(),
  from: z.string(),
  text: z.string(),
  at: z.number().finite(),
  meta: z.preprocess((v) => (v === undefined || v === null ? {} : v), stringMap),
});

/** A broker presence status. */
export type PresenceState = (typeof PRESENCE_STATES)[number];

/**
 * One live connection of `/api/sessions` (`SessionInfo`). Only the fields the
 * folds read are kept; other keys (`observed.worktreePath`, `tags[].by`, …)
 * are stripped by the schema.
 */
export interface BrokerSession {
  /** Registered session name (unique among live sessions). */
  name: string;
  /** Free-text status line, may be `''`. */
  workingOn: string;
  /** Working directory of the session. */
  cwd: string;
  /** `blocked` whenever a permission dialog is open. */
  status: PresenceState;
  /** Now − last activity on the connection, ms. */
  idleMs: number;
  /** Registration time, epoch ms (kept across re-registers on one connection). */
  registeredAt: number;
  /** Do-not-disturb flag (absent in older brokers). */
  dnd?: boolean;
  /** `true` when the name was derived from the directory. */
  provisional?: boolean;
  /** Tags applied to the session (only `tag` is kept). */
  tags?: Array<{ tag: string }>;
  /** What the broker observed about the session. */
  observed?: { gitBranch?: string; claudeSessionId?: string };
  /** Model-supplied claims (≤ 8 keys). */
  declared?: StringMap;
}

/** Schema of {@link BrokerSession}. `status` must be one of {@link PRESENCE_STATES}. */
export const brokerSession: z.ZodType<BrokerSession> = z.object({
  name: z.string(),
  workingOn: z.string(),
  cwd: z.string(),
  status: z.enum(PRESENCE_STATES),
  idleMs: z.number().finite(),
  registeredAt: z.number().finite(),
  dnd: z.boolean().optional(),
  provisional: z.boolean().optional(),
  tags: z.array(z.object({ tag: z.string() })).optional(),
  observed: z.object({ gitBranch: z.string().optional(), claudeSessionId: z.string().optional() })
    .optional(),
  declared: stringMap.optional(),
});

/** `GET /api/sessions` body. `brokerUptimeMs` = now − broker start, ms. */
export interface BrokerSessions {
  /** One entry per live connection. */
  sessions: BrokerSession[];
  /** Broker uptime, ms. */
  brokerUptimeMs: number;
}

/** Strict schema of the whole `/api/sessions` body (one bad row fails it; see `parseBrokerSessions` for the tolerant reader). */
export const brokerSessions: z.ZodType<BrokerSessions> = z.object({
  sessions: z.array(brokerSession),
  brokerUptimeMs: z.number().finite(),
});

/** `GET /api/history` body: the newest N rows, oldest first. */
export interface BrokerHistory {
  /** Rows in ascending id order. */
  items: BrokerEvent[];
}

/** Strict schema of the whole `/api/history` body (see `parseBrokerHistory` for the tolerant reader). */
export const brokerHistory: z.ZodType<BrokerHistory> = z.object({ items: z.array(brokerEvent) });

// ---------------------------------------------------------------------------
// Roster
// ---------------------------------------------------------------------------

/** Presence ∪ history states (8 values). */
export type AgentState = PresenceState | (typeof HISTORY_STATES)[number];
/** Schema of {@link AgentState}. */
export const agentState: z.ZodType<AgentState> = z.enum([...PRESENCE_STATES, ...HISTORY_STATES]);

/** Where a roster row's `state` came from. */
export type AgentStateSource = "presence" | "history";
/** Schema of {@link AgentStateSource}. */
export const agentStateSource: z.ZodType<AgentStateSource> = z.enum(["presence", "history"]);

/**
 * How a roster row's `id` was made: the Claude session id, or
 * `<name>@<epoch ms>` (registration or spawn time), or — extension over
 * titan — `name`: `name:<name>` for a row known only from lifecycle rows
 * whose spawn row is not in the window (no agent id, no session id, no
 * spawn time to key it by; `agentId` is then null).
 */
export type AgentIdSource = "claudeSessionId" | "nameAtRegisteredAt" | "name";
/** Schema of {@link AgentIdSource}. */
export const agentIdSource: z.ZodType<AgentIdSource> = z.enum([
  "claudeSessionId",
  "nameAtRegisteredAt",
  "name",
]);

/** `spawned` / `adopted` from the spawn row; `unknown` when no spawn row is in the window. */
export type AgentOrigin = "spawned" | "adopted" | "unknown";
/** Schema of {@link AgentOrigin}. */
export const agentOrigin: z.ZodType<AgentOrigin> = z.enum(["spawned", "adopted", "unknown"]);

/** Where `costUsd` came from: a priced transcript, or the `agent_exited` row's `cost_usd`. */
export type AgentCostSource = "session-analytics" | "exit-report";
/** Schema of {@link AgentCostSource}. */
export const agentCostSource: z.ZodType<AgentCostSource> = z.enum([
  "session-analytics",
  "exit-report",
]);

/**
 * Whether the agent's spawn row is in the history window (an extension over
 * titan): `seen`; `absent` (no spawn row and no sign it ever had one, e.g. a
 * human-started session, or the whole log is visible); `likely-aged-out` (the
 * window is full, `events ≥ limit`, and the agent has lifecycle rows without a
 * spawn row, or registered before the oldest row: its spawn row most likely
 * fell out of the broker's 1,000-row window, so `origin` says `unknown`
 * rather than guessing). A roster row for an agent that is not live and has
 * no spawn row in the window (`absent` or `likely-aged-out`) is built from
 * its lifecycle rows: `idSource: 'name'`, `agentId: null`.
 */
export type SpawnRowStatus = "seen" | "absent" | "likely-aged-out";
/** Schema of {@link SpawnRowStatus}. */
export const spawnRowStatus: z.ZodType<SpawnRowStatus> = z.enum([
  "seen",
  "absent",
  "likely-aged-out",
]);

/** One roster row. Every field is always present (`null` where unknown). */
export interface AgentRosterEntry {
  /**
   * Stable id, unique within a snapshot: the Claude session id, else
   * `<name>@<registeredAt or spawnedAt>`, else (not live, no spawn row in the
   * window) `name:<name>`; a superseded incarnation whose id another row
   * already has gets `#<agentId>` appended.
   */
  id: string;
  /** How `id` was made. */
  idSource: AgentIdSource;
  /** Agent (session) name. */
  name: string;
  /** Durable agent id (the spawn row's msgId), null without a spawn row in the window. */
  agentId: string | null;
  /** Current state. */
  state: AgentState;
  /** Presence (live socket) or history (lifecycle rows). */
  stateSource: AgentStateSource;
  /** Spawned, adopted or unknown. */
  origin: AgentOrigin;
  /** Presence status line, or the first line of the spawn brief. */
  workingOn: string | null;
  /** Working directory. */
  cwd: string | null;
  /** Observed git branch (presence only). */
  gitBranch: string | null;
  /** Seat from the longest matching `<prefix>-` (null without a spawn record). */
  seat: string | null;
  /** Spawn `meta.surface`, e.g. `headless`. */
  surface: string | null;
  /** Spawn `meta.profile`. */
  profile: string | null;
  /** Task id (`TP-841`), declared or found in `workingOn`. */
  taskId: string | null;
  /** Spawner name (`human` for adoption). */
  spawnedBy: string | null;
  /** Claude Code session id. */
  claudeSessionId: string | null;
  /** Registration time, epoch ms (presence only). */
  registeredAt: number | null;
  /** Spawn row time, epoch ms (null without a spawn row in the window). */
  spawnedAt: number | null;
  /** Newest activity seen, epoch ms (for a row without a spawn row: its newest row). */
  lastEventAt: number | null;
  /** Idle time, ms (presence only). */
  idleMs: number | null;
  /** Do-not-disturb. */
  dnd: boolean;
  /** Name derived from the directory. */
  provisional: boolean;
  /** Tag strings. */
  tags: string[];
  /** Cost in US dollars. */
  costUsd: number | null;
  /** Where the cost came from. */
  costSource: AgentCostSource | null;
  /** Whether the spawn row is in the window (extension). */
  spawnRow: SpawnRowStatus;
  /** Agent id of the newer incarnation of this name, when this one was respawned (extension). */
  supersededBy: string | null;
}

const nullableString = z.string().nullable();
const nullableNumber = z.number().nullable();

/** Schema of {@link AgentRosterEntry}. */
export const agentRosterEntry: z.ZodType<AgentRosterEntry> = z.object({
  id: z.string().min(1),
  idSource: agentIdSource,
  name: z.string(),
  agentId: nullableString,
  state: agentState,
  stateSource: agentStateSource,
  origin: agentOrigin,
  workingOn: nullableString,
  cwd: nullableString,
  gitBranch: nullableString,
  seat: nullableString,
  surface: nullableString,
  profile: nullableString,
  taskId: nullableString,
  spawnedBy: nullableString,
  claudeSessionId: nullableString,
  registeredAt: nullableNumber,
  spawnedAt: nullableNumber,
  lastEventAt: nullableNumber,
  idleMs: nullableNumber,
  dnd: z.boolean(),
  provisional: z.boolean(),
  tags: z.array(z.string()),
  costUsd: nullableNumber,
  costSource: agentCostSource.nullable(),
  spawnRow: spawnRowStatus,
  supersededBy: nullableString,
});

/**
 * The history window a fold saw: `events` = rows given, `limit` = the
 * `?limit=` asked for (the broker caps it at 1,000), `oldestAt` = smallest
 * `at` (epoch ms) or null for an empty window.
 */
export interface HistoryWindow {
  /** Number of rows in the window. */
  events: number;
  /** Requested limit (> 0). */
  limit: number;
  /** Oldest row time, epoch ms, or null. */
  oldestAt: number | null;
}
/** Schema of {@link HistoryWindow}. */
export const historyWindow: z.ZodType<HistoryWindow> = z.object({
  events: z.number().int().min(0),
  limit: z.number().int().positive(),
  oldestAt: nullableNumber,
});

/**
 * What a fold skipped or suspects (extension over titan). Counts are rows.
 */
export interface FoldDiagnostics {
  /** History rows that were not a valid {@link BrokerEvent} and were skipped. */
  malformedEvents: number;
  /** Sessions that were not a valid {@link BrokerSession} and were skipped (0 for the graph). */
  malformedSessions: number;
  /** Valid rows whose kind is not one of {@link EVENT_KINDS} (read for names/activity only). */
  unknownKinds: number;
  /**
   * Valid rows whose `at` is earlier than the previous valid row's. The
   * broker returns oldest first, so this is 0 unless the input was reordered
   * (e.g. newest first) or the broker clock stepped back; the folds still
   * walk the given order (spawn/exit/retire order, last spawn wins), so a
   * non-zero count means the lifecycle may be wrong.
   */
  outOfOrderRows: number;
  /** `events ≥ min(limit, 1000)`: older rows likely exist that the window does not show. */
  historyFull: boolean;
  /** Names whose spawn row likely aged out of the window (sorted ascending). */
  spawnRowsLikelyAgedOut: string[];
}
/** Schema of {@link FoldDiagnostics}. */
export const foldDiagnostics: z.ZodType<FoldDiagnostics> = z.object({
  malformedEvents: z.number().int().min(0),
  malformedSessions: z.number().int().min(0),
  unknownKinds: z.number().int().min(0),
  outOfOrderRows: z.number().int().min(0),
  historyFull: z.boolean(),
  spawnRowsLikelyAgedOut: z.array(z.string()),
});

/** Result of `foldRoster`. */
export interface AgentRosterSnapshot {
  /** Presence rows in session order, then history rows by `lastEventAt` descending. */
  agents: AgentRosterEntry[];
  /** Echo of the broker uptime, ms. */
  brokerUptimeMs: number | null;
  /** Uptime < `RECONNECT_WINDOW_MS`: the registry may still be refilling. */
  reconnecting: boolean;
  /** The history window the fold saw. */
  history: HistoryWindow;
  /** `now` given to the fold, epoch ms. */
  generatedAt: number;
  /** Skipped rows and suspected aged-out spawn rows (extension). */
  diagnostics: FoldDiagnostics;
}
/** Schema of {@link AgentRosterSnapshot}. */
export const agentRosterSnapshot: z.ZodType<AgentRosterSnapshot> = z.object({
  agents: z.array(agentRosterEntry),
  brokerUptimeMs: nullableNumber,
  reconnecting: z.boolean(),
  history: historyWindow,
  generatedAt: z.number(),
  diagnostics: foldDiagnostics,
});

// ---------------------------------------------------------------------------
// Graph
// ---------------------------------------------------------------------------

/** A node's glow category. */
export type ActivityCategory = (typeof ACTIVITY_CATEGORIES)[number];
/** Schema of {@link ActivityCategory} (was `activityCategorySchema` before titan 0.3.0). */
export const agentActivityCategory: z.ZodType<ActivityCategory> = z.enum(ACTIVITY_CATEGORIES);

/** Newest activity of a name: its category and time (epoch ms). */
export interface NodeActivity {
  /** Category of the newest row touching the name. */
  category: ActivityCategory;
  /** That row's time, epoch ms. */
  at: number;
}
/** Schema of {@link NodeActivity} (was `nodeActivitySchema` before titan 0.3.0). */
export const agentGraphNodeActivity: z.ZodType<NodeActivity> = z.object({
  category: agentActivityCategory,
  at: z.number(),
});

/** One spawn-graph node. */
export interface AgentGraphNode {
  /** Stable id: roster id, else newest agent id, else `name:<name>`. */
  id: string;
  /** Agent name. */
  name: string;
  /** Roster row id for the name, or null. */
  rosterId: string | null;
  /** Parent name in the spawn tree, or null for a root. */
  parent: string | null;
  /** Tree depth, 0 for roots. */
  depth: number;
  /** Layout row (may be fractional, e.g. 0.5). */
  row: number;
  /** Newest activity, or null. */
  activity: NodeActivity | null;
  /** Whether the name's spawn row is in the window (extension). */
  spawnRow: SpawnRowStatus;
}
/** Schema of {@link AgentGraphNode}. */
export const agentGraphNode: z.ZodType<AgentGraphNode> = z.object({
  id: z.string().min(1),
  name: z.string(),
  rosterId: nullableString,
  parent: nullableString,
  depth: z.number().int().min(0),
  row: z.number(),
  activity: agentGraphNodeActivity.nullable(),
  spawnRow: spawnRowStatus,
});

/** Edge kind: a spawn (tree edge) or directed messages. */
export type AgentGraphEdgeKind = "spawned" | "message";
/** Schema of {@link AgentGraphEdgeKind}. */
export const agentGraphEdgeKind: z.ZodType<AgentGraphEdgeKind> = z.enum(["spawned", "message"]);

/** A tallied edge between node ids. */
export interface AgentGraphEdge {
  /** Edge kind. */
  kind: AgentGraphEdgeKind;
  /** Source node id. */
  from: string;
  /** Target node id. */
  to: string;
  /** Rows tallied (> 0). */
  count: number;
  /** Newest tallied row, epoch ms. */
  lastAt: number;
}
/** Schema of {@link AgentGraphEdge}. */
export const agentGraphEdge: z.ZodType<AgentGraphEdge> = z.object({
  kind: agentGraphEdgeKind,
  from: z.string(),
  to: z.string(),
  count: z.number().int().positive(),
  lastAt: z.number(),
});

/** Result of `foldAgentGraph`. */
export interface AgentGraph {
  /** Nodes by depth, then row. */
  nodes: AgentGraphNode[];
  /** Spawn edges, then message edges. */
  edges: AgentGraphEdge[];
  /** The history window the fold saw. */
  history: HistoryWindow;
  /** `now` given to the fold, epoch ms. */
  generatedAt: number;
  /** Skipped rows and suspected aged-out spawn rows (extension). */
  diagnostics: FoldDiagnostics;
}
/** Schema of {@link AgentGraph}. */
export const agentGraph: z.ZodType<AgentGraph> = z.object({
  nodes: z.array(agentGraphNode),
  edges: z.array(agentGraphEdge),
  history: historyWindow,
  generatedAt: z.number(),
  diagnostics: foldDiagnostics,
});
