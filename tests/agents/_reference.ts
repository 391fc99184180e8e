/**
 * Test oracles: deliberately naive, line-by-line transcriptions of spec
 * agents.md §6–7 (quadratic cycle walk, recursive placement), used to check
 * the linear-time library versions on random histories.
 *
 * @module
 */
import type { BrokerEvent } from "../../agents.ts";

const peer = (name: string) => name !== "" && !/[\s,*?]/.test(name);
const meta = (e: BrokerEvent, k: string): string | undefined =>
  Object.hasOwn(e.meta, k) ? e.meta[k] : undefined;

/** Spec §6 `buildSpawnTree`, with the cycle break as written: walk each chain in turn. */
export function naiveSpawnTree(items: readonly BrokerEvent[]): Map<string, string | null> {
  const parents = new Map<string, string | null>();
  const see = (n: string) => {
    if (peer(n) && !parents.has(n)) parents.set(n, null);
  };
  for (const item of items) {
    if (item.kind === "route_failed") continue;
    see(item.from);
    see(meta(item, "target") ?? "");
    for (const n of (meta(item, "audience") ?? "").split(",")) see(n.trim());
    if (item.kind === "agent_spawned") {
      const child = meta(item, "target") ?? meta(item, "name") ?? "";
      if (peer(child) && child !== item.from && peer(item.from)) parents.set(child, item.from);
    }
  }
  for (const [name, parent] of parents) {
    if (parent === null) continue;
    const seen = new Set([name]);
    let cur: string | null = parent;
    while (cur !== null) {
      if (seen.has(cur)) {
        parents.set(name, null);
        break;
      }
      seen.add(cur);
      cur = parents.get(cur) ?? null;
    }
  }
  return parents;
}

/** Spec §7 layout, recursively: name → {depth, row, x, y}, plus width/height. */
export function naiveLayout(items: readonly BrokerEvent[]) {
  const parents = naiveSpawnTree(items);
  const names = [...parents.keys()].sort();
  const children = new Map<string, string[]>();
  for (const n of names) {
    const p = parents.get(n) ?? null;
    if (p === null || !parents.has(p)) continue;
    children.set(p, [...(children.get(p) ?? []), n]);
  }
  const size = (n: string): number => 1 + (children.get(n) ?? []).reduce((t, c) => t + size(c), 0);
  const roots = names.filter((n) => parents.get(n) === null).sort((a, b) =>
    (a === "human" ? 1 : 0) - (b === "human" ? 1 : 0) || size(b) - size(a) || a.localeCompare(b)
  );
  const rows = new Map<string, number>();
  let next = 0;
  const place = (n: string): number => {
    const kids = children.get(n) ?? [];
    if (kids.length === 0) {
      rows.set(n, next);
      return next++;
    }
    const r = kids.map(place);
    const row = (Math.min(...r) + Math.max(...r)) / 2;
    rows.set(n, row);
    return row;
  };
  for (const r of roots) place(r);
  const depth = (n: string): number => {
    const p = parents.get(n) ?? null;
    return p === null || !parents.has(p) ? 0 : depth(p) + 1;
  };
  const nodes = names.map((name) => {
    const d = depth(name);
    const row = rows.get(name) ?? 0;
    return {
      name,
      depth: d,
      row,
      parent: parents.get(name) ?? null,
      x: 26 + d * 186,
      y: 22 + row * 30,
    };
  });
  const maxDepth = nodes.reduce((m, n) => Math.max(m, n.depth), 0);
  const maxRow = nodes.reduce((m, n) => Math.max(m, n.row), 0);
  const edges = nodes.filter((n) => n.parent !== null).map((n) => ({
    from: n.parent!,
    to: n.name,
  }));
  return { nodes, edges, width: 26 + maxDepth * 186 + 150, height: 44 + maxRow * 30, roots };
}
