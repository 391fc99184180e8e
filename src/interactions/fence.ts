/**
 * Pure helpers a store runs inside its critical section: authority
 * comparison, effective (clock-aware) status, and {@link evaluateFence},
 * the single ordered check every `InteractionStore.transact` must apply
 * to the *current* row before it calls back.
 *
 * @module
 */
import type {
  EffectiveStatus,
  FenceRefusal,
  InteractionAuthority,
  InteractionRecordV1,
  SchemaRef,
  TransactRequest,
} from "./types.ts";

/** The five authority fields, in a fixed order. */
export const AUTHORITY_FIELDS: readonly (keyof InteractionAuthority)[] = [
  "conversationId",
  "principalId",
  "tenantId",
  "customerId",
  "publicOwnerId",
];

/** `true` when `a` and `b` are equal on all five authority fields. */
export function sameAuthority(a: InteractionAuthority, b: InteractionAuthority): boolean {
  return AUTHORITY_FIELDS.every((k) => a[k] === b[k]);
}

/** `true` when two schema references name the same id and revision. */
export function sameSchema(a: SchemaRef, b: SchemaRef): boolean {
  return a.id === b.id && a.revision === b.revision;
}

/**
 * The status a reader sees at `now` (epoch ms, store clock): a pending record
 * with `expiresAt !== null && now >= expiresAt` reads as `expired`; terminal
 * statuses never change.
 */
export function effectiveStatus(record: InteractionRecordV1, now: number): EffectiveStatus {
  if (record.status !== "pending") return record.status;
  if (record.expiresAt !== null && now >= record.expiresAt) return "expired";
  return "pending";
}

/**
 * The fence, in contract order. `current` is the row read inside the
 * critical section (`undefined` when absent), `authorized` is whether the
 * store still authorises the record's bound authority (not revoked) and `now`
 * the store's clock (epoch ms). Returns `null` when the callback may run.
 *
 * Order: `not-found`, `unauthorized` (revoked, or caller ≠ bound authority),
 * `resolved` (submitted/declined), `cancelled`, `expired`, `schema-changed`,
 * `stale-revision`.
 */
export function evaluateFence(
  current: InteractionRecordV1 | undefined,
  request: TransactRequest,
  authorized: boolean,
  now: number,
): FenceRefusal | null {
  if (current === undefined) return { code: "not-found", message: "no such interaction" };
  if (!authorized || !sameAuthority(current.authority, request.caller)) {
    return { code: "unauthorized", message: "the caller may not answer this interaction" };
  }
  if (current.status === "submitted" || current.status === "declined") {
    return { code: "resolved", message: "the interaction is already resolved", current };
  }
  if (current.status === "cancelled") {
    return { code: "cancelled", message: "the interaction was cancelled", current };
  }
  if (effectiveStatus(current, now) === "expired") {
    return { code: "expired", message: "the interaction expired", current };
  }
  if (!sameSchema(current.schema, request.expectedSchema)) {
    return { code: "schema-changed", message: "the answer schema changed", current };
  }
  if (current.revision !== request.expectedRevision) {
    return {
      code: "stale-revision",
      message: "the interaction changed since it was read",
      current,
    };
  }
  return null;
}

/**
 * Checks a store must apply to a callback's `next` record before writing it:
 * same id, format version 1, revision exactly `current.revision + 1`, the
 * same bound authority and `createdAt`. Returns a reason string, or `null`
 * when `next` is acceptable.
 */
export function nextRecordProblem(
  current: InteractionRecordV1,
  next: InteractionRecordV1,
): string | null {
  if (next.v !== 1) return "next.v must be 1";
  if (next.id !== current.id) return "next.id must equal the current id";
  if (next.revision !== current.revision + 1) return "next.revision must be current + 1";
  if (!sameAuthority(next.authority, current.authority)) return "the bound authority never changes";
  if (next.createdAt !== current.createdAt) return "createdAt never changes";
  return null;
}
