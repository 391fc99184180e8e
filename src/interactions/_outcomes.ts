/**
 * The resolver's answers built from records: the open-card snapshot, the
 * workflow transition of a terminal record, and the typed refusals.
 *
 * @module
 */
import type { OpenCardSnapshot } from "../cards/types.ts";
import type {
  FenceRefusal,
  InteractionRecordV1,
  InteractionRefusal,
  NotFoundRefusal,
  SchemaRef,
  UnauthorizedRefusal,
  WorkflowTransition,
} from "./types.ts";

/** The wire snapshot of an open card (no `timeoutMs`). */
export function snapshotOf(record: InteractionRecordV1): OpenCardSnapshot {
  const { timeoutMs: _drop, ...card } = record.card;
  return { ...card, correlationId: record.id, createdAt: record.createdAt };
}

/** The workflow transition a terminal record commits with (`null` while pending). */
export function transitionFor(record: InteractionRecordV1): WorkflowTransition | null {
  const s = record.submission;
  if (record.status === "pending" || s === undefined) return null;
  const kind = record.status === "submitted"
    ? "answered"
    : record.status === "declined"
    ? "declined"
    : record.status === "expired"
    ? "expired"
    : "cancelled";
  return {
    id: `${record.id}@${record.revision}`,
    interactionId: record.id,
    kind,
    revision: record.revision,
    submissionId: s.submissionId,
    at: s.at,
  };
}

/** The typed refusal for a fence refusal of a change validated at `expectedRevision`/`expectedSchema`. */
export function fenceToRefusal(
  f: FenceRefusal,
  expectedRevision: number,
  expectedSchema: SchemaRef,
): InteractionRefusal {
  switch (f.code) {
    case "not-found":
      return { code: "not-found", message: "no such interaction" };
    case "unauthorized":
      return { code: "unauthorized", message: "the caller may not act on this interaction" };
    case "resolved":
    case "cancelled":
      return stateRefusal(f.current, Number.NEGATIVE_INFINITY) ??
        { code: "cancelled", message: "the interaction no longer accepts answers" };
    case "expired":
      return expiredRefusal(f.current);
    case "schema-changed":
      return {
        code: "schema-changed",
        message: "the answer schema changed after validation",
        expected: expectedSchema,
        current: f.current.schema,
      };
    case "stale-revision":
      return {
        code: "stale-revision",
        message: "the interaction changed after validation",
        expected: expectedRevision,
        current: f.current.revision,
      };
  }
}

/** The refusal for a record that no longer accepts answers at `now`, or `null`. */
export function stateRefusal(record: InteractionRecordV1, now: number): InteractionRefusal | null {
  const s = record.submission;
  if ((record.status === "submitted" || record.status === "declined") && s !== undefined) {
    return { code: "duplicate", message: "the interaction was already answered", submission: s };
  }
  if (record.status === "cancelled") {
    return s === undefined
      ? { code: "cancelled", message: "the interaction was cancelled" }
      : { code: "cancelled", message: "the interaction was cancelled", submission: s };
  }
  if (record.status === "expired" || (record.expiresAt !== null && now >= record.expiresAt)) {
    return expiredRefusal(record);
  }
  return null;
}

function expiredRefusal(record: InteractionRecordV1): InteractionRefusal {
  return {
    code: "expired",
    message: "the interaction expired",
    expiresAt: record.expiresAt ?? record.submission?.at ?? 0,
  };
}

/** `store-unavailable`. */
export function unavailable(): InteractionRefusal {
  return {
    code: "store-unavailable",
    message: "the store failed; nothing was changed by this call",
  };
}
/** `unknown-schema` for `schema`. */
export function unknownSchema(
  schema: SchemaRef,
  why = "no validator for this schema",
): InteractionRefusal {
  return { code: "unknown-schema", message: why, schema };
}
/** `not-found`. */
export function notFound(): NotFoundRefusal {
  return { code: "not-found", message: "no such interaction" };
}
/** `unauthorized`. */
export function unauthorized(): UnauthorizedRefusal {
  return { code: "unauthorized", message: "the caller may not act on this interaction" };
}
