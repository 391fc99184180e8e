/**
 * Test-only stores: a harness over the reference store, and deliberately
 * broken stores the conformance kit and the resolver suite must catch.
 *
 * @module
 */
import {
  evaluateFence,
  FakeClock,
  type FenceRefusal,
  type InteractionAuthority,
  type InteractionRecordV1,
  type InteractionStore,
  MemoryInteractionStore,
  nextRecordProblem,
  sameAuthority,
  type StoreRead,
  type TransactCallback,
  type TransactCommit,
  type TransactRequest,
  type WorkflowTransition,
} from "../../interactions.ts";
import { err, ok, type Result } from "../../src/result.ts";
import type { InteractionStoreHarness } from "../../src/interactions/testing.ts";

/** A {@link FakeClock} that can also step back (the reference store must not follow). */
export class RewindableClock extends FakeClock {
  #back = 0;
  override now(): number {
    return super.now() - this.#back;
  }
  /** Step back `ms` (the next `advance` moves forward from there). */
  rewind(ms: number): void {
    this.#back += ms;
  }
}

/** Harness over a fresh {@link MemoryInteractionStore} with a {@link FakeClock}. */
export function memoryHarness(): InteractionStoreHarness & {
  store: MemoryInteractionStore;
  clock: RewindableClock;
} {
  const clock = new RewindableClock();
  const store = new MemoryInteractionStore({ now: () => clock.now() });
  return {
    store,
    clock,
    now: () => clock.now(),
    advanceClock: (ms) => clock.advance(ms),
    revoke: (a) => store.revoke(a),
    transitions: (id) => store.transitions(id),
    loseNextAck: () => store.loseNextAck(),
    rewindClock: (ms) => clock.rewind(ms),
  };
}

/** The flaw a {@link FlawedStore} has. */
export type Flaw =
  | "unfenced-read-then-write"
  | "no-authority-recheck"
  | "accepts-after-expiry"
  | "follows-clock-back";

/**
 * A store with one deliberate flaw (otherwise like the reference store):
 * - `unfenced-read-then-write`: reads and checks the row, awaits (network
 *   round trip), then calls back and writes unconditionally.
 * - `no-authority-recheck`: transact ignores revocations (read still checks).
 * - `accepts-after-expiry`: transact ignores `expiresAt`.
 * - `follows-clock-back`: judges expiry by the raw clock, which may step back
 *   (every flawed store does; only this flaw's harness declares the hook).
 */
export class FlawedStore implements InteractionStore {
  rows = new Map<string, string>();
  outbox: WorkflowTransition[] = [];
  revoked: InteractionAuthority[] = [];
  constructor(readonly flaw: Flaw, readonly clock: FakeClock) {}

  authorized(a: InteractionAuthority): boolean {
    return !this.revoked.some((r) => sameAuthority(r, a));
  }

  async create(record: InteractionRecordV1) {
    await Promise.resolve();
    if (this.rows.has(record.id)) {
      return err({ code: "already-exists" as const, message: "exists" });
    }
    this.rows.set(record.id, JSON.stringify(record));
    return ok(record);
  }

  async read(id: string, caller: InteractionAuthority): Promise<StoreRead> {
    await Promise.resolve();
    const row = this.rows.get(id);
    if (row === undefined) return { ok: false, code: "not-found" };
    const record: InteractionRecordV1 = JSON.parse(row);
    if (!this.authorized(record.authority) || !sameAuthority(record.authority, caller)) {
      return { ok: false, code: "unauthorized" };
    }
    return { ok: true, record, now: this.clock.now() };
  }

  async transact<T>(
    request: TransactRequest,
    fn: TransactCallback<T>,
  ): Promise<Result<TransactCommit<T>, FenceRefusal>> {
    await Promise.resolve();
    const row = this.rows.get(request.id);
    const current: InteractionRecordV1 | undefined = row === undefined
      ? undefined
      : JSON.parse(row);
    const authorized = current !== undefined &&
      (this.flaw === "no-authority-recheck" || this.authorized(current.authority));
    const now = this.flaw === "accepts-after-expiry" ? Number.NEGATIVE_INFINITY : this.clock.now();
    const refusal = evaluateFence(current, request, authorized, now);
    if (refusal !== null) return err(refusal);
    const cur = current as InteractionRecordV1;
    if (this.flaw === "unfenced-read-then-write") {
      // The bug: a network round trip between the check and the write.
      await new Promise((r) => setTimeout(r, 0));
    }
    const decision = fn(cur, { authority: cur.authority, now: this.clock.now() });
    if (decision.kind === "read") {
      return ok({ result: decision.result, record: cur, transition: null });
    }
    const problem = nextRecordProblem(cur, decision.next);
    if (problem !== null) throw new TypeError(problem);
    this.rows.set(cur.id, JSON.stringify(decision.next));
    if (decision.transition !== null) this.outbox.push(decision.transition);
    return ok({ result: decision.result, record: decision.next, transition: decision.transition });
  }
}

/** Harness over a fresh {@link FlawedStore}. */
export function flawedHarness(flaw: Flaw): InteractionStoreHarness & { store: FlawedStore } {
  const clock = new RewindableClock();
  const store = new FlawedStore(flaw, clock);
  return {
    store,
    now: () => clock.now(),
    advanceClock: (ms) => clock.advance(ms),
    revoke: (a) => void store.revoked.push({ ...a }),
    transitions: (id) => store.outbox.filter((t) => t.interactionId === id),
    rewindClock: (ms) => clock.rewind(ms),
  };
}
