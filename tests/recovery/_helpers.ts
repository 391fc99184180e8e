// Shared helpers for tests/recovery (not a test file).
import {
  type EffectRun,
  MemoryRecoveryHost,
  type RecoveryError,
  type RecoveryStore,
  type StoreFault,
  type StoreOp,
  TurnRecovery,
  type TurnRecoveryOptions,
} from "../../recovery.ts";
import type { Result } from "../../src/result.ts";

/** A fault plan: the n-th call (0-based) of `op` gets `fault`. */
export function faultPlan(plan: Partial<Record<StoreOp, Record<number, StoreFault>>>) {
  const counts = new Map<StoreOp, number>();
  return (op: StoreOp): StoreFault => {
    const n = counts.get(op) ?? 0;
    counts.set(op, n + 1);
    return plan[op]?.[n] ?? "none";
  };
}

export { deferred } from "../../src/_internal/kit_support.ts";

/** A settable host clock (epoch ms) for lease tests. */
export function testClock(start = 1_700_000_000_000) {
  let t = start;
  return {
    now: () => t,
    advance: (ms: number) => void (t += ms),
  };
}

export async function setup(
  opts: ConstructorParameters<typeof MemoryRecoveryHost>[0] = {},
  effectIds: string[] = ["e1", "e2"],
  workerOptions: Partial<TurnRecoveryOptions> = {},
) {
  const host = new MemoryRecoveryHost(opts);
  await host.grant("alice", "t1");
  const worker = new TurnRecovery({ ...host.seams(), workerId: "w1", ...workerOptions });
  const begun = await worker.beginTurn({
    conversationId: "c1",
    turnId: "t1",
    principal: "alice",
    effectIds,
  });
  if (!begun.ok) throw new Error(`setup failed: ${begun.error.code}`);
  return { host, worker };
}

export function value(r: Result<EffectRun, RecoveryError>): EffectRun {
  if (!r.ok) throw new Error(`expected ok, got ${r.error.code}: ${r.error.message}`);
  return r.value;
}

export function code<T>(r: Result<T, RecoveryError>): string {
  if (r.ok) throw new Error(`expected a refusal, got ok ${JSON.stringify(r.value)}`);
  return r.error.code;
}

/** `worker.runEffect` as "alice" on turn "t1" (the turn {@link setup} begins), effect `effectId`. */
export function runAsAlice(
  worker: TurnRecovery,
  dispatch: (signal: AbortSignal) => unknown,
  effectId = "e1",
): Promise<Result<EffectRun, RecoveryError>> {
  return worker.runEffect({ turnId: "t1", effectId, principal: "alice", dispatch });
}

/**
 * A store forwarding every call to `s`, with `over` replacing some methods
 * (`{ admitDispatch: undefined }` gives a store without the fence).
 */
export function delegate(s: RecoveryStore, over: Partial<RecoveryStore> = {}): RecoveryStore {
  return {
    readTurn: (t) => s.readTurn(t),
    casTurn: (...a) => s.casTurn(...a),
    readEffect: (...a) => s.readEffect(...a),
    casEffect: (...a) => s.casEffect(...a),
    admitDispatch: (r) => s.admitDispatch!(r),
    ...over,
  };
}

/**
 * A worker whose admissions commit but whose acknowledgement never arrives
 * (it dies after COMMIT, before dispatching); `committed()` says when the
 * admission mark is durable.
 */
export function dyingWorker(
  host: MemoryRecoveryHost,
  options: Partial<TurnRecoveryOptions> = {},
): { worker: TurnRecovery; committed: () => boolean } {
  let committed = false;
  const store = delegate(host.store, {
    admitDispatch: (r) => {
      void host.store.admitDispatch(r).then(() => (committed = true));
      return new Promise(() => {});
    },
  });
  return {
    worker: new TurnRecovery({ ...host.seams(), ...options, store }),
    committed: () => committed,
  };
}
