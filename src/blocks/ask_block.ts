/**
 * `<ask>` payload parsing (v0-wire spec §6).
 *
 * @module
 */
import type { AskBlock, AskOption } from "./types.ts";
import { isRecord, own } from "../_internal/guards.ts";
import { isObjectOrArray, parseJsonBody, trimmed, withTrimmed } from "./_util.ts";

/**
 * Normalise an untrusted `<ask>` payload into an {@link AskBlock}, or `null`.
 * Never throws. Rules (v0-wire spec §6):
 *
 * 1. `value` must be a non-null, non-array object;
 * 2. `question` trimmed; absent → `null`;
 * 3. `options` (array only; anything else ignored): each object entry gets
 *    `id` trimmed (absent → skipped), `label` trimmed else the id,
 *    `description` trimmed; `options` is set only if ≥ 1 survived;
 * 4. `refs` (array only): each entry trimmed, absent ones dropped; set only if
 *    ≥ 1 survived;
 * 5. output key order `question`, `options`, `refs`.
 *
 * Absent optional fields are omitted (the original kept `description:
 * undefined`), so the result is a fixed point of this function. Only own
 * properties are read; the result is built from fresh objects.
 *
 * @example
 * ```ts
 * import { parseAskBlock } from "@papercusp/chat-protocol/blocks";
 * parseAskBlock({ question: " Ship it? ", options: [{ id: "y" }, { label: "no id" }], refs: [" ", "P-1"] });
 * // → { question: "Ship it?", options: [{ id: "y", label: "y" }], refs: ["P-1"] }
 * ```
 */
export function parseAskBlock(value: unknown): AskBlock | null {
  try {
    if (!isRecord(value)) return null;
    const question = trimmed(own(value, "question"));
    if (question === undefined) return null;
    const block: AskBlock = { question };
    const rawOptions = own(value, "options");
    if (Array.isArray(rawOptions)) {
      const options: AskOption[] = [];
      for (const r of rawOptions) {
        if (!isObjectOrArray(r)) continue;
        const id = trimmed(own(r, "id"));
        if (id === undefined) continue;
        const label = trimmed(own(r, "label")) ?? id;
        options.push(withTrimmed<AskOption>({ id, label }, r, ["description"]));
      }
      if (options.length > 0) block.options = options;
    }
    const rawRefs = own(value, "refs");
    if (Array.isArray(rawRefs)) {
      const refs: string[] = [];
      for (const r of rawRefs) {
        const t = trimmed(r);
        if (t !== undefined) refs.push(t);
      }
      if (refs.length > 0) block.refs = refs;
    }
    return block;
  } catch {
    return null;
  }
}

/**
 * `JSON.parse` then {@link parseAskBlock}. A parse error, or a body longer
 * than {@link MAX_BLOCK_BODY_LENGTH} UTF-16 code units, → `null`. Never throws.
 *
 * @example
 * ```ts
 * import { parseAskBody } from "@papercusp/chat-protocol/blocks";
 * parseAskBody('{"question":"Deploy?"}'); // → { question: "Deploy?" }
 * parseAskBody('{"question":"  "}'); // → null
 * ```
 */
export function parseAskBody(json: string): AskBlock | null {
  return parseJsonBody(json, parseAskBlock);
}
