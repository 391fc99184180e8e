/**
 * Helpers shared by the block parsers (private to `src/blocks/`).
 * The structural guards (`isRecord`, `own`) come from `src/_internal/guards.ts`.
 *
 * @module
 */
import { own } from "../_internal/guards.ts";
import { MAX_BLOCK_BODY_LENGTH } from "./limits.ts";

/**
 * `true` for any non-null object, ARRAYS INCLUDED: the spec (v0-wire §5–6)
 * accepts an array as a plan, item or option entry (it then has no usable
 * own fields and is usually skipped). Not the shared `isRecord`, which
 * refuses arrays.
 */
export function isObjectOrArray(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null;
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

/**
 * Copy each of `keys` from `raw` (own properties only) into `out`, trimmed
 * (see {@link trimmed}); absent ones are not set. Returns `out`.
 */
export function withTrimmed<T extends object>(
  out: T,
  raw: object,
  keys: readonly (keyof T & string)[],
): T {
  for (const k of keys) {
    const v = trimmed(own(raw, k));
    if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

/**
 * The `parse*Body` path: a non-string or a body longer than
 * {@link MAX_BLOCK_BODY_LENGTH} UTF-16 code units → `null`; else
 * `JSON.parse` (a parse error → `null`) handed to `parse`. Never throws if
 * `parse` does not.
 */
export function parseJsonBody<T>(json: string, parse: (value: unknown) => T | null): T | null {
  if (typeof json !== "string" || json.length > MAX_BLOCK_BODY_LENGTH) return null;
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    return null;
  }
  return parse(v);
}
