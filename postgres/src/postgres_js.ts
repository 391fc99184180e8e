/**
 * {@link PgDriver} over postgres.js (`postgres` 3.4.x on npm), for a real
 * PostgreSQL server. The package does not import postgres.js: the host
 * creates the client (`postgres(url, options)`) and passes it in.
 *
 * @module
 */
import {
  checkTimeout,
  openingStatements,
  runTransaction,
  type TimeoutDefaults,
} from "./_transaction.ts";
import { listenHandle, queryableOf } from "./_wrap.ts";
import type { PgDriver, PgParam, PgQueryable, PgTransactionOptions } from "./driver.ts";

/** The part of a postgres.js query handle the driver uses (a thenable row array). */
export type PostgresJsPending = PromiseLike<ArrayLike<unknown>>;

/** The part of a postgres.js transaction-scoped `sql` the driver uses. */
export interface PostgresJsTransactionSql {
  /** `sql.unsafe(text, params)`: one parameterized statement. */
  unsafe(query: string, parameters?: PgParam[]): PostgresJsPending;
}

/**
 * The part of a postgres.js client (`postgres(url)`) the driver uses. A real
 * `postgres.Sql` instance satisfies it.
 */
export interface PostgresJsSql extends PostgresJsTransactionSql {
  /** `sql.begin(options, fn)`: a transaction on one pooled connection. */
  begin<T>(options: string, cb: (sql: PostgresJsTransactionSql) => Promise<T>): Promise<unknown>;
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
}

/**
 * A {@link PgDriver} over a postgres.js client. Transactions use
 * `sql.begin`; LISTEN uses `sql.listen` (its own connection, re-established
 * by postgres.js after a drop, which calls `onListen` again).
 *
 * Throws `RangeError` when a timeout option is not a non-negative integer.
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
  const plain = queryableOf((text, params) => sql.unsafe(text, params), false);
  return {
    kind: "postgres.js",
    concurrent: true,
    query: plain.query,
    async transaction<T>(
      fn: (tx: PgQueryable) => Promise<T>,
      opts?: PgTransactionOptions,
    ): Promise<T> {
      const opening = openingStatements(opts, defaults, true);
      return await runTransaction<T, PostgresJsTransactionSql>(
        (body) => sql.begin("", body) as Promise<T>,
        (raw) => queryableOf((text, params) => raw.unsafe(text, params), true),
        opening,
        fn,
        true, // postgres.js crashes on a ROLLBACK queued after its connection closed
      );
    },
    listen: (channel, onPayload, onListen) =>
      listenHandle(async () => {
        const handle = await sql.listen(channel, onPayload, onListen);
        return () => handle.unlisten();
      }),
    close: () => sql.end({ timeout: closeTimeout }),
  };
}

function optional<K extends string>(key: K, v: number | undefined): { [P in K]?: number } {
  return (v === undefined ? {} : { [key]: v }) as { [P in K]?: number };
}
