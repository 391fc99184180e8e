/**
 * SSE decoder cases where a client's own language tempts it away from the
 * contract: limits counted in UTF-16 code units (not UTF-8 bytes, not code
 * points), `retry` values of ASCII digits only (Unicode digits such as
 * `١٢` are not digits here), and exactly one byte order mark removed, only
 * at the start of the stream (not again per chunk).
 *
 * @module
 */
import type { CaseDef, CaseGroup } from "./_def.ts";
import type { JsonObject } from "../../conformance/ts/kinds.ts";
import { b64 } from "./sse.ts";

const msg = (data: string): JsonObject => ({ id: null, event: null, data, lastEventId: "" });

function sse(
  id: string,
  description: string,
  kill: string,
  input: JsonObject,
  want: JsonObject,
): CaseDef {
  return { id: `sse.strict.${id}`, kind: "sse", description, kill, input, want };
}
const tooLong = (code: string, afterMessages: number) => ({ error: { code, afterMessages } });

const limits: CaseDef[] = [
  sse(
    "line-utf16-not-bytes",
    "a line of 10 code units (14 UTF-8 bytes) fits maxLineLength 12; the next line of 16 does not",
    "sse.limits",
    { text: "data: éééé\n\ndata: 0123456789\n\n", maxLineLength: 12 },
    { messages: [msg("éééé")], ...tooLong("line-too-long", 1) },
  ),
  sse(
    "line-utf16-not-code-points",
    "a line of 12 code units (9 code points) is over maxLineLength 11",
    "sse.limits",
    { text: "data: 😀😀😀\n\n", maxLineLength: 11 },
    { messages: [], ...tooLong("line-too-long", 0) },
  ),
  sse(
    "event-utf16-not-bytes",
    "event data of 5 code units (10 UTF-8 bytes) fits maxEventLength 6; the next of 7 does not",
    "sse.limits",
    { text: "data: ééééé\n\ndata: 0123456\n\n", maxEventLength: 6 },
    { messages: [msg("ééééé")], ...tooLong("event-too-large", 1) },
  ),
  sse(
    "event-utf16-bytes-in",
    "limits count code units of the decoded text when the stream arrives as bytes",
    "sse.limits",
    { base64: b64("data: ééé\n\ndata: 😀😀\n\n"), maxEventLength: 3 },
    { messages: [msg("ééé")], ...tooLong("event-too-large", 1) },
  ),
];

const retry: CaseDef[] = [
  sse(
    "retry-arabic-digits",
    "retry with Arabic-Indic digits (١٢) is not ASCII digits and is ignored",
    "sse.retry-digits",
    { text: "retry: ١٢\nretry: 7ms\n\n" },
    { messages: [], retries: [] },
  ),
  sse(
    "retry-other-digits",
    "retry with fullwidth or superscript digits is ignored; ASCII digits after it count",
    "sse.retry-digits",
    { text: "retry: ３\nretry: ²\nretry: 9x\nretry: 40\n\n" },
    { messages: [], retries: [40] },
  ),
];

const bom: CaseDef[] = [
  sse(
    "two-boms",
    "only one leading BOM is removed: a second one starts the field name, so no data line",
    "sse.bom",
    { text: "\ufeff\ufeffdata: x\n\n" },
    { messages: [] },
  ),
  sse(
    "bom-per-chunk",
    "a BOM at the start of a later chunk is not removed (only the stream's start)",
    "sse.bom",
    { chunks: ["\ufeffdata: a\n\n", "\ufeffdata: b\n\n", "data: c\n\n"] },
    { messages: [msg("a"), msg("c")] },
  ),
  sse(
    "bom-per-byte-chunk",
    "a UTF-8 BOM at the start of a later byte chunk is not removed",
    "sse.bom",
    {
      chunks: [{ base64: b64("\ufeffdata: a\n\n") }, {
        base64: b64("\ufeffdata: b\n\ndata: c\n\n"),
      }],
    },
    { messages: [msg("a"), msg("c")] },
  ),
];

/** The strict SSE cases, in one file. */
export const STRICT_SSE_GROUPS: CaseGroup[] = [
  { file: "sse/strict.json", cases: [...limits, ...retry, ...bom] },
];
