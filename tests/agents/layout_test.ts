/**
 * Spawn tree and layout: the spec's worked example with exact coordinates,
 * cycle breaking, a naive transcription of the spec as oracle on random
 * histories, and d3-hierarchy as a structural oracle.
 *
 * The spec's layout is its own simple algorithm (leaves on consecutive rows in
 * depth-first order, a parent at the midpoint of its first and last child,
 * x by depth), not a Reingold–Tilford tidy tree, so `d3.tree` coordinates are
 * not comparable. d3's `cluster` places leaves the same way (consecutive, in
 * child order, with separation 1), so it is the oracle for leaf rows; for
 * parents we check midpoint-of-children, parent/child ordering, depth = d3
 * depth, and non-overlap (distinct rows per column, disjoint subtree row
 * intervals) using d3's hierarchy.
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import * as d3raw from "d3-hierarchy";
import {
  type BrokerEvent,
  buildSpawnTree,
  COLUMN_WIDTH,
  HUMAN,
  LABEL_ALLOWANCE,
  layoutSpawnTree,
  PADDING_X,
  PADDING_Y,
  ROW_HEIGHT,
} from "../../agents.ts";
import { historyArb } from "./_arbitrary.ts";
import { naiveLayout, naiveSpawnTree } from "./_reference.ts";

// d3-hierarchy ships no types here; describe the few members used.
interface D3Node {
  id?: string;
  data: { id: string; parentId: string | null };
  depth: number;
  x: number;
  children?: D3Node[];
  parent: D3Node | null;
  value?: number;
  descendants(): D3Node[];
  leaves(): D3Node[];
  sum(f: (d: unknown) => number): D3Node;
  sort(cmp: (a: D3Node, b: D3Node) => number): D3Node;
}
interface D3 {
  stratify(): (rows: { id: string; parentId: string | null }[]) => D3Node;
  cluster(): {
    nodeSize(s: [number, number]): { separation(f: () => number): (r: D3Node) => D3Node };
  };
}
const d3 = d3raw as unknown as D3;

const spawn = (from: string, target: string, at: number): BrokerEvent => ({
  msgId: `s${at}`,
  kind: "agent_spawned",
  from,
  text: "",
  at,
  meta: { target },
});

Deno.test("constants are the spec's", () => {
  assert.deepEqual([COLUMN_WIDTH, ROW_HEIGHT, PADDING_X, PADDING_Y, LABEL_ALLOWANCE], [
    186,
    30,
    26,
    22,
    150,
  ]);
  assert.equal(HUMAN, "human");
});

Deno.test("worked example: root→a, root→b, a→a1", () => {
  const layout = layoutSpawnTree([
    spawn("root", "a", 1),
    spawn("root", "b", 2),
    spawn("a", "a1", 3),
  ]);
  const pick = (n: string) => {
    const node = layout.byName.get(n)!;
    return [node.row, node.depth, node.x, node.y];
  };
  assert.deepEqual(pick("a1"), [0, 2, 398, 22]);
  assert.deepEqual(pick("a"), [0, 1, 212, 22]);
  assert.deepEqual(pick("b"), [1, 1, 212, 52]);
  assert.deepEqual(pick("root"), [0.5, 0, 26, 37]);
  assert.deepEqual(layout.nodes.map((n) => n.name), ["a", "a1", "b", "root"]);
  assert.deepEqual(layout.edges, [
    { from: "root", to: "a" },
    { from: "a", to: "a1" },
    { from: "root", to: "b" },
  ]);
  assert.equal(layout.width, 548);
  assert.equal(layout.height, 74);
  assert.equal(layout.byName.get("root")!.parent, null);
  assert.equal(layout.byName.get("a1")!.parent, "a");
});

Deno.test("empty history: no nodes, width and height from the floor 0", () => {
  const layout = layoutSpawnTree([]);
  assert.deepEqual(layout.nodes, []);
  assert.equal(layout.width, 26 + 150);
  assert.equal(layout.height, 44);
});

Deno.test("roots: biggest tree first, human last, then localeCompare", () => {
  const events = [
    spawn("human", "h1", 1),
    spawn("human", "h2", 2),
    spawn("human", "h3", 3),
    spawn("zed", "z1", 4),
    spawn("alpha", "a1", 5),
    spawn("big", "b1", 6),
    spawn("big", "b2", 7),
  ];
  const layout = layoutSpawnTree(events);
  const rootsByRow = layout.nodes.filter((n) => n.parent === null).sort((a, b) => a.row - b.row)
    .map((n) => n.name);
  assert.deepEqual(rootsByRow, ["big", "alpha", "zed", "human"]);
});

Deno.test("buildSpawnTree: last spawn wins, audience and targets register roots, non-peers ignored", () => {
  const tree = buildSpawnTree([
    spawn("coord", "w1", 1),
    {
      msgId: "m",
      kind: "message",
      from: "w1",
      text: "",
      at: 2,
      meta: { target: "a, b", audience: "x, y ,bad name" },
    },
    { msgId: "r", kind: "route_failed", from: "ghost", text: "", at: 3, meta: { target: "z" } },
    spawn("w2", "w1", 4),
  ]);
  assert.deepEqual([...tree], [
    ["coord", null],
    ["w1", "w2"],
    ["x", null],
    ["y", null],
    ["w2", null],
  ]);
});

Deno.test("buildSpawnTree: `a,b` as a target adds nothing; a meta.name-only child is inserted at its spawn", () => {
  const tree = buildSpawnTree([
    { msgId: "m", kind: "message", from: "p", text: "", at: 1, meta: { target: "a,b" } },
    {
      msgId: "s",
      kind: "agent_spawned",
      from: "p",
      text: "",
      at: 2,
      meta: { name: "kid", audience: "z" },
    },
  ]);
  assert.deepEqual([...tree], [["p", null], ["z", null], ["kid", "p"]]);
});

Deno.test("buildSpawnTree: a 2-cycle makes the first-inserted name the root", () => {
  const tree = buildSpawnTree([spawn("x", "y", 1), spawn("y", "x", 2)]);
  assert.deepEqual([...tree], [["x", null], ["y", "x"]]);
});

Deno.test("buildSpawnTree: a name hanging off a cycle that was inserted first becomes a root too", () => {
  // Insertion order n, a, b; n→a, a→b, b→a. Walking n's chain revisits a, so n
  // is cut (as the spec's walk does); then a (first cycle member) is cut.
  const tree = buildSpawnTree([
    { msgId: "m", kind: "message", from: "n", text: "", at: 0, meta: { target: "a" } },
    spawn("a", "n", 1),
    spawn("b", "a", 2),
    spawn("a", "b", 3),
  ]);
  assert.deepEqual([...tree], [["n", null], ["a", null], ["b", "a"]]);
  // Same edges, n inserted after the cycle: only the cycle is cut.
  const later = buildSpawnTree([spawn("b", "a", 2), spawn("a", "b", 3), spawn("a", "n", 1)]);
  assert.deepEqual([...later], [["b", null], ["a", "b"], ["n", "a"]]);
});

Deno.test("buildSpawnTree / layout equal the naive spec transcription on random histories", () => {
  fc.assert(
    fc.property(historyArb, (events) => {
      assert.deepEqual([...buildSpawnTree(events)], [...naiveSpawnTree(events)]);
      const got = layoutSpawnTree(events);
      const want = naiveLayout(events);
      assert.deepEqual(got.nodes, want.nodes);
      assert.deepEqual(got.edges, want.edges);
      assert.equal(got.width, want.width);
      assert.equal(got.height, want.height);
    }),
    { numRuns: 3000 },
  );
});

/** Random trees with many cycles: parent pointers into a small pool. */
const parentPointers = fc.array(fc.tuple(fc.nat(14), fc.nat(14)), { maxLength: 30 }).map((pairs) =>
  pairs.map(([p, c], i) => spawn(`n${p}`, `n${c}`, i))
);

Deno.test("cycle breaking equals the naive walk on dense random parent pointers", () => {
  fc.assert(
    fc.property(parentPointers, (events) => {
      assert.deepEqual([...buildSpawnTree(events)], [...naiveSpawnTree(events)]);
    }),
    { numRuns: 3000 },
  );
});

function d3Check(events: BrokerEvent[]): void {
  const layout = layoutSpawnTree(events);
  if (layout.nodes.length === 0) return;
  const ROOT = "\u0000root";
  const rows = [{ id: ROOT, parentId: null as string | null }].concat(
    layout.nodes.map((n) => ({ id: n.name, parentId: n.parent ?? ROOT })),
  );
  // value = subtree size (self + descendants), as the spec's root order uses.
  const root = d3.stratify()(rows).sum(() => 1);
  const rank = (n: D3Node) => (n.data.id === HUMAN ? 1 : 0);
  // Children by name; the virtual root's children (our roots) by the spec's root order.
  root.sort((a, b) =>
    a.parent === root
      ? rank(a) - rank(b) || b.value! - a.value! || a.data.id.localeCompare(b.data.id)
      : a.data.id < b.data.id
      ? -1
      : a.data.id > b.data.id
      ? 1
      : 0
  );
  d3.cluster().nodeSize([1, 1]).separation(() => 1)(root);
  const leaves = root.leaves();
  const x0 = leaves[0].x;
  for (const leaf of leaves) {
    assert.equal(layout.byName.get(leaf.data.id)!.row, leaf.x - x0, `leaf row of ${leaf.data.id}`);
  }
  const byDepth = new Map<number, number[]>();
  for (const d of root.descendants()) {
    if (d === root) continue;
    const node = layout.byName.get(d.data.id)!;
    assert.equal(node.depth, d.depth - 1, `depth of ${d.data.id}`);
    assert.equal(node.x, PADDING_X + node.depth * COLUMN_WIDTH);
    assert.equal(node.y, PADDING_Y + node.row * ROW_HEIGHT);
    const col = byDepth.get(node.depth) ?? [];
    col.push(node.row);
    byDepth.set(node.depth, col);
    if (d.children) {
      const kidRows = d.children.map((c) => layout.byName.get(c.data.id)!.row);
      for (let i = 1; i < kidRows.length; i++) {
        assert.ok(kidRows[i - 1] < kidRows[i], "children rows ascend in name order");
      }
      assert.equal(
        node.row,
        (kidRows[0] + kidRows[kidRows.length - 1]) / 2,
        "parent at the midpoint",
      );
      // The subtree's leaves occupy a contiguous row interval.
      const lr = d.leaves().map((l) => layout.byName.get(l.data.id)!.row);
      assert.equal(Math.max(...lr) - Math.min(...lr), lr.length - 1);
    }
  }
  for (const [, col] of byDepth) {
    assert.equal(new Set(col).size, col.length, "no two nodes share a cell");
  }
}

Deno.test("d3-hierarchy oracle: leaf rows (cluster), depths, midpoints, ordering, non-overlap", () => {
  fc.assert(fc.property(historyArb, (events) => d3Check(events)), { numRuns: 1000 });
  fc.assert(fc.property(parentPointers, (events) => d3Check(events)), { numRuns: 1000 });
});

Deno.test("a 20,000-deep spawn chain lays out without recursion", () => {
  const events: BrokerEvent[] = [];
  for (let i = 0; i < 20_000; i++) events.push(spawn(`c${i}`, `c${i + 1}`, i));
  const layout = layoutSpawnTree(events);
  assert.equal(layout.nodes.length, 20_001);
  assert.equal(layout.byName.get("c20000")!.depth, 20_000);
  assert.equal(layout.byName.get("c0")!.row, 0);
  assert.equal(layout.width, 26 + 20_000 * 186 + 150);
  assert.equal(layout.height, 44);
});
