/**
 * `@papercusp/chat-protocol/agents`: pure folds over the agent-chat broker's read API (`/api/sessions`,
 * `/api/history`): tolerant payload readers, the roster and spawn-graph folds,
 * the dashboard's spawn-tree layout, message paths, sparks and glow. No
 * fetch, no clock (pass `now`), linear time except the name sorts.
 *
 * Same rules, constants and coordinates as titan's
 * `@titan-design/chat-protocol/agents` (spec agents.md), except:
 *
 * - Lifecycle records are keyed by the spawn row's agent id, not by name: a
 *   respawn keeps the earlier incarnation (its state, exit cost, session id)
 *   as its own history row with `supersededBy`; presence and later rows join
 *   the newest incarnation. A repeated spawn row for a known agent id is
 *   ignored.
 *   A lifecycle row repeated verbatim (overlapping windows concatenated) is
 *   applied once, and a repeated spawn row counts once in `spawned` edges.
 * - Roster ids are unique within a snapshot: a superseded incarnation whose
 *   id another row already has (a respawn resuming the same Claude session)
 *   gets `#<agentId>` appended.
 * - Rows carry `spawnRow` (`seen` / `absent` / `likely-aged-out`) and
 *   snapshots carry `diagnostics` (skipped rows, unknown kinds, rows out of
 *   time order, full window — 1,000 rows are full whatever limit was asked —
 *   and names whose spawn row likely aged out of the broker's window).
 * - No record is lost when a spawn row aged out of the window: titan drops
 *   lifecycle rows it cannot join to a spawn row, so an agent that is not
 *   live had no roster row at all. Ours folds them per name
 *   (`AgentOrphanRecord`) into a history row keyed by name — `id:
 *   'name:<name>'`, `idSource: 'name'` (a value titan lacks), `agentId:
 *   null`, `origin: 'unknown'` (never guessed), `spawnRow:
 *   'likely-aged-out'` — with its state and exit-report cost; a live session
 *   of the name joins them instead while they leave it running (not after a
 *   final exit, failure or retirement). Its graph node keeps the id `name:<name>`.
 * - Malformed rows are skipped and counted instead of throwing; `costOf` only
 *   counts when it returns a finite number; `pointAlongPolyline` reads a NaN
 *   `t` (or a missing coordinate) as 0; `glowStrength` is never NaN.
 *
 * @example
 * ```ts
 * import { foldAgentGraph, foldRoster, parseBrokerHistory, parseBrokerSessions } from "@papercusp/chat-protocol/agents";
 * const sessions = parseBrokerSessions({ sessions: [], brokerUptimeMs: 60_000 });
 * const history = parseBrokerHistory({ items: [] });
 * if (sessions.ok && history.ok) {
 *   const roster = foldRoster({ ...sessions.value, events: history.value.events, historyLimit: 1000, now: Date.now() });
 *   const graph = foldAgentGraph({ events: history.value.events, historyLimit: 1000, now: Date.now(), roster: roster.agents });
 * }
 * ```
 *
 * @module
 */
export {
  ACTIVITY_CATEGORIES,
  type ActivityCategory,
  agentActivityCategory,
  type AgentCostSource,
  agentCostSource,
  type AgentGraph,
  agentGraph,
  type AgentGraphEdge,
  agentGraphEdge,
  type AgentGraphEdgeKind,
  agentGraphEdgeKind,
  type AgentGraphNode,
  agentGraphNode,
  agentGraphNodeActivity,
  type AgentIdSource,
  agentIdSource,
  type AgentOrigin,
  agentOrigin,
  type AgentRosterEntry,
  agentRosterEntry,
  type AgentRosterSnapshot,
  agentRosterSnapshot,
  type AgentState,
  agentState,
  type AgentStateSource,
  agentStateSource,
  type BrokerEvent,
  brokerEvent,
  type BrokerHistory,
  brokerHistory,
  type BrokerSession,
  brokerSession,
  type BrokerSessions,
  brokerSessions,
  EVENT_KINDS,
  type FoldDiagnostics,
  foldDiagnostics,
  HISTORY_STATES,
  type HistoryWindow,
  historyWindow,
  LIVE_HISTORY_STATES,
  type NodeActivity,
  PRESENCE_STATES,
  type PresenceState,
  type SpawnRowStatus,
  spawnRowStatus,
  type StringMap,
} from "./src/agents/types.ts";
export { type AgentGraphInput, foldAgentGraph } from "./src/agents/graph.ts";
export {
  type AgentLifecycle,
  type AgentLifecycleFold,
  type AgentOrphanRecord,
  type AgentRecord,
  foldAgentLifecycle,
  foldAgentRecords,
} from "./src/agents/lifecycle.ts";
export {
  type BrokerPayloadRefusal,
  MAX_REPORTED_ISSUES,
  parseBrokerHistory,
  parseBrokerSessions,
  type ParsedHistory,
  type ParsedSessions,
  type RowIssue,
} from "./src/agents/parse.ts";
export {
  COLUMN_WIDTH,
  type GraphEdge,
  type GraphLayout,
  type GraphNode,
  LABEL_ALLOWANCE,
  layoutSpawnTree,
  PADDING_X,
  PADDING_Y,
  type Point,
  ROW_HEIGHT,
} from "./src/agents/layout.ts";
export {
  GLOW_DURATION_MS,
  glowStrength,
  liveSparks,
  pointAlongPolyline,
  type Spark,
  SPARK_DURATION_MS,
  type SparkRoute,
  sparkRoutes,
  type SparkSource,
  sparksSince,
  treePath,
} from "./src/agents/sparks.ts";
export {
  activityCategory,
  buildSpawnTree,
  HUMAN,
  isPeerName,
  nodeActivity,
} from "./src/agents/spawn_tree.ts";
export {
  foldRoster,
  historyWindowOf,
  RECONNECT_WINDOW_MS,
  type RosterInput,
  seatOf,
  type SeatPrefix,
} from "./src/agents/roster.ts";
