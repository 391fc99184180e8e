/**
 * Reading fields of untrusted input. Options objects and records from callers may be proxies, revoked
 * proxies or carry getters that throw or answer differently on each read:
 * read each field exactly once, inside a guard, and validate the copies.
 *
 * @module
 */

/**
 * `value[key]` for each of `keys`, each read exactly once, as a fresh
 * null-prototype record; `null` when `value` is not an object (or function)
 * or when reading any field threw (a throwing getter, a revoked proxy, a
 * proxy trap). Inherited fields are read like own ones (plain property
 * access, as `options?.x` does). Never throws.
 *
 * @example
 * ```ts
 * import { readFields } from "./fields.ts";
 * const o = readFields({ maxBytes: 10 }, ["maxBytes", "other"] as const);
 * o?.maxBytes; // 10
 * readFields(null, ["x"]); // null
 * ```
 */
export function readFields<K extends string>(
  value: unknown,
  keys: readonly K[],
): { readonly [P in K]: unknown } | null {
  return read(value, keys, false);
}

/**
 * Like {@link readFields}, but only OWN properties count: an inherited field
 * reads as `undefined` (for values that must not be steered through their
 * prototype, e.g. parsed JSON bodies and cards). Never throws.
 */
export function readOwnFields<K extends string>(
  value: unknown,
  keys: readonly K[],
): { readonly [P in K]: unknown } | null {
  return read(value, keys, true);
}

function read<K extends string>(
  value: unknown,
  keys: readonly K[],
  ownOnly: boolean,
): { readonly [P in K]: unknown } | null {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return null;
  const out = Object.create(null) as Record<K, unknown>;
  try {
    for (const k of keys) {
      out[k] = ownOnly && !Object.hasOwn(value, k) ? undefined : (value as Record<K, unknown>)[k];
    }
  } catch {
    return null;
  }
  return out;
}

/**
 * Like {@link readFields} for an optional options bag, read the way
 * `options?.key` reads it: a value that is not an object (`undefined`,
 * `null`, a number…) reads as an empty record (every field `undefined`);
 * `null` only when reading a field threw. Never throws.
 */
export function readOptions<K extends string>(
  options: unknown,
  keys: readonly K[],
): { readonly [P in K]: unknown } | null {
  if ((typeof options !== "object" && typeof options !== "function") || options === null) {
    return readFields({}, keys);
  }
  return readFields(options, keys);
}

/**
 * The elements of an array, read once each into a fresh plain array (holes
 * read as `undefined`), or `null` when `value` is not an array or reading it
 * threw (a revoked proxy, a throwing `length` or index trap). Iterates by
 * index up to `length`, without calling the array's iterator. Never throws.
 *
 * @example
 * ```ts
 * import { readItems } from "./fields.ts";
 * readItems([1, , 3]); // [1, undefined, 3]
 * readItems({ length: 1 }); // null: not an array
 * ```
 */
export function readItems(value: unknown): unknown[] | null {
  try {
    if (!Array.isArray(value)) return null;
    const n = value.length;
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) out[i] = value[i];
    return out;
  } catch {
    return null;
  }
}
