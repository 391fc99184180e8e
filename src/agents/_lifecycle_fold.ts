/**
 * The lifecycle fold over rows already checked with `validEvents` (the
 * roster and graph folds check once and share the rows). Public form:
 * `foldAgentLifecycle` in `lifecycle.ts`.
 *
 * @module
 */
import { metaOf } from "./_rows.ts";
import type {
  AgentLifecycle,
  AgentLifecycleFold,
  AgentOrphanRecord,
  AgentRecord,
} from "./lifecycle.ts";
import type { BrokerEvent } from "./types.ts";

type Transition = Exclude<AgentLifecycle, "spawning">;

const TRANSITIONS: ReadonlyMap<string, Transition> = new Map<string, Transition>([
  ["agent_attached", "live"],
  ["agent_resumed", "live"],
  ["agent_detached", "detached"],
  ["agent_exited", "exited"],
  ["agent_retired", "retired"],
]);

/** `/api/history` drops `ref`, so later rows join on the name; retire/resume name it in `target`. */
function subjectOf(event: BrokerEvent): string {
  return event.kind === "agent_retired" || event.kind === "agent_resumed"
    ? (metaOf(event, "target") ?? event.from)
    : event.from;
}

/** `foldAgentLifecycle` over rows already checked with `validEvents`; `malformed` is passed through. */
export function lifecycleOf(events: readonly BrokerEvent[], malformed: number): AgentLifecycleFold {
  const records = new Map<string, AgentRecord>();
  const newest = new Map<string, AgentRecord>();
  const orphans = new Map<string, AgentOrphanRecord>();
  // Lifecycle rows already applied, by content (kind, msgId, actor, time, target).
  const applied = new Set<string>();
  for (const event of events) {
    if (event.kind === "agent_spawned") {
      const name = metaOf(event, "target") ?? metaOf(event, "name") ?? "";
      if (name === "" || records.has(event.msgId)) continue;
      const record: AgentRecord = {
        name,
        agentId: event.msgId,
        spawnedBy: event.from,
        spawnedAt: event.at,
        adopted: metaOf(event, "origin") === "adopted",
        meta: event.meta,
        brief: event.text,
        lifecycle: "spawning",
        lastEventAt: event.at,
        exitCostUsd: null,
        supersededBy: null,
      };
      const previous = newest.get(name);
      if (previous !== undefined) previous.supersededBy = record.agentId;
      else {
        const orphan = orphans.get(name);
        if (orphan !== undefined && orphan.firstEventAt > event.at) {
          // Rows out of time order: the "orphan" rows happened after this
          // spawn, so they are this incarnation's, not an aged-out one's.
          record.lifecycle = orphan.lifecycle;
          record.exitCostUsd = orphan.exitCostUsd;
          if (orphan.lastEventAt > record.lastEventAt) record.lastEventAt = orphan.lastEventAt;
          orphans.delete(name);
        } else if (orphan !== undefined) orphan.supersededBy = record.agentId;
      }
      records.set(record.agentId, record);
      newest.set(name, record);
      continue;
    }
    const subject = subjectOf(event);
    const transition = TRANSITIONS.get(event.kind);
    if (transition !== undefined) {
      // The same lifecycle row twice (a client concatenating overlapping
      // windows) is one row: applied again after a respawn it would end the
      // newest incarnation with its predecessor's exit.
      const key = `${event.kind}\u0000${event.msgId}\u0000${event.from}\u0000${event.at}\u0000${
        metaOf(event, "target") ?? ""
      }`;
      if (applied.has(key)) continue;
      applied.add(key);
    }
    let record: AgentRecord | AgentOrphanRecord | undefined = newest.get(subject);
    if (record === undefined) {
      // No spawn row of the subject so far: its spawn row is outside the window.
      record = orphans.get(subject);
      if (record === undefined) {
        if (transition === undefined || subject === "") continue;
        // A retire/resume row names its agent in `target` (its actor is who
        // did it): without one it names no agent, so it opens no record.
        if (
          (event.kind === "agent_retired" || event.kind === "agent_resumed") &&
          metaOf(event, "target") === undefined
        ) continue;
        record = {
          name: subject,
          lifecycle: transition,
          firstEventAt: event.at,
          lastEventAt: event.at,
          exitCostUsd: null,
          supersededBy: null,
        };
        orphans.set(subject, record);
      }
    }
    if (event.at > record.lastEventAt) record.lastEventAt = event.at;
    if (transition === undefined || record.lifecycle === "retired") continue;
    if (transition === "exited") {
      record.lifecycle = metaOf(event, "failed") === "true" ? "failed" : "exited";
      const raw = metaOf(event, "cost_usd");
      const cost = Number(raw);
      if (raw !== undefined && Number.isFinite(cost)) record.exitCostUsd = cost;
    } else {
      record.lifecycle = transition;
    }
  }
  return { records, newest, orphanNames: new Set(orphans.keys()), orphans, malformed };
}
