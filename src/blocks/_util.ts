/**
 * Internal helpers shared by the block parsers (not exported from the barrel).
 *
 * @module
 */

/** `true` for a non-null object that is not an array. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** `true` for any non-null object (arrays included, as in the spec). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null;
}

/**
 * Read an OWN property only, so `__proto__`, `constructor` or a polluted
 * `Object.prototype` can never supply a field.
 */
export function own(o: object, key: string): unknown {
  return Object.hasOwn(o, key) ? (o as Record<string, unknown>)[key] : undefined;
}

/**
 * The spec's string normaliser: only real strings count; the value is
 * trimmed; an empty result counts as absent (`undefined`). Numbers are never
 * coerced.
 */
export function trimmed(v: unknown): string | undefined {
  if (typeof v !== "string") return undefined;
  const t = v.trim();
  return t === "" ? undefined : t;
}

/** Lower-case one ASCII letter code; other code units are returned as is. */
export function lowerAscii(c: number): number {
  return c >= 65 && c <= 90 ? c + 32 : c;
}
