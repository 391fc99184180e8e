import assert from "node:assert/strict";
import { MAX_PREFIX_BYTES, migrate, type PgDriver, tableNames, TableOptionsError } from "../mod.ts";
import { MIGRATIONS } from "../src/_migrations.ts";
import { runMigrations } from "../src/_run_migrations.ts";
import {
  BACKENDS,
  databaseUrl,
  lines,
  serverDriver,
  spawnProc,
  textOf,
  withSchema,
} from "./_helpers/db.ts";

async function tablesIn(d: PgDriver, schema: string): Promise<string[]> {
  const { rows } = await d.query<{ t: string }>(
    "SELECT table_name AS t FROM information_schema.tables WHERE table_schema = $1::text ORDER BY 1",
    [schema],
  );
  return rows.map((r) => r.t);
}

for (const backend of BACKENDS) {
  Deno.test(`migrate [${backend.name}]: creates the schema and tables once, then is a no-op`, () =>
    withSchema(backend.make, "t", async (d, schema) => {
      const first = await migrate(d, { schema, prefix: "app_" });
      assert.ok(first.ok, JSON.stringify(first));
      assert.deepEqual(first.value.applied, [
        { version: 1, name: "replay log" },
        { version: 2, name: "recovery store" },
        { version: 3, name: "interaction store" },
      ]);
      assert.equal(first.value.version, MIGRATIONS.length);
      assert.equal(first.value.names.replayFrames, `"${schema}"."app_replay_frames"`);
      assert.deepEqual(await tablesIn(d, schema), [
        "app_interaction_authorities",
        "app_interaction_clock",
        "app_interaction_outbox",
        "app_interaction_system_grants",
        "app_interactions",
        "app_migrations",
        "app_recovery_effects",
        "app_recovery_grants",
        "app_recovery_turns",
        "app_replay_frames",
        "app_replay_turns",
      ]);
      const again = await migrate(d, { schema, prefix: "app_" });
      assert.ok(again.ok);
      assert.deepEqual(again.value.applied, []);
      // A second prefix in the same schema gets its own tables.
      const other = await migrate(d, { schema, prefix: "" });
      assert.ok(other.ok);
      assert.equal((await tablesIn(d, schema)).length, 22);
    }));

  Deno.test(`migrate [${backend.name}]: appending a version upgrades an existing database`, () =>
    withSchema(backend.make, "t", async (d, schema) => {
      assert.ok((await migrate(d, { schema })).ok);
      const next = MIGRATIONS.length + 1;
      const v2 = {
        version: next,
        name: "extra",
        statements: (n: ReturnType<typeof tableNames>) => [
          `CREATE TABLE ${n.schema}."${n.prefix}extra" (id int PRIMARY KEY)`,
        ],
      };
      const up = await runMigrations(d, { schema }, [...MIGRATIONS, v2]);
      assert.ok(up.ok, JSON.stringify(up));
      assert.deepEqual(up.value.applied, [{ version: next, name: "extra" }]);
      assert.equal(up.value.version, next);
      assert.ok((await tablesIn(d, schema)).includes("chat_extra"));
      // The older package now meets a database one version ahead: refused, untouched.
      const old = await migrate(d, { schema });
      assert.equal(old.ok, false);
      assert.equal(!old.ok && old.error.code, "unknown-version");
      assert.equal(!old.ok && old.error.version, next);
    }));

  Deno.test(`migrate [${backend.name}]: a changed statement is a checksum mismatch`, () =>
    withSchema(backend.make, "t", async (d, schema) => {
      assert.ok((await migrate(d, { schema })).ok);
      await d.query(`UPDATE "${schema}".chat_migrations SET checksum = 'x' WHERE version = 1`);
      const r = await migrate(d, { schema });
      assert.equal(r.ok, false);
      assert.equal(!r.ok && r.error.code, "checksum-mismatch");
      assert.equal(!r.ok && r.error.version, 1);
    }));
}

Deno.test("migrate: invalid schema or prefix throws TableOptionsError before any SQL", async () => {
  let queries = 0;
  const spy = {
    kind: "pglite",
    concurrent: false,
    query: () => (queries++, Promise.resolve({ rows: [] })),
    transaction: () => (queries++, Promise.resolve()),
    listen: () => Promise.reject(new Error("no")),
    close: () => Promise.resolve(),
  } as unknown as PgDriver;
  for (
    const options of [
      { schema: 'x"; DROP SCHEMA public CASCADE; --' },
      { schema: "Public" },
      { schema: "pg_catalog" },
      { schema: "" },
      { schema: "a".repeat(64) },
      { prefix: "bad-prefix" },
      { prefix: "x".repeat(33) },
      { schema: 42 as unknown as string },
    ]
  ) {
    await assert.rejects(migrate(spy, options), TableOptionsError, JSON.stringify(options));
  }
  assert.equal(queries, 0);
});

Deno.test("tableNames: a prefix of 30 bytes builds every name; 31 and 32 throw the documented error", () => {
  // Regression: MAX_PREFIX_BYTES was documented as 32, but 31 and 32 threw
  // from the longest derived index name with another message.
  assert.equal(MAX_PREFIX_BYTES, 30);
  const n = tableNames({ prefix: "p".repeat(30) });
  assert.equal(n.interactionOutboxByIdIndex, `${"p".repeat(30)}interaction_outbox_by_interaction`);
  assert.equal(n.interactionOutboxByIdIndex.length, 63);
  for (const len of [31, 32]) {
    assert.throws(
      () => tableNames({ prefix: "p".repeat(len) }),
      (e) => e instanceof TableOptionsError && e.message.includes("at most 30 bytes"),
    );
  }
});

Deno.test("migrate [server]: two processes migrating one schema at once both succeed, one applies", () =>
  withSchema(serverDriver, "mig", async (d, schema) => {
    const url = await databaseUrl();
    const startAt = String(Date.now() + 1500);
    const procs = [0, 1, 2].map(() =>
      spawnProc("migrate.ts", [schema, startAt], { DATABASE_URL: url })
    );
    const outs = await Promise.all(procs.map(async (p) => {
      const stderr = textOf(p.stderr);
      const out: string[] = [];
      for await (const l of lines(p.stdout)) out.push(l);
      const status = await p.status;
      assert.equal(status.code, 0, `child failed: ${out.join("\n")}\n${await stderr}`);
      return JSON.parse(out[0]);
    }));
    const applied = outs.map((o) => o.applied.length);
    assert.deepEqual(applied.sort(), [0, 0, MIGRATIONS.length], JSON.stringify(outs));
    const { rows } = await d.query(`SELECT version FROM "${schema}".chat_migrations`);
    assert.equal(rows.length, MIGRATIONS.length);
  }));
