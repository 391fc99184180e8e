/**
 * The GOAL owner report reference carried by a `<report>` block
 * (v0-wire spec §5.1).
 *
 * @module
 */
import type { GoalOwnerReportRefV1 } from "./types.ts";
import { isRecord, own } from "../_internal/guards.ts";

const REF_KEYS = new Set(["schemaVersion", "goalId", "reportId", "bodySha256"]);
const SHA256_HEX = /^[a-f0-9]{64}$/;

function isCleanId(v: unknown): v is string {
  return typeof v === "string" && v.length > 0 && v.trim() === v;
}

/**
 * Validate a {@link GoalOwnerReportRefV1}: a plain object whose own keys are
 * all among `schemaVersion`, `goalId`, `reportId`, `bodySha256` (an extra key,
 * including `__proto__`, refuses); `schemaVersion === 1`; `goalId` and
 * `reportId` non-blank strings without leading/trailing whitespace;
 * `bodySha256` 64 lowercase hex characters.
 *
 * Returns a FRESH object holding exactly the four fields, or `null`. (The
 * original returned the input object itself; a copy cannot carry hidden
 * properties or be mutated behind the caller's back.) Never throws.
 *
 * @example
 * ```ts
 * import { parseGoalOwnerReportRef } from "@papercusp/chat-protocol/blocks";
 * parseGoalOwnerReportRef({ schemaVersion: 1, goalId: "g1", reportId: "r1", bodySha256: "a".repeat(64) });
 * // → { schemaVersion: 1, goalId: "g1", reportId: "r1", bodySha256: "aaa…" }
 * parseGoalOwnerReportRef({ schemaVersion: 2 }); // → null
 * ```
 */
export function parseGoalOwnerReportRef(value: unknown): GoalOwnerReportRefV1 | null {
  try {
    if (!isRecord(value)) return null;
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return null;
    for (const k of Object.keys(value)) if (!REF_KEYS.has(k)) return null;
    const schemaVersion = own(value, "schemaVersion");
    const goalId = own(value, "goalId");
    const reportId = own(value, "reportId");
    const bodySha256 = own(value, "bodySha256");
    if (schemaVersion !== 1) return null;
    if (!isCleanId(goalId) || !isCleanId(reportId)) return null;
    if (typeof bodySha256 !== "string" || !SHA256_HEX.test(bodySha256)) return null;
    return { schemaVersion: 1, goalId, reportId, bodySha256 };
  } catch {
    return null;
  }
}
