/**
 * Row builders shared by the agents tests: broker history rows and
 * `/api/sessions` entries with the defaults every test assumes.
 *
 * @module
 */
import type { BrokerEvent, BrokerSession } from "../../agents.ts";

/** One `/api/history` row; `msgId` defaults to `<kind>-<at>`. */
export const ev = (
  kind: string,
  from: string,
  at: number,
  meta: Record<string, string> = {},
  msgId = `${kind}-${at}`,
  text = "",
): BrokerEvent => ({ msgId, kind, from, text, at, meta });

/** An `agent_spawned` row with agent id `id`, spawner `from` and child `name` (meta.target). */
export const spawn = (
  id: string,
  from: string,
  name: string,
  at: number,
  meta: Record<string, string> = {},
  text = "",
): BrokerEvent => ev("agent_spawned", from, at, { target: name, ...meta }, id, text);

/** A live, working session registered at 500 in `/w`; `extra` overrides any field. */
export const session = (name: string, extra: Partial<BrokerSession> = {}): BrokerSession => ({
  name,
  workingOn: "",
  cwd: "/w",
  status: "working",
  idleMs: 0,
  registeredAt: 500,
  ...extra,
});
