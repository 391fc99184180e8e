/**
 * {@link PgDriver} over postgres.js (`postgres` 3.4.x on npm), for a real
 * PostgreSQL server. The package does not import postgres.js: the host
 * creates the client (`postgres(url, options)`) and passes it in.
 *
 * @module
 */
import { classify } from "./_classify.ts";
import { checkTimeout, openingStatements, type TimeoutDefaults } from "./_transaction.ts";
import { listenHandle, queryableOf } from "./_wrap.ts";
import {
  type PgDriver,
  PgDriverError,
  type PgParam,
  type PgQueryable,
  type PgTransactionOptions,
} from "./driver.ts";

/**
 * The part of a postgres.js query handle the driver uses: a thenable row
 * array whose `execute()` sends it at once (so several can be pipelined).
 */
export interface PostgresJsPending extends PromiseLike<ArrayLike<unknown>> {
  /** Send the query now instead of when it is first awaited. */
  execute?(): unknown;
}

/**
 * The part of a postgres.js connection object (postgres.js 3.4.x passes it to
 * a query's `onexecute` option) the driver uses: the pool calls its
 * `onclose` (once, then clears it) when the connection's socket closes.
 */
export interface PostgresJsConnection {
  /** Called by postgres.js's pool with the close error when the connection closes. */
  onclose?: ((error: unknown) => void) | null;
}

/** The part of a postgres.js `sql` (a client or a reserved connection) the driver uses. */
export interface PostgresJsTransactionSql {
  /**
   * `sql.unsafe(text, params, { prepare, onexecute })`: one parameterized
   * statement, as a named prepared statement when `prepare` is true.
   * postgres.js calls `onexecute(connection)` when it has written the
   * statement to the connection, and keeps pipelining on it when that
   * returns `true`.
   */
  unsafe(
    query: string,
    parameters?: PgParam[],
    options?: {
      readonly prepare?: boolean;
      readonly onexecute?: (connection: PostgresJsConnection) => boolean;
    },
  ): PostgresJsPending;
}

/** A connection reserved from the pool (`await sql.reserve()`). */
export interface PostgresJsReservedSql extends PostgresJsTransactionSql {
  /** Give the connection back to the pool. */
  release(): void;
}

/**
 * The part of a postgres.js client (`postgres(url)`) the driver uses. A real
 * `postgres.Sql` instance (postgres.js 3.4.x) satisfies it.
 */
export interface PostgresJsSql extends PostgresJsTransactionSql {
  /** `sql.reserve()`: one pooled connection for the caller alone, until released. */
  reserve(): Promise<PostgresJsReservedSql>;
  /** `sql.listen(channel, onnotify, onlisten)`: LISTEN on a dedicated connection. */
  listen(
    channel: string,
    onnotify: (value: string) => void,
    onlisten?: () => void,
  ): PromiseLike<{ unlisten(): Promise<void> }>;
  /** `sql.end({ timeout })`: close the pool (timeout in seconds). */
  end(options?: { timeout?: number }): Promise<void>;
}

/** Options of {@link postgresJsDriver}. */
export interface PostgresJsDriverOptions {
  /**
   * `statement_timeout` set at the start of every transaction (`SET LOCAL`
   * semantics), in milliseconds; 0 = none; default: the server's. For
   * statements outside transactions, give postgres.js
   * `connection: { statement_timeout }` when creating the client.
   */
  readonly statementTimeoutMs?: number;
  /**
   * `lock_timeout` set at the start of every transaction, in milliseconds;
   * 0 = none; default: the server's. A transaction that waits longer for a
   * row lock fails with kind `lock-timeout` (a frozen process holding locks
   * cannot block the others forever).
   */
  readonly lockTimeoutMs?: number;
  /** Seconds {@link PgDriver.close} lets running queries finish (postgres.js `end({ timeout })`); default 5. */
  readonly closeTimeoutSeconds?: number;
  /**
   * Send parameterized statements as named prepared statements (postgres.js
   * caches them per connection: one round trip per statement after its
   * first use; unprepared, postgres.js spends a second round trip
   * describing every parameterized statement). Default `true`, as
   * postgres.js's own default; set `false` behind a pooler in transaction
   * mode (PgBouncer), which cannot keep prepared statements.
   */
  readonly prepare?: boolean;
}

/**
 * A {@link PgDriver} over a postgres.js client. Statements are prepared
 * (see {@link PostgresJsDriverOptions.prepare}). A transaction reserves one
 * pooled connection and pipelines `BEGIN` (and its isolation and timeout
 * settings) with its first statement, so a transaction of k statements
 * costs k + 1 round trips (the last one `COMMIT`). LISTEN uses
 * `sql.listen` (its own connection, re-established by postgres.js after a
 * drop, which calls `onListen` again).
 *
 * After a lost connection nothing more is sent on it (no further statement,
 * no `COMMIT`, no `ROLLBACK`: the server rolled the transaction back;
 * postgres.js 3.4.9 would crash the process writing to the closed socket),
 * and it is not handed back to the pool (postgres.js already took it back
 * when it closed). A connection the server ends while the body runs
 * between statements (`idle_in_transaction_session_timeout`,
 * `pg_terminate_backend`) is seen through the connection's close event:
 * the next statement or the `COMMIT` is then refused with a
 * {@link PgDriverError} of kind `connection`, commit `not-committed`.
 *
 * Throws `PgArgumentError` when a timeout option is not a non-negative integer.
 *
 * @example
 * ```ts
 * import postgres from "postgres";
 * import { postgresJsDriver } from "@papercusp/chat-protocol-postgres";
 * const driver = postgresJsDriver(postgres(Deno.env.get("DATABASE_URL")!), { lockTimeoutMs: 2_000 });
 * const { rows } = await driver.query<{ one: number }>("SELECT 1 AS one");
 * await driver.close();
 * ```
 */
export function postgresJsDriver(
  sql: PostgresJsSql,
  options: PostgresJsDriverOptions = {},
): PgDriver {
  const defaults: TimeoutDefaults = {
    ...optional(
      "statementTimeoutMs",
      checkTimeout("statementTimeoutMs", options.statementTimeoutMs),
    ),
    ...optional("lockTimeoutMs", checkTimeout("lockTimeoutMs", options.lockTimeoutMs)),
  };
  const closeTimeout = options.closeTimeoutSeconds ?? 5;
  const prepare = options.prepare ?? true;
  const plain = queryableOf((text, params) => sql.unsafe(text, params, { prepare }), false);
  return {
    kind: "postgres.js",
    concurrent: true,
    query: plain.query,
    async transaction<T>(
      fn: (tx: PgQueryable) => Promise<T>,
      opts?: PgTransactionOptions,
    ): Promise<T> {
      const opening = openingStatements(opts, defaults, true);
      let conn: PostgresJsReservedSql;
      try {
        conn = await sql.reserve();
      } catch (e) {
        throw classify(e, "in-transaction"); // nothing was sent
      }
      return await reservedTransaction(conn, opening, fn, prepare);
    },
    listen: (channel, onPayload, onListen) =>
      listenHandle(async () => {
        const handle = await sql.listen(channel, onPayload, onListen);
        return () => handle.unlisten();
      }),
    close: () => sql.end({ timeout: closeTimeout }),
  };
}

/**
 * One transaction on a reserved connection: `BEGIN` and the opening
 * statements are sent with the body's first statement (pipelined), then the
 * body's statements, then `COMMIT`. Failures are classified by phase: before
 * `COMMIT` was sent nothing committed; a connection lost while `COMMIT` was
 * in flight is `uncertain`. An error the body threw is rethrown unchanged
 * after a `ROLLBACK`.
 */
async function reservedTransaction<T>(
  conn: PostgresJsReservedSql,
  opening: readonly { text: string; params: string[] }[],
  fn: (tx: PgQueryable) => Promise<T>,
  prepare: boolean,
): Promise<T> {
  let lost = false;
  // The connection object, learnt from BEGIN's `onexecute`: its `onclose`
  // tells us the server ended it, so nothing more is written to the closed
  // socket (postgres.js 3.4.9 throws an uncaught TypeError from its write
  // loop when a statement is sent on a closed connection).
  let connection: PostgresJsConnection | null = null;
  const onexecute = (c: PostgresJsConnection) => {
    if (connection === null) {
      connection = c;
      c.onclose = () => {
        lost = true;
      };
    }
    return true;
  };
  const forget = () => {
    if (connection !== null && !lost) connection.onclose = null;
  };
  const lostError = (what: string) =>
    new PgDriverError(`the transaction's connection was lost ${what}`, {
      kind: "connection",
      commit: "not-committed",
    });
  const send = (text: string, params: PgParam[], prepared: boolean) => {
    const q = conn.unsafe(
      text,
      params,
      connection === null ? { prepare: prepared, onexecute } : { prepare: prepared },
    );
    q.execute?.();
    // Awaited later (or never, once the transaction failed): never unhandled.
    Promise.resolve(q).catch(() => {});
    return q;
  };
  const settle = async (q: PromiseLike<ArrayLike<unknown>>) => {
    try {
      return await q;
    } catch (e) {
      const err = classify(e, "in-transaction");
      if (err.kind === "connection") lost = true;
      throw err;
    }
  };
  let pending: PromiseLike<ArrayLike<unknown>>[] | null = [
    send("BEGIN", [], false),
    ...opening.map((s) => send(s.text, s.params, prepare)),
  ];
  const opened = async () => {
    const waiting = pending;
    pending = null;
    if (waiting !== null) { for (const q of waiting) await settle(q); }
  };
  const tx: PgQueryable = {
    async query<R>(text: string, params: readonly PgParam[] = []) {
      if (lost) throw lostError("before this statement was sent");
      const q = send(text, [...params], prepare);
      await opened();
      return { rows: Array.from(await settle(q)) as R[] };
    },
  };
  let result: T;
  try {
    result = await fn(tx);
    await opened();
  } catch (e) {
    if (!lost) {
      await Promise.resolve(conn.unsafe("ROLLBACK", [], { prepare: false })).catch(() => {});
    }
    if (!lost) {
      forget();
      conn.release();
    }
    throw e;
  }
  // The server may have ended the connection while the body ran between
  // statements: then the transaction was rolled back and COMMIT must not
  // be written to the closed socket.
  if (lost) throw lostError("before COMMIT was sent (the server rolled the transaction back)");
  try {
    await conn.unsafe("COMMIT", [], { prepare: false });
  } catch (e) {
    const err = classify(e, "commit");
    if (err.kind !== "connection" && !lost) {
      forget();
      conn.release();
    }
    throw err;
  }
  if (lost) {
    // Closed after COMMIT was answered: committed; never hand it back.
    return result;
  }
  forget();
  conn.release();
  return result;
}

function optional<K extends string>(key: K, v: number | undefined): { [P in K]?: number } {
  return (v === undefined ? {} : { [key]: v }) as { [P in K]?: number };
}
