/**
 * The AI SDK `FinishReason` values (`ai@7`, `finish` chunk's
 * `finishReason`), shared by the chunk checker and the v1 → chunks adapter.
 *
 * @module
 */

/** Every `finishReason` a `finish` chunk may carry. */
export const FINISH_REASONS: ReadonlySet<string> = new Set([
  "stop",
  "length",
  "content-filter",
  "tool-calls",
  "error",
  "interrupted",
  "other",
]);

/** Common provider stop reasons with an AI SDK equivalent (lower-cased input). */
const STOP_REASON_ALIASES: ReadonlyMap<string, string> = new Map([
  ["complete", "stop"],
  ["completed", "stop"],
  ["end_turn", "stop"],
  ["stop_sequence", "stop"],
  ["max_tokens", "length"],
  ["max_output_tokens", "length"],
  ["tool_use", "tool-calls"],
  ["tool_calls", "tool-calls"],
  ["content_filter", "content-filter"],
  ["refusal", "content-filter"],
]);

/**
 * The AI SDK `finishReason` of a v1 `done.stopReason`: absent → `stop`; an
 * AI SDK reason as is; a common provider reason (`end_turn`,
 * `max_tokens`, `tool_use`, …, case-insensitive) → its AI SDK equivalent;
 * anything else → `other` (the v1 value travels as message metadata).
 */
export function finishReasonOf(stopReason: string | undefined): string {
  if (stopReason === undefined) return "stop";
  if (FINISH_REASONS.has(stopReason)) return stopReason;
  return STOP_REASON_ALIASES.get(stopReason.toLowerCase()) ?? "other";
}
