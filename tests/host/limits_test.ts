/**
 * The host's bounds on what one user can make it hold: open (unfinished)
 * turns per user are capped (`--max-open-turns`), one more is a 429
 * `too-many-turns` on every endpoint that starts a turn, other users are
 * unaffected, and a finished (here: cancelled) turn frees its place.
 */
import assert from "node:assert/strict";
import { startHost } from "./_host_process.ts";
import { api, startTurn, until } from "./_client.ts";

Deno.test({
  name: "open turns per user are capped: 429 too-many-turns, until one ends",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const host = await startHost({
      deltaMs: 1,
      effectMs: 20,
      args: ["--delta-chars", "40", "--max-open-turns", "2"],
    });
    try {
      const base = host.url;
      const first = await startTurn(base, "one", "alice");
      await startTurn(base, "two", "alice");
      const refused = [
        await api(base, "/api/turns", { user: "alice", json: { prompt: "three" } }),
        await api(base, "/api/chat", {
          user: "alice",
          json: {
            id: "chat-3",
            messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "three" }] }],
          },
        }),
        await api(base, "/api/ag-ui", {
          user: "alice",
          json: {
            threadId: "thread-3",
            runId: "r1",
            messages: [{ id: "u1", role: "user", content: "three" }],
            tools: [],
            context: [],
            state: {},
            forwardedProps: {},
          },
        }),
      ];
      for (const r of refused) {
        assert.equal(r.status, 429, JSON.stringify(r.body));
        assert.equal(r.body.error.code, "too-many-turns");
      }
      // another user is not affected
      await startTurn(base, "bob's", "bob");
      // a cancelled turn frees its place
      const c = await api(base, `/api/turns/${first.turnId}/cancel`, { method: "POST" });
      assert.equal(c.status, 200, JSON.stringify(c.body));
      await until(async () => (await api(base, `/api/turns/${first.turnId}`)).body?.final, "final");
      await until(
        async () =>
          (await api(base, "/api/turns", { user: "alice", json: { prompt: "three" } })).status ===
            201,
        "a place freed",
      );
    } finally {
      await host.stop();
    }
  },
});

Deno.test({
  name: "GET /api/ledger shows only the caller's own turns' effects",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const host = await startHost({ deltaMs: 1, effectMs: 20, args: ["--delta-chars", "40"] });
    try {
      const base = host.url;
      const a = await startTurn(base, "alice's", "alice");
      const b = await startTurn(base, "bob's", "bob");
      const ledger = async (user: string) =>
        ((await api(base, "/api/ledger", { user })).body.effects as { turnId: string }[])
          .map((e) => e.turnId);
      // both lookups ran (each before its turn's card)
      await until(async () => (await ledger("alice")).length >= 1, "alice's lookup");
      await until(async () => (await ledger("bob")).length >= 1, "bob's lookup");
      assert.deepEqual(await ledger("alice"), [a.turnId]);
      assert.deepEqual(await ledger("bob"), [b.turnId]);
      assert.deepEqual(await ledger("mallory"), []);
    } finally {
      await host.stop();
    }
  },
});
