/**
 * The reference host on a real PostgreSQL server (`DATABASE_URL`) instead of
 * its default PGlite directory: a fresh database is created on the test
 * server (the one `.ci/run` starts, or a throwaway cluster started by the
 * postgres package's test helper), the host is SIGKILLed while
 * `lookup_order`'s effect runs and restarted on the same database, the card
 * is answered, and the turn must end with the text of an uninterrupted run
 * and each effect once in the ledger.
 */
import assert from "node:assert/strict";
import postgres from "postgres";
import { foldChatState } from "../../mod.ts";
import { databaseUrl } from "../../postgres/tests/_helpers/db.ts";
import { startHost } from "./_host_process.ts";
import { api, expectedText, readWholeTurn, startTurn, until } from "./_client.ts";

const PROMPT = "My kettle arrived broken, please refund it";

Deno.test({
  name:
    "on a real PostgreSQL server (DATABASE_URL): SIGKILL during an effect, restart, the turn ends as an uninterrupted run with each effect once in the ledger",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const serverUrl = await databaseUrl();
    const name = `host_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const host = await startHost({ effectMs: 600, env: { DATABASE_URL: url.href } });
    try {
      const base = host.url;
      const t = await startTurn(base, PROMPT);
      await host.waitForLine(`effect started lookup_order ${t.turnId}`);
      await host.kill("SIGKILL");
      const from = host.stdoutLines.length;
      await host.restart();
      // the dead effect runs again once its lease ends, exactly once
      await host.waitForLine(`effect finished lookup_order ${t.turnId}`, { fromLine: from });
      const card = `${t.turnId}:approve-refund`;
      await until(
        async () =>
          (await api(base, `/api/turns/${t.turnId}`)).body?.state?.openCards?.length === 1,
        "the card",
      );
      const answer = await api(base, `/api/turns/${t.turnId}/cards/${card}/answer`, {
        json: { answer: { action: "submit", value: { confirmed: true } } },
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const envs = await readWholeTurn(base, t.turnId);
      assert.deepEqual(envs.map((e) => e.seq), envs.map((_, i) => i + 1));
      const folded = foldChatState(envs);
      assert.deepEqual(folded.refusals, []);
      assert.equal(folded.state!.status, "completed");
      assert.equal(folded.state!.text, expectedText(PROMPT, true));
      const ledger = (await api(base, "/api/ledger")).body.effects as { key: string }[];
      assert.deepEqual(
        ledger.map((r) => r.key).sort(),
        [`${t.turnId}/issue_refund`, `${t.turnId}/lookup_order`],
      );
      // …and it was the server that held them (not a PGlite directory)
      const db = postgres(url.href, { max: 1, onnotice: () => {} });
      try {
        const rows = await db.unsafe("select key from chat_host_ledger order by key");
        assert.deepEqual(rows.map((r) => r.key), ledger.map((r) => r.key).sort());
      } finally {
        await db.end();
      }
    } finally {
      await host.stop();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  },
});
