/**
 * Split a whole assistant turn into text and tagged blocks.
 *
 * @module
 */
import { TurnTextScanner, type TurnTextScannerOptions } from "./turn_text_scanner.ts";
import type { TurnTextSegment } from "./segments.ts";

/**
 * Split `text` into segments, in order: `text`, `report`, `ask` and
 * `invalid` (with the raw source and a reason). ALL blocks are found, not
 * just the first. Never throws; non-string input gives `[]`.
 *
 * Tag rules: an opening tag is exactly `<ask>` or `<report>` in any ASCII case
 * (no attributes; `<ask >` is text). Its body runs to the first following
 * close tag of the SAME name (`</ask>` / `</report>`, any case), exactly like
 * {@link parseAskTag}: other tags inside a body are part of the body. The
 * trimmed body is JSON-parsed and normalised by {@link parseAskBlock} /
 * {@link parseReportBlock}. The close tag must start within
 * {@link MAX_BLOCK_BODY_LENGTH} characters of the body (or the lower
 * `options.maxBlockBodyLength`), else the block is
 * `invalid` / `too-large` and scanning resumes after the opening tag plus
 * `MAX_BLOCK_BODY_LENGTH + closeTag.length` characters. An opening tag whose
 * close never comes is `invalid` / `unclosed` with `raw` the opening tag
 * alone; the text after it is split as usual, so a stray `<ask>` in prose
 * never hides a later `<report>` block. A stray close tag is plain text.
 *
 * Output is in normal form (see {@link normalizeSegments}): no empty or
 * adjacent text segments; concatenating `text`/`raw` gives `text` back; every
 * field is JSON (the `inspect` CLI prints it as is). Linear time: one
 * `indexOf('<')` pass, no regular expressions, no backtracking.
 *
 * @example
 * ```ts
 * import { splitTurnText } from "@papercusp/chat-protocol/blocks";
 * splitTurnText('Done.<report>{"plans":[{"title":"Ship"}]}</report>Ok? <ask>{"question":"Merge?"}</ask>');
 * // → [
 * //   { kind: "text", text: "Done." },
 * //   { kind: "report", block: { plans: [{ title: "Ship" }] }, raw: "<report>…</report>" },
 * //   { kind: "text", text: "Ok? " },
 * //   { kind: "ask", block: { question: "Merge?" }, raw: "<ask>…</ask>" },
 * // ]
 * ```
 */
export function splitTurnText(
  text: string,
  options: TurnTextScannerOptions = {},
): TurnTextSegment[] {
  if (typeof text !== "string") return [];
  const scanner = new TurnTextScanner(options);
  scanner.write(text);
  return scanner.end(); // one drain: adjacent text is merged, no empty text
}
