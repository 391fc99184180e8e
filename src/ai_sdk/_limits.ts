/**
 * Reading the numeric limit options of this area (`maxParts`, `maxChars`,
 * `maxIssues`): one rule, so a bad value never silently removes a bound.
 *
 * @module
 */

/**
 * The limit `value` sets: `fallback` when it is `undefined`; the value
 * itself when it is a number ≥ 0 (`Infinity` allowed, fractions kept);
 * `null` for anything else (`NaN`, a negative number, a non-number): the
 * caller applies `fallback` and reports the option.
 */
export function limitOption(value: unknown, fallback: number): number | null {
  if (value === undefined) return fallback;
  return typeof value === "number" && value >= 0 ? value : null;
}
