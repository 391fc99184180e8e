/**
 * Many readers on one live turn over real HTTP: 200 concurrent v1 SSE
 * clients (`fetch` + `eventsource-parser`), each disconnecting at 5 random
 * points and resuming with `Last-Event-ID` (1,000 reconnects in all) while
 * the turn streams (about 12 s, so connections join it live as well as
 * replay it). Every client must end with exactly the turn's events:
 * seq 1..N once each (0 duplicates, 0 gaps), the same envelopes as the log.
 */
import assert from "node:assert/strict";
import type { ChatEventEnvelope } from "../../mod.ts";
import { startHost } from "./_host_process.ts";
import { rng } from "../agents/_generate.ts";
import { seedFor } from "../_helpers/seed.ts";
import { handled } from "../_helpers/settled.ts";
import { api, readEvents, readWholeTurn, startTurn, until } from "./_client.ts";
import { closingText, deltas, middleText, openingText } from "../../examples/chat_host/script.ts";

const CLIENTS = 200;
const CUTS = 5;

Deno.test({
  name:
    "200 SSE clients on one live turn, 1,000 reconnects with Last-Event-ID: every client gets every event once",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    // a turn of ~12 s, so the readers join it live as well as replay it
    const host = await startHost({ deltaMs: 90, effectMs: 300 });
    try {
      const base = host.url;
      const prompt = "Refund my lamp, it flickers";
      // the turn's length, from the script: deltas, 2 × (tool_call + tool_result), card, card_closed, done
      const total = deltas(openingText(prompt)).length + deltas(middleText(prompt)).length +
        deltas(closingText(prompt, true)).length + 7;
      const seed = seedFor("many readers: cut points");
      const rnd = rng(seed);
      const t = await startTurn(base, prompt, "frank");
      // answer the card as soon as it is open; awaited after the readers, so
      // a handler is attached now (a rejection meanwhile would be uncaught)
      const answered = handled(until(
        async () => {
          const r = await api(
            base,
            `/api/turns/${t.turnId}/cards/${t.turnId}:approve-refund/answer`,
            {
              user: "frank",
              json: { answer: { action: "submit", value: { confirmed: true } } },
            },
          );
          return r.status === 200;
        },
        "the card",
        60_000,
        100,
      ));

      let reconnects = 0;
      let connections = 0;
      const started = performance.now();
      const client = async (): Promise<ChatEventEnvelope[]> => {
        const cuts = new Set<number>();
        while (cuts.size < CUTS) cuts.add(1 + Math.floor(rnd() * (total - 1)));
        const plan = [...cuts].sort((a, b) => a - b);
        const got: ChatEventEnvelope[] = [];
        let last: string | null = null;
        for (let i = 0; i <= plan.length; i++) {
          const want = i < plan.length ? plan[i] - got.length : Infinity;
          connections++;
          if (i > 0) reconnects++;
          const r = await readEvents(base, t.turnId, {
            user: "frank",
            lastEventId: last,
            maxEvents: want,
          });
          assert.equal(r.status, 200);
          got.push(...r.envelopes);
          last = r.lastEventId;
          if (i === plan.length) assert.ok(r.ended, "the last connection ends with the turn");
        }
        return got;
      };
      const results = await Promise.all(Array.from({ length: CLIENTS }, client));
      const ms = Math.round(performance.now() - started);
      await answered;

      const log = await readWholeTurn(base, t.turnId, "frank");
      assert.equal(log.length, total);
      const ids = log.map((e) => e.eventId);
      let duplicates = 0;
      let gaps = 0;
      for (const got of results) {
        const seqs = got.map((e) => e.seq);
        duplicates += seqs.length - new Set(seqs).size;
        for (let s = 1; s <= total; s++) if (!seqs.includes(s)) gaps++;
        assert.deepEqual(got.map((e) => e.eventId), ids);
        assert.deepEqual(got, log);
      }
      console.log(
        `many readers: ${CLIENTS} clients, ${total} events each, ${connections} connections, ` +
          `${reconnects} reconnects with Last-Event-ID, ${duplicates} duplicates, ${gaps} gaps, ` +
          `${ms} ms (seed ${seed})`,
      );
      assert.equal(reconnects, CLIENTS * CUTS);
      assert.equal(duplicates, 0);
      assert.equal(gaps, 0);
    } finally {
      await host.stop();
    }
  },
});
