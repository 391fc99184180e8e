/**
 * Golden fixtures over generated histories (a full 1,000-row window with 300
 * rows aged out, and a small one): respawns, retired agents, aged-out spawn
 * rows, spawn cycles, multicast targets. The inputs are pinned as fixtures
 * too (`fixtures/agents/generated_*_{sessions,history}.json`), so the CLI can
 * be run on them.
 */
import assert from "node:assert/strict";
import { assertGolden } from "../_helpers/golden.ts";
import {
  agentGraph,
  type AgentRosterSnapshot,
  agentRosterSnapshot,
  type BrokerEvent,
  foldAgentGraph,
  foldAgentRecords,
  foldRoster,
  layoutSpawnTree,
} from "../../agents.ts";
import { generateHistory } from "./_generate.ts";

const CASES = [
  { label: "1000", seed: 7, rows: 1000, agedOut: 300, names: 40 },
  { label: "small", seed: 3, rows: 120, agedOut: 40, names: 6 },
];

function spawnIdsInWindow(events: readonly BrokerEvent[]): string[] {
  const ids: string[] = [];
  const seen = new Set<string>();
  for (const e of events) {
    if (e.kind !== "agent_spawned" || seen.has(e.msgId)) continue;
    const name = e.meta.target ?? e.meta.name ?? "";
    if (name === "") continue;
    seen.add(e.msgId);
    ids.push(e.msgId);
  }
  return ids;
}

function checkInvariants(events: BrokerEvent[], snap: AgentRosterSnapshot): void {
  // No record lost: every spawn row has exactly one roster row.
  const ids = spawnIdsInWindow(events);
  const rosterIds = snap.agents.map((a) => a.agentId).filter((x) => x !== null);
  assert.deepEqual([...rosterIds].sort(), [...ids].sort());
  // Retired is final: a record retired in any prefix stays retired.
  const retiredAt = new Map<string, number>();
  for (let i = 0; i < events.length; i += 97) {
    for (const r of foldAgentRecords(events.slice(0, i)).values()) {
      if (r.lifecycle === "retired" && !retiredAt.has(r.agentId)) retiredAt.set(r.agentId, i);
    }
  }
  const final = foldAgentRecords(events);
  for (const id of retiredAt.keys()) assert.equal(final.get(id)!.lifecycle, "retired");
}

for (const c of CASES) {
  Deno.test(`generated ${c.label}: pinned input, roster and graph goldens, invariants`, async () => {
    const g = generateHistory(c);
    await assertGolden(`agents/generated_${c.label}_history.json`, { items: g.events });
    await assertGolden(`agents/generated_${c.label}_sessions.json`, {
      sessions: g.sessions,
      brokerUptimeMs: g.brokerUptimeMs,
    });
    assert.equal(g.events.length, c.rows);
    const snap = foldRoster({
      sessions: g.sessions,
      brokerUptimeMs: g.brokerUptimeMs,
      events: g.events,
      historyLimit: c.rows,
      now: g.now,
      seatPrefixes: [{ seat: "workers", prefix: "w1" }],
    });
    const graph = foldAgentGraph({
      events: g.events,
      historyLimit: c.rows,
      now: g.now,
      roster: snap.agents,
    });
    assert.ok(agentRosterSnapshot.safeParse(snap).success);
    assert.ok(agentGraph.safeParse(graph).success);
    assert.equal(snap.diagnostics.historyFull, true);
    assert.ok(
      snap.diagnostics.spawnRowsLikelyAgedOut.length > 0,
      "the cut window ages spawn rows out",
    );
    assert.ok(snap.agents.some((a) => a.supersededBy !== null), "respawns present");
    assert.ok(snap.agents.some((a) => a.state === "retired"), "retirements present");
    checkInvariants(g.events, snap);
    // Node ids are unique and every edge end is a node id.
    const nodeIds = new Set(graph.nodes.map((n) => n.id));
    assert.equal(nodeIds.size, graph.nodes.length);
    for (const e of graph.edges) assert.ok(nodeIds.has(e.from) && nodeIds.has(e.to));
    // Multicast: each (msgId, recipient) counts once.
    const pairs = new Set<string>();
    let expectedMessages = 0;
    const names = new Set(graph.nodes.map((n) => n.name));
    for (const e of g.events) {
      if (!["message", "question", "answer", "notice", "approval_request"].includes(e.kind)) {
        continue;
      }
      const to = e.meta.target ?? "";
      if (
        to === e.from || !names.has(to) || !names.has(e.from) || /[\s,*?]/.test(to) || to === ""
      ) continue;
      const key = `${e.msgId}\u0000${to}`;
      if (pairs.has(key)) continue;
      pairs.add(key);
      expectedMessages++;
    }
    assert.equal(
      graph.edges.filter((e) => e.kind === "message").reduce((t, e) => t + e.count, 0),
      expectedMessages,
    );
    await assertGolden(`agents/generated_${c.label}_roster.golden.json`, snap);
    await assertGolden(`agents/generated_${c.label}_graph.golden.json`, graph);
    const layout = layoutSpawnTree(g.events);
    await assertGolden(`agents/generated_${c.label}_layout.golden.json`, {
      width: layout.width,
      height: layout.height,
      nodes: layout.nodes,
      edges: layout.edges,
    });
  });
}
