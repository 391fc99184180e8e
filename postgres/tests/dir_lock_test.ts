import assert from "node:assert/strict";
import { join } from "node:path";
import { hostname } from "node:os";
import { PGlite } from "@electric-sql/pglite";
import { LOCK_FILE_NAME, lockDirectory, openPGliteDir } from "../pglite_dir.ts";
import { lines, spawnProc, textOf } from "./_helpers/db.ts";

async function withDir(fn: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "dir_lock_" });
  try {
    await fn(join(dir, "data"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const p = new Deno.Command("true").spawn();
  await p.status;
  return p.pid;
}

function lockJson(pid: number, host = hostname()): string {
  return JSON.stringify({ pid, hostname: host, token: "old", createdAt: "2026-01-01T00:00:00Z" });
}

Deno.test("dir lock: a second lock in the same process is refused until released", () =>
  withDir(async (dir) => {
    const first = await lockDirectory(dir);
    assert.ok(first.ok);
    assert.equal(first.value.lockFile, join(dir, LOCK_FILE_NAME));
    const second = await lockDirectory(dir);
    assert.equal(!second.ok && second.error.code, "locked");
    assert.equal(!second.ok && second.error.holder?.pid, Deno.pid);
    await first.value.release();
    await first.value.release();
    const third = await lockDirectory(dir);
    assert.ok(third.ok);
    await third.value.release();
    await assert.rejects(Deno.stat(join(dir, LOCK_FILE_NAME)), Deno.errors.NotFound);
  }));

Deno.test("dir lock: a dead holder's lock is taken over; another host's never", () =>
  withDir(async (dir) => {
    await Deno.mkdir(dir, { recursive: true });
    const file = join(dir, LOCK_FILE_NAME);
    await Deno.writeTextFile(file, lockJson(await deadPid()));
    const taken = await lockDirectory(dir);
    assert.ok(taken.ok, JSON.stringify(!taken.ok && taken.error));
    // release deletes only our own lock: a lock that changed hands stays
    await Deno.writeTextFile(file, lockJson(Deno.pid));
    await taken.value.release();
    assert.equal(await Deno.readTextFile(file), lockJson(Deno.pid));
    await Deno.writeTextFile(file, lockJson(await deadPid(), "some-other-host"));
    const elsewhere = await lockDirectory(dir);
    assert.equal(!elsewhere.ok && elsewhere.error.code, "locked-elsewhere");
    assert.equal(!elsewhere.ok && elsewhere.error.holder?.hostname, "some-other-host");
  }));

Deno.test("dir lock: a killed holder not yet reaped (a zombie) is stale", () =>
  withDir(async (dir) => {
    // A parent that never waits: its child, SIGKILLed, stays a zombie (SIGCHLD
    // back to its default first: an inherited ignored SIGCHLD reaps at once).
    // The parent reads the state itself: Deno reads /proc/<pid> only with
    // --allow-all, which is also why the lock is tried in a child process.
    const parent = new Deno.Command("python3", {
      args: [
        "-c",
        "import os, signal, time\n" +
        "signal.signal(signal.SIGCHLD, signal.SIG_DFL)\n" +
        "pid = os.fork()\n" +
        "if pid == 0:\n    time.sleep(60)\n    os._exit(0)\n" +
        "os.kill(pid, signal.SIGKILL)\nstate = '?'\n" +
        "for _ in range(500):\n" +
        "    s = open(f'/proc/{pid}/stat').read()\n" +
        "    state = s[s.rindex(')') + 2]\n" +
        "    if state == 'Z': break\n" +
        "    time.sleep(0.01)\n" +
        "print(pid, state, flush=True)\ntime.sleep(60)\n",
      ],
      stdout: "piped",
    }).spawn();
    try {
      const first = await lines(parent.stdout).next();
      const [pid, state] = String(first.value).split(" ");
      assert.equal(state, "Z", `the killed process ${pid} should be a zombie`);
      await Deno.mkdir(dir, { recursive: true });
      await Deno.writeTextFile(join(dir, LOCK_FILE_NAME), lockJson(Number(pid)));
      const child = spawnProc("lock.ts", [dir, String(Date.now()), "0"]);
      const err = textOf(child.stderr);
      const out: string[] = [];
      for await (const l of lines(child.stdout)) out.push(l);
      assert.equal((await child.status).code, 0, await err);
      assert.deepEqual(out, ["locked"]);
    } finally {
      parent.kill("SIGKILL");
      await parent.status;
    }
  }));

Deno.test("dir lock: an unreadable lock is 'being written' while young, stale when old", () =>
  withDir(async (dir) => {
    await Deno.mkdir(dir, { recursive: true });
    const file = join(dir, LOCK_FILE_NAME);
    await Deno.writeTextFile(file, "{half");
    const young = await lockDirectory(dir);
    assert.equal(!young.ok && young.error.code, "locked");
    const old = new Date(Date.now() - 60_000);
    await Deno.utime(file, old, old);
    const taken = await lockDirectory(dir);
    assert.ok(taken.ok);
    await taken.value.release();
  }));

Deno.test("dir lock: a directory that cannot be created is io-error", async () => {
  const file = await Deno.makeTempFile();
  try {
    const r = await lockDirectory(join(file, "sub"));
    assert.equal(!r.ok && r.error.code, "io-error");
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("openPGliteDir: open failure releases the lock; close releases it", () =>
  withDir(async (dir) => {
    const failed = await openPGliteDir({
      dataDir: dir,
      open: () => {
        throw new Error("cannot open");
      },
    });
    assert.equal(!failed.ok && failed.error.code, "open-failed");
    await assert.rejects(Deno.stat(join(dir, LOCK_FILE_NAME)), Deno.errors.NotFound);
    const opened = await openPGliteDir({ dataDir: dir, open: (d) => new PGlite(d) });
    assert.ok(opened.ok);
    const again = await openPGliteDir({ dataDir: dir, open: (d) => new PGlite(d) });
    assert.equal(!again.ok && again.error.code, "locked");
    await opened.value.driver.query("CREATE TABLE kept (x int)");
    await opened.value.driver.close();
    const reopened = await openPGliteDir({ dataDir: dir, open: (d) => new PGlite(d) });
    assert.ok(reopened.ok);
    assert.deepEqual(
      (await reopened.value.driver.query("SELECT count(*)::int AS n FROM kept")).rows,
      [
        { n: 0 },
      ],
    );
    await reopened.value.driver.close();
  }));

Deno.test("dir lock [3 processes]: racing for one directory, exactly one wins", () =>
  withDir(async (dir) => {
    const startAt = String(Date.now() + 1500);
    const procs = [0, 1, 2].map(() => spawnProc("lock.ts", [dir, startAt, "1500"]));
    const outs = await Promise.all(procs.map(async (p) => {
      const err = textOf(p.stderr);
      const out: string[] = [];
      for await (const l of lines(p.stdout)) out.push(l);
      assert.equal((await p.status).code, 0, await err);
      return { pid: p.pid, line: out[0] };
    }));
    const winners = outs.filter((o) => o.line === "locked");
    assert.equal(winners.length, 1, JSON.stringify(outs));
    for (const o of outs.filter((o) => o.line !== "locked")) {
      assert.equal(o.line, `refused locked ${winners[0].pid}`);
    }
  }));

/** Writes a stale lock (a dead pid, or `pid` with a token nobody holds) in `dir`. */
async function writeStale(dir: string, pid: number): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(join(dir, LOCK_FILE_NAME), lockJson(pid));
}

Deno.test("dir lock: concurrent takeovers of one stale lock in one process, exactly one wins", () =>
  withDir(async (base) => {
    // Regression: the rename-based takeover let 2+ openers hold one
    // directory (about 1 round in 3 with 8 openers).
    const dead = await deadPid();
    for (let round = 0; round < 150; round++) {
      const dir = join(base, String(round));
      await writeStale(dir, dead);
      const res = await Promise.all(Array.from({ length: 8 }, () => lockDirectory(dir)));
      const won = res.filter((r) => r.ok);
      assert.equal(won.length, 1, `round ${round}: ${won.length} holders`);
      for (const r of res) {
        if (!r.ok) assert.equal(r.error.code, "locked", JSON.stringify(r.error));
      }
      const left = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
      assert.deepEqual(left, [LOCK_FILE_NAME], "no marker or temporary file left behind");
      for (const r of won) if (r.ok) await r.value.release();
    }
  }));

Deno.test("dir lock [6 processes]: racing takeovers of stale locks, one holder per round", () =>
  withDir(async (base) => {
    const rounds = 40, interval = 120, procs = 6;
    const dead = await deadPid();
    for (let r = 0; r < rounds; r++) await writeStale(join(base, String(r)), dead);
    const startAt = String(Date.now() + 2500);
    const children = Array.from(
      { length: procs },
      () => spawnProc("lock_race.ts", [base, startAt, String(rounds), String(interval)]),
    );
    // Every child stays alive until all rounds are counted: a winner that
    // exited would leave a genuinely stale lock behind.
    const errs = children.map((p) => textOf(p.stderr));
    for (const p of children) {
      for await (const l of lines(p.stdout)) if (l === "done") break;
    }
    const doubles: string[] = [];
    for (let r = 0; r < rounds; r++) {
      const holders = [...Deno.readDirSync(join(base, String(r)))]
        .filter((e) => e.name.startsWith("holder.")).length;
      if (holders !== 1) doubles.push(`round ${r}: ${holders} holders`);
    }
    await Deno.writeTextFile(join(base, "stop"), "");
    for (const [i, p] of children.entries()) assert.equal((await p.status).code, 0, await errs[i]);
    assert.deepEqual(doubles, []);
  }));

Deno.test("dir lock: a lock naming our own pid with a token we do not hold is stale (pid reuse)", () =>
  withDir(async (dir) => {
    // A restarted container's host runs as pid 1 again, like the killed
    // holder: the old code refused it forever as "locked" by itself.
    await writeStale(dir, Deno.pid);
    const taken = await lockDirectory(dir);
    assert.ok(taken.ok, JSON.stringify(!taken.ok && taken.error));
    // A lock this process does hold (its token is ours) is still refused.
    const second = await lockDirectory(dir);
    assert.equal(!second.ok && second.error.code, "locked");
    assert.equal(!second.ok && second.error.holder?.pid, Deno.pid);
    await taken.value.release();
    const third = await lockDirectory(dir);
    assert.ok(third.ok);
    await third.value.release();
  }));

Deno.test("dir lock: a takeover marker left by a dead process does not wedge the directory", () =>
  withDir(async (dir) => {
    await writeStale(dir, await deadPid());
    const stale = await Deno.readTextFile(join(dir, LOCK_FILE_NAME));
    const digest = new Uint8Array(
      await crypto.subtle.digest("SHA-256", new TextEncoder().encode(stale)),
    );
    const hex = Array.from(digest.subarray(0, 16), (b) => b.toString(16).padStart(2, "0"))
      .join("");
    const marker = join(dir, `${LOCK_FILE_NAME}.takeover.${hex}`);
    await Deno.writeTextFile(marker, lockJson(await deadPid()));
    const taken = await lockDirectory(dir);
    assert.ok(taken.ok, JSON.stringify(!taken.ok && taken.error));
    await assert.rejects(Deno.stat(marker), Deno.errors.NotFound);
    await taken.value.release();
  }));
