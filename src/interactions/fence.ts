/**
 * Pure helpers a store runs inside its critical section: authority
 * comparison, effective (clock-aware) status, and {@link evaluateFence},
 * the single ordered check every `InteractionStore.transact` must apply
 * to the *current* row before it calls back.
 *
 * @module
 */
import {
  type EffectiveStatus,
  type FenceRefusal,
  type InteractionAuthority,
  type InteractionCaller,
  type InteractionRecordV1,
  type SchemaRef,
  SYSTEM_ACTIONS,
  type SystemAuthority,
  type TransactRequest,
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

/** `true` when `caller` is the host's {@link SystemAuthority} (not a user). */
export function isSystemCaller(caller: InteractionCaller): caller is SystemAuthority {
  return (caller as { kind?: unknown }).kind === "system";
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
 * Whether `caller` may perform `action` on `record`, given `authorized`: what
 * the store read under its fence (for a user caller, the record's bound
 * authority is still granted; for a system caller, the caller's system grant
 * for the record's tenant exists). A user must equal the bound authority on
 * all five fields and may not `expire`; a system caller must act in the
 * record's tenant and only `cancel` or `expire`.
 */
export function callerMayAct(
  record: InteractionRecordV1,
  caller: InteractionCaller,
  action: TransactRequest["action"],
  authorized: boolean,
): boolean {
  if (!authorized) return false;
  if (isSystemCaller(caller)) {
    return caller.tenantId === record.authority.tenantId && SYSTEM_ACTIONS.includes(action);
  }
  return action !== "expire" && sameAuthority(record.authority, caller);
}

/**
 * The fence, in contract order. `current` is the row read inside the
 * critical section (`undefined` when absent), `authorized` is what the store
 * read under its fence about the caller's grant (see {@link callerMayAct})
 * and `now` the store's clock (epoch ms). Returns `null` when the callback
 * may run.
 *
 * Order: `not-found`, `unauthorized`, `resolved` (submitted/declined),
 * `cancelled`, `expired`, `schema-changed`, `stale-revision`.
 */
export function evaluateFence(
  current: InteractionRecordV1 | undefined,
  request: TransactRequest,
  authorized: boolean,
  now: number,
): FenceRefusal | null {
  if (current === undefined) return { code: "not-found", message: "no such interaction" };
  if (!callerMayAct(current, request.caller, request.action, authorized)) {
    return { code: "unauthorized", message: "the caller may not act on this interaction" };
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
