/**
 * The window facts the agents folds share (`foldAgentRoster`,
 * `foldAgentGraph`): the window a fold saw, the `historyLimit` it reports,
 * which spawn rows likely aged out, and counts of unknown and out-of-order
 * rows. Private to the agents area.
 *
 * @module
 */
import type { AgentLifecycleFold } from "./lifecycle.ts";
import { historyWindowOf } from "./roster.ts";
import { type BrokerEvent, EVENT_KINDS, type HistoryWindow } from "./types.ts";

const KNOWN_KINDS: ReadonlySet<string> = new Set(EVENT_KINDS);

/**
 * Window facts shared by both folds: is the window full, and which names'
 * spawn rows likely aged out of it.
 */
export interface AgedOutFacts {
  /** `events ≥ min(limit, 1000)`. */
  full: boolean;
  /** Names with lifecycle rows but no spawn row before them, when the window is full (else empty). */
  orphans: ReadonlySet<string>;
}

/** The window, with `events` raised to `historyRows` when the caller pre-filtered rows. */
export function windowOf(
  events: unknown,
  limit: number,
  historyRows: unknown,
): HistoryWindow {
  const window = historyWindowOf(events as readonly BrokerEvent[], limit);
  if (
    typeof historyRows === "number" && Number.isInteger(historyRows) && historyRows > window.events
  ) {
    window.events = historyRows;
  }
  return window;
}

/** The broker's `MAX_HISTORY_LIMIT`: `/api/history` never returns more rows. */
const MAX_HISTORY_LIMIT = 1000;

/**
 * The `historyLimit` a fold reports: a finite number ≥ 1 rounded
 * down (as the broker's `parseInt` would; at most `MAX_SAFE_INTEGER`), else
 * 1000; always a positive safe integer, as {@link HistoryWindow} requires.
 */
export function limitOf(historyLimit: unknown): number {
  return typeof historyLimit === "number" && Number.isFinite(historyLimit) && historyLimit >= 1
    ? Math.min(Math.floor(historyLimit), Number.MAX_SAFE_INTEGER)
    : MAX_HISTORY_LIMIT;
}

/** Is the window full, and which names' spawn rows likely aged out of it. */
export function agedOutFacts(
  fold: AgentLifecycleFold,
  window: HistoryWindow,
): AgedOutFacts {
  // The broker caps `?limit=` at 1,000: 1,000 rows fill the window whatever was asked.
  const full = window.events >= Math.min(window.limit, MAX_HISTORY_LIMIT);
  return { full, orphans: full ? fold.orphanNames : new Set() };
}

/** Count rows whose kind is not a known broker kind. */
export function countUnknownKinds(events: readonly BrokerEvent[]): number {
  let unknown = 0;
  for (const e of events) if (!KNOWN_KINDS.has(e.kind)) unknown++;
  return unknown;
}

/** Count rows whose `at` is earlier than the previous row's (input not oldest first). */
export function countOutOfOrder(events: readonly BrokerEvent[]): number {
  let count = 0;
  for (let i = 1; i < events.length; i++) if (events[i].at < events[i - 1].at) count++;
  return count;
}
