/**
 * Committing one change through the store's fenced `transact`: the intent,
 * the record it produces, the callback's decision, and the lost-ack rule
 * (exactly one read; recovered only when the WHOLE submission is found
 * stored: id, action, source, reason, actor and payload; for a schema or
 * metadata change, this call's change id at the next revision).
 *
 * @module
 */
import { isRecord } from "../_internal/guards.ts";
import { err, ok, type Result } from "../result.ts";
import { sameSchema } from "./fence.ts";
import { mergeMetadata } from "./_input.ts";
import { fenceToRefusal, stateRefusal, transitionFor } from "./_outcomes.ts";
import { checkedFence, sameMetadata } from "./_store_answers.ts";
import type { ResolvedOutcome } from "./resolver.ts";
import type {
  InteractionCaller,
  InteractionRecordV1,
  InteractionRefusal,
  InteractionStore,
  NeedsReconciliationRefusal,
  SchemaRef,
  StoredSubmission,
  StoreRead,
  SubmissionSource,
  TransactAction,
  TransactDecision,
} from "./types.ts";

/** The change a call asks for. */
export type Intent =
  | {
    readonly kind: "resolve";
    readonly action: StoredSubmission["action"];
    readonly value?: unknown;
    readonly reason?: string;
    readonly source: SubmissionSource;
    readonly submissionId: string;
    /** The system actor's identity, when the host acts. */
    readonly actorId?: string;
  }
  | { readonly kind: "schema"; readonly schema: SchemaRef; readonly changeId: string }
  | {
    readonly kind: "metadata";
    readonly patch: Readonly<Record<string, string | null>>;
    readonly changeId: string;
  };

/** The transaction action an intent needs authority for. */
export function actionOf(intent: Intent): TransactAction {
  if (intent.kind === "schema") return "change-schema";
  if (intent.kind === "metadata") return "update-metadata";
  if (intent.action === "expire") return "expire";
  return intent.action === "cancel" && intent.source === "server" ? "cancel" : "answer";
}

const STATUS_OF: Record<StoredSubmission["action"], InteractionRecordV1["status"]> = {
  submit: "submitted",
  decline: "declined",
  cancel: "cancelled",
  expire: "expired",
};

/** The next record for `intent` on top of `current`, at store time `now` (epoch ms). */
export function nextRecord(
  current: InteractionRecordV1,
  intent: Intent,
  now: number,
): InteractionRecordV1 {
  const revision = current.revision + 1;
  if (intent.kind === "schema") {
    const change = { changeId: intent.changeId, kind: "schema" } as const;
    return { ...current, revision, schema: intent.schema, change };
  }
  if (intent.kind === "metadata") {
    return {
      ...current,
      revision,
      metadata: mergeMetadata(current.metadata, intent.patch) ?? current.metadata,
      change: { changeId: intent.changeId, kind: "metadata" },
    };
  }
  const submission: StoredSubmission = {
    submissionId: intent.submissionId,
    action: intent.action,
    ...(intent.action === "submit" ? { value: intent.value } : {}),
    principalId: current.authority.principalId,
    ...(intent.actorId !== undefined ? { actorId: intent.actorId } : {}),
    at: now,
    source: intent.source,
    ...(intent.reason !== undefined ? { reason: intent.reason } : {}),
  };
  return {
    ...current,
    revision,
    status: STATUS_OF[intent.action],
    ...(intent.action === "expire" ? { expiresAt: now } : {}),
    submission,
  };
}

/**
 * A canonical text of JSON data (object keys sorted, `undefined` members
 * dropped): equal for equal data however a database reordered its keys.
 * `null` when it cannot be computed (a hostile or cyclic value).
 */
export function payloadDigest(value: unknown): string | null {
  const walk = (v: unknown): string => {
    if (v === undefined) return "";
    if (v === null || typeof v !== "object") return JSON.stringify(v) ?? "";
    if (Array.isArray(v)) return `[${v.map(walk).join(",")}]`;
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o).filter((k) => o[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${walk(o[k])}`).join(",")}}`;
  };
  try {
    return walk(value);
  } catch {
    return null;
  }
}

/** Does `record` show that `intent` (validated on top of `from`) is stored? */
export function storedBy(
  record: InteractionRecordV1,
  intent: Intent,
  from: InteractionRecordV1,
): boolean {
  if (intent.kind === "resolve") {
    const s = record.submission;
    if (!isRecord(s)) return false;
    const digest = payloadDigest(s.value);
    return s.submissionId === intent.submissionId && s.action === intent.action &&
      s.source === intent.source && s.reason === intent.reason && s.actorId === intent.actorId &&
      digest !== null && digest === payloadDigest(intent.value);
  }
  // Non-resolving changes: this call's change id, at the very next revision.
  const change = record.change;
  if (!isRecord(change) || change.changeId !== intent.changeId || change.kind !== intent.kind) {
    return false;
  }
  if (record.revision !== from.revision + 1) return false;
  if (intent.kind === "schema") return sameSchema(record.schema, intent.schema);
  const want = mergeMetadata(from.metadata, intent.patch);
  return want !== null && sameMetadata(want, record.metadata);
}

/** The callback's decision for `intent` on the fenced `current` record. */
function decide(
  current: InteractionRecordV1,
  now: number,
  intent: Intent,
  expectedRevision: number,
  expectedSchema: SchemaRef,
): TransactDecision<InteractionRefusal | null> {
  // Defence in depth: the store fenced all of this already.
  const late = stateRefusal(current, now);
  if (late !== null) return { kind: "read", result: late };
  const moved = !sameSchema(current.schema, expectedSchema)
    ? "schema-changed"
    : current.revision !== expectedRevision
    ? "stale-revision"
    : null;
  if (moved !== null) {
    const result = fenceToRefusal(
      { code: moved, message: "", current },
      expectedRevision,
      expectedSchema,
    );
    return { kind: "read", result };
  }
  const next = nextRecord(current, intent, now);
  return { kind: "write", next, transition: transitionFor(next), result: null };
}

/**
 * Commit `intent` for `caller` on top of `validatedAgainst` through
 * `store.transact`. The store must call back exactly once: a second
 * invocation is refused a write (never a second advance) and, like no
 * invocation at all, a throw, or a malformed answer, makes the outcome
 * uncertain: then exactly one `read` decides (recovered, or
 * `needs-reconciliation`); the write is never retried.
 */
export async function commit(
  store: InteractionStore,
  read: (id: string, caller: InteractionCaller) => Promise<StoreRead | null>,
  id: string,
  caller: InteractionCaller,
  validatedAgainst: InteractionRecordV1,
  intent: Intent,
): Promise<Result<ResolvedOutcome, InteractionRefusal>> {
  const expectedRevision = validatedAgainst.revision;
  const expectedSchema = validatedAgainst.schema;
  type R = InteractionRefusal | null;
  let calls = 0;
  let decided: TransactDecision<R> | undefined;
  const callback = (current: InteractionRecordV1, ctx: { now: number }): TransactDecision<R> => {
    if (++calls > 1) return { kind: "read", result: null };
    decided = decide(current, ctx.now, intent, expectedRevision, expectedSchema);
    return decided;
  };
  const uncertain = () => readBack(read, id, caller, validatedAgainst, intent);
  let outcome: unknown;
  try {
    outcome = await store.transact(
      { id, caller, action: actionOf(intent), expectedRevision, expectedSchema },
      callback,
    );
  } catch {
    return uncertain();
  }
  if (calls === 0) {
    const fence = checkedFence(outcome, id);
    if (fence !== null) return err(fenceToRefusal(fence, expectedRevision, expectedSchema));
  }
  // Anything but "called back once, then acknowledged": the store broke its
  // contract and this worker cannot know what was stored. One read decides.
  if (calls !== 1 || decided === undefined || !isRecord(outcome) || outcome.ok !== true) {
    return uncertain();
  }
  if (decided.kind === "read") return err(decided.result as InteractionRefusal);
  return ok({ outcome: "committed", record: decided.next, transition: decided.transition });
}

/** Uncertain acknowledgement: exactly one read, never a retried write. */
async function readBack(
  read: (id: string, caller: InteractionCaller) => Promise<StoreRead | null>,
  id: string,
  caller: InteractionCaller,
  from: InteractionRecordV1,
  intent: Intent,
): Promise<Result<ResolvedOutcome, InteractionRefusal>> {
  const submissionId = intent.kind === "resolve" ? intent.submissionId : intent.changeId;
  const r = await read(id, caller);
  const observed = r !== null && r.ok ? r.record : undefined;
  if (observed !== undefined && storedBy(observed, intent, from)) {
    return ok({ outcome: "recovered", record: observed, transition: transitionFor(observed) });
  }
  const refusal: NeedsReconciliationRefusal = {
    code: "needs-reconciliation",
    message: "the store's acknowledgement was lost and the outcome is unknown",
    submissionId,
    ...(observed !== undefined ? { observed } : {}),
  };
  return err(refusal);
}
