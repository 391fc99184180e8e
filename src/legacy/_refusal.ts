/**
 * Internal: how the legacy adapter builds its refusals.
 *
 * @module
 */
import { err } from "../result.ts";
import type { LegacyRefusal, LegacyRefusalCode } from "./types.ts";

/** `JSON.stringify` of `s` cut to `max` UTF-16 code units (with `…` when cut): untrusted text in a message, bounded. */
export function clip(s: string, max = 80): string {
  return JSON.stringify(s.length > max ? `${s.slice(0, max)}…` : s);
}

/** A failed result carrying a {@link LegacyRefusal} (`type` only when given). */
export function refuse(
  code: LegacyRefusalCode,
  message: string,
  type?: string,
): { readonly ok: false; readonly error: LegacyRefusal } {
  const error: LegacyRefusal = type === undefined ? { code, message } : { code, message, type };
  return err(error);
}
