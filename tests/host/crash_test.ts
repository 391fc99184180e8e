/**
 * The reference host survives SIGKILL (no browser; the page's crash test is
 * the web engineer's): one turn is killed four times, while its text
 * streams, while `lookup_order`'s effect runs, just after that effect wrote
 * its ledger row, and (after the card was answered) while `issue_refund`'s
 * effect runs; each time the host restarts on the same PGlite directory
 * and port. One v1 SSE reader follows the turn throughout, resuming with
 * `Last-Event-ID`. It must end with the events of an uninterrupted run:
 * seq 1..N once each, the same event types, the same final text; the
 * ledger holds each effect once; the card answered before the crash stays
 * answered. Prints the time from a restart to the next event (text) or to
 * the dead effect running again (its lease, 1 s, must end first).
 */
import assert from "node:assert/strict";
import { type ChatEventEnvelope, foldChatState } from "../../mod.ts";
import { startHost } from "./_host_process.ts";
import { api, expectedText, readEvents, readWholeTurn, startTurn, until } from "./_client.ts";

const PROMPT = "Please refund order for my broken desk lamp";

/** Follows a turn's v1 SSE across crashes, reconnecting with Last-Event-ID. */
class Follower {
  readonly envelopes: ChatEventEnvelope[] = [];
  /** performance.now() of each envelope's arrival. */
  readonly arrivals: number[] = [];
  reconnects = 0;
  #last: string | null = null;
  #done = false;
  readonly finished: Promise<void>;

  constructor(base: string, turnId: string) {
    this.finished = this.#run(base, turnId);
  }

  async #run(base: string, turnId: string): Promise<void> {
    for (let i = 0; i < 5_000 && !this.#done; i++) {
      try {
        const r = await readEvents(base, turnId, {
          lastEventId: this.#last,
          onEnvelope: (e) => {
            this.envelopes.push(e);
            this.arrivals.push(performance.now());
            this.#last = e.eventId;
          },
        });
        if (r.ended) return;
        if (r.status !== 200 && r.status !== 0) {
          throw new Error(`events answered ${r.status}`);
        }
      } catch (e) {
        if (e instanceof Error && e.message.startsWith("events answered")) throw e;
        // the server is down: retry
      }
      this.reconnects++;
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  stop(): void {
    this.#done = true;
  }
}

function shape(envs: readonly ChatEventEnvelope[]): string[] {
  return envs.map((e) => e.event.type === "delta" ? "delta" : `${e.event.type}`);
}

Deno.test({
  name:
    "SIGKILL while text streams, during an effect, after its ledger write, and after the card was answered: the resumed turn equals an uninterrupted run, each effect is in the ledger once",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    // effects run 600 ms, then 600 ms pass between the ledger write and the stored completion
    const host = await startHost({
      deltaMs: 5,
      effectMs: 600,
      args: ["--after-effect-ms", "600"],
    });
    try {
      const base = host.url;
      // The uninterrupted run, for comparison.
      const ref = await startTurn(base, PROMPT, "carol");
      const refCard = `${ref.turnId}:approve-refund`;
      await until(
        async () =>
          (await api(base, `/api/turns/${ref.turnId}`, { user: "carol" })).body?.state?.openCards
            ?.length === 1,
        "the reference card",
      );
      const refAnswer = await api(base, `/api/turns/${ref.turnId}/cards/${refCard}/answer`, {
        user: "carol",
        json: { answer: { action: "submit", value: { confirmed: true } } },
      });
      assert.equal(refAnswer.status, 200);
      const reference = await readWholeTurn(base, ref.turnId, "carol");

      const t = await startTurn(base, PROMPT);
      const card = `${t.turnId}:approve-refund`;
      const follower = new Follower(base, t.turnId);
      const resumeMs: Record<string, number> = {};

      let restartLine = 0;
      /** SIGKILL, restart; the time until `resumed` (default: the next event arrives). */
      const crash = async (label: string, resumed?: string) => {
        await host.kill("SIGKILL");
        restartLine = host.stdoutLines.length;
        // what was already on the wire arrives; then nothing until the restart
        await new Promise((r) => setTimeout(r, 200));
        const before = follower.envelopes.length;
        const spawned = performance.now();
        await host.restart();
        const listening = performance.now();
        let at: number;
        if (resumed === undefined) {
          await until(
            () => follower.envelopes.length > before,
            `an event after restart (${label})`,
          );
          at = follower.arrivals[before];
        } else {
          await host.waitForLine(resumed, { fromLine: restartLine });
          at = performance.now();
        }
        resumeMs[label] = Math.round(at - listening);
        resumeMs[`${label} (from spawn)`] = Math.round(at - spawned);
      };

      // 1. while the opening text streams
      await until(() => follower.envelopes.length >= 30, "30 events");
      await crash("text");
      // 2. while lookup_order's effect runs (no ledger row yet)
      await host.waitForLine(`effect started lookup_order ${t.turnId}`, { fromLine: restartLine });
      await new Promise((r) => setTimeout(r, 100));
      // resumed: the effect, dead with its worker, runs again once its lease ended
      await crash("effect re-run", `effect started lookup_order ${t.turnId}`);
      // 3. after lookup_order's ledger row was written, before its completion is stored
      await host.waitForLine(`effect finished lookup_order ${t.turnId}`, { fromLine: restartLine });
      await host.kill("SIGKILL");
      await host.restart();
      // 4. answer the card, then kill while issue_refund's effect runs
      await until(
        () => follower.envelopes.some((e) => e.event.type === "card"),
        "the card event",
      );
      const from = host.stdoutLines.length;
      const answer = await api(base, `/api/turns/${t.turnId}/cards/${card}/answer`, {
        json: { answer: { action: "submit", value: { confirmed: true } } },
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      await host.waitForLine(`effect started issue_refund ${t.turnId}`, { fromLine: from });
      await new Promise((r) => setTimeout(r, 100));
      await crash("effect after the answer, re-run", `effect started issue_refund ${t.turnId}`);

      await Promise.race([
        follower.finished,
        new Promise((_, rej) => setTimeout(() => rej(new Error("turn did not end")), 60_000)),
      ]);
      follower.stop();

      // the follower got every event once, in order
      const seqs = follower.envelopes.map((e) => e.seq);
      assert.deepEqual(seqs, seqs.map((_, i) => i + 1), "seq 1..N, no duplicate, no gap");
      // the stored log equals what the follower saw
      const whole = await readWholeTurn(base, t.turnId);
      assert.deepEqual(whole.map((e) => e.eventId), follower.envelopes.map((e) => e.eventId));
      // …and an uninterrupted run
      assert.deepEqual(shape(follower.envelopes), shape(reference));
      const folded = foldChatState(follower.envelopes);
      const refFolded = foldChatState(reference);
      assert.deepEqual([folded.refusals, refFolded.refusals], [[], []]);
      assert.equal(folded.state!.text, expectedText(PROMPT, true));
      assert.equal(folded.state!.text, refFolded.state!.text);
      assert.equal(folded.state!.status, "completed");
      assert.deepEqual(
        folded.state!.tools.map((x) => [x.name, x.status]),
        [["lookup_order", "ok"], ["issue_refund", "ok"]],
      );
      // the card was asked once, and stays answered
      assert.equal(follower.envelopes.filter((e) => e.event.type === "card").length, 1);
      assert.deepEqual(
        follower.envelopes.filter((e) => e.event.type === "card_closed").map((e) => e.event),
        [{ type: "card_closed", correlationId: card, resolution: "submitted" }],
      );
      const again = await api(base, `/api/turns/${t.turnId}/cards/${card}/answer`, {
        json: { answer: { action: "submit", value: { confirmed: true } } },
      });
      assert.equal(again.status, 409);
      assert.equal(again.body.error.code, "duplicate");
      // each effect once in the ledger
      const ledger = (await api(base, "/api/ledger")).body.effects as { key: string }[];
      const mine = ledger.filter((r) => r.key.startsWith(`${t.turnId}/`)).map((r) => r.key).sort();
      assert.deepEqual(mine, [`${t.turnId}/issue_refund`, `${t.turnId}/lookup_order`]);
      const state = await api(base, `/api/turns/${t.turnId}`);
      assert.equal(state.body.final, true);
      assert.equal(state.body.state.status, "completed");
      console.log(
        `crash test: ${follower.envelopes.length} events, 4 SIGKILLs, ${follower.reconnects} reconnects, 0 duplicates, 0 gaps; ` +
          `time from the restarted host listening (and from its spawn) to the next event, or to ` +
          `the dead effect running again: ${JSON.stringify(resumeMs)} ms; ` +
          `ledger: ${mine.length} rows for 2 effects`,
      );
    } finally {
      await host.stop();
    }
  },
});
