/**
 * The lifecycle matrix: every turn status (reached by a short prefix) ×
 * every kind of event, generated. The expected status or refusal is derived
 * here from the README's transition table (TURN_TRANSITIONS) and rules,
 * written independently of the library, and checked against it when the
 * corpus is generated.
 *
 * @module
 */
import type { CaseDef, CaseGroup } from "./_def.ts";
import type { JsonObject } from "../../conformance/ts/kinds.ts";
import { turn } from "./fold.ts";

/** TURN_TRANSITIONS as the README states it. */
const TABLE: Record<string, string[]> = {
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
};
const TERMINAL = ["completed", "failed", "cancelled"];
const PAUSED = ["interrupted", "needs-reconciliation"];

const ev = (type: string, fields: JsonObject = {}): JsonObject => ({ type, ...fields });
const status = (s: string) => ev("turn_status", { status: s, reason: `to ${s}` });

/** How each status is reached, and how many cards are then open. */
const PREFIXES: [string, JsonObject[], number][] = [
  ["running", [ev("delta", { text: "a" }), ev("delta", { text: "b" })], 0],
  ["awaiting-input", [
    ev("delta", { text: "a" }),
    ev("card", { card: { correlationId: "q1", prompt: "p", createdAt: 0 } }),
  ], 1],
  ["completed", [ev("delta", { text: "a" }), ev("done")], 0],
  ["failed", [ev("delta", { text: "a" }), ev("error", { message: "m", retryable: false })], 0],
  ["cancelled", [ev("delta", { text: "a" }), status("cancelled")], 0],
  ["interrupted", [ev("delta", { text: "a" }), status("interrupted")], 0],
  ["needs-reconciliation", [ev("delta", { text: "a" }), status("needs-reconciliation")], 0],
];
const EVENTS: [string, JsonObject][] = [
  ["delta", ev("delta", { text: "c" })],
  ["tool-call", ev("tool_call", { callId: "k9", name: "search" })],
  ["card", ev("card", { card: { correlationId: "q9", prompt: "p", createdAt: 0 } })],
  ["card-closed", ev("card_closed", { correlationId: "q1", resolution: "submitted" })],
  ["done", ev("done")],
  ["error", ev("error", { message: "late", retryable: true })],
  ["to-running", status("running")],
  ["to-cancelled", status("cancelled")],
  ["to-interrupted", status("interrupted")],
  ["to-needs-reconciliation", status("needs-reconciliation")],
];

/** The expected outcome of `event` in `from` with `open` cards open: a status or a refusal. */
function expected(
  from: string,
  event: JsonObject,
  open: number,
): { status: string } | { code: string; rule: string } {
  const type = event.type as string;
  if (TERMINAL.includes(from)) return { code: "illegal-transition", rule: "v1.lifecycle.terminal" };
  if (PAUSED.includes(from) && type !== "turn_status" && type !== "error") {
    return { code: "illegal-transition", rule: "v1.lifecycle.paused" };
  }
  let openAfter = open;
  if (type === "card") openAfter++;
  if (type === "card_closed" && open > 0) openAfter--;
  let target = from;
  if (type === "turn_status") {
    target = event.status === "running" && openAfter > 0
      ? "awaiting-input"
      : event.status as string;
  } else if (type === "error") target = "failed";
  else if (type === "card") target = "awaiting-input";
  else if (type === "card_closed") {
    target = openAfter === 0 && from === "awaiting-input" ? "running" : from;
  } else if (type === "done") target = "completed";
  if (target !== from && !TABLE[from].includes(target)) {
    return {
      code: "illegal-transition",
      rule: type === "done"
        ? "v1.lifecycle.no-complete-with-open-card"
        : "v1.lifecycle.transitions",
    };
  }
  if (type === "card_closed" && open === 0) {
    return { code: "unknown-card", rule: "v1.cards.unknown-card" };
  }
  return { status: target };
}

/** The rule whose mutant flips an accepted step from `from` to `to` by `event`. */
function killFor(from: string, to: string, event: JsonObject): string {
  const type = event.type as string;
  if (type === "turn_status") {
    if (event.status === "running" && to === "awaiting-input") {
      return "v1.lifecycle.resume-with-open-cards";
    }
    if (event.status === from) return "v1.lifecycle.same-status";
    return "v1.lifecycle.turn-status";
  }
  if (type === "error") return "v1.lifecycle.error-fails";
  if (type === "done") return "v1.lifecycle.done-completes";
  if (type === "card_closed") return "v1.lifecycle.last-card-resumes";
  if (to === "awaiting-input") return "v1.lifecycle.card-awaits-input";
  return "v1.fold.text";
}

const cases: CaseDef[] = [];
for (const [from, prefix, open] of PREFIXES) {
  for (const [name, event] of EVENTS) {
    const e = expected(from, event, open);
    const index = prefix.length;
    const want = "code" in e
      ? { refusals: [{ index, code: e.code }], state: { status: from, lastSeq: index } }
      : { refusals: [], state: { status: e.status, lastSeq: index + 1 } };
    const kill = "code" in e ? e.rule : killFor(from, e.status, event);
    cases.push({
      id: `fold.matrix.${from}.${name}`,
      kind: "fold",
      description: "code" in e
        ? `${name} while ${from} is refused as ${e.code}`
        : `${name} while ${from} → ${e.status}`,
      kill,
      rules: kill === "v1.lifecycle.transitions" ? [] : ["v1.lifecycle.transitions"],
      input: { turn: { conversationId: "c1", turnId: "t1" }, frames: turn([...prefix, event]) },
      want,
    });
  }
}

/** The lifecycle matrix (70 cases). */
export const LIFECYCLE_MATRIX_GROUPS: CaseGroup[] = [{ file: "fold/lifecycle-matrix.json", cases }];
