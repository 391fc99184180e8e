/**
 * `PostgresInteractionStore`: the core's `InteractionStore` (durable card
 * answers with fencing) on PostgreSQL, with its outbox of workflow
 * transitions and the authority rows its fence reads.
 *
 * What it locks, and why (the core's rules on `InteractionStore`, in SQL):
 *
 * 1. **The interaction row, for the whole transaction.** `transact` is ONE
 *    transaction: its first statement reads the row `FOR UPDATE`; the
 *    fence (`evaluateFence`), the callback, the write and COMMIT follow
 *    under that lock. Not a read followed by an unconditional update, not
 *    SERIALIZABLE with retries.
 * 2. **Authority rows are read under the fence.** The same statement reads
 *    the bound authority's row (a user caller) or the caller's system grant
 *    for the record's tenant (a system caller) `FOR SHARE`. A revocation is
 *    an ordinary write to that row (`revoke` sets `revoked_at`,
 *    `revokeSystem` deletes the grant), so it waits for a transaction that
 *    read it, and the next fence refuses.
 * 3. **Record and transition in one transaction.** Both are serialized
 *    before either is written, then one statement updates the row and
 *    inserts the outbox row.
 * 4. **Conflicts carry the current record:** the fence's refusals carry the
 *    row it read under the lock.
 * 5. **One clock that never steps back.** Expiry is judged by the DATABASE
 *    clock (`clock_timestamp()`, epoch ms), clamped by a high-water mark:
 *    whenever a read or a fence sees a pending card expired by the clock,
 *    the mark is raised to at least its `expiresAt` before answering, so the
 *    card stays expired for every process even if the database clock steps
 *    back; each instance also never hands out a time earlier than one it
 *    handed out before.
 * 6. **Acknowledged means durable.** Every method resolves after its
 *    statement or COMMIT was acknowledged and rejects with the driver's
 *    `PgDriverError` on any failure (`commit: "uncertain"` when a COMMIT's
 *    outcome is unknown). Nothing is retried: the resolver reads once.
 *
 * @module
 */
import { PgArgumentError } from "./errors.ts";
import {
  evaluateFence,
  type InteractionAuthority,
  type InteractionCaller,
  type InteractionRecordV1,
  type InteractionStore,
  isSystemCaller,
  nextRecordProblem,
  sameAuthority,
  type StoreRead,
  type SystemAuthority,
  type TransactCallback,
  type TransactCommit,
  type TransactDecision,
  type TransactRequest,
  type WorkflowTransition,
} from "@papercusp/chat-protocol/interactions";
import type { AlreadyExistsRefusal, FenceRefusal } from "@papercusp/chat-protocol/interactions";
import type { Result } from "@papercusp/chat-protocol";
import type { PgDriver, PgParam, PgQueryable, PgTransactionOptions } from "./driver.ts";
import { type TableNames, tableNames, type TableOptions } from "./names.ts";
import { safeInt } from "./_rows.ts";
import { exceedsUtf8Bytes, isStorableText } from "./_text.ts";

/** Default bound of one stored record or transition: 1 MiB of UTF-8 JSON. */
export const DEFAULT_MAX_RECORD_BYTES = 1_048_576;

/** Options of {@link PostgresInteractionStore}. */
export interface PostgresInteractionStoreOptions extends TableOptions {
  /**
   * Milliseconds added to the database clock, read at every use (tests and
   * the conformance harness move the store clock with it); default none.
   * Must return a safe integer.
   */
  readonly clockOffsetMs?: () => number;
  /** Largest stored record or transition, UTF-8 bytes of JSON; default {@link DEFAULT_MAX_RECORD_BYTES}. */
  readonly maxRecordBytes?: number;
  /** Timeouts of the store's transactions, ms; default: the driver's. */
  readonly transaction?: Pick<PgTransactionOptions, "lockTimeoutMs" | "statementTimeoutMs">;
}

/** A transition taken from the outbox by {@link PostgresInteractionStore.consumeOutbox}. */
export interface OutboxEntry {
  /** Position in the outbox (ascending in insertion order; gaps are normal). */
  readonly position: number;
  /** The transition as stored. */
  readonly transition: WorkflowTransition;
}

/** A caller read once: its kind and the fields the SQL needs. */
type CallerSnapshot =
  | { readonly kind: "user"; readonly caller: InteractionAuthority }
  | { readonly kind: "system"; readonly caller: SystemAuthority };

interface FenceRow {
  readonly record: string;
  readonly authorized: boolean;
  readonly db_ms: unknown;
  readonly hw_ms: unknown;
}

const AUTHORITY_COLUMNS = [
  ["tenantId", "tenant_id"],
  ["principalId", "principal_id"],
  ["conversationId", "conversation_id"],
  ["customerId", "customer_id"],
  ["publicOwnerId", "public_owner_id"],
] as const;

/**
 * The core's `InteractionStore` on PostgreSQL (tables of schema version 3:
 * run `migrate` first, with the same schema and prefix), plus the host's
 * side of it: authority grants and revocations, system grants, the store
 * clock and the outbox. Any number of instances and processes may share the
 * tables. See the module doc for what each call locks.
 *
 * Records, transitions and ids a column cannot hold unchanged (NUL, lone
 * surrogates, more than `maxRecordBytes` of JSON, data that is not JSON)
 * make a write reject with a `TypeError` before anything is written; a read
 * of such an id answers `not-found`. The constructor throws
 * `TableOptionsError` for invalid table options and `PgArgumentError` for an
 * invalid `maxRecordBytes`.
 *
 * @example
 * ```ts
 * import { PGlite } from "@electric-sql/pglite";
 * import { InteractionResolver } from "@papercusp/chat-protocol/interactions";
 * import { migrate, pgliteDriver, PostgresInteractionStore } from "@papercusp/chat-protocol-postgres";
 *
 * const sql = pgliteDriver(await PGlite.create());
 * const migrated = await migrate(sql);
 * if (!migrated.ok) throw new Error(migrated.error.message);
 * const store = new PostgresInteractionStore(sql);
 * const resolver = new InteractionResolver({ store, schemas: () => undefined });
 * // Deliver the transitions committed with each answer (at least once):
 * await store.consumeOutbox((batch) => console.log(batch.map((e) => e.transition.kind)));
 * ```
 */
export class PostgresInteractionStore implements InteractionStore {
  /** The driver every statement runs on. */
  readonly driver: PgDriver;
  /** The quoted table names in use. */
  readonly names: TableNames;
  readonly #offset: () => number;
  readonly #max: number;
  readonly #tx: PgTransactionOptions;
  readonly #sql: Statements;
  #last = Number.NEGATIVE_INFINITY;

  /** A store over `driver` and the tables named by `options` (see the class doc for what it throws). */
  constructor(driver: PgDriver, options: PostgresInteractionStoreOptions = {}) {
    this.driver = driver;
    this.names = tableNames(options);
    const max = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
    if (!Number.isSafeInteger(max) || max < 2) {
      throw new PgArgumentError(
        "invalid-option",
        "maxRecordBytes must be an integer of at least 2",
      );
    }
    this.#max = max;
    this.#offset = options.clockOffsetMs ?? (() => 0);
    this.#tx = { ...options.transaction };
    this.#sql = statements(this.names);
  }

  /**
   * Insert `record` iff no record has its id (and its bound authority's row
   * iff absent: a revoked authority stays revoked). One statement. Resolves
   * `already-exists` when the id is taken; rejects with a `TypeError` for a
   * record a column cannot hold, or the driver's `PgDriverError`.
   */
  async create(
    record: InteractionRecordV1,
  ): Promise<Result<InteractionRecordV1, AlreadyExistsRefusal>> {
    const text = this.#json(record, "record");
    const stored = JSON.parse(text) as InteractionRecordV1;
    const id = stored.id;
    if (!isStorableText(id) || id.length === 0) throw new TypeError("record.id is not storable");
    const authority = authorityParams(stored.authority);
    const { rows } = await this.driver.query<{ n: number }>(this.#sql.create, [
      id,
      text,
      safeRevision(stored.revision),
      String(stored.status),
      finiteOrNull(stored.expiresAt),
      ...authority,
    ]);
    if (Number(rows[0]?.n) !== 1) {
      return { ok: false, error: { code: "already-exists", message: `interaction ${id} exists` } };
    }
    return { ok: true, value: stored };
  }

  /**
   * Read the record for `caller`: `not-found`, `unauthorized` (a user not
   * equal to the bound authority on all five fields, or revoked; a system
   * caller without a grant for the record's tenant, or of another tenant),
   * or the record with the store clock. Never locks; raises the clock's
   * high-water mark when it sees the card expired by the clock. Rejects with
   * the driver's `PgDriverError`.
   */
  async read(id: string, caller: InteractionCaller): Promise<StoreRead> {
    const who = snapshotCaller(caller);
    if (who === null) return { ok: false, code: "unauthorized" };
    if (!isStorableText(id)) return { ok: false, code: "not-found" };
    const { rows } = await this.driver.query<FenceRow>(this.#sql.read, [
      id,
      who.kind,
      who.kind === "system" ? who.caller.actorId : "",
      this.#offsetMs(),
    ]);
    const row = rows[0];
    if (row === undefined) return { ok: false, code: "not-found" };
    const record = parseRecord(row.record);
    const allowed = row.authorized === true &&
      (who.kind === "system"
        ? who.caller.tenantId === record.authority.tenantId
        : sameAuthority(record.authority, who.caller));
    if (!allowed) return { ok: false, code: "unauthorized" };
    const now = this.#clamp(row);
    await this.#keepExpired(this.driver, record, now, row);
    return { ok: true, record, now };
  }

  /**
   * The fenced transaction: ONE transaction; its first statement locks the
   * row (`FOR UPDATE`), reads the caller's authority row `FOR SHARE` and the
   * clock; `evaluateFence` decides; `fn` is called once and awaited; a
   * `write` decision is checked (`nextRecordProblem`, the transition's
   * interaction), serialized (record and transition both, before writing
   * either) and written with its outbox row by one statement; COMMIT.
   * Refusals carry the current record and write nothing (except the clock's
   * high-water mark). Rejects with a `TypeError` for a decision that cannot
   * be stored (nothing is written), with what `fn` threw, or with the
   * driver's `PgDriverError`.
   */
  async transact<T>(
    request: TransactRequest,
    fn: TransactCallback<T>,
  ): Promise<Result<TransactCommit<T>, FenceRefusal>> {
    const q = snapshotRequest(request);
    if (q.who === null) return { ok: false, error: unauthorized() };
    if (!isStorableText(q.id)) return { ok: false, error: notFound() };
    const who = q.who;
    const params: PgParam[] = [
      q.id,
      who.kind,
      who.kind === "system" ? who.caller.actorId : "",
      this.#offsetMs(),
    ];
    return await this.driver.transaction(async (tx) => {
      const { rows } = await tx.query<FenceRow>(this.#sql.fence, params);
      const row = rows[0];
      const current = row === undefined ? undefined : parseRecord(row.record);
      const now = row === undefined ? 0 : this.#clamp(row);
      const refusal = evaluateFence(
        current,
        q.request,
        row?.authorized === true,
        now,
      );
      if (refusal !== null) {
        if (current !== undefined && row !== undefined) {
          await this.#keepExpired(tx, current, now, row);
        }
        return { ok: false, error: refusal };
      }
      const cur = current as InteractionRecordV1;
      const decision: TransactDecision<T> = await fn(parseRecord(row!.record), {
        authority: cur.authority,
        now,
      });
      if (decision?.kind === "read") {
        return { ok: true, value: { result: decision.result, record: cur, transition: null } };
      }
      if (decision?.kind !== "write") throw new TypeError("the callback returned no decision");
      return { ok: true, value: await this.#write(tx, cur, decision) };
    }, this.#tx);
  }

  async #write<T>(
    tx: PgQueryable,
    cur: InteractionRecordV1,
    decision: TransactDecision<T> & { readonly kind: "write" },
  ): Promise<TransactCommit<T>> {
    const problem = nextRecordProblem(cur, decision.next);
    if (problem !== null) throw new TypeError(`invalid next record: ${problem}`);
    const transition = decision.transition;
    if (transition !== null && transition?.interactionId !== cur.id) {
      throw new TypeError("the transition belongs to another interaction");
    }
    // Serialize both before writing either: a throw here writes nothing.
    const text = this.#json(decision.next, "next record");
    const transitionText = transition === null ? null : this.#json(transition, "transition");
    const record = JSON.parse(text) as InteractionRecordV1;
    const stored = transitionText === null
      ? null
      : JSON.parse(transitionText) as WorkflowTransition;
    if (stored !== null && (!isStorableText(stored.id) || typeof stored.kind !== "string")) {
      throw new TypeError("the transition's id or kind is not storable");
    }
    await tx.query(this.#sql.write, [
      cur.id,
      text,
      safeRevision(record.revision),
      String(record.status),
      finiteOrNull(record.expiresAt),
      stored?.id ?? null,
      stored?.kind ?? null,
      transitionText,
    ]);
    return { result: decision.result, record, transition: stored };
  }

  /**
   * The store clock, epoch ms: the database clock (plus `clockOffsetMs`),
   * never earlier than the high-water mark or a time this instance handed
   * out before. Rejects with the driver's `PgDriverError`.
   */
  async now(): Promise<number> {
    const { rows } = await this.driver.query<FenceRow>(this.#sql.clock, [this.#offsetMs()]);
    return this.#clamp(rows[0]);
  }

  /**
   * Revoke every bound authority equal to `match` on the fields it gives (at
   * least one): sets `revoked_at` on their rows, so it waits for every
   * transaction that read them and later fences and reads refuse. With all
   * five fields, a row is created revoked when none exists yet (a card
   * opened later for it is refused too); a partial match revokes the rows
   * of cards opened so far. Runs on `tx` when given. Resolves to the rows
   * revoked; rejects with a `TypeError` for a bad match, or `PgDriverError`.
   */
  async revoke(
    match: Partial<InteractionAuthority>,
    tx: PgQueryable = this.driver,
  ): Promise<number> {
    const fields: [string, string][] = [];
    for (const [key, column] of AUTHORITY_COLUMNS) {
      const v = match[key];
      if (v === undefined) continue;
      if (!isStorableText(v)) throw new TypeError(`${key} is not storable text`);
      fields.push([column, v]);
    }
    if (fields.length === 0) {
      throw new PgArgumentError("invalid-argument", "revoke needs at least one authority field");
    }
    if (fields.length === AUTHORITY_COLUMNS.length) {
      const { rows } = await tx.query(this.#sql.revokeOne, authorityParams(match));
      return rows.length;
    }
    const where = fields.map(([c], i) => `${c} = $${i + 1}::text`).join(" AND ");
    const { rows } = await tx.query(
      `UPDATE ${this.names.interactionAuthorities} SET revoked_at = clock_timestamp()
       WHERE revoked_at IS NULL AND ${where} RETURNING tenant_id`,
      fields.map(([, v]) => v),
    );
    return rows.length;
  }

  /**
   * Grant (again) a bound authority: its row is created, or its revocation
   * cleared. Runs on `tx` when given. Rejects with a `TypeError` for a bad
   * authority, or `PgDriverError`.
   */
  async grant(authority: InteractionAuthority, tx: PgQueryable = this.driver): Promise<void> {
    await tx.query(this.#sql.grant, authorityParams(authority));
  }

  /** Grant the host identity `actorId` system authority (cancel, expire) in `tenantId`. Idempotent. */
  async grantSystem(
    actor: Pick<SystemAuthority, "actorId" | "tenantId">,
    tx: PgQueryable = this.driver,
  ): Promise<void> {
    await tx.query(this.#sql.grantSystem, systemParams(actor));
  }

  /** Withdraw a system grant (deletes its row: waits for transactions that read it). */
  async revokeSystem(
    actor: Pick<SystemAuthority, "actorId" | "tenantId">,
    tx: PgQueryable = this.driver,
  ): Promise<void> {
    await tx.query(this.#sql.revokeSystem, systemParams(actor));
  }

  /** The record stored under `id`, bypassing authority (for operators and tests), or `null`. */
  async peek(id: string): Promise<InteractionRecordV1 | null> {
    if (!isStorableText(id)) return null;
    const { rows } = await this.driver.query<{ record: string }>(this.#sql.peek, [id]);
    return rows.length === 0 ? null : parseRecord(rows[0].record);
  }

  /** The workflow transitions stored for one interaction, in commit order. */
  async transitions(interactionId: string): Promise<WorkflowTransition[]> {
    if (!isStorableText(interactionId)) return [];
    const { rows } = await this.driver.query<{ transition: string }>(this.#sql.transitions, [
      interactionId,
    ]);
    return rows.map((r) => JSON.parse(r.transition) as WorkflowTransition);
  }

  /**
   * Hand up to `limit` (default 100, at most 10,000) undelivered outbox
   * entries, oldest first, to `handler`, and mark them delivered, in one
   * transaction (`FOR UPDATE SKIP LOCKED`: consumers in several processes
   * take disjoint batches). When `handler` throws, nothing is marked and its
   * error is rethrown; if COMMIT fails after `handler` ran, the batch is
   * handed over again later: delivery is at least once, so the handler must
   * be idempotent by `transition.id`. Resolves to the number handed over
   * (0: nothing was pending, `handler` not called).
   */
  async consumeOutbox(
    handler: (batch: readonly OutboxEntry[]) => void | Promise<void>,
    options: { readonly limit?: number } = {},
  ): Promise<number> {
    const limit = options.limit ?? 100;
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > 10_000) {
      throw new PgArgumentError("invalid-argument", "limit must be an integer from 1 to 10,000");
    }
    return await this.driver.transaction(async (tx) => {
      const { rows } = await tx.query<{ position: unknown; transition: string }>(
        this.#sql.takeOutbox,
        [limit],
      );
      if (rows.length === 0) return 0;
      const batch = rows.map((r) => ({
        position: safeInt(r.position, "position"),
        transition: JSON.parse(r.transition) as WorkflowTransition,
      }));
      await handler(batch);
      await tx.query(this.#sql.markDelivered, [`{${batch.map((e) => e.position).join(",")}}`]);
      return batch.length;
    }, this.#tx);
  }

  #offsetMs(): number {
    const v = this.#offset();
    if (!Number.isSafeInteger(v)) {
      throw new PgArgumentError("invalid-option", "clockOffsetMs must return a safe integer");
    }
    return v;
  }

  /** The store time of a row: database clock, high-water mark and this instance's last time. */
  #clamp(row: Pick<FenceRow, "db_ms" | "hw_ms"> | undefined): number {
    if (row === undefined) throw new TypeError("the clock query returned no row");
    const db = safeInt(row.db_ms, "db_ms");
    const hw = row.hw_ms === null ? db : safeInt(row.hw_ms, "high_water_ms");
    this.#last = Math.max(this.#last, db, hw);
    return this.#last;
  }

  /** A pending card seen expired by the clock keeps the high-water mark at or past its expiry. */
  async #keepExpired(
    q: PgQueryable,
    record: InteractionRecordV1,
    now: number,
    row: FenceRow,
  ): Promise<void> {
    const at = record.expiresAt;
    if (record.status !== "pending" || typeof at !== "number" || now < at) return;
    const hw = row.hw_ms === null ? Number.NEGATIVE_INFINITY : safeInt(row.hw_ms, "high_water_ms");
    if (hw >= at || !Number.isSafeInteger(Math.ceil(at))) return;
    await q.query(this.#sql.raiseClock, [Math.ceil(at)]);
  }

  #json(value: unknown, what: string): string {
    let text: string | undefined;
    try {
      text = JSON.stringify(value);
    } catch (e) {
      throw new TypeError(`${what} is not JSON data`, { cause: e });
    }
    if (typeof text !== "string" || !text.startsWith("{")) {
      throw new TypeError(`${what} is not a JSON object`);
    }
    if (exceedsUtf8Bytes(text, this.#max)) {
      throw new TypeError(`${what} is more than ${this.#max} bytes of JSON`);
    }
    return text;
  }
}

function unauthorized(): FenceRefusal {
  return { code: "unauthorized", message: "the caller may not act on this interaction" };
}

function notFound(): FenceRefusal {
  return { code: "not-found", message: "no such interaction" };
}

/** The caller read once, or `null` when it is not a well-formed user or system caller. */
function snapshotCaller(caller: unknown): CallerSnapshot | null {
  try {
    if (typeof caller !== "object" || caller === null) return null;
    if (isSystemCaller(caller as InteractionCaller)) {
      const { actorId, tenantId } = caller as SystemAuthority;
      if (!isStorableText(actorId) || !isStorableText(tenantId)) return null;
      return { kind: "system", caller: { kind: "system", actorId, tenantId } };
    }
    const c = caller as InteractionAuthority;
    const copy = {
      conversationId: c.conversationId,
      principalId: c.principalId,
      tenantId: c.tenantId,
      customerId: c.customerId,
      publicOwnerId: c.publicOwnerId,
    };
    if (!Object.values(copy).every((v) => typeof v === "string")) return null;
    return { kind: "user", caller: copy };
  } catch {
    return null;
  }
}

/** The request read once (a `TypeError` when reading it throws). */
function snapshotRequest(request: TransactRequest): {
  readonly id: string;
  readonly who: CallerSnapshot | null;
  readonly request: TransactRequest;
} {
  try {
    const { id, caller, action, expectedRevision, expectedSchema } = request;
    const who = snapshotCaller(caller);
    const schema = { id: expectedSchema?.id, revision: expectedSchema?.revision };
    return {
      id,
      who,
      request: {
        id,
        caller: who?.caller ?? caller,
        action,
        expectedRevision,
        expectedSchema: schema as TransactRequest["expectedSchema"],
      },
    };
  } catch (e) {
    throw new TypeError("the transact request cannot be read", { cause: e });
  }
}

function authorityParams(a: Partial<InteractionAuthority> | undefined): string[] {
  return AUTHORITY_COLUMNS.map(([key]) => {
    const v = a?.[key];
    if (!isStorableText(v)) throw new TypeError(`authority.${key} is not storable text`);
    return v;
  });
}

function systemParams(actor: Pick<SystemAuthority, "actorId" | "tenantId">): string[] {
  const { actorId, tenantId } = actor;
  if (!isStorableText(actorId) || !isStorableText(tenantId)) {
    throw new TypeError("actorId and tenantId must be storable text");
  }
  return [actorId, tenantId];
}

function parseRecord(text: string): InteractionRecordV1 {
  const r: unknown = JSON.parse(text);
  if (typeof r !== "object" || r === null) throw new TypeError("a stored record is not an object");
  return r as InteractionRecordV1;
}

function safeRevision(v: unknown): number {
  if (!Number.isSafeInteger(v) || (v as number) < 1) {
    throw new TypeError("record.revision must be a positive integer");
  }
  return v as number;
}

function finiteOrNull(v: unknown): string | null {
  return typeof v === "number" && Number.isFinite(v) ? String(v) : null;
}

type Statements = ReturnType<typeof statements>;

/** The store's statements over `n` (built once per instance). */
function statements(n: TableNames) {
  const I = n.interactions, O = n.interactionOutbox, A = n.interactionAuthorities;
  const S = n.interactionSystemGrants, C = n.interactionClock;
  const dbMs = "floor(extract(epoch from clock_timestamp()) * 1000)::bigint + $4::bigint";
  const authorityJoin = AUTHORITY_COLUMNS.map(([, c]) => `au.${c} = r.${c}`).join(" AND ");
  // $1 id, $2 caller kind, $3 system actor id, $4 clock offset.
  const authorized = `CASE WHEN $2::text = 'system'
       THEN EXISTS (SELECT 1 FROM ${S} AS sg WHERE sg.actor_id = $3::text AND sg.tenant_id = r.tenant_id)
       ELSE EXISTS (SELECT 1 FROM ${A} AS au WHERE ${authorityJoin} AND au.revoked_at IS NULL) END`;
  return {
    create: `WITH a AS (
        INSERT INTO ${A} (tenant_id, principal_id, conversation_id, customer_id, public_owner_id)
        VALUES ($6::text, $7::text, $8::text, $9::text, $10::text) ON CONFLICT DO NOTHING),
      r AS (
        INSERT INTO ${I} (id, record, revision, status, expires_at, tenant_id, principal_id,
          conversation_id, customer_id, public_owner_id)
        VALUES ($1::text, $2::text, $3::bigint, $4::text, $5::float8::bigint, $6::text, $7::text,
          $8::text, $9::text, $10::text)
        ON CONFLICT (id) DO NOTHING RETURNING id)
      SELECT count(*)::int AS n FROM r`,
    read: `SELECT r.record, ${authorized} AS authorized, ${dbMs} AS db_ms,
        (SELECT high_water_ms FROM ${C}) AS hw_ms
      FROM ${I} AS r WHERE r.id = $1::text`,
    // The row locked first, then the caller's authority row FOR SHARE.
    fence: `WITH r AS MATERIALIZED (
        SELECT id, record, tenant_id, principal_id, conversation_id, customer_id, public_owner_id
        FROM ${I} WHERE id = $1::text FOR UPDATE),
      a AS MATERIALIZED (
        SELECT au.revoked_at FROM ${A} AS au, r
        WHERE $2::text = 'user' AND ${authorityJoin} FOR SHARE OF au),
      s AS MATERIALIZED (
        SELECT 1 FROM ${S} AS sg, r
        WHERE $2::text = 'system' AND sg.actor_id = $3::text AND sg.tenant_id = r.tenant_id
        FOR SHARE OF sg)
      SELECT r.record,
        CASE WHEN $2::text = 'system' THEN EXISTS (SELECT 1 FROM s)
          ELSE EXISTS (SELECT 1 FROM a WHERE a.revoked_at IS NULL) END AS authorized,
        ${dbMs} AS db_ms, (SELECT high_water_ms FROM ${C}) AS hw_ms
      FROM r`,
    write: `WITH u AS (
        UPDATE ${I} SET record = $2::text, revision = $3::bigint, status = $4::text,
          expires_at = $5::float8::bigint, updated_at = clock_timestamp()
        WHERE id = $1::text RETURNING id)
      INSERT INTO ${O} (transition_id, interaction_id, kind, transition)
      SELECT $6::text, u.id, $7::text, $8::text FROM u WHERE $8::text IS NOT NULL`,
    clock: `SELECT ${dbMs.replace("$4", "$1")} AS db_ms, (SELECT high_water_ms FROM ${C}) AS hw_ms`,
    raiseClock: `UPDATE ${C} SET high_water_ms = greatest(high_water_ms, $1::bigint)`,
    revokeOne: `INSERT INTO ${A} (tenant_id, principal_id, conversation_id, customer_id,
        public_owner_id, revoked_at)
      VALUES ($1::text, $2::text, $3::text, $4::text, $5::text, clock_timestamp())
      ON CONFLICT (tenant_id, principal_id, conversation_id, customer_id, public_owner_id)
      DO UPDATE SET revoked_at = coalesce(${A}.revoked_at, clock_timestamp())
      RETURNING tenant_id`,
    grant: `INSERT INTO ${A} (tenant_id, principal_id, conversation_id, customer_id,
        public_owner_id)
      VALUES ($1::text, $2::text, $3::text, $4::text, $5::text)
      ON CONFLICT (tenant_id, principal_id, conversation_id, customer_id, public_owner_id)
      DO UPDATE SET revoked_at = NULL`,
    grantSystem: `INSERT INTO ${S} (actor_id, tenant_id) VALUES ($1::text, $2::text)
      ON CONFLICT DO NOTHING`,
    revokeSystem: `DELETE FROM ${S} WHERE actor_id = $1::text AND tenant_id = $2::text`,
    peek: `SELECT record FROM ${I} WHERE id = $1::text`,
    transitions: `SELECT transition FROM ${O} WHERE interaction_id = $1::text ORDER BY position`,
    takeOutbox: `SELECT position, transition FROM ${O} WHERE delivered_at IS NULL
      ORDER BY position LIMIT $1::int FOR UPDATE SKIP LOCKED`,
    markDelivered:
      `UPDATE ${O} SET delivered_at = clock_timestamp() WHERE position = ANY ($1::bigint[])`,
  };
}
