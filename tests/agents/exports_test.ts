/** Every runtime export spec agents.md §9 lists is exported from `./agents`, with the spec's constant values. */
import assert from "node:assert/strict";
import * as agents from "../../agents.ts";

Deno.test("spec §9 runtime exports exist", () => {
  const functions = [
    "foldRoster",
    "historyWindowOf",
    "seatOf",
    "foldAgentRecords",
    "foldAgentGraph",
    "layoutSpawnTree",
    "buildSpawnTree",
    "isPeerName",
    "activityCategory",
    "nodeActivity",
    "treePath",
    "sparkRoutes",
    "pointAlongPolyline",
    "sparksSince",
    "liveSparks",
    "glowStrength",
  ];
  const schemas = [
    "brokerEvent",
    "brokerSession",
    "brokerSessions",
    "brokerHistory",
    "agentState",
    "agentStateSource",
    "agentIdSource",
    "agentOrigin",
    "agentCostSource",
    "agentRosterEntry",
    "historyWindow",
    "agentRosterSnapshot",
    "agentActivityCategory",
    "agentGraphNodeActivity",
    "agentGraphNode",
    "agentGraphEdgeKind",
    "agentGraphEdge",
    "agentGraph",
  ];
  const mod = agents as Record<string, unknown>;
  for (const f of functions) assert.equal(typeof mod[f], "function", f);
  for (const s of schemas) {
    assert.equal(typeof (mod[s] as { safeParse?: unknown })?.safeParse, "function", s);
  }
});

Deno.test("spec §9 constants have the spec's values", () => {
  assert.deepEqual(
    {
      HUMAN: agents.HUMAN,
      RECONNECT_WINDOW_MS: agents.RECONNECT_WINDOW_MS,
      COLUMN_WIDTH: agents.COLUMN_WIDTH,
      ROW_HEIGHT: agents.ROW_HEIGHT,
      PADDING_X: agents.PADDING_X,
      PADDING_Y: agents.PADDING_Y,
      LABEL_ALLOWANCE: agents.LABEL_ALLOWANCE,
      SPARK_DURATION_MS: agents.SPARK_DURATION_MS,
      GLOW_DURATION_MS: agents.GLOW_DURATION_MS,
      PRESENCE_STATES: agents.PRESENCE_STATES,
      HISTORY_STATES: agents.HISTORY_STATES,
      LIVE_HISTORY_STATES: agents.LIVE_HISTORY_STATES,
      ACTIVITY_CATEGORIES: agents.ACTIVITY_CATEGORIES,
    },
    {
      HUMAN: "human",
      RECONNECT_WINDOW_MS: 10_000,
      COLUMN_WIDTH: 186,
      ROW_HEIGHT: 30,
      PADDING_X: 26,
      PADDING_Y: 22,
      LABEL_ALLOWANCE: 150,
      SPARK_DURATION_MS: 1100,
      GLOW_DURATION_MS: 6000,
      PRESENCE_STATES: ["working", "available", "blocked"],
      HISTORY_STATES: ["spawning", "detached", "exited", "failed", "retired"],
      LIVE_HISTORY_STATES: ["spawning", "detached"],
      ACTIVITY_CATEGORIES: ["message", "question", "notice", "thinking"],
    },
  );
  assert.equal(agents.EVENT_KINDS.length, 24);
  // agentState is presence ∪ history (8 values).
  for (const st of [...agents.PRESENCE_STATES, ...agents.HISTORY_STATES]) {
    assert.ok(agents.agentState.safeParse(st).success, st);
  }
  assert.equal(agents.agentState.safeParse("live").success, false);
});
