import assert from "node:assert/strict";
import { join } from "node:path";
import { randomFor } from "../../tests/_helpers/seed.ts";
import { replayAfter } from "@papercusp/chat-protocol/recovery";
import { PGlite } from "@electric-sql/pglite";
import { migrate, PostgresReplayLog } from "../mod.ts";
import { openPGliteDir } from "../pglite_dir.ts";
import {
  databaseUrl,
  dropSchema,
  freshSchema,
  lines,
  serverDriver,
  spawnProc,
  textOf,
} from "./_helpers/db.ts";

let ready = 0;

/**
 * Runs a child to completion; returns its stdout lines. When `readyCount`
 * children have printed `ready`, the one holding `onAllReady` runs it.
 */
async function finish(
  p: Deno.ChildProcess,
  onAllReady?: () => Promise<void>,
  readyCount = 0,
): Promise<string[]> {
  const stderr = textOf(p.stderr);
  const out: string[] = [];
  let waiting: Promise<void> | null = null;
  for await (const l of lines(p.stdout)) {
    out.push(l);
    if (l === "ready") ready++;
    if (l === "ready" && onAllReady) {
      waiting = (async () => {
        while (ready < readyCount) await new Promise((r) => setTimeout(r, 2));
        await onAllReady();
      })();
    }
  }
  await waiting;
  const { code } = await p.status;
  assert.equal(code, 0, `child exited ${code}:\n${out.slice(-5).join("\n")}\n${await stderr}`);
  return out;
}

function acks(out: readonly string[]): Map<number, string> {
  const m = new Map<number, string>();
  for (const l of out) {
    const [w, seq, id] = l.split(" ");
    if (w === "ack") {
      assert.equal(m.has(Number(seq)), false, `seq ${seq} acknowledged twice`);
      m.set(Number(seq), id);
    }
  }
  return m;
}

Deno.test("replay log [server, 2 processes]: concurrent appends to one turn, unique seq, losers retry", async () => {
  const d = await serverDriver();
  const schema = freshSchema("rp");
  try {
    assert.ok((await migrate(d, { schema })).ok);
    const perProc = 200;
    const url = await databaseUrl();
    const goDir = await Deno.makeTempDir({ prefix: "go_" });
    const go = join(goDir, "go");
    ready = 0;
    const procs = ["a", "b"].map((tag) =>
      spawnProc("append.ts", ["server", schema, "t1", tag, String(perProc), go], {
        DATABASE_URL: url,
      })
    );
    // Both children connect and say ready; then one file starts them together.
    const outs = await Promise.all(
      procs.map((p, i) => finish(p, i === 1 ? () => Deno.writeTextFile(go, "") : undefined, 2)),
    );
    await Deno.remove(goDir, { recursive: true });
    const conflicts = outs.map((o) => Number(o.at(-1)!.split(" ")[1]));
    const all = new Map<number, string>();
    for (const o of outs) {
      const mine = acks(o);
      assert.equal(mine.size, perProc);
      for (const [seq, id] of mine) {
        assert.equal(all.has(seq), false, `seq ${seq} acknowledged to both processes`);
        all.set(seq, id);
      }
    }
    assert.ok(
      conflicts[0] + conflicts[1] > 0,
      "the processes never raced: the test proved nothing",
    );
    const log = new PostgresReplayLog(d, { schema });
    assert.deepEqual(await log.bounds("t1"), { lowestRetainedSeq: 1, latestSeq: 2 * perProc });
    const r = await replayAfter(log, { conversationId: "c1", turnId: "t1", afterSeq: 0 });
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.value.frames.length, 2 * perProc);
    for (const f of r.value.frames) assert.equal(f.eventId, all.get(f.seq));
    console.log(`conflicts seen by the two processes: ${conflicts.join(" + ")}`);
  } finally {
    await dropSchema(d, schema);
    await d.close();
  }
});

Deno.test("replay log [server]: kill -9 of an appending process loses no acknowledged append", async () => {
  const d = await serverDriver();
  const schema = freshSchema("rk");
  try {
    assert.ok((await migrate(d, { schema })).ok);
    const acked = new Map<number, string>();
    const rounds = 5;
    const random = randomFor("replay log [server] kill points");
    for (let round = 0; round < rounds; round++) {
      const child = spawnProc("append.ts", ["server", schema, "t1", `r${round}`, "0", "-"], {
        DATABASE_URL: await databaseUrl(),
      });
      const killAfter = 20 + Math.floor(random() * 60);
      let n = 0;
      for await (const l of lines(child.stdout)) {
        const [w, seq, id] = l.split(" ");
        if (w !== "ack") continue;
        acked.set(Number(seq), id);
        if (++n === killAfter) child.kill("SIGKILL");
      }
      const status = await child.status;
      assert.equal(status.signal, "SIGKILL", await textOf(child.stderr));
      // Every acknowledged append is readable, with the acknowledged event id.
      const log = new PostgresReplayLog(d, { schema });
      const r = await replayAfter(log, { conversationId: "c1", turnId: "t1", afterSeq: 0 });
      assert.ok(r.ok, JSON.stringify(r));
      const stored = new Map(r.value.frames.map((f) => [f.seq, f.eventId]));
      for (const [seq, id] of acked) assert.equal(stored.get(seq), id, `acked seq ${seq} lost`);
      assert.ok(r.value.lastSeq >= Math.max(...acked.keys()));
    }
  } finally {
    await dropSchema(d, schema);
    await d.close();
  }
});

Deno.test("replay log [PGlite on a directory]: a second process is refused; kill -9, reopen, nothing acknowledged lost", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pglite_kill_" });
  try {
    const child = spawnProc("append.ts", ["pglite-dir", dir, "t1", "k", "0", "-"]);
    const acked = new Map<number, string>();
    let refusedWhileRunning = false;
    let n = 0;
    const killAfter = 30 + Math.floor(randomFor("replay log [PGlite] kill point")() * 40);
    for await (const l of lines(child.stdout)) {
      const [w, seq, id] = l.split(" ");
      if (w !== "ack") continue;
      acked.set(Number(seq), id);
      if (++n === 5) {
        // The directory is open in the child: this process must be refused.
        const second = await openPGliteDir({ dataDir: dir, open: (x) => new PGlite(x) });
        assert.equal(second.ok, false);
        assert.equal(!second.ok && second.error.code, "locked");
        assert.equal(!second.ok && "holder" in second.error && second.error.holder?.pid, child.pid);
        refusedWhileRunning = true;
      }
      if (n === killAfter) child.kill("SIGKILL");
    }
    assert.equal((await child.status).signal, "SIGKILL", await textOf(child.stderr));
    assert.ok(refusedWhileRunning);
    // The holder is dead: its stale lock is taken over; every acknowledged append is there.
    const reopened = await openPGliteDir({ dataDir: dir, open: (x) => new PGlite(x) });
    assert.ok(reopened.ok, JSON.stringify(!reopened.ok && reopened.error));
    const { driver } = reopened.value;
    try {
      const log = new PostgresReplayLog(driver, { schema: "chat" });
      const r = await replayAfter(log, { conversationId: "c1", turnId: "t1", afterSeq: 0 });
      assert.ok(r.ok, JSON.stringify(r));
      const stored = new Map(r.value.frames.map((f) => [f.seq, f.eventId]));
      for (const [seq, id] of acked) assert.equal(stored.get(seq), id, `acked seq ${seq} lost`);
      assert.ok(acked.size >= 30);
    } finally {
      await driver.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
