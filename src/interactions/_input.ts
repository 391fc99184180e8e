/**
 * Reading the resolver's untrusted input: shape checks, bounded private
 * copies (each field read once), metadata patches, and the refusals for
 * malformed input.
 *
 * @module
 */
import { err, ok, type Result } from "../result.ts";
import { isStorableText } from "../_internal/guards.ts";
import { AUTHORITY_FIELDS, isSystemCaller } from "./fence.ts";
import type { ValidationIssue } from "./standard_schema.ts";
import type {
  InteractionAuthority,
  InteractionCaller,
  InteractionRefusal,
  SchemaRef,
  SystemAuthority,
} from "./types.ts";

/** Longest accepted id (interaction, submission, schema) in characters. */
export const MAX_ID_LENGTH = 200;
/** Most metadata keys on one record. */
export const MAX_METADATA_KEYS = 64;
/**
 * Longest metadata value and server cancel reason, in UTF-16 code units
 * (metadata keys are bounded by {@link MAX_ID_LENGTH}).
 */
export const MAX_METADATA_VALUE_LENGTH = 1000;
/** Default bound on a validated answer, in UTF-8 bytes of its JSON text. */
export const DEFAULT_MAX_ANSWER_BYTES = 65_536;
/** Deepest nesting of arrays and objects accepted in a validated answer. */
export const MAX_ANSWER_DEPTH = 64;

/** A non-array object whose prototype is `Object.prototype` or `null` (not a class instance). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * An id (interaction, submission, schema, authority field, metadata key):
 * 1 to {@link MAX_ID_LENGTH} UTF-16 code units of storable text (no NUL, no
 * lone surrogate: see `isStorableText`).
 */
export function validId(v: unknown): v is string {
  return typeof v === "string" && v.length > 0 && v.length <= MAX_ID_LENGTH && isStorableText(v);
}

/** A metadata value or reason: at most {@link MAX_METADATA_VALUE_LENGTH} code units of storable text. */
export function validText(v: unknown): v is string {
  return typeof v === "string" && v.length <= MAX_METADATA_VALUE_LENGTH && isStorableText(v);
}

export function validSchemaRef(v: unknown): v is SchemaRef {
  return isPlainObject(v) && validId(v.id) && Number.isSafeInteger(v.revision) &&
    (v.revision as number) >= 1;
}

export function validAuthority(v: unknown): v is InteractionAuthority {
  return isPlainObject(v) &&
    AUTHORITY_FIELDS.every((k) => validId((v as Record<string, unknown>)[k]));
}

export function copyAuthority(a: InteractionAuthority): InteractionAuthority {
  return {
    conversationId: a.conversationId,
    principalId: a.principalId,
    tenantId: a.tenantId,
    customerId: a.customerId,
    publicOwnerId: a.publicOwnerId,
  };
}

/** A well-formed system caller (`kind: "system"`, non-empty `actorId` and `tenantId`). */
export function validSystemCaller(v: unknown): v is SystemAuthority {
  return isPlainObject(v) && v.kind === "system" && validId(v.actorId) && validId(v.tenantId);
}

/** A well-formed caller: the bound user's five fields, or a system caller. */
export function validCaller(v: unknown): v is InteractionCaller {
  return validSystemCaller(v) || validAuthority(v);
}

/** A private copy of a checked caller (each field read once more, from the checked object). */
export function copyCaller(c: InteractionCaller): InteractionCaller {
  return isSystemCaller(c)
    ? { kind: "system", actorId: c.actorId, tenantId: c.tenantId }
    : copyAuthority(c);
}

/** Checked, copied `id` and `caller` of a call, and its submission id (`""` when not resolving). */
export interface CheckedCall {
  readonly id: string;
  readonly caller: InteractionCaller;
  readonly submissionId: string;
}

/**
 * Runs `f`, which reads untrusted input: a throwing getter or proxy trap is
 * refused `invalid-request` instead of escaping.
 */
export function readingInput<T>(
  f: () => Result<T, InteractionRefusal>,
): Result<T, InteractionRefusal> {
  try {
    return f();
  } catch {
    return invalidRequest("the input could not be read (a getter or proxy trap threw)");
  }
}

/** What an untrusted `CardResponse` asks for, or its `invalid-answer` refusal. */
export function responseIntent(
  r: unknown,
  id: string,
): Result<{ action: "submit" | "decline" | "cancel"; value: unknown }, InteractionRefusal> {
  if (!isPlainObject(r)) return invalidAnswer([{ message: "the response must be an object" }]);
  if (r.correlationId !== id) {
    return invalidAnswer([{ message: "correlationId does not match", path: ["correlationId"] }]);
  }
  const action = r.action;
  if (action === "submit") {
    const value = r.value;
    return isPlainObject(value)
      ? ok({ action, value })
      : invalidAnswer([{ message: "value must be an object", path: ["value"] }]);
  }
  if (action === "decline" || action === "cancel") return ok({ action, value: undefined });
  return invalidAnswer([{ message: "action must be submit, decline or cancel", path: ["action"] }]);
}

/** A fresh copy of a metadata patch (own keys, each value read once), or `null` if malformed. */
export function copyPatch(patch: Record<string, unknown>): Record<string, string | null> | null {
  const out: Record<string, string | null> = {};
  for (const key of Object.keys(patch)) {
    const v = patch[key];
    if (v !== null && typeof v !== "string") return null;
    Object.defineProperty(out, key, {
      value: v,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/**
 * `base` with `patch` applied (string sets, `null` deletes), or `null` when
 * a key is not a {@link validId}, a value not a {@link validText}, or the result has more than
 * {@link MAX_METADATA_KEYS} keys.
 */
export function mergeMetadata(
  base: Readonly<Record<string, string>>,
  patch: Readonly<Record<string, string | null>>,
): Record<string, string> | null {
  const out = new Map<string, string>(Object.entries(base));
  for (const key of Object.keys(patch)) {
    const v = patch[key];
    if (!validId(key)) return null;
    if (v === null) out.delete(key);
    else if (validText(v)) out.set(key, v);
    else return null;
  }
  if (out.size > MAX_METADATA_KEYS) return null;
  return Object.fromEntries(out);
}

export function invalidRequest(message: string): { ok: false; error: InteractionRefusal } {
  return err({ code: "invalid-request", message });
}

export function invalidAnswer(issues: ValidationIssue[]): { ok: false; error: InteractionRefusal } {
  return err({ code: "invalid-answer", message: "the answer is not acceptable", issues });
}

/** JSON copy bounded by `max` characters; `null` when not JSON-safe or too big. */
export function jsonCopy(value: unknown, max: number): unknown | null {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return null;
  }
  if (text === undefined || text.length > max) return null;
  return JSON.parse(text);
}
