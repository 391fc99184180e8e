/**
 * The terminal test of the stream helpers.
 *
 * @module
 */
import type { ChatEventEnvelope } from "../v1/types.ts";

/** Whether `env`'s event ends the turn: `done`, `error` or `turn_status: cancelled`. */
export function isTerminalEnvelope(env: ChatEventEnvelope): boolean {
  const e = env.event;
  return e.type === "done" || e.type === "error" ||
    (e.type === "turn_status" && e.status === "cancelled");
}
