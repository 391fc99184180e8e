/**
 * Record checks shared by the `TurnRecovery` collaborators: id limits, shape
 * guards for what a store returns, outcome copies, lease checks and the
 * refusal builder.
 *
 * @module
 */
import { isRecord, isStorableText } from "../_internal/guards.ts";
import { jsonValueCopy } from "../_internal/json_value.ts";
import { err } from "../result.ts";
import type {
  EffectOutcome,
  EffectRecord,
  RecoveryError,
  RecoveryErrorCode,
  TurnRecord,
} from "./types.ts";

/** Longest accepted id (turn, conversation, effect, principal), in UTF-16 code units. */
export const MAX_RECOVERY_ID_LENGTH = 512;
/** Most effects one turn may declare. */
export const MAX_TURN_EFFECTS = 1024;
/** Longest reason or error text copied into a record or a refusal, in UTF-16 code units. */
export const MAX_DETAIL_LENGTH = 1000;

/** A typed refusal of `TurnRecovery`. */
export function refuse(
  code: RecoveryErrorCode,
  message: string,
  extra: Omit<RecoveryError, "code" | "message"> = {},
): { readonly ok: false; readonly error: RecoveryError } {
  return err({ code, message, ...extra });
}

/**
 * A non-empty string of at most {@link MAX_RECOVERY_ID_LENGTH} code units of
 * storable text (no NUL, no lone surrogate: `isStorableText`), so every
 * store keeps it as given.
 */
export function validId(id: unknown): id is string {
  return typeof id === "string" && id.length > 0 && id.length <= MAX_RECOVERY_ID_LENGTH &&
    isStorableText(id);
}

/** Does a store answer look like the turn record `turnId`? */
export function isTurnRecord(x: unknown, turnId: string): x is TurnRecord {
  return isRecord(x) && x.turnId === turnId && typeof x.conversationId === "string" &&
    typeof x.status === "string" && Number.isSafeInteger(x.revision) &&
    Array.isArray(x.effectIds);
}

/** Does a store answer look like the effect record `turnId`/`effectId`? */
export function isEffectRecord(x: unknown, turnId: string, effectId: string): x is EffectRecord {
  return isRecord(x) && x.turnId === turnId && x.effectId === effectId &&
    typeof x.state === "string" && Number.isSafeInteger(x.revision);
}

/**
 * A usable stored outcome. `value` may be absent: a JSON store drops
 * `value: undefined` (a tool that returned nothing), and that is still a result.
 */
function isOutcome(x: unknown): x is EffectOutcome {
  return isRecord(x) && (x.ok === true || (x.ok === false && typeof x.error === "string"));
}

/** A completed record whose stored outcome is usable (reuse it, never re-run). */
export function hasOutcome(
  e: EffectRecord | null | undefined,
): e is EffectRecord & { readonly outcome: EffectOutcome } {
  return e?.state === "completed" && isOutcome(e.outcome);
}

/** Admitted without a usable stored outcome: in flight, unknown, or unreadable. */
export function unresolved(e: EffectRecord | null): boolean {
  return e !== null && e.state !== "claimed" && e.state !== "not-run" && !hasOutcome(e);
}

/**
 * `true` while the owner's lease on `e` runs at `now` (epoch ms). A record
 * without a finite `leaseUntil` has no live lease.
 */
export function leaseLive(e: EffectRecord, now: number): boolean {
  const until = e.leaseUntil;
  return typeof until === "number" && Number.isFinite(until) && now < until;
}

/**
 * The one contract for an outcome every store keeps as given: `value` is
 * absent, `undefined` (no value) or JSON data (no bigint, cycle, `NaN`,
 * class instance, …: see `jsonValueProblem`); `error` is storable text.
 * A private JSON copy of `value` (read once), or why `value` is refused
 * (`problem`), or `null` when `raw` is no outcome at all.
 */
export function readOutcome(
  raw: unknown,
): { readonly outcome: EffectOutcome } | { readonly problem: string } | null {
  const shape = copyShape(raw);
  if (shape === null) return null;
  if (!shape.ok) {
    return isStorableText(shape.error)
      ? { outcome: shape }
      : { problem: "outcome.error holds a NUL or a lone surrogate" };
  }
  return valueOutcome(shape.value);
}

/** `{ ok: true, value }` with a JSON copy of `value`, or why it is not JSON data. */
export function valueOutcome(
  value: unknown,
): { readonly outcome: EffectOutcome } | { readonly problem: string } {
  if (value === undefined) return { outcome: { ok: true, value } };
  const c = jsonValueCopy(value, "outcome.value");
  if ("what" in c) return { problem: `${c.path} is ${c.what}, not JSON data` };
  return { outcome: { ok: true, value: c.copy } };
}

/**
 * A private copy of a caller's outcome (each field read once), or `null`
 * unless it is `{ ok: true, value }` (own `value`) or `{ ok: false, error: string }`;
 * `null` too when reading it throws.
 */
function copyShape(raw: unknown): EffectOutcome | null {
  try {
    if (!isRecord(raw)) return null;
    const ok = raw.ok;
    if (ok === true) return Object.hasOwn(raw, "value") ? { ok: true, value: raw.value } : null;
    const error = ok === false ? raw.error : undefined;
    return typeof error === "string" ? { ok: false, error } : null;
  } catch {
    return null;
  }
}
