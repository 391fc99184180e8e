/**
 * End-to-end conformance cases: `TurnRecovery` workers, one adapter
 * instance each, on the kit's clock, with the kit deciding when a seam call
 * proceeds (an admission held, an acknowledgement that never arrives, a
 * dispatch that stalls past its lease).
 *
 * @module
 */
import { deferred, eventually, eventuallyAsync } from "../_internal/kit_support.ts";
import { CancelRelay } from "./cancel_relay.ts";
import {
  expect,
  InjectedDispatchError,
  KIT_LEASE_MS,
  type KitCase,
  type KitWorker,
  overriding,
  P,
  SYSTEM,
} from "./_kit_env.ts";
import { MemoryExecutions } from "./memory_executions.ts";
import type { EffectRun, TurnRecovery } from "./turn_recovery.ts";
import type { AddCase } from "./_kit_env.ts";
import type { RecoveryError } from "./types.ts";
import type { Result } from "../result.ts";

type Run = Result<EffectRun, RecoveryError>;

/** Grant P and begin `turnId` through `r`. */
async function beginWith(
  env: KitCase,
  r: TurnRecovery,
  turnId: string,
  effectIds = ["e1"],
): Promise<void> {
  await env.call(env.host.grant(P, turnId), "grant()");
  const b = await env.call(
    r.beginTurn({ conversationId: `conv-${turnId}`, turnId, principal: P, effectIds }),
    "beginTurn",
  );
  expect(
    b.ok,
    `beginTurn must succeed, got ${b.ok ? "ok" : b.error.code}: ${b.ok ? "" : b.error.message}`,
  );
}

function runOf(
  r: TurnRecovery,
  turnId: string,
  effectId: string,
  dispatch: (s: AbortSignal) => unknown,
) {
  return r.runEffect({ turnId, effectId, principal: P, dispatch });
}

function describeRun(r: Run): string {
  if (!r.ok) return `${r.error.code} (${r.error.message})`;
  return r.value.status === "completed" ? "completed" : `${r.value.action} ${r.value.reason}`;
}

/** A worker whose admissions commit but whose acknowledgement never arrives (it died before dispatching). */
function dyingAfterCommit(w: KitWorker): { worker: KitWorker; committed: () => boolean } {
  let committed = false;
  return {
    committed: () => committed,
    worker: {
      ...w,
      store: overriding(w.store, {
        admitDispatch: (req) => {
          void w.store.admitDispatch!(req).then(() => (committed = true), () => {});
          return new Promise(() => {});
        },
      }),
    },
  };
}

/** Register the end-to-end cases. */
export function workerCases(add: AddCase): void {
  add(
    "workers: lease renewal: a dispatch that outlives its lease keeps it by renewal (others wait, nothing is taken for lost)",
    null,
    async (env, t) => {
      const [w, other] = await env.workers(2);
      // Renewal every 5 ms of real time; the lease is judged on the kit's clock.
      // The kit sees the owner's renewals and their answers: a refused one ends the wait.
      let refusedRenewal = false;
      const watchedStore = overriding(w.store, {
        casEffect: async (tt, e, x, n) => {
          const r = await w.store.casEffect(tt, e, x, n);
          if (n.state === "admitted" && r?.ok === false) refusedRenewal = true;
          return r;
        },
      });
      const owner = env.recovery({ ...w, store: watchedStore }, { renewEveryMs: 5 });
      await beginWith(env, owner, t);
      const probe = (await env.probe()).store;
      const leaseOf = async () =>
        (await env.call(probe.readEffect(t, "e1"), "readEffect"))?.leaseUntil;
      const started = deferred();
      const finish = deferred<string>();
      let dispatches = 0;
      const run = runOf(owner, t, "e1", () => {
        dispatches++;
        started.resolve();
        return finish.promise;
      });
      await env.call(started.promise, "dispatch start");
      const first = await leaseOf();
      expect(typeof first === "number", "the admitted record must carry leaseUntil");
      // The dispatch now outlives its first lease on the kit's clock.
      env.clock.advance(KIT_LEASE_MS + 1);
      const isRenewed = async () => {
        const until = await leaseOf();
        return typeof until === "number" && until > env.clock.t;
      };
      // Observed, not timed: poll the store (each poll a read) until the renewal committed.
      await eventuallyAsync(
        async () => refusedRenewal || await isRenewed(),
        env.settings.timeoutMs,
      );
      const renewed = !refusedRenewal && await isRenewed();
      const seen = await env.call(
        runOf(env.recovery(other), t, "e1", () => ++dispatches),
        "runEffect",
      );
      finish.resolve("done");
      const done = await env.call(run, "runEffect (owner)");
      expect(
        renewed,
        "the owner's lease renewal (casEffect admitted → admitted with a later leaseUntil at its " +
          "revision) never landed while its dispatch ran: a dispatch longer than the lease is " +
          "then taken for lost",
      );
      expect(
        seen.ok && seen.value.status === "needs-reconciliation" &&
          seen.value.reason === "in-flight",
        `another worker must see the renewed effect in flight, got ${describeRun(seen)}`,
      );
      expect(
        dispatches === 1 && done.ok && done.value.status === "completed",
        `the owner must complete its one dispatch, got ${
          describeRun(done)
        } with ${dispatches} dispatches`,
      );
    },
  );

  add(
    "workers: exactly once: concurrent workers (one adapter instance each) dispatch an effect once, without contention",
    null,
    async (env, t) => {
      const ws = await env.workers(env.settings.n);
      const recs = ws.map((w) => env.recovery(w));
      await beginWith(env, recs[0], t);
      let dispatches = 0;
      // The dispatch stays open until every other worker answered (a barrier the kit
      // controls, not a sleep): they all race a dispatch in flight. A second dispatch
      // opens the barrier too, so a broken store fails by count instead of hanging.
      let answered = 0;
      const othersAnswered = deferred();
      const note = () => {
        if (answered >= recs.length - 1 || dispatches > 1) othersAnswered.resolve();
      };
      const runs = await env.call(
        Promise.all(recs.map((r) => {
          const run = runOf(r, t, "e1", async () => {
            dispatches++;
            note();
            await othersAnswered.promise;
            return "done";
          });
          run.then(() => void (answered++, note()), () => void (answered++, note()));
          return run;
        })),
        "concurrent runEffect",
      );
      expect(dispatches === 1, `expected 1 dispatch, got ${dispatches}`);
      const bad = runs.filter((r) => !r.ok);
      expect(
        bad.length === 0,
        `every worker must get an answer, not a refusal: ${bad.map(describeRun).join(", ")} ` +
          "(claims are taken over only after their lease, so losers wait instead of contending)",
      );
      const after = await env.call(
        runOf(env.recovery(ws[0]), t, "e1", () => ++dispatches),
        "runEffect",
      );
      expect(
        after.ok && after.value.status === "completed" && after.value.reused,
        "the stored result must be reused",
      );
      const stored = await env.call((await env.probe()).store.readEffect(t, "e1"), "readEffect");
      expect(
        stored?.revision === 3 && stored.claims === 1,
        `one run must cost 3 revisions (claim, admission, completion), got ${stored?.revision} ` +
          `with ${stored?.claims} claims: revisions must stay bounded under contention`,
      );
    },
  );

  add("workers: a live claim is never taken over; an ended one is, once", null, async (env, t) => {
    const [w1, w2] = await env.workers(2);
    const gate = deferred();
    let reached = false;
    const slow = env.recovery({
      ...w1,
      store: overriding(w1.store, {
        admitDispatch: async (req) => {
          reached = true;
          await gate.promise;
          return w1.store.admitDispatch!(req);
        },
      }),
    });
    const r2 = env.recovery(w2);
    await beginWith(env, r2, t);
    let dispatches = 0;
    const dispatch = () => ++dispatches;
    const first = runOf(slow, t, "e1", dispatch);
    expect(
      await eventually(() => reached, env.settings.timeoutMs),
      "the first worker never reached admission",
    );
    const waiting = await env.call(runOf(r2, t, "e1", dispatch), "runEffect");
    expect(
      waiting.ok && waiting.value.status === "needs-reconciliation" &&
        waiting.value.action === "wait" &&
        waiting.value.reason === "claimed-elsewhere" && waiting.value.retryAt > env.clock.t,
      `a live claim must be waited out (claimed-elsewhere), got ${describeRun(waiting)}`,
    );
    env.clock.advance(KIT_LEASE_MS);
    const taken = await env.call(runOf(r2, t, "e1", dispatch), "runEffect");
    expect(
      taken.ok && taken.value.status === "completed" && !taken.value.reused,
      `an ended claim must be taken over, got ${describeRun(taken)}`,
    );
    gate.resolve();
    const late = await env.call(first, "runEffect");
    expect(
      late.ok && late.value.status === "completed" && late.value.reused && dispatches === 1,
      `the superseded worker must be refused at the fence and reuse the result (dispatches ${dispatches}, got ${
        describeRun(late)
      })`,
    );
    const stored = await env.call((await env.probe()).store.readEffect(t, "e1"), "readEffect");
    expect(
      stored?.revision === 4 && stored.claims === 2,
      `expected revision 4 after 2 claims, got ${stored?.revision}`,
    );
  });

  add(
    "workers: reconcile waits for the owner's lease, and the owner's real result is never reported as reused",
    null,
    async (env, t) => {
      const [w1, w2] = await env.workers(2);
      const owner = env.recovery(w1);
      const host = env.recovery(w2);
      await beginWith(env, host, t, ["e1", "e2"]);
      for (const effectId of ["e1", "e2"]) {
        const work = deferred<string>();
        let started = false;
        const running = runOf(owner, t, effectId, () => {
          started = true;
          return work.promise;
        });
        expect(
          await eventually(() => started, env.settings.timeoutMs),
          "the owner never dispatched",
        );
        const guess = {
          turnId: t,
          effectId,
          principal: P,
          outcome: { ok: true as const, value: "guess" },
        };
        if (effectId === "e1") {
          const early = await env.call(host.reconcile(guess), "reconcile");
          expect(
            !early.ok && early.error.code === "lease-live" &&
              (early.error.retryAt ?? 0) > env.clock.t,
            `reconciling while the owner's lease is live must be refused lease-live, got ${
              early.ok ? "ok" : early.error.code
            }`,
          );
          work.resolve("real");
          const done = await env.call(running, "runEffect");
          expect(
            done.ok && done.value.status === "completed" && !done.value.reused,
            "the owner's result must be stored",
          );
        } else {
          env.clock.advance(KIT_LEASE_MS); // the owner stalls past its lease
          const rec = await env.call(host.reconcile(guess), "reconcile");
          expect(rec.ok && rec.value.changed, "after the lease the host may reconcile");
          work.resolve("real");
          const done = await env.call(running, "runEffect");
          expect(
            !done.ok && done.error.code === "checkpoint-write-failed" &&
              (done.error.stored as { value?: unknown } | undefined)?.value === "guess" &&
              (done.error.outcome as { value?: unknown } | undefined)?.value === "real",
            `an owner whose effect was reconciled must report checkpoint-write-failed with both outcomes, got ${
              describeRun(done)
            }`,
          );
        }
      }
      const probe = (await env.probe()).store;
      const e1 = await env.call(probe.readEffect(t, "e1"), "readEffect");
      expect(
        (e1?.outcome as { value?: unknown } | undefined)?.value === "real",
        "the real result must be stored",
      );
    },
  );

  add(
    "workers: admitted but never launched: owner-lost after the lease, recordNotRun makes it claimable, it runs once",
    null,
    async (env, t) => {
      const [w1, w2] = await env.workers(2);
      const dying = dyingAfterCommit(w1);
      const dead = env.recovery(dying.worker);
      const host = env.recovery(w2);
      await beginWith(env, host, t);
      let dispatches = 0;
      void runOf(dead, t, "e1", () => ++dispatches);
      expect(
        await eventually(dying.committed, env.settings.timeoutMs),
        "the admission never committed",
      );
      const req = {
        turnId: t,
        effectId: "e1",
        principal: P,
        evidence: "no such call in the provider's log",
      };
      const live = await env.call(runOf(host, t, "e1", () => ++dispatches), "runEffect");
      expect(
        live.ok && live.value.status === "needs-reconciliation" &&
          live.value.reason === "in-flight" && live.value.action === "wait",
        `an admitted effect under a live lease is in flight, got ${describeRun(live)}`,
      );
      const early = await env.call(host.recordNotRun(req), "recordNotRun");
      expect(
        !early.ok && early.error.code === "lease-live",
        "recordNotRun must be refused while the owner's lease is live",
      );
      env.clock.advance(KIT_LEASE_MS);
      const lost = await env.call(runOf(host, t, "e1", () => ++dispatches), "runEffect");
      expect(
        lost.ok && lost.value.status === "needs-reconciliation" &&
          lost.value.reason === "owner-lost" && lost.value.action === "reconcile",
        `after the lease it must be owner-lost (reconcile), got ${describeRun(lost)}`,
      );
      const nr = await env.call(host.recordNotRun(req), "recordNotRun");
      expect(
        nr.ok && nr.value.record.state === "not-run",
        `recordNotRun must store not-run, got ${nr.ok ? nr.value.record.state : nr.error.code}`,
      );
      const ran = await env.call(runOf(host, t, "e1", () => ++dispatches), "runEffect");
      expect(
        ran.ok && ran.value.status === "completed" && dispatches === 1,
        `it must then run exactly once (dispatches ${dispatches})`,
      );
    },
  );

  add(
    "workers: resume is refused while an owner's lease is live; afterwards in-flight effects need reconciliation",
    null,
    async (env, t) => {
      const [w1, w2] = await env.workers(2);
      const dying = dyingAfterCommit(w1);
      const host = env.recovery(w2);
      await beginWith(env, host, t, ["e1", "e2"]);
      let dispatches = 0;
      void runOf(env.recovery(dying.worker), t, "e1", () => ++dispatches);
      expect(
        await eventually(dying.committed, env.settings.timeoutMs),
        "the admission never committed",
      );
      const early = await env.call(host.resume({ turnId: t, principal: P }), "resume");
      expect(
        !early.ok && early.error.code === "lease-live",
        `resume while an owner may live must be refused lease-live, got ${
          early.ok ? "ok" : early.error.code
        }`,
      );
      const still = await env.call((await env.probe()).store.readEffect(t, "e1"), "readEffect");
      expect(still?.state === "admitted", "a refused resume writes nothing");
      env.clock.advance(KIT_LEASE_MS);
      const res = await env.call(host.resume({ turnId: t, principal: P }), "resume");
      expect(
        res.ok && res.value.turn.status === "needs-reconciliation" &&
          res.value.needsReconciliation.join() === "e1" &&
          res.value.pending.join() === "e2",
        "after the lease, resume marks the in-flight effect unknown",
      );
      const blocked = await env.call(runOf(host, t, "e2", () => ++dispatches), "runEffect");
      expect(
        !blocked.ok && blocked.error.code === "turn-not-running",
        "other effects wait for the reconciliation",
      );
      const nr = await env.call(
        host.recordNotRun({ turnId: t, effectId: "e1", principal: P }),
        "recordNotRun",
      );
      expect(nr.ok && nr.value.turnStatus === "running", "a verified not-run reopens the turn");
      for (const e of ["e1", "e2"]) {
        const r = await env.call(runOf(host, t, e, () => ++dispatches), "runEffect");
        expect(r.ok && r.value.status === "completed", `${e} must then run`);
      }
      expect(dispatches === 2, `each effect dispatched once, got ${dispatches}`);
    },
  );

  add(
    "workers: cancel commits before the abort hook; the host's system authority cancels and expires after the user's is revoked",
    "revocation",
    async (env, t) => {
      const [w] = await env.workers(1);
      const probe = (await env.probe()).store;
      const seen: string[] = [];
      const r = env.recovery(w, {
        abort: {
          signalFor: (id) => env.executions.signalFor(id),
          abort: async (id, reason) => {
            seen.push(String((await probe.readTurn(id))?.status));
            env.executions.abort(id, reason);
          },
        },
      });
      await beginWith(env, r, t);
      const c = await env.call(r.cancel({ turnId: t, principal: P }), "cancel");
      expect(c.ok, `cancel must succeed, got ${c.ok ? "" : c.error.code}`);
      expect(
        seen.join() === "cancelled",
        `the abort hook must observe the committed cancel, saw ${seen.join()}`,
      );
      expect(env.executions.signalFor(t).aborted, "the abort hook must abort the execution signal");
      let dispatches = 0;
      const after = await env.call(runOf(r, t, "e1", () => ++dispatches), "runEffect");
      expect(
        !after.ok && after.error.code === "turn-not-running" && dispatches === 0,
        "a cancelled turn launches nothing",
      );
      for (const action of ["cancel", "expire"] as const) {
        const id = `${t}-${action}`;
        await beginWith(env, r, id);
        await env.call(env.host.revoke!(P, id), "revoke()");
        if (action === "cancel") {
          const user = await env.call(r.cancel({ turnId: id, principal: P }), "cancel");
          expect(!user.ok && user.error.code === "unauthorized", "a revoked user cannot cancel");
        }
        await env.call(env.host.grant(SYSTEM, id, "system"), "grant(…, 'system')");
        const sys = await env.call(
          action === "cancel"
            ? r.cancel({ turnId: id, principal: SYSTEM, actor: "system", reason: "revoked" })
            : r.expire({ turnId: id, principal: SYSTEM, reason: "deadline" }),
          action,
        );
        const want = action === "cancel" ? "cancelled" : "failed";
        expect(
          sys.ok && sys.value.turn.status === want,
          `the system actor must ${action} after the user's revocation, got ${
            sys.ok ? sys.value.turn.status : sys.error.code
          }`,
        );
      }
    },
  );

  add(
    "workers: a cancel handled by one process aborts a dispatch running in another (cancel delivery)",
    "cancel-delivery",
    async (env, t) => {
      const delivery = env.need(env.host.cancelDelivery, "cancelDelivery", "cancel-delivery");
      const [w1, w2] = await env.workers(2);
      const exec1 = new MemoryExecutions();
      const exec2 = new MemoryExecutions();
      const relay = new CancelRelay({ delivery, store: w1.store, abort: exec1 });
      expect(await relay.start(), "subscribing to the cancel delivery failed");
      try {
        const runner = env.recovery(w1, { abort: exec1 });
        const canceller = env.recovery(w2, { abort: exec2, cancelDelivery: delivery });
        await beginWith(env, canceller, t);
        let started = false;
        const running = runOf(runner, t, "e1", (signal) => {
          started = true;
          return new Promise((resolve) =>
            signal.addEventListener("abort", () => resolve("stopped"))
          );
        });
        expect(
          await eventually(() => started, env.settings.timeoutMs),
          "the dispatch never started",
        );
        const c = await env.call(canceller.cancel({ turnId: t, principal: P }), "cancel");
        expect(
          c.ok && c.value.deliveryError === undefined,
          `cancel must commit and publish, got ${c.ok ? c.value.deliveryError : c.error.code}`,
        );
        expect(
          await eventually(() => exec1.signalFor(t).aborted, env.settings.timeoutMs),
          "the other process's execution signal was not aborted: the delivery did not reach its relay",
        );
        const done = await env.call(running, "runEffect");
        expect(
          done.ok && done.value.status === "completed",
          "the aborted dispatch's own result is stored",
        );
      } finally {
        await relay.stop();
      }
    },
  );

  add(
    "workers: a lost completion acknowledgement is read back, not rerun",
    "lost-acks",
    async (env, t) => {
      const [w] = await env.workers(1);
      env.need(w.raw.loseNextAck, "loseNextAck()", "lost-acks");
      const r = env.recovery(w);
      await beginWith(env, r, t);
      let dispatches = 0;
      const out = await env.call(
        runOf(r, t, "e1", async () => {
          await w.raw.loseNextAck!("casEffect"); // the next effect write is the completion
          return ++dispatches;
        }),
        "runEffect",
      );
      expect(
        out.ok && out.value.status === "completed",
        `a committed completion must be returned after read-back, got ${describeRun(out)}`,
      );
      const stored = await env.call((await env.probe()).store.readEffect(t, "e1"), "readEffect");
      expect(
        stored?.state === "completed" && dispatches === 1,
        "the completion must be stored once",
      );
    },
  );

  add(
    "workers: unknown outcomes are resolved only by the host, through CAS",
    null,
    async (env, t) => {
      const [w1, w2] = await env.workers(2);
      const r = env.recovery(w1);
      await beginWith(env, r, t);
      let dispatches = 0;
      const fail = () => {
        dispatches++;
        return Promise.reject(new InjectedDispatchError("timeout"));
      };
      const first = await env.call(runOf(r, t, "e1", fail), "runEffect");
      expect(
        first.ok && first.value.status === "needs-reconciliation" &&
          first.value.action === "reconcile" &&
          first.value.reason === "dispatch-error",
        "a dispatch error must return needs-reconciliation (reconcile, dispatch-error)",
      );
      const retry = await env.call(runOf(env.recovery(w2), t, "e1", fail), "runEffect");
      expect(
        retry.ok && retry.value.status === "needs-reconciliation" && dispatches === 1,
        "a retry must not redispatch",
      );
      const rec = await env.call(
        r.reconcile({
          turnId: t,
          effectId: "e1",
          principal: P,
          outcome: { ok: true, value: "verified" },
        }),
        "reconcile",
      );
      expect(
        rec.ok && rec.value.turnStatus === "running",
        "reconciliation must persist and reopen the turn",
      );
      const reused = await env.call(runOf(r, t, "e1", fail), "runEffect");
      expect(
        reused.ok && reused.value.status === "completed" && reused.value.outcome.ok &&
          reused.value.outcome.value === "verified" && dispatches === 1,
        "the reconciled result must be reused",
      );
    },
  );

  add("workers: a host clock stepping back never revives an ended lease", null, async (env, t) => {
    const [w1, w2] = await env.workers(2);
    const dying = dyingAfterCommit(w1);
    const host = env.recovery(w2);
    await beginWith(env, host, t);
    void runOf(env.recovery(dying.worker), t, "e1", () => 1);
    expect(
      await eventually(dying.committed, env.settings.timeoutMs),
      "the admission never committed",
    );
    env.clock.advance(KIT_LEASE_MS);
    const lost = await env.call(runOf(host, t, "e1", () => 1), "runEffect");
    expect(
      lost.ok && lost.value.status === "needs-reconciliation" && lost.value.reason === "owner-lost",
      "the lease ended",
    );
    env.clock.advance(-KIT_LEASE_MS / 2);
    const again = await env.call(runOf(host, t, "e1", () => 1), "runEffect");
    expect(
      again.ok && again.value.status === "needs-reconciliation" &&
        again.value.reason === "owner-lost",
      `after the host clock stepped back the lease must stay ended, got ${describeRun(again)}`,
    );
  });

  add(
    "workers: a flaky driver (lost acks, serialization failures) is judged: every answer typed, nothing dispatched twice, no completion lost",
    null,
    async (env, t) => {
      const effects = ["e0", "e1", "e2"];
      const [plain] = await env.workers(1);
      await beginWith(env, env.recovery(plain), t, effects);
      const ws = await env.workers(env.settings.n, { serialization: 0.15, lostAck: 0.15 });
      const dispatches = new Map<string, number>();
      const answers: { effectId: string; run: Run }[] = [];
      await env.call(
        Promise.all(ws.map(async (w) => {
          const r = env.recovery(w);
          const order = env.random() < 0.5 ? effects : [...effects].reverse();
          for (const effectId of order) {
            for (let tries = 0; tries < 3; tries++) {
              const run = await runOf(r, t, effectId, () => {
                dispatches.set(effectId, (dispatches.get(effectId) ?? 0) + 1);
                return `v:${effectId}`;
              });
              expect(
                typeof run?.ok === "boolean",
                "runEffect must answer a typed result, never throw",
              );
              answers.push({ effectId, run });
              if (
                !(run.ok && run.value.status === "needs-reconciliation" &&
                  run.value.action === "wait")
              ) break;
            }
          }
        })),
        "flaky workers",
      );
      const probe = (await env.probe()).store;
      for (const e of effects) {
        const d = dispatches.get(e) ?? 0;
        expect(d <= 1, `${e} was dispatched ${d} times behind a flaky driver`);
        const stored = await env.call(probe.readEffect(t, e), "readEffect");
        for (const { effectId, run } of answers) {
          if (effectId !== e || !run.ok || run.value.status !== "completed") continue;
          expect(
            stored?.state === "completed" &&
              (stored.outcome as { value?: unknown })?.value === `v:${e}`,
            `${e}: a completed answer must be stored (a completion was lost)`,
          );
        }
      }
    },
  );
}
