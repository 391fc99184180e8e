/**
 * `<ask>` / `<report>` tag extraction and serialisation (v0-wire spec §5–6).
 *
 * @module
 */
import type { AskBlock, ReportBlock } from "./types.ts";
import { parseAskBody } from "./ask_block.ts";
import { parseReportBody } from "./report_block.ts";
import { MAX_BLOCK_BODY_LENGTH } from "./limits.ts";
import { type BlockTag, CLOSE_TAGS, findTag, OPEN_TAGS } from "./_tag_match.ts";

/** Body of the first `<name>…</name>` (lazy, case-insensitive), or null. */
function firstTagBody(raw: string, tag: BlockTag): string | null {
  if (typeof raw !== "string") return null;
  const open = OPEN_TAGS[tag];
  const start = findTag(raw, open, 0);
  if (start === -1) return null;
  const bodyStart = start + open.length;
  // The close must start within the size bound: never scan further than that.
  const end = findTag(raw, CLOSE_TAGS[tag], bodyStart, bodyStart + MAX_BLOCK_BODY_LENGTH);
  if (end === -1) return null;
  const body = raw.slice(bodyStart, end).trim();
  return body === "" ? null : body;
}

/**
 * Extract and parse the FIRST `<ask>…</ask>` in `raw`: the opening tag is
 * exactly `<ask>` in any ASCII case (no attributes), the body runs to the
 * first following `</ask>` (lazy, newlines included), is trimmed and handed
 * to {@link parseAskBody}. No tag, an unclosed tag, an empty body, a body
 * longer than {@link MAX_BLOCK_BODY_LENGTH}, or an invalid payload → `null`.
 * Never throws; linear time (no regular expression).
 *
 * @example
 * ```ts
 * import { parseAskTag } from "@papercusp/chat-protocol/blocks";
 * parseAskTag('Sure. <ASK>{"question":"Which?"}</ask>'); // → { question: "Which?" }
 * parseAskTag("<ask>{}"); // → null (unclosed)
 * ```
 */
export function parseAskTag(raw: string): AskBlock | null {
  const body = firstTagBody(raw, 0);
  return body === null ? null : parseAskBody(body);
}

/**
 * Extract and parse the FIRST `<report>…</report>` in `raw`, with the same
 * rules as {@link parseAskTag}, then {@link parseReportBody}. Never throws.
 *
 * @example
 * ```ts
 * import { parseReportTag } from "@papercusp/chat-protocol/blocks";
 * parseReportTag('<report>{"plans":[{"title":"Ship"}]}</report>'); // → { plans: [{ title: "Ship" }] }
 * ```
 */
export function parseReportTag(raw: string): ReportBlock | null {
  const body = firstTagBody(raw, 1);
  return body === null ? null : parseReportBody(body);
}

const ESCAPES: Readonly<Record<string, string>> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

/**
 * `JSON.stringify` with `<`, `>`, `&`, U+2028 and U+2029 written as `\uXXXX`
 * escapes. Those characters can only occur inside JSON strings, so the result
 * is the same JSON value, but it can never contain `</ask>`, `</report>` or
 * any other tag, and is safe inside HTML and JavaScript source.
 *
 * Returns `null` (never throws) when `value` has no faithful JSON text:
 * `JSON.stringify` would throw (a `BigInt`, a cycle, a throwing getter or
 * `toJSON`, a revoked proxy, nesting too deep for the stack) or write
 * nothing (`undefined`, a function, a symbol), or it would silently write
 * `null` in place of a non-finite number (`NaN`, `Infinity`) or an invalid
 * `Date`. Object keys whose value is `undefined` (or a function or symbol)
 * are left out, as `JSON.stringify` does.
 *
 * @example
 * ```ts
 * import { stringifyBlockJson } from "@papercusp/chat-protocol/blocks";
 * stringifyBlockJson({ question: "a</ask>" }); // → '{"question":"a\\u003c/ask\\u003e"}'
 * stringifyBlockJson({ at: new Date(NaN) }); // → null
 * ```
 */
export function stringifyBlockJson(value: unknown): string | null {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return null;
  }
  if (typeof json !== "string") return null;
  if (json.includes("null")) {
    // A `null` may stand for NaN, ±Infinity or an invalid Date: serialize
    // again with a replacer that sees the values before they become `null`
    // (only then: a replacer takes JSON.stringify off its fast path).
    let faithful = true;
    try {
      json = JSON.stringify(value, function (this: unknown, key: string, v: unknown) {
        if (typeof v === "number" && !Number.isFinite(v)) faithful = false;
        else if (v === null && isInvalidDate(this, key)) faithful = false;
        return v;
      });
    } catch {
      return null;
    }
    if (!faithful || typeof json !== "string") return null;
  }
  return json.replace(/[<>&\u2028\u2029]/g, (c) => ESCAPES[c]);
}

/**
 * Whether `holder[key]` is an own data property holding an invalid `Date`
 * (which `toJSON` turned into the `null` the replacer sees). Read through the
 * property descriptor, so no getter runs a second time.
 */
function isInvalidDate(holder: unknown, key: string): boolean {
  if (typeof holder !== "object" || holder === null) return false;
  const d = Object.getOwnPropertyDescriptor(holder, key);
  const v = d?.value;
  return v instanceof Date && Number.isNaN(v.getTime());
}

/**
 * Serialise an ask block as `<ask>` + JSON + `</ask>`, escaping `<`, `>`, `&`,
 * U+2028, U+2029 in the JSON (see {@link stringifyBlockJson}). Unlike the
 * original serializer (which broke on a question containing `</ask>`),
 * `parseAskTag(serializeAskTag(b))` deep-equals `b` for every block `b` that
 * {@link parseAskBlock} returns, provided the JSON body fits
 * {@link MAX_BLOCK_BODY_LENGTH}. The block is not validated: pass a
 * normalised block. Keys with `undefined` values are dropped by JSON; a block
 * with no faithful JSON text (see {@link stringifyBlockJson}) gives `null`.
 * Never throws.
 *
 * @example
 * ```ts
 * import { serializeAskTag } from "@papercusp/chat-protocol/blocks";
 * serializeAskTag({ question: "What does </ask> do?" });
 * // → '<ask>{"question":"What does \\u003c/ask\\u003e do?"}</ask>'
 * ```
 */
export function serializeAskTag(block: AskBlock): string | null {
  const json = stringifyBlockJson(block);
  return json === null ? null : "<ask>" + json + "</ask>";
}

/**
 * Serialise a report block as `<report>` + escaped JSON + `</report>`; the
 * inverse of {@link parseReportTag} for every normalised block (see
 * {@link serializeAskTag}); `null` for a block with no faithful JSON text.
 * Never throws.
 *
 * @example
 * ```ts
 * import { serializeReportTag } from "@papercusp/chat-protocol/blocks";
 * serializeReportTag({ plans: [{ title: "Ship" }] }); // → '<report>{"plans":[{"title":"Ship"}]}</report>'
 * ```
 */
export function serializeReportTag(block: ReportBlock): string | null {
  const json = stringifyBlockJson(block);
  return json === null ? null : "<report>" + json + "</report>";
}
