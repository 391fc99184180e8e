/**
 * Review regressions for the name-keyed rows of agents whose spawn row aged
 * out (commit 143120d): no row fabricated from a retire/resume row that names
 * no agent, rows out of time order join the spawn they follow, a later
 * session never takes a finished incarnation's exit cost, and graph node ids
 * stay unique when an id is literally `name:<x>`.
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import { historyArb, lifecycleArb } from "./_arbitrary.ts";
import {
  type BrokerEvent,
  type BrokerSession,
  foldAgentGraph,
  foldAgentLifecycle,
  foldRoster,
} from "../../agents.ts";
import { runAgentsCommand } from "../../src/cli/agents_command.ts";
import { ev, session } from "./_helpers.ts";

const roster = (sessions: BrokerSession[], events: BrokerEvent[]) =>
  foldRoster({ sessions, brokerUptimeMs: 60_000, events, historyLimit: events.length, now: 1000 });

Deno.test("aged-out review: a retire/resume row without meta.target opens no row for its actor", () => {
  const events = [
    ev("agent_retired", "human", 5),
    ev("agent_resumed", "agent-chat", 6),
    ev("agent_retired", "human", 7, { target: "w1" }),
  ];
  const snap = roster([], events);
  assert.deepEqual(
    snap.agents.map((a) => [a.id, a.state]),
    [["name:w1", "retired"]],
  );
  assert.deepEqual([...foldAgentLifecycle(events).orphanNames], ["w1"]);
});

Deno.test("aged-out review: lifecycle rows listed before an older spawn row (out of time order) join that spawn", () => {
  const events = [
    ev("agent_exited", "w", 300, { cost_usd: "2" }, "e1"),
    ev("agent_spawned", "coord", 200, { target: "w" }, "A"),
  ];
  const fold = foldAgentLifecycle(events);
  assert.equal(fold.orphans.size, 0);
  assert.equal(fold.orphanNames.size, 0);
  const snap = roster([], events);
  assert.deepEqual(
    snap.agents.map((a) => [a.id, a.agentId, a.state, a.costUsd, a.costSource, a.lastEventAt]),
    [["w@200", "A", "exited", 2, "exit-report", 300]],
  );
  // In time order (the orphan rows older than the spawn) it stays a
  // superseded name-keyed row.
  const inOrder = roster([], [
    ev("agent_exited", "w", 100, { cost_usd: "2" }, "e1"),
    ev("agent_spawned", "coord", 200, { target: "w" }, "A"),
  ]);
  assert.deepEqual(
    inOrder.agents.map((a) => [a.id, a.state, a.costUsd, a.supersededBy]),
    [["w@200", "spawning", null, null], ["name:w", "exited", 2, "A"]],
  );
});

Deno.test("aged-out review: a live session does not take the exit cost of a finished (exited/failed/retired) name-keyed row", () => {
  for (
    const [rows, state] of [
      [[ev("agent_exited", "w", 100, { cost_usd: "4" })], "exited"],
      [[ev("agent_exited", "w", 100, { cost_usd: "4", failed: "true" })], "failed"],
      [[
        ev("agent_exited", "w", 100, { cost_usd: "4" }),
        ev("agent_retired", "human", 110, { target: "w" }),
        ev("agent_attached", "w", 120),
      ], "retired"],
    ] as const
  ) {
    const snap = roster([session("w", { registeredAt: 900 })], [...rows]);
    assert.deepEqual(
      snap.agents.map((a) => [a.id, a.stateSource, a.state, a.costUsd, a.costSource]),
      [
        ["w@900", "presence", "working", null, null],
        ["name:w", "history", state, 4, "exit-report"],
      ],
      state,
    );
    const graph = foldAgentGraph({
      events: [...rows],
      historyLimit: rows.length,
      now: 1000,
      roster: snap.agents,
    });
    assert.equal(graph.nodes.find((n) => n.name === "w")?.id, "w@900");
  }
});

Deno.test("aged-out review: graph node ids stay unique when a spawn row's msgId is literally name:<x>", () => {
  const events = [
    ev("agent_exited", "x", 5, {}, "e1"),
    ev("agent_spawned", "coord", 6, { target: "y" }, "name:x"),
  ];
  const graph = foldAgentGraph({ events, historyLimit: 2, now: 10 });
  const ids = graph.nodes.map((n) => [n.name, n.id]);
  assert.deepEqual(ids, [["coord", "name:coord"], ["x", "name:x#x"], ["y", "name:x"]]);
});

Deno.test("aged-out review: CLI explains name-keyed rows also when the window is not full (spawn row absent)", async () => {
  const files: Record<string, string> = {
    "s.json": JSON.stringify({ sessions: [], brokerUptimeMs: 86_400_000 }),
    "h.json": JSON.stringify({
      items: [
        ev("agent_exited", "w-gone", 100, { cost_usd: "1" }),
        ev("agent_retired", "human", 200),
      ],
    }),
  };
  const out: string[] = [];
  await runAgentsCommand(["s.json", "h.json", "--now=5000"], {
    readText: (p) => Promise.resolve(files[p]),
    write: (s) => void out.push(s),
  });
  const text = out.join("");
  assert.match(
    text,
    /\n {2}w-gone +exited +history +unknown .*1\.00 \(exit-report\) +name:w-gone\n/,
  );
  assert.match(text, /no spawn row in the window .*: w-gone; keyed by name/);
  assert.doesNotMatch(text, /name:human/);
});

Deno.test("aged-out review property: name-keyed rows claim nothing they cannot know, in any row order; node ids unique", () => {
  let nameRows = 0;
  fc.assert(
    fc.property(
      fc.oneof(historyArb, lifecycleArb),
      fc.integer({ min: 0, max: 10 }),
      fc.boolean(),
      fc.subarray(["w1", "w2", "coord", "human"]),
      (history, cut, shuffle, liveNames) => {
        let events = history.slice(cut);
        // Out of time order: reverse (every row older than the one before).
        if (shuffle) events = [...events].reverse();
        const snap = foldRoster({
          sessions: liveNames.map((name, i) => session(name, { registeredAt: 1000 + i })),
          brokerUptimeMs: 60_000,
          events,
          historyLimit: Math.max(1, events.length),
          now: 5000,
        });
        for (const a of snap.agents) {
          if (a.idSource !== "name") continue;
          nameRows++;
          assert.deepEqual(
            [a.agentId, a.origin, a.spawnedBy, a.spawnedAt, a.seat, a.claudeSessionId, a.workingOn],
            [null, "unknown", null, null, null, null, null],
          );
          // Named by a lifecycle row as its subject: the actor of
          // attached/detached/exited, or the target of retired/resumed.
          assert.ok(
            events.some((e) =>
              (["agent_attached", "agent_detached", "agent_exited"].includes(e.kind) &&
                e.from === a.name) ||
              (["agent_retired", "agent_resumed"].includes(e.kind) && e.meta.target === a.name)
            ),
            `${a.name} is named by no lifecycle row`,
          );
          if (a.costUsd !== null) {
            assert.equal(a.costSource, "exit-report");
            assert.ok(
              events.some((e) =>
                e.kind === "agent_exited" && e.from === a.name && e.meta.cost_usd !== undefined &&
                Number(e.meta.cost_usd) === a.costUsd
              ),
            );
          }
        }
        for (const a of snap.agents) {
          if (a.stateSource !== "presence" || a.costSource !== "exit-report") continue;
          assert.ok(events.some((e) => e.kind === "agent_exited" && e.from === a.name));
        }
        const ids = snap.agents.map((a) => a.id);
        assert.equal(new Set(ids).size, ids.length);
        for (const roster of [undefined, snap.agents]) {
          const graph = foldAgentGraph({
            events,
            historyLimit: events.length || 1,
            now: 5000,
            roster,
          });
          const nodeIds = graph.nodes.map((n) => n.id);
          assert.equal(new Set(nodeIds).size, nodeIds.length);
        }
      },
    ),
    { numRuns: 1000 },
  );
  assert.ok(nameRows > 200, `only ${nameRows} name-keyed rows`);
});
