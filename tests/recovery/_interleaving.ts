// Deterministic interleaving harness shared by interleaving_test.ts and soak.ts.
// One run: one turn, 1..3 host-authorized effects, 2..8 fresh TurnRecovery
// workers sharing one store, fc.scheduler() ordering every await, seeded
// faults (lost acks, failures, crashes), optional concurrent cancel and
// authority revocation. Returns the list of violated invariants.
import fc from "../_helpers/seed.ts";
import {
  type EffectRun,
  MemoryExecutions,
  type RecoveryError,
  type RecoveryStore,
  type StoreFault,
  TurnRecovery,
} from "../../recovery.ts";
import type { Result } from "../../src/result.ts";
import { makeStore, type Variant } from "./_broken_stores.ts";

export interface Scenario {
  seed: number;
  workers: number;
  effects: number;
  lostAck: number;
  crash: number;
  fail: number;
  dispatchError: number;
  cancel: boolean;
  revoke: boolean;
  /** Scheduler steps the cancel / the revocation waits before starting. */
  cancelDelay: number;
  revokeDelay: number;
  retry: boolean;
}

export const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  seed: fc.integer({ min: 0, max: 0x7fffffff }),
  workers: fc.integer({ min: 2, max: 8 }),
  effects: fc.integer({ min: 1, max: 3 }),
  lostAck: fc.constantFrom(0, 0.1, 0.25, 0.5),
  crash: fc.constantFrom(0, 0, 0.03, 0.08),
  fail: fc.constantFrom(0, 0.05),
  dispatchError: fc.constantFrom(0, 0, 0.2),
  cancel: fc.boolean(),
  revoke: fc.constantFrom(false, false, true),
  cancelDelay: fc.integer({ min: 0, max: 12 }),
  revokeDelay: fc.integer({ min: 0, max: 12 }),
  retry: fc.boolean(),
});

function mulberry32(a: number): () => number {
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TURN = "t1";
const PRINCIPAL = "p";

/** What one run exercised (summed across runs to show the suite reaches the hard paths). */
export interface RunStats {
  launches: number;
  lostAcks: number;
  crashes: number;
  cancelCommitted: number;
  refusedAfterCancel: number;
  refusedAfterRevoke: number;
  needsReconciliation: number;
  inFlightAtCancel: number;
  completedAfterCancel: number;
}

export function emptyStats(): RunStats {
  return {
    launches: 0,
    lostAcks: 0,
    crashes: 0,
    cancelCommitted: 0,
    refusedAfterCancel: 0,
    refusedAfterRevoke: 0,
    needsReconciliation: 0,
    inFlightAtCancel: 0,
    completedAfterCancel: 0,
  };
}

export async function runScenario(
  s: fc.Scheduler,
  sc: Scenario,
  variant: Variant,
  stats: RunStats = emptyStats(),
): Promise<string[]> {
  const rng = mulberry32(sc.seed);
  let live = false;
  const pause = (label: string) =>
    live ? s.schedule(Promise.resolve(label), label) : Promise.resolve(label);
  const fault = (): StoreFault => {
    if (!live) return "none";
    const x = rng();
    if (x < sc.crash / 2) return stats.crashes++, "crash-before";
    if (x < sc.crash) return stats.crashes++, "crash-after";
    if (x < sc.crash + sc.fail) return "fail";
    if (x < sc.crash + sc.fail + sc.lostAck) return stats.lostAcks++, "ack-lost";
    return "none";
  };
  const effectIds = Array.from({ length: sc.effects }, (_, i) => `e${i}`);
  const admits = new Map<string, number>();
  const launchTicks = new Map<string, number[]>();
  const dispatches = new Map<string, number>();
  let cancelTick: number | undefined;
  let revokeTick: number | undefined;
  const violations: string[] = [];
  const store = makeStore(variant, {
    fault,
    pause,
    observe: (e) => {
      if (e.kind === "admit") {
        admits.set(e.record.effectId, (admits.get(e.record.effectId) ?? 0) + 1);
      }
      if (e.kind === "commit-turn" && e.record.status === "cancelled" && cancelTick === undefined) {
        cancelTick = e.tick;
        stats.cancelCommitted++;
        // In flight = admitted and not yet completed when the cancel commits.
        for (const id of effectIds) {
          if (store.peekEffect(TURN, id)?.state === "admitted") stats.inFlightAtCancel++;
        }
      }
      if (
        e.kind === "commit-effect" && e.record.state === "completed" && cancelTick !== undefined
      ) {
        stats.completedAfterCancel++;
      }
      if (e.kind === "revoke" && revokeTick === undefined) revokeTick = e.tick;
    },
  });
  // Count every launch the fence invokes (the store's contract), separately from dispatches.
  const counted: RecoveryStore = {
    readTurn: (t) => store.readTurn(t),
    casTurn: (t, r, n) => store.casTurn(t, r, n),
    readEffect: (t, e) => store.readEffect(t, e),
    casEffect: (t, e, r, n) => store.casEffect(t, e, r, n),
    admitDispatch: (r) =>
      store.admitDispatch({
        ...r,
        launch: () => {
          const ticks = launchTicks.get(r.effectId) ?? [];
          ticks.push(store.now);
          launchTicks.set(r.effectId, ticks);
          r.launch();
        },
      }),
  };
  const executions = new MemoryExecutions({
    onAbort: (t) => {
      if (store.peekTurn(t)?.status !== "cancelled") {
        violations.push("abort hook ran before the cancel committed");
      }
    },
  });
  await store.grant(PRINCIPAL, TURN);
  const seams = { store: counted, authority: store.authority(), abort: executions };
  const begun = await new TurnRecovery({ ...seams, workerId: "host", backoff: { baseMs: 0 } })
    .beginTurn({
      conversationId: "c1",
      turnId: TURN,
      principal: PRINCIPAL,
      effectIds,
    });
  if (!begun.ok) return [`beginTurn failed: ${begun.error.code}`];
  live = true;

  const results: { effectId: string; r: Result<EffectRun, RecoveryError> }[] = [];
  const dispatch = (effectId: string) => (signal: AbortSignal) => {
    dispatches.set(effectId, (dispatches.get(effectId) ?? 0) + 1);
    return s.schedule(Promise.resolve(`v:${effectId}`), `work:${effectId}`).then((v) => {
      if (rng() < sc.dispatchError || (signal.aborted && rng() < 0.5)) {
        throw new Error("dispatch failed");
      }
      return v;
    });
  };
  const tasks: Promise<unknown>[] = [];
  for (let i = 0; i < sc.workers; i++) {
    const w = new TurnRecovery({
      ...seams,
      workerId: `w${i}`,
      maxAttempts: 6,
      backoff: { baseMs: 0 }, // every wait is a scheduler step, never a timer
    });
    const order = [...effectIds];
    if (rng() < 0.5) order.reverse();
    tasks.push(
      s.schedule(Promise.resolve(), `start w${i}`).then(async () => {
        for (const effectId of order) {
          const req = {
            turnId: TURN,
            effectId,
            principal: PRINCIPAL,
            dispatch: dispatch(effectId),
          };
          const r = await w.runEffect(req);
          results.push({ effectId, r });
          if (!r.ok && r.error.code === "turn-not-running" && cancelTick !== undefined) {
            stats.refusedAfterCancel++;
          }
          if (!r.ok && r.error.code === "unauthorized" && revokeTick !== undefined) {
            stats.refusedAfterRevoke++;
          }
          if (r.ok && r.value.status === "needs-reconciliation") stats.needsReconciliation++;
          if (sc.retry && r.ok && r.value.status === "needs-reconciliation") {
            results.push({ effectId, r: await w.runEffect(req) }); // a model retry
          }
        }
      }),
    );
  }
  const after = async (steps: number, label: string) => {
    for (let i = 0; i <= steps; i++) await s.schedule(Promise.resolve(), `${label} wait ${i}`);
  };
  if (sc.cancel) {
    const c = new TurnRecovery({ ...seams, workerId: "canceller", backoff: { baseMs: 0 } });
    tasks.push(
      after(sc.cancelDelay, "cancel").then(() => c.cancel({ turnId: TURN, principal: PRINCIPAL })),
    );
  }
  if (sc.revoke) {
    tasks.push(after(sc.revokeDelay, "revoke").then(() => store.revoke(PRINCIPAL, TURN)));
  }
  await s.waitIdle();
  live = false;

  for (const e of effectIds) {
    const launches = launchTicks.get(e) ?? [];
    stats.launches += launches.length;
    const d = dispatches.get(e) ?? 0;
    const a = admits.get(e) ?? 0;
    if (launches.length > 1) violations.push(`${e}: ${launches.length} launches`);
    if (d > 1) violations.push(`${e}: ${d} dispatches`);
    if (a > 1) violations.push(`${e}: admitted ${a} times`);
    if ((a === 1) !== (launches.length === 1)) {
      violations.push(`${e}: admitted=${a} but launched=${launches.length}`);
    }
    for (const t of launches) {
      if (cancelTick !== undefined && t >= cancelTick) {
        violations.push(`${e}: launched after the cancel committed`);
      }
      if (revokeTick !== undefined && t >= revokeTick) {
        violations.push(`${e}: launched after authority was revoked`);
      }
    }
    const rec = store.peekEffect(TURN, e);
    if (rec?.state === "completed" && !rec.reconciled) {
      if (!rec.outcome?.ok || rec.outcome.value !== `v:${e}`) {
        violations.push(`${e}: stored a fabricated result`);
      }
      if (launches.length !== 1) violations.push(`${e}: completed without a launch`);
    }
  }
  for (const { effectId, r } of results) {
    if (r.ok && r.value.status === "completed") {
      const rec = store.peekEffect(TURN, effectId);
      if (
        rec?.state !== "completed" || rec.outcome?.ok !== true ||
        rec.outcome.value !== (r.value.outcome as { value: unknown }).value
      ) {
        violations.push(`${effectId}: a returned completion is not stored (lost)`);
      }
    }
  }
  if (cancelTick !== undefined && store.peekTurn(TURN)?.status !== "cancelled") {
    violations.push("the cancelled turn was reopened");
  }
  return violations;
}

export function interleavingProperty(variant: Variant, stats?: RunStats) {
  return fc.asyncProperty(fc.scheduler(), scenarioArb, async (s, sc) => {
    const v = await runScenario(s, sc, variant, stats);
    if (v.length > 0) throw new Error(`invariants violated: ${v.join("; ")}`);
  });
}
