import assert from "node:assert/strict";
import {
  MAX_NOTIFY_PAYLOAD_BYTES,
  type PgDriver,
  type PgListenHandle,
  publish,
  subscribe,
} from "../mod.ts";
import {
  databaseUrl,
  lines,
  pgliteMemory,
  serverDriver,
  spawnProc,
  textOf,
} from "./_helpers/db.ts";

/** Waits until `cond()` holds, polling every 5 ms, failing after `ms`. */
async function until(cond: () => boolean, what: string, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

Deno.test("notifications [pglite]: committed messages arrive, rolled-back ones never, framing and bounds", async () => {
  const d = await pgliteMemory();
  const got: string[] = [];
  const errors: unknown[] = [];
  const sub = await subscribe(d, "turn_events", {
    onMessage(p) {
      got.push(p);
      if (p === "throw") throw new Error("handler failed");
    },
    onError: (e) => errors.push(e),
  }, { healthCheckMs: 0 });
  assert.ok(sub.ok);
  try {
    assert.deepEqual(await publish(d, "turn_events", "one"), { ok: true, value: undefined });
    await d.transaction(async (tx) => {
      assert.ok((await publish(tx, "turn_events", '{"turnId":"t1","cancel":true}')).ok);
    });
    await assert.rejects(
      d.transaction(async (tx) => {
        await publish(tx, "turn_events", "rolled back");
        throw new Error("abort");
      }),
    );
    await d.query("SELECT pg_notify('turn_events', 'not framed')");
    await publish(d, "turn_events", "throw");
    await publish(d, "turn_events", "last");
    await until(() => got.includes("last"), "the last message");
    assert.deepEqual(got, ["one", '{"turnId":"t1","cancel":true}', "throw", "last"]);
    assert.equal(errors.length, 1);
    assert.deepEqual(sub.value.stats(), { delivered: 4, dropped: 1, resubscribed: 0 });
    // refusals: nothing is sent
    const big = await publish(d, "turn_events", "x".repeat(MAX_NOTIFY_PAYLOAD_BYTES + 1));
    assert.deepEqual(!big.ok && [big.error.code, big.error.maxBytes], [
      "too-large",
      MAX_NOTIFY_PAYLOAD_BYTES,
    ]);
    const fits = await publish(d, "turn_events", "é".repeat(MAX_NOTIFY_PAYLOAD_BYTES / 2 - 1));
    assert.ok(fits.ok, "a payload at the bound is sent (PostgreSQL accepts it)");
    for (const bad of ["\u0000", "\uD800", 42 as unknown as string]) {
      const r = await publish(d, "turn_events", bad);
      assert.equal(!r.ok && r.error.code, "invalid-payload");
    }
    for (const channel of ['x"; NOTIFY y; --', "Upper", "", "a".repeat(64)]) {
      const r = await publish(d, channel, "p");
      assert.equal(!r.ok && r.error.code, "invalid-channel");
      const s = await subscribe(d, channel, { onMessage() {} });
      assert.equal(!s.ok && s.error.code, "invalid-channel");
    }
    await sub.value.close();
    await publish(d, "turn_events", "after close");
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(got.includes("after close"), false);
  } finally {
    await sub.value.close();
    await d.close();
  }
});

/**
 * A driver whose LISTEN can die silently (as postgres.js's does when the
 * server is unreachable while it re-listens): notifications sent through
 * `query` reach only listeners that are still alive.
 */
function flakyDriver() {
  const listeners = new Set<{ alive: boolean; fn: (p: string) => void }>();
  let listens = 0;
  const driver = {
    kind: "postgres.js",
    concurrent: true,
    query(text: string, params: readonly unknown[] = []) {
      if (text.includes("pg_notify")) {
        const payload = params[1] as string;
        queueMicrotask(() => {
          for (const l of listeners) if (l.alive) l.fn(payload);
        });
      }
      return Promise.resolve({ rows: [] });
    },
    transaction: () => Promise.reject(new Error("unused")),
    listen(_channel: string, fn: (p: string) => void): Promise<PgListenHandle> {
      listens++;
      const l = { alive: true, fn };
      listeners.add(l);
      return Promise.resolve({
        unlisten: () => {
          listeners.delete(l);
          return Promise.resolve();
        },
      });
    },
    close: () => Promise.resolve(),
  } as unknown as PgDriver;
  return {
    driver,
    killSilently: () => listeners.forEach((l) => l.alive = false),
    listens: () => listens,
  };
}

Deno.test("notifications: a subscription that died silently is found by the health check and re-established", async () => {
  const flaky = flakyDriver();
  const got: string[] = [];
  let resubscribed = 0;
  const sub = await subscribe(flaky.driver, "chan", {
    onMessage: (p) => got.push(p),
    onResubscribed: () => resubscribed++,
  }, { healthCheckMs: 20 });
  assert.ok(sub.ok);
  try {
    await publish(flaky.driver, "chan", "before");
    await until(() => got.length === 1, "the first message");
    flaky.killSilently();
    await publish(flaky.driver, "chan", "lost while dead");
    await until(() => resubscribed === 1, "the resubscription");
    assert.equal(flaky.listens(), 2);
    await publish(flaky.driver, "chan", "after");
    await until(() => got.includes("after"), "the message after resubscribing");
    assert.deepEqual(got, ["before", "after"]);
    assert.equal(sub.value.stats().resubscribed, 1);
  } finally {
    await sub.value.close();
  }
});

Deno.test("notifications [server, 2 processes]: committed messages reach the other process, also after its connection was killed", async () => {
  const d = await serverDriver({ max: 2 });
  const channel = `chan_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const child = spawnProc("listen.ts", [channel, "300"], {
    DATABASE_URL: await databaseUrl(),
  });
  const stderr = textOf(child.stderr);
  const out: string[] = [];
  const reader = (async () => {
    for await (const l of lines(child.stdout)) out.push(l);
  })();
  try {
    await until(() => out.includes("ready"), "the child to subscribe", 30_000);
    await publish(d, channel, "one");
    await d.transaction(async (tx) => void await publish(tx, channel, "two"));
    await assert.rejects(d.transaction(async (tx) => {
      await publish(tx, channel, "never");
      throw new Error("rolled back");
    }));
    await publish(d, channel, "three");
    await until(() => out.includes("msg three"), "message three");
    // Kill the child's LISTEN connection from here: postgres.js reconnects and re-listens.
    const { rows } = await d.query<{ n: number }>(
      `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
       WHERE application_name = $1::text AND query ILIKE 'listen%'`,
      [channel],
    );
    assert.equal(rows[0].n, 1);
    await until(() => out.includes("resub"), "the child to resubscribe", 10_000);
    await publish(d, channel, "four");
    await until(() => out.includes("msg four"), "message four after the reconnect");
    await publish(d, channel, "quit");
    const status = await child.status;
    await reader;
    assert.equal(status.code, 0, await stderr);
    const msgs = out.filter((l) => l.startsWith("msg "));
    assert.deepEqual(msgs, ["msg one", "msg two", "msg three", "msg four", "msg quit"]);
  } finally {
    try {
      child.kill("SIGKILL");
    } catch { /* already exited */ }
    await d.close();
  }
});
