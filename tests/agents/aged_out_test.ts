/**
 * Regression: an agent that is not live and whose spawn row aged out of the
 * broker's 1,000-row window used to get no roster row at all (only its name
 * in `diagnostics` and the tree), so its state and exit-report cost were
 * lost. It now gets a history row built from the lifecycle rows left in the
 * window, keyed by name and saying so (`idSource: 'name'`, `agentId: null`,
 * `spawnRow: 'likely-aged-out'`, `origin: 'unknown'`).
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import { historyArb, lifecycleArb } from "./_arbitrary.ts";
import { runAgentsCommand } from "../../src/cli/agents_command.ts";
import {
  agentGraph,
  agentRosterSnapshot,
  type BrokerEvent,
  foldAgentGraph,
  foldAgentLifecycle,
  foldRoster,
} from "../../agents.ts";
import { ev, session, spawn } from "./_helpers.ts";

/**
 * A full 1,000-row window whose oldest rows (the spawn rows of `w-old`,
 * `w-fail` and `w-ret`) are gone: only their exit / retire rows remain,
 * followed by filler talk between two agents spawned inside the window.
 */
function agedOutWindow(): BrokerEvent[] {
  const rows: BrokerEvent[] = [
    ev("agent_exited", "w-old", 100, { cost_usd: "2.5", code: "0" }, "x1", "done"),
    ev("agent_exited", "w-fail", 110, { failed: "true" }, "x2"),
    ev("agent_detached", "w-ret", 120, {}, "x3"),
    ev("agent_exited", "w-ret", 130, { cost_usd: "0.75" }, "x4"),
    ev("agent_retired", "human", 140, { target: "w-ret" }, "x5"),
    ev("agent_attached", "w-ret", 150, {}, "x6"), // retired is final
    spawn("S1", "coord", "w-new", 200, { session_id: "sess-new" }),
  ];
  for (let i = rows.length; i < 1000; i++) {
    rows.push(ev("message", "coord", 300 + i, { target: "w-new" }, `m${i}`));
  }
  return rows;
}

Deno.test("aged-out spawn row: an agent with only exit/retire rows left and no live session keeps a roster row with its state and cost", () => {
  const events = agedOutWindow();
  const snap = foldRoster({
    sessions: [session("coord")],
    brokerUptimeMs: 86_400_000,
    events,
    historyLimit: 1000,
    now: 5000,
  });
  assert.ok(agentRosterSnapshot.safeParse(snap).success);
  assert.equal(snap.diagnostics.historyFull, true);
  assert.deepEqual(snap.diagnostics.spawnRowsLikelyAgedOut, ["w-fail", "w-old", "w-ret"]);
  const byName = new Map(snap.agents.map((a) => [a.name, a]));
  const old = byName.get("w-old");
  assert.ok(old !== undefined, "w-old (exited, spawn row aged out) has a roster row");
  assert.deepEqual(old, {
    id: "name:w-old",
    idSource: "name",
    name: "w-old",
    agentId: null,
    state: "exited",
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
    lastEventAt: 100,
    idleMs: null,
    dnd: false,
    provisional: false,
    tags: [],
    costUsd: 2.5,
    costSource: "exit-report",
    spawnRow: "likely-aged-out",
    supersededBy: null,
  });
  const fail = byName.get("w-fail");
  assert.deepEqual(
    [fail?.id, fail?.state, fail?.costUsd, fail?.lastEventAt],
    ["name:w-fail", "failed", null, 110],
  );
  // Retired is final: the later attach bumps the time but does not revive it;
  // the exit cost before the retirement stays.
  const ret = byName.get("w-ret");
  assert.deepEqual(
    [ret?.id, ret?.state, ret?.costUsd, ret?.costSource, ret?.lastEventAt, ret?.spawnRow],
    ["name:w-ret", "retired", 0.75, "exit-report", 150, "likely-aged-out"],
  );
  // Order: presence, then history by lastEventAt descending.
  assert.deepEqual(snap.agents.map((a) => a.name), [
    "coord",
    "w-new",
    "w-ret",
    "w-fail",
    "w-old",
  ]);

  // The graph joins those rows: node ids stay `name:<name>` (as without a
  // roster), now with a rosterId, and never repeat.
  const graph = foldAgentGraph({ events, historyLimit: 1000, now: 5000, roster: snap.agents });
  const bare = foldAgentGraph({ events, historyLimit: 1000, now: 5000 });
  assert.ok(agentGraph.safeParse(graph).success);
  const node = (g: typeof graph, name: string) => g.nodes.find((n) => n.name === name);
  for (const name of ["w-old", "w-fail", "w-ret"]) {
    assert.equal(node(graph, name)?.id, `name:${name}`);
    assert.equal(node(bare, name)?.id, `name:${name}`);
    assert.equal(node(graph, name)?.rosterId, `name:${name}`);
    assert.equal(node(graph, name)?.spawnRow, "likely-aged-out");
  }
  const ids = graph.nodes.map((n) => n.id);
  assert.equal(new Set(ids).size, ids.length);
});

Deno.test("aged-out spawn row: a later respawn supersedes the name-keyed row; presence joins the newest", () => {
  const events: BrokerEvent[] = [
    ev("agent_exited", "w1", 10, { cost_usd: "1.25" }, "e1"),
    ev("message", "w1", 12, { target: "coord" }, "m1"), // still the old incarnation
    spawn("B", "coord", "w1", 20, { session_id: "sB" }),
    ev("agent_attached", "w1", 21, {}, "a1"), // joins B, not the orphan
  ];
  const fold = foldAgentLifecycle(events);
  assert.deepEqual(fold.orphans.get("w1"), {
    name: "w1",
    lifecycle: "exited",
    firstEventAt: 10,
    lastEventAt: 12,
    exitCostUsd: 1.25,
    supersededBy: "B",
  });
  assert.equal(fold.records.get("B")?.lifecycle, "live");
  const snap = foldRoster({
    sessions: [session("w1")],
    brokerUptimeMs: 60_000,
    events,
    historyLimit: 4,
    now: 100,
  });
  assert.deepEqual(
    snap.agents.map((a) => [a.id, a.stateSource, a.agentId, a.state, a.costUsd, a.supersededBy]),
    [
      ["sB", "presence", "B", "working", null, null],
      ["name:w1", "history", null, "exited", 1.25, "B"],
    ],
  );
  const graph = foldAgentGraph({ events, historyLimit: 4, now: 100, roster: snap.agents });
  assert.equal(graph.nodes.find((n) => n.name === "w1")?.id, "sB", "the node joins presence");
});

Deno.test("aged-out spawn row: a live session of the name joins the lifecycle rows (one row, exit cost kept)", () => {
  const events: BrokerEvent[] = [
    ev("agent_exited", "w1", 10, { cost_usd: "3" }, "e1"),
    ev("agent_attached", "w1", 11, {}, "a1"),
    ev("message", "coord", 12, { target: "w1" }, "m1"),
  ];
  const snap = foldRoster({
    sessions: [session("w1", { registeredAt: 11 })],
    brokerUptimeMs: 60_000,
    events,
    historyLimit: 3,
    now: 100,
  });
  assert.deepEqual(
    snap.agents.map((a) => [a.name, a.stateSource, a.origin, a.spawnRow, a.costUsd, a.costSource]),
    [["w1", "presence", "unknown", "likely-aged-out", 3, "exit-report"]],
  );
});

Deno.test("no spawn row and a window that is not full: the row is kept, marked absent", () => {
  const events = [ev("agent_retired", "human", 5, { target: "gone" }, "r1")];
  const snap = foldRoster({
    sessions: [],
    brokerUptimeMs: 60_000,
    events,
    historyLimit: 1000,
    now: 100,
  });
  assert.deepEqual(
    snap.agents.map((a) => [a.id, a.idSource, a.state, a.origin, a.spawnRow]),
    [["name:gone", "name", "retired", "unknown", "absent"]],
  );
  assert.deepEqual(snap.diagnostics.spawnRowsLikelyAgedOut, []);
});

Deno.test("property: every lifecycle subject has a roster row; ids unique; name-keyed rows say so", () => {
  let runsWithNameRow = 0;
  fc.assert(
    fc.property(
      fc.oneof(historyArb, lifecycleArb),
      fc.integer({ min: 0, max: 20 }),
      fc.subarray(["w1", "w2", "w3", "coord"]),
      (history, cut, liveNames) => {
        // Drop the oldest rows, as the broker's window does.
        const events = history.slice(cut);
        const sessions = liveNames.map((name) => session(name));
        const snap = foldRoster({
          sessions,
          brokerUptimeMs: 60_000,
          events,
          historyLimit: Math.max(1, events.length),
          now: 100,
        });
        const fold = foldAgentLifecycle(events);
        const names = new Set(snap.agents.map((a) => a.name));
        for (const name of fold.orphans.keys()) assert.ok(names.has(name), `${name} lost`);
        if (snap.agents.some((a) => a.idSource === "name")) runsWithNameRow++;
        for (const a of snap.agents) {
          if (a.idSource !== "name") continue;
          assert.equal(a.agentId, null);
          assert.equal(a.origin, "unknown");
          assert.equal(a.stateSource, "history");
          assert.notEqual(a.spawnRow, "seen");
          assert.ok(fold.orphans.has(a.name));
        }
        // A name-keyed row shows only when no live session joins it (a
        // session joins it only while its rows leave it running).
        for (const [name, orphan] of fold.orphans) {
          const rows = snap.agents.filter((a) => a.idSource === "name" && a.name === name);
          const running = orphan.lifecycle === "live" || orphan.lifecycle === "detached";
          const joinedByPresence = orphan.supersededBy === null && liveNames.includes(name) &&
            running;
          assert.equal(rows.length, joinedByPresence ? 0 : 1);
        }
        const ids = snap.agents.map((a) => a.id);
        assert.equal(new Set(ids).size, ids.length);
        const graph = foldAgentGraph({
          events,
          historyLimit: Math.max(1, events.length),
          now: 100,
          roster: snap.agents,
        });
        const nodeIds = graph.nodes.map((n) => n.id);
        assert.equal(new Set(nodeIds).size, nodeIds.length);
      },
    ),
    { numRuns: 1500 },
  );
  assert.ok(runsWithNameRow > 300, `only ${runsWithNameRow} runs had a name-keyed row`);
});

Deno.test("CLI: an aged-out agent that is not live shows in the roster with its state and cost", async () => {
  const files: Record<string, string> = {
    "s.json": JSON.stringify({ sessions: [], brokerUptimeMs: 86_400_000 }),
    "h.json": JSON.stringify({ items: agedOutWindow() }),
  };
  const out: string[] = [];
  await runAgentsCommand(["s.json", "h.json", "--now=5000"], {
    readText: (p) => Promise.resolve(files[p]),
    write: (s) => void out.push(s),
  });
  const text = out.join("");
  assert.match(
    text,
    /\n {2}w-old +exited +history +unknown\* .*2\.50 \(exit-report\) +name:w-old\n/,
  );
  assert.match(
    text,
    /\n {2}w-ret +retired +history +unknown\* .*0\.75 \(exit-report\) +name:w-ret\n/,
  );
  assert.match(text, /keyed by name/);
});
