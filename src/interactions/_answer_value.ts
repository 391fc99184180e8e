/**
 * The validated answer as it may be stored: JSON data only, bounded in size
 * and depth, copied (never a lossy conversion).
 *
 * @module
 */
import { utf8ByteLength } from "../_internal/guards.ts";
import { isPlainObject, MAX_ANSWER_DEPTH } from "./_input.ts";

/**
 * Why a validated answer cannot be stored as it is, or `null`. Only JSON
 * data is stored, never a lossy conversion of something else: `null`,
 * booleans, strings, finite numbers, arrays without holes or `undefined`,
 * and plain objects (an `undefined` property counts as absent). `NaN`,
 * `Infinity`, `Date`, `Map`, class instances, functions and the like are
 * refused, as is nesting deeper than {@link MAX_ANSWER_DEPTH}. The walk
 * stops once it has seen more than `budget` characters' worth of data.
 */
export function answerProblem(value: unknown, budget: number): string | null {
  let left = budget;
  const walk = (v: unknown, depth: number): string | null => {
    if (--left < 0) return "too large";
    if (v === null || typeof v === "boolean") return null;
    if (typeof v === "string") {
      left -= v.length;
      return left < 0 ? "too large" : null;
    }
    if (typeof v === "number") return Number.isFinite(v) ? null : "a non-finite number";
    if (typeof v !== "object") return `a ${typeof v}`;
    if (depth >= MAX_ANSWER_DEPTH) return `nested deeper than ${MAX_ANSWER_DEPTH}`;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        if (!Object.hasOwn(v, i) || v[i] === undefined) return "an array with holes or undefined";
        const p = walk(v[i], depth + 1);
        if (p !== null) return p;
      }
      return null;
    }
    if (!isPlainObject(v)) return "an object that is not plain data";
    for (const k of Object.keys(v)) {
      left -= k.length;
      const x = v[k];
      if (x === undefined) continue;
      const p = walk(x, depth + 1);
      if (p !== null) return p;
    }
    return null;
  };
  try {
    return walk(value, 0);
  } catch {
    return "unreadable";
  }
}

/** A fresh JSON copy of a validated answer, or the reason it cannot be stored. */
export function answerCopy(
  value: unknown,
  maxBytes: number,
): { ok: true; value: unknown } | { ok: false; why: string } {
  const problem = answerProblem(value, maxBytes);
  if (problem !== null) return { ok: false, why: problem };
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return { ok: false, why: "unreadable" };
  }
  if (text === undefined) return { ok: false, why: "undefined" };
  // UTF-8 never takes fewer bytes than UTF-16 units: skip the count when already too long.
  if (text.length > maxBytes || utf8ByteLength(text) > maxBytes) {
    return { ok: false, why: "too large" };
  }
  return { ok: true, value: JSON.parse(text) };
}
