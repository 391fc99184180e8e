/**
 * Regressions found in review: overlapping history windows concatenated by a
 * client (duplicate rows), respawns that resume the same Claude session or
 * land in the same millisecond (roster ids must stay unique), and glow on
 * non-finite times.
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import { historyArb, lifecycleArb } from "./_arbitrary.ts";
import { loadSample } from "./_samples.ts";
import { runAgentsCommand } from "../../src/cli/agents_command.ts";
import {
  agentGraph,
  agentRosterSnapshot,
  type BrokerEvent,
  type BrokerSession,
  foldAgentGraph,
  foldRoster,
  glowStrength,
  type Point,
  pointAlongPolyline,
} from "../../agents.ts";
import { ev, session, spawn } from "./_helpers.ts";

const fold = (events: BrokerEvent[], sessions: BrokerSession[] = []) => {
  const roster = foldRoster({
    sessions,
    brokerUptimeMs: 60_000,
    events,
    historyLimit: 1000,
    now: 10_000,
  });
  const graph = foldAgentGraph({ events, historyLimit: 1000, now: 10_000, roster: roster.agents });
  return { roster, graph };
};

Deno.test("duplicate rows (two overlapping windows concatenated) change nothing but the row count", () => {
  const window = [
    spawn("A", "coord", "w1", 1000, { session_id: "sA" }),
    ev("agent_exited", "w1", 2000, { cost_usd: "1.25", code: "0" }, "e1"),
    spawn("B", "coord", "w1", 3000),
    ev("agent_attached", "w1", 3100, {}, "t1"),
    ev("message", "coord", 3200, { target: "w1" }, "m1"),
  ];
  const once = fold(window);
  const twice = fold([...window, ...window]);
  const rows = (r: typeof once) =>
    r.roster.agents.map((a) => [a.agentId, a.state, a.costUsd, a.costSource, a.lastEventAt]);
  assert.deepEqual(rows(once), [
    ["B", "detached", null, null, 3100],
    ["A", "exited", 1.25, "exit-report", 2000],
  ]);
  // Before the fix the repeated exit row joined the newest incarnation B:
  // B showed `exited` with A's $1.25.
  assert.deepEqual(rows(twice), rows(once));
  // A repeated spawn row is the same spawn: the spawned edge counts it once,
  // as message edges count a repeated (msgId, recipient) once.
  const counts = (r: typeof once) => r.graph.edges.map((e) => [e.kind, e.count]);
  assert.deepEqual(counts(once), [["spawned", 2], ["message", 1]]);
  assert.deepEqual(counts(twice), counts(once));
});

Deno.test("a repeated lifecycle row is applied once; a different row with the same msgId still applies", () => {
  const agent = fold([
    spawn("A", "c", "w", 1),
    ev("agent_exited", "w", 2, { cost_usd: "2" }, "x"),
    ev("agent_resumed", "human", 3, { target: "w" }, "x"),
    ev("agent_exited", "w", 2, { cost_usd: "2" }, "x"),
  ]).roster.agents[0];
  // The resume (same msgId, other kind) applies; the repeated exit row must
  // not end the resumed agent again (history shows a live lifecycle as detached).
  assert.equal(agent.state, "detached");
  assert.equal(agent.costUsd, 2);
  assert.equal(agent.lastEventAt, 3);
});

Deno.test("roster ids stay unique when a respawn resumes the same Claude session", () => {
  const { roster, graph } = fold(
    [
      spawn("G1", "c", "w", 1, { session_id: "S" }),
      ev("agent_exited", "w", 2, { cost_usd: "1" }),
      spawn("G2", "c", "w", 3, { session_id: "S" }),
    ],
    [session("w", { observed: { claudeSessionId: "S" } })],
  );
  const ids = roster.agents.map((a) => a.id);
  assert.equal(new Set(ids).size, ids.length, `duplicate roster ids: ${ids}`);
  const [live, earlier] = roster.agents;
  assert.equal(live.id, "S"); // the presence row keeps the spec's id
  assert.equal(live.agentId, "G2");
  assert.equal(earlier.agentId, "G1");
  assert.equal(earlier.id, "S#G1");
  assert.equal(earlier.idSource, "claudeSessionId");
  assert.equal(earlier.claudeSessionId, "S");
  // The node for `w` is the newest incarnation's row, never its predecessor's.
  const node = graph.nodes.find((n) => n.name === "w")!;
  assert.equal(node.id, "S");
  assert.notEqual(node.id, earlier.id);
});

Deno.test("roster ids stay unique for two spawns of a name in the same millisecond", () => {
  const { roster } = fold([spawn("H1", "c", "w", 7), spawn("H2", "c", "w", 7)]);
  assert.deepEqual(roster.agents.map((a) => [a.agentId, a.id]), [["H1", "w@7#H1"], [
    "H2",
    "w@7",
  ]]);
});

Deno.test("glowStrength stays in [0, 1] for non-finite times", () => {
  const at = (n: number) => ({ category: "message" as const, at: n });
  assert.equal(glowStrength(at(0), Number.NaN), 0);
  assert.equal(glowStrength(at(Number.NaN), 0), 0);
  assert.equal(glowStrength(at(0), Number.POSITIVE_INFINITY), 0);
  assert.equal(glowStrength(at(Number.POSITIVE_INFINITY), 0), 0);
  assert.equal(glowStrength(at(0), 3000), 0.5);
});

Deno.test("property: roster ids are unique and every graph node id is a roster id or its own", () => {
  let runsWithClash = 0;
  fc.assert(
    fc.property(
      fc.oneof(historyArb, lifecycleArb),
      fc.subarray(["w1", "w2", "w3", "coord"]),
      fc.constantFrom("s1", "s2", undefined),
      (events, liveNames, sid) => {
        const sessions = liveNames.map((name) =>
          session(name, sid === undefined ? {} : { observed: { claudeSessionId: sid } })
        );
        const { roster, graph } = fold(events, sessions);
        const ids = roster.agents.map((a) => a.id);
        assert.equal(new Set(ids).size, ids.length, `duplicate roster ids: ${ids}`);
        const naive = new Set<string>();
        for (const a of roster.agents) {
          const base = a.id.split("#")[0];
          if (naive.has(base)) runsWithClash++;
          naive.add(base);
        }
        const nodeIds = graph.nodes.map((n) => n.id);
        assert.equal(new Set(nodeIds).size, nodeIds.length, `duplicate node ids: ${nodeIds}`);
      },
    ),
    { numRuns: 1500 },
  );
  assert.ok(runsWithClash > 100, `only ${runsWithClash} runs had an id clash to resolve`);
});

Deno.test("a history handed over newest first is reported, not folded silently", async () => {
  const sample = await loadSample(3);
  const inOrder = fold(sample.events);
  assert.equal(inOrder.roster.diagnostics.outOfOrderRows, 0);
  assert.equal(inOrder.graph.diagnostics.outOfOrderRows, 0);
  const reversed = fold([...sample.events].reverse());
  // 10 rows, strictly increasing times: every row after the first is older.
  assert.equal(reversed.roster.diagnostics.outOfOrderRows, 9);
  assert.equal(reversed.graph.diagnostics.outOfOrderRows, 9);
  // Equal times are in order (ties are not counted).
  assert.equal(
    fold([spawn("A", "c", "w", 5), ev("agent_attached", "w", 5)]).roster.diagnostics
      .outOfOrderRows,
    0,
  );
  const out: string[] = [];
  const files: Record<string, string> = {
    "s.json": JSON.stringify({ sessions: [], brokerUptimeMs: 86_400_000 }),
    "h.json": JSON.stringify({ items: [...sample.events].reverse() }),
  };
  await runAgentsCommand(["s.json", "h.json", "--now=7000"], {
    readText: (p) => Promise.resolve(files[p]),
    write: (s) => void out.push(s),
  });
  assert.match(
    out.join(""),
    /9 row\(s\) older than the row before them: the history is not oldest first/,
  );
});

Deno.test("historyLimit: fractional or huge limits give a valid window; 1,000 rows are full whatever the limit", () => {
  const events = [spawn("A", "c", "w", 1), ev("agent_attached", "w", 2)];
  const at = (historyLimit: number, rows = events) => {
    const r = foldRoster({
      sessions: [],
      brokerUptimeMs: null,
      events: rows,
      historyLimit,
      now: 9,
    });
    const g = foldAgentGraph({ events: rows, historyLimit, now: 9 });
    assert.ok(agentRosterSnapshot.safeParse(r).success, `roster schema at limit ${historyLimit}`);
    assert.ok(agentGraph.safeParse(g).success, `graph schema at limit ${historyLimit}`);
    assert.equal(g.history.limit, r.history.limit);
    assert.equal(g.diagnostics.historyFull, r.diagnostics.historyFull);
    return r;
  };
  assert.equal(at(2.5).history.limit, 2); // as the broker's parseInt reads "2.5"
  assert.equal(at(2.5).diagnostics.historyFull, true);
  assert.equal(at(Number.POSITIVE_INFINITY).history.limit, 1000);
  assert.equal(at(0.5).history.limit, 1000);
  // The broker never returns more than 1,000 rows: asking for 5,000 and
  // getting 1,000 means older rows fell out, so an exit without its spawn
  // row is flagged.
  const many = [ev("agent_exited", "old", 0)];
  for (let i = 1; i < 1000; i++) many.push(ev("message", "c", i, { target: "old" }, `m${i}`));
  const full = at(5000, many);
  assert.equal(full.history.limit, 5000);
  assert.equal(full.diagnostics.historyFull, true);
  assert.deepEqual(full.diagnostics.spawnRowsLikelyAgedOut, ["old"]);
});

Deno.test("CLI: exactly 200 rows without --limit hints at the broker's default limit", async () => {
  const items = [];
  for (let i = 0; i < 200; i++) items.push(ev("message", "a", i, { target: "b" }, `m${i}`));
  const files: Record<string, string> = {
    "s.json": JSON.stringify({ sessions: [], brokerUptimeMs: 86_400_000 }),
    "h.json": JSON.stringify({ items }),
  };
  const run = async (args: string[]) => {
    const out: string[] = [];
    await runAgentsCommand(["s.json", "h.json", "--now=7000", ...args], {
      readText: (p) => Promise.resolve(files[p]),
      write: (s) => void out.push(s),
    });
    return out.join("");
  };
  assert.match(await run([]), /exactly 200 rows, the broker's default \?limit/);
  const given = await run(["--limit=200"]);
  assert.doesNotMatch(given, /exactly 200 rows/);
  assert.match(given, /history window is full \(200 row\(s\), the broker returns at most 200\)/);
});

Deno.test("pointAlongPolyline: a null point or non-finite coordinate reads as 0 instead of throwing or giving NaN", () => {
  const bad = [null, { x: 10, y: 0 }, { x: 10, y: Number.NaN }] as unknown as Point[];
  assert.deepEqual(pointAlongPolyline(bad, 0), { x: 0, y: 0 });
  assert.deepEqual(pointAlongPolyline(bad, 0.5), { x: 5, y: 0 });
  assert.deepEqual(pointAlongPolyline([{ x: 1 }, { y: 2 }] as unknown as Point[], 1), {
    x: 0,
    y: 2,
  });
  assert.deepEqual(
    pointAlongPolyline([{ x: 0, y: 0 }, { x: Number.POSITIVE_INFINITY, y: 0 }], 0.5),
    { x: 0, y: 0 },
  );
  // The spec example is untouched.
  const pl = [{ x: 0, y: 0 }, { x: 10, y: 0 }, { x: 10, y: 30 }];
  assert.deepEqual([0, 0.25, 0.5, 1].map((t) => pointAlongPolyline(pl, t)), [
    { x: 0, y: 0 },
    { x: 10, y: 0 },
    { x: 10, y: 10 },
    { x: 10, y: 30 },
  ]);
});
