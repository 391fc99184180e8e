// Shared helpers for tests/recovery (not a test file).
import {
  type EffectRun,
  MemoryRecoveryHost,
  type RecoveryError,
  type RecoveryStore,
  type StoreFault,
  type StoreOp,
  TurnRecovery,
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

export function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((a, b) => {
    resolve = a;
    reject = b;
  });
  return { promise, resolve, reject };
}

export async function setup(
  opts: ConstructorParameters<typeof MemoryRecoveryHost>[0] = {},
  effectIds: string[] = ["e1", "e2"],
) {
  const host = new MemoryRecoveryHost(opts);
  host.grant("alice", "t1");
  const worker = new TurnRecovery({ ...host.seams(), workerId: "w1" });
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
