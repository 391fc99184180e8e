/** Lifecycle and roster rules (spec agents.md §3–4) and our respawn / aged-out extensions. */
import assert from "node:assert/strict";
import {
  type BrokerEvent,
  type BrokerSession,
  foldAgentGraph,
  foldAgentLifecycle,
  foldAgentRecords,
  foldRoster,
  historyWindowOf,
  RECONNECT_WINDOW_MS,
  seatOf,
} from "../../agents.ts";
import { ev, session, spawn } from "./_helpers.ts";

const roster = (events: BrokerEvent[], sessions: BrokerSession[] = [], extra: object = {}) =>
  foldRoster({
    sessions,
    brokerUptimeMs: 60_000,
    events,
    historyLimit: 1000,
    now: 10_000,
    ...extra,
  });

Deno.test("transitions: latest wins, failed, exit cost, live→detached in history", () => {
  const recs = foldAgentRecords([
    spawn("A", "c", "a", 1),
    ev("agent_exited", "a", 2, { cost_usd: "" }),
    ev("agent_attached", "a", 3),
    spawn("B", "c", "b", 4),
    ev("agent_exited", "b", 5, { cost_usd: "abc" }),
    ev("agent_detached", "b", 6),
    spawn("C", "c", "f", 7),
    ev("agent_exited", "f", 8, { failed: "true", cost_usd: "0.5" }),
    spawn("D", "c", "r", 9),
    ev("agent_resumed", "human", 10, { target: "r" }),
  ]);
  const get = (id: string) => recs.get(id)!;
  assert.deepEqual([get("A").lifecycle, get("A").exitCostUsd], ["live", 0], '"" → 0 (Number(""))');
  assert.deepEqual(
    [get("B").lifecycle, get("B").exitCostUsd],
    ["detached", null],
    "non-finite cost ignored",
  );
  assert.deepEqual([get("C").lifecycle, get("C").exitCostUsd], ["failed", 0.5]);
  assert.equal(get("D").lifecycle, "live", "agent_resumed names the agent in target");
  const snap = roster([spawn("A", "c", "a", 1), ev("agent_attached", "a", 3)]);
  assert.equal(snap.agents[0].state, "detached");
  assert.equal(snap.agents[0].stateSource, "history");
});

Deno.test("retired is final: no revival, no cost capture, but time still bumps", () => {
  const recs = foldAgentRecords([
    spawn("A", "c", "a", 1),
    ev("agent_retired", "human", 2, { target: "a" }),
    ev("agent_attached", "a", 3),
    ev("agent_exited", "a", 4, { cost_usd: "9" }),
    ev("message", "a", 5, { target: "c" }),
  ]);
  const a = recs.get("A")!;
  assert.deepEqual([a.lifecycle, a.exitCostUsd, a.lastEventAt], ["retired", null, 5]);
});

Deno.test("spawn rows never bump the spawner; messages bump the sender", () => {
  const recs = foldAgentRecords([
    spawn("C", "human", "c", 1),
    spawn("W", "c", "w", 50),
    ev("message", "c", 30, { target: "w" }),
  ]);
  assert.equal(recs.get("C")!.lastEventAt, 30);
});

Deno.test("respawn: keyed by agent id, each incarnation keeps state, cost and session; presence joins the newest", () => {
  const events = [
    spawn("A1", "coord", "w", 100, { session_id: "s-old" }),
    ev("agent_attached", "w", 110),
    ev("agent_exited", "w", 200, { cost_usd: "2.5" }),
    spawn("A2", "coord", "w", 300, { session_id: "s-new" }),
    ev("agent_attached", "w", 310),
    ev("agent_retired", "human", 400, { target: "w" }),
    spawn("A3", "boss", "w", 500),
    ev("agent_attached", "w", 510),
  ];
  const fold = foldAgentLifecycle(events);
  assert.deepEqual([...fold.records.keys()], ["A1", "A2", "A3"]);
  assert.deepEqual(
    [...fold.records.values()].map((
      r,
    ) => [r.agentId, r.lifecycle, r.exitCostUsd, r.meta.session_id, r.supersededBy]),
    [
      ["A1", "exited", 2.5, "s-old", "A2"],
      ["A2", "retired", null, "s-new", "A3"],
      ["A3", "live", null, undefined, null],
    ],
  );
  assert.equal(fold.newest.get("w")!.agentId, "A3");

  const snap = roster(events, [
    session("w", { registeredAt: 505, status: "available", idleMs: 1000 }),
  ]);
  assert.deepEqual(
    snap.agents.map((
      a,
    ) => [a.id, a.agentId, a.state, a.stateSource, a.costUsd, a.costSource, a.spawnedBy]),
    [
      ["w@505", "A3", "available", "presence", null, null, "boss"],
      ["s-new", "A2", "retired", "history", null, null, "coord"],
      ["s-old", "A1", "exited", "history", 2.5, "exit-report", "coord"],
    ],
  );
  // Without presence, the newest incarnation is a history row too (live → detached).
  const past = roster(events);
  assert.deepEqual(past.agents.map((a) => [a.agentId, a.state]), [["A3", "detached"], [
    "A2",
    "retired",
  ], ["A1", "exited"]]);
  // Graph node id is the newest incarnation's, never a predecessor's.
  const graph = foldAgentGraph({ events, historyLimit: 1000, now: 1, roster: snap.agents });
  assert.equal(graph.nodes.find((n) => n.name === "w")!.id, "w@505");
  const bare = foldAgentGraph({ events, historyLimit: 1000, now: 1 });
  assert.equal(bare.nodes.find((n) => n.name === "w")!.id, "A3");
});

Deno.test("a repeated spawn row for the same agent id is ignored", () => {
  const recs = foldAgentRecords([
    spawn("A", "c", "w", 1),
    ev("agent_exited", "w", 2),
    spawn("A", "c", "w", 3),
  ]);
  assert.equal(recs.size, 1);
  assert.equal(recs.get("A")!.lifecycle, "exited");
});

Deno.test("spawn name falls back to meta.name; empty name ignored", () => {
  const recs = foldAgentRecords([
    ev("agent_spawned", "c", 1, { name: "n" }, "A"),
    ev("agent_spawned", "c", 2, {}, "B"),
  ]);
  assert.deepEqual([...recs.values()].map((r) => r.name), ["n"]);
});

Deno.test("seatOf: longest prefix, ties keep the earlier, bare prefix is no seat", () => {
  const seats = [{ seat: "tp", prefix: "tp" }, { seat: "titan", prefix: "tpc" }, {
    seat: "dup",
    prefix: "tpc",
  }];
  assert.equal(seatOf("tpc-x", seats), "titan");
  assert.equal(seatOf("tp-x", seats), "tp");
  assert.equal(seatOf("tpcx", seats), null);
  assert.equal(seatOf("tpc", seats), null);
  assert.equal(seatOf("x", []), null);
  assert.equal(seatOf(42 as unknown as string, seats), null, "a non-string name has no seat");
});

Deno.test("presence fields: seat needs a record, taskId from declared or regex, session id fallback, lastEventAt max", () => {
  const events = [
    spawn("A", "c", "tpc-a", 100, { session_id: "from-spawn" }),
    ev("message", "tpc-a", 9_999),
  ];
  const snap = roster(events, [
    session("tpc-a", { idleMs: 5000, workingOn: "xy-12 and AB-7 then CD-8" }),
    session("tpc-b", { declared: { taskId: "T-9" }, workingOn: "XY-12" }),
    session("c", { declared: { task: "", taskId: "Z-1" }, observed: { claudeSessionId: "" } }),
    session("d", { declared: { task: "MY-5", taskId: "Z-1" }, workingOn: "A-1" }),
  ], { seatPrefixes: [{ seat: "titan", prefix: "tpc" }] });
  const [a, b, c, d] = snap.agents;
  assert.deepEqual([a.seat, a.taskId, a.id, a.idSource, a.lastEventAt], [
    "titan",
    "AB-7",
    "from-spawn",
    "claudeSessionId",
    9_999,
  ]);
  assert.deepEqual([b.seat, b.taskId, b.origin], [null, "T-9", "unknown"]);
  // observed.claudeSessionId "" is not nullish, so it wins over nothing and the id falls back to name@registeredAt.
  // declared.task "" is not nullish, so `task ?? taskId` is "" (falsy): the regex on "" finds nothing.
  assert.deepEqual([c.taskId, c.id, c.claudeSessionId], [null, "c@500", null]);
  assert.equal(d.taskId, "MY-5");
});

Deno.test("cost: session-analytics first (finite only), else exit report", () => {
  const events = [
    spawn("A", "c", "a", 1, { session_id: "sa" }),
    ev("agent_exited", "a", 2, { cost_usd: "3" }),
    spawn("B", "c", "b", 3, { session_id: "sb" }),
    ev("agent_exited", "b", 4, { cost_usd: "4" }),
    spawn("C", "c", "x", 5, { session_id: "sx" }),
    ev("agent_exited", "x", 6, { cost_usd: "5" }),
  ];
  const costOf = (id: string) => {
    if (id === "sa") return 0.75;
    if (id === "sb") return Number.NaN;
    throw new Error("analytics down");
  };
  const snap = roster(events, [], { costOf });
  const byId = Object.fromEntries(snap.agents.map((a) => [a.id, [a.costUsd, a.costSource]]));
  assert.deepEqual(byId, {
    sa: [0.75, "session-analytics"],
    sb: [4, "exit-report"],
    sx: [5, "exit-report"],
  });
});

Deno.test("reconnecting window boundary and null uptime", () => {
  const at = (brokerUptimeMs: number | null) => roster([], [], { brokerUptimeMs }).reconnecting;
  assert.equal(RECONNECT_WINDOW_MS, 10_000);
  assert.equal(at(9_999), true);
  assert.equal(at(10_000), false);
  assert.equal(at(null), false);
});

Deno.test("historyWindowOf: count, limit, oldest at (not first row)", () => {
  assert.deepEqual(historyWindowOf([ev("message", "a", 5), ev("message", "a", 3)], 200), {
    events: 2,
    limit: 200,
    oldestAt: 3,
  });
  assert.deepEqual(historyWindowOf([], 1000), { events: 0, limit: 1000, oldestAt: null });
});

Deno.test("aged-out spawn rows: flagged only when the window is full", () => {
  const events: BrokerEvent[] = [
    ev("agent_attached", "ghost", 10), // lifecycle row, no spawn row in the window
    ev("agent_retired", "human", 11, { target: "gone" }),
    ev("message", "chatty", 12, { target: "ghost" }), // talk is no evidence
    spawn("W", "ghost", "w", 13),
  ];
  const sessions = [
    session("ghost", { registeredAt: 50 }),
    session("old-timer", { registeredAt: 1 }), // registered before the oldest row
    session("fresh", { registeredAt: 999 }),
  ];
  const full = foldRoster({ sessions, brokerUptimeMs: 60_000, events, historyLimit: 4, now: 1000 });
  assert.deepEqual(full.agents.slice(0, 3).map((a) => [a.name, a.origin, a.spawnRow]), [
    ["ghost", "unknown", "likely-aged-out"],
    ["old-timer", "unknown", "likely-aged-out"],
    ["fresh", "unknown", "absent"],
  ]);
  assert.deepEqual(full.agents[3].spawnRow, "seen");
  assert.equal(full.diagnostics.historyFull, true);
  assert.deepEqual(full.diagnostics.spawnRowsLikelyAgedOut, ["ghost", "gone", "old-timer"]);
  const graph = foldAgentGraph({ events, historyLimit: 4, now: 1000 });
  assert.deepEqual(
    graph.nodes.map((n) => [n.name, n.spawnRow]),
    [["ghost", "likely-aged-out"], ["chatty", "absent"], ["gone", "likely-aged-out"], [
      "human",
      "absent",
    ], ["w", "seen"]],
  );
  assert.deepEqual(graph.diagnostics.spawnRowsLikelyAgedOut, ["ghost", "gone"]);

  const partial = foldRoster({
    sessions,
    brokerUptimeMs: 60_000,
    events,
    historyLimit: 1000,
    now: 1000,
  });
  assert.deepEqual(partial.agents.slice(0, 3).map((a) => a.spawnRow), [
    "absent",
    "absent",
    "absent",
  ]);
  assert.deepEqual(partial.diagnostics.spawnRowsLikelyAgedOut, []);
  assert.equal(partial.diagnostics.historyFull, false);
});

Deno.test("malformed rows and unknown kinds are skipped and counted, never thrown", () => {
  const events = [
    spawn("A", "c", "a", 1),
    { msgId: 5, kind: "message", from: "a", text: "", at: 2, meta: {} },
    null,
    "row",
    { msgId: "x", kind: "agent_attached", from: "a", text: "", at: "3", meta: {} },
    ev("brand_new_kind", "a", 4),
    { msgId: "y", kind: "message", from: "a", text: "", at: 5 }, // no meta
  ] as unknown as BrokerEvent[];
  const sessions = [session("a"), { name: "b" }, 7] as unknown as BrokerSession[];
  const snap = roster(events, sessions);
  assert.equal(snap.diagnostics.malformedEvents, 5);
  assert.equal(snap.diagnostics.malformedSessions, 2);
  assert.equal(snap.diagnostics.unknownKinds, 1);
  assert.equal(snap.history.events, 7, "the window counts every row the broker returned");
  assert.deepEqual(snap.agents.map((a) => [a.name, a.state, a.lastEventAt]), [[
    "a",
    "working",
    10_000,
  ]]);
  const graph = foldAgentGraph({ events, historyLimit: 1000, now: 0 });
  assert.equal(graph.diagnostics.malformedEvents, 5);
});

Deno.test("task regex: spec examples XY-12, TP-841, A-1 match; xy-12 does not", () => {
  const snap = roster(
    [],
    ["see XY-12 now", "TP-841: fold", "A-1", "xy-12 lower", "AXY-12x"].map((w, i) =>
      session(`s${i}`, { workingOn: w })
    ),
  );
  assert.deepEqual(snap.agents.map((a) => a.taskId), ["XY-12", "TP-841", "A-1", null, null]);
});
