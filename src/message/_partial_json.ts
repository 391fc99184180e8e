/**
 * Internal: parse a possibly truncated JSON text (a tool input still
 * streaming) into the value the AI SDK shows for it: `ai@7`'s
 * `parsePartialJson` (a strict parse, else a parse of the text repaired by its
 * `fixJson`, vendored in `_fix_json.ts`), including its prototype guard (a
 * value holding a `__proto__` key, or a `constructor` object with a
 * `prototype` key, reads as `undefined`). Returns `undefined` for text that
 * cannot be read. Linear in the text length; never throws.
 *
 * @module
 */
import { fixJson } from "./_fix_json.ts";

const FAIL = Symbol("fail");

/** True when `root` holds a key the AI SDK's secure JSON parse forbids. Iterative. */
function hasForbiddenKey(root: object): boolean {
  const stack: object[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Record<string, unknown>;
    if (Object.hasOwn(node, "__proto__")) return true;
    if (Object.hasOwn(node, "constructor")) {
      const c = node.constructor;
      if (c !== null && typeof c === "object" && Object.hasOwn(c, "prototype")) return true;
    }
    for (const k of Object.keys(node)) {
      const v = node[k];
      if (v !== null && typeof v === "object") stack.push(v);
    }
  }
  return false;
}

const SUSPECT =
  /"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)|"(?:c|\\u0063)(?:o|\\u006[Ff])(?:n|\\u006[Ee])/;

function tryParse(text: string): unknown {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return FAIL;
  }
  // only scan when a suspicious key could be present (cheap pre-check)
  if (v !== null && typeof v === "object" && SUSPECT.test(text) && hasForbiddenKey(v)) return FAIL;
  return v;
}

/** Parse a complete or truncated JSON text as the AI SDK does; `undefined` when unreadable. */
export function parsePartialJson(text: string): unknown {
  if (typeof text !== "string") return undefined;
  let v = tryParse(text);
  if (v !== FAIL) return v;
  try {
    v = tryParse(fixJson(text));
  } catch {
    return undefined;
  }
  return v === FAIL ? undefined : v;
}
