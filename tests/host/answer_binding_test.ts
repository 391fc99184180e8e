/**
 * Card answers are checked as a whole before any is resolved: an AI SDK
 * approval or an AG-UI resume that is refused (the card is not of this
 * chat / thread, answers for several turns or several answers in one
 * request) stores nothing. After each refusal the card is still open (the
 * owner's own answer through the v1 endpoint is then accepted, not a
 * `duplicate`) and the ledger is unchanged.
 */
import assert from "node:assert/strict";
import { startHost } from "./_host_process.ts";
import { api, startTurn, until } from "./_client.ts";

Deno.test({
  name: "a refused approval or resume stores nothing (binding checked before resolving)",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const host = await startHost({ deltaMs: 1, effectMs: 20, args: ["--delta-chars", "40"] });
    try {
      const base = host.url;
      const atCard = async () => {
        const t = await startTurn(base, "my lamp", "alice");
        await until(
          async () =>
            (await api(base, `/api/turns/${t.turnId}`)).body?.state?.openCards?.length === 1,
          "the card",
        );
        return t.turnId;
      };
      const ledger = async () => (await api(base, "/api/ledger")).body.effects.length;
      const part = (turnId: string) => ({
        type: "tool-issue_refund",
        toolCallId: `${turnId}:issue_refund`,
        state: "approval-responded",
        input: {},
        approval: { id: `${turnId}:approve-refund`, approved: true },
      });
      const chat = (chatId: string, parts: unknown[]) =>
        api(base, "/api/chat", {
          json: {
            id: chatId,
            messages: [
              { id: "u1", role: "user", parts: [{ type: "text", text: "hi" }] },
              { id: "a1", role: "assistant", parts },
            ],
          },
        });
      const resume = (threadId: string, turnId: string) =>
        api(base, "/api/ag-ui", {
          json: {
            threadId,
            runId: "r1",
            messages: [],
            tools: [],
            context: [],
            state: {},
            forwardedProps: {},
            resume: [{
              interruptId: `${turnId}:approve-refund`,
              status: "resolved",
              payload: { approved: true },
            }],
          },
        });
      /** The card is still open: the owner's own answer is accepted (200, not 409 duplicate). */
      const stillOpen = async (turnId: string) => {
        const s = (await api(base, `/api/turns/${turnId}`)).body.state;
        assert.deepEqual(s.openCards.map((c: { correlationId: string }) => c.correlationId), [
          `${turnId}:approve-refund`,
        ]);
        const r = await api(base, `/api/turns/${turnId}/cards/${turnId}:approve-refund/answer`, {
          json: { answer: { action: "submit", value: { confirmed: true } } },
        });
        assert.equal(r.status, 200, `${turnId}: ${JSON.stringify(r.body)}`);
      };
      const refused = (
        r: { status: number; body: { error?: { code?: string } } },
        status: number,
        code: string,
      ) => {
        assert.equal(r.status, status, JSON.stringify(r.body));
        assert.equal(r.body.error?.code, code);
      };

      // 1. the AI SDK endpoint, a v1 turn's card through another chat id
      const a = await atCard();
      let before = await ledger();
      refused(await chat("some-other-chat", [part(a)]), 403, "unauthorized");
      assert.equal(await ledger(), before);
      await stillOpen(a);

      // 2. two turns' cards in one message; the same card twice
      const t1 = await atCard();
      const t2 = await atCard();
      before = await ledger();
      refused(await chat("zz", [part(t1), part(t2)]), 400, "invalid-request");
      refused(await chat("zz", [part(t1), part(t1)]), 400, "invalid-request");
      assert.equal(await ledger(), before);
      await stillOpen(t1);
      await stillOpen(t2);

      // 3. an AG-UI resume for a v1 turn's card, on a foreign thread
      const t3 = await atCard();
      before = await ledger();
      refused(await resume("th-x", t3), 403, "unauthorized");
      assert.equal(await ledger(), before);
      await stillOpen(t3);
    } finally {
      await host.stop();
    }
  },
});
