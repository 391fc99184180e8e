/**
 * The package's argument mistakes are typed: `readAfter` / `trim` reject
 * with `PgArgumentError` (before: a plain `RangeError`), and `tableNames`
 * refuses options it cannot read with `TableOptionsError` (before: the
 * getter's own error escaped).
 */
import assert from "node:assert/strict";
import { PgArgumentError, type PgDriver, PostgresReplayLog, TableOptionsError } from "../mod.ts";
import { tableNames } from "../src/names.ts";

/** A driver no call may reach: an argument mistake is found before any SQL. */
const unreachable = new Proxy({}, {
  get: (_t, key) => {
    if (key === "then") return undefined;
    throw new Error(`the driver was used (${String(key)})`);
  },
}) as PgDriver;

Deno.test("replay log: readAfter and trim reject argument mistakes with PgArgumentError before SQL", async () => {
  const log = new PostgresReplayLog(unreachable);
  for (const bad of [-1, 1.5, NaN, Number.MAX_SAFE_INTEGER + 1]) {
    const e = await log.readAfter("t1", bad).then(() => null, (x) => x);
    assert.ok(e instanceof PgArgumentError && e.code === "invalid-argument", String(e));
  }
  for (const policy of [{}, { keepLast: -1 }, { olderThanMs: 0.5 }]) {
    const e = await log.trim(policy).then(() => null, (x) => x);
    assert.ok(e instanceof PgArgumentError && e.code === "invalid-argument", String(e));
  }
  assert.throws(() => new PostgresReplayLog(unreachable, { maxReadFrames: 0 }), PgArgumentError);
});

Deno.test("tableNames: options whose reading throws are a TableOptionsError", () => {
  const getter = {
    get schema(): string {
      throw new Error("getter");
    },
  };
  assert.throws(() => tableNames(getter), TableOptionsError);
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  assert.throws(() => tableNames(proxy), TableOptionsError);
  assert.throws(() => tableNames(null as never), TableOptionsError);
});
