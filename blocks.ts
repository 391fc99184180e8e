/**
 * `@papercusp/chat-protocol/blocks`: tagged `<report>{json}</report>` and
 * `<ask>{json}</ask>` blocks in assistant text (v0-wire spec §5–6).
 *
 * - {@link splitTurnText}: every block of a whole turn, in order, as
 *   segments (`text`, `report`, `ask`, `invalid` with a reason), in linear
 *   time; {@link TurnTextScanner} / {@link TurnTextScannerStream} do the same
 *   on streamed deltas and never show a partial tag to a person. Feed the
 *   scanner one delta at a time with {@link TurnTextScanner.push} (the
 *   segments that delta made final), or with {@link TurnTextScanner.write}
 *   per delta and {@link TurnTextScanner.drain} when output is wanted (once
 *   per frame, say: no output is allocated per delta, and the text between
 *   two drains is one segment); {@link TurnTextScanner.end} ends the turn.
 * - The spec's normalising parsers ({@link parseAskBlock},
 *   {@link parseReportBlock}, their `*Body` / `*Tag` forms) and a
 *   true-inverse serializer ({@link serializeAskTag},
 *   {@link serializeReportTag}).
 *
 * Model output is only ever parsed here, never executed; every function is
 * total (a refusal is `null` or an `invalid` segment) and bounded by
 * {@link MAX_BLOCK_BODY_LENGTH}. The zod schemas of the payloads are in
 * `./schemas`.
 *
 * @example
 * ```ts
 * import { serializeAskTag, splitTurnText } from "@papercusp/chat-protocol/blocks";
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
} from "./src/blocks/types.ts";
export { MAX_BLOCK_BODY_LENGTH } from "./src/blocks/limits.ts";
export { parseGoalOwnerReportRef } from "./src/blocks/goal_owner_report_ref.ts";
export { parseReportBlock, parseReportBody } from "./src/blocks/report_block.ts";
export { parseAskBlock, parseAskBody } from "./src/blocks/ask_block.ts";
export {
  parseAskTag,
  parseReportTag,
  serializeAskTag,
  serializeReportTag,
  stringifyBlockJson,
} from "./src/blocks/tags.ts";
export {
  type AskSegment,
  type InvalidBlockReason,
  type InvalidSegment,
  normalizeSegments,
  type ReportSegment,
  segmentsToText,
  type TextSegment,
  type TurnTextSegment,
} from "./src/blocks/segments.ts";
export {
  TurnTextScanner,
  type TurnTextScannerOptions,
  TurnTextScannerStream,
} from "./src/blocks/turn_text_scanner.ts";
export { splitTurnText } from "./src/blocks/split_turn_text.ts";
export { BlockArgumentError, type BlockArgumentErrorCode } from "./src/blocks/errors.ts";
