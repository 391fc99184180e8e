/**
 * Reading fields of untrusted input (internal: not exported from any entry
 * point). Options objects and records from callers may be proxies, revoked
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
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return null;
  const out = Object.create(null) as Record<K, unknown>;
  try {
    for (const k of keys) out[k] = (value as Record<K, unknown>)[k];
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
    return Object.create(null);
  }
  return readFields(options, keys);
}
