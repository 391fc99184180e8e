/**
 * Child process: waits until the given start time (epoch ms), runs
 * `migrate` on DATABASE_URL with `--schema`, prints the report as one JSON
 * line and exits 0 (1 on a refusal).
 *
 * @module
 */
import postgres from "postgres";
import { migrate, postgresJsDriver } from "../../mod.ts";

const [schema, startAt] = Deno.args;
const driver = postgresJsDriver(
  postgres(Deno.env.get("DATABASE_URL")!, { max: 1, onnotice: () => {} }),
);
await new Promise((r) => setTimeout(r, Math.max(0, Number(startAt) - Date.now())));
const r = await migrate(driver, { schema });
console.log(JSON.stringify(r.ok ? { ok: true, applied: r.value.applied } : r));
await driver.close();
Deno.exit(r.ok ? 0 : 1);
