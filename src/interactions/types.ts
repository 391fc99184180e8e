/**
 * Types of the interactions module: version-1 interaction records (a card
 * the backend opened and its durable answer), the authority bound at open,
 * workflow transitions, typed refusals, and the {@link InteractionStore}
 * contract a host implements over its own database.
 *
 * @module
 */
import type { CardSpec } from "../cards/types.ts";
import type { Refusal, Result } from "../result.ts";
import type { StandardSchemaV1, ValidationIssue } from "./standard_schema.ts";

/**
 * Who may answer an interaction. The backend binds it from its own session
 * when the card opens; nothing a client renders or submits can change it.
 * An answer is in scope only when the caller's authority equals the bound one
 * on all five fields, and the store still authorises it (not revoked).
 */
export interface InteractionAuthority {
  /** The conversation (chat session) the card belongs to. */
  readonly conversationId: string;
  /** The signed-in user (or service principal) who must answer. */
  readonly principalId: string;
  /** The tenant (workspace / organisation) boundary. */
  readonly tenantId: string;
  /** The paying customer account. */
  readonly customerId: string;
  /** The public owner of the conversation (e.g. the owner of a shared link). */
  readonly publicOwnerId: string;
}

/**
 * The host itself acting on an interaction (a server-side cancel after the
 * user's authority was revoked, an expiry job): a service identity, never a
 * user. The store checks its own system grant for the identity and the
 * record's tenant, under the same fence as a user's answer; it may only
 * cancel and expire (see {@link SYSTEM_ACTIONS}), never answer.
 */
export interface SystemAuthority {
  /** Discriminant: a system actor. */
  readonly kind: "system";
  /** The host service identity, e.g. `"billing-reaper"`. */
  readonly actorId: string;
  /** The tenant it acts in: must equal the record's bound `tenantId`. */
  readonly tenantId: string;
}

/** Who calls: the bound user (an {@link InteractionAuthority}) or the host ({@link SystemAuthority}). */
export type InteractionCaller = InteractionAuthority | SystemAuthority;

/** What a fenced transaction does, so the store can check the caller may do it. */
export type TransactAction = "answer" | "cancel" | "expire" | "change-schema" | "update-metadata";

/** The actions a {@link SystemAuthority} may perform. */
export const SYSTEM_ACTIONS: readonly TransactAction[] = ["cancel", "expire"];

/**
 * Identifies an immutable, server-owned answer schema: the host looks the
 * validator up by `id` and `revision` and never changes a published revision.
 */
export interface SchemaRef {
  /** Schema id, e.g. `"deploy-approval"`. */
  readonly id: string;
  /** Positive integer revision of that schema. */
  readonly revision: number;
}

/**
 * Lifecycle of a stored record. `pending` is the only non-terminal status.
 * `expired` is stored only by a host's explicit expire; a pending record
 * whose `expiresAt` passed also reads as expired without being written.
 */
export type InteractionStatus = "pending" | "submitted" | "declined" | "cancelled" | "expired";

/**
 * Lifecycle as a reader sees it: a `pending` record whose `expiresAt` has
 * passed by the store's clock reads as `expired` (it is never answered).
 */
export type EffectiveStatus = InteractionStatus;

/**
 * Where an answer came from: a rendered card (`answer`), an MCP elicitation
 * (`resolveElicitation`), or the server itself (`cancel`, `expire`).
 */
export type SubmissionSource = "card" | "elicitation" | "server";

/** The durable answer stored on a terminal record. */
export interface StoredSubmission {
  /** Idempotency id of the submission (caller-chosen or a random UUID). */
  readonly submissionId: string;
  /** `submit` (an accepted answer), `decline`, `cancel`, or `expire` (a host's expiry). */
  readonly action: "submit" | "decline" | "cancel" | "expire";
  /** The validated schema *output*, as JSON data (never a lossy conversion); only for `submit`. */
  readonly value?: unknown;
  /** The record's bound principal (from the bound authority, never from the body). */
  readonly principalId: string;
  /** The host service identity, when a {@link SystemAuthority} acted (absent for the user). */
  readonly actorId?: string;
  /** Epoch milliseconds (store clock) when it committed. */
  readonly at: number;
  /** Where it came from. */
  readonly source: SubmissionSource;
  /** Reason given to a server `cancel` or `expire`, at most 1000 UTF-16 code units (absent otherwise). */
  readonly reason?: string;
}

/**
 * Version-1 interaction record: what a host stores per open card, inside its
 * existing card/session boundary. JSON-safe. `revision` starts at 1 and
 * advances by exactly 1 on every stored change (answers, schema changes,
 * metadata changes).
 */
export interface InteractionRecordV1 {
  /** Format version. */
  readonly v: 1;
  /** Interaction id; equals the card's `correlationId`. */
  readonly id: string;
  /** The card as asked (its `timeoutMs`, if any, also fixed `expiresAt` at open). */
  readonly card: CardSpec;
  /** Authority bound at open. Never changes. */
  readonly authority: InteractionAuthority;
  /** Current answer schema. */
  readonly schema: SchemaRef;
  /** Record revision, ≥ 1. */
  readonly revision: number;
  /** Stored status. */
  readonly status: InteractionStatus;
  /** Epoch ms when opened. */
  readonly createdAt: number;
  /** Epoch ms after which the card no longer accepts answers; `null` = never. */
  readonly expiresAt: number | null;
  /** Host metadata (string values only); changes advance `revision`. */
  readonly metadata: Readonly<Record<string, string>>;
  /** Present exactly when `status` is not `pending`. */
  readonly submission?: StoredSubmission;
  /**
   * The last schema or metadata change (`changeSchema`, `updateMetadata`):
   * its id, minted per call, so a lost acknowledgement is matched to that
   * call's own write and never to another worker's equal-looking one.
   * Absent until such a change; a store that drops this field stays safe
   * (a lost acknowledgement of such a change then reports
   * `needs-reconciliation`, never a false `recovered`).
   */
  readonly change?: RecordChange;
}

/** The last non-resolving change of an {@link InteractionRecordV1}. */
export interface RecordChange {
  /** Unique id of the call that made it (a UUID). */
  readonly changeId: string;
  /** What it changed. */
  readonly kind: "schema" | "metadata";
}

/**
 * A workflow transition: stored atomically with the terminal record it
 * belongs to (an outbox row), never sent as an untracked network call.
 * External effects go through `./recovery` admission and reconciliation.
 */
export interface WorkflowTransition {
  /** Unique id: `"<interactionId>@<revision>"`. */
  readonly id: string;
  /** The interaction. */
  readonly interactionId: string;
  /** What happened. */
  readonly kind: "answered" | "declined" | "cancelled" | "expired";
  /** Revision of the record this transition committed with. */
  readonly revision: number;
  /** The submission that caused it. */
  readonly submissionId: string;
  /** Epoch ms (store clock). */
  readonly at: number;
}

/** A refusal carrying no extra fields. */
export type PlainRefusal<C extends string> = Refusal<C>;

/** No interaction with this id exists (a malformed id is `invalid-request`). */
export type NotFoundRefusal = PlainRefusal<"not-found">;
/**
 * The caller is not (or no longer) the bound authority. Carries nothing from
 * the record, but differs from `not-found`, so it tells the caller that the id
 * exists: a host that must hide existence across tenants answers both with the
 * same response (the v0 card correlator answers a workspace mismatch 404).
 */
export type UnauthorizedRefusal = PlainRefusal<"unauthorized">;
/** Someone already answered or declined: carries the stored submission. */
export interface DuplicateRefusal extends Refusal<"duplicate"> {
  /** The submission that won. */
  readonly submission: StoredSubmission;
}
/** The card expired (store clock ≥ `expiresAt`, or a host's expire). */
export interface ExpiredRefusal extends Refusal<"expired"> {
  /** Epoch ms it expired at. */
  readonly expiresAt: number;
}
/** The card was cancelled (by the server, or by a client `cancel`). */
export interface CancelledRefusal extends Refusal<"cancelled"> {
  /** The cancelling submission. */
  readonly submission?: StoredSubmission;
}
/** The record changed (e.g. metadata) after the answer was validated. */
export interface StaleRevisionRefusal extends Refusal<"stale-revision"> {
  /** The revision the answer was validated against. */
  readonly expected: number;
  /** The record's current revision. */
  readonly current: number;
}
/** The answer schema changed after the answer was validated. */
export interface SchemaChangedRefusal extends Refusal<"schema-changed"> {
  /** The schema the answer was validated against. */
  readonly expected: SchemaRef;
  /** The record's current schema. */
  readonly current: SchemaRef;
}
/** The answer failed the schema (or is malformed): the card stays pending. */
export interface InvalidAnswerRefusal extends Refusal<"invalid-answer"> {
  /** The validator's issues. */
  readonly issues: readonly ValidationIssue[];
}
/** A decline on a card opened with `allowDecline: false`. */
export type DeclineNotAllowedRefusal = PlainRefusal<"decline-not-allowed">;
/** The host's schema registry has no validator for this id and revision. */
export interface UnknownSchemaRefusal extends Refusal<"unknown-schema"> {
  /** The schema asked for. */
  readonly schema: SchemaRef;
}
/**
 * The store's acknowledgement was lost (or `transact` broke its contract:
 * called back twice or never, or answered malformed) and the one follow-up
 * read did not show this change: the outcome is unknown to this worker.
 * The host must reconcile (e.g. via `./recovery`); nothing was retried.
 */
export interface NeedsReconciliationRefusal extends Refusal<"needs-reconciliation"> {
  /**
   * The submission whose fate is unknown. A schema or metadata change has
   * no submission: it is then that call's change id (the
   * {@link RecordChange.changeId} the record shows if the change landed).
   */
  readonly submissionId: string;
  /** What the single follow-up read saw, when it succeeded. */
  readonly observed?: InteractionRecordV1;
}
/**
 * The store failed (threw) on a call that writes nothing, or on `create`
 * (retry `open` with the same id: `already-exists` then means it was stored).
 * Nothing was changed by this call apart from, possibly, that `create`.
 */
export type StoreUnavailableRefusal = PlainRefusal<"store-unavailable">;
/** `open` with an id that already exists. */
export type AlreadyExistsRefusal = PlainRefusal<"already-exists">;
/** `open` (or another call) with malformed input, described in `message`. */
export type InvalidRequestRefusal = PlainRefusal<"invalid-request">;

/** Every refusal the resolver returns. Match on `code`. */
export type InteractionRefusal =
  | NotFoundRefusal
  | UnauthorizedRefusal
  | DuplicateRefusal
  | ExpiredRefusal
  | CancelledRefusal
  | StaleRevisionRefusal
  | SchemaChangedRefusal
  | InvalidAnswerRefusal
  | DeclineNotAllowedRefusal
  | UnknownSchemaRefusal
  | NeedsReconciliationRefusal
  | AlreadyExistsRefusal
  | InvalidRequestRefusal
  | StoreUnavailableRefusal;

/** The refusal codes, for exhaustive handling. */
export type InteractionRefusalCode = InteractionRefusal["code"];

// ---------------------------------------------------------------------------
// Store contract

/** What {@link InteractionStore.transact} must fence before calling back. */
export interface TransactRequest {
  /** Interaction id. */
  readonly id: string;
  /** The caller's authority, from the host's authenticated session (or the host's system identity). */
  readonly caller: InteractionCaller;
  /** What the transaction does (a system caller may only `cancel` and `expire`). */
  readonly action: TransactAction;
  /** The record revision the caller validated against. */
  readonly expectedRevision: number;
  /** The schema the caller validated against. */
  readonly expectedSchema: SchemaRef;
}

/** What the fence hands the callback. */
export interface TransactContext {
  /** The record's bound authority, currently authorised. */
  readonly authority: InteractionAuthority;
  /** Store clock, epoch ms, read inside the critical section. */
  readonly now: number;
}

/**
 * The callback's decision. `read`: nothing is written and no workflow effect
 * happens. `write`: the store persists `next` (whose `revision` must be the
 * current one + 1) and `transition` (if not `null`) atomically: both or
 * neither, also when reading them throws (serialize both before writing).
 */
export type TransactDecision<T> =
  | { readonly kind: "read"; readonly result: T }
  | {
    readonly kind: "write";
    readonly next: InteractionRecordV1;
    readonly transition: WorkflowTransition | null;
    readonly result: T;
  };

/**
 * The callback {@link InteractionStore.transact} invokes exactly once, inside
 * its critical section. The resolver's callbacks decide synchronously; a
 * callback may also return a promise (the conformance kit does, to hold a
 * transaction open on purpose), which the store awaits while holding its locks.
 */
export type TransactCallback<T> = (
  current: InteractionRecordV1,
  context: TransactContext,
) => TransactDecision<T> | PromiseLike<TransactDecision<T>>;

/**
 * Why the fence refused, checked in this order: `not-found`, `unauthorized`
 * (a user caller ≠ bound authority or revoked; a system caller without a
 * current system grant for the record's tenant, or asking for an action
 * other than cancel/expire), `resolved` (submitted or declined),
 * `cancelled`, `expired` (stored expired, or store clock ≥ `expiresAt`),
 * `schema-changed`, `stale-revision`. All but the first two carry the
 * current record (conflicts carry the current record).
 */
export type FenceRefusal =
  | Refusal<"not-found">
  | Refusal<"unauthorized">
  | FenceStateRefusal;

/** A fence refusal about the record's state; carries the current record. */
export interface FenceStateRefusal
  extends Refusal<"resolved" | "cancelled" | "expired" | "schema-changed" | "stale-revision"> {
  /** The record as the fence saw it. */
  readonly current: InteractionRecordV1;
}

/** A committed (or read-only) transaction's outcome. */
export interface TransactCommit<T> {
  /** The callback's result. */
  readonly result: T;
  /** The record after the transaction (unchanged for a `read` decision). */
  readonly record: InteractionRecordV1;
  /** The stored transition, or `null` (always `null` for a `read` decision). */
  readonly transition: WorkflowTransition | null;
}

/** What {@link InteractionStore.read} returns. */
export type StoreRead =
  | {
    readonly ok: true;
    readonly record: InteractionRecordV1;
    /** Store clock, epoch ms. */
    readonly now: number;
  }
  | { readonly ok: false; readonly code: "not-found" | "unauthorized" };

/**
 * The host's durable store. Implement it over your database (a row per
 * interaction plus an outbox table for transitions) and prove it with the
 * conformance kit (`./interactions/testing`).
 *
 * Contract:
 * - `create` inserts a new record iff the id is absent (no overwrite).
 * - `read` returns the record only if the caller is still authorised for it
 *   (a user caller equal to the bound authority and not revoked; a system
 *   caller with a current system grant for the record's tenant); it never
 *   writes.
 * - `transact` runs ONE critical section, then answers. Check every
 *   {@link FenceRefusal} condition (use `evaluateFence`) against the
 *   *current* row and the store's clock, call `fn` exactly once (awaiting it
 *   if it returns a promise), then persist `next` + `transition`
 *   atomically. The fence refusing means `fn` is not called and nothing is
 *   written.
 * - A lost acknowledgement is reported by rejecting (throwing); the resolver
 *   then reads exactly once and never retries the write.
 *
 * ## What to lock, and why (the rules; docs/interactions.md adds a worked SQL sketch)
 *
 * 1. **The interaction row, for the whole transaction.** `SELECT … FOR
 *    UPDATE` the row, check, call back, write, COMMIT. A read followed by an
 *    unconditional update, SERIALIZABLE with blind retries, or a lock that
 *    lives in the process instead of the database (an adapter's mutex, a
 *    module-level mutex) lets two answers win across processes. The kit
 *    catches per-instance locks, not module-scope ones (all its workers
 *    share one process).
 * 2. **Authority rows are read under the fence.** Read the user's grant (or
 *    the system grant) inside the transaction with `FOR SHARE`; a revocation
 *    is an ordinary write to those rows, so it waits for an answer that was
 *    authorised and is refused by the next fence. Checking authority before
 *    the transaction, or reading the grant unlocked, lets a revocation commit
 *    between check and write.
 * 3. **Record and transition in one transaction.** The outbox row is
 *    inserted in the same transaction as the record update (serialize both
 *    before writing), never in a second step a crash can separate.
 * 4. **Conflicts carry the current record.** State refusals (`resolved`,
 *    `cancelled`, `expired`, `schema-changed`, `stale-revision`) carry the
 *    row as the fence saw it, so the resolver answers without another read.
 * 5. **One clock, never stepping back.** Expiry is judged by the store clock
 *    (`TransactContext.now`, `StoreRead.now`): use one clock for every worker
 *    (the database's `now()`, not each process's) and clamp it (keep the
 *    latest time used), so a card that read as expired stays expired.
 * 6. **Acknowledged means durable.** Resolve only after COMMIT; a fresh
 *    adapter instance must then read the write.
 */
export interface InteractionStore {
  /** Insert `record` iff no record with its id exists. */
  create(record: InteractionRecordV1): Promise<Result<InteractionRecordV1, AlreadyExistsRefusal>>;
  /** Read the record for `caller` (authority rechecked). */
  read(id: string, caller: InteractionCaller): Promise<StoreRead>;
  /** Fence, call `fn` once, persist its decision atomically. */
  transact<T>(
    request: TransactRequest,
    fn: TransactCallback<T>,
  ): Promise<Result<TransactCommit<T>, FenceRefusal>>;
}

/**
 * The host's immutable answer-schema registry: returns the Standard Schema
 * validator for `ref`, or `undefined` when there is none. A published
 * (id, revision) must always return an equivalent validator. A lookup that
 * throws (the registry is down) is refused like a missing schema:
 * `unknown-schema`, with a message saying the registry threw.
 */
export type SchemaLookup = (
  ref: SchemaRef,
) => StandardSchemaV1 | undefined;
