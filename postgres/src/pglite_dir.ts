/**
 * `openPGliteDir`: PGlite on a data directory, guarded by a lock file so a
 * second process (or a second open in this process) is refused instead of
 * silently corrupting the directory. Node, Deno and Bun only (file system).
 *
 * @module
 */
import type { Refusal, Result } from "@papercusp/chat-protocol";
import type { PgDriver } from "./driver.ts";
import { type DirLockRefusal, lockDirectory } from "./dir_lock.ts";
import { pgliteDriver, type PGliteLike } from "./pglite.ts";

/** Options of {@link openPGliteDir}. */
export interface OpenPGliteDirOptions<DB extends PGliteLike> {
  /** The data directory (created when missing). */
  readonly dataDir: string;
  /**
   * Opens the database on the directory, e.g.
   * `(dir) => PGlite.create(dir)` or `(dir) => new PGlite(dir)`. Called only
   * while the lock is held.
   */
  readonly open: (dataDir: string) => DB | Promise<DB>;
}

/** An open, locked PGlite directory. */
export interface PGliteDir<DB extends PGliteLike> {
  /** The PGlite instance. */
  readonly db: DB;
  /** The driver over it; its `close()` closes the database, then releases the lock. */
  readonly driver: PgDriver;
  /** The lock file guarding the directory. */
  readonly lockFile: string;
}

/** {@link DirLockRefusal}, or `open-failed` when `open` threw (the lock was released). */
export type OpenPGliteDirRefusal = DirLockRefusal | Refusal<"open-failed">;

/**
 * Lock `options.dataDir` for this process, then open PGlite on it. Resolves
 * to the database and its driver (close the driver to close the database
 * and release the lock), or to a typed refusal: `locked` (another live
 * process, or this one, has it open: `holder` says which), `locked-elsewhere`,
 * `unverifiable`, `io-error`, `open-failed`. Never rejects. A lock left by a
 * process that died (e.g. `kill -9`) is taken over.
 *
 * @example
 * ```ts
 * import { PGlite } from "@electric-sql/pglite";
 * import { openPGliteDir } from "@papercusp/chat-protocol-postgres/pglite-dir";
 * const r = await openPGliteDir({ dataDir: "./data/chat", open: (dir) => new PGlite(dir) });
 * if (!r.ok) throw new Error(r.error.message); // e.g. "locked": already open in pid 4242
 * const { driver } = r.value;
 * // … migrate(driver), new PostgresReplayLog(driver) …
 * await driver.close();
 * ```
 */
export async function openPGliteDir<DB extends PGliteLike>(
  options: OpenPGliteDirOptions<DB>,
): Promise<Result<PGliteDir<DB>, OpenPGliteDirRefusal>> {
  const lock = await lockDirectory(options.dataDir);
  if (!lock.ok) return lock;
  let db: DB;
  try {
    db = await options.open(options.dataDir);
    await (db as { waitReady?: Promise<void> }).waitReady;
  } catch (e) {
    await lock.value.release();
    return {
      ok: false,
      error: {
        code: "open-failed",
        message: `opening PGlite failed: ${e instanceof Error ? e.message : "error"}`,
      },
    };
  }
  const driver = pgliteDriver(db, { onClose: () => lock.value.release() });
  return { ok: true, value: { db, driver, lockFile: lock.value.lockFile } };
}
