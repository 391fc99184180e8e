import assert from "node:assert/strict";
import {
  canTransition,
  type ChatEventV1,
  isTerminalTurnStatus,
  isTurnStatus,
  nextTurnStatus,
  TERMINAL_TURN_STATUSES,
  TURN_STATUSES,
  TURN_TRANSITIONS,
  type TurnStatus,
} from "../../mod.ts";

Deno.test("TURN_TRANSITIONS: the documented table, exactly", () => {
  assert.deepEqual(TURN_TRANSITIONS, {
    "running": [
      "awaiting-input",
      "completed",
      "failed",
      "cancelled",
      "interrupted",
      "needs-reconciliation",
    ],
    "awaiting-input": ["running", "failed", "cancelled", "interrupted", "needs-reconciliation"],
    "completed": [],
    "failed": [],
    "cancelled": [],
    "interrupted": ["running", "awaiting-input", "failed", "cancelled"],
    "needs-reconciliation": ["running", "awaiting-input", "failed", "cancelled", "interrupted"],
  });
  assert.deepEqual(Object.keys(TURN_TRANSITIONS).sort(), [...TURN_STATUSES].sort());
  assert.ok(Object.isFrozen(TURN_TRANSITIONS) && Object.isFrozen(TURN_TRANSITIONS.running));
});

Deno.test("canTransition matches the table for all 49 pairs; terminals have no exits", () => {
  let allowed = 0;
  for (const from of TURN_STATUSES) {
    for (const to of TURN_STATUSES) {
      const expected = (TURN_TRANSITIONS[from] as readonly string[]).includes(to);
      assert.equal(canTransition(from, to), expected, `${from}→${to}`);
      if (expected) allowed++;
      if (from === to) assert.equal(canTransition(from, to), false);
    }
  }
  assert.equal(allowed, 6 + 5 + 4 + 5);
  assert.deepEqual(TERMINAL_TURN_STATUSES, ["completed", "failed", "cancelled"]);
  for (const t of TERMINAL_TURN_STATUSES) {
    assert.equal(isTerminalTurnStatus(t), true);
    for (const to of TURN_STATUSES) assert.equal(canTransition(t, to), false);
  }
  for (const s of ["running", "awaiting-input", "interrupted", "needs-reconciliation"] as const) {
    assert.equal(isTerminalTurnStatus(s), false, s);
  }
  assert.equal(canTransition("bogus" as TurnStatus, "running"), false);
  assert.equal(canTransition("running", "toString" as TurnStatus), false);
  assert.equal(isTurnStatus("toString"), false);
  assert.equal(isTurnStatus("awaiting-input"), true);
});

const E = {
  delta: { type: "delta", text: "x" },
  card: { type: "card", card: { correlationId: "k", prompt: "p", createdAt: 1 } },
  closed: { type: "card_closed", correlationId: "k" },
  done: { type: "done" },
  error: { type: "error", message: "m", retryable: false },
  state: { type: "state", version: 1, snapshot: null },
  run: { type: "turn_status", status: "running" },
  cancel: { type: "turn_status", status: "cancelled" },
  interrupt: { type: "turn_status", status: "interrupted" },
  reconcile: { type: "turn_status", status: "needs-reconciliation" },
} satisfies Record<string, ChatEventV1>;

Deno.test("nextTurnStatus: how each event moves the status", () => {
  assert.equal(nextTurnStatus("running", E.delta, 0), "running");
  assert.equal(nextTurnStatus("running", E.card, 1), "awaiting-input");
  assert.equal(nextTurnStatus("awaiting-input", E.delta, 1), "awaiting-input");
  assert.equal(nextTurnStatus("awaiting-input", E.card, 2), "awaiting-input");
  assert.equal(nextTurnStatus("awaiting-input", E.closed, 1), "awaiting-input");
  assert.equal(nextTurnStatus("awaiting-input", E.closed, 0), "running");
  assert.equal(nextTurnStatus("running", E.done, 0), "completed");
  assert.equal(nextTurnStatus("awaiting-input", E.done, 1), null);
  assert.equal(nextTurnStatus("running", E.error, 0), "failed");
  assert.equal(nextTurnStatus("awaiting-input", E.error, 1), "failed");
  assert.equal(nextTurnStatus("running", E.cancel, 0), "cancelled");
  assert.equal(nextTurnStatus("running", E.interrupt, 0), "interrupted");
  assert.equal(nextTurnStatus("running", E.reconcile, 0), "needs-reconciliation");
  assert.equal(nextTurnStatus("running", E.run, 0), "running");
  // paused statuses: only turn_status and error
  for (const paused of ["interrupted", "needs-reconciliation"] as const) {
    for (const ev of [E.delta, E.card, E.closed, E.done, E.state]) {
      assert.equal(nextTurnStatus(paused, ev, 0), null);
    }
    assert.equal(nextTurnStatus(paused, E.run, 0), "running");
    assert.equal(nextTurnStatus(paused, E.run, 2), "awaiting-input");
    assert.equal(nextTurnStatus(paused, E.cancel, 0), "cancelled");
    assert.equal(nextTurnStatus(paused, E.error, 0), "failed");
    assert.equal(nextTurnStatus(paused, { ...E.run, status: paused }, 0), paused);
  }
  assert.equal(nextTurnStatus("interrupted", E.reconcile, 0), null);
  assert.equal(nextTurnStatus("needs-reconciliation", E.interrupt, 0), "interrupted");
  // terminal: everything refused
  for (const t of TERMINAL_TURN_STATUSES) {
    for (const ev of Object.values(E)) assert.equal(nextTurnStatus(t, ev as ChatEventV1, 0), null);
  }
});
