/**
 * Zod schemas of the NORMALISED block shapes (the output of the parsers).
 * Use the parsers ({@link parseReportBlock}, {@link parseAskBlock}) for
 * untrusted input: they apply the spec's trimming and fallback rules, which a
 * schema cannot.
 *
 * @module
 */
import { z } from "zod";
import type {
  AskBlock,
  AskOption,
  GoalOwnerReportRefV1,
  ReportBlock,
  ReportItem,
  ReportPlan,
} from "./types.ts";

const nonBlank = z.string().refine((s) => s.trim() === s && s !== "", {
  message: "must be a non-empty string without surrounding whitespace",
});

/** {@link GoalOwnerReportRefV1}: closed key set, 64 lowercase hex digest. */
export const GoalOwnerReportRefV1Schema: z.ZodType<GoalOwnerReportRefV1> = z.strictObject({
  schemaVersion: z.literal(1),
  goalId: nonBlank,
  reportId: nonBlank,
  bodySha256: z.string().regex(/^[a-f0-9]{64}$/),
});

/** {@link ReportItem} as produced by {@link parseReportBlock}. */
export const ReportItemSchema: z.ZodType<ReportItem> = z.object({
  id: nonBlank.optional(),
  text: nonBlank,
  status: nonBlank.optional(),
  ref: nonBlank.optional(),
});

/** {@link ReportPlan} as produced by {@link parseReportBlock}. */
export const ReportPlanSchema: z.ZodType<ReportPlan> = z.object({
  slug: nonBlank.optional(),
  title: nonBlank,
  status: nonBlank.optional(),
  summary: nonBlank.optional(),
  items: z.array(ReportItemSchema).min(1).optional(),
});

/**
 * {@link ReportBlock} as produced by {@link parseReportBlock}: at least one
 * plan unless a `goalReport` is present.
 */
export const ReportBlockSchema: z.ZodType<ReportBlock> = z
  .object({
    title: nonBlank.optional(),
    plans: z.array(ReportPlanSchema),
    goalReport: GoalOwnerReportRefV1Schema.optional(),
  })
  .refine((b) => b.plans.length > 0 || b.goalReport !== undefined, {
    message: "a report needs at least one plan or a goalReport",
    path: ["plans"],
  });

/** {@link AskOption} as produced by {@link parseAskBlock}. */
export const AskOptionSchema: z.ZodType<AskOption> = z.object({
  id: nonBlank,
  label: nonBlank,
  description: nonBlank.optional(),
});

/** {@link AskBlock} as produced by {@link parseAskBlock}. */
export const AskBlockSchema: z.ZodType<AskBlock> = z.object({
  question: nonBlank,
  options: z.array(AskOptionSchema).min(1).optional(),
  refs: z.array(nonBlank).min(1).optional(),
});
