/**
 * How the corpus generator's case definitions look: a case's input, its
 * `kill` rule, and `want`, the part of the outcome its author states (the
 * generator checks the library's full outcome against it before writing
 * `expect`).
 *
 * @module
 */
import type { CaseKind, Json, JsonObject } from "../../conformance/ts/kinds.ts";

/** One case as written by its author. */
export interface CaseDef {
  /** Unique id (dotted). */
  readonly id: string;
  /** The case kind. */
  readonly kind: CaseKind;
  /** One sentence: what the case shows. */
  readonly description: string;
  /** The one rule whose mutant must turn the case red. */
  readonly kill: string;
  /** Other rules the case exercises. */
  readonly rules?: readonly string[];
  /** The kind's input. */
  readonly input: JsonObject;
  /** What the author expects: a subset of the outcome (see {@link subsetProblem}). */
  readonly want: Json;
}

/** A file of cases: its path under `conformance/cases/` and its cases. */
export interface CaseGroup {
  /** e.g. `fold/order.json`. */
  readonly file: string;
  /** The cases. */
  readonly cases: readonly CaseDef[];
}

/**
 * `null` when `want` is a subset of `got`: objects need every key of `want`
 * (recursively a subset), arrays the same length with each element a subset,
 * anything else equality. Otherwise the path of the first difference.
 */
export function subsetProblem(want: unknown, got: unknown, path = "$"): string | null {
  if (want === null || typeof want !== "object") {
    return Object.is(want, got) || (want === got)
      ? null
      : `${path}: want ${JSON.stringify(want)}, got ${JSON.stringify(got)}`;
  }
  if (Array.isArray(want)) {
    if (!Array.isArray(got) || got.length !== want.length) {
      return `${path}: want ${want.length} items, got ${JSON.stringify(got)?.slice(0, 300)}`;
    }
    for (let i = 0; i < want.length; i++) {
      const p = subsetProblem(want[i], got[i], `${path}[${i}]`);
      if (p !== null) return p;
    }
    return null;
  }
  if (got === null || typeof got !== "object" || Array.isArray(got)) {
    return `${path}: want an object, got ${JSON.stringify(got)?.slice(0, 300)}`;
  }
  for (const [k, v] of Object.entries(want)) {
    if (v === undefined) {
      if (Object.hasOwn(got, k)) return `${path}.${k}: want absent`;
      continue;
    }
    if (!Object.hasOwn(got, k)) return `${path}.${k}: missing`;
    const p = subsetProblem(v, (got as Record<string, unknown>)[k], `${path}.${k}`);
    if (p !== null) return p;
  }
  return null;
}
