/**
 * The spawn forest and per-name activity over rows already checked with
 * `validEvents` (the folds check once and share the rows). Public forms:
 * `spawn_tree.ts`.
 *
 * @module
 */
import { metaOf } from "./_rows.ts";
import type { ActivityCategory, BrokerEvent, NodeActivity } from "./types.ts";

const NOT_PEER = /[\s,*?]/;

/**
 * True for a resolved peer name: non-empty, no whitespace, `,`, `*` or `?`
 * (a `route_failed` target is what the sender typed, e.g. `*` or `a, b`).
 */
export function isPeerName(name: string): boolean {
  return typeof name === "string" && name !== "" && !NOT_PEER.test(name);
}

/**
 * Glow category of an event kind: `message`/`broadcast` → `message`;
 * `question`/`approval_request` → `question`; `notice`/`answer`/`resolution`
 * → `notice`; anything else (lifecycle rows, unknown kinds) → `thinking`.
 */
export function activityCategory(kind: string): ActivityCategory {
  switch (kind) {
    case "message":
    case "broadcast":
      return "message";
    case "question":
    case "approval_request":
      return "question";
    case "notice":
    case "answer":
    case "resolution":
      return "notice";
    default:
      return "thinking";
  }
}

/** `nodeActivity` over rows already checked with `validEvents`. */
export function nodeActivityOf(items: readonly BrokerEvent[]): Map<string, NodeActivity> {
  const latest = new Map<string, NodeActivity>();
  const touch = (name: string | undefined, category: ActivityCategory, at: number) => {
    if (name === undefined || !isPeerName(name)) return;
    const current = latest.get(name);
    if (current === undefined || at >= current.at) latest.set(name, { category, at });
  };
  for (const item of items) {
    if (item.kind === "route_failed") continue;
    const category = activityCategory(item.kind);
    touch(item.from, category, item.at);
    touch(metaOf(item, "target"), category, item.at);
  }
  return latest;
}

/**
 * The spawn forest in index form: `names` in first-seen (map
 * insertion) order and `parent[i]` = index of the spawner, or -1 for a root.
 */
export interface SpawnForest {
  /** Names in insertion order. */
  names: string[];
  /** Parent index per name, -1 for a root. */
  parent: Int32Array;
  /** Name → index. */
  index: Map<string, number>;
}

/** `buildSpawnTree` over rows already checked with `validEvents`. */
export function spawnTreeOf(items: readonly BrokerEvent[]): Map<string, string | null> {
  const { names, parent } = spawnForestOf(items);
  const parents = new Map<string, string | null>();
  for (let i = 0; i < names.length; i++) {
    parents.set(names[i], parent[i] === -1 ? null : names[parent[i]]);
  }
  return parents;
}

/** The spawn forest of already-checked rows, cycles broken. Linear time. */
export function spawnForestOf(items: readonly BrokerEvent[]): SpawnForest {
  const index = new Map<string, number>();
  const names: string[] = [];
  // Parent index per name, grown by doubling (off-heap: no GC copying).
  let parents = new Int32Array(Math.max(16, Math.min(items.length * 2, 1 << 20)));
  /** Index of `name`, registering it (if a peer name) on first sight; -1 for a non-peer. */
  const see = (name: string | undefined): number => {
    if (name === undefined) return -1;
    const known = index.get(name);
    if (known !== undefined) return known;
    if (!isPeerName(name)) return -1;
    const i = names.length;
    index.set(name, i);
    names.push(name);
    if (i === parents.length) {
      const grown = new Int32Array(parents.length * 2);
      grown.set(parents);
      parents = grown;
    }
    parents[i] = -1;
    return i;
  };
  for (const item of items) {
    if (item.kind === "route_failed") continue;
    const fromIndex = see(item.from);
    const target = metaOf(item, "target");
    const targetIndex = see(target);
    const audience = metaOf(item, "audience");
    if (audience !== undefined) { for (const name of audience.split(",")) see(name.trim()); }
    if (item.kind !== "agent_spawned" || fromIndex === -1) continue;
    const child = target ?? metaOf(item, "name") ?? "";
    if (child === item.from) continue;
    // A `meta.name`-only child is registered here, as titan's Map.set would.
    const childIndex = target !== undefined ? targetIndex : see(child);
    if (childIndex === -1) continue; // not a peer name
    parents[childIndex] = fromIndex; // last spawn wins
  }
  const parent = parents.slice(0, names.length);
  breakCycles(parent);
  return { names, parent, index };
}

/**
 * Linear-time equivalent of: for each name in insertion order, if its current
 * parent chain revisits a name, make it a root. Names on a chain that ends at
 * a root are never touched. For a name in a component that ends in a cycle,
 * with `t` = insertion index: a cycle member becomes a root iff it is the
 * cycle's first-inserted member; a name hanging off the cycle becomes a root
 * iff it was inserted before every name its parent can reach (tail + cycle),
 * because then no name below it was cut before its turn and the cycle was
 * still whole. Mutates `parent` (indices in insertion order, -1 = root).
 */
function breakCycles(parent: Int32Array): void {
  const n = parent.length;
  // state: 0 unvisited, 1 on the current walk, 2 done.
  const state = new Uint8Array(n);
  // cycleMin[i]: for a cycle member, the smallest index on its cycle; else -1.
  const cycleMin = new Int32Array(n).fill(-1);
  // reachMin[i]: smallest index reachable from i (inclusive) if i's component ends in a cycle; else -1.
  const reachMin = new Int32Array(n).fill(-1);
  const path: number[] = [];
  for (let start = 0; start < n; start++) {
    if (state[start] !== 0) continue;
    path.length = 0;
    let cur = start;
    while (cur !== -1 && state[cur] === 0) {
      state[cur] = 1;
      path.push(cur);
      cur = parent[cur];
    }
    let stop = path.length; // path[0..stop) are tail nodes still to resolve
    if (cur !== -1 && state[cur] === 1) {
      // A new cycle: path from `cur` to the end.
      const from = path.indexOf(cur);
      let min = n;
      for (let k = from; k < path.length; k++) if (path[k] < min) min = path[k];
      for (let k = from; k < path.length; k++) {
        cycleMin[path[k]] = min;
        reachMin[path[k]] = min;
      }
      stop = from;
    }
    // Resolve tail nodes from the end of the walk back to its start.
    for (let k = stop - 1; k >= 0; k--) {
      const i = path[k];
      const up = parent[i];
      if (up !== -1 && reachMin[up] !== -1) reachMin[i] = Math.min(i, reachMin[up]);
    }
    for (const i of path) state[i] = 2;
  }
  // Each decision reads only the name's own (original) parent and reachMin,
  // which cutting other names does not change, so cut in place.
  for (let i = 0; i < n; i++) {
    if (reachMin[i] === -1) continue; // chain ends at a root
    if (cycleMin[i] !== -1 ? cycleMin[i] === i : i < reachMin[parent[i]]) parent[i] = -1;
  }
}
