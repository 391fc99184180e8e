/**
 * Tagged `<report>` / `<ask>` blocks in assistant text (v0-wire spec §5–6):
 * payload types and schemas, the spec's normalising parsers, tag
 * extraction and a true-inverse serializer, and a linear-time splitter plus a
 * streaming scanner that finds every block in a turn.
 *
 * @example
 * ```ts
 * import { serializeAskTag, splitTurnText } from "@papercusp/chat-protocol";
 * const text = "Before " + serializeAskTag({ question: "Use </ask>?" }) + " after";
 * splitTurnText(text).map((s) => s.kind); // → ["text", "ask", "text"]
 * ```
 *
 * @module
 */
export type {
  AskBlock,
  AskOption,
  GoalOwnerReportRefV1,
  ReportBlock,
  ReportItem,
  ReportPlan,
} from "./types.ts";
export { MAX_BLOCK_BODY_LENGTH } from "./limits.ts";
export { parseGoalOwnerReportRef } from "./goal_owner_report_ref.ts";
export { parseReportBlock, parseReportBody } from "./report_block.ts";
export { parseAskBlock, parseAskBody } from "./ask_block.ts";
export {
  parseAskTag,
  parseReportTag,
  serializeAskTag,
  serializeReportTag,
  stringifyBlockJson,
} from "./tags.ts";
export {
  AskBlockSchema,
  AskOptionSchema,
  GoalOwnerReportRefV1Schema,
  ReportBlockSchema,
  ReportItemSchema,
  ReportPlanSchema,
} from "./schemas.ts";
export {
  type AskSegment,
  type InvalidBlockReason,
  type InvalidSegment,
  normalizeSegments,
  type ReportSegment,
  segmentsToText,
  type TextSegment,
  type TurnTextSegment,
} from "./segments.ts";
export {
  TurnTextScanner,
  type TurnTextScannerOptions,
  TurnTextScannerStream,
} from "./turn_text_scanner.ts";
export { splitTurnText } from "./split_turn_text.ts";
