/**
 * The broker's spawn tree read off its event log, plus per-name activity.
 * An `agent_spawned` row puts the spawner in `from` and the spawned name in
 * `meta.target` (or `meta.name`): that is real parentage. Pure, linear time.
 * Rules: spec agents.md §6 (titan `spawn-tree.ts`).
 *
 * @module
 */
import { validEvents } from "./_rows.ts";
import { nodeActivityOf, spawnTreeOf } from "./_spawn_forest.ts";
import type { BrokerEvent, NodeActivity } from "./types.ts";

export { activityCategory, isPeerName } from "./_spawn_forest.ts";

/** The human operator's name on the broker; its queue node sorts last among roots. */
export const HUMAN = "human";

/**
 * Newest activity per peer name, sender and recipient (`meta.target`) alike.
 * Skips `route_failed` rows and malformed rows. A touch replaces the stored
 * value when its `at` (epoch ms) is ≥ the stored one, so the newest wins
 * whatever the row order and ties go to the later row.
 */
export function nodeActivity(items: readonly BrokerEvent[]): Map<string, NodeActivity> {
  return nodeActivityOf(validEvents(items).events);
}

/**
 * Every peer name the log knows, mapped to its spawner (null for a root), in
 * first-seen order. Skips `route_failed` rows. Each row registers `from`,
 * `meta.target` and each comma-separated name of `meta.audience` (peer names
 * only); an `agent_spawned` row sets parent(child) := spawner, the last spawn
 * winning. Finally any name whose parent chain revisits a name is made a root,
 * names taken in insertion order (for `x→y`, `y→x`, the first-inserted `x`
 * becomes the root) — computed in linear time, with the same result as
 * walking each chain in turn.
 *
 * @example
 * ```ts
 * import { buildSpawnTree } from "@papercusp/chat-protocol/agents";
 * const tree = buildSpawnTree([
 *   { msgId: "a1", kind: "agent_spawned", from: "coord", text: "", at: 1, meta: { target: "w1" } },
 * ]);
 * // Map { "coord" => null, "w1" => "coord" }
 * ```
 */
export function buildSpawnTree(items: readonly BrokerEvent[]): Map<string, string | null> {
  return spawnTreeOf(validEvents(items).events);
}
