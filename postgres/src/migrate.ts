/**
 * `migrate`: creates and upgrades the package's tables, versioned and
 * idempotent, safe when several processes run it at once.
 *
 * @module
 */
import type { Refusal, Result } from "@papercusp/chat-protocol";
import { MIGRATIONS } from "./_migrations.ts";
import { runMigrations } from "./_run_migrations.ts";
import type { PgCommitOutcome, PgDriver, PgErrorKind } from "./driver.ts";
import type { TableNames, TableOptions } from "./names.ts";

/** Options of {@link migrate}. */
export interface MigrateOptions extends TableOptions {
  /**
   * `lock_timeout` while waiting for another process's migration, in ms;
   * default 0 (wait as long as it takes). Ignored by PGlite.
   */
  readonly lockTimeoutMs?: number;
}

/** What {@link migrate} did. */
export interface MigrateReport {
  /** Versions applied by this call, in order (empty when already current). */
  readonly applied: readonly { readonly version: number; readonly name: string }[];
  /** The schema version of the database afterwards. */
  readonly version: number;
  /** The quoted table names (the same options give the same names to every store). */
  readonly names: TableNames;
}

/** Codes of {@link MigrateRefusal}. */
export type MigrateRefusalCode =
  /** A recorded version's checksum differs from this package's statements for it. */
  | "checksum-mismatch"
  /** The database records a version this package does not know (a newer package migrated it). */
  | "unknown-version"
  /** The database failed; see `kind` and `commit`. */
  | "database-error";

/** Why {@link migrate} refused (nothing of this call was applied unless `commit` is `uncertain`). */
export interface MigrateRefusal extends Refusal<MigrateRefusalCode> {
  /** The version concerned (`checksum-mismatch`, `unknown-version`). */
  readonly version?: number;
  /** The driver's error kind (`database-error`). */
  readonly kind?: PgErrorKind;
  /**
   * `uncertain` when the connection was lost while committing
   * (`database-error`): running `migrate` again is safe, it is idempotent.
   */
  readonly commit?: PgCommitOutcome;
}

/**
 * Create or upgrade the package's tables in `options.schema` with
 * `options.prefix` (see {@link TableOptions}). In ONE transaction: take an
 * advisory lock for the schema (a second process running `migrate` at the
 * same time waits, then finds the work done), create the schema and the
 * migrations table when missing, check every recorded version against this
 * package's list (checksum), apply the missing versions in order and record
 * them. PostgreSQL DDL is transactional: a failure leaves the database as it
 * was. Running it again is a no-op.
 *
 * Returns the report, or a typed refusal (`checksum-mismatch`,
 * `unknown-version`, `database-error`). Rejects with `TableOptionsError` when the
 * schema or prefix is invalid (a programmer's mistake), never otherwise.
 *
 * @example
 * ```ts
 * import { PGlite } from "@electric-sql/pglite";
 * import { migrate, pgliteDriver } from "@papercusp/chat-protocol-postgres";
 * const sql = pgliteDriver(new PGlite());
 * const r = await migrate(sql, { schema: "chat", prefix: "app_" });
 * if (!r.ok) throw new Error(r.error.message);
 * console.log(r.value.version, r.value.applied);
 * ```
 */
export function migrate(
  driver: PgDriver,
  options: MigrateOptions = {},
): Promise<Result<MigrateReport, MigrateRefusal>> {
  return runMigrations(driver, options, MIGRATIONS);
}
