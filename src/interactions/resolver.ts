/**
 * {@link InteractionResolver}: opens cards as durable interaction records
 * with bound authority, validates answers with the host's Standard Schema
 * validators outside the transaction, and commits them through the store's
 * fenced `transact`, returning typed refusals for duplicate, late, stale,
 * unauthorised and invalid answers. MCP elicitation results resolve through
 * the same path; the host's own system identity may cancel and expire.
 *
 * The work lives in private collaborators: `_input.ts` (untrusted input),
 * `_answer_value.ts` (what may be stored), `_commit.ts` (the fenced commit
 * and its lost-ack rule), `_store_answers.ts` (checking what a store
 * returns) and `_outcomes.ts` (answers and refusals).
 *
 * @module
 */
import type { CardResponse, CardSpec, OpenCardSnapshot } from "../cards/types.ts";
import { err, ok, type Result } from "../result.ts";
import { isRecord } from "../_internal/guards.ts";
import { describeThrown } from "../_internal/describe.ts";
import { MIN_EPOCH_MS } from "../_internal/epoch.ts";
import { effectiveStatus, isSystemCaller } from "./fence.ts";
import type { ElicitationResult } from "../cards/elicitation.ts";
import { parseElicitationResult } from "./elicitation.ts";
import { type StandardSchemaV1, standardValidate } from "./standard_schema.ts";
import { answerCopy } from "./_answer_value.ts";
import { commit, type Intent } from "./_commit.ts";
import {
  type CheckedCall,
  copyAuthority,
  copyCaller,
  copyPatch,
  DEFAULT_MAX_ANSWER_BYTES,
  invalidAnswer,
  invalidRequest,
  isPlainObject,
  jsonCopy,
  MAX_ANSWER_DEPTH,
  MAX_ID_LENGTH,
  MAX_METADATA_VALUE_LENGTH,
  mergeMetadata,
  readingInput,
  responseIntent,
  validAuthority,
  validCaller,
  validId,
  validSchemaRef,
  validSystemCaller,
  validText,
} from "./_input.ts";
import {
  notFound,
  snapshotOf,
  stateRefusal,
  unauthorized,
  unavailable,
  unknownSchema,
} from "./_outcomes.ts";
import { checkedRead, looksLikeRecord } from "./_store_answers.ts";
import type {
  EffectiveStatus,
  InteractionAuthority,
  InteractionCaller,
  InteractionRecordV1,
  InteractionRefusal,
  InteractionStore,
  NotFoundRefusal,
  SchemaLookup,
  SchemaRef,
  StoredSubmission,
  StoreRead,
  SubmissionSource,
  SystemAuthority,
  UnauthorizedRefusal,
  WorkflowTransition,
} from "./types.ts";

export {
  DEFAULT_MAX_ANSWER_BYTES,
  MAX_ANSWER_DEPTH,
  MAX_ID_LENGTH,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE_LENGTH,
} from "./_input.ts";

/** Options of {@link InteractionResolver}. */
export interface InteractionResolverOptions {
  /** The host's durable store (shared by all workers). */
  readonly store: InteractionStore;
  /** The host's immutable schema registry. */
  readonly schemas: SchemaLookup;
  /**
   * Clock for `createdAt`/`expiresAt` at open, epoch ms (default `Date.now`).
   * Expiry is then judged by the store's clock: keep the two in step (a
   * resolver clock running ahead of the store's lengthens every timeout).
   * A clock that throws, answers a non-finite number, or answers less than
   * `1e11` (a clock in SECONDS: 1e11 ms is 1973) makes `open` refuse
   * `invalid-request`.
   */
  readonly now?: () => number;
  /** Id generator for interactions and submissions (default `crypto.randomUUID`). */
  readonly newId?: () => string;
  /**
   * Bound on a validated answer's JSON text, in UTF-8 bytes (default
   * {@link DEFAULT_MAX_ANSWER_BYTES}). Anything but a positive safe integer
   * (NaN, negative, fractional, Infinity) falls back to the default: the
   * bound is never lifted by a malformed option, and the constructor never
   * throws.
   */
  readonly maxAnswerBytes?: number;
}

/** Input of {@link InteractionResolver.open}. */
export interface OpenInteractionInput {
  /** Interaction id / correlationId (default: a random UUID). */
  readonly id?: string;
  /** The card to ask. `timeoutMs > 0` sets `expiresAt = createdAt + timeoutMs`. */
  readonly card: CardSpec;
  /** Authority bound by the backend from its own session. */
  readonly authority: InteractionAuthority;
  /** The server-owned answer schema (must exist in the registry). */
  readonly schema: SchemaRef;
  /** Initial host metadata. */
  readonly metadata?: Readonly<Record<string, string>>;
}

/** What {@link InteractionResolver.open} returns. */
export interface OpenedInteraction {
  /** The stored record (revision 1, pending). */
  readonly record: InteractionRecordV1;
  /** The wire snapshot to send to clients (no `timeoutMs`). */
  readonly snapshot: OpenCardSnapshot;
}

/** Input of {@link InteractionResolver.answer}. */
export interface AnswerInput {
  /** Interaction id. */
  readonly id: string;
  /** The caller's authority, from the host's authenticated request (never from the body). */
  readonly caller: InteractionAuthority;
  /** The untrusted POSTed card response (`CardResponse` shape is checked). */
  readonly response: CardResponse | unknown;
  /** Idempotency id of this submission (default: a random UUID). */
  readonly submissionId?: string;
}

/** Input of {@link InteractionResolver.resolveElicitation}. */
export interface ElicitationInput {
  /** Interaction id. */
  readonly id: string;
  /** The caller's authority, from the host's session. */
  readonly caller: InteractionAuthority;
  /** The untrusted MCP elicitation result (`ElicitationResult` shape is checked). */
  readonly result: ElicitationResult | unknown;
  /** Idempotency id of this submission (default: a random UUID). */
  readonly submissionId?: string;
}

/**
 * A committed change. `committed`: this call's write was acknowledged.
 * `recovered`: the acknowledgement was lost and the one follow-up read found
 * this call's change stored.
 */
export interface ResolvedOutcome {
  /** How the result is known. */
  readonly outcome: "committed" | "recovered";
  /** The record after the change. */
  readonly record: InteractionRecordV1;
  /** The stored workflow transition (`null` for schema/metadata changes). */
  readonly transition: WorkflowTransition | null;
}

/** A committed answer, decline or cancel. */
export interface AnswerOutcome extends ResolvedOutcome {
  /** The stored submission (this call's). */
  readonly submission: StoredSubmission;
}

/** What {@link InteractionResolver.read} returns. */
export interface InteractionView {
  /** The stored record. */
  readonly record: InteractionRecordV1;
  /** Status by the store clock (`expired` for a pending record past `expiresAt`). */
  readonly status: EffectiveStatus;
  /** The wire snapshot while the card is still answerable, else `null`. */
  readonly openCard: OpenCardSnapshot | null;
  /** Store clock at the read, epoch ms. */
  readonly now: number;
}

/**
 * Resolves card answers durably. Stateless apart from its options: create
 * one per worker (or per request); all coordination happens in the store.
 *
 * Every method returns a {@link Result}; none throws for bad input or store
 * faults. Input is read once and copied (an input whose getter or proxy trap
 * throws is refused `invalid-request`); a store that throws on a write yields exactly one read and then
 * the recovered outcome or `needs-reconciliation`; a store that throws on a
 * read (or `create`) yields `store-unavailable`. A store that breaks its
 * contract is handled the same way, never trusted: a `transact` that calls
 * back twice (the second call is answered with a read-only decision, so it
 * cannot write) or not at all, or answers with anything but a well-formed
 * result, counts as an uncertain write; a malformed `read` or `create`
 * answer counts as a failure; a read that returns a record bound to another
 * authority is `unauthorized`. A committed result reports the record and
 * transition this worker's callback decided, not what the store echoes.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import {
 *   FakeClock, InteractionResolver, MemoryInteractionStore,
 * } from "@papercusp/chat-protocol/interactions";
 * const clock = new FakeClock();
 * const store = new MemoryInteractionStore({ now: () => clock.now() });
 * const schemas = (ref: { id: string; revision: number }) =>
 *   ref.id === "pick" && ref.revision === 1 ? z.object({ optionId: z.enum(["a", "b"]) }) : undefined;
 * const me = { conversationId: "c1", principalId: "u1", tenantId: "t1", customerId: "k1", publicOwnerId: "o1" };
 * const worker = new InteractionResolver({ store, schemas, now: () => clock.now() });
 * const opened = await worker.open({ card: { prompt: "A or B?" }, authority: me, schema: { id: "pick", revision: 1 } });
 * if (opened.ok) {
 *   const id = opened.value.record.id;
 *   const r = await worker.answer({ id, caller: me, response: { action: "submit", correlationId: id, value: { optionId: "a" } } });
 *   console.log(r.ok ? r.value.submission.value : r.error.code);
 * }
 * ```
 */
export class InteractionResolver {
  #store: InteractionStore;
  #schemas: SchemaLookup;
  #now: () => number;
  #newId: () => string;
  #maxAnswer: number;

  /** Build a resolver (a "worker") over a store and a schema registry. */
  constructor(options: InteractionResolverOptions) {
    this.#store = options.store;
    this.#schemas = options.schemas;
    this.#now = options.now ?? Date.now;
    this.#newId = options.newId ?? (() => crypto.randomUUID());
    const max = options.maxAnswerBytes;
    this.#maxAnswer = typeof max === "number" && Number.isSafeInteger(max) && max > 0
      ? max
      : DEFAULT_MAX_ANSWER_BYTES;
  }

  /** The host registry's validator for `ref`, or the `unknown-schema` refusal (also when it throws). */
  #lookup(ref: SchemaRef): Result<StandardSchemaV1, InteractionRefusal> {
    let schema: StandardSchemaV1 | undefined;
    try {
      schema = this.#schemas(ref);
    } catch (e) {
      return err(unknownSchema(ref, `the host's schema registry threw: ${describeThrown(e)}`));
    }
    return schema === undefined ? err(unknownSchema(ref)) : ok(schema);
  }

  /**
   * Open a card: bind the backend's authority, check the schema exists, and
   * store a pending version-1 record at revision 1.
   * Refuses `invalid-request` (malformed input), `unknown-schema`,
   * `already-exists`.
   */
  async open(input: OpenInteractionInput): Promise<Result<OpenedInteraction, InteractionRefusal>> {
    const checked = readingInput(() => this.#checkOpen(input));
    if (!checked.ok) return checked;
    const { id, card, authority, schema, metadata, timeoutMs } = checked.value;
    const found = this.#lookup(schema);
    if (!found.ok) return found;
    let createdAt: unknown;
    try {
      createdAt = this.#now();
    } catch (e) {
      return invalidRequest(`the resolver's clock threw: ${describeThrown(e)}`);
    }
    if (typeof createdAt !== "number" || !Number.isFinite(createdAt)) {
      return invalidRequest("the resolver's clock returned a non-finite time");
    }
    if (createdAt < MIN_EPOCH_MS) {
      return invalidRequest(
        "the resolver's clock answered less than 1e11: a clock in seconds, not epoch ms",
      );
    }
    const record: InteractionRecordV1 = {
      v: 1,
      id,
      card,
      authority,
      schema,
      revision: 1,
      status: "pending",
      createdAt,
      expiresAt: timeoutMs !== undefined && timeoutMs > 0 && Number.isFinite(timeoutMs)
        ? createdAt + timeoutMs
        : null,
      metadata,
    };
    let created: unknown;
    try {
      created = await this.#store.create(record);
    } catch {
      return err(unavailable());
    }
    // A malformed answer is a store fault: whether it inserted is unknown, as
    // after a throw (retrying `open` with the same id then tells).
    if (!isRecord(created)) return err(unavailable());
    if (
      created.ok === false && isRecord(created.error) && created.error.code === "already-exists"
    ) {
      return err({ code: "already-exists", message: `interaction ${id} already exists` });
    }
    if (created.ok !== true || !looksLikeRecord(created.value, id)) return err(unavailable());
    return ok({ record: created.value, snapshot: snapshotOf(created.value) });
  }

  /**
   * Answer a card with an untrusted `CardResponse` (`submit`, `decline` or
   * `cancel`). A `submit` value is validated with the record's schema outside
   * the transaction; the fenced transaction rechecks authority, expiry,
   * cancellation, schema and revision before it stores the answer and its
   * workflow transition atomically.
   *
   * The stored value is a fresh JSON copy of the schema's output, which must
   * be JSON data (no `NaN`, `Infinity`, `Date`, `Map`, class instances or
   * array holes: nothing is silently converted), at most `maxAnswerBytes`
   * UTF-8 bytes as JSON and at most {@link MAX_ANSWER_DEPTH} levels deep;
   * anything else is refused `invalid-answer`.
   *
   * Refusals: `invalid-request`, `invalid-answer` (with issues),
   * `not-found`, `unauthorized`, `duplicate` (with the stored submission),
   * `cancelled`, `expired`, `schema-changed`, `stale-revision`,
   * `decline-not-allowed`, `unknown-schema`, `needs-reconciliation`.
   */
  answer(input: AnswerInput): Promise<Result<AnswerOutcome, InteractionRefusal>> {
    const call = readingInput(() => this.#checkCall(input, true));
    if (!call.ok) return Promise.resolve(call);
    const intent = readingInput(() => responseIntent(input.response, call.value.id));
    if (!intent.ok) return Promise.resolve(intent);
    return this.#resolve(call.value, intent.value.action, intent.value.value, "card");
  }

  /**
   * Resolve an MCP elicitation result (`accept` with `content`, `decline`,
   * `cancel`) through the same path as {@link InteractionResolver.answer}:
   * accept → submit (`content`, default `{}`, validated by the schema),
   * decline → decline, cancel → cancel. Same refusals.
   */
  resolveElicitation(input: ElicitationInput): Promise<Result<AnswerOutcome, InteractionRefusal>> {
    const call = readingInput(() => this.#checkCall(input, true));
    if (!call.ok) return Promise.resolve(call);
    const parsed = readingInput(() => ok(parseElicitationResult(input.result)));
    if (!parsed.ok) return Promise.resolve(parsed);
    if (!parsed.value.ok) return Promise.resolve(invalidAnswer([...parsed.value.error.issues]));
    const e = parsed.value.value;
    if (e.action === "accept") {
      return this.#resolve(call.value, "submit", e.content ?? {}, "elicitation");
    }
    return this.#resolve(call.value, e.action, undefined, "elicitation");
  }

  /**
   * Cancel a pending card from the server side (run cancelled, workspace
   * switched). `caller` is the bound user's authority, or the host's own
   * {@link SystemAuthority} (e.g. after the user's authority was revoked,
   * which is exactly when a server needs to cancel); the store checks either
   * under the same fence. Stores a `cancel` submission (source `server`,
   * `actorId` for a system caller) and a `cancelled` transition. `reason` is
   * at most {@link MAX_METADATA_VALUE_LENGTH} UTF-16 code units. Same
   * refusals as `answer` (no validation ones).
   */
  cancel(
    id: string,
    caller: InteractionCaller,
    options: { readonly reason?: string; readonly submissionId?: string } = {},
  ): Promise<Result<AnswerOutcome, InteractionRefusal>> {
    return this.#serverResolve("cancel", id, caller, options);
  }

  /**
   * Expire a pending card now (a host deadline, a job that closes stale
   * cards). A SYSTEM action: `caller` must be the host's
   * {@link SystemAuthority} for the record's tenant, checked by the store
   * under the same fence as any answer. Stores status `expired`
   * (`expiresAt` = the store clock), an `expire` submission (source
   * `server`) and an `expired` transition; later answers get `expired`.
   * Refuses `invalid-request` (not a system caller, or a bad reason), and as
   * `cancel` does.
   */
  expire(
    id: string,
    caller: SystemAuthority,
    options: { readonly reason?: string; readonly submissionId?: string } = {},
  ): Promise<Result<AnswerOutcome, InteractionRefusal>> {
    return this.#serverResolve("expire", id, caller, options);
  }

  #serverResolve(
    action: "cancel" | "expire",
    id: string,
    caller: InteractionCaller,
    options: { readonly reason?: string; readonly submissionId?: string },
  ): Promise<Result<AnswerOutcome, InteractionRefusal>> {
    const checked = readingInput(() => {
      if (!isPlainObject(options)) return invalidRequest(`${action} options must be an object`);
      const reason = options.reason;
      if (reason !== undefined && !validText(reason)) {
        return invalidRequest(
          `reason must be a string of at most ${MAX_METADATA_VALUE_LENGTH} characters, without NUL or a lone surrogate`,
        );
      }
      if (action === "expire" && !validSystemCaller(caller)) {
        return invalidRequest('expire is a system action: caller must be { kind: "system", … }');
      }
      const call = this.#checkCall(
        { id, caller, submissionId: options.submissionId },
        true,
        true,
      );
      return call.ok ? ok({ call: call.value, reason }) : call;
    });
    if (!checked.ok) return Promise.resolve(checked);
    const { call, reason } = checked.value;
    return this.#resolve(call, action, undefined, "server", reason);
  }

  /**
   * Move a pending card to another (published) schema revision. Advances the
   * record revision, so answers validated against the old schema are
   * refused `schema-changed`. No workflow transition.
   */
  async changeSchema(
    id: string,
    caller: InteractionAuthority,
    schema: SchemaRef,
  ): Promise<Result<ResolvedOutcome, InteractionRefusal>> {
    const checked = readingInput(() => {
      const call = this.#checkCall({ id, caller });
      if (!call.ok) return call;
      if (!validSchemaRef(schema)) return invalidRequest("schema must be {id, revision ≥ 1}");
      return ok({ call: call.value, ref: { id: schema.id, revision: schema.revision } });
    });
    if (!checked.ok) return checked;
    const { call, ref } = checked.value;
    const found = this.#lookup(ref);
    if (!found.ok) return found;
    const pre = await this.#preRead(call.id, call.caller);
    if (!pre.ok) return pre;
    return this.#commit(call.id, call.caller, pre.value, {
      kind: "schema",
      schema: ref,
      changeId: crypto.randomUUID(),
    });
  }

  /**
   * Set (string) or delete (`null`) metadata keys on a pending card. Every
   * change advances the revision (in-flight answers then get
   * `stale-revision`). No workflow transition.
   */
  async updateMetadata(
    id: string,
    caller: InteractionAuthority,
    patch: Readonly<Record<string, string | null>>,
  ): Promise<Result<ResolvedOutcome, InteractionRefusal>> {
    const checked = readingInput(() => {
      const call = this.#checkCall({ id, caller });
      if (!call.ok) return call;
      const copy = isPlainObject(patch) ? copyPatch(patch) : null;
      return copy === null || mergeMetadata({}, copy) === null
        ? invalidRequest("metadata patch is malformed or too large")
        : ok({ call: call.value, patch: copy });
    });
    if (!checked.ok) return checked;
    const { call, patch: copy } = checked.value;
    const pre = await this.#preRead(call.id, call.caller);
    if (!pre.ok) return pre;
    if (mergeMetadata(pre.value.metadata, copy) === null) {
      return invalidRequest("metadata would exceed its bounds");
    }
    return this.#commit(call.id, call.caller, pre.value, {
      kind: "metadata",
      patch: copy,
      changeId: crypto.randomUUID(),
    });
  }

  /**
   * Read the interaction for `caller`: pending or terminal state, never
   * advancing anything, with the authority rechecked by the store.
   * Refuses `invalid-request`, `not-found`, `unauthorized`,
   * `store-unavailable` (the store threw or answered malformed).
   */
  async read(
    id: string,
    caller: InteractionCaller,
  ): Promise<Result<InteractionView, NotFoundRefusal | UnauthorizedRefusal | InteractionRefusal>> {
    const call = readingInput(() => this.#checkCall({ id, caller }, false, true));
    if (!call.ok) return call;
    const r = await this.#readOrRefuse(call.value.id, call.value.caller);
    if (!r.ok) return r;
    const { record, now } = r.value;
    const status = effectiveStatus(record, now);
    return ok({ record, status, openCard: status === "pending" ? snapshotOf(record) : null, now });
  }

  // -------------------------------------------------------------------------

  /** Check and copy what `open` reads from its (untrusted) input. */
  #checkOpen(input: OpenInteractionInput): Result<{
    id: string;
    card: CardSpec;
    authority: InteractionAuthority;
    schema: SchemaRef;
    metadata: Record<string, string>;
    timeoutMs: number | undefined;
  }, InteractionRefusal> {
    if (!isPlainObject(input)) return invalidRequest("open input must be an object");
    const id = input.id ?? this.#newId();
    if (!validId(id)) return invalidRequest(`id must be 1..${MAX_ID_LENGTH} characters`);
    const authority = input.authority;
    if (!validAuthority(authority)) {
      return invalidRequest("authority needs five non-empty string fields");
    }
    const schema = input.schema;
    if (!validSchemaRef(schema)) return invalidRequest("schema must be {id, revision ≥ 1}");
    const rawCard = input.card;
    if (!isPlainObject(rawCard) || typeof rawCard.prompt !== "string") {
      return invalidRequest("card must be an object with a string prompt");
    }
    const timeoutMs = rawCard.timeoutMs;
    if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && timeoutMs >= 0)) {
      return invalidRequest("card.timeoutMs must be a non-negative number");
    }
    const card = jsonCopy(rawCard, 1_000_000) as CardSpec | null;
    if (card === null) {
      return invalidRequest("card must be JSON-safe, at most 1,000,000 characters as JSON");
    }
    const rawMetadata = input.metadata ?? {};
    const patch = isPlainObject(rawMetadata) ? copyPatch(rawMetadata) : null;
    const metadata = patch === null ? null : mergeMetadata({}, patch);
    if (metadata === null) return invalidRequest("metadata is malformed or too large");
    return ok({
      id,
      card,
      authority: copyAuthority(authority),
      schema: { id: schema.id, revision: schema.revision },
      metadata,
      timeoutMs,
    });
  }

  /**
   * Check id and caller and copy them (a getter is read once); with
   * `resolving`, also check or mint the submission id. A system caller is
   * accepted only where `allowSystem` says so (cancel, expire, read).
   */
  #checkCall(
    input: { id: unknown; caller: unknown; submissionId?: unknown },
    resolving = false,
    allowSystem = false,
  ): Result<CheckedCall, InteractionRefusal> {
    if (!isRecord(input)) return invalidRequest("the input must be an object");
    const id = input.id;
    if (!validId(id)) return invalidRequest(`id must be 1..${MAX_ID_LENGTH} characters`);
    const caller = input.caller;
    if (!(allowSystem ? validCaller(caller) : validAuthority(caller))) {
      return invalidRequest(
        allowSystem
          ? 'caller needs five non-empty string fields, or { kind: "system", actorId, tenantId }'
          : "caller needs five non-empty string fields (a system caller may not do this)",
      );
    }
    const submissionId = resolving ? input.submissionId ?? this.#newId() : "";
    if (resolving && !validId(submissionId)) {
      return invalidRequest(`submissionId must be 1..${MAX_ID_LENGTH} characters`);
    }
    return ok({
      id,
      caller: copyCaller(caller as InteractionCaller),
      submissionId: submissionId as string,
    });
  }

  /** The store's read, or `null` when it threw or answered outside its contract. */
  async #safeRead(id: string, caller: InteractionCaller): Promise<StoreRead | null> {
    try {
      return checkedRead(await this.#store.read(id, caller), id, caller);
    } catch {
      return null;
    }
  }

  /** The store's read, or `store-unavailable` / `not-found` / `unauthorized`. */
  async #readOrRefuse(
    id: string,
    caller: InteractionCaller,
  ): Promise<Result<{ record: InteractionRecordV1; now: number }, InteractionRefusal>> {
    const r = await this.#safeRead(id, caller);
    if (r === null) return err(unavailable());
    if (!r.ok) return err(r.code === "not-found" ? notFound() : unauthorized());
    return ok({ record: r.record, now: r.now });
  }

  /** The record as read before a change, refused when it no longer accepts one. */
  async #preRead(
    id: string,
    caller: InteractionCaller,
  ): Promise<Result<InteractionRecordV1, InteractionRefusal>> {
    const r = await this.#readOrRefuse(id, caller);
    if (!r.ok) return r;
    const refusal = stateRefusal(r.value.record, r.value.now);
    return refusal !== null ? err(refusal) : ok(r.value.record);
  }

  async #resolve(
    input: CheckedCall,
    action: StoredSubmission["action"],
    rawValue: unknown,
    source: SubmissionSource,
    reason?: string,
  ): Promise<Result<AnswerOutcome, InteractionRefusal>> {
    const pre = await this.#preRead(input.id, input.caller);
    if (!pre.ok) return pre;
    const record = pre.value;
    let value: unknown = undefined;
    if (action === "submit") {
      const schema = this.#lookup(record.schema);
      if (!schema.ok) return schema;
      const validated = await standardValidate(schema.value, rawValue);
      if (!validated.ok) return invalidAnswer([...validated.error.issues]);
      const copied = answerCopy(validated.value, this.#maxAnswer);
      if (!copied.ok) {
        return invalidAnswer([{
          message: `the validated answer must be JSON data of at most ${this.#maxAnswer} ` +
            `UTF-8 bytes and depth ${MAX_ANSWER_DEPTH} (it is ${copied.why})`,
        }]);
      }
      value = copied.value;
    } else if (action === "decline" && record.card.allowDecline === false) {
      return err({ code: "decline-not-allowed", message: "this card does not allow decline" });
    }
    const outcome = await this.#commit(input.id, input.caller, record, {
      kind: "resolve",
      action,
      value,
      reason,
      source,
      submissionId: input.submissionId,
      ...(isSystemCaller(input.caller) ? { actorId: input.caller.actorId } : {}),
    });
    if (!outcome.ok) return outcome;
    const submission = outcome.value.record.submission as StoredSubmission;
    return ok({ ...outcome.value, submission });
  }

  /** Commit `intent` through the store (see `_commit.ts`). */
  #commit(
    id: string,
    caller: InteractionCaller,
    validatedAgainst: InteractionRecordV1,
    intent: Intent,
  ): Promise<Result<ResolvedOutcome, InteractionRefusal>> {
    return commit(
      this.#store,
      (i, c) => this.#safeRead(i, c),
      id,
      caller,
      validatedAgainst,
      intent,
    );
  }
}
