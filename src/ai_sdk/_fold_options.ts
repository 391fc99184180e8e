/**
 * Reading `FoldOptions` once, without throwing: each field is read one
 * time inside a guard, each limit checked (a limit that is not a number ≥ 0
 * keeps its default and is reported, never removes the bound).
 *
 * @module
 */
import { readOptions } from "../_internal/fields.ts";
import { limitOption } from "./_limits.ts";

/** Default of `FoldOptions.maxParts`. */
export const DEFAULT_MAX_PARTS = 100_000;
/** Default of `FoldOptions.maxChars` (64 Mi UTF-16 code units). */
export const DEFAULT_MAX_CHARS = 64 * 1024 * 1024;
/** Default of `FoldOptions.maxIssues`. */
export const DEFAULT_MAX_ISSUES = 1_000;

/** The options a fold runs with, and what was wrong with the ones given. */
export interface FoldSettings {
  /** `options.message` as read (checked later, by the persisted-message reader). */
  readonly message: unknown;
  /** `options.replay === true`. */
  readonly replay: boolean;
  /** Most parts. */
  readonly maxParts: number;
  /** Most appended UTF-16 code units. */
  readonly maxChars: number;
  /** Most issues kept. */
  readonly maxIssues: number;
  /** One sentence per unusable option (reported as `invalid-option` issues). */
  readonly problems: readonly string[];
}

const KEYS = ["message", "replay", "maxParts", "maxChars", "maxIssues"] as const;

/** Read `options` (untrusted: any value) into {@link FoldSettings}. Never throws. */
export function readFoldOptions(options: unknown): FoldSettings {
  const problems: string[] = [];
  const o = readOptions(options, KEYS);
  if (o === null) problems.push("options could not be read; the defaults apply");
  const limit = (key: "maxParts" | "maxChars" | "maxIssues", fallback: number): number => {
    const v = limitOption(o === null ? undefined : o[key], fallback);
    if (v !== null) return v;
    problems.push(`options.${key} is not a number ≥ 0; the default ${fallback} applies`);
    return fallback;
  };
  return {
    message: o === null ? undefined : o.message,
    replay: o !== null && o.replay === true,
    maxParts: limit("maxParts", DEFAULT_MAX_PARTS),
    maxChars: limit("maxChars", DEFAULT_MAX_CHARS),
    maxIssues: limit("maxIssues", DEFAULT_MAX_ISSUES),
    problems,
  };
}
