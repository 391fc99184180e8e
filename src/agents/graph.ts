/**
 * Graph fold (spec agents.md §5): the spawn tree as nodes, plus `spawned` and
 * `message` edges with counts and last-at.
 *
 * @module
 */
import { metaOf, validEvents } from "./_rows.ts";
import { idClaimer } from "./_unique_ids.ts";
import { readFields, readItems } from "../_internal/fields.ts";
import { layoutOf } from "./_layout_fold.ts";
import { lifecycleOf } from "./_lifecycle_fold.ts";
import {
  agedOutFacts,
  countOutOfOrder,
  countUnknownKinds,
  limitOf,
  windowOf,
} from "./_fold_window.ts";
import { isPeerName, nodeActivityOf } from "./_spawn_forest.ts";
import type {
  AgentGraph,
  AgentGraphEdge,
  AgentGraphNode,
  AgentRosterEntry,
  BrokerEvent,
  SpawnRowStatus,
} from "./types.ts";

/** Input of {@link foldAgentGraph}. Times are epoch ms. */
export interface AgentGraphInput {
  /** `/api/history` `items`, oldest first (invalid rows are skipped and counted). */
  events: readonly BrokerEvent[];
  /** The `?limit=` the history was fetched with (read as in `RosterInput.historyLimit`). */
  historyLimit: number;
  /** Rows the broker returned when `events` was pre-filtered; defaults to `events.length`. */
  historyRows?: number;
  /** Current time, epoch ms (`generatedAt`). */
  now: number;
  /** Roster rows (e.g. `foldRoster(...).agents`) to join node ids by name. */
  roster?: readonly AgentRosterEntry[];
}

/** Directed sends; a broadcast has no single recipient, so it draws no edge. */
const MESSAGE_KINDS: ReadonlySet<string> = new Set([
  "message",
  "question",
  "answer",
  "notice",
  "approval_request",
]);

interface Tally {
  add(from: string, to: string, at: number): void;
  edges(): AgentGraphEdge[];
}

function tally(kind: AgentGraphEdge["kind"]): Tally {
  // from → to → edge (nested maps: no per-row key strings).
  const byFrom = new Map<string, Map<string, AgentGraphEdge>>();
  const all: AgentGraphEdge[] = [];
  return {
    add(from, to, at) {
      let byTo = byFrom.get(from);
      if (byTo === undefined) byFrom.set(from, byTo = new Map());
      const edge = byTo.get(to);
      if (edge === undefined) {
        const created: AgentGraphEdge = { kind, from, to, count: 1, lastAt: at };
        byTo.set(to, created);
        all.push(created);
      } else {
        edge.count += 1;
        if (at > edge.lastAt) edge.lastAt = at;
      }
    },
    edges() {
      const edges = all;
      // Same order as sorting by `from.localeCompare || to.localeCompare`, with
      // localeCompare run on the distinct names only (ranks; compare-equal
      // names share a rank), then a stable integer sort.
      const names = new Set<string>();
      for (const e of edges) {
        names.add(e.from);
        names.add(e.to);
      }
      const sorted = [...names].sort((a, b) => a.localeCompare(b));
      const rank = new Map<string, number>();
      let r = 0;
      for (let i = 0; i < sorted.length; i++) {
        if (i > 0 && sorted[i - 1].localeCompare(sorted[i]) !== 0) r++;
        rank.set(sorted[i], r);
      }
      return edges.sort((a, b) =>
        rank.get(a.from)! - rank.get(b.from)! || rank.get(a.to)! - rank.get(b.to)!
      );
    },
  };
}

/**
 * The roster row a node joins: the presence row, else the newest
 * incarnation's row, else the last other row with the name (e.g. the
 * `name:<name>` row of an agent whose spawn row aged out).
 */
function rosterIdsByName(
  roster: readonly RosterRef[],
  newestAgentId: (name: string) => string | undefined,
): Map<string, string> {
  const best = new Map<string, { id: string; rank: number }>();
  for (const entry of roster) {
    if (entry.id === null) continue;
    const rank = entry.stateSource === "presence"
      ? 2
      : entry.agentId !== null && entry.agentId === newestAgentId(entry.name)
      ? 1
      : 0;
    const current = best.get(entry.name);
    if (current === undefined || rank >= current.rank) best.set(entry.name, { id: entry.id, rank });
  }
  const ids = new Map<string, string>();
  for (const [name, { id }] of best) ids.set(name, id);
  return ids;
}

/** What the graph reads of a roster row. */
interface RosterRef {
  readonly name: string;
  /** `null` when not a non-empty string (the row then joins no node). */
  readonly id: string | null;
  readonly stateSource: unknown;
  readonly agentId: unknown;
  readonly spawnRow: unknown;
}

/** The roster rows with a string `name`, each field read once. */
function rosterEntriesOf(roster: unknown): RosterRef[] {
  const out: RosterRef[] = [];
  for (const entry of readItems(roster) ?? []) {
    const f = readFields(entry, ["name", "id", "stateSource", "agentId", "spawnRow"]);
    if (f === null || typeof f.name !== "string") continue;
    out.push({
      name: f.name,
      id: typeof f.id === "string" && f.id !== "" ? f.id : null,
      stateSource: f.stateSource,
      agentId: f.agentId,
      spawnRow: f.spawnRow,
    });
  }
  return out;
}

/**
 * Fold history rows into the spawn graph:
 *
 * 1. Nodes = {@link layoutSpawnTree} nodes sorted by depth then row (ties in
 *    name order): `{id, name, rosterId, parent, depth, row, activity, spawnRow}`.
 *    `id` = the roster id for the name (its presence row, else its newest
 *    incarnation's row, else its `name:<name>` row when it is known only
 *    from lifecycle rows whose spawn row aged out), else the newest spawn's
 *    agent id, else `name:<name>`, so a respawned name never takes its
 *    predecessor's id and an aged-out name keeps `name:<name>` with or
 *    without a roster. Node ids are unique: one already taken (e.g. a spawn
 *    row whose msgId is literally `name:x` beside a node `x`) gets
 *    `#<name>` appended — roster ids claim first, then agent ids.
 * 2. `spawned` edges: `agent_spawned` rows whose `(from, child)` pair is a
 *    final tree edge (a superseded parent's spawn is not counted; a repeated
 *    spawn row, same agent id, counts once).
 * 3. `message` edges: `message`, `question`, `answer`, `notice`,
 *    `approval_request` (not `broadcast`, not `resolution`) to a peer
 *    `meta.target` that differs from the sender, both names tree nodes, each
 *    `(msgId, recipient)` pair once (a multicast counts once per recipient).
 * 4. Each kind's edges sorted by `from` then `to` names (`localeCompare`),
 *    spawned first, then names mapped to node ids.
 *
 * Never throws on malformed rows: they are skipped and counted.
 *
 * @example
 * ```ts
 * import { foldAgentGraph } from "@papercusp/chat-protocol/agents";
 * const graph = foldAgentGraph({
 *   events: [
 *     { msgId: "a1", kind: "agent_spawned", from: "coord", text: "", at: 1, meta: { target: "w1" } },
 *     { msgId: "m1", kind: "message", from: "coord", text: "go", at: 2, meta: { target: "w1" } },
 *   ],
 *   historyLimit: 1000,
 *   now: 3,
 * });
 * graph.nodes.map((n) => n.id); // ["name:coord", "a1"]
 * graph.edges.map((e) => e.kind); // ["spawned", "message"]
 * ```
 */
export function foldAgentGraph(input: AgentGraphInput): AgentGraph {
  // Each input field is read once (an unreadable input reads as empty).
  const raw = readFields(input, ["events", "historyLimit", "historyRows", "now", "roster"]);
  const { events, malformed } = validEvents(raw?.events);
  const limit = limitOf(raw?.historyLimit);
  const now = typeof raw?.now === "number" && Number.isFinite(raw.now) ? raw.now : 0;
  const layout = layoutOf(events);
  const activity = nodeActivityOf(events);
  const lifecycle = lifecycleOf(events, malformed);
  const window = windowOf(raw?.events, limit, raw?.historyRows);
  const aged = agedOutFacts(lifecycle, window);
  const newestAgentId = (name: string) => lifecycle.newest.get(name)?.agentId;
  const roster = rosterEntriesOf(raw?.roster);
  const rosterIds = rosterIdsByName(roster, newestAgentId);
  const rosterAgedOut = new Set<string>();
  for (const entry of roster) {
    if (entry.spawnRow === "likely-aged-out") rosterAgedOut.add(entry.name);
  }

  // Ids unique per graph: roster ids claim first, then agent ids, then the
  // `name:<name>` fallbacks; an id already taken (a spawn row whose msgId is
  // literally `name:x` beside a node `x`) gets `#<name>` appended.
  const idOf = new Map<string, string>();
  const claimId = idClaimer();
  const claim = (name: string, id: string) => idOf.set(name, claimId(id, name));
  for (const node of layout.nodes) {
    const id = rosterIds.get(node.name);
    if (id) claim(node.name, id);
  }
  for (const node of layout.nodes) {
    if (idOf.has(node.name)) continue;
    // `||`: an empty agent id (a spawn row with msgId "") is no id.
    const id = newestAgentId(node.name);
    if (id) claim(node.name, id);
  }
  for (const node of layout.nodes) {
    if (!idOf.has(node.name)) claim(node.name, `name:${node.name}`);
  }
  const nodeId = (name: string) => idOf.get(name) ?? `name:${name}`;

  const agedOut: string[] = [];
  const nodes: AgentGraphNode[] = [...layout.nodes]
    .sort((a, b) => a.depth - b.depth || a.row - b.row)
    .map(({ name, parent, depth, row }) => {
      let spawnRow: SpawnRowStatus = "seen";
      if (!lifecycle.newest.has(name)) {
        spawnRow = aged.orphans.has(name) || rosterAgedOut.has(name) ? "likely-aged-out" : "absent";
      }
      if (spawnRow === "likely-aged-out" || aged.orphans.has(name)) agedOut.push(name);
      return {
        id: nodeId(name),
        name,
        rosterId: rosterIds.get(name) ?? null,
        parent,
        depth,
        row,
        activity: activity.get(name) ?? null,
        spawnRow,
      };
    });

  const spawned = tally("spawned");
  const messages = tally("message");
  // msgId → recipients already tallied (a string for one, a Set beyond).
  const seen = new Map<string, string | Set<string>>();
  // Spawn rows already tallied, by agent id: a repeated spawn row is the same spawn.
  const spawnIds = new Set<string>();
  for (const event of events) {
    if (event.kind === "agent_spawned") {
      const child = metaOf(event, "target") ?? metaOf(event, "name") ?? "";
      // (from, child) is a final tree edge iff child's parent in the layout is `from`.
      const node = layout.byName.get(child);
      if (node !== undefined && node.parent === event.from && !spawnIds.has(event.msgId)) {
        spawnIds.add(event.msgId);
        spawned.add(event.from, child, event.at);
      }
      continue;
    }
    if (!MESSAGE_KINDS.has(event.kind)) continue;
    const to = metaOf(event, "target") ?? "";
    if (to === event.from || !layout.byName.has(to) || !layout.byName.has(event.from)) continue;
    if (!isPeerName(to)) continue;
    const prior = seen.get(event.msgId);
    if (prior === undefined) seen.set(event.msgId, to);
    else if (typeof prior === "string") {
      if (prior === to) continue;
      seen.set(event.msgId, new Set([prior, to]));
    } else {
      if (prior.has(to)) continue;
      prior.add(to);
    }
    messages.add(event.from, to, event.at);
  }
  const edges = [...spawned.edges(), ...messages.edges()].map((edge) => ({
    ...edge,
    from: nodeId(edge.from),
    to: nodeId(edge.to),
  }));

  return {
    nodes,
    edges,
    history: window,
    generatedAt: now,
    diagnostics: {
      malformedEvents: malformed,
      malformedSessions: 0,
      unknownKinds: countUnknownKinds(events),
      outOfOrderRows: countOutOfOrder(events),
      historyFull: aged.full,
      spawnRowsLikelyAgedOut: [...new Set(agedOut)].sort(),
    },
  };
}
