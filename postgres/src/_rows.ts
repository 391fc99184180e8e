/**
 * Column decoding shared by the stores: `bigint` columns arrive as strings
 * from postgres.js and as numbers from PGlite. Area-private.
 *
 * @module
 */

/**
 * A `bigint`/`integer` column value as a JS safe integer. Throws `TypeError`
 * for anything else (a column this package wrote never holds one, so it
 * means the table was changed behind the package's back).
 */
export function safeInt(v: unknown, column: string): number {
  const n = typeof v === "number"
    ? v
    : typeof v === "bigint"
    ? Number(v)
    : typeof v === "string" && /^-?[0-9]{1,16}$/.test(v)
    ? Number(v)
    : NaN;
  if (!Number.isSafeInteger(n)) throw new TypeError(`column ${column} is not a safe integer`);
  return n;
}
