/**
 * MCP elicitation results (Model Context Protocol `elicitation/create`
 * response): the user accepted (with form `content`), declined, or cancelled
 * (dismissed). The `ElicitationResult` type is the cards module's (MCP
 * `ElicitResult`). {@link parseElicitationResult} checks an untrusted result;
 * the resolver maps accept → submit, decline → decline, cancel → cancel.
 *
 * @module
 */
import type { ElicitationResult } from "../cards/elicitation.ts";
import { isRecord } from "../_internal/guards.ts";
import { err, ok, type Result } from "../result.ts";
import type { ValidationIssue } from "./standard_schema.ts";

/** A primitive form value of an MCP elicitation (string arrays for multi-select). */
export type ElicitationValue = string | number | boolean | string[];

type ElicitationRefusal = {
  readonly ok: false;
  readonly error: { code: "invalid"; message: string; issues: readonly ValidationIssue[] };
};

/** The most content keys accepted in one elicitation result. */
export const MAX_ELICITATION_KEYS = 256;

/**
 * Check an untrusted elicitation result. Refuses (`code: "invalid"`, with
 * issues) anything but an object with `action` one of accept/decline/cancel
 * and, if present, `content` a non-array object of at most
 * {@link MAX_ELICITATION_KEYS} string/number/boolean/string[] values.
 * Returns a fresh copy (own keys only; `__proto__` keys stay plain data).
 * `content` on decline/cancel is dropped. Never throws: a throwing getter or
 * proxy trap is refused like any other malformed value.
 */
export function parseElicitationResult(
  value: unknown,
): Result<
  ElicitationResult,
  { code: "invalid"; message: string; issues: readonly ValidationIssue[] }
> {
  const bad = (message: string, path?: (string | number)[]) =>
    err({
      code: "invalid" as const,
      message: "not an MCP elicitation result",
      issues: [path === undefined ? { message } : { message, path }],
    });
  try {
    return parseUnguarded(value, bad);
  } catch {
    return bad("the elicitation result could not be read (a getter or proxy trap threw)");
  }
}

function parseUnguarded(
  value: unknown,
  bad: (message: string, path?: (string | number)[]) => ElicitationRefusal,
): Result<
  ElicitationResult,
  { code: "invalid"; message: string; issues: readonly ValidationIssue[] }
> {
  if (!isRecord(value)) return bad("the elicitation result must be an object");
  const v = value;
  const action = v.action;
  if (action !== "accept" && action !== "decline" && action !== "cancel") {
    return bad("action must be accept, decline or cancel", ["action"]);
  }
  if (action !== "accept") return ok({ action });
  if (!Object.hasOwn(v, "content") || v.content === undefined) return ok({ action });
  const c = v.content;
  if (!isRecord(c)) {
    return bad("content must be an object", ["content"]);
  }
  const keys = Object.keys(c);
  if (keys.length > MAX_ELICITATION_KEYS) {
    return bad(`content has more than ${MAX_ELICITATION_KEYS} keys`, ["content"]);
  }
  const entries: [string, ElicitationValue][] = [];
  for (const k of keys) {
    const x = c[k];
    if (typeof x === "string" || typeof x === "boolean") entries.push([k, x]);
    else if (typeof x === "number" && Number.isFinite(x)) entries.push([k, x]);
    else if (Array.isArray(x) && x.every((e) => typeof e === "string")) {
      entries.push([k, [...x] as string[]]);
    } else {
      return bad("content values must be string, finite number, boolean or string[]", [
        "content",
        k,
      ]);
    }
  }
  return ok({ action, content: Object.fromEntries(entries) });
}
