/**
 * The spec's three constructed samples (agents.md §10) with their expected
 * roster and graph values, field by field, plus golden files of the whole
 * outputs.
 */
import assert from "node:assert/strict";
import { assertGolden } from "../_helpers/golden.ts";
import {
  agentGraph,
  type AgentRosterEntry,
  agentRosterSnapshot,
  foldAgentGraph,
  foldRoster,
  layoutSpawnTree,
} from "../../agents.ts";
import { loadSample, type SamplePair, SEATS } from "./_samples.ts";

const TPC_SESSION = "9b1f6c2e-4d1a-4c1e-9f3b-2a7d5e8c1b40";
const IMPL_SESSION = "c0a8012e-77b3-4f0e-a1d2-6e5f4c3b2a10";

/** The roster of a sample as the spec computed it: a full 1,000-row window, the spec's seats. */
const rosterOf = (s: SamplePair, now: number) =>
  foldRoster({
    sessions: s.sessions,
    brokerUptimeMs: s.brokerUptimeMs,
    events: s.events,
    historyLimit: 1000,
    now,
    seatPrefixes: SEATS,
  });

Deno.test("sample 1: roster rows in session order with every spec field", async () => {
  const s = await loadSample(1);
  const snap = rosterOf(s, 1767225500000);
  assert.equal(snap.reconnecting, false);
  assert.equal(snap.brokerUptimeMs, 5400000);
  assert.equal(snap.generatedAt, 1767225500000);
  assert.deepEqual(snap.history, { events: 6, limit: 1000, oldestAt: 1767225000100 });
  assert.deepEqual(snap.agents.map((a) => a.name), ["tpc", "tpc-impl", "relay"]);
  const [tpc, impl, relay] = snap.agents;
  assert.deepEqual(
    tpc,
    {
      id: TPC_SESSION,
      idSource: "claudeSessionId",
      name: "tpc",
      agentId: "a81f3c02",
      state: "working",
      stateSource: "presence",
      origin: "adopted",
      workingOn: "Coordinating the TP-840 burndown",
      cwd: "/home/dev/titan-platform",
      gitBranch: "main",
      seat: null,
      surface: null,
      profile: null,
      taskId: "TP-840",
      spawnedBy: "human",
      claudeSessionId: TPC_SESSION,
      registeredAt: 1767225000000,
      spawnedAt: 1767225000100,
      lastEventAt: 1767225496000,
      idleMs: 4000,
      dnd: false,
      provisional: false,
      tags: ["seat:titan"],
      costUsd: null,
      costSource: null,
      spawnRow: "seen",
      supersededBy: null,
    } satisfies AgentRosterEntry,
  );
  assert.deepEqual(
    impl,
    {
      id: IMPL_SESSION,
      idSource: "claudeSessionId",
      name: "tpc-impl",
      agentId: "5e0c9a17",
      state: "blocked",
      stateSource: "presence",
      origin: "spawned",
      workingOn: "TP-841: fold roster from history",
      cwd: "/home/dev/titan-platform/.worktrees/tp-841",
      gitBranch: "tp-841-roster",
      seat: "titan",
      surface: "headless",
      profile: "implementer",
      taskId: "TP-841",
      spawnedBy: "tpc",
      claudeSessionId: IMPL_SESSION,
      registeredAt: 1767225312000,
      spawnedAt: 1767225300000,
      lastEventAt: 1767225410000,
      idleMs: 90000,
      dnd: false,
      provisional: false,
      tags: [],
      costUsd: null,
      costSource: null,
      spawnRow: "seen",
      supersededBy: null,
    } satisfies AgentRosterEntry,
  );
  assert.deepEqual(
    relay,
    {
      id: "relay@1767224000000",
      idSource: "nameAtRegisteredAt",
      name: "relay",
      agentId: null,
      state: "available",
      stateSource: "presence",
      origin: "unknown",
      workingOn: "",
      cwd: "/home/dev/relay",
      gitBranch: null,
      seat: null,
      surface: null,
      profile: null,
      taskId: null,
      spawnedBy: null,
      claudeSessionId: null,
      registeredAt: 1767224000000,
      spawnedAt: null,
      lastEventAt: 1767224900000,
      idleMs: 600000,
      dnd: true,
      provisional: true,
      tags: [],
      costUsd: null,
      costSource: null,
      // 6 rows < limit 1000: the whole log is visible, so no spawn row means none.
      spawnRow: "absent",
      supersededBy: null,
    } satisfies AgentRosterEntry,
  );
  assert.deepEqual(snap.diagnostics, {
    malformedEvents: 0,
    malformedSessions: 0,
    unknownKinds: 0,
    outOfOrderRows: 0,
    historyFull: false,
    spawnRowsLikelyAgedOut: [],
  });
  assert.ok(agentRosterSnapshot.safeParse(snap).success);
  await assertGolden("agents/sample1_roster.golden.json", snap);
});

Deno.test("sample 1: graph nodes, ids and edges", async () => {
  const s = await loadSample(1);
  const now = 1767225500000;
  const roster = rosterOf(s, now);
  const graph = foldAgentGraph({
    events: s.events,
    historyLimit: 1000,
    now,
    roster: roster.agents,
  });
  assert.deepEqual(graph.nodes, [
    {
      id: "name:human",
      name: "human",
      rosterId: null,
      parent: null,
      depth: 0,
      row: 0,
      activity: { category: "question", at: 1767225410000 },
      spawnRow: "absent",
    },
    {
      id: TPC_SESSION,
      name: "tpc",
      rosterId: TPC_SESSION,
      parent: "human",
      depth: 1,
      row: 0,
      activity: { category: "question", at: 1767225400000 },
      spawnRow: "seen",
    },
    {
      id: IMPL_SESSION,
      name: "tpc-impl",
      rosterId: IMPL_SESSION,
      parent: "tpc",
      depth: 2,
      row: 0,
      activity: { category: "question", at: 1767225410000 },
      spawnRow: "seen",
    },
  ]);
  assert.deepEqual(graph.edges, [
    { kind: "spawned", from: "name:human", to: TPC_SESSION, count: 1, lastAt: 1767225000100 },
    { kind: "spawned", from: TPC_SESSION, to: IMPL_SESSION, count: 1, lastAt: 1767225300000 },
    { kind: "message", from: TPC_SESSION, to: IMPL_SESSION, count: 1, lastAt: 1767225320000 },
    { kind: "message", from: IMPL_SESSION, to: "name:human", count: 1, lastAt: 1767225410000 },
    { kind: "message", from: IMPL_SESSION, to: TPC_SESSION, count: 1, lastAt: 1767225400000 },
  ]);
  assert.ok(!graph.nodes.some((n) => n.name === "relay"), "relay never appears in history");
  assert.deepEqual(graph.history, { events: 6, limit: 1000, oldestAt: 1767225000100 });
  assert.equal(graph.generatedAt, now);
  assert.ok(agentGraph.safeParse(graph).success);
  await assertGolden("agents/sample1_graph.golden.json", graph);
});

Deno.test("sample 2: broker just restarted, history-only row is detached", async () => {
  const s = await loadSample(2);
  const snap = rosterOf(s, 1767225600000);
  assert.equal(snap.reconnecting, true);
  assert.deepEqual(snap.history, { events: 2, limit: 1000, oldestAt: 1767225300000 });
  assert.deepEqual(snap.agents, [
    {
      id: "tpc-impl@1767225300000",
      idSource: "nameAtRegisteredAt",
      name: "tpc-impl",
      agentId: "5e0c9a17",
      state: "detached",
      stateSource: "history",
      origin: "spawned",
      workingOn: "TP-841: fold roster from history",
      cwd: null,
      gitBranch: null,
      seat: "titan",
      surface: "iterm-pane",
      profile: "implementer",
      taskId: "TP-841",
      spawnedBy: "tpc",
      claudeSessionId: null,
      registeredAt: null,
      spawnedAt: 1767225300000,
      lastEventAt: 1767225312000,
      idleMs: null,
      dnd: false,
      provisional: false,
      tags: [],
      costUsd: null,
      costSource: null,
      spawnRow: "seen",
      supersededBy: null,
    } satisfies AgentRosterEntry,
  ]);
  await assertGolden("agents/sample2_roster.golden.json", snap);
});

Deno.test("sample 3: exit, failure, retirement, respawn — no incarnation lost", async () => {
  const s = await loadSample(3);
  const snap = rosterOf(s, 7000);
  assert.deepEqual(snap.history, { events: 10, limit: 1000, oldestAt: 1000 });
  assert.equal(snap.reconnecting, false);
  // Spec order (w1, w3, w2) by lastEventAt desc; the earlier w1 incarnation,
  // which titan's name-keyed fold threw away, follows at lastEventAt 2000.
  assert.deepEqual(
    snap.agents.map((a) => [a.id, a.name, a.state, a.lastEventAt]),
    [
      ["w1@6000", "w1", "spawning", 6000],
      ["w3@4000", "w3", "retired", 5100],
      ["w2@3000", "w2", "failed", 3500],
      ["sess-w1a", "w1", "exited", 2000],
    ],
  );
  const [w1, w3, w2, w1a] = snap.agents;
  assert.equal(w1.idSource, "nameAtRegisteredAt");
  assert.equal(w1.spawnedBy, "w3");
  assert.equal(w1.agentId, "44dd55ee");
  assert.equal(w1.costUsd, null);
  assert.equal(w1.costSource, null);
  assert.equal(w1.claudeSessionId, null, "the new incarnation does not inherit the old session");
  assert.equal(w1.workingOn, "Do w1 again");
  assert.equal(w1.supersededBy, null);
  assert.equal(w3.workingOn, "CC-12 review");
  assert.equal(w3.taskId, "CC-12");
  assert.equal(w3.stateSource, "history");
  assert.equal(w2.idSource, "nameAtRegisteredAt");
  assert.equal(w2.origin, "spawned");
  // The first w1 keeps its own session, exit cost and state.
  assert.deepEqual(
    {
      id: w1a.id,
      idSource: w1a.idSource,
      agentId: w1a.agentId,
      claudeSessionId: w1a.claudeSessionId,
      costUsd: w1a.costUsd,
      costSource: w1a.costSource,
      spawnedBy: w1a.spawnedBy,
      spawnedAt: w1a.spawnedAt,
      workingOn: w1a.workingOn,
      supersededBy: w1a.supersededBy,
    },
    {
      id: "sess-w1a",
      idSource: "claudeSessionId",
      agentId: "11aa22bb",
      claudeSessionId: "sess-w1a",
      costUsd: 1.25,
      costSource: "exit-report",
      spawnedBy: "coord",
      spawnedAt: 1000,
      workingOn: "Do w1",
      supersededBy: "44dd55ee",
    },
  );
  await assertGolden("agents/sample3_roster.golden.json", snap);
});

Deno.test("sample 3: graph nodes, spawned edges, no message edges, activity", async () => {
  const s = await loadSample(3);
  const graph = foldAgentGraph({ events: s.events, historyLimit: 1000, now: 7000 });
  assert.deepEqual(
    graph.nodes.map((n) => [n.name, n.depth, n.row, n.parent, n.id]),
    [
      ["coord", 0, 0.5, null, "name:coord"],
      ["human", 0, 2, null, "name:human"],
      ["w2", 1, 0, "coord", "22bb33cc"],
      ["w3", 1, 1, "coord", "33cc44dd"],
      ["w1", 2, 1, "w3", "44dd55ee"],
    ],
  );
  assert.deepEqual(graph.edges, [
    { kind: "spawned", from: "name:coord", to: "22bb33cc", count: 1, lastAt: 3000 },
    { kind: "spawned", from: "name:coord", to: "33cc44dd", count: 1, lastAt: 4000 },
    { kind: "spawned", from: "33cc44dd", to: "44dd55ee", count: 1, lastAt: 6000 },
  ]);
  const activity = Object.fromEntries(graph.nodes.map((n) => [n.name, n.activity]));
  assert.deepEqual(activity, {
    coord: { category: "message", at: 6100 },
    human: { category: "thinking", at: 5000 },
    w2: { category: "thinking", at: 3500 },
    w3: { category: "thinking", at: 6000 },
    w1: { category: "thinking", at: 6000 },
  });
  assert.deepEqual(graph.history, { events: 10, limit: 1000, oldestAt: 1000 });
  const layout = layoutSpawnTree(s.events);
  assert.equal(layout.width, 548);
  assert.equal(layout.height, 104);
  await assertGolden("agents/sample3_graph.golden.json", graph);
});

Deno.test("sample 3 with the roster: the respawned w1 node takes the newest incarnation's id", async () => {
  const s = await loadSample(3);
  const roster = foldRoster({
    sessions: [],
    brokerUptimeMs: s.brokerUptimeMs,
    events: s.events,
    historyLimit: 1000,
    now: 7000,
  });
  const graph = foldAgentGraph({
    events: s.events,
    historyLimit: 1000,
    now: 7000,
    roster: roster.agents,
  });
  const w1 = graph.nodes.find((n) => n.name === "w1")!;
  assert.equal(w1.id, "w1@6000");
  assert.equal(w1.rosterId, "w1@6000");
  assert.notEqual(w1.id, "sess-w1a");
});
