/**
 * Store-level conformance cases: the kit calls the adapter's seams itself,
 * one adapter instance per simulated worker, and holds the admission fence
 * open on purpose (its launch callback returns a promise the kit settles)
 * to race cancellation, revocation and other admissions against it.
 *
 * @module
 */
import { deferred, eventually, settlesWithin, watch } from "../_internal/kit_support.ts";
import {
  expect,
  fieldNotAsSent,
  InjectedCrashError,
  type KitCase,
  type KitWorker,
  P,
  SYSTEM,
} from "./_kit_env.ts";
import type { AddCase } from "./_kit_env.ts";
import type { AdmitOutcome, EffectRecord, EffectState, TurnDraft, TurnRecord } from "./types.ts";

/** A running turn draft with `effectIds`. */
export function turnDraft(turnId: string, effectIds: readonly string[] = ["e1"]): TurnDraft {
  return { turnId, conversationId: `conv-${turnId}`, status: "running", effectIds };
}

/** Grant P and create `turnId` through `w`. */
export async function begin(
  env: KitCase,
  w: KitWorker,
  turnId: string,
  effectIds: readonly string[] = ["e1"],
): Promise<TurnRecord> {
  await env.call(env.host.grant(P, turnId), "grant()");
  const r = await env.call(w.store.casTurn(turnId, 0, turnDraft(turnId, effectIds)), "casTurn");
  expect(
    r?.ok === true && r.record?.revision === 1,
    "creating a turn (expected revision 0) must yield revision 1",
  );
  return r.record;
}

/** Claim `effectId` through `w` at `expected`. */
async function claim(
  env: KitCase,
  w: KitWorker,
  turnId: string,
  effectId = "e1",
  expected = 0,
): Promise<EffectRecord> {
  const r = await env.call(
    w.store.casEffect(turnId, effectId, expected, {
      turnId,
      effectId,
      state: "claimed",
      claimToken: `tok-${effectId}-${expected}`,
      leaseUntil: env.clock.t + 60_000,
      claims: 1,
    }),
    "casEffect",
  );
  expect(r?.ok === true, "claiming an effect at its current revision must succeed");
  return r.record;
}

/** Ask `w`'s fence to admit `effectId` at `claimRevision` with `launch`. */
function admit(
  w: KitWorker,
  turnId: string,
  effectId: string,
  claimRevision: number,
  launch: () => void | PromiseLike<void>,
  leaseUntil?: number,
  principal: string = P,
): Promise<AdmitOutcome> {
  const fence = w.store.admitDispatch;
  expect(typeof fence === "function", "the store must implement admitDispatch");
  return fence.call(w.store, {
    turnId,
    effectId,
    claimRevision,
    principal,
    launch,
    ...(leaseUntil === undefined ? {} : { leaseUntil }),
  });
}

/** Claim and admit `effectId` through `w` (launch is a no-op); the admitted record. */
async function admitted(
  env: KitCase,
  w: KitWorker,
  turnId: string,
  effectId = "e1",
  leaseUntil?: number,
): Promise<EffectRecord> {
  const c = await claim(env, w, turnId, effectId);
  const a = await env.call(
    admit(w, turnId, effectId, c.revision, () => {}, leaseUntil),
    "admitDispatch",
  );
  expect(a?.admitted === true, "admitting a fresh claim of a running turn must succeed");
  return a.record;
}

/** The writable fields of `r` with `over` applied (a draft for the next CAS). */
function redraft(r: EffectRecord, over: Partial<EffectRecord>) {
  const { revision: _revision, ...rest } = r;
  return { ...rest, ...over };
}

/** A further admission of `claimRevision` through `w` must refuse without launching (`why`). */
async function neverRelaunched(
  env: KitCase,
  w: KitWorker,
  turnId: string,
  claimRevision: number,
  why: string,
): Promise<void> {
  let launches = 0;
  const again = await env.call(
    admit(w, turnId, "e1", claimRevision, () => void launches++),
    "admitDispatch",
  );
  expect(again?.admitted === false && launches === 0, why);
}

/** An admission held open inside its launch callback until `release()`. */
async function heldAdmission(
  env: KitCase,
  w: KitWorker,
  turnId: string,
  effectId: string,
  claimRevision: number,
  principal: string = P,
) {
  const gate = deferred();
  let launches = 0;
  const fence = watch(admit(
    w,
    turnId,
    effectId,
    claimRevision,
    () => {
      launches++;
      return gate.promise;
    },
    undefined,
    principal,
  ));
  expect(
    await eventually(() => launches > 0 || fence.settled(), env.settings.timeoutMs),
    "admitDispatch never invoked launch",
  );
  const a = fence.settled() ? await env.call(fence.promise, "admitDispatch") : undefined;
  expect(launches === 1, `admission must invoke launch once, got ${launches}`);
  expect(
    a === undefined,
    "admitDispatch resolved before the launch it invoked settled: the fence must await " +
      "launch and COMMIT after it, holding its locks",
  );
  return {
    fence,
    launches: () => launches,
    release: async () => {
      gate.resolve();
      return await env.call(fence.promise, "admitDispatch");
    },
  };
}

/** Another principal the kit grants when an admission must not hold `P`'s grant. */
const Q = "conformance-principal-2";

/** How many times a race whose precondition the kit could not establish is tried again. */
const ATTEMPTS = 6;

/** A round trip through the probe instance that fails the case if `turnId` reads cancelled. */
async function turnStillRunning(env: KitCase, turnId: string, why: string): Promise<void> {
  const probe = (await env.probe()).store;
  const r = await env.call(probe.readTurn(turnId), "readTurn (probe)");
  expect(r?.status !== "cancelled", why);
}

/** Whether the probe's authority seam (an unlocked read of the grant rows) still grants `P` on `turnId`. */
async function stillGranted(env: KitCase, turnId: string): Promise<boolean> {
  const probe = await env.probe();
  try {
    return (await env.call(
      Promise.resolve(
        probe.authority.check({ principal: P, turnId, action: "run", actor: "user" }),
      ),
      "authority.check (probe)",
    )) === true;
  } catch {
    return false;
  }
}

const CANCEL_WHILE_HELD =
  "a cancel was acknowledged while an admission held its fence (inside launch, before COMMIT): " +
  "the fence must hold the turn row lock (SELECT … FOR UPDATE) from its checks through COMMIT, " +
  "the lock casTurn takes";

const REVOKE_WHILE_HELD =
  "a revocation of the grant an admission read was acknowledged while that admission held its " +
  "fence: read the grant under the fence (SELECT … FOR SHARE inside the transaction) so a " +
  "revocation waits for the launch it authorized";

/**
 * One try of "an admission queued behind `blocker` (a cancel or a revocation
 * that itself waits for a held admission) rechecks under its lock". The
 * verdict comes from what the store committed, never from a sleep: the late
 * admission's launch looks (through the probe instance) whether `blocker`
 * already committed; a refusal for `reason` is conclusive; a launch that
 * happened before `blocker` committed (the store let it take the lock
 * first) is not, and the caller tries again.
 */
async function queuedBehind(
  env: KitCase,
  t: string,
  kind: "cancel" | "revocation",
): Promise<"conclusive" | "inconclusive"> {
  const [w, blockerWorker, late] = await env.workers(3);
  const turn = await begin(env, w, t, ["e1", "e2"]);
  const c1 = await claim(env, w, t, "e1");
  const c2 = await claim(env, late, t, "e2");
  const held = await heldAdmission(env, w, t, "e1", c1.revision);
  const blocker = watch<unknown>(
    kind === "cancel"
      ? blockerWorker.store.casTurn(t, turn.revision, {
        ...turnDraft(t, ["e1", "e2"]),
        status: "cancelled",
      })
      : Promise.resolve(env.host.revoke!(P, t)),
  );
  const committed = async () =>
    kind === "cancel"
      ? (await env.call((await env.probe()).store.readTurn(t), "readTurn (probe)"))?.status ===
        "cancelled"
      : !(await stillGranted(env, t));
  const trip = async () => {
    expect(!(await committed()), kind === "cancel" ? CANCEL_WHILE_HELD : REVOKE_WHILE_HELD);
  };
  const blocked = await env.pending(blocker.promise, env.settings.holdMs / 4, trip);
  expect(blocked, kind === "cancel" ? CANCEL_WHILE_HELD : REVOKE_WHILE_HELD);
  let launchedLate = 0;
  let launchedAfterCommit = false;
  const queued = watch(admit(late, t, "e2", c2.revision, async () => {
    launchedLate++;
    // A store with one connection cannot answer the probe inside this fence: judge by the ack then.
    const look = committed();
    look.catch(() => {});
    const answered = await settlesWithin(look, env.settings.timeoutMs / 4);
    launchedAfterCommit = blocker.settled() || (answered && await look);
  }));
  const lateBlocked = await env.pending(queued.promise, env.settings.holdMs / 4, trip);
  await held.release();
  await env.call(blocker.promise, kind === "cancel" ? "casTurn (cancel)" : "revoke()");
  const q = await env.call(queued.promise, "admitDispatch");
  const reason = kind === "cancel" ? "turn-not-running" : "unauthorized";
  expect(
    !launchedAfterCommit,
    kind === "cancel"
      ? "an admission queued behind a cancel launched after the cancel committed: check the turn " +
        "status after taking the turn lock, never from a read made before it"
      : "an admission queued behind a revocation launched although the revocation committed first: " +
        "authority was checked before the fence (read it inside the transaction, under the lock)",
  );
  if (!lateBlocked || launchedLate > 0) return "inconclusive";
  expect(
    q?.admitted === false && q.reason === reason,
    `an admission queued behind a ${kind} must be refused ${reason} once the ${kind} committed`,
  );
  return "conclusive";
}

/** Run `trial` on fresh turns until one is conclusive; say so when none was. */
async function untilConclusive(
  t: string,
  what: string,
  trial: (turnId: string) => Promise<"conclusive" | "inconclusive">,
): Promise<void> {
  for (let i = 1; i <= ATTEMPTS; i++) {
    if (await trial(i === 1 ? t : `${t}-try${i}`) === "conclusive") return;
  }
  expect(
    false,
    `inconclusive: in ${ATTEMPTS} tries the kit could not ${what} (the store let the later ` +
      "writer take the lock first every time); nothing wrong was observed, but the case proves nothing",
  );
}

/**
 * One try of the guarded-cancel race: another principal's held admission
 * holds the turn lock (not `P`'s grant), `P`'s guarded cancel waits for it,
 * then `P` is revoked.
 */
async function guardedCancelRace(
  env: KitCase,
  turnId: string,
): Promise<"conclusive" | "revocation-serialized" | "inconclusive"> {
  const [w, canceller] = await env.workers(2);
  const turn = await begin(env, w, turnId);
  await env.call(env.host.grant(Q, turnId), "grant()");
  const c = await claim(env, w, turnId);
  const held = await heldAdmission(env, w, turnId, "e1", c.revision, Q);
  const cancel = watch(canceller.store.casTurn(
    turnId,
    turn.revision,
    { ...turnDraft(turnId), status: "cancelled" },
    { principal: P, actor: "user", action: "cancel" },
  ));
  const trip = () => turnStillRunning(env, turnId, CANCEL_WHILE_HELD);
  expect(await env.pending(cancel.promise, env.settings.holdMs / 4, trip), CANCEL_WHILE_HELD);
  const revoke = watch(Promise.resolve(env.host.revoke!(P, turnId)));
  const revokeBlocked = await env.pending(revoke.promise, env.settings.holdMs / 4, trip);
  const revokedWhileHeld = revoke.settled();
  const cancelPending = !cancel.settled();
  await held.release();
  const cr = await env.call(cancel.promise, "casTurn (guarded cancel)");
  await env.call(revoke.promise, "revoke()");
  if (!revokedWhileHeld) {
    return revokeBlocked && cancelPending ? "revocation-serialized" : "inconclusive";
  }
  expect(
    cancelPending && cr?.ok === false && cr.code === "unauthorized",
    "a guarded cancel committed although the user's grant was revoked while it waited for " +
      "the turn lock: recheck the grant after taking the turn lock (FOR SHARE in the same " +
      "transaction), never from a read made before it",
  );
  return "conclusive";
}

/** Register the store-level cases. */
export function storeCases(add: AddCase): void {
  add(
    "cas: turn records: create once, +1 per write, conflicts carry the current record",
    null,
    async (env, t) => {
      const [w, other] = await env.workers(2);
      const first = await begin(env, w, t);
      const dup = await env.call(other.store.casTurn(t, 0, turnDraft(t)), "casTurn");
      expect(
        dup?.ok === false && dup.code === "conflict" && dup.current?.revision === 1,
        "a second create must conflict and carry the current record",
      );
      const upd = await env.call(
        other.store.casTurn(t, 1, { ...turnDraft(t), status: "needs-reconciliation" }),
        "casTurn",
      );
      expect(
        upd?.ok === true && upd.record.revision === 2,
        "CAS at the current revision yields revision + 1",
      );
      const stale = await env.call(w.store.casTurn(t, first.revision, turnDraft(t)), "casTurn");
      expect(
        stale?.ok === false && stale.code === "conflict" &&
          stale.current?.status === "needs-reconciliation" && stale.current.revision === 2,
        "CAS at a stale revision must conflict and carry the current record (read in the same statement)",
      );
      const read = await env.call(w.store.readTurn(t), "readTurn");
      expect(
        read?.revision === 2 && read.status === "needs-reconciliation",
        "readTurn returns the committed record",
      );
    },
  );

  add(
    "cas: effect records are exclusive across adapter instances (one winner), conflicts carry the winner",
    null,
    async (env, t) => {
      const ws = await env.workers(env.settings.n);
      await begin(env, ws[0], t);
      const draft = (i: number) => ({
        turnId: t,
        effectId: "e1",
        state: "claimed" as const,
        claimToken: `c${i}`,
      });
      const creates = await env.call(
        Promise.all(ws.map((w, i) => w.store.casEffect(t, "e1", 0, draft(i)))),
        "concurrent casEffect",
      );
      const wins = creates.filter((r) => r?.ok === true);
      expect(
        wins.length === 1,
        `concurrent creates from ${ws.length} instances: expected 1 winner, got ${wins.length}`,
      );
      const winner = (wins[0] as { record: EffectRecord }).record;
      expect(
        creates.every((r) =>
          r?.ok === true || (r?.code === "conflict" && r.current?.claimToken === winner.claimToken)
        ),
        "every losing create must conflict and carry the winner's record",
      );
      const ups = await env.call(
        Promise.all(ws.map((w, i) => w.store.casEffect(t, "e1", 1, draft(100 + i)))),
        "concurrent casEffect",
      );
      const upWins = ups.filter((r) => r?.ok === true).length;
      expect(upWins === 1, `concurrent updates at one revision: expected 1 winner, got ${upWins}`);
    },
  );

  add(
    "cas: a guarded turn write rechecks the actor's grant under the lock (user revoked: refused; system: allowed)",
    "revocation",
    async (env, t) => {
      const [w] = await env.workers(1);
      const turn = await begin(env, w, t);
      await env.call(env.host.revoke!(P, t), "revoke()");
      const cancelled: TurnDraft = { ...turnDraft(t), status: "cancelled", reason: "stop" };
      const cancelAs = (principal: string, actor: "user" | "system") =>
        env.call(
          w.store.casTurn(t, turn.revision, cancelled, { principal, actor, action: "cancel" }),
          "casTurn (guarded)",
        );
      const refused = async (principal: string, actor: "user" | "system", why: string) => {
        const r = await cancelAs(principal, actor);
        expect(r?.ok === false && r.code === "unauthorized", why);
      };
      await refused(
        P,
        "user",
        "a guarded cancel by a revoked user must be refused unauthorized under the turn lock",
      );
      await refused(SYSTEM, "system", "a system actor without a system grant must be refused");
      await env.call(env.host.grant(P, t, "system"), "grant(…, 'system')");
      await refused(P, "user", "a system grant must not authorize the same id as a user");
      await env.call(env.host.grant(SYSTEM, t, "system"), "grant(…, 'system')");
      const sys = await cancelAs(SYSTEM, "system");
      expect(
        sys?.ok === true && sys.record.status === "cancelled",
        "the host's system grant must authorize the cancel",
      );
    },
  );

  add(
    "admission: launches once inside the fence, awaits it, and the mark is durable once acknowledged",
    null,
    async (env, t) => {
      const [w, other] = await env.workers(2);
      await begin(env, w, t);
      const c = await claim(env, w, t);
      const held = await heldAdmission(env, w, t, "e1", c.revision);
      expect(
        await env.pending(held.fence.promise, env.settings.holdMs / 4, async () => {
          await env.call((await env.probe()).store.readEffect(t, "e1"), "readEffect (probe)");
        }),
        "admitDispatch resolved before launch settled",
      );
      const out = await held.release();
      expect(
        out?.admitted === true && out.record.state === "admitted",
        "admitDispatch must report the admission",
      );
      expect(
        out.record.revision === c.revision + 1,
        "admission advances the effect revision by one",
      );
      const fresh = await env.call(other.store.readEffect(t, "e1"), "readEffect");
      expect(
        fresh?.state === "admitted" && fresh.revision === c.revision + 1,
        "a fresh instance must read the mark",
      );
      await neverRelaunched(
        env,
        other,
        t,
        c.revision,
        "a second admission of the same claim must refuse without launching",
      );
    },
  );

  add(
    "admission: refuses stale, superseded and wrong claims, cancelled and unknown turns without launching",
    null,
    async (env, t) => {
      const [w] = await env.workers(1);
      const turn = await begin(env, w, t, ["e1", "e2"]);
      const c1 = await claim(env, w, t);
      const c2 = await claim(env, w, t, "e1", c1.revision);
      let launches = 0;
      const launch = () => void launches++;
      const stale = await env.call(admit(w, t, "e1", c1.revision, launch), "admitDispatch");
      expect(
        stale?.admitted === false && stale.reason === "stale-claim",
        "a superseded claim must be refused stale-claim",
      );
      const wrong = await env.call(admit(w, t, "e1", c2.revision + 5, launch), "admitDispatch");
      expect(
        wrong?.admitted === false && wrong.reason === "stale-claim",
        "a wrong claim revision must be refused stale-claim",
      );
      const missing = await env.call(admit(w, `${t}-missing`, "e1", 1, launch), "admitDispatch");
      expect(
        missing?.admitted === false && missing.reason === "unknown-turn",
        "an unknown turn must be refused unknown-turn",
      );
      const e2 = await claim(env, w, t, "e2");
      const cancel = await env.call(
        w.store.casTurn(t, turn.revision, { ...turnDraft(t, ["e1", "e2"]), status: "cancelled" }),
        "casTurn",
      );
      expect(cancel?.ok === true, "cancelling by CAS must succeed");
      const late = await env.call(admit(w, t, "e2", e2.revision, launch), "admitDispatch");
      expect(
        late?.admitted === false && late.reason === "turn-not-running",
        "admission after a cancel must refuse turn-not-running",
      );
      expect(launches === 0, `refused admissions must not launch (launched ${launches})`);
    },
  );

  add("admission: rechecks the user's grant inside the fence", "revocation", async (env, t) => {
    const [w] = await env.workers(1);
    await begin(env, w, t);
    const c = await claim(env, w, t);
    await env.call(env.host.revoke!(P, t), "revoke()");
    let launches = 0;
    const out = await env.call(
      admit(w, t, "e1", c.revision, () => void launches++),
      "admitDispatch",
    );
    expect(
      out?.admitted === false && out.reason === "unauthorized",
      "admission after revocation must refuse unauthorized",
    );
    expect(launches === 0, "no launch after revocation");
  });

  add(
    "admission: a held fence blocks cancellation (cancel takes the admission's turn lock)",
    null,
    async (env, t) => {
      const [w, canceller] = await env.workers(2);
      const turn = await begin(env, w, t);
      const c = await claim(env, w, t);
      const held = await heldAdmission(env, w, t, "e1", c.revision);
      const cancel = watch(
        canceller.store.casTurn(t, turn.revision, { ...turnDraft(t), status: "cancelled" }),
      );
      const blocked = await env.pending(
        cancel.promise,
        env.settings.holdMs,
        () => turnStillRunning(env, t, CANCEL_WHILE_HELD),
      );
      const out = await held.release();
      expect(blocked, CANCEL_WHILE_HELD);
      expect(out?.admitted === true, "the held admission must commit once launch settles");
      const cr = await env.call(cancel.promise, "casTurn (cancel)");
      expect(
        cr?.ok === true,
        "the cancel must commit after the admission (admission does not change the turn revision)",
      );
    },
  );

  add(
    "admission: one queued behind a cancel rechecks the turn under its lock (no launch after the cancel)",
    null,
    async (env, t) => {
      await untilConclusive(
        t,
        "queue an admission behind a cancel",
        (turnId) => queuedBehind(env, turnId, "cancel"),
      );
    },
  );

  add(
    "admission: a held fence blocks revocation of the grant it read (authority rows are read under the fence)",
    "revocation",
    async (env, t) => {
      const [w] = await env.workers(1);
      await begin(env, w, t);
      const c = await claim(env, w, t);
      const held = await heldAdmission(env, w, t, "e1", c.revision);
      const revoke = watch(Promise.resolve(env.host.revoke!(P, t)));
      const blocked = await env.pending(revoke.promise, env.settings.holdMs, async () => {
        expect(await stillGranted(env, t), REVOKE_WHILE_HELD);
      });
      await held.release();
      await env.call(revoke.promise, "revoke()");
      expect(blocked, REVOKE_WHILE_HELD);
    },
  );

  add(
    "admission: one queued behind a revocation rechecks the grant under its lock",
    "revocation",
    async (env, t) => {
      await untilConclusive(
        t,
        "queue an admission behind a revocation",
        (turnId) => queuedBehind(env, turnId, "revocation"),
      );
    },
  );

  add(
    "admission: concurrent admissions of one claim from separate instances launch once",
    null,
    async (env, t) => {
      const ws = await env.workers(Math.max(2, env.settings.n));
      await begin(env, ws[0], t);
      const c = await claim(env, ws[0], t);
      const held = await heldAdmission(env, ws[0], t, "e1", c.revision);
      let others = 0;
      const rest = watch(
        Promise.all(ws.slice(1).map((w) => admit(w, t, "e1", c.revision, () => void others++))),
      );
      await env.pending(rest.promise, env.settings.holdMs, async () => {
        await env.call((await env.probe()).store.readEffect(t, "e1"), "readEffect (probe)");
      });
      const launchedWhileHeld = others;
      const first = await held.release();
      const outs = await env.call(rest.promise, "concurrent admitDispatch");
      expect(
        launchedWhileHeld === 0,
        `${launchedWhileHeld} admission(s) of the same claim launched while another instance held the ` +
          "fence: the lock must be the database's, not a per-instance (in-process) one",
      );
      const admitted = [first, ...outs].filter((o) => o?.admitted === true).length;
      expect(
        others === 0 && admitted === 1,
        `expected 1 launch and 1 admission, got ${1 + others} and ${admitted}`,
      );
    },
  );

  add(
    "admission: the mark survives a launch that throws (a worker dying between mark and launch)",
    null,
    async (env, t) => {
      const [w, other] = await env.workers(2);
      await begin(env, w, t);
      const c = await claim(env, w, t);
      let launches = 0;
      let out: AdmitOutcome | undefined;
      try {
        out = await admit(w, t, "e1", c.revision, () => {
          launches++;
          throw new InjectedCrashError("launch");
        });
      } catch {
        out = undefined;
      }
      const fresh = await env.call(other.store.readEffect(t, "e1"), "readEffect");
      expect(
        launches === 1 && fresh?.state === "admitted" && fresh.revision === c.revision + 1,
        "a launch that throws must not roll back the admission mark (the launch may have started " +
          `something): write the mark, call launch, COMMIT anyway (read back: ${
            fresh?.state ?? "nothing"
          })`,
      );
      expect(
        out === undefined || out.admitted === true,
        "admitDispatch must not report a refusal after launching",
      );
      await neverRelaunched(env, other, t, c.revision, "the effect must never be launched again");
    },
  );

  add(
    "lost acks: a lost admission acknowledgement never relaunches",
    "lost-acks",
    async (env, t) => {
      const [w, other] = await env.workers(2);
      env.need(w.raw.loseNextAck, "loseNextAck()", "lost-acks");
      await begin(env, w, t);
      const c = await claim(env, w, t);
      await env.call(w.raw.loseNextAck!("admitDispatch"), "loseNextAck()");
      let launches = 0;
      let threw = false;
      try {
        await admit(w, t, "e1", c.revision, () => void launches++);
      } catch {
        threw = true;
      }
      // The invariant first: a store that retries a transaction whose ack it
      // lost (and so resolves) must fail here for the relaunch, not for the shape.
      expect(launches === 1, `a committed admission launches exactly once, got ${launches}`);
      expect(threw, "loseNextAck('admitDispatch') must make admitDispatch reject");
      const fresh = await env.call(other.store.readEffect(t, "e1"), "readEffect");
      expect(
        fresh?.state === "admitted",
        "the admission whose acknowledgement was lost must be durable",
      );
      await neverRelaunched(
        env,
        other,
        t,
        c.revision,
        "retrying after a lost ack must not relaunch",
      );
    },
  );

  add(
    "lost acks: a CAS whose acknowledgement was lost is durable and a retry conflicts with it",
    "lost-acks",
    async (env, t) => {
      const [w, other] = await env.workers(2);
      env.need(w.raw.loseNextAck, "loseNextAck()", "lost-acks");
      await begin(env, w, t);
      await env.call(w.raw.loseNextAck!("casEffect"), "loseNextAck()");
      let threw = false;
      try {
        await w.store.casEffect(t, "e1", 0, {
          turnId: t,
          effectId: "e1",
          state: "claimed",
          claimToken: "lost",
        });
      } catch {
        threw = true;
      }
      expect(threw, "loseNextAck('casEffect') must make casEffect reject");
      const fresh = await env.call(other.store.readEffect(t, "e1"), "readEffect");
      expect(
        fresh?.claimToken === "lost" && fresh.revision === 1,
        "the write whose acknowledgement was lost must be durable",
      );
      const retry = await env.call(
        other.store.casEffect(t, "e1", 0, {
          turnId: t,
          effectId: "e1",
          state: "claimed",
          claimToken: "retry",
        }),
        "casEffect",
      );
      expect(
        retry?.ok === false && retry.code === "conflict" && retry.current?.claimToken === "lost",
        "a retry at the same expected revision must conflict and carry the committed record",
      );
    },
  );

  add(
    "cas: every effect write checks the revision: a stale not-run, unknown, claim or renewal conflicts with a completion that landed first",
    null,
    async (env, t) => {
      const [w, other] = await env.workers(2);
      const stale: readonly EffectState[] = ["not-run", "unknown", "claimed", "admitted"];
      await begin(env, w, t, stale.map((_, i) => `e${i + 1}`));
      for (let i = 0; i < stale.length; i++) {
        const id = `e${i + 1}`;
        const seen = await admitted(env, w, t, id);
        const done = await env.call(
          other.store.casEffect(
            t,
            id,
            seen.revision,
            redraft(seen, { state: "completed", outcome: { ok: true, value: "ran" } }),
          ),
          "casEffect",
        );
        expect(done?.ok === true, "the owner's completion at the admission's revision must commit");
        const late = await env.call(
          w.store.casEffect(
            t,
            id,
            seen.revision,
            redraft(seen, { state: stale[i], reason: "late" }),
          ),
          "casEffect",
        );
        expect(
          late?.ok === false && late.code === "conflict" && late.current?.state === "completed",
          `a '${stale[i]}' write at a revision a completion already superseded was accepted: ` +
            "every casEffect must compare the expected revision (UPDATE … WHERE revision = " +
            "$expected), whatever state it writes: a blind not-run write lets the effect run twice",
        );
      }
    },
  );

  add(
    "admission: refuses every turn that is not running (failed, needs-reconciliation, interrupted, completed), not only a cancelled one",
    null,
    async (env, t) => {
      const [w, other] = await env.workers(2);
      const statuses = ["failed", "needs-reconciliation", "interrupted", "completed"] as const;
      let launches = 0;
      for (const status of statuses) {
        const turnId = `${t}-${status}`;
        const turn = await begin(env, w, turnId);
        const c = await claim(env, w, turnId);
        // Another process stops the turn between this worker's claim and its admission.
        const stop = await env.call(
          other.store.casTurn(turnId, turn.revision, { ...turnDraft(turnId), status }),
          "casTurn",
        );
        expect(stop?.ok === true, `setting the turn ${status} by CAS must succeed`);
        const out = await env.call(
          admit(w, turnId, "e1", c.revision, () => void launches++),
          "admitDispatch",
        );
        expect(
          launches === 0 && out?.admitted === false && out.reason === "turn-not-running",
          `an admission into a '${status}' turn launched: the fence must refuse every status ` +
            "but 'running' (status = 'running', not status <> 'cancelled')",
        );
      }
    },
  );

  add(
    "admission: a revocation after an admission is seen by the next admission on the same adapter instance (no cached grant)",
    "revocation",
    async (env, t) => {
      const [w] = await env.workers(1);
      await begin(env, w, t, ["e1", "e2"]);
      await admitted(env, w, t, "e1");
      await env.call(env.host.revoke!(P, t), "revoke()");
      const c2 = await claim(env, w, t, "e2");
      let launches = 0;
      const out = await env.call(
        admit(w, t, "e2", c2.revision, () => void launches++),
        "admitDispatch",
      );
      expect(
        launches === 0 && out?.admitted === false && out.reason === "unauthorized",
        "an admission after revocation launched on an adapter instance that had admitted before: " +
          "read the grant in every fence transaction, never from a per-connection cache",
      );
    },
  );

  add(
    "lease: admission writes the fresh leaseUntil, and the owner's renewal (admitted at its revision) commits",
    null,
    async (env, t) => {
      const [w, other] = await env.workers(2);
      await begin(env, w, t);
      const fresh = env.clock.t + 90_000;
      const a = await admitted(env, w, t, "e1", fresh);
      expect(
        a.leaseUntil === fresh,
        `admitDispatch must write the request's leaseUntil into the admitted mark (got ${a.leaseUntil}, ` +
          `expected ${fresh}): the admitted owner starts with a full lease`,
      );
      for (let i = 1; i <= 3; i++) {
        const cur = await env.call(w.store.readEffect(t, "e1"), "readEffect");
        expect(cur?.state === "admitted", "the admitted record must read back");
        const until = fresh + i * 1000;
        const r = await env.call(
          w.store.casEffect(t, "e1", cur.revision, redraft(cur, { leaseUntil: until })),
          "casEffect",
        );
        expect(
          r?.ok === true && r.record.state === "admitted" && r.record.revision === cur.revision + 1,
          "a lease renewal (admitted → admitted, new leaseUntil, at the current revision) was " +
            "refused: a dispatch longer than the lease would be taken for lost while it runs",
        );
        const back = await env.call(other.store.readEffect(t, "e1"), "readEffect");
        expect(back?.leaseUntil === until, "a fresh instance must read the renewed leaseUntil");
      }
    },
  );

  add(
    "cas: an effect write stores every field it was sent (a takeover's claimToken replaces the old owner's)",
    null,
    async (env, t) => {
      const [w, other] = await env.workers(2);
      await begin(env, w, t);
      const probe = (await env.probe()).store;
      let cur = await claim(env, w, t);
      const drafts = [
        redraft(cur, { claimToken: "kit-takeover", leaseUntil: env.clock.t + 120_000, claims: 2 }),
        redraft(cur, {
          claimToken: "kit-third-owner",
          leaseUntil: env.clock.t + 180_000,
          claims: 3,
        }),
      ];
      for (const next of drafts) {
        const r = await env.call(other.store.casEffect(t, "e1", cur.revision, next), "casEffect");
        expect(r?.ok === true, "a CAS at the current revision must commit");
        const back = await env.call(probe.readEffect(t, "e1"), "readEffect (probe)");
        const wrong = fieldNotAsSent(next, back) ?? fieldNotAsSent(next, r.record);
        expect(
          wrong === null,
          `an acknowledged casEffect did not store '${wrong}' as sent (sent ` +
            `${JSON.stringify((next as Record<string, unknown>)[wrong ?? ""])}, read back ` +
            `${JSON.stringify((back as Record<string, unknown> | null)?.[wrong ?? ""])}): the ` +
            "UPDATE must set every column of the record (claim_token included), not only some " +
            "of them while answering RETURNING *: a takeover that keeps the old owner's token " +
            "lets that owner's uncertain-admission not-run release the new owner's admission",
        );
        cur = back!;
      }
    },
  );

  add(
    "lease: a dead owner's late renewal (its old revision) conflicts and leaves the new owner's lease",
    null,
    async (env, t) => {
      const [dead, host, owner] = await env.workers(3);
      await begin(env, dead, t);
      const first = await admitted(env, dead, t, "e1", env.clock.t + 60_000);
      // The first owner's lease ended; the host verified the effect did not run.
      const notRun = await env.call(
        host.store.casEffect(
          t,
          "e1",
          first.revision,
          redraft(first, { state: "not-run", reason: "verified" }),
        ),
        "casEffect",
      );
      expect(notRun?.ok === true, "recording not-run at the admission's revision must commit");
      const longLease = env.clock.t + 600_000;
      const reclaim = await env.call(
        owner.store.casEffect(t, "e1", notRun.record.revision, {
          turnId: t,
          effectId: "e1",
          state: "claimed",
          claimToken: "kit-new-owner",
          leaseUntil: longLease,
          claims: 2,
        }),
        "casEffect",
      );
      expect(reclaim?.ok === true, "claiming a not-run effect at its revision must commit");
      const a = await env.call(
        admit(owner, t, "e1", reclaim.record.revision, () => {}, longLease),
        "admitDispatch",
      );
      expect(a?.admitted === true, "the new owner's admission must succeed");
      // The dead owner's renewal, delivered late: admitted → admitted at ITS revision.
      const late = await env.call(
        dead.store.casEffect(
          t,
          "e1",
          first.revision,
          redraft(first, { leaseUntil: env.clock.t + 1 }),
        ),
        "casEffect",
      );
      const back = await env.call((await env.probe()).store.readEffect(t, "e1"), "readEffect");
      expect(
        late?.ok === false && late.code === "conflict" && back?.claimToken === "kit-new-owner" &&
          back.leaseUntil === longLease && back.revision === a.record.revision,
        "a dead owner's late lease renewal at its old revision was applied to the new owner's " +
          "admission (a renewal keyed on state = 'admitted' instead of the revision): the new " +
          "owner's lease was shortened, so the host is told owner-lost while it still runs",
      );
    },
  );

  add(
    "cas: a guarded cancel rechecks the grant after taking the turn lock (a revocation while it waited refuses it)",
    "revocation",
    async (env, t) => {
      // Two outcomes conclude: the revocation committed while the cancel waited (the
      // cancel must then be refused), or the store makes revocation itself wait for
      // the turn lock (as PostgresRecoveryStore's does: it queues behind the
      // cancel, which then legitimately commits first) twice in a row. A try
      // whose revocation neither committed nor was seen blocked is retried.
      let serialized = 0;
      for (let i = 1; i <= ATTEMPTS; i++) {
        const turnId = i === 1 ? t : `${t}-try${i}`;
        const verdict = await guardedCancelRace(env, turnId);
        if (verdict === "conclusive") return;
        if (verdict === "revocation-serialized" && ++serialized === 2) return;
      }
      expect(
        false,
        `inconclusive: in ${ATTEMPTS} tries the kit could not commit a revocation while a ` +
          "guarded cancel waited; nothing wrong was observed, but the case proves nothing",
      );
    },
  );
}
