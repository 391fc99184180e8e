/**
 * Paths, sparks and glow for the spawn-tree view (spec agents.md §8): a
 * message travels along tree edges up to the lowest common ancestor and back
 * down, drawn as a spark moving at constant speed; nodes glow after activity.
 * Pure: the caller passes the clock (`now`, epoch ms).
 *
 * @module
 */
import type { GraphLayout, Point } from "./layout.ts";
import { activityCategory } from "./spawn_tree.ts";
import { readFields, readItems } from "../_internal/fields.ts";
import type { ActivityCategory, NodeActivity } from "./types.ts";

/** How long a spark takes to travel its route, whatever its length, ms. */
export const SPARK_DURATION_MS = 1_100;

/** How long after an event a node keeps some glow, ms. */
export const GLOW_DURATION_MS = 6_000;

/** The node, then each ancestor, closest first; stops at a repeat (loop-safe). */
function ancestry(layout: GraphLayout, name: string): string[] {
  const line: string[] = [];
  const seen = new Set<string>();
  let cursor: string | null = name;
  while (cursor !== null && layout.byName.has(cursor) && !seen.has(cursor)) {
    line.push(cursor);
    seen.add(cursor);
    cursor = layout.byName.get(cursor)?.parent ?? null;
  }
  return line;
}

/**
 * Names a message travels through along tree edges from `from` to `to`: up
 * to the lowest common ancestor (inclusive), then down. `[]` when
 * `from === to` or either name is not in the layout; names in different
 * trees give the straight pair `[from, to]`. Linear in the two depths.
 *
 * @example
 * ```ts
 * import { layoutSpawnTree, treePath } from "@papercusp/chat-protocol/agents";
 * const spawn = (from: string, target: string, at: number) =>
 *   ({ msgId: `s${at}`, kind: "agent_spawned", from, text: "", at, meta: { target } });
 * const layout = layoutSpawnTree([spawn("root", "a", 1), spawn("root", "b", 2), spawn("a", "a1", 3)]);
 * treePath(layout, "a1", "b"); // ["a1", "a", "root", "b"]
 * treePath(layout, "root", "a"); // ["root", "a"]
 * ```
 */
export function treePath(layout: GraphLayout, from: string, to: string): string[] {
  try {
    return path(layout, from, to);
  } catch {
    return []; // a layout that cannot be read (a throwing getter, a revoked proxy) has no path
  }
}

function path(layout: GraphLayout, from: string, to: string): string[] {
  if (from === to || !(layout?.byName instanceof Map)) return [];
  if (!layout.byName.has(from) || !layout.byName.has(to)) return [];
  const fromLine = ancestry(layout, from);
  const toLine = ancestry(layout, to);
  const fromIndex = new Map<string, number>();
  fromLine.forEach((name, i) => fromIndex.set(name, i));
  const meetIndex = toLine.findIndex((name) => fromIndex.has(name));
  if (meetIndex === -1) return [from, to];
  const up = fromLine.slice(0, fromIndex.get(toLine[meetIndex])! + 1);
  const down = toLine.slice(0, meetIndex).reverse();
  return [...up, ...down];
}

/** The fields of a chat-feed entry that spark routing reads. `at` is epoch ms. */
export interface SparkSource {
  /** Message id (part of the spark id). */
  msgId: string;
  /** Event kind (gives the category). */
  kind: string;
  /** Sender name. */
  from: string;
  /** Event time, epoch ms. */
  at: number;
  /** Recipient names, in order. */
  recipients: readonly string[];
}

/** One recipient's route: the path nodes' points (px). */
export interface SparkRoute {
  /** Sender name. */
  from: string;
  /** Recipient name. */
  to: string;
  /** `activityCategory(kind)`. */
  category: ActivityCategory;
  /** Points of the path's nodes, px (`{0,0}` for a missing node). */
  points: Point[];
}

function pointOf(layout: GraphLayout, name: string): Point {
  try {
    return asPoint(layout.byName.get(name));
  } catch {
    return { x: 0, y: 0 }; // as for a missing node
  }
}

/**
 * One route per recipient, in order, whose {@link treePath} has more than
 * one name (unknown and self recipients are dropped).
 */
export function sparkRoutes(layout: GraphLayout, entry: SparkSource): SparkRoute[] {
  const routes: SparkRoute[] = [];
  const e = readFields(entry, ["kind", "from", "recipients"]);
  const recipients = readItems(e?.recipients);
  if (e === null || recipients === null) return routes;
  const category = activityCategory(e.kind as string);
  for (const to of recipients) {
    const path = treePath(layout, e.from as string, to as string);
    if (path.length <= 1) continue;
    routes.push({
      from: e.from as string,
      to: to as string,
      category,
      points: path.map((n) => pointOf(layout, n)),
    });
  }
  return routes;
}

/**
 * The point at fraction `t` of a polyline, by arc length (constant speed),
 * interpolating linearly within a segment. `t` is clamped to [0, 1] (`NaN`
 * or a non-number reads as 0); a missing point (a hole included), an
 * unreadable one or a non-finite coordinate reads as 0 (as `sparkRoutes`
 * does for a missing node), so the result is always finite and fresh. At
 * most the first 65,536 points are read. Never throws. `[]` → `{x:0, y:0}`;
 * one point → (a copy of) that point; zero total length → the first point. On `[(0,0),(10,0),(10,30)]`: t 0 → (0,0); 0.25 →
 * (10,0); 0.5 → (10,10); 1 → (10,30).
 */
export function pointAlongPolyline(points: readonly Point[], t: number): Point {
  const pts = pointsOf(points);
  if (pts.length === 0) return { x: 0, y: 0 };
  if (pts.length === 1) return pts[0];
  const lengths: number[] = [];
  let total = 0;
  for (let i = 1; i < pts.length; i++) {
    const length = Math.hypot(pts[i].x - pts[i - 1].x, pts[i].y - pts[i - 1].y);
    lengths.push(length);
    total += length;
  }
  if (total === 0 || !Number.isFinite(total)) return pts[0];
  const clamped = typeof t !== "number" || Number.isNaN(t) ? 0 : Math.min(1, Math.max(0, t));
  let travelled = clamped * total;
  for (let i = 0; i < lengths.length; i++) {
    const length = lengths[i];
    if (travelled <= length || i === lengths.length - 1) {
      const ratio = length === 0 ? 0 : Math.min(1, travelled / length);
      const a = pts[i];
      const b = pts[i + 1];
      return { x: a.x + (b.x - a.x) * ratio, y: a.y + (b.y - a.y) * ratio };
    }
    travelled -= length;
  }
  return pts[pts.length - 1];
}

/** Most points of a polyline read (an agents-graph route has a few dozen). */
const MAX_POLYLINE_POINTS = 65_536;

/**
 * Fresh points, read once each (holes, missing points and unreadable ones
 * read as (0, 0)); at most {@link MAX_POLYLINE_POINTS} (the rest is
 * ignored, so a huge sparse array cannot hang the caller). Never throws.
 */
function pointsOf(points: unknown): Point[] {
  let n = 0;
  try {
    if (!Array.isArray(points)) return [];
    n = Math.min(points.length, MAX_POLYLINE_POINTS);
    const out: Point[] = new Array(n);
    for (let i = 0; i < n; i++) out[i] = asPoint(points[i]);
    return out;
  } catch {
    return []; // a revoked proxy, a throwing length or index trap
  }
}

/** A point with finite coordinates: a missing, non-finite or unreadable one reads as 0 (as a missing node does). */
function asPoint(p: unknown): Point {
  const q = readFields(p, ["x", "y"]);
  const x = q?.x, y = q?.y;
  return {
    x: typeof x === "number" && Number.isFinite(x) ? x : 0,
    y: typeof y === "number" && Number.isFinite(y) ? y : 0,
  };
}

/** A route with an id and a start time (epoch ms). */
export interface Spark extends SparkRoute {
  /** `<msgId>:<to>:<route index>`. */
  id: string;
  /** When the spark started, epoch ms (the `now` it was made at). */
  startedAt: number;
}

/**
 * Sparks for the entries strictly newer than `since` (epoch ms), so a refetch
 * cannot replay the feed: their routes flattened, each with
 * `id = msgId:to:routeIndex` and `startedAt = now` (not the entry's time).
 * Never throws: a non-array `entries`, a non-number `since`, or an entry
 * without a number `at` and a string `msgId` gives no sparks for it.
 */
export function sparksSince(
  layout: GraphLayout,
  entries: readonly SparkSource[],
  since: number,
  now: number,
): Spark[] {
  const sparks: Spark[] = [];
  const items = readItems(entries);
  if (items === null || typeof since !== "number") return sparks;
  for (const item of items) {
    // Each field read once; only well-typed ones: an object `at`/`msgId` could throw on coercion.
    const entry = readFields(item, ["msgId", "kind", "from", "at", "recipients"]);
    const at = entry?.at, msgId = entry?.msgId;
    if (entry === null || typeof at !== "number" || !(at > since) || typeof msgId !== "string") {
      continue;
    }
    sparkRoutes(layout, entry as unknown as SparkSource).forEach((route, i) => {
      sparks.push({ ...route, id: `${msgId}:${route.to}:${i}`, startedAt: now });
    });
  }
  return sparks;
}

/**
 * The sparks still travelling at `now` (epoch ms): `now − startedAt < SPARK_DURATION_MS`.
 * A non-array `sparks` or a non-number `now` gives `[]`.
 */
export function liveSparks(sparks: readonly Spark[], now: number): Spark[] {
  const items = readItems(sparks);
  if (items === null || typeof now !== "number") return [];
  return items.filter((spark) => {
    const startedAt = readFields(spark, ["startedAt"])?.startedAt;
    return typeof startedAt === "number" && now - startedAt < SPARK_DURATION_MS;
  }) as Spark[];
}

/**
 * Glow of a node at `now` (epoch ms), in [0, 1]: 0 without activity; 1 for
 * activity in the future (negative age); else `max(0, 1 − age / 6000)` —
 * 1 at the event, 0.5 after 3 s, 0 from 6 s on. A `NaN` or non-number
 * time, or an activity at `+Infinity`, gives 0 (never `NaN`).
 */
export function glowStrength(activity: NodeActivity | undefined, now: number): number {
  const at = readFields(activity, ["at"])?.at;
  if (typeof at !== "number" || typeof now !== "number") return 0;
  const age = now - at;
  if (Number.isNaN(age) || at === Infinity) return 0; // no meaningful age
  if (age < 0) return 1;
  return Math.max(0, 1 - age / GLOW_DURATION_MS);
}
