/**
 * Child process: at `<startAt>` (epoch ms) tries `lockDirectory(<dir>)`,
 * prints `locked` or `refused <code> <holderPid>`, holds a won lock for
 * `<holdMs>`, then releases it.
 *
 * @module
 */
import { lockDirectory } from "../../pglite_dir.ts";

const [dir, startAt, holdMs] = Deno.args;
await new Promise((r) => setTimeout(r, Math.max(0, Number(startAt) - Date.now())));
const r = await lockDirectory(dir);
if (r.ok) {
  console.log("locked");
  await new Promise((res) => setTimeout(res, Number(holdMs)));
  await r.value.release();
} else {
  console.log(`refused ${r.error.code} ${r.error.holder?.pid ?? "-"}`);
}
