/**
 * A cancel that lands after a tool effect ran (its ledger row written,
 * `--after-effect-ms` widens the window before its completion is stored)
 * still reports the effect: the cancelled turn's log holds the refund's
 * `tool_result` (ok, with the ledger's output) before `turn_status:
 * cancelled`, so the user sees the refund happened.
 */
import assert from "node:assert/strict";
import { startHost } from "./_host_process.ts";
import { api, startTurn, until } from "./_client.ts";

Deno.test({
  name: "a cancel after an effect ran still reports the effect's result",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const host = await startHost({
      deltaMs: 1,
      effectMs: 20,
      args: ["--delta-chars", "40", "--after-effect-ms", "1500"],
    });
    try {
      const base = host.url;
      const { turnId } = await startTurn(base, "my lamp", "alice");
      await until(
        async () => (await api(base, `/api/turns/${turnId}`)).body?.state?.openCards?.length === 1,
        "the card",
      );
      const from = host.stdoutLines.length;
      const answered = await api(
        base,
        `/api/turns/${turnId}/cards/${turnId}:approve-refund/answer`,
        {
          json: { answer: { action: "submit", value: { confirmed: true } } },
        },
      );
      assert.equal(answered.status, 200, JSON.stringify(answered.body));
      await host.waitForLine(`effect finished issue_refund ${turnId}`, { fromLine: from });
      const cancelled = await api(base, `/api/turns/${turnId}/cancel`, { method: "POST" });
      assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
      await until(async () => (await api(base, `/api/turns/${turnId}`)).body?.final, "final");
      const { state } = (await api(base, `/api/turns/${turnId}`)).body;
      assert.equal(state.status, "cancelled");
      const refund = state.tools.find((t: { name: string }) => t.name === "issue_refund");
      assert.equal(refund?.status, "ok", JSON.stringify(state.tools));
      const ledger = (await api(base, "/api/ledger")).body.effects
        .filter((e: { turnId: string }) => e.turnId === turnId)
        .map((e: { toolName: string }) => e.toolName);
      assert.deepEqual(ledger, ["lookup_order", "issue_refund"]);
    } finally {
      await host.stop();
    }
  },
});
