/**
 * Lifecycle fold over `/api/history` rows: one record per spawn row, keyed by
 * the spawn row's **agent id** (its `msgId`), so a respawn of a name keeps the
 * earlier incarnation's state, cost and session (titan keyed by name and lost
 * them; spec agents.md §3 lists that as the titan behaviour we fix).
 *
 * @module
 */
import { lifecycleOf } from "./_lifecycle_fold.ts";
import { validEvents } from "./_rows.ts";
import type { BrokerEvent } from "./types.ts";

/** Lifecycle of one spawn (incarnation) as the log tells it. */
export type AgentLifecycle = "spawning" | "live" | "detached" | "exited" | "failed" | "retired";

/** What the log says about one spawn of a name: its spawn row and the rows after it. */
export interface AgentRecord {
  /** Spawned name (`meta.target ?? meta.name`). */
  name: string;
  /** Durable agent id: the spawn row's `msgId`. */
  agentId: string;
  /** Spawner (`human` for an adopted session). */
  spawnedBy: string;
  /** Spawn row time, epoch ms. */
  spawnedAt: number;
  /** `meta.origin === 'adopted'`. */
  adopted: boolean;
  /**
   * The spawn row's meta object itself (shared, not copied; read it with
   * own-property checks — the folds do — and treat it as read-only).
   */
  meta: Record<string, string>;
  /** The spawn row's body (the brief). */
  brief: string;
  /** Current lifecycle; `retired` is final. */
  lifecycle: AgentLifecycle;
  /** Newest row about this incarnation (spawn, lifecycle or talk), epoch ms. */
  lastEventAt: number;
  /** `meta.cost_usd` of the exit row (US dollars) when finite, else null. */
  exitCostUsd: number | null;
  /** Agent id of the spawn that replaced this one under the same name, else null. */
  supersededBy: string | null;
}

/**
 * What the window says about a name whose spawn row is not in it (extension
 * over titan, which drops these rows): the lifecycle rows naming it before
 * any spawn row of that name, folded by the same transition rules. There is
 * no agent id (it was the spawn row's `msgId`), so it is keyed by name.
 */
export interface AgentOrphanRecord {
  /**
   * The name the lifecycle rows name: `from`, or `meta.target` for
   * retire/resume (a retire/resume row without a target opens no record).
   */
  name: string;
  /**
   * Lifecycle from those rows (`retired` is final; exited/failed as for
   * {@link AgentRecord}). Never `spawning`: there is no spawn row.
   */
  lifecycle: Exclude<AgentLifecycle, "spawning">;
  /** Time of the first lifecycle row naming it, epoch ms. */
  firstEventAt: number;
  /** Newest row about it (lifecycle or talk, from the first lifecycle row on), epoch ms. */
  lastEventAt: number;
  /** `meta.cost_usd` of its exit row (US dollars) when finite, else null. */
  exitCostUsd: number | null;
  /** Agent id of the first spawn of this name later in the window, else null. */
  supersededBy: string | null;
}

/** Result of {@link foldAgentLifecycle}: the records plus what could not be joined. */
export interface AgentLifecycleFold {
  /** Records keyed by agent id, in spawn-row order. */
  records: Map<string, AgentRecord>;
  /** Newest incarnation per name (the one later rows join to). */
  newest: Map<string, AgentRecord>;
  /**
   * Names named by a lifecycle row (attached/detached/exited/resumed/retired)
   * before any spawn row of that name in the window: their spawn row is
   * outside the window (or, when the window is not full, was never logged).
   * Same keys as `orphans` (a copy of them, in the same order).
   */
  orphanNames: Set<string>;
  /**
   * What those rows say, per name (insertion order = first lifecycle row):
   * rows before a spawn row of the name fold into its orphan record; from
   * that spawn row on, rows join the spawned record and the orphan gets
   * `supersededBy`.
   */
  orphans: Map<string, AgentOrphanRecord>;
  /** Rows skipped because they were not valid {@link BrokerEvent}s. */
  malformed: number;
}

/**
 * Walk the rows in the given order (the broker returns oldest first):
 *
 * 1. `agent_spawned` with a non-empty name (`meta.target ?? meta.name`) and an
 *    agent id not seen before opens a record (`spawning`); the name's previous
 *    incarnation, if any, is kept and gets `supersededBy`. A second spawn row
 *    with an already-seen agent id is ignored (as the broker's own fold does).
 * 2. Any other row joins the newest incarnation of its subject (`meta.target
 *    ?? from` for `agent_retired`/`agent_resumed`, else `from`) and bumps its
 *    `lastEventAt` (also when retired).
 * 3. Transitions: attached/resumed → `live`, detached → `detached`, exited →
 *    `exited` (`failed` when `meta.failed === 'true'`; a finite
 *    `Number(meta.cost_usd)` becomes `exitCostUsd`), retired → `retired`,
 *    which is final.
 * 4. A lifecycle row identical to one already applied (same kind, msgId,
 *    actor, time and target: overlapping windows concatenated) is skipped,
 *    as a repeated spawn row is.
 * 5. A lifecycle row whose subject has no spawn row yet (its spawn row aged
 *    out of the window) opens or updates that name's {@link AgentOrphanRecord}
 *    with the same transitions; later rows of any kind from the subject bump
 *    its `lastEventAt` until a spawn row of the name supersedes it. A
 *    retire/resume row without `meta.target` opens none (its `from` is who
 *    retired, not the agent). A spawn row older than the orphan's first row
 *    (rows out of time order) takes the orphan's state, cost and time instead
 *    of superseding it: those rows came after the spawn.
 *
 * Malformed rows are skipped and counted. Linear time.
 */
export function foldAgentLifecycle(events: readonly BrokerEvent[]): AgentLifecycleFold {
  const valid = validEvents(events);
  return lifecycleOf(valid.events, valid.malformed);
}

/**
 * One {@link AgentRecord} per spawn row, keyed by agent id (the spawn row's
 * `msgId`), in spawn order. See {@link foldAgentLifecycle} for the rules and
 * for the extra outputs (newest incarnation per name, orphan names).
 *
 * @example
 * ```ts
 * import { foldAgentRecords } from "@papercusp/chat-protocol/agents";
 * const records = foldAgentRecords([
 *   { msgId: "a1", kind: "agent_spawned", from: "coord", text: "", at: 1000, meta: { target: "w1" } },
 *   { msgId: "e1", kind: "agent_exited", from: "w1", text: "", at: 2000, meta: { cost_usd: "1.25" } },
 *   { msgId: "a2", kind: "agent_spawned", from: "coord", text: "", at: 3000, meta: { target: "w1" } },
 * ]);
 * records.get("a1")?.exitCostUsd; // 1.25 (kept across the respawn)
 * records.get("a1")?.supersededBy; // "a2"
 * ```
 */
export function foldAgentRecords(events: readonly BrokerEvent[]): Map<string, AgentRecord> {
  return foldAgentLifecycle(events).records;
}
