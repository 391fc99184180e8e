/**
 * The spawn-tree layout over rows already checked with `validEvents` (the
 * graph fold checks once and shares the rows), and its spacing constants.
 * Public form: `layoutSpawnTree` in `layout.ts`.
 *
 * @module
 */
import { spawnForestOf } from "./_spawn_forest.ts";
import type { GraphEdge, GraphLayout, GraphNode } from "./layout.ts";
import { HUMAN } from "./spawn_tree.ts";
import type { BrokerEvent } from "./types.ts";

/** Horizontal distance between depth columns, px. */
export const COLUMN_WIDTH = 186;
/** Vertical distance between rows, px. */
export const ROW_HEIGHT = 30;
/** Left padding before column 0, px. */
export const PADDING_X = 26;
/** Top padding before row 0 (and bottom padding after the last row), px. */
export const PADDING_Y = 22;
/** Room right of the deepest column for labels, px. */
export const LABEL_ALLOWANCE = 150;

/** `layoutSpawnTree` over rows already checked with `validEvents`. */
export function layoutOf(items: readonly BrokerEvent[]): GraphLayout {
  const forest = spawnForestOf(items);
  const n = forest.names.length;
  // Position of each name in ascending code-unit order.
  const sorted = forest.names.slice().sort();
  const posOf = new Int32Array(n); // insertion index → sorted position
  for (let k = 0; k < n; k++) posOf[forest.index.get(sorted[k])!] = k;

  // Parent position per sorted position (-1: root).
  const parent = new Int32Array(n);
  const childCount = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const p = forest.parent[i];
    const pp = p === -1 ? -1 : posOf[p];
    parent[posOf[i]] = pp;
    if (pp !== -1) childCount[pp]++;
  }
  // Children in CSR form; filled in ascending name order, so each list is sorted.
  const start = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) start[i + 1] = start[i] + childCount[i];
  const fill = start.slice(0, n);
  const kids = new Int32Array(start[n]);
  for (let i = 0; i < n; i++) if (parent[i] !== -1) kids[fill[parent[i]]++] = i;

  const roots: number[] = [];
  for (let i = 0; i < n; i++) if (parent[i] === -1) roots.push(i);

  // Subtree sizes, depths and rows in one iterative DFS per root. Sizes are
  // needed to order the roots, so do sizes first (order-independent).
  const size = new Int32Array(n).fill(1);
  const depth = new Int32Array(n);
  const order = new Int32Array(n); // pre-order
  let filled = 0;
  const stack: number[] = [];
  for (const r of roots) {
    stack.push(r);
    while (stack.length > 0) {
      const v = stack.pop()!;
      order[filled++] = v;
      for (let k = start[v]; k < start[v + 1]; k++) {
        depth[kids[k]] = depth[v] + 1;
        stack.push(kids[k]);
      }
    }
  }
  for (let k = filled - 1; k >= 0; k--) {
    const v = order[k];
    if (parent[v] !== -1) size[parent[v]] += size[v];
  }

  roots.sort((a, b) =>
    (sorted[a] === HUMAN ? 1 : 0) - (sorted[b] === HUMAN ? 1 : 0) || size[b] - size[a] ||
    sorted[a].localeCompare(sorted[b])
  );

  const row = new Float64Array(n);
  let next = 0;
  // Post-order with an explicit cursor per frame, children in list order.
  const frame: number[] = [];
  const cursor: number[] = [];
  for (const r of roots) {
    frame.push(r);
    cursor.push(start[r]);
    while (frame.length > 0) {
      const top = frame.length - 1;
      const v = frame[top];
      const k = cursor[top];
      if (k < start[v + 1]) {
        cursor[top] = k + 1;
        frame.push(kids[k]);
        cursor.push(start[kids[k]]);
        continue;
      }
      frame.pop();
      cursor.pop();
      if (start[v] === start[v + 1]) {
        row[v] = next++;
      } else {
        let lo = Infinity;
        let hi = -Infinity;
        for (let c = start[v]; c < start[v + 1]; c++) {
          const cr = row[kids[c]];
          if (cr < lo) lo = cr;
          if (cr > hi) hi = cr;
        }
        row[v] = (lo + hi) / 2;
      }
    }
  }

  const nodes: GraphNode[] = new Array(n);
  const byName = new Map<string, GraphNode>();
  const edges: GraphEdge[] = [];
  let maxDepth = 0;
  let maxRow = 0;
  for (let i = 0; i < n; i++) {
    const name = sorted[i];
    const p = parent[i] === -1 ? null : sorted[parent[i]];
    const node: GraphNode = {
      name,
      depth: depth[i],
      row: row[i],
      parent: p,
      x: PADDING_X + depth[i] * COLUMN_WIDTH,
      y: PADDING_Y + row[i] * ROW_HEIGHT,
    };
    nodes[i] = node;
    byName.set(name, node);
    if (parent[i] !== -1) edges.push({ from: sorted[parent[i]], to: name });
    if (depth[i] > maxDepth) maxDepth = depth[i];
    if (row[i] > maxRow) maxRow = row[i];
  }
  return {
    nodes,
    edges,
    byName,
    width: PADDING_X + maxDepth * COLUMN_WIDTH + LABEL_ALLOWANCE,
    height: PADDING_Y * 2 + maxRow * ROW_HEIGHT,
  };
}
