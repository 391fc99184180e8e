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
 * object nested deeper than {@link MAX_JSON_DEPTH} (checked without
 * recursion), more than
 * {@link MAX_JSON_NODES} values in all (shared references count once per
 * occurrence, as JSON.stringify writes them), or an object whose reading
 * throws (a revoked proxy, a throwing getter).
 *
 * Each value is read once. Never throws.
 *
 * @module
 */

/**
 * Deepest nesting of arrays and objects accepted (the top-level value is
 * depth 0). The walk is iterative, so the bound is not a stack limit: it
 * keeps a value within what recursive readers of JSON data (folds, the
 * CLI) are tested with.
 */
export const MAX_JSON_DEPTH = 16_384;

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
  const stack: Frame[] = [];
  try {
    const r = walk(value, stack, root, false);
    return "what" in r ? r : null;
  } catch {
    return { path: pathOf(root, stack, null), what: "a value whose reading threw" };
  }
}

/**
 * A fresh copy of `value` made of plain objects and arrays, when it is JSON
 * data, else the first problem (as {@link jsonValueProblem}). Each value is
 * read once, so the copy is what was checked: a getter that changes its
 * value later cannot make the copy stop being JSON data. Never throws.
 */
export function jsonValueCopy(
  value: unknown,
  root: string,
): { readonly copy: unknown } | JsonValueProblem {
  const stack: Frame[] = [];
  try {
    return walk(value, stack, root, true);
  } catch {
    return { path: pathOf(root, stack, null), what: "a value whose reading threw" };
  }
}

/** An array or object being walked: its key in its parent, and the next child to visit. */
interface Frame {
  readonly value: object;
  /** Own enumerable keys of an object; `null` for an array. */
  readonly keys: readonly string[] | null;
  readonly n: number;
  i: number;
  /** Its key in its parent (`null` for the top value). */
  readonly key: string | null;
  /** The copy being built (when copying). */
  readonly copy: unknown[] | Record<string, unknown> | undefined;
}

function pathOf(root: string, stack: readonly Frame[], key: string | null): string {
  let path = root;
  for (const f of stack) if (f.key !== null) path += `.${f.key}`;
  return key === null ? path : `${path}.${key}`;
}

/** Depth-first, without recursion; `stack` holds the open arrays and objects. */
function walk(
  top: unknown,
  stack: Frame[],
  root: string,
  copying: boolean,
): { readonly copy: unknown } | JsonValueProblem {
  const open = new Set<object>();
  let nodes = 0;
  let value = top;
  let key: string | null = null;
  let copy: unknown;
  for (;;) {
    const depth = stack.length;
    const what = ++nodes > MAX_JSON_NODES
      ? `more than ${MAX_JSON_NODES} values`
      : enter(value, key, stack, open, copying);
    if (what !== null) return { path: pathOf(root, stack, key), what };
    if (copying) {
      const pushed = stack.length > depth;
      const v = pushed ? stack[depth].copy : value;
      const parent = depth === 0 ? undefined : stack[depth - 1].copy;
      if (parent === undefined) copy = v;
      else if (Array.isArray(parent)) parent.push(v); // items are visited in order
      else if (key === "__proto__") {
        Object.defineProperty(parent, key, {
          value: v,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else parent[key!] = v;
    }
    // the next value to visit: the next child of the innermost open container
    for (;;) {
      const f = stack.at(-1);
      if (f === undefined) return { copy };
      if (f.i < f.n) {
        const i = f.i++;
        if (f.keys === null) {
          key = String(i);
          if (!Object.hasOwn(f.value, i)) return { path: pathOf(root, stack, key), what: "a hole" };
          value = (f.value as unknown[])[i];
        } else {
          key = f.keys[i];
          value = (f.value as Record<string, unknown>)[key];
        }
        break;
      }
      stack.pop();
      open.delete(f.value);
    }
  }
}

/**
 * Check one value: `null` when it is a JSON scalar, or an array / plain
 * object now open on `stack`; else what is wrong with it.
 */
function enter(
  v: unknown,
  key: string | null,
  stack: Frame[],
  open: Set<object>,
  copying: boolean,
): string | null {
  switch (typeof v) {
    case "string":
    case "boolean":
      return null;
    case "number":
      return Number.isFinite(v) ? null : `the number ${v}`;
    case "undefined":
      return "undefined";
    case "bigint":
      return "a bigint";
    case "symbol":
      return "a symbol";
    case "function":
      return "a function";
  }
  if (v === null) return null;
  const o = v as object;
  if (open.has(o)) return "a cycle";
  if (stack.length >= MAX_JSON_DEPTH) return `nesting deeper than ${MAX_JSON_DEPTH}`;
  let keys: string[] | null = null;
  let n: number;
  if (Array.isArray(o)) {
    if (Object.getPrototypeOf(o) !== Array.prototype) return "an array subclass";
    n = o.length;
    if (n > MAX_JSON_NODES) return `more than ${MAX_JSON_NODES} values`;
  } else {
    const proto = Object.getPrototypeOf(o);
    if (proto !== Object.prototype && proto !== null) {
      const name = constructorName(proto);
      return name === undefined ? "an object that is not plain" : `a ${name}`;
    }
    if (Object.getOwnPropertySymbols(o).length > 0) return "an object with symbol keys";
    keys = Object.keys(o);
    n = keys.length;
  }
  const copy = copying ? (keys === null ? [] : {}) : undefined;
  stack.push({ value: o, keys, n, i: 0, key, copy });
  open.add(o);
  return null;
}

/** The name of the class whose prototype is `proto`, when it is a plain string. */
function constructorName(proto: object): string | undefined {
  const ctor: unknown = Object.getOwnPropertyDescriptor(proto, "constructor")?.value;
  if (typeof ctor !== "function") return undefined;
  const name: unknown = Object.getOwnPropertyDescriptor(ctor, "name")?.value;
  return typeof name === "string" && name.length > 0 && name.length <= 64 ? name : undefined;
}

/**
 * Whether a refusal of `parseChatEnvelope` is about opaque data that is not
 * JSON data (an `invalid-envelope` with a `not-json` issue): what an encoder
 * reports as its own "cannot serialize" code.
 */
export function isNotJsonRefusal(
  error: { readonly code: string; readonly issues?: readonly { readonly code?: string }[] },
): boolean {
  return error.code === "invalid-envelope" &&
    (error.issues ?? []).some((i) => i.code === "not-json");
}
