/**
 * Is a value JSON data? The one check for the opaque fields of the wire
 * (`tool_call.input`, `tool_result.output`, `state.snapshot`) and the
 * adapters that carry them: a value passes when `JSON.stringify` would
 * write it whole and `JSON.parse` would give back an equal value.
 *
 * JSON data is `null`, a boolean, a string, a finite number, an array
 * without holes of JSON data, or a plain object (prototype
 * `Object.prototype` or `null`) whose own enumerable string keys hold JSON
 * data and which has no symbol keys. Everything else is refused with the
 * path of the first offending value: `undefined` (JSON.stringify drops it
 * or writes `null`), a `bigint` (JSON.stringify throws), a symbol or a
 * function (dropped), `NaN` / `±Infinity` (written as `null`), a `Map`,
 * `Set`, `Date` or any other class instance (written as `{}` or as its
 * `toJSON` text, not as itself), a cycle (JSON.stringify throws), an
 * object nested deeper than {@link MAX_JSON_DEPTH}, more than
 * {@link MAX_JSON_NODES} values in all (shared references count once per
 * occurrence, as JSON.stringify writes them), or an object whose reading
 * throws (a revoked proxy, a throwing getter).
 *
 * Each value is read once. Never throws.
 *
 * @module
 */

/** Deepest nesting of arrays and objects accepted (the top-level value is depth 0). */
export const MAX_JSON_DEPTH = 256;

/** Most values (every array item, object field value and the top value) accepted in one check. */
export const MAX_JSON_NODES = 1_000_000;

/** Why a value is not JSON data: where (`path`, dotted from `root`) and what. */
export interface JsonValueProblem {
  /** Dotted path of the offending value, from the root given to {@link jsonValueProblem}. */
  readonly path: string;
  /** What is there, e.g. `a bigint`, `a cycle`, `a Map`. */
  readonly what: string;
}

/**
 * `null` when `value` is JSON data (see the module doc), else the first
 * problem found, its `path` starting at `root` (`event.input.a.0`). Never
 * throws.
 */
export function jsonValueProblem(value: unknown, root: string): JsonValueProblem | null {
  // the common case (a scalar) costs one typeof
  switch (typeof value) {
    case "string":
    case "boolean":
      return null;
    case "number":
      return Number.isFinite(value) ? null : { path: root, what: `the number ${value}` };
  }
  const walk = { nodes: 0, ancestors: new Set<object>() };
  try {
    return check(value, root, 0, walk);
  } catch {
    return { path: root, what: "a value whose reading threw" };
  }
}

interface Walk {
  nodes: number;
  readonly ancestors: Set<object>;
}

function check(v: unknown, path: string, depth: number, walk: Walk): JsonValueProblem | null {
  if (++walk.nodes > MAX_JSON_NODES) {
    return { path, what: `more than ${MAX_JSON_NODES} values` };
  }
  switch (typeof v) {
    case "string":
    case "boolean":
      return null;
    case "number":
      return Number.isFinite(v) ? null : { path, what: `the number ${v}` };
    case "undefined":
      return { path, what: "undefined" };
    case "bigint":
      return { path, what: "a bigint" };
    case "symbol":
      return { path, what: "a symbol" };
    case "function":
      return { path, what: "a function" };
  }
  if (v === null) return null;
  const o = v as object;
  if (walk.ancestors.has(o)) return { path, what: "a cycle" };
  if (depth >= MAX_JSON_DEPTH) return { path, what: `nesting deeper than ${MAX_JSON_DEPTH}` };
  walk.ancestors.add(o);
  const problem = Array.isArray(o)
    ? checkArray(o, path, depth, walk)
    : checkObject(o, path, depth, walk);
  walk.ancestors.delete(o);
  return problem;
}

function checkArray(
  a: unknown[],
  path: string,
  depth: number,
  walk: Walk,
): JsonValueProblem | null {
  if (Object.getPrototypeOf(a) !== Array.prototype) return { path, what: "an array subclass" };
  const n = a.length;
  if (n > MAX_JSON_NODES) return { path, what: `more than ${MAX_JSON_NODES} values` };
  for (let i = 0; i < n; i++) {
    if (!Object.hasOwn(a, i)) return { path: `${path}.${i}`, what: "a hole" };
    const p = check(a[i], `${path}.${i}`, depth + 1, walk);
    if (p !== null) return p;
  }
  return null;
}

function checkObject(o: object, path: string, depth: number, walk: Walk): JsonValueProblem | null {
  const proto = Object.getPrototypeOf(o);
  if (proto !== Object.prototype && proto !== null) {
    const name = constructorName(proto);
    return { path, what: name === undefined ? "an object that is not plain" : `a ${name}` };
  }
  if (Object.getOwnPropertySymbols(o).length > 0) {
    return { path, what: "an object with symbol keys" };
  }
  const keys = Object.keys(o);
  const record = o as Record<string, unknown>;
  for (const k of keys) {
    const p = check(record[k], `${path}.${k}`, depth + 1, walk);
    if (p !== null) return p;
  }
  return null;
}

/** The name of the class whose prototype is `proto`, when it is a plain string. */
function constructorName(proto: object): string | undefined {
  const ctor: unknown = Object.getOwnPropertyDescriptor(proto, "constructor")?.value;
  if (typeof ctor !== "function") return undefined;
  const name: unknown = Object.getOwnPropertyDescriptor(ctor, "name")?.value;
  return typeof name === "string" && name.length > 0 && name.length <= 64 ? name : undefined;
}
