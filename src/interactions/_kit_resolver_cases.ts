/**
 * Resolver-level interactions conformance cases: `InteractionResolver`
 * workers, one adapter instance each, with the kit holding validation (an
 * async validator at a gate) or a transaction (a store wrapper) while it
 * changes the world underneath.
 *
 * @module
 */
import { deferred, eventually } from "../_internal/kit_support.ts";
import {
  check,
  describeResult,
  Gate,
  KIT_AUTHORITY,
  KIT_SYSTEM,
  type KitCase,
  OTHER,
  overriding,
  refusedWith,
  SCHEMA_1,
  SCHEMA_2,
  submit,
} from "./_kit_env.ts";
import type { InteractionResolver } from "./resolver.ts";
import type { AddCase } from "./_kit_env.ts";
import type { InteractionStore } from "./types.ts";

const open = (w: InteractionResolver, id: string, extra: { timeoutMs?: number } = {}) =>
  w.open({ id, card: { prompt: "a or b?", ...extra }, authority: KIT_AUTHORITY, schema: SCHEMA_1 });

/**
 * Open `id` (with `card` extras), start an answer held at its validation,
 * run `during`, then let the answer through: its result.
 */
async function answerAround(
  env: KitCase,
  id: string,
  card: { timeoutMs?: number },
  during: () => Promise<unknown>,
) {
  const gate = new Gate();
  await env.call(open(await env.resolver(), id, card), "open");
  const pending = (await env.resolver({ gate })).answer({
    id,
    caller: KIT_AUTHORITY,
    response: submit(id, "a"),
  });
  await env.call(gate.entered, "the answer's validation (it never started)");
  await during();
  gate.open();
  return await env.call(pending, "answer");
}

/** Register the resolver-level cases. */
export function resolverCases(add: AddCase): void {
  add(
    "resolver: two workers answer, one wins, the other gets duplicate with the stored submission",
    null,
    async (env, p) => {
      const id = `${p}dup`;
      const w = await env.resolver();
      check((await env.call(open(w, id), "open")).ok, "open");
      const [x, y] = await env.call(
        Promise.all([
          (await env.resolver()).answer({
            id,
            caller: KIT_AUTHORITY,
            response: submit(id, "a"),
            submissionId: "x",
          }),
          (await env.resolver()).answer({
            id,
            caller: KIT_AUTHORITY,
            response: submit(id, "b"),
            submissionId: "y",
          }),
        ]),
        "answer",
      );
      const wins = [x, y].filter((o) => o.ok);
      check(wins.length === 1, `exactly one worker must win, ${wins.length} did`);
      const loser = x.ok ? y : x;
      const winner = x.ok ? x : y;
      check(
        !loser.ok && loser.error.code === "duplicate" && winner.ok &&
          loser.error.submission.submissionId === winner.value.submission.submissionId,
        "the loser gets duplicate carrying the stored (winning) submission",
      );
      check((await env.transitions(id)).length === 1, "one workflow transition");
    },
  );

  add(
    "resolver: authority revoked while validating → unauthorized, nothing stored",
    null,
    async (env, p) => {
      const id = `${p}rev`;
      const out = await answerAround(
        env,
        id,
        {},
        () => env.call(env.h.revoke(KIT_AUTHORITY), "revoke()"),
      );
      refusedWith(out, "unauthorized");
      check((await env.transitions(id)).length === 0, "no transition");
    },
  );

  add("resolver: expires while validating → expired, nothing stored", null, async (env, p) => {
    const id = `${p}exp`;
    const out = await answerAround(env, id, { timeoutMs: 500 }, () => env.advance(500));
    refusedWith(out, "expired");
    const view = await env.call((await env.resolver()).read(id, KIT_AUTHORITY), "read");
    check(
      view.ok && view.value.status === "expired" && view.value.record.revision === 1,
      "reads expired",
    );
    check((await env.transitions(id)).length === 0, "no transition");
  });

  add(
    "resolver: schema or metadata changed while validating → schema-changed / stale-revision",
    null,
    async (env, p) => {
      for (const change of ["schema", "metadata"] as const) {
        const id = `${p}chg-${change}`;
        const w = await env.resolver();
        const out = await answerAround(env, id, {}, async () => {
          const changed = change === "schema"
            ? await env.call(w.changeSchema(id, KIT_AUTHORITY, SCHEMA_2), "changeSchema")
            : await env.call(
              w.updateMetadata(id, KIT_AUTHORITY, { note: "edited" }),
              "updateMetadata",
            );
          check(
            changed.ok && changed.value.record.revision === 2,
            `${change} change advances the revision`,
          );
        });
        const want = change === "schema" ? "schema-changed" : "stale-revision";
        refusedWith(out, want);
        const view = await env.call(w.read(id, KIT_AUTHORITY), "read");
        check(view.ok && view.value.status === "pending", "still pending");
      }
    },
  );

  add("resolver: submitted fields never grant authority", null, async (env, p) => {
    const id = `${p}auth`;
    const w = await env.resolver();
    await env.call(open(w, id), "open");
    const intruder = await env.call(
      w.answer({ id, caller: OTHER, response: submit(id, "a") }),
      "answer",
    );
    check(
      !intruder.ok && intruder.error.code === "unauthorized",
      "another principal → unauthorized",
    );
    const crossTenant = await env.call(
      w.answer({
        id,
        caller: { ...KIT_AUTHORITY, tenantId: "tenant-other" },
        response: submit(id, "a"),
      }),
      "answer",
    );
    check(
      !crossTenant.ok && crossTenant.error.code === "unauthorized",
      "another tenant → unauthorized",
    );
    const named = await env.call(
      w.answer({
        id,
        caller: KIT_AUTHORITY,
        response: submit(id, "a", {
          principalId: "user-other",
          tenantId: "tenant-other",
          authority: OTHER,
        }),
      }),
      "answer",
    );
    check(named.ok, "the bound caller may answer");
    const view = await env.call(w.read(id, KIT_AUTHORITY), "read");
    check(
      view.ok && view.value.record.authority.principalId === KIT_AUTHORITY.principalId &&
        view.value.record.authority.tenantId === KIT_AUTHORITY.tenantId &&
        view.value.record.submission?.principalId === KIT_AUTHORITY.principalId,
      "the bound authority and the submitting principal are unchanged",
    );
    const otherRead = await env.call(w.read(id, OTHER), "read");
    check(
      !otherRead.ok && otherRead.error.code === "unauthorized",
      "the other principal still cannot read",
    );
  });

  add(
    "resolver: after the user's revocation the host's system authority cancels and expires",
    null,
    async (env, p) => {
      const w = await env.resolver();
      const [c, e] = [`${p}sys-cancel`, `${p}sys-expire`];
      await env.call(open(w, c), "open");
      await env.call(open(w, e), "open");
      await env.call(env.h.revoke(KIT_AUTHORITY), "revoke()");
      const user = await env.call(w.cancel(c, KIT_AUTHORITY), "cancel");
      check(!user.ok && user.error.code === "unauthorized", "a revoked user cannot cancel");
      const early = await env.call(w.cancel(c, KIT_SYSTEM), "cancel");
      check(
        !early.ok && early.error.code === "unauthorized",
        "a system caller without a grant cannot cancel",
      );
      await env.call(env.h.grantSystem(KIT_SYSTEM), "grantSystem()");
      const cancelled = await env.call(
        w.cancel(c, KIT_SYSTEM, { reason: "account closed" }),
        "cancel",
      );
      check(
        cancelled.ok && cancelled.value.record.status === "cancelled" &&
          cancelled.value.submission.actorId === KIT_SYSTEM.actorId,
        `the system caller must cancel, got ${describeResult(cancelled)}`,
      );
      const expired = await env.call(w.expire(e, KIT_SYSTEM, { reason: "deadline" }), "expire");
      check(
        expired.ok && expired.value.record.status === "expired" &&
          expired.value.transition?.kind === "expired",
        `the system caller must expire, got ${describeResult(expired)}`,
      );
      for (const id of [c, e]) {
        check(
          (await env.transitions(id)).length === 1,
          "one transition each",
        );
      }
    },
  );

  add(
    "resolver: MCP elicitation accept / decline / cancel resolve through the same path",
    null,
    async (env, p) => {
      const w = await env.resolver();
      for (
        const [suffix, result, status] of [
          ["acc", { action: "accept", content: { choice: "b" } }, "submitted"],
          ["dec", { action: "decline" }, "declined"],
          ["can", { action: "cancel" }, "cancelled"],
        ] as const
      ) {
        const id = `${p}e-${suffix}`;
        await env.call(open(w, id), "open");
        const out = await env.call(
          w.resolveElicitation({ id, caller: KIT_AUTHORITY, result }),
          "resolveElicitation",
        );
        check(out.ok && out.value.record.status === status, `${result.action} → ${status}`);
        check((await env.transitions(id)).length === 1, `${result.action} stores one transition`);
      }
      const bad = `${p}e-bad`;
      await env.call(open(w, bad), "open");
      const refused = await env.call(
        w.resolveElicitation({
          id: bad,
          caller: KIT_AUTHORITY,
          result: { action: "accept", content: { choice: "zzz" } },
        }),
        "resolveElicitation",
      );
      check(
        !refused.ok && refused.error.code === "invalid-answer" && refused.error.issues.length > 0,
        "invalid content",
      );
    },
  );

  add("resolver: read recovers state without advancing", null, async (env, p) => {
    const id = `${p}read`;
    const w = await env.resolver();
    await env.call(open(w, id), "open");
    for (let i = 0; i < 3; i++) {
      const v = await env.call(w.read(id, KIT_AUTHORITY), "read");
      check(
        v.ok && v.value.status === "pending" && v.value.record.revision === 1,
        "pending, rev 1",
      );
      check(v.ok && v.value.openCard?.correlationId === id, "open card snapshot");
    }
    await env.call(w.answer({ id, caller: KIT_AUTHORITY, response: submit(id, "a") }), "answer");
    for (let i = 0; i < 3; i++) {
      const v = await env.call(w.read(id, KIT_AUTHORITY), "read");
      check(
        v.ok && v.value.status === "submitted" && v.value.record.revision === 2,
        "terminal, rev 2",
      );
      check(v.ok && v.value.openCard === null, "no open card once answered");
    }
    check((await env.transitions(id)).length === 1, "reads add no transitions");
  });

  add(
    "resolver: lost acknowledgement → exactly one read → the stored submission or needs-reconciliation",
    "lost-acks",
    async (env, p) => {
      const lose = env.need(env.h.loseNextAck, "loseNextAck()", "lost-acks");
      const calls: string[] = [];
      const base = await env.store();
      const spy: InteractionStore = {
        create: (r) => base.create(r),
        read: (id, c) => (calls.push("read"), base.read(id, c)),
        transact: (q, f) => (calls.push("transact"), base.transact(q, f)),
      };
      const w = await env.resolver({ store: spy });
      // The winner's ack is lost: recovered from the one read, never re-written.
      const id = `${p}ack`;
      await env.call(open(w, id), "open");
      await env.call(lose.call(env.h), "loseNextAck()");
      const won = await env.call(
        w.answer({
          id,
          caller: KIT_AUTHORITY,
          response: submit(id, "a"),
          submissionId: "lost-winner",
        }),
        "answer",
      );
      check(
        calls.join(",") === "read,transact,read",
        `expected read,transact,read; got ${calls.join(",")}`,
      );
      check(
        won.ok && won.value.outcome === "recovered",
        `expected recovered, got ${describeResult(won)}`,
      );
      check(
        won.ok && won.value.submission.submissionId === "lost-winner",
        "recovered the stored submission",
      );
      check((await env.transitions(id)).length === 1, "exactly one transition");
      // A loser that passed validation before the winner committed, whose
      // (refused) transact loses its ack: needs-reconciliation, record unchanged.
      const id2 = `${p}ack2`;
      await env.call(open(w, id2), "open");
      const gate = new Gate();
      const slow = await env.resolver({ store: spy, gate });
      const pending = slow.answer({
        id: id2,
        caller: KIT_AUTHORITY,
        response: submit(id2, "b"),
        submissionId: "loser",
      });
      await env.call(gate.entered, "the answer's validation (it never started)");
      const first = await env.call(
        w.answer({
          id: id2,
          caller: KIT_AUTHORITY,
          response: submit(id2, "a"),
          submissionId: "winner",
        }),
        "answer",
      );
      check(first.ok, "the first answer commits");
      await env.call(lose.call(env.h), "loseNextAck()");
      calls.length = 0;
      gate.open();
      const lost = await env.call(pending, "answer");
      check(
        calls.join(",") === "transact,read",
        `expected transact,read after validation; got ${calls.join(",")}`,
      );
      refusedWith(lost, "needs-reconciliation");
      const view = await env.call(w.read(id2, KIT_AUTHORITY), "read");
      check(
        view.ok && view.value.record.submission?.submissionId === "winner" &&
          view.value.record.revision === 2,
        "the loser never advanced the record",
      );
    },
  );

  add(
    "resolver: a lost acknowledgement is recovered only for the whole submission (a decline racing a submit with the same id is not)",
    "lost-acks",
    async (env, p) => {
      const lose = env.need(env.h.loseNextAck, "loseNextAck()", "lost-acks");
      const id = `${p}same-id`;
      const base = await env.store();
      const admitted = deferred();
      let reached = false;
      const held = overriding(base, {
        transact: async (q, f) => {
          reached = true;
          await admitted.promise;
          return base.transact(q, f);
        },
      });
      const w = await env.resolver();
      await env.call(open(w, id), "open");
      const decline = (await env.resolver({ store: held })).answer({
        id,
        caller: KIT_AUTHORITY,
        response: { action: "decline", correlationId: id },
        submissionId: "same",
      });
      check(
        await eventually(() => reached, env.settings.timeoutMs),
        "the decline never reached the store",
      );
      const won = await env.call(
        w.answer({ id, caller: KIT_AUTHORITY, response: submit(id, "a"), submissionId: "same" }),
        "answer",
      );
      check(won.ok && won.value.outcome === "committed", "the submit commits");
      await env.call(lose.call(env.h), "loseNextAck()");
      admitted.resolve();
      const out = await env.call(decline, "answer");
      check(
        !out.ok && out.error.code === "needs-reconciliation",
        `a refused decline whose ack was lost must not be reported recovered because a submit with ` +
          `the same submission id is stored (got ${
            describeResult(out)
          }): match the whole submission`,
      );
    },
  );

  add(
    "resolver: a flaky driver (lost acks, serialization failures) is judged: one winner, one transition, no false win",
    null,
    async (env, p) => {
      const id = `${p}flaky`;
      await env.call(open(await env.resolver(), id), "open");
      const workers = await Promise.all(
        Array.from(
          { length: env.settings.n },
          async () =>
            env.resolver({ store: await env.store({ serialization: 0.15, lostAck: 0.2 }) }),
        ),
      );
      const outs = await env.call(
        Promise.all(workers.map((w, i) =>
          w.answer({
            id,
            caller: KIT_AUTHORITY,
            response: submit(id, i % 2 ? "a" : "b"),
            submissionId: `f${i}`,
          })
        )),
        "flaky answers",
      );
      for (const o of outs) {
        check(typeof o?.ok === "boolean", "every answer must be a typed result");
      }
      const ts = await env.transitions(id);
      check(ts.length <= 1, `${ts.length} transitions for one card behind a flaky driver`);
      const view = await env.call((await env.resolver()).read(id, KIT_AUTHORITY), "read");
      const stored = view.ok ? view.value.record.submission?.submissionId : undefined;
      for (const o of outs) {
        if (o.ok) {
          check(
            o.value.submission.submissionId === stored,
            "a reported win must be the stored submission",
          );
        }
      }
      check(stored === undefined || ts.length === 1, "a stored answer has exactly one transition");
    },
  );
}
