/**
 * The driver seam of `@papercusp/chat-protocol-postgres`: the few things the
 * package needs from a PostgreSQL client (parameterized queries, a
 * transaction with a callback, LISTEN/NOTIFY), with one typed error model.
 * Two implementations hide the clients' differences:
 * {@link postgresJsDriver} (postgres.js, a real server) and
 * {@link pgliteDriver} (PGlite, embedded). Neither client is imported by the
 * package: the host creates the client and passes it in, so both stay
 * optional peer dependencies.
 *
 * @module
 */

/**
 * A query parameter. Sent as text with an unknown type, so the server infers
 * it from the SQL; write explicit casts (`$1::bigint`, `$2::jsonb`) where the
 * type matters.
 */
export type PgParam = string | number | boolean | null;

/** Rows of one statement. */
export interface PgRows<R> {
  /** The rows returned (by a `SELECT` or a `… RETURNING`). */
  readonly rows: R[];
}

/** Something that runs one parameterized statement: a driver, or a transaction in progress. */
export interface PgQueryable {
  /**
   * Run one statement with `$1, $2, …` placeholders. Rejects with a
   * {@link PgDriverError}. Column values come back as the client decodes
   * them (`bigint` columns as a string from postgres.js and as a number from
   * PGlite; cast in SQL or convert when it matters).
   */
  query<R = Record<string, unknown>>(
    text: string,
    params?: readonly PgParam[],
  ): Promise<PgRows<R>>;
}

/** Isolation level of a transaction (PostgreSQL's default is `read committed`). */
export type PgIsolation = "read committed" | "repeatable read" | "serializable";

/** Options of {@link PgDriver.transaction}. */
export interface PgTransactionOptions {
  /** Isolation level; default: the server's (`read committed`). */
  readonly isolation?: PgIsolation;
  /**
   * `statement_timeout` for this transaction, in milliseconds (0 = none);
   * default: the driver's. Ignored by PGlite (no timeouts).
   */
  readonly statementTimeoutMs?: number;
  /**
   * `lock_timeout` for this transaction, in milliseconds (0 = none);
   * default: the driver's. Ignored by PGlite (one connection: nothing waits).
   */
  readonly lockTimeoutMs?: number;
}

/** A live LISTEN subscription. */
export interface PgListenHandle {
  /** Stop listening (idempotent). */
  unlisten(): Promise<void>;
}

/**
 * A PostgreSQL client behind one interface. Create one with
 * {@link postgresJsDriver} or {@link pgliteDriver}.
 */
export interface PgDriver extends PgQueryable {
  /** Which client is behind it. */
  readonly kind: "postgres.js" | "pglite";
  /**
   * `true` when transactions from different callers can run at the same time
   * and wait on row locks (a real server). `false` for PGlite: one
   * connection, transactions run one after another, `FOR UPDATE` never waits.
   */
  readonly concurrent: boolean;
  /**
   * Run `fn` inside one transaction: `BEGIN`, `fn(tx)`, `COMMIT`; `ROLLBACK`
   * when `fn` throws (its error is rethrown unchanged). A failure of the
   * database rejects with a {@link PgDriverError} whose `commit` says whether
   * the transaction may have committed (`uncertain`: the connection was lost
   * while `COMMIT` was in flight) or certainly did not (`not-committed`).
   * Never retries by itself.
   */
  transaction<T>(
    fn: (tx: PgQueryable) => Promise<T>,
    options?: PgTransactionOptions,
  ): Promise<T>;
  /**
   * `LISTEN` on `channel` (a validated identifier, see
   * `validateChannelName`). `onPayload` gets each notification's payload;
   * `onListen` runs when the subscription is established, and again after
   * the client re-established it on a new connection (postgres.js does that
   * after a dropped connection; notifications sent in between are lost).
   */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    onListen?: () => void,
  ): Promise<PgListenHandle>;
  /** Close the client (ends the pool / closes the embedded database). */
  close(): Promise<void>;
}

/**
 * What went wrong, by class:
 *
 * - `serialization-failure` (SQLSTATE 40001), `deadlock` (40P01),
 *   `lock-timeout` (55P03): the transaction was rolled back; retrying the
 *   whole transaction is safe.
 * - `statement-timeout` (57014, query canceled): rolled back.
 * - `unique-violation` (23505): rolled back; `constraint` names the index.
 * - `connection`: the connection failed or was lost; see `commit`.
 * - `server`: any other error the server reported (rolled back).
 * - `client`: the client refused before sending (bad parameters, a closed
 *   driver), or threw something unrecognized.
 */
export type PgErrorKind =
  | "serialization-failure"
  | "deadlock"
  | "lock-timeout"
  | "statement-timeout"
  | "unique-violation"
  | "connection"
  | "server"
  | "client";

/**
 * Whether the work may have committed: `not-committed` means certainly not
 * (the server answered with an error, or the connection broke before
 * `COMMIT` was sent); `uncertain` means it may have (the connection broke
 * while a `COMMIT` or an auto-committed statement was in flight). An
 * uncertain write must be answered by reading back, never by a blind retry.
 */
export type PgCommitOutcome = "not-committed" | "uncertain";

/** The error every driver method rejects with when the database fails. */
export class PgDriverError extends Error {
  /** The class of failure (see {@link PgErrorKind}). */
  readonly kind: PgErrorKind;
  /** Whether the work may have committed (see {@link PgCommitOutcome}). */
  readonly commit: PgCommitOutcome;
  /** The server's SQLSTATE code, when the server answered. */
  readonly sqlState?: string;
  /** The violated constraint's name, when the server reported one. */
  readonly constraint?: string;
  /** The client's own error code (e.g. postgres.js `CONNECTION_CLOSED`, `ECONNREFUSED`). */
  readonly clientCode?: string;

  /** Build from the classification; `cause` is the client's original error. */
  constructor(
    message: string,
    init: {
      readonly kind: PgErrorKind;
      readonly commit: PgCommitOutcome;
      readonly sqlState?: string;
      readonly constraint?: string;
      readonly clientCode?: string;
      readonly cause?: unknown;
    },
  ) {
    super(message, { cause: init.cause });
    this.name = "PgDriverError";
    this.kind = init.kind;
    this.commit = init.commit;
    if (init.sqlState !== undefined) this.sqlState = init.sqlState;
    if (init.constraint !== undefined) this.constraint = init.constraint;
    if (init.clientCode !== undefined) this.clientCode = init.clientCode;
  }

  /**
   * `true` for `serialization-failure`, `deadlock` and `lock-timeout`: the
   * server rolled the transaction back, so running the whole transaction
   * again is safe (nothing of it committed).
   */
  get retryable(): boolean {
    return this.kind === "serialization-failure" || this.kind === "deadlock" ||
      this.kind === "lock-timeout";
  }
}
