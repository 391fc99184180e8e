/**
 * {@link InteractionResolver}: opens cards as durable interaction records
 * with bound authority, validates answers with the host's Standard Schema
 * validators outside the transaction, and commits them through the store's
 * fenced `transact`, returning typed refusals for duplicate, late, stale,
 * unauthorised and invalid answers. MCP elicitation results resolve through
 * the same path.
 *
 * @module
 */
import type { CardResponse, CardSpec, OpenCardSnapshot } from "../cards/types.ts";
import { err, ok, type Result } from "../result.ts";
import { isRecord, utf8ByteLength } from "../_internal/guards.ts";
import { AUTHORITY_FIELDS, effectiveStatus, sameAuthority, sameSchema } from "./fence.ts";
import { type ElicitationResult, parseElicitationResult } from "./elicitation.ts";
import { standardValidate, type ValidationIssue } from "./standard_schema.ts";
import type {
  EffectiveStatus,
  FenceRefusal,
  InteractionAuthority,
  InteractionRecordV1,
  InteractionRefusal,
  InteractionStore,
  NeedsReconciliationRefusal,
  NotFoundRefusal,
  SchemaLookup,
  SchemaRef,
  StoredSubmission,
  StoreRead,
  SubmissionSource,
  TransactDecision,
  UnauthorizedRefusal,
  WorkflowTransition,
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
   */
  readonly now?: () => number;
  /** Id generator for interactions and submissions (default `crypto.randomUUID`). */
  readonly newId?: () => string;
  /** Bound on a validated answer's JSON text, in UTF-8 bytes (default {@link DEFAULT_MAX_ANSWER_BYTES}). */
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

type Intent =
  | {
    readonly kind: "resolve";
    readonly action: "submit" | "decline" | "cancel";
    readonly value?: unknown;
    readonly reason?: string;
    readonly source: SubmissionSource;
    readonly submissionId: string;
  }
  | { readonly kind: "schema"; readonly schema: SchemaRef }
  | { readonly kind: "metadata"; readonly patch: Readonly<Record<string, string | null>> };

/** A non-array object whose prototype is `Object.prototype` or `null` (not a class instance). */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function validId(v: unknown): v is string {
  return typeof v === "string" && v.length > 0 && v.length <= MAX_ID_LENGTH;
}

function validSchemaRef(v: unknown): v is SchemaRef {
  return isPlainObject(v) && validId(v.id) && Number.isSafeInteger(v.revision) &&
    (v.revision as number) >= 1;
}

function validAuthority(v: unknown): v is InteractionAuthority {
  return isPlainObject(v) &&
    AUTHORITY_FIELDS.every((k) => validId((v as Record<string, unknown>)[k]));
}

function copyAuthority(a: InteractionAuthority): InteractionAuthority {
  return {
    conversationId: a.conversationId,
    principalId: a.principalId,
    tenantId: a.tenantId,
    customerId: a.customerId,
    publicOwnerId: a.publicOwnerId,
  };
}

const STATUSES: readonly string[] = ["pending", "submitted", "declined", "cancelled"];
const FENCE_CODES: readonly string[] = [
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
function looksLikeRecord(v: unknown, id: string): v is InteractionRecordV1 {
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
function checkedRead(r: unknown, id: string, caller: InteractionAuthority): StoreRead | null {
  if (!isRecord(r)) return null;
  if (r.ok === false) {
    return r.code === "not-found" || r.code === "unauthorized" ? { ok: false, code: r.code } : null;
  }
  if (r.ok !== true || typeof r.now !== "number" || !Number.isFinite(r.now)) return null;
  if (!looksLikeRecord(r.record, id)) return null;
  // Defence in depth: a record bound to another authority is never shown.
  if (!sameAuthority(r.record.authority, caller)) return { ok: false, code: "unauthorized" };
  return { ok: true, record: r.record, now: r.now };
}

/**
 * A well-formed fence refusal whose typed refusal can be built without
 * inventing anything, or `null`.
 */
function checkedFence(o: unknown, id: string): FenceRefusal | null {
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
    ? current.status === "pending" && typeof current.expiresAt === "number"
    : current.status === "pending";
  return fits ? { code: e.code as FenceStateCode, message: "", current } : null;
}

type FenceStateCode = "resolved" | "cancelled" | "expired" | "schema-changed" | "stale-revision";

/** Order-insensitive equality of two metadata maps (a database may reorder keys). */
function sameMetadata(a: Readonly<Record<string, string>>, b: unknown): boolean {
  if (!isRecord(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && b[k] === a[k]);
}

/** Checked, copied `id` and `caller` of a call, and its submission id (`""` when not resolving). */
interface CheckedCall {
  readonly id: string;
  readonly caller: InteractionAuthority;
  readonly submissionId: string;
}

/**
 * Runs `f`, which reads untrusted input: a throwing getter or proxy trap is
 * refused `invalid-request` instead of escaping.
 */
function readingInput<T>(f: () => Result<T, InteractionRefusal>): Result<T, InteractionRefusal> {
  try {
    return f();
  } catch {
    return invalidRequest("the input could not be read (a getter or proxy trap threw)");
  }
}

/** What an untrusted `CardResponse` asks for, or its `invalid-answer` refusal. */
function responseIntent(
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
function copyPatch(patch: Record<string, unknown>): Record<string, string | null> | null {
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
 * a key is empty or longer than {@link MAX_ID_LENGTH}, a value is longer than
 * {@link MAX_METADATA_VALUE_LENGTH}, or the result has more than
 * {@link MAX_METADATA_KEYS} keys.
 */
function mergeMetadata(
  base: Readonly<Record<string, string>>,
  patch: Readonly<Record<string, string | null>>,
): Record<string, string> | null {
  const out = new Map<string, string>(Object.entries(base));
  for (const key of Object.keys(patch)) {
    const v = patch[key];
    if (key.length === 0 || key.length > MAX_ID_LENGTH) return null;
    if (v === null) out.delete(key);
    else if (typeof v === "string" && v.length <= MAX_METADATA_VALUE_LENGTH) out.set(key, v);
    else return null;
  }
  if (out.size > MAX_METADATA_KEYS) return null;
  return Object.fromEntries(out);
}

function invalidRequest(message: string): { ok: false; error: InteractionRefusal } {
  return err({ code: "invalid-request", message });
}

function invalidAnswer(issues: ValidationIssue[]): { ok: false; error: InteractionRefusal } {
  return err({ code: "invalid-answer", message: "the answer is not acceptable", issues });
}

/** JSON copy bounded by `max` characters; `null` when not JSON-safe or too big. */
function jsonCopy(value: unknown, max: number): unknown | null {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return null;
  }
  if (text === undefined || text.length > max) return null;
  return JSON.parse(text);
}

/**
 * Why a validated answer cannot be stored as it is, or `null`. Only JSON
 * data is stored, never a lossy conversion of something else: `null`,
 * booleans, strings, finite numbers, arrays without holes or `undefined`,
 * and plain objects (an `undefined` property counts as absent). `NaN`,
 * `Infinity`, `Date`, `Map`, class instances, functions and the like are
 * refused, as is nesting deeper than {@link MAX_ANSWER_DEPTH}. The walk
 * stops once it has seen more than `budget` characters' worth of data.
 */
function answerProblem(value: unknown, budget: number): string | null {
  let left = budget;
  const walk = (v: unknown, depth: number): string | null => {
    if (--left < 0) return "too large";
    if (v === null || typeof v === "boolean") return null;
    if (typeof v === "string") {
      left -= v.length;
      return left < 0 ? "too large" : null;
    }
    if (typeof v === "number") return Number.isFinite(v) ? null : "a non-finite number";
    if (typeof v !== "object") return `a ${typeof v}`;
    if (depth >= MAX_ANSWER_DEPTH) return `nested deeper than ${MAX_ANSWER_DEPTH}`;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        if (!Object.hasOwn(v, i) || v[i] === undefined) return "an array with holes or undefined";
        const p = walk(v[i], depth + 1);
        if (p !== null) return p;
      }
      return null;
    }
    if (!isPlainObject(v)) return "an object that is not plain data";
    for (const k of Object.keys(v)) {
      left -= k.length;
      const x = v[k];
      if (x === undefined) continue;
      const p = walk(x, depth + 1);
      if (p !== null) return p;
    }
    return null;
  };
  try {
    return walk(value, 0);
  } catch {
    return "unreadable";
  }
}

/** A fresh JSON copy of a validated answer, or the reason it cannot be stored. */
function answerCopy(
  value: unknown,
  maxBytes: number,
): { ok: true; value: unknown } | { ok: false; why: string } {
  const problem = answerProblem(value, maxBytes);
  if (problem !== null) return { ok: false, why: problem };
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return { ok: false, why: "unreadable" };
  }
  if (text === undefined) return { ok: false, why: "undefined" };
  // UTF-8 never takes fewer bytes than UTF-16 units: skip the count when already too long.
  if (text.length > maxBytes || utf8ByteLength(text) > maxBytes) {
    return { ok: false, why: "too large" };
  }
  return { ok: true, value: JSON.parse(text) };
}

function snapshotOf(record: InteractionRecordV1): OpenCardSnapshot {
  const { timeoutMs: _drop, ...card } = record.card;
  return { ...card, correlationId: record.id, createdAt: record.createdAt };
}

function transitionFor(record: InteractionRecordV1): WorkflowTransition | null {
  const s = record.submission;
  if (record.status === "pending" || s === undefined) return null;
  const kind = record.status === "submitted"
    ? "answered"
    : record.status === "declined"
    ? "declined"
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

function fenceToRefusal(
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
      return {
        code: "expired",
        message: "the interaction expired",
        expiresAt: f.current.expiresAt as number,
      };
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
function stateRefusal(record: InteractionRecordV1, now: number): InteractionRefusal | null {
  const s = record.submission;
  if ((record.status === "submitted" || record.status === "declined") && s !== undefined) {
    return { code: "duplicate", message: "the interaction was already answered", submission: s };
  }
  if (record.status === "cancelled") {
    return s === undefined
      ? { code: "cancelled", message: "the interaction was cancelled" }
      : { code: "cancelled", message: "the interaction was cancelled", submission: s };
  }
  if (record.expiresAt !== null && now >= record.expiresAt) {
    return { code: "expired", message: "the interaction expired", expiresAt: record.expiresAt };
  }
  return null;
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
    this.#maxAnswer = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
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
    if (this.#schemas(schema) === undefined) return err(unknownSchema(schema));
    const createdAt = this.#now();
    if (!Number.isFinite(createdAt)) {
      return invalidRequest("the resolver's clock returned a non-finite time");
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
   * switched). Stores a `cancel` submission (source `server`) and a
   * `cancelled` transition. `reason` is at most
   * {@link MAX_METADATA_VALUE_LENGTH} UTF-16 code units. Same refusals as
   * `answer` (no validation ones).
   */
  cancel(
    id: string,
    caller: InteractionAuthority,
    options: { readonly reason?: string; readonly submissionId?: string } = {},
  ): Promise<Result<AnswerOutcome, InteractionRefusal>> {
    const checked = readingInput(() => {
      if (!isPlainObject(options)) return invalidRequest("cancel options must be an object");
      const reason = options.reason;
      if (
        reason !== undefined &&
        (typeof reason !== "string" || reason.length > MAX_METADATA_VALUE_LENGTH)
      ) {
        return invalidRequest(
          `reason must be a string of at most ${MAX_METADATA_VALUE_LENGTH} characters`,
        );
      }
      const call = this.#checkCall({ id, caller, submissionId: options.submissionId }, true);
      return call.ok ? ok({ call: call.value, reason }) : call;
    });
    if (!checked.ok) return Promise.resolve(checked);
    const { call, reason } = checked.value;
    return this.#resolve(call, "cancel", undefined, "server", reason);
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
    if (this.#schemas(ref) === undefined) return err(unknownSchema(ref));
    const pre = await this.#preRead(call.id, call.caller);
    if (!pre.ok) return pre;
    return this.#commit(call.id, call.caller, pre.value, { kind: "schema", schema: ref });
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
    return this.#commit(call.id, call.caller, pre.value, { kind: "metadata", patch: copy });
  }

  /**
   * Read the interaction for `caller`: pending or terminal state, never
   * advancing anything, with the authority rechecked by the store.
   * Refuses `invalid-request`, `not-found`, `unauthorized`,
   * `store-unavailable` (the store threw or answered malformed).
   */
  async read(
    id: string,
    caller: InteractionAuthority,
  ): Promise<Result<InteractionView, NotFoundRefusal | UnauthorizedRefusal | InteractionRefusal>> {
    const call = readingInput(() => this.#checkCall({ id, caller }));
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
   * `resolving`, also check or mint the submission id.
   */
  #checkCall(
    input: { id: unknown; caller: unknown; submissionId?: unknown },
    resolving = false,
  ): Result<CheckedCall, InteractionRefusal> {
    if (!isRecord(input)) return invalidRequest("the input must be an object");
    const id = input.id;
    if (!validId(id)) return invalidRequest(`id must be 1..${MAX_ID_LENGTH} characters`);
    const caller = input.caller;
    if (!validAuthority(caller)) return invalidRequest("caller needs five non-empty string fields");
    const submissionId = resolving ? input.submissionId ?? this.#newId() : "";
    if (resolving && !validId(submissionId)) {
      return invalidRequest(`submissionId must be 1..${MAX_ID_LENGTH} characters`);
    }
    return ok({ id, caller: copyAuthority(caller), submissionId: submissionId as string });
  }

  /** The store's read, or `null` when it threw or answered outside its contract. */
  async #safeRead(id: string, caller: InteractionAuthority): Promise<StoreRead | null> {
    try {
      return checkedRead(await this.#store.read(id, caller), id, caller);
    } catch {
      return null;
    }
  }

  /** The store's read, or `store-unavailable` / `not-found` / `unauthorized`. */
  async #readOrRefuse(
    id: string,
    caller: InteractionAuthority,
  ): Promise<Result<{ record: InteractionRecordV1; now: number }, InteractionRefusal>> {
    const r = await this.#safeRead(id, caller);
    if (r === null) return err(unavailable());
    if (!r.ok) return err(r.code === "not-found" ? notFound() : unauthorized());
    return ok({ record: r.record, now: r.now });
  }

  /** The record as read before a change, refused when it no longer accepts one. */
  async #preRead(
    id: string,
    caller: InteractionAuthority,
  ): Promise<Result<InteractionRecordV1, InteractionRefusal>> {
    const r = await this.#readOrRefuse(id, caller);
    if (!r.ok) return r;
    const refusal = stateRefusal(r.value.record, r.value.now);
    return refusal !== null ? err(refusal) : ok(r.value.record);
  }

  async #resolve(
    input: CheckedCall,
    action: "submit" | "decline" | "cancel",
    rawValue: unknown,
    source: SubmissionSource,
    reason?: string,
  ): Promise<Result<AnswerOutcome, InteractionRefusal>> {
    const pre = await this.#preRead(input.id, input.caller);
    if (!pre.ok) return pre;
    const record = pre.value;
    let value: unknown = undefined;
    if (action === "submit") {
      const schema = this.#schemas(record.schema);
      if (schema === undefined) {
        return err(unknownSchema(record.schema));
      }
      const validated = await standardValidate(schema, rawValue);
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
    });
    if (!outcome.ok) return outcome;
    const submission = outcome.value.record.submission as StoredSubmission;
    return ok({ ...outcome.value, submission });
  }

  /** Build the next record for `intent` on top of `current`. */
  #next(current: InteractionRecordV1, intent: Intent, now: number): InteractionRecordV1 {
    const revision = current.revision + 1;
    if (intent.kind === "schema") return { ...current, revision, schema: intent.schema };
    if (intent.kind === "metadata") {
      return {
        ...current,
        revision,
        metadata: mergeMetadata(current.metadata, intent.patch) ?? current.metadata,
      };
    }
    const submission: StoredSubmission = {
      submissionId: intent.submissionId,
      action: intent.action,
      ...(intent.action === "submit" ? { value: intent.value } : {}),
      principalId: current.authority.principalId,
      at: now,
      source: intent.source,
      ...(intent.reason !== undefined ? { reason: intent.reason } : {}),
    };
    const status = intent.action === "submit"
      ? "submitted"
      : intent.action === "decline"
      ? "declined"
      : "cancelled";
    return { ...current, revision, status, submission };
  }

  /** Does `record` show that `intent` (on top of revision `from`) is stored? */
  #stored(record: InteractionRecordV1, intent: Intent, from: InteractionRecordV1): boolean {
    if (intent.kind === "resolve") {
      return record.submission?.submissionId === intent.submissionId;
    }
    // Non-resolving changes carry no id: recognise them only as the very next revision.
    if (record.revision !== from.revision + 1) return false;
    if (intent.kind === "schema") return sameSchema(record.schema, intent.schema);
    const want = mergeMetadata(from.metadata, intent.patch);
    return want !== null && sameMetadata(want, record.metadata);
  }

  async #commit(
    id: string,
    caller: InteractionAuthority,
    validatedAgainst: InteractionRecordV1,
    intent: Intent,
  ): Promise<Result<ResolvedOutcome, InteractionRefusal>> {
    const expectedRevision = validatedAgainst.revision;
    const expectedSchema = validatedAgainst.schema;
    type R = InteractionRefusal | null;
    // What the one callback invocation decided. The store must call back
    // exactly once; a second invocation is refused a write (never a second
    // advance) and, like no invocation at all, makes the outcome uncertain.
    let calls = 0;
    let decided: TransactDecision<R> | undefined;
    const decide = (
      current: InteractionRecordV1,
      ctx: { now: number },
    ): TransactDecision<R> => {
      if (++calls > 1) return { kind: "read", result: null };
      decided = this.#decide(current, ctx, intent, expectedRevision, expectedSchema);
      return decided;
    };
    let outcome: unknown;
    try {
      outcome = await this.#store.transact(
        { id, caller, expectedRevision, expectedSchema },
        decide,
      );
    } catch {
      return this.#reconcile(id, caller, validatedAgainst, intent);
    }
    if (calls === 0) {
      const fence = checkedFence(outcome, id);
      if (fence !== null) return err(fenceToRefusal(fence, expectedRevision, expectedSchema));
    }
    // Anything but "called back once, then acknowledged": the store broke its
    // contract and this worker cannot know what was stored. One read decides.
    if (calls !== 1 || decided === undefined || !isRecord(outcome) || outcome.ok !== true) {
      return this.#reconcile(id, caller, validatedAgainst, intent);
    }
    if (decided.kind === "read") return err(decided.result as InteractionRefusal);
    return ok({ outcome: "committed", record: decided.next, transition: decided.transition });
  }

  /** The callback's decision for `intent` on the fenced `current` record. */
  #decide(
    current: InteractionRecordV1,
    ctx: { now: number },
    intent: Intent,
    expectedRevision: number,
    expectedSchema: SchemaRef,
  ): TransactDecision<InteractionRefusal | null> {
    // Defence in depth: the store fenced all of this already.
    const late = stateRefusal(current, ctx.now);
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
    const next = this.#next(current, intent, ctx.now);
    return { kind: "write", next, transition: transitionFor(next), result: null };
  }

  /** Uncertain acknowledgement: exactly one read, never a retried write. */
  async #reconcile(
    id: string,
    caller: InteractionAuthority,
    from: InteractionRecordV1,
    intent: Intent,
  ): Promise<Result<ResolvedOutcome, InteractionRefusal>> {
    const submissionId = intent.kind === "resolve" ? intent.submissionId : `${id}@${from.revision}`;
    const r = await this.#safeRead(id, caller);
    const observed = r !== null && r.ok ? r.record : undefined;
    if (observed !== undefined && this.#stored(observed, intent, from)) {
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
}

function unavailable(): InteractionRefusal {
  return {
    code: "store-unavailable",
    message: "the store failed; nothing was changed by this call",
  };
}
function unknownSchema(schema: SchemaRef): InteractionRefusal {
  return { code: "unknown-schema", message: "no validator for this schema", schema };
}
function notFound(): NotFoundRefusal {
  return { code: "not-found", message: "no such interaction" };
}
function unauthorized(): UnauthorizedRefusal {
  return { code: "unauthorized", message: "the caller may not act on this interaction" };
}
