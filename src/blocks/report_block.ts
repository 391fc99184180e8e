/**
 * `<report>` payload parsing (v0-wire spec §5, newest version 5eb41d7).
 *
 * @module
 */
import type { GoalOwnerReportRefV1, ReportBlock, ReportItem, ReportPlan } from "./types.ts";
import { parseGoalOwnerReportRef } from "./goal_owner_report_ref.ts";
import { isRecord, own } from "../_internal/guards.ts";
import { isObjectOrArray, parseJsonBody, trimmed, withTrimmed } from "./_util.ts";

function parseItem(raw: unknown): ReportItem | null {
  if (!isObjectOrArray(raw)) return null;
  const id = trimmed(own(raw, "id"));
  const text = trimmed(own(raw, "text")) ?? id;
  if (text === undefined) return null;
  return withTrimmed<ReportItem>(id === undefined ? { text } : { id, text }, raw, [
    "status",
    "ref",
  ]);
}

function parsePlan(raw: unknown): ReportPlan | null {
  if (!isObjectOrArray(raw)) return null;
  const slug = trimmed(own(raw, "slug"));
  const title = trimmed(own(raw, "title")) ?? slug;
  if (title === undefined) return null;
  const plan = withTrimmed<ReportPlan>(slug === undefined ? { title } : { slug, title }, raw, [
    "status",
    "summary",
  ]);
  const rawItems = own(raw, "items");
  if (Array.isArray(rawItems)) {
    const items: ReportItem[] = [];
    for (const r of rawItems) {
      const item = parseItem(r);
      if (item) items.push(item);
    }
    if (items.length > 0) plan.items = items;
  }
  return plan;
}

/**
 * Normalise an untrusted `<report>` payload into a {@link ReportBlock}, or
 * `null`. Never throws. Rules (v0-wire spec §5, newest version):
 *
 * 1. `value` must be a non-null, non-array object.
 * 2. A `goalReport` key whose value is not `undefined` must pass
 *    {@link parseGoalOwnerReportRef}, else the whole block is `null`.
 * 3. `plans`, if present, must be an array; absent `plans` needs a valid
 *    `goalReport`.
 * 4. Each plan: a non-null object; `slug` trimmed; `title` trimmed, else the
 *    slug; no label → skipped. `items` (array only): each object item gets
 *    `id` trimmed, `text` trimmed else the id; no text → skipped. `status`,
 *    `summary`, `ref` trimmed.
 * 5. Zero surviving plans and no `goalReport` → `null`.
 *
 * "Trimmed" means: only real strings count, `trim()`med, empty → absent.
 * Output key order is `plans`, `goalReport`, `title`. Absent optional fields
 * are OMITTED (the original kept keys with value `undefined`; JSON drops them
 * anyway), so the result is JSON-stable and a fixed point: parsing it again
 * returns a deep-equal block. Only own properties are read (`__proto__` and
 * inherited fields are ignored) and the result is built from fresh objects.
 *
 * @example
 * ```ts
 * import { parseReportBlock } from "@papercusp/chat-protocol/blocks";
 * parseReportBlock({ title: " Status ", plans: [{ slug: "p1", items: [{ text: " ship " }] }] });
 * // → { plans: [{ slug: "p1", title: "p1", items: [{ text: "ship" }] }], title: "Status" }
 * parseReportBlock({ plans: [] }); // → null
 * ```
 */
export function parseReportBlock(value: unknown): ReportBlock | null {
  try {
    if (!isRecord(value)) return null;
    let goalReport: GoalOwnerReportRefV1 | undefined;
    const rawGoal = own(value, "goalReport");
    if (rawGoal !== undefined) {
      const g = parseGoalOwnerReportRef(rawGoal);
      if (g === null) return null;
      goalReport = g;
    }
    const rawPlans = own(value, "plans");
    if (rawPlans !== undefined && !Array.isArray(rawPlans)) return null;
    if (rawPlans === undefined && goalReport === undefined) return null;
    const plans: ReportPlan[] = [];
    if (Array.isArray(rawPlans)) {
      for (const r of rawPlans) {
        const plan = parsePlan(r);
        if (plan) plans.push(plan);
      }
    }
    if (plans.length === 0 && goalReport === undefined) return null;
    const block: ReportBlock = { plans };
    if (goalReport !== undefined) block.goalReport = goalReport;
    const title = trimmed(own(value, "title"));
    if (title !== undefined) block.title = title;
    return block;
  } catch {
    return null;
  }
}

/**
 * `JSON.parse` then {@link parseReportBlock}. A parse error, or a body longer
 * than {@link MAX_BLOCK_BODY_LENGTH} UTF-16 code units, → `null`. Never throws.
 *
 * @example
 * ```ts
 * import { parseReportBody } from "@papercusp/chat-protocol/blocks";
 * parseReportBody('{"plans":[{"title":"Ship"}]}'); // → { plans: [{ title: "Ship" }] }
 * parseReportBody("{oops"); // → null
 * ```
 */
export function parseReportBody(json: string): ReportBlock | null {
  return parseJsonBody(json, parseReportBlock);
}
