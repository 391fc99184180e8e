// Deliberately broken reference stores: each violates one contract of
// RecoveryStore. The interleaving and conformance suites must catch every one.
import {
  type AdmitOutcome,
  type AdmitRequest,
  type CasOutcome,
  type EffectDraft,
  type EffectRecord,
  MemoryRecoveryStore,
  type MemoryStoreOptions,
  type TurnDraft,
  type TurnRecord,
} from "../../recovery.ts";

/** Check (at read time) what the real fence checks; `null` = admissible. */
function precheck(store: MemoryRecoveryStore, r: AdmitRequest, auth = true): AdmitOutcome | null {
  const turn = store.peekTurn(r.turnId);
  if (!turn) return { admitted: false, reason: "unknown-turn" };
  if (auth && !store.isAuthorized(r.principal, r.turnId)) {
    return { admitted: false, reason: "unauthorized" };
  }
  if (turn.status !== "running") {
    return { admitted: false, reason: "turn-not-running", status: turn.status };
  }
  const cur = store.peekEffect(r.turnId, r.effectId);
  if (!cur || cur.state !== "claimed" || cur.revision !== r.claimRevision) {
    return { admitted: false, reason: "stale-claim" };
  }
  return null;
}

/** Read, await, then write unconditionally (CAS and admission). */
export class NonAtomicCasStore extends MemoryRecoveryStore {
  override async casEffect(
    turnId: string,
    effectId: string,
    expectedRevision: number,
    next: EffectDraft,
  ): Promise<CasOutcome<EffectRecord>> {
    const f = await this.before("casEffect");
    const cur = this.peekEffect(turnId, effectId);
    const matched = (cur ? cur.revision : 0) === expectedRevision;
    if (this.pause) await this.pause("non-atomic:gap");
    if (!matched) return this.after("casEffect", f, { ok: false, code: "conflict", current: cur });
    const now = this.peekEffect(turnId, effectId);
    return this.after(
      "casEffect",
      f,
      this.casEffectSync(turnId, effectId, now ? now.revision : 0, next),
    );
  }

  override async casTurn(
    turnId: string,
    expectedRevision: number,
    next: TurnDraft,
  ): Promise<CasOutcome<TurnRecord>> {
    const f = await this.before("casTurn");
    const cur = this.peekTurn(turnId);
    const matched = (cur ? cur.revision : 0) === expectedRevision;
    if (this.pause) await this.pause("non-atomic:gap");
    if (!matched) return this.after("casTurn", f, { ok: false, code: "conflict", current: cur });
    const now = this.peekTurn(turnId);
    return this.after("casTurn", f, this.casTurnSync(turnId, now ? now.revision : 0, next));
  }

  override async admitDispatch(r: AdmitRequest): Promise<AdmitOutcome> {
    const f = await this.before("admitDispatch");
    const refused = precheck(this, r);
    if (this.pause) await this.pause("non-atomic:gap");
    if (refused) return this.after("admitDispatch", f, refused);
    const cur = this.peekEffect(r.turnId, r.effectId)!;
    const w = this.casEffectSync(r.turnId, r.effectId, cur.revision, { ...cur, state: "admitted" });
    const record = (w as { record: EffectRecord }).record;
    this.observe?.({ kind: "admit", tick: this.tick, record });
    this.invokeLaunch(r);
    return this.after("admitDispatch", f, { admitted: true, record });
  }
}

/** Launches first, awaits, then tries to mark admission durably. */
export class LaunchBeforeMarkStore extends MemoryRecoveryStore {
  override async admitDispatch(r: AdmitRequest): Promise<AdmitOutcome> {
    const f = await this.before("admitDispatch");
    const refused = precheck(this, r);
    if (refused) return this.after("admitDispatch", f, refused);
    this.invokeLaunch(r);
    if (this.pause) await this.pause("launch-before-mark:gap");
    if (f === "crash-after") return new Promise(() => {}); // died between launch and mark
    return this.after("admitDispatch", f, this.admitSyncNoLaunch(r));
  }

  admitSyncNoLaunch(r: AdmitRequest): AdmitOutcome {
    const again = precheck(this, r);
    if (again) return again;
    const cur = this.peekEffect(r.turnId, r.effectId)!;
    const w = this.casEffectSync(r.turnId, r.effectId, cur.revision, { ...cur, state: "admitted" });
    const record = (w as { record: EffectRecord }).record;
    this.observe?.({ kind: "admit", tick: this.tick, record });
    return { admitted: true, record };
  }
}

/** The fence forgets to recheck current authority. */
export class NoAuthorityRecheckStore extends MemoryRecoveryStore {
  protected override fenceAuthorized(): boolean {
    return true;
  }
}

/** Acknowledges a cancellation before it commits (the abort hook then runs first). */
export class AckBeforeCommitStore extends MemoryRecoveryStore {
  override async casTurn(
    turnId: string,
    expectedRevision: number,
    next: TurnDraft,
  ): Promise<CasOutcome<TurnRecord>> {
    if (next.status !== "cancelled") return super.casTurn(turnId, expectedRevision, next);
    const f = await this.before("casTurn");
    const cur = this.peekTurn(turnId);
    if ((cur ? cur.revision : 0) !== expectedRevision) {
      return this.after("casTurn", f, { ok: false, code: "conflict", current: cur });
    }
    // Replication lag: the commit becomes visible a few await points later.
    let later: Promise<unknown> = Promise.resolve();
    for (let i = 0; i < 4; i++) later = later.then(() => this.pause?.("deferred-commit"));
    void later.then(() => this.casTurnSync(turnId, expectedRevision, next));
    const projected: TurnRecord = { ...next, revision: expectedRevision + 1 };
    return { ok: true, record: projected };
  }
}

/**
 * Checks the turn status (and authority) outside its critical section: an
 * unlocked read, round trips, then mark + launch under the lock without
 * rechecking, so a cancellation or revocation can commit in between.
 */
export class StatusOutsideFenceStore extends MemoryRecoveryStore {
  override async admitDispatch(r: AdmitRequest): Promise<AdmitOutcome> {
    const f = await this.before("admitDispatch");
    const refused = precheck(this, r);
    if (refused) return this.after("admitDispatch", f, refused);
    // Round trips between the unlocked read and the launch: the read's
    // response, taking the lock, writing the mark.
    for (const step of ["read-ack", "lock", "mark"]) {
      if (this.pause) await this.pause(`status-outside-fence:${step}`);
    }
    const cur = this.peekEffect(r.turnId, r.effectId);
    if (!cur || cur.state !== "claimed" || cur.revision !== r.claimRevision) {
      return this.after("admitDispatch", f, { admitted: false, reason: "stale-claim" });
    }
    const w = this.casEffectSync(r.turnId, r.effectId, cur.revision, { ...cur, state: "admitted" });
    const record = (w as { record: EffectRecord }).record;
    this.observe?.({ kind: "admit", tick: this.tick, record });
    this.invokeLaunch(r);
    return this.after("admitDispatch", f, { admitted: true, record });
  }
}

/** Treats a lost admission acknowledgement as a failed transaction and retries it, relaunching. */
export class BlindRelaunchStore extends MemoryRecoveryStore {
  override async admitDispatch(r: AdmitRequest): Promise<AdmitOutcome> {
    const f = await this.before("admitDispatch");
    const out = this.admitSync(r);
    if (this.pause) await this.pause("admitDispatch:ack");
    if (f === "ack-lost" && out.admitted) {
      // "The ack timed out, so the transaction must have failed": retry it.
      this.invokeLaunch(r);
      return out;
    }
    return this.after("admitDispatch", f, out);
  }
}

export type Variant =
  | "reference"
  | "non-atomic-cas"
  | "launch-before-mark"
  | "no-authority-recheck"
  | "abort-before-cancel-commit"
  | "blind-relaunch"
  | "status-outside-fence";

export const BROKEN_VARIANTS: readonly Exclude<Variant, "reference">[] = [
  "non-atomic-cas",
  "launch-before-mark",
  "no-authority-recheck",
  "abort-before-cancel-commit",
  "blind-relaunch",
  "status-outside-fence",
];

export function makeStore(variant: Variant, options: MemoryStoreOptions): MemoryRecoveryStore {
  switch (variant) {
    case "reference":
      return new MemoryRecoveryStore(options);
    case "non-atomic-cas":
      return new NonAtomicCasStore(options);
    case "launch-before-mark":
      return new LaunchBeforeMarkStore(options);
    case "no-authority-recheck":
      return new NoAuthorityRecheckStore(options);
    case "abort-before-cancel-commit":
      return new AckBeforeCommitStore(options);
    case "blind-relaunch":
      return new BlindRelaunchStore(options);
    case "status-outside-fence":
      return new StatusOutsideFenceStore(options);
  }
}
