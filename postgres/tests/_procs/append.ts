/**
 * Child process: appends envelopes to one turn through `PostgresReplayLog`,
 * each at the turn's next `seq` (re-reading the bounds after a
 * `seq-conflict`), and prints `ack <seq> <eventId>` on stdout after each
 * acknowledged append.
 *
 * Args: `<backend> <schema-or-dir> <turnId> <tag> <count> <goFile>`
 * - backend `server` (DATABASE_URL) or `pglite-dir` (PGlite on a directory
 *   through `openPGliteDir`);
 * - count 0 = append until killed;
 * - goFile: after printing `ready`, wait until this file exists (the parent
 *   creates it once every child is ready, so they start together); `-` = now.
 * Ends with `done <conflicts>` when count is reached. Prints `ready` first.
 *
 * @module
 */
import postgres from "postgres";
import { PGlite } from "@electric-sql/pglite";
import { migrate, type PgDriver, postgresJsDriver, PostgresReplayLog } from "../../mod.ts";
import { openPGliteDir } from "../../pglite_dir.ts";

const [backend, where, turnId, tag, countArg, goFile] = Deno.args;
const count = Number(countArg);
let driver: PgDriver;
let schema = where;
if (backend === "server") {
  driver = postgresJsDriver(
    postgres(Deno.env.get("DATABASE_URL")!, { max: 1, onnotice: () => {} }),
  );
} else {
  const opened = await openPGliteDir({ dataDir: where, open: (dir) => new PGlite(dir) });
  if (!opened.ok) {
    console.log(`refused ${JSON.stringify(opened.error)}`);
    Deno.exit(3);
  }
  driver = opened.value.driver;
  schema = "chat";
  const m = await migrate(driver, { schema });
  if (!m.ok) throw new Error(JSON.stringify(m.error));
}
const log = new PostgresReplayLog(driver, { schema });
console.log("ready");
while (goFile !== "-" && !(await Deno.stat(goFile).then(() => true, () => false))) {
  await new Promise((r) => setTimeout(r, 2));
}

let conflicts = 0;
let next = (await log.bounds(turnId)).latestSeq + 1;
for (let i = 0; count === 0 || i < count;) {
  const eventId = `${tag}-${i}`;
  const r = await log.append({
    schemaVersion: 1,
    conversationId: "c1",
    turnId,
    eventId,
    seq: next,
    event: { type: "delta", text: `${tag} ${i}` },
  });
  if (r.ok) {
    console.log(`ack ${next} ${eventId}`);
    next++;
    i++;
  } else if (r.error.code === "seq-conflict") {
    conflicts++;
    next = r.error.expectedSeq!;
  } else {
    throw new Error(JSON.stringify(r.error));
  }
}
console.log(`done ${conflicts}`);
await driver.close();
