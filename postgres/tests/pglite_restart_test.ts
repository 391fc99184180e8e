/**
 * Restart durability of the embedded default: a chat host on PGlite on a
 * directory (`tests/_procs/pglite_host.ts`: the three stores through
 * `TurnRecovery`, `InteractionResolver`, `PostgresReplayLog`) is SIGKILLed
 * mid-work, again and again; each fresh process reopens the directory (taking
 * over the killed process's stale lock), finds every acknowledged turn,
 * envelope, effect completion, cancel, card and answer, no torn state (replay
 * gaps, a terminal card without its outbox row, an effect run twice, a
 * completion that differs from its side effect), and resolves what the kill
 * left in flight against the side-effect ledger (no completion lost).
 * Rounds alternate between a kill at a random moment and a kill inside a
 * dispatch right after its side effect (so the restart must reconcile it).
 * While a host runs, this process's own open of the directory is refused.
 *
 * `PGLITE_RESTART_ROUNDS` sets the number of kills (default 4).
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { randomFor } from "../../tests/_helpers/seed.ts";
import { lockDirectory } from "../pglite_dir.ts";
import { lines, spawnProc, textOf } from "./_helpers/db.ts";

interface Run {
  pid: number;
  out: string[];
  code: number;
  stderr: string;
}

/**
 * Runs one host process; with `killAfterAcks` it is SIGKILLed after that many
 * acknowledgements (or at `hold`, when it was told to hold in a dispatch).
 */
async function host(
  dataDir: string,
  tag: string,
  acksFile: string,
  mode: "work" | "check",
  kill: { afterAcks: number; holdAt: number } | null,
  onReady: (pid: number) => Promise<void>,
): Promise<Run> {
  const proc = spawnProc("pglite_host.ts", [
    dataDir,
    tag,
    acksFile,
    mode,
    String(kill?.holdAt ?? 0),
  ]);
  const stderr = textOf(proc.stderr);
  const out: string[] = [];
  let acks = 0;
  let killed = false;
  const killNow = () => {
    if (killed) return;
    killed = true;
    proc.kill("SIGKILL");
  };
  for await (const l of lines(proc.stdout)) {
    out.push(l);
    if (l === "ready") await onReady(proc.pid);
    if (kill && l.startsWith("ack ") && ++acks >= kill.afterAcks) killNow();
    if (kill && l === "hold") killNow();
  }
  const status = await proc.status;
  return { pid: proc.pid, out, code: status.code, stderr: await stderr };
}

Deno.test({
  name:
    "PGlite on a directory: SIGKILL mid-work, a fresh process reopens it (stale lock taken over): every acknowledged record, envelope, effect and answer is there, no torn state, nothing in flight lost",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const rounds = Number(Deno.env.get("PGLITE_RESTART_ROUNDS") ?? 4);
    const base = await Deno.makeTempDir({ prefix: "pglite_restart_" });
    const dataDir = join(base, "data");
    const acksFile = join(base, "acks.jsonl");
    const acks: string[] = [];
    let previousPid = "-";
    let totals = { acks: 0, reconciled: 0, notRun: 0, refusedWhileLive: 0 };
    const checkRun = (r: Run, round: string) => {
      const opened = r.out.find((l) => l.startsWith("opened "));
      assert.ok(opened, `${round}: did not open: ${r.out.slice(0, 3).join(" | ")} ${r.stderr}`);
      assert.equal(opened, `opened ${previousPid}`, `${round}: the lock file's previous holder`);
      assert.deepEqual(r.out.filter((l) => l.startsWith("violation ")), [], round);
      const checked = r.out.find((l) => l.startsWith("checked "));
      assert.ok(checked, `${round}: no check: ${r.stderr.slice(-800)}`);
      const [, n, reconciled, notRun] = checked.split(" ").map(Number);
      assert.equal(n, acks.length, `${round}: checked every acknowledgement so far`);
      totals.reconciled += reconciled;
      totals.notRun += notRun;
    };
    try {
      const random = randomFor("pglite restart kill points");
      for (let round = 0; round < rounds; round++) {
        await Deno.writeTextFile(acksFile, acks.map((a) => a + "\n").join(""));
        const atDispatch = round % 2 === 1;
        const r = await host(
          dataDir,
          `r${round}`,
          round === 0 ? "-" : acksFile,
          "work",
          atDispatch
            ? { afterAcks: Infinity, holdAt: 1 + Math.floor(random() * 4) }
            : { afterAcks: 8 + Math.floor(random() * 30), holdAt: 0 },
          async (pid) => {
            // The directory is open in a live process: refused, naming it.
            const second = await lockDirectory(dataDir);
            assert.equal(!second.ok && second.error.code, "locked");
            assert.equal(!second.ok && second.error.holder?.pid, pid);
            totals.refusedWhileLive++;
          },
        );
        checkRun(r, `round ${round}`);
        assert.equal(
          r.code,
          137,
          `round ${round}: killed (exit ${r.code}): ${r.stderr.slice(-800)}`,
        );
        if (atDispatch) assert.ok(r.out.includes("hold"), `round ${round}: never held`);
        const newAcks = r.out.filter((l) => l.startsWith("ack ")).map((l) => l.slice(4));
        assert.ok(newAcks.length > 0, `round ${round}: acknowledged nothing`);
        acks.push(...newAcks);
        previousPid = String(r.pid);
      }
      await Deno.writeTextFile(acksFile, acks.map((a) => a + "\n").join(""));
      const last = await host(dataDir, "final", acksFile, "check", null, () => Promise.resolve());
      checkRun(last, "final check");
      assert.equal(last.code, 0, last.stderr.slice(-800));
      assert.ok(last.out.includes("closed"));
      totals = { ...totals, acks: acks.length };
      console.log(`pglite restart: ${rounds} SIGKILLs, ${JSON.stringify(totals)}`);
      // Each hold in a dispatch left a side effect without its completion:
      // the restarts must have reconciled them from the ledger.
      assert.ok(totals.reconciled >= Math.floor(rounds / 2), JSON.stringify(totals));
      assert.equal(totals.refusedWhileLive, rounds);
    } finally {
      await Deno.remove(base, { recursive: true }).catch(() => {});
    }
  },
});
