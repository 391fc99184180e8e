/**
 * Small v1-specific guards shared by the v1 parser and fold (internal). The
 * generic structural guards (`isRecord`, ...) live in `../_internal/guards.ts`.
 *
 * @module
 */
import type { CardResolution, ChatUsage } from "./types.ts";

/** A string with at least one character. */
export function isNonEmpty(v: unknown): v is string {
  return typeof v === "string" && v.length > 0;
}

/** A number ≥ 0 that is not NaN or Infinity. */
export function isFiniteNonNeg(v: unknown): v is number {
  return typeof v === "number" && v >= 0 && v !== Infinity;
}

/** The card resolutions a `card_closed` event may carry. */
export const RESOLUTIONS: ReadonlySet<string> = new Set<CardResolution>([
  "submitted",
  "declined",
  "cancelled",
  "expired",
  "interrupted",
]);

/** The {@link ChatUsage} fields: each optional, a finite number ≥ 0. */
export const USAGE_KEYS: readonly (keyof ChatUsage)[] = Object.freeze(
  ["totalTokens", "inputTokens", "outputTokens", "costUsd"] as const,
);
