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
