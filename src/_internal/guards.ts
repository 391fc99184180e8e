/**
 * Structural guards shared by every area of the package. Each reads untrusted values without
 * throwing and never consults the prototype chain where it says "own".
 *
 * @module
 */

/**
 * A non-null, non-array object (a JSON object after `JSON.parse`). A revoked
 * proxy is not one (`Array.isArray` throws on it; this never does).
 */
export function isRecord(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null) return false;
  try {
    return !Array.isArray(v);
  } catch {
    return false; // a revoked proxy
  }
}

/** `o[key]` if `key` is an OWN property of `o`, else `undefined` (never an inherited value). */
export function own(o: object, key: string): unknown {
  return Object.hasOwn(o, key) ? (o as Record<string, unknown>)[key] : undefined;
}

/** `obj[key]` if `obj` is a record with an OWN string property `key`, else `undefined`. */
export function ownString(obj: unknown, key: string): string | undefined {
  if (!isRecord(obj)) return undefined;
  const v = own(obj, key);
  return typeof v === "string" ? v : undefined;
}

/** `true` if `x` has a callable `Symbol.iterator` (a throwing getter counts as not iterable). */
export function isIterable(x: unknown): x is Iterable<unknown> {
  try {
    return x !== null && x !== undefined &&
      typeof (x as { [Symbol.iterator]?: unknown })[Symbol.iterator] === "function";
  } catch {
    return false;
  }
}

/**
 * `true` if `x` is text: a string, or a `String` object (both iterate their
 * characters, which no caller of a stream of values means). Never throws.
 */
export function isText(x: unknown): boolean {
  if (typeof x === "string") return true;
  try {
    return x instanceof String;
  } catch {
    return false; // a revoked proxy
  }
}

/** UTF-8 byte length of `s` (a lone surrogate counts 3, as TextEncoder writes U+FFFD). */
export function utf8ByteLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * `true` when `s` is text every store keeps and reads back unchanged: no NUL
 * character (PostgreSQL `text` and `jsonb` refuse it) and no lone surrogate
 * (UTF-8 has none: a client writes U+FFFD, so two different strings could
 * become one). The stores' one contract for stored strings: the core refuses
 * anything else before any store call, so the memory and PostgreSQL stores
 * never disagree on it.
 */
export function isStorableText(s: string): boolean {
  return !s.includes("\u0000") && !LONE_SURROGATE.test(s);
}
