/**
 * What a host store answers, checked before the resolver trusts it: record
 * shapes, reads, fence refusals.
 *
 * @module
 */
import { isRecord } from "../_internal/guards.ts";
import { isSystemCaller, sameAuthority } from "./fence.ts";
import { validAuthority, validSchemaRef } from "./_input.ts";
import type { FenceRefusal, InteractionCaller, InteractionRecordV1, StoreRead } from "./types.ts";

export const STATUSES: readonly string[] = [
  "pending",
  "submitted",
  "declined",
  "cancelled",
  "expired",
];
export const FENCE_CODES: readonly string[] = [
  "not-found",
  "unauthorized",
  "resolved",
  "cancelled",
  "expired",
  "schema-changed",
  "stale-revision",
];

/**
 * Does a store-returned value look like the version-1 record `id`? A store
 * that breaks its contract (returns garbage) must not crash the resolver or
 * make it report a fabricated state.
 */
export function looksLikeRecord(v: unknown, id: string): v is InteractionRecordV1 {
  if (!isRecord(v) || v.v !== 1 || v.id !== id) return false;
  if (!Number.isSafeInteger(v.revision) || (v.revision as number) < 1) return false;
  if (typeof v.status !== "string" || !STATUSES.includes(v.status)) return false;
  if (!validAuthority(v.authority) || !validSchemaRef(v.schema)) return false;
  if (!isRecord(v.card) || !isRecord(v.metadata) || typeof v.createdAt !== "number") return false;
  if (v.expiresAt !== null && typeof v.expiresAt !== "number") return false;
  const s = v.submission;
  if (v.status === "pending") return s === undefined;
  return isRecord(s) && typeof s.submissionId === "string";
}

/** A well-formed `StoreRead` for `id` and `caller`, or `null` (a contract breach). */
export function checkedRead(r: unknown, id: string, caller: InteractionCaller): StoreRead | null {
  if (!isRecord(r)) return null;
  if (r.ok === false) {
    return r.code === "not-found" || r.code === "unauthorized" ? { ok: false, code: r.code } : null;
  }
  if (r.ok !== true || typeof r.now !== "number" || !Number.isFinite(r.now)) return null;
  if (!looksLikeRecord(r.record, id)) return null;
  // Defence in depth: a record bound to another authority is never shown.
  const bound = r.record.authority;
  const mine = isSystemCaller(caller)
    ? bound.tenantId === caller.tenantId
    : sameAuthority(bound, caller);
  if (!mine) return { ok: false, code: "unauthorized" };
  return { ok: true, record: r.record, now: r.now };
}

/**
 * A well-formed fence refusal whose typed refusal can be built without
 * inventing anything, or `null`.
 */
export function checkedFence(o: unknown, id: string): FenceRefusal | null {
  if (!isRecord(o) || o.ok !== false || !isRecord(o.error)) return null;
  const e = o.error;
  if (typeof e.code !== "string" || !FENCE_CODES.includes(e.code)) return null;
  if (e.code === "not-found" || e.code === "unauthorized") {
    return { code: e.code, message: String(e.message ?? "") };
  }
  const current = e.current;
  if (!looksLikeRecord(current, id)) return null;
  const fits = e.code === "resolved"
    ? current.status === "submitted" || current.status === "declined"
    : e.code === "cancelled"
    ? current.status === "cancelled"
    : e.code === "expired"
    ? current.status === "expired" ||
      (current.status === "pending" && typeof current.expiresAt === "number")
    : current.status === "pending";
  return fits ? { code: e.code as FenceStateCode, message: "", current } : null;
}

export type FenceStateCode =
  | "resolved"
  | "cancelled"
  | "expired"
  | "schema-changed"
  | "stale-revision";

/** Order-insensitive equality of two metadata maps (a database may reorder keys). */
export function sameMetadata(a: Readonly<Record<string, string>>, b: unknown): boolean {
  if (!isRecord(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && b[k] === a[k]);
}
