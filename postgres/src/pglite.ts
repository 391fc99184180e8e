/**
 * {@link PgDriver} over PGlite (`@electric-sql/pglite` 0.5.x, embedded
 * PostgreSQL in WebAssembly). The package does not import PGlite: the host
 * creates the database (`new PGlite()` in memory, or on a directory through
 * `openPGliteDir` from `./pglite-dir`, which refuses a directory another
 * process has open) and passes it in.
 *
 * What PGlite cannot do: it has ONE connection, so transactions run one
 * after another, `SELECT … FOR UPDATE` never waits and serialization
 * failures never happen. It proves the SQL, not the locking. It has no
 * `statement_timeout`/`lock_timeout` (nothing waits), and LISTEN/NOTIFY
 * reaches only listeners in the same process.
 *
 * @module
 */
import { openingStatements, runTransaction } from "./_transaction.ts";
import { listenHandle, queryableOf } from "./_wrap.ts";
import type {
  PgDriver,
  PgListenHandle,
  PgParam,
  PgQueryable,
  PgTransactionOptions,
} from "./driver.ts";

/** The part of a PGlite transaction the driver uses. */
export interface PGliteTransactionLike {
  /** `tx.query(text, params)`: one parameterized statement. */
  query<T>(query: string, params?: PgParam[]): Promise<{ rows: T[] }>;
}

/** The part of a PGlite instance the driver uses. A real `PGlite` satisfies it. */
export interface PGliteLike extends PGliteTransactionLike {
  /** `db.transaction(fn)`: `BEGIN`, `fn`, `COMMIT` (or `ROLLBACK` when `fn` throws). */
  transaction<T>(callback: (tx: PGliteTransactionLike) => Promise<T>): Promise<T>;
  /** `db.listen(channel, cb)`: resolves to the unsubscribe function. */
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
  /** `db.close()`. */
  close(): Promise<void>;
}

/** Options of {@link pgliteDriver}. */
export interface PGliteDriverOptions {
  /**
   * Called once after {@link PgDriver.close} closed the database (also when
   * closing failed). `openPGliteDir` uses it to release its directory lock.
   */
  readonly onClose?: () => void | Promise<void>;
}

/**
 * A {@link PgDriver} over a PGlite database (`concurrent: false`). The
 * isolation option is applied (`SET TRANSACTION ISOLATION LEVEL`) for
 * parity with a real server; timeout options are not (PGlite has none).
 *
 * @example
 * ```ts
 * import { PGlite } from "@electric-sql/pglite";
 * import { pgliteDriver } from "@papercusp/chat-protocol-postgres";
 * const driver = pgliteDriver(new PGlite());
 * const { rows } = await driver.query<{ one: number }>("SELECT 1 AS one");
 * await driver.close();
 * ```
 */
export function pgliteDriver(db: PGliteLike, options: PGliteDriverOptions = {}): PgDriver {
  const plain = queryableOf((text, params) => db.query(text, params).then((r) => r.rows), false);
  let closed = false;
  return {
    kind: "pglite",
    concurrent: false,
    query: plain.query,
    async transaction<T>(
      fn: (tx: PgQueryable) => Promise<T>,
      opts?: PgTransactionOptions,
    ): Promise<T> {
      return await runTransaction<T, PGliteTransactionLike>(
        (body) => db.transaction(body),
        (raw) => queryableOf((text, params) => raw.query(text, params).then((r) => r.rows), true),
        openingStatements(opts, {}, false),
        fn,
      );
    },
    async listen(channel, onPayload, onListen): Promise<PgListenHandle> {
      const handle = await listenHandle(() => db.listen(channel, onPayload));
      onListen?.(); // PGlite never re-listens: this runs once
      return handle;
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await db.close();
      } finally {
        await options.onClose?.();
      }
    },
  };
}
