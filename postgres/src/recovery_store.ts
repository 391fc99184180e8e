/**
 * `PostgresRecoveryStore`: the core's `RecoveryStore` (turn and effect
 * records by revision, the admission fence) and the authority rows its
 * fences read, on PostgreSQL.
 *
 * What it locks, and why (the core's rules on `RecoveryStore`, in SQL):
 *
 * 1. **Cancel takes the admission lock.** `admitDispatch` runs one
 *    transaction that locks the turn row (`SELECT … FOR NO KEY UPDATE`, the
 *    lock the `UPDATE` of a cancelling `casTurn` takes) before it checks
 *    anything, and holds it through `launch` and `COMMIT`.
 * 2. **Authority rows are read under the fence.** The principal's grant row
 *    is read `FOR SHARE` in the same statement; `revoke` deletes that row,
 *    so it waits for the admission that read it, and the next fence finds it
 *    gone. A guarded `casTurn` (cancel, expire) reads the user's or the
 *    system's grant the same way, with the turn locked.
 * 3. **Conflicts carry the current record.** A CAS is one conditional
 *    statement (`INSERT … ON CONFLICT DO NOTHING` for revision 0, else
 *    `UPDATE … WHERE revision = $expected`); when it writes nothing, the
 *    current row is read by the next statement (read committed: the latest
 *    committed version, at least as new as the one that refused).
 * 4. **Acknowledged means durable; uncertain means reject.** Every method
 *    resolves only after its statement or `COMMIT` was acknowledged. Every
 *    database failure rejects with the driver's `PgDriverError`: `commit:
 *    "uncertain"` when the connection was lost while `COMMIT` (or an
 *    auto-committed statement) was in flight, `not-committed` for a
 *    serialization failure, deadlock, lock timeout or any error the server
 *    answered. Nothing is ever retried: `TurnRecovery` reads back once.
 * 5. **The mark survives the launch.** The `admitted` mark is written, then
 *    `launch` is called once and awaited (a throw is swallowed), then COMMIT.
 *
 * Clocks: the store never judges a lease. `leaseUntil` is epoch ms of the
 * HOST clock `TurnRecovery` was given (`now`), stored verbatim; every worker
 * must use clocks that agree far better than the lease (one machine's clock,
 * or `databaseClock`). `stopped_at` and `updated_at` are the database's
 * clock.
 *
 * @module
 */
import { PgArgumentError } from "./errors.ts";
import type {
  ActorKind,
  AdmitOutcome,
  AdmitRequest,
  AuthoritySeam,
  CasOutcome,
  EffectDraft,
  EffectRecord,
  RecoveryStore,
  TurnCasOutcome,
  TurnDraft,
  TurnGuard,
  TurnRecord,
} from "@papercusp/chat-protocol/recovery";
import type { PgDriver, PgParam, PgQueryable, PgTransactionOptions } from "./driver.ts";
import { type TableNames, tableNames, type TableOptions } from "./names.ts";
import { MESSAGE_FRAME } from "./_frame.ts";
import {
  EFFECT_COLUMNS,
  effectOf,
  effectParams,
  type EffectRow,
  idField,
  isRevision,
  storedEffect,
  TURN_COLUMNS,
  turnOf,
  turnParams,
  type TurnRow,
} from "./_records.ts";
import { isStorableId, isStorableText } from "./_text.ts";

/** Default bound of one stored effect outcome: 1 MiB of UTF-8 JSON. */
export const DEFAULT_MAX_OUTCOME_BYTES = 1_048_576;

/** Turn id a system grant uses to cover every turn. */
export const ALL_TURNS = "*";

/** Options of {@link PostgresRecoveryStore}. */
export interface PostgresRecoveryStoreOptions extends TableOptions {
  /**
   * Announce every committed write that leaves a turn `cancelled` or
   * `failed` on the cancel channel (`TableNames.cancelChannel`), from the
   * writing statement itself: PostgreSQL delivers it at COMMIT, also when
   * the cancelling process dies right after. Default `true`.
   * `PostgresCancelDelivery` listens on that channel.
   */
  readonly notifyStops?: boolean;
  /** Largest stored outcome, in UTF-8 bytes of its JSON; default {@link DEFAULT_MAX_OUTCOME_BYTES}. */
  readonly maxOutcomeBytes?: number;
  /**
   * Timeouts of the store's own transactions (`admitDispatch`, guarded
   * `casTurn`, `deleteTurn`), ms; default: the driver's. A lock timeout
   * fails the call (`PgDriverError` kind `lock-timeout`, not committed)
   * instead of waiting for a frozen process's locks.
   */
  readonly transaction?: Pick<PgTransactionOptions, "lockTimeoutMs" | "statementTimeoutMs">;
}

const STOPPED = "('cancelled', 'failed')";

/**
 * The core's `RecoveryStore` on PostgreSQL (tables of schema version 2: run
 * `migrate` first, with the same schema and prefix). One instance per
 * driver; any number of instances and processes may share the tables: every
 * coordination goes through the database's row locks. See the module doc
 * for what each method locks.
 *
 * Input a column cannot hold unchanged (a string with NUL or a lone
 * surrogate, a turn id, effect id or principal of more than 1,024 UTF-8
 * bytes (a key column's limit; the core allows 512 UTF-16 code units, up
 * to 1,536 bytes), an outcome that is not JSON data or larger than
 * `maxOutcomeBytes`, a `claims` that is not a safe integer) makes a write
 * reject with a `TypeError` before any SQL is sent; a read of such an id
 * answers `null` (nothing can be stored under it). The constructor throws
 * `TableOptionsError` for invalid table options and `PgArgumentError` for an
 * invalid `maxOutcomeBytes`.
 *
 * @example
 * ```ts
 * import { PGlite } from "@electric-sql/pglite";
 * import { MemoryExecutions, TurnRecovery } from "@papercusp/chat-protocol/recovery";
 * import { migrate, pgliteDriver, PostgresRecoveryStore } from "@papercusp/chat-protocol-postgres";
 *
 * const sql = pgliteDriver(await PGlite.create());
 * const migrated = await migrate(sql, { schema: "chat" });
 * if (!migrated.ok) throw new Error(migrated.error.message);
 * const store = new PostgresRecoveryStore(sql, { schema: "chat" });
 * await store.grant("alice", "turn-1");
 * const worker = new TurnRecovery({
 *   store,
 *   authority: store.authority(),
 *   abort: new MemoryExecutions(),
 * });
 * await worker.beginTurn({
 *   conversationId: "c1",
 *   turnId: "turn-1",
 *   principal: "alice",
 *   effectIds: ["e1"],
 * });
 * const run = await worker.runEffect({
 *   turnId: "turn-1",
 *   effectId: "e1",
 *   principal: "alice",
 *   dispatch: () => ({ sent: true }),
 * });
 * ```
 */
export class PostgresRecoveryStore implements RecoveryStore {
  /** The driver every statement runs on. */
  readonly driver: PgDriver;
  /** The quoted table names in use. */
  readonly names: TableNames;
  readonly #maxOutcome: number;
  readonly #tx: PgTransactionOptions;
  readonly #sql: Statements;

  /** A store over `driver` and the tables named by `options` (see the class doc for what it throws). */
  constructor(driver: PgDriver, options: PostgresRecoveryStoreOptions = {}) {
    this.driver = driver;
    this.names = tableNames(options);
    const max = options.maxOutcomeBytes ?? DEFAULT_MAX_OUTCOME_BYTES;
    if (!Number.isSafeInteger(max) || max < 2) {
      throw new PgArgumentError(
        "invalid-option",
        "maxOutcomeBytes must be an integer of at least 2",
      );
    }
    this.#maxOutcome = max;
    this.#tx = { ...options.transaction };
    this.#sql = statements(this.names, options.notifyStops ?? true);
  }

  /** The current turn record, or `null`. Rejects with `PgDriverError`. */
  async readTurn(turnId: string): Promise<TurnRecord | null> {
    if (!isStorableId(turnId)) return null;
    const { rows } = await this.driver.query<TurnRow>(this.#sql.readTurn, [turnId]);
    return rows.length === 0 ? null : turnOf(rows[0]);
  }

  /** The current effect record, or `null`. Rejects with `PgDriverError`. */
  async readEffect(turnId: string, effectId: string): Promise<EffectRecord | null> {
    if (!isStorableId(turnId) || !isStorableId(effectId)) return null;
    const { rows } = await this.driver.query<EffectRow>(this.#sql.readEffect, [turnId, effectId]);
    return rows.length === 0 ? null : effectOf(rows[0]);
  }

  /**
   * CAS over the turn record: create at expected revision 0, else update at
   * exactly `expectedRevision` (+1). Unguarded, one statement. With `guard`,
   * one transaction: the turn row is locked, the guard's grant read
   * `FOR SHARE` (the user's grant for the turn, or the system grant for the
   * turn or `'*'`), then `unauthorized`, `conflict` (with the locked row) or
   * the write. A write leaving the turn `cancelled` or `failed` is announced
   * on the cancel channel at COMMIT (unless `notifyStops` is off). An
   * expected revision that is not a non-negative integer conflicts.
   */
  async casTurn(
    turnId: string,
    expectedRevision: number,
    next: TurnDraft,
    guard?: TurnGuard,
  ): Promise<TurnCasOutcome> {
    const id = idField(turnId, "turnId");
    const params = turnParams(next);
    if (guard !== undefined) return await this.#guardedTurn(id, expectedRevision, params, guard);
    if (!isRevision(expectedRevision)) {
      return { ok: false, code: "conflict", current: await this.readTurn(id) };
    }
    const written = await writeTurn(this.driver, this.#sql, id, expectedRevision, params);
    if (written) return { ok: true, record: written };
    return { ok: false, code: "conflict", current: await this.readTurn(id) };
  }

  async #guardedTurn(
    turnId: string,
    expected: number,
    params: PgParam[],
    guard: TurnGuard,
  ): Promise<TurnCasOutcome> {
    let actor: unknown, principal: unknown;
    try {
      actor = guard.actor;
      principal = guard.principal;
    } catch {
      return { ok: false, code: "unauthorized" };
    }
    if ((actor !== "user" && actor !== "system") || !isStorableId(principal)) {
      return { ok: false, code: "unauthorized" };
    }
    const sql = this.#sql;
    return await this.driver.transaction(async (tx): Promise<TurnCasOutcome> => {
      const lockRow = async () =>
        (await tx.query<TurnRow & { granted: boolean }>(sql.lockTurnForGuard, [
          turnId,
          actor as string,
          principal as string,
          actor === "system" ? ALL_TURNS : turnId,
        ])).rows[0];
      const row = await lockRow();
      if (row?.granted !== true) return { ok: false, code: "unauthorized" };
      const current = row.turn_id === null ? null : turnOf(row);
      if (!isRevision(expected) || (current?.revision ?? 0) !== expected) {
        return { ok: false, code: "conflict", current };
      }
      const written = await writeTurn(tx, sql, turnId, expected, params);
      if (written) return { ok: true, record: written };
      if (expected !== 0) throw new Error("the locked turn row changed under its lock");
      // A concurrent create of the same turn committed first (there was no
      // row to lock): a conflict with the row it wrote, read under its lock.
      const now = await lockRow();
      return { ok: false, code: "conflict", current: now?.turn_id == null ? null : turnOf(now) };
    }, this.#tx);
  }

  /**
   * CAS over one effect record: `INSERT … ON CONFLICT DO NOTHING` at
   * expected revision 0, else `UPDATE … WHERE revision = $expected`; one
   * statement, so it takes only the effect row's lock. A conflict carries the
   * current record (read by the next statement). The record keeps `state`,
   * `claimToken`, `leaseUntil`, `claims`, `outcome`, `reconciled` and
   * `reason` as given.
   */
  async casEffect(
    turnId: string,
    effectId: string,
    expectedRevision: number,
    next: EffectDraft,
  ): Promise<CasOutcome<EffectRecord>> {
    const key = [idField(turnId, "turnId"), idField(effectId, "effectId")];
    const params = effectParams(next, this.#maxOutcome);
    if (isRevision(expectedRevision)) {
      const { rows } = expectedRevision === 0
        ? await this.driver.query<{ revision: unknown }>(this.#sql.insertEffect, [
          ...key,
          ...params,
        ])
        : await this.driver.query<{ revision: unknown }>(this.#sql.updateEffect, [
          ...key,
          ...params,
          expectedRevision,
        ]);
      // Written as sent: the record is the draft as stored, at the new revision.
      if (rows.length > 0) return { ok: true, record: storedEffect(key, params, rows[0].revision) };
    }
    return { ok: false, code: "conflict", current: await this.readEffect(key[0], key[1]) };
  }

  /**
   * The admission fence: ONE transaction whose first statement locks the
   * turn row (`FOR NO KEY UPDATE`), reads the principal's user grant
   * `FOR SHARE` and, when the turn is `running`, the grant present and the
   * effect `claimed` at exactly `claimRevision`, writes it `admitted`
   * (revision + 1) with the request's fresh `leaseUntil` (the claim's when
   * absent). Then it calls `launch` once and awaits it (a throw or
   * rejection leaves the mark), and COMMITs. When it wrote nothing, a second
   * statement reads the turn and the grant under the same locks to say why,
   * in this order: `unknown-turn`, `unauthorized`, `turn-not-running` (with
   * the status), `stale-claim`; nothing is launched. Resolves after COMMIT; rejects with
   * the driver's `PgDriverError` on any database failure, including a COMMIT
   * whose outcome is unknown (`commit: "uncertain"`). Never retried.
   */
  async admitDispatch(request: AdmitRequest): Promise<AdmitOutcome> {
    const { turnId, effectId, claimRevision, principal, launch } = request;
    if (!isStorableId(turnId) || !isStorableId(effectId)) {
      return { admitted: false, reason: "unknown-turn" };
    }
    const lease: unknown = request.leaseUntil;
    const params: PgParam[] = [
      turnId,
      effectId,
      Number.isSafeInteger(claimRevision) && claimRevision > 0 ? claimRevision : -1,
      isStorableText(principal) ? principal : "",
      // The admitted owner's fresh lease; absent (an older caller): the claim's stays.
      typeof lease === "number" && Number.isFinite(lease) ? String(lease) : null,
    ];
    const sql = this.#sql;
    return await this.driver.transaction(async (tx): Promise<AdmitOutcome> => {
      const marked = await tx.query<EffectRow>(sql.admit, params);
      if (marked.rows.length === 0) {
        // Nothing written: say why, from the rows locked the same way.
        const { rows } = await tx.query<{ status: string | null; granted: boolean }>(
          sql.admitRefusal,
          [turnId, params[3]],
        );
        const status = rows[0]?.status as TurnRecord["status"] | null | undefined;
        if (status === null || status === undefined) {
          return { admitted: false, reason: "unknown-turn" };
        }
        if (rows[0].granted !== true) return { admitted: false, reason: "unauthorized", status };
        if (status !== "running") return { admitted: false, reason: "turn-not-running", status };
        return { admitted: false, reason: "stale-claim", status };
      }
      const record = effectOf(marked.rows[0]);
      await invokeLaunch(launch);
      return { admitted: true, record };
    }, this.#tx);
  }

  /**
   * Grant `principal` authority over `turnId`: the user's (default), or with
   * `actor` `system` the host's service identity (`turnId` {@link ALL_TURNS}
   * covers every turn). Idempotent. Runs on `tx` when given (the host's own
   * transaction), else on its own. Rejects with `PgDriverError`, or
   * `TypeError` for text a column cannot hold.
   */
  async grant(
    principal: string,
    turnId: string,
    actor: ActorKind = "user",
    tx: PgQueryable = this.driver,
  ): Promise<void> {
    await tx.query(this.#sql.grant, grantKey(principal, turnId, actor));
  }

  /**
   * Revoke a grant: locks the turn row the way the fences do, then deletes
   * the grant row, so it waits for every fence that holds either (a fence
   * reads the grant `FOR SHARE` under the turn lock), goes before the fences
   * that queue after it, and every later fence refuses. Resolves once
   * committed (or on `tx`, the host's transaction). Rejects like
   * {@link PostgresRecoveryStore.grant}.
   */
  async revoke(
    principal: string,
    turnId: string,
    actor: ActorKind = "user",
    tx: PgQueryable = this.driver,
  ): Promise<void> {
    await tx.query(this.#sql.revoke, grantKey(principal, turnId, actor));
  }

  /**
   * The grants as the core's `AuthoritySeam`: `check` reads the grant rows
   * (unlocked, current at each call; a `system` actor also matches
   * {@link ALL_TURNS}). It answers `false` for text a column cannot hold and
   * rejects with `PgDriverError` when the database fails (the core counts a
   * throw as "not authorized"). The fences recheck the same rows under
   * their locks.
   */
  authority(): AuthoritySeam {
    return {
      check: async (request) => {
        const { principal, turnId, actor } = request;
        if (!isStorableId(principal) || !isStorableId(turnId)) return false;
        const kind = actor === "system" ? "system" : "user";
        const { rows } = await this.driver.query<{ ok: boolean }>(this.#sql.authorized, [
          kind,
          principal,
          turnId,
          kind === "system" ? ALL_TURNS : turnId,
        ]);
        return rows[0]?.ok === true;
      },
    };
  }

  /**
   * Delete a turn, its effect records and its user grants (retention), in
   * one transaction. Resolves `true` when the turn existed. Rejects with
   * `PgDriverError`.
   */
  async deleteTurn(turnId: string): Promise<boolean> {
    if (!isStorableId(turnId)) return false;
    const sql = this.#sql;
    return await this.driver.transaction(async (tx) => {
      await tx.query(sql.deleteEffects, [turnId]);
      await tx.query(sql.deleteUserGrants, [turnId]);
      const { rows } = await tx.query(sql.deleteTurn, [turnId]);
      return rows.length > 0;
    }, this.#tx);
  }
}

function grantKey(principal: string, turnId: string, actor: ActorKind): PgParam[] {
  if (actor !== "user" && actor !== "system") {
    throw new PgArgumentError("invalid-argument", "actor must be user or system");
  }
  return [actor, idField(principal, "principal"), idField(turnId, "turnId")];
}

async function writeTurn(
  q: PgQueryable,
  sql: Statements,
  turnId: string,
  expected: number,
  params: PgParam[],
): Promise<TurnRecord | null> {
  const { rows } = expected === 0
    ? await q.query<TurnRow>(sql.insertTurn, [turnId, ...params])
    : await q.query<TurnRow>(sql.updateTurn, [turnId, ...params, expected]);
  return rows.length === 0 ? null : turnOf(rows[0]);
}

/** Call `launch` once and await what it returns; its errors never undo the mark. */
async function invokeLaunch(launch: unknown): Promise<void> {
  try {
    const held = (launch as () => unknown)();
    if (typeof (held as PromiseLike<unknown> | null)?.then === "function") {
      await (held as PromiseLike<unknown>);
    }
  } catch {
    // The launched work owns its errors; the mark stands.
  }
}

type Statements = ReturnType<typeof statements>;

/** The store's statements over `n` (built once per instance). */
function statements(n: TableNames, notify: boolean) {
  const T = n.recoveryTurns, E = n.recoveryEffects, G = n.recoveryGrants;
  // Announces a stopped turn at COMMIT (the channel is a validated identifier).
  const announce = notify
    ? `, (CASE WHEN w.status IN ${STOPPED} THEN pg_notify('${n.cancelChannel}', '${MESSAGE_FRAME}' ||
        json_build_object('turnId', w.turn_id, 'revision', w.revision, 'status', w.status,
          'reason', left(coalesce(w.reason, w.status), 500))::text) END) IS NULL AS quiet`
    : "";
  const turnOut = TURN_COLUMNS.split(", ").map((c) => `w.${c}`).join(", ");
  return {
    readTurn: `SELECT ${TURN_COLUMNS} FROM ${T} WHERE turn_id = $1::text`,
    readEffect:
      `SELECT ${EFFECT_COLUMNS} FROM ${E} WHERE turn_id = $1::text AND effect_id = $2::text`,
    insertTurn: `WITH w AS (
        INSERT INTO ${T} (turn_id, conversation_id, revision, status, effect_ids, reason, stopped_at)
        VALUES ($1::text, $2::text, 1, $3::text, $4::text, $5::text,
          CASE WHEN $3::text IN ${STOPPED} THEN clock_timestamp() END)
        ON CONFLICT (turn_id) DO NOTHING
        RETURNING ${TURN_COLUMNS})
      SELECT ${turnOut}${announce} FROM w`,
    updateTurn: `WITH w AS (
        UPDATE ${T} SET conversation_id = $2::text, status = $3::text, effect_ids = $4::text,
          reason = $5::text, revision = revision + 1, updated_at = clock_timestamp(),
          stopped_at = CASE WHEN $3::text IN ${STOPPED} THEN coalesce(stopped_at, clock_timestamp()) END
        WHERE turn_id = $1::text AND revision = $6::bigint
        RETURNING ${TURN_COLUMNS})
      SELECT ${turnOut}${announce} FROM w`,
    // The turn row locked first, then the guard's grant read FOR SHARE.
    lockTurnForGuard: `WITH t AS MATERIALIZED (
        SELECT ${TURN_COLUMNS} FROM ${T} WHERE turn_id = $1::text FOR NO KEY UPDATE),
      g AS MATERIALIZED (
        SELECT 1 FROM ${G} AS gr, (SELECT count(*) FROM t) AS locked
        WHERE gr.actor = $2::text AND gr.principal = $3::text
          AND gr.turn_id IN ($1::text, $4::text) FOR SHARE OF gr)
      SELECT t.*, EXISTS (SELECT 1 FROM g) AS granted FROM (VALUES (1)) AS one (x) LEFT JOIN t ON true`,
    insertEffect: `INSERT INTO ${E} (turn_id, effect_id, revision, state, claim_token, lease_until,
        claims, outcome, reconciled, reason)
      VALUES ($1::text, $2::text, 1, $3::text, $4::text, $5::float8, $6::bigint, $7::text,
        $8::boolean, $9::text)
      ON CONFLICT (turn_id, effect_id) DO NOTHING
      RETURNING revision`,
    updateEffect: `UPDATE ${E} SET state = $3::text, claim_token = $4::text,
        lease_until = $5::float8, claims = $6::bigint, outcome = $7::text,
        reconciled = $8::boolean, reason = $9::text, revision = revision + 1,
        updated_at = clock_timestamp()
      WHERE turn_id = $1::text AND effect_id = $2::text AND revision = $10::bigint
      RETURNING revision`,
    // The fence: turn row locked, then the user's grant FOR SHARE, then the
    // mark, written only when the turn runs, the grant is there and the
    // claim is current.
    admit: `WITH t AS MATERIALIZED (
        SELECT status FROM ${T} WHERE turn_id = $1::text FOR NO KEY UPDATE),
      g AS MATERIALIZED (
        SELECT 1 FROM ${G} AS gr, t WHERE gr.actor = 'user' AND gr.principal = $4::text
          AND gr.turn_id = $1::text FOR SHARE OF gr)
      UPDATE ${E} AS e SET state = 'admitted', revision = e.revision + 1,
        lease_until = coalesce($5::float8, e.lease_until), updated_at = clock_timestamp()
      WHERE e.turn_id = $1::text AND e.effect_id = $2::text AND e.state = 'claimed'
        AND e.revision = $3::bigint
        AND EXISTS (SELECT 1 FROM t WHERE t.status = 'running') AND EXISTS (SELECT 1 FROM g)
      RETURNING ${EFFECT_COLUMNS.split(", ").map((c) => `e.${c}`).join(", ")}`,
    // Why the fence wrote nothing: the turn and the grant, locked as the fence locks them.
    admitRefusal: `WITH t AS MATERIALIZED (
        SELECT status FROM ${T} WHERE turn_id = $1::text FOR NO KEY UPDATE),
      g AS MATERIALIZED (
        SELECT 1 FROM ${G} AS gr, t WHERE gr.actor = 'user' AND gr.principal = $2::text
          AND gr.turn_id = $1::text FOR SHARE OF gr)
      SELECT (SELECT status FROM t) AS status, EXISTS (SELECT 1 FROM g) AS granted`,
    grant: `INSERT INTO ${G} (actor, principal, turn_id) VALUES ($1::text, $2::text, $3::text)
      ON CONFLICT DO NOTHING`,
    // The turn row first (as the fences take it), then the grant row: a
    // revocation queued behind a running admission goes before admissions
    // queued after it (waiters on one row are served in order).
    revoke: `WITH t AS MATERIALIZED (
        SELECT 1 FROM ${T} WHERE turn_id = $3::text FOR NO KEY UPDATE)
      DELETE FROM ${G} WHERE actor = $1::text AND principal = $2::text AND turn_id = $3::text
        AND (SELECT count(*) FROM t) >= 0`,
    authorized: `SELECT EXISTS (SELECT 1 FROM ${G} WHERE actor = $1::text AND principal = $2::text
      AND turn_id IN ($3::text, $4::text)) AS ok`,
    deleteEffects: `DELETE FROM ${E} WHERE turn_id = $1::text`,
    deleteUserGrants: `DELETE FROM ${G} WHERE actor = 'user' AND turn_id = $1::text`,
    deleteTurn: `DELETE FROM ${T} WHERE turn_id = $1::text RETURNING turn_id`,
  };
}
