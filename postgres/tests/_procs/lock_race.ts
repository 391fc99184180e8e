/**
 * Child process for the stale-lock takeover race: for each round r in
 * `[0, <rounds>)`, at `<startAt> + r * <intervalMs>` (epoch ms) tries
 * `lockDirectory(<base>/<r>)` (the parent wrote a stale lock there) and, when
 * it wins, writes `<base>/<r>/holder.<pid>` and keeps the lock (never
 * released), so two winners of one round show as two holder files. Prints
 * `done`, then stays alive (its locks' pid alive) until `<base>/stop` exists.
 *
 * @module
 */
import { lockDirectory } from "../../pglite_dir.ts";

const [base, startAt, rounds, intervalMs] = Deno.args;
for (let r = 0; r < Number(rounds); r++) {
  const wait = Number(startAt) + r * Number(intervalMs) - Date.now();
  if (wait > 0) await new Promise((res) => setTimeout(res, wait));
  const dir = `${base}/${r}`;
  const res = await lockDirectory(dir);
  if (res.ok) await Deno.writeTextFile(`${dir}/holder.${Deno.pid}`, "");
}
console.log("done");
for (;;) {
  try {
    await Deno.stat(`${base}/stop`);
    break;
  } catch {
    await new Promise((res) => setTimeout(res, 20));
  }
}
