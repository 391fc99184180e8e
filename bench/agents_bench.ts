/**
 * Agents bench. Two ways to run it:
 *
 * - `deno run -A bench/agents_bench.ts` prints the targets and the measured
 *   medians: roster + graph over a 1,000-row history (target ≤ 2 ms), layout
 *   of 10,000 and 20,000 nodes and their ratio (target ≤ 2.3×). Exit code 1
 *   when a target is missed.
 * - `deno bench bench/agents_bench.ts` runs the same workloads as `Deno.bench`
 *   cases.
 *
 * @module
 */
import { type BrokerEvent, foldAgentGraph, foldRoster, layoutSpawnTree } from "../agents.ts";
import { generateHistory, rng } from "../tests/agents/_generate.ts";
import { Goals, medianOf, medianPair } from "./_timing.ts";

const history = generateHistory({ seed: 7, rows: 1000, agedOut: 300 });

function foldBoth(): number {
  const roster = foldRoster({
    sessions: history.sessions,
    brokerUptimeMs: history.brokerUptimeMs,
    events: history.events,
    historyLimit: 1000,
    now: history.now,
    seatPrefixes: [{ seat: "workers", prefix: "w1" }],
  });
  const graph = foldAgentGraph({
    events: history.events,
    historyLimit: 1000,
    now: history.now,
    roster: roster.agents,
  });
  return roster.agents.length + graph.edges.length;
}

/** A random recursive tree of `n` nodes as spawn rows (node i spawned by a random earlier node). */
function treeHistory(n: number, seed: number): BrokerEvent[] {
  const rand = rng(seed);
  const events: BrokerEvent[] = [];
  for (let i = 1; i < n; i++) {
    const parent = Math.floor(rand() * i);
    events.push({
      msgId: `a${i}`,
      kind: "agent_spawned",
      from: `agent-${parent}`,
      text: "",
      at: i,
      meta: { target: `agent-${i}` },
    });
  }
  return events;
}

const tree10k = treeHistory(10_000, 1);
const tree20k = treeHistory(20_000, 2);

function loadAverage(): string {
  try {
    return Deno.loadavg().map((x) => x.toFixed(2)).join(" ");
  } catch {
    return "n/a";
  }
}

const RUN_AS_SCRIPT = import.meta.main && !Deno.args.includes("--deno-bench");

if (RUN_AS_SCRIPT) {
  const goals = new Goals();
  const fmt = (m: { min: number; median: number }) =>
    `median ${m.median.toFixed(3)} ms, min ${m.min.toFixed(3)} ms`;
  console.log(`load average: ${loadAverage()} on ${navigator.hardwareConcurrency} CPUs`);
  const fold = medianOf(foldBoth, 400, 300);
  console.log(
    `roster + graph, ${history.events.length}-row history: ${fmt(fold)} (target ≤ 2 ms)`,
  );
  const nodes10 = layoutSpawnTree(tree10k).nodes.length;
  const nodes20 = layoutSpawnTree(tree20k).nodes.length;
  const l = medianPair(() => layoutSpawnTree(tree10k), () => layoutSpawnTree(tree20k), 100, 30);
  console.log(
    `layout ${nodes10} nodes: median ${l.a.wall.toFixed(2)} ms wall (min ${
      l.a.wallMin.toFixed(2)
    }), ${l.a.cpu.toFixed(2)} ms CPU`,
  );
  console.log(
    `layout ${nodes20} nodes: median ${l.b.wall.toFixed(2)} ms wall (min ${
      l.b.wallMin.toFixed(2)
    }), ${l.b.cpu.toFixed(2)} ms CPU`,
  );
  const ratio = l.b.wall / l.a.wall;
  console.log(
    `layout ratio 20k/10k: ${ratio.toFixed(2)}× wall median, ${
      (l.b.cpu / l.a.cpu).toFixed(2)
    }× CPU median (target ≤ 2.3×)`,
  );
  // Control: the machine's own scaling for linear work on the same names
  // (one Map insert per name plus the name sort the spec requires).
  const names10 = layoutSpawnTree(tree10k).nodes.map((n) => n.name);
  const names20 = layoutSpawnTree(tree20k).nodes.map((n) => n.name);
  const control = (names: string[]) => () => {
    const m = new Map<string, number>();
    for (let i = 0; i < names.length; i++) m.set(names[i], i);
    return [m, names.slice().sort()];
  };
  const c = medianPair(control(names10), control(names20), 60, 20);
  console.log(
    `control (Map build + sort of the same names) ratio 20k/10k: ${
      (c.b.wall / c.a.wall).toFixed(2)
    }× wall median`,
  );
  goals.check(
    "roster + graph over a 1,000-row history ≤ 2 ms (median)",
    fold.median <= 2,
    fmt(fold),
  );
  goals.check("layout 20k/10k ≤ 2.3× (wall median)", ratio <= 2.3, `${ratio.toFixed(2)}×`);
  goals.finish();
} else {
  Deno.bench("roster + graph over a 1,000-row history", () => {
    foldBoth();
  });
  Deno.bench("layoutSpawnTree 10,000 nodes", { group: "layout", baseline: true }, () => {
    layoutSpawnTree(tree10k);
  });
  Deno.bench("layoutSpawnTree 20,000 nodes", { group: "layout" }, () => {
    layoutSpawnTree(tree20k);
  });
}
