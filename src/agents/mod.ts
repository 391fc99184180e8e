/**
 * agents: pure folds over the agent-chat broker's read API (`/api/sessions`,
 * `/api/history`): tolerant payload readers, the roster and spawn-graph folds,
 * the dashboard's spawn-tree layout, message paths, sparks and glow.
 *
 * @module
 */
export * from "./types.ts";
export * from "./parse.ts";
export {
  type AgentLifecycle,
  type AgentLifecycleFold,
  type AgentRecord,
  foldAgentLifecycle,
  foldAgentRecords,
} from "./lifecycle.ts";
export {
  foldRoster,
  historyWindowOf,
  RECONNECT_WINDOW_MS,
  type RosterInput,
  seatOf,
  type SeatPrefix,
} from "./roster.ts";
export { type AgentGraphInput, foldAgentGraph } from "./graph.ts";
export { activityCategory, buildSpawnTree, HUMAN, isPeerName, nodeActivity } from "./spawn_tree.ts";
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
} from "./layout.ts";
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
} from "./sparks.ts";
