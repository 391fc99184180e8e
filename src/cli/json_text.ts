/**
 * JSON text for `inspect` output without recursion: a capture can nest a
 * tool input 100 000 levels deep (it stays under the 1 MiB envelope bound),
 * and `JSON.stringify(value, null, 2)` then throws `RangeError: Maximum call
 * stack size exceeded`. Both writers here walk the value with an explicit
 * stack, so depth costs heap, not call stack, and they never throw on the
 * plain data the report holds (values from `JSON.parse`, strings, numbers,
 * booleans, `null`, arrays, plain objects).
 *
 * @module
 */
import { clipText } from "../_internal/describe.ts";
import { escapeJsonString } from "./escape.ts";

type Container = { kind: "array"; items: readonly unknown[]; i: number } | {
  kind: "object";
  obj: Record<string, unknown>;
  keys: string[];
  i: number;
  wrote: boolean;
};

/** The JSON text of a scalar, or `undefined` for a value JSON leaves out (functions, `undefined`, symbols). */
function scalar(v: unknown): string | undefined {
  switch (typeof v) {
    case "string":
      return escapeJsonString(v);
    case "number":
      return Number.isFinite(v) ? JSON.stringify(v) : "null";
    case "boolean":
      return v ? "true" : "false";
    case "bigint":
      return `"${v}"`;
    case "object":
      return v === null ? "null" : undefined;
    default:
      return undefined;
  }
}

/** Read a property without letting a throwing getter escape (the report never has one). */
function get(obj: Record<string, unknown>, key: string): unknown {
  try {
    return obj[key];
  } catch {
    return undefined;
  }
}

function keysOf(obj: object): string[] {
  try {
    return Object.keys(obj);
  } catch {
    return [];
  }
}

function isArray(v: object): v is readonly unknown[] {
  try {
    return Array.isArray(v);
  } catch {
    return false;
  }
}

/** A fresh walking state for the array or object `v`. */
function containerOf(v: object): Container {
  if (isArray(v)) return { kind: "array", items: v, i: 0 };
  return { kind: "object", obj: v as Record<string, unknown>, keys: keysOf(v), i: 0, wrote: false };
}

/** Containers nested deeper than this are written without line breaks by {@link stringifyJson}. */
export const MAX_INDENT_DEPTH = 64;

/**
 * `JSON.stringify(value, null, indent)` without recursion, with the unsafe
 * characters of `escape.ts` written as `\uXXXX` escapes (so `--json` output
 * shows no raw bidi or control character; `JSON.parse` gives the same
 * value). Differences from `JSON.stringify`: containers nested deeper than
 * {@link MAX_INDENT_DEPTH} are written compact, `toJSON` is not called, a
 * bigint is written as a string, a cycle is written as `null`, and a value
 * that is not JSON at the top (`undefined`, a function) gives `null`.
 * `indent` 0 writes compact JSON.
 */
export function stringifyJson(value: unknown, indent = 2): string {
  const out: string[] = [];
  const stack: Container[] = [];
  const open = new Set<object>();
  // Deeper than MAX_INDENT_DEPTH the text is compact: indenting a value nested n deep costs
  // O(n²) characters (100 000 levels would be 10^10 spaces).
  const pretty = () => indent > 0 && stack.length <= MAX_INDENT_DEPTH;
  const pad = (depth: number) => (pretty() ? "\n" + " ".repeat(indent * depth) : "");

  /** Write `v` (a scalar at once, a container by pushing it); `false` when it is left out. */
  const write = (v: unknown): boolean => {
    const s = scalar(v);
    if (s !== undefined) {
      out.push(s);
      return true;
    }
    if (typeof v !== "object" || v === null) return false;
    if (open.has(v)) {
      out.push("null");
      return true;
    }
    open.add(v);
    const c = containerOf(v);
    out.push(c.kind === "array" ? "[" : "{");
    stack.push(c);
    return true;
  };

  if (!write(value)) return "null";
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    const depth = stack.length;
    if (top.kind === "array") {
      if (top.i < top.items.length) {
        out.push(top.i === 0 ? pad(depth) : "," + pad(depth));
        const item = top.items[top.i++];
        if (!write(item)) out.push("null");
        continue;
      }
      out.push(top.items.length === 0 ? "]" : pad(depth - 1) + "]");
      open.delete(top.items);
      stack.pop();
      continue;
    }
    if (top.i < top.keys.length) {
      const key = top.keys[top.i++];
      const v = get(top.obj, key);
      if (scalar(v) === undefined && (typeof v !== "object" || v === null)) continue; // left out
      out.push(
        (top.wrote ? "," : "") + pad(depth) + escapeJsonString(key) + (pretty() ? ": " : ":"),
      );
      top.wrote = true;
      write(v);
      continue;
    }
    out.push(top.wrote ? pad(depth - 1) + "}" : "}");
    open.delete(top.obj);
    stack.pop();
  }
  return out.join("");
}

/**
 * Compact JSON of `value` cut to about `max` UTF-16 code units (then `…`):
 * a one-line preview for the human output. Stops walking once the budget is
 * spent, so a huge or deeply nested value costs O(`max`), not O(its size).
 * Strings are escaped as in {@link stringifyJson}.
 */
export function previewJson(value: unknown, max: number): string {
  const out: string[] = [];
  let length = 0;
  const stack: Container[] = [];
  const push = (s: string): boolean => {
    out.push(s);
    length += s.length;
    return length <= max;
  };
  const write = (v: unknown): boolean => {
    const s = scalar(v);
    if (s !== undefined) return push(s.length > max ? s.slice(0, max + 1) : s);
    if (typeof v !== "object" || v === null) return push("null");
    const c = containerOf(v);
    stack.push(c);
    return push(c.kind === "array" ? "[" : "{");
  };
  let within = write(value);
  while (within && stack.length > 0) {
    const top = stack[stack.length - 1];
    if (top.kind === "array") {
      if (top.i < top.items.length) {
        within = (top.i === 0 || push(",")) && write(top.items[top.i++]);
      } else {
        stack.pop();
        within = push("]");
      }
      continue;
    }
    if (top.i < top.keys.length) {
      const key = top.keys[top.i++];
      const v = get(top.obj, key);
      if (scalar(v) === undefined && (typeof v !== "object" || v === null)) continue;
      within = (!top.wrote || push(",")) && push(escapeJsonString(key) + ":") && write(v);
      top.wrote = true;
    } else {
      stack.pop();
      within = push("}");
    }
  }
  const text = out.join("");
  if (within && stack.length === 0) return text;
  return `${clipText(text, max)}…`;
}
