/**
 * The normalized turn lifecycle: legal transitions between
 * {@link TurnStatus}es and how each v1 event moves the status.
 *
 * @module
 */
import type { CardResolution, ChatEventV1, TurnStatus } from "./types.ts";

/** Every {@link TurnStatus}, in declaration order. */
export const TURN_STATUSES: readonly TurnStatus[] = Object.freeze(
  [
    "running",
    "awaiting-input",
    "completed",
    "failed",
    "cancelled",
    "interrupted",
    "needs-reconciliation",
  ] as const,
);

/** The terminal statuses: no exits, every later event is refused. */
export const TERMINAL_TURN_STATUSES: readonly TurnStatus[] = Object.freeze(
  [
    "completed",
    "failed",
    "cancelled",
  ] as const,
);

/**
 * The legal transitions (`from` → allowed `to`). Staying in the same status is
 * not a transition (see {@link nextTurnStatus}).
 *
 * | from | to |
 * |---|---|
 * | running | awaiting-input, completed, failed, cancelled, interrupted, needs-reconciliation |
 * | awaiting-input | running, failed, cancelled, interrupted, needs-reconciliation |
 * | interrupted | running, awaiting-input, failed, cancelled |
 * | needs-reconciliation | running, awaiting-input, failed, cancelled, interrupted |
 * | completed | — (terminal) |
 * | failed | — (terminal) |
 * | cancelled | — (terminal) |
 *
 * What a terminal status means for the turn's cards and tool calls (the
 * fold applies it with the event that ends the turn): a finished turn has
 * nothing open.
 * - Every tool call still running when the turn ends (`done`, `error`,
 *   `turn_status: cancelled`) is marked `unfinished`: it never got its
 *   result, and none will be accepted.
 * - `completed`: no card can be open (see below).
 * - `failed` and `cancelled`: every card still open closes with the turn,
 *   with the resolution {@link TURN_END_CARD_RESOLUTION} gives
 *   (`interrupted` / `cancelled`).
 *
 * Nothing is left for a later event to close: every event after a terminal
 * status is refused (`illegal-transition`), a late `card_closed` or
 * `tool_result` too.
 *
 * Notes: `awaiting-input → completed` is absent on purpose (a turn does not
 * complete with a card still open: close it first, or cancel/fail the turn).
 * `interrupted` / `needs-reconciliation` → `awaiting-input` happens when the
 * turn resumes (`turn_status: running`) while cards are still open.
 * `interrupted → needs-reconciliation` is absent: a recovered turn resumes
 * (`running`) first and then reports what needs reconciling.
 */
export const TURN_TRANSITIONS: Readonly<Record<TurnStatus, readonly TurnStatus[]>> = Object.freeze({
  "running": Object.freeze(
    [
      "awaiting-input",
      "completed",
      "failed",
      "cancelled",
      "interrupted",
      "needs-reconciliation",
    ] as const,
  ),
  "awaiting-input": Object.freeze(
    ["running", "failed", "cancelled", "interrupted", "needs-reconciliation"] as const,
  ),
  "completed": Object.freeze([] as const),
  "failed": Object.freeze([] as const),
  "cancelled": Object.freeze([] as const),
  "interrupted": Object.freeze(["running", "awaiting-input", "failed", "cancelled"] as const),
  "needs-reconciliation": Object.freeze(
    ["running", "awaiting-input", "failed", "cancelled", "interrupted"] as const,
  ),
});

/**
 * The resolution of a card still open when its turn ends: `interrupted` when
 * the turn failed (`error`), `cancelled` when it was cancelled. (A turn
 * cannot complete with a card open.)
 */
export const TURN_END_CARD_RESOLUTION: Readonly<
  { failed: CardResolution; cancelled: CardResolution }
> = Object.freeze({ failed: "interrupted", cancelled: "cancelled" });

const STATUS_SET: ReadonlySet<string> = new Set(TURN_STATUSES);
const TERMINAL_SET: ReadonlySet<string> = new Set(TERMINAL_TURN_STATUSES);

/** `true` iff `s` is one of the seven {@link TurnStatus} strings. */
export function isTurnStatus(s: unknown): s is TurnStatus {
  return typeof s === "string" && STATUS_SET.has(s);
}

/** `true` iff `status` is terminal (`completed`, `failed`, `cancelled`). */
export function isTerminalTurnStatus(status: TurnStatus): boolean {
  return TERMINAL_SET.has(status);
}

/**
 * `true` iff {@link TURN_TRANSITIONS} allows `from → to`. Unknown statuses
 * (at runtime) and self-transitions are `false`.
 *
 * @example
 * ```ts
 * import { canTransition } from "@papercusp/chat-protocol";
 * canTransition("running", "awaiting-input"); // true
 * canTransition("completed", "running"); // false: terminal
 * ```
 */
export function canTransition(from: TurnStatus, to: TurnStatus): boolean {
  if (!isTurnStatus(from) || !isTurnStatus(to)) return false;
  return (TURN_TRANSITIONS[from] as readonly string[]).includes(to);
}

/**
 * The status after applying `event` in status `current` with `openCards`
 * cards open **after** the event's own effect on cards, or `null` when the
 * event is illegal there (`illegal-transition`).
 *
 * - Any event in a terminal status → `null`.
 * - In `interrupted` / `needs-reconciliation` only `turn_status` (to a legal
 *   target or the same status) and `error` (→ `failed`) are accepted; content
 *   events (delta, tool_*, card*, state, done, navigate, …) → `null`.
 * - `card` → `awaiting-input`.
 * - `card_closed` of the last open card → `running` (from `awaiting-input`).
 * - `done` → `completed` (only from `running`).
 * - `error` → `failed`.
 * (Entering a terminal status, the fold marks running tool calls
 * `unfinished` and, for `failed` / `cancelled`, closes the open cards: see
 * {@link TURN_TRANSITIONS}.)
 * - `turn_status` → its status; `running` with cards still open →
 *   `awaiting-input`. A target equal to the current status is an accepted no-op.
 * - Any other event keeps the status (also while `awaiting-input`).
 *
 * Never throws: an `event` whose `type` or `status` cannot be read (a
 * throwing getter, a revoked proxy) is illegal (`null`). `current` must be a
 * {@link TurnStatus}: an unknown one never transitions (an event that keeps
 * the status keeps it as given).
 */
export function nextTurnStatus(
  current: TurnStatus,
  event: ChatEventV1,
  openCards: number,
): TurnStatus | null {
  try {
    return step(current, event, openCards);
  } catch {
    return null; // an unreadable event is not a legal one
  }
}

function step(current: TurnStatus, event: ChatEventV1, openCards: number): TurnStatus | null {
  if (isTerminalTurnStatus(current)) return null;
  const paused = current === "interrupted" || current === "needs-reconciliation";
  let target: TurnStatus;
  switch (event.type) {
    case "turn_status":
      target = event.status === "running" && openCards > 0 ? "awaiting-input" : event.status;
      break;
    case "error":
      target = "failed";
      break;
    default:
      if (paused) return null;
      switch (event.type) {
        case "card":
          target = "awaiting-input";
          break;
        case "card_closed":
          target = openCards === 0 && current === "awaiting-input" ? "running" : current;
          break;
        case "done":
          target = "completed";
          break;
        default:
          target = current;
      }
  }
  if (target === current) return current;
  return canTransition(current, target) ? target : null;
}
