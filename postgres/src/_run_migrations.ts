/**
 * The migration runner behind `migrate`, over an explicit version list (the
 * tests use it to prove that appending a version upgrades an existing
 * database). Area-private.
 *
 * @module
 */
import type { Result } from "@papercusp/chat-protocol";
import type { Migration } from "./_migrations.ts";
import type { PgDriver, PgQueryable } from "./driver.ts";
import { driverFailure } from "./_failure.ts";
import type { MigrateOptions, MigrateRefusal, MigrateReport } from "./migrate.ts";
import { type TableNames, tableNames } from "./names.ts";

/** Advisory-lock class id of migrations ("cp" in ASCII); the object id is the schema's hash. */
const LOCK_CLASS = 0x6370;

/** Lower-case hex SHA-256 of `text` (Web Crypto: Deno, Node ≥ 20, browsers, edge). */
async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Checksum of a migration as rendered for these names. */
export function checksumOf(m: Migration, names: TableNames): Promise<string> {
  return sha256(m.statements(names).join("\n;\n"));
}

/** `migrate` over `list` (see the module doc). */
export async function runMigrations(
  driver: PgDriver,
  options: MigrateOptions,
  list: readonly Migration[],
): Promise<Result<MigrateReport, MigrateRefusal>> {
  const names = tableNames(options);
  const rendered = await Promise.all(
    list.map(async (m) => ({ m, checksum: await checksumOf(m, names) })),
  );
  try {
    return await driver.transaction(
      (tx) => migrateIn(tx, names, rendered),
      { lockTimeoutMs: options.lockTimeoutMs ?? 0, statementTimeoutMs: 0 },
    );
  } catch (e) {
    return driverFailure(e, "database-error", "migrate");
  }
}

async function migrateIn(
  tx: PgQueryable,
  names: TableNames,
  list: readonly { m: Migration; checksum: string }[],
): Promise<Result<MigrateReport, MigrateRefusal>> {
  await tx.query("SELECT pg_advisory_xact_lock($1::int, hashtext($2::text))", [
    LOCK_CLASS,
    `papercusp:${names.schemaName}`,
  ]);
  await tx.query(`CREATE SCHEMA IF NOT EXISTS ${names.schema}`);
  await tx.query(`CREATE TABLE IF NOT EXISTS ${names.migrations} (
    version integer PRIMARY KEY,
    name text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const { rows } = await tx.query<{ version: number; checksum: string }>(
    `SELECT version, checksum FROM ${names.migrations} ORDER BY version`,
  );
  const known = new Map(list.map((x) => [x.m.version, x]));
  for (const row of rows) {
    const version = Number(row.version);
    const mine = known.get(version);
    if (!mine) {
      return refuse(
        "unknown-version",
        version,
        `version ${version} is recorded but unknown to this package (was a newer package used?)`,
      );
    }
    if (mine.checksum !== row.checksum) {
      return refuse(
        "checksum-mismatch",
        version,
        `version ${version} (${mine.m.name}) was applied with different statements`,
      );
    }
  }
  const done = new Set(rows.map((r) => Number(r.version)));
  const applied: { version: number; name: string }[] = [];
  for (const { m, checksum } of list) {
    if (done.has(m.version)) continue;
    for (const statement of m.statements(names)) await tx.query(statement);
    await tx.query(
      `INSERT INTO ${names.migrations} (version, name, checksum) VALUES ($1::int, $2::text, $3::text)`,
      [m.version, m.name, checksum],
    );
    applied.push({ version: m.version, name: m.name });
  }
  const version = list.length === 0 ? 0 : Math.max(...list.map((x) => x.m.version));
  return { ok: true, value: { applied, version, names } };
}

function refuse(
  code: "checksum-mismatch" | "unknown-version",
  version: number,
  message: string,
): Result<never, MigrateRefusal> {
  return { ok: false, error: { code, message, version } };
}
