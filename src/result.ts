/**
 * The typed-result convention used across the package: every fallible
 * operation that can refuse untrusted input returns a {@link Result} instead
 * of throwing.
 *
 * @module
 */

/**
 * A typed refusal: a stable machine-readable `code` plus a human-readable
 * `message`. Specific refusals extend it with their own fields.
 */
export interface Refusal<C extends string = string> {
  /** Stable machine-readable reason, e.g. `"gap"` or `"unsupported-version"`. */
  readonly code: C;
  /** One sentence a person understands. Not stable: do not match on it. */
  readonly message: string;
}

/**
 * Success carrying `value`, or a refusal carrying `error`.
 *
 * @example
 * ```ts
 * import { type Result, ok, err } from "@papercusp/chat-protocol";
 * function half(n: number): Result<number, { code: "odd"; message: string }> {
 *   return n % 2 === 0 ? ok(n / 2) : err({ code: "odd", message: `${n} is odd` });
 * }
 * ```
 */
export type Result<T, E extends Refusal = Refusal> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: E };

/** Build a success {@link Result}. */
export function ok<T>(value: T): { readonly ok: true; readonly value: T } {
  return { ok: true, value };
}

/** Build a failed {@link Result} carrying the refusal `error`. */
export function err<E extends Refusal>(error: E): { readonly ok: false; readonly error: E } {
  return { ok: false, error };
}
