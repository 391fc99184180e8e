/**
 * Building refusals: the one
 * way a failed {@link Result} is made from a code, a message and the
 * refusal's specific fields.
 *
 * @module
 */
import { err, type Refusal } from "../result.ts";

/**
 * A failed result carrying `{ code, message, ...extra }`, where fields of
 * `extra` whose value is `undefined` are left out (an optional field of a
 * refusal is absent, never present as `undefined`).
 *
 * @example
 * ```ts
 * import { refuse } from "./refusal.ts";
 * const r = refuse("gap", "seq 5 skips seq 2–4", { seq: 5, eventId: undefined });
 * // r.error → { code: "gap", message: "seq 5 skips seq 2–4", seq: 5 }
 * ```
 */
export function refuse<C extends string, X extends object = Record<never, never>>(
  code: C,
  message: string,
  extra?: X,
): { readonly ok: false; readonly error: Refusal<C> & X } {
  return err(refusal(code, message, extra));
}

/** The refusal object {@link refuse} wraps (for lists of refusals). */
export function refusal<C extends string, X extends object = Record<never, never>>(
  code: C,
  message: string,
  extra?: X,
): Refusal<C> & X {
  const out: Record<string, unknown> = { code, message };
  if (extra !== undefined) {
    for (const [k, v] of Object.entries(extra)) if (v !== undefined) out[k] = v;
  }
  return out as Refusal<C> & X;
}
