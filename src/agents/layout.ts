/**
 * The dashboard's spawn-tree layout (spec agents.md §7, titan `layout.ts`):
 * depth is a column, leaves take consecutive rows in depth-first order and a
 * parent sits at the midpoint of its first and last child's rows. This is its
 * own simple algorithm, not a Reingold–Tilford tidy tree: subtrees never share
 * rows. Pure and O(n log n) (the name sorts); everything else is linear and
 * iterative, so deep chains cannot overflow the stack.
 *
 * @module
 */
import { layoutOf } from "./_layout_fold.ts";
import { validEvents } from "./_rows.ts";

export { COLUMN_WIDTH, LABEL_ALLOWANCE, PADDING_X, PADDING_Y, ROW_HEIGHT } from "./_layout_fold.ts";
import type { BrokerEvent } from "./types.ts";

/** A point in layout space, px (origin top-left). */
export interface Point {
  /** Horizontal position, px. */
  x: number;
  /** Vertical position, px. */
  y: number;
}

/** A laid-out name: `x = PADDING_X + depth·COLUMN_WIDTH`, `y = PADDING_Y + row·ROW_HEIGHT` (px). */
export interface GraphNode extends Point {
  /** Agent name. */
  name: string;
  /** Tree depth (column), 0 for a root. */
  depth: number;
  /** Row index; a parent's row is the midpoint of its children's (may be fractional). */
  row: number;
  /** Spawner name, or null for a root. */
  parent: string | null;
}

/** A tree edge between names. */
export interface GraphEdge {
  /** Parent name. */
  from: string;
  /** Child name. */
  to: string;
}

/** Result of {@link layoutSpawnTree}. Sizes are px. */
export interface GraphLayout {
  /** Nodes in ascending name order (UTF-16 code unit order). */
  nodes: GraphNode[];
  /** Parent→child edges, in the children's name order. */
  edges: GraphEdge[];
  /** Nodes by name. */
  byName: Map<string, GraphNode>;
  /** `PADDING_X + maxDepth·COLUMN_WIDTH + LABEL_ALLOWANCE`, px. */
  width: number;
  /** `2·PADDING_Y + maxRow·ROW_HEIGHT`, px. */
  height: number;
}

/**
 * Lay out the spawn tree of `items` (see `buildSpawnTree`).
 *
 * 1. Children of a node are its children in ascending name order.
 * 2. Roots are ordered by rank (`human` last), then subtree size (self +
 *    descendants) descending, then `localeCompare` of names.
 * 3. Depth-first from each root: a leaf takes the next integer row (from 0);
 *    a parent takes `(min child row + max child row) / 2`.
 * 4. Depth is 0 for a root, else parent depth + 1.
 * 5. `x = 26 + depth·186`, `y = 22 + row·30` (px);
 *    `width = 26 + maxDepth·186 + 150`, `height = 44 + maxRow·30` (px, floor 0).
 *
 * @example
 * ```ts
 * import { layoutSpawnTree } from "@papercusp/chat-protocol/agents";
 * const spawn = (from: string, target: string, at: number) =>
 *   ({ msgId: `s${at}`, kind: "agent_spawned", from, text: "", at, meta: { target } });
 * const layout = layoutSpawnTree([spawn("root", "a", 1), spawn("root", "b", 2), spawn("a", "a1", 3)]);
 * layout.byName.get("root"); // { name: "root", depth: 0, row: 0.5, x: 26, y: 37, parent: null }
 * layout.width; // 548
 * layout.height; // 74
 * ```
 */
export function layoutSpawnTree(items: readonly BrokerEvent[]): GraphLayout {
  return layoutOf(validEvents(items).events);
}
