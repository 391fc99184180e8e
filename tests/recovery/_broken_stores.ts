// Deliberately broken reference stores: each violates one contract of
// RecoveryStore (the rules written on RecoveryStore's JSDoc). The kit and the
// interleaving suite must name every one.
import { type LockRequest, LockTable } from "../../src/recovery/lock_table.ts";
import {
  type ActorKind,
  type AdmitOutcome,
  type AdmitRequest,
  type CasOutcome,
  type EffectDraft,
  type EffectRecord,
  MemoryRecoveryStore,
  type MemoryStoreOptions,
  type TurnCasOutcome,
  type TurnDraft,
  type TurnGuard,
  type TurnRecord,
} from "../../recovery.ts";

const effectKey = (t: string, e: string) => `${t}\u0000${e}`;

/** The checks a fence makes, on the committed state read WITHOUT a lock; `null` = admissible. */
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

/** Mark `r`'s effect admitted (no checks) and return the admission. */
function mark(store: BrokenBase, r: AdmitRequest): AdmitOutcome {
  const cur = store.peekEffect(r.turnId, r.effectId)!;
  const record: EffectRecord = Object.freeze({
    ...cur,
    state: "admitted" as const,
    revision: cur.revision + 1,
  });
  return { admitted: true, record: store.commitEffectPublic(record) };
}

/** Exposes the protected commit for the broken variants. */
class BrokenBase extends MemoryRecoveryStore {
  commitEffectPublic(record: EffectRecord): EffectRecord {
    return this.commitEffect(record, "admit");
  }
  /** The admission fence taking only the locks in `parts`. */
  admitWith(r: AdmitRequest, parts: ("turn" | "grant" | "effect")[]): Promise<AdmitOutcome> {
    return this.locked("admitDispatch", this.lockKeys(r, parts), () => this.admitLocked(r));
  }
  lockKeys(r: AdmitRequest, parts: ("turn" | "grant" | "effect")[]): LockRequest[] {
    const out: LockRequest[] = [];
    if (parts.includes("turn")) out.push({ key: ["turn", r.turnId], mode: "exclusive" });
    if (parts.includes("grant")) {
      out.push(...this.database.grantLocks(r.principal, r.turnId, "user"));
    }
    if (parts.includes("effect")) {
      out.push({ key: ["effect", r.turnId, r.effectId], mode: "exclusive" });
    }
    return out;
  }
}

/** Read, round trip, then write unconditionally: no lock at all (CAS and admission). */
export class NonAtomicCasStore extends BrokenBase {
  override async casEffect(
    turnId: string,
    effectId: string,
    expectedRevision: number,
    next: EffectDraft,
  ): Promise<CasOutcome<EffectRecord>> {
    const f = await this.before("casEffect");
    const cur = this.peekEffect(turnId, effectId);
    const matched = (cur ? cur.revision : 0) === expectedRevision;
    await this.step("non-atomic:gap");
    if (!matched) return this.after("casEffect", f, { ok: false, code: "conflict", current: cur });
    const now = this.peekEffect(turnId, effectId);
    const record: EffectRecord = Object.freeze({
      ...next,
      turnId,
      effectId,
      revision: (now ? now.revision : 0) + 1,
    });
    return this.after("casEffect", f, {
      ok: true,
      record: this.commitEffect(record, "commit-effect"),
    });
  }

  override async casTurn(
    turnId: string,
    expectedRevision: number,
    next: TurnDraft,
    guard?: TurnGuard,
  ): Promise<TurnCasOutcome> {
    const f = await this.before("casTurn");
    const cur = this.peekTurn(turnId);
    const matched = (cur ? cur.revision : 0) === expectedRevision;
    await this.step("non-atomic:gap");
    if (guard && !this.isAuthorized(guard.principal, turnId, guard.actor)) {
      return this.after("casTurn", f, { ok: false, code: "unauthorized" });
    }
    if (!matched) return this.after("casTurn", f, { ok: false, code: "conflict", current: cur });
    const now = this.peekTurn(turnId);
    const record: TurnRecord = Object.freeze({
      ...next,
      turnId,
      revision: (now ? now.revision : 0) + 1,
    });
    return this.after("casTurn", f, { ok: true, record: this.commitTurn(record) });
  }

  override async admitDispatch(r: AdmitRequest): Promise<AdmitOutcome> {
    const f = await this.before("admitDispatch");
    const refused = precheck(this, r);
    await this.step("non-atomic:gap");
    if (refused) return this.after("admitDispatch", f, refused);
    const out = mark(this, r);
    await this.invokeLaunch(r);
    return this.after("admitDispatch", f, out);
  }
}

/** Launches first and only then, after a round trip and without a lock, writes the mark. */
export class LaunchBeforeMarkStore extends BrokenBase {
  override async admitDispatch(r: AdmitRequest): Promise<AdmitOutcome> {
    const f = await this.before("admitDispatch");
    const refused = precheck(this, r);
    if (refused) return this.after("admitDispatch", f, refused);
    await this.invokeLaunch(r);
    await this.step("launch-before-mark:gap");
    if (f === "crash-after") return new Promise(() => {}); // died between launch and mark
    const again = precheck(this, r);
    if (again) return this.after("admitDispatch", f, again);
    return this.after("admitDispatch", f, mark(this, r));
  }
}

/** Under the locks, but calls launch before the mark and lets its throw roll the mark back. */
export class MarkLostOnLaunchThrowStore extends BrokenBase {
  protected override async admitLocked(r: AdmitRequest): Promise<AdmitOutcome> {
    const refused = precheck(this, r);
    if (refused) return refused;
    this.observe?.({ kind: "launch", tick: this.now, turnId: r.turnId, effectId: r.effectId });
    await r.launch(); // a throw escapes: the transaction rolls back, the mark is never written
    await this.step("admitDispatch:mark");
    return mark(this, r);
  }
}

/** The fence forgets to recheck current authority. */
export class NoAuthorityRecheckStore extends BrokenBase {
  protected override fenceAuthorized(): boolean {
    return true;
  }
}

/** Acknowledges a cancellation before it commits (the abort hook then runs first). */
export class AckBeforeCommitStore extends BrokenBase {
  override async casTurn(
    turnId: string,
    expectedRevision: number,
    next: TurnDraft,
    guard?: TurnGuard,
  ): Promise<TurnCasOutcome> {
    if (next.status !== "cancelled") return super.casTurn(turnId, expectedRevision, next, guard);
    const f = await this.before("casTurn");
    const cur = this.peekTurn(turnId);
    if ((cur ? cur.revision : 0) !== expectedRevision) {
      return this.after("casTurn", f, { ok: false, code: "conflict", current: cur });
    }
    // Replication lag: the commit becomes visible a few round trips later.
    let later: Promise<unknown> = Promise.resolve();
    for (let i = 0; i < 4; i++) later = later.then(() => this.pause?.("deferred-commit"));
    const record: TurnRecord = Object.freeze({
      ...next,
      turnId,
      effectIds: Object.freeze([...next.effectIds]),
      revision: expectedRevision + 1,
    });
    void later.then(() => this.commitTurn(record));
    return { ok: true, record };
  }
}

/**
 * Checks the turn status and authority outside its critical section (an
 * unlocked read, round trips), then marks and launches under the locks
 * without rechecking, so a cancel or revocation committed in between is missed.
 */
export class StatusOutsideFenceStore extends BrokenBase {
  override async admitDispatch(r: AdmitRequest): Promise<AdmitOutcome> {
    const refused = precheck(this, r);
    for (const step of ["read-ack", "lock"]) await this.step(`status-outside-fence:${step}`);
    if (refused) return refused;
    return this.locked("admitDispatch", this.lockKeys(r, ["turn", "grant", "effect"]), async () => {
      const cur = this.peekEffect(r.turnId, r.effectId);
      if (!cur || cur.state !== "claimed" || cur.revision !== r.claimRevision) {
        return { admitted: false, reason: "stale-claim" } as const;
      }
      await this.step("admitDispatch:mark");
      const record: EffectRecord = Object.freeze({
        ...cur,
        state: "admitted" as const,
        revision: cur.revision + 1,
      });
      await this.invokeLaunch(r);
      return { admitted: true, record: this.commitEffect(record, "admit") } as const;
    });
  }
}

/** Treats a lost admission acknowledgement as a failed transaction and retries it, relaunching. */
export class BlindRelaunchStore extends BrokenBase {
  override async admitDispatch(r: AdmitRequest): Promise<AdmitOutcome> {
    const f = this.faultFor("admitDispatch");
    const quiet = new MemoryRecoveryStore({
      database: this.database,
      pause: this.pause,
      observe: this.observe,
    });
    const out = await quiet.admitDispatch(r);
    if (f === "ack-lost" && out.admitted) {
      // "The ack timed out, so the transaction must have failed": retry it.
      await this.invokeLaunch(r);
      return out;
    }
    return this.after("admitDispatch", f, out);
  }
}

/** Commits and releases its locks, THEN launches (outside the fence). */
export class LaunchAfterFenceReleasedStore extends BrokenBase {
  override async admitDispatch(r: AdmitRequest): Promise<AdmitOutcome> {
    const out = await super.admitDispatch({ ...r, launch: () => {} });
    if (out.admitted) await this.invokeLaunch(r);
    return out;
  }
}

/** The fence locks the effect row (and the grant) but not the turn: cancellation does not wait for it. */
export class CancelNotFencedStore extends BrokenBase {
  override admitDispatch(r: AdmitRequest): Promise<AdmitOutcome> {
    return this.admitWith(r, ["grant", "effect"]);
  }
}

/** Locks in a table private to this adapter instance (an in-process mutex): other instances pass. */
export class PerInstanceLockStore extends BrokenBase {
  readonly #mine = new LockTable();
  protected override lockTable(): LockTable {
    return this.#mine;
  }
}

/** Acknowledges writes from an instance-local cache that is never written to the database. */
export class AckNotPersistedStore extends BrokenBase {
  readonly #turns = new Map<string, TurnRecord>();
  readonly #effects = new Map<string, EffectRecord>();
  override peekTurn(turnId: string): TurnRecord | null {
    return this.#turns.get(turnId) ?? super.peekTurn(turnId);
  }
  override peekEffect(turnId: string, effectId: string): EffectRecord | null {
    return this.#effects.get(effectKey(turnId, effectId)) ?? super.peekEffect(turnId, effectId);
  }
  protected override commitTurn(record: TurnRecord): TurnRecord {
    this.#turns.set(record.turnId, record);
    return record;
  }
  protected override commitEffect(record: EffectRecord): EffectRecord {
    this.#effects.set(effectKey(record.turnId, record.effectId), record);
    return record;
  }
}

/** Checks the grant before the transaction, then trusts that check under the lock (authority checked before the fence). */
export class AuthorityBeforeFenceStore extends BrokenBase {
  override async admitDispatch(r: AdmitRequest): Promise<AdmitOutcome> {
    if (!this.isAuthorized(r.principal, r.turnId)) {
      return { admitted: false, reason: "unauthorized" };
    }
    await this.step("authority-before-fence:ack");
    return this.admitWith(r, ["turn", "effect"]);
  }
  protected override fenceAuthorized(): boolean {
    return true; // "already checked"
  }
}

/** Reads the grant inside the transaction but without locking it: a revocation commits between check and write. */
export class RevocationBetweenCheckAndWriteStore extends BrokenBase {
  override admitDispatch(r: AdmitRequest): Promise<AdmitOutcome> {
    return this.admitWith(r, ["turn", "effect"]);
  }
}

/** Conflicts without the current record (callers must re-read: an extra round trip, a stale view). */
export class ConflictWithoutCurrentStore extends BrokenBase {
  override async casTurn(...a: Parameters<MemoryRecoveryStore["casTurn"]>) {
    const r = await super.casTurn(...a);
    return r.ok || r.code !== "conflict"
      ? r
      : { ok: false as const, code: "conflict" as const, current: null };
  }
  override async casEffect(...a: Parameters<MemoryRecoveryStore["casEffect"]>) {
    const r = await super.casEffect(...a);
    return r.ok ? r : { ok: false as const, code: "conflict" as const, current: null };
  }
}

/** Writes `not-run` blindly (UPDATE … SET state = 'not-run' with no revision check). */
export class BlindNotRunStore extends BrokenBase {
  override casEffect(
    t: string,
    e: string,
    expected: number,
    next: EffectDraft,
  ): Promise<CasOutcome<EffectRecord>> {
    const cur = this.peekEffect(t, e);
    return super.casEffect(t, e, next.state === "not-run" && cur ? cur.revision : expected, next);
  }
}

/** The fence refuses only a cancelled turn (status <> 'cancelled' instead of = 'running'). */
export class OnlyCancelledRefusedStore extends BrokenBase {
  protected override admitLocked(r: AdmitRequest): AdmitOutcome | Promise<AdmitOutcome> {
    const turn = this.peekTurn(r.turnId);
    if (!turn) return { admitted: false, reason: "unknown-turn" };
    if (!this.fenceAuthorized(r.principal, r.turnId, "user")) {
      return { admitted: false, reason: "unauthorized" };
    }
    if (turn.status === "cancelled") {
      return { admitted: false, reason: "turn-not-running", status: turn.status };
    }
    const cur = this.peekEffect(r.turnId, r.effectId);
    if (!cur || cur.state !== "claimed" || cur.revision !== r.claimRevision) {
      return { admitted: false, reason: "stale-claim" };
    }
    const held = this.invokeLaunch(r);
    return held ? held.then(() => mark(this, r)) : mark(this, r);
  }
}

/** The fence caches a positive user grant per adapter instance ("grants rarely change"). */
export class GrantCacheStore extends BrokenBase {
  readonly #granted = new Set<string>();
  protected override fenceAuthorized(principal: string, turnId: string, actor: ActorKind): boolean {
    const key = `${actor}|${principal}`;
    if (this.#granted.has(key)) return true;
    const ok = super.fenceAuthorized(principal, turnId, actor);
    if (ok) this.#granted.add(key);
    return ok;
  }
}

/** A state-machine CHECK that refuses admitted → admitted: every lease renewal conflicts. */
export class NoRenewalStore extends BrokenBase {
  override casEffect(
    t: string,
    e: string,
    expected: number,
    next: EffectDraft,
  ): Promise<CasOutcome<EffectRecord>> {
    const cur = this.peekEffect(t, e);
    if (cur?.state === "admitted" && next.state === "admitted") {
      return Promise.resolve({ ok: false, code: "conflict", current: cur });
    }
    return super.casEffect(t, e, expected, next);
  }
}

/** The effect UPDATE's column list leaves out claim_token while answering RETURNING *: a takeover keeps the old owner's token. */
export class ClaimTokenNotWrittenStore extends BrokenBase {
  override casEffect(
    t: string,
    e: string,
    expected: number,
    next: EffectDraft,
  ): Promise<CasOutcome<EffectRecord>> {
    const cur = this.peekEffect(t, e);
    return super.casEffect(t, e, expected, cur ? { ...next, claimToken: cur.claimToken } : next);
  }
}

/** A lease renewal keyed on state = 'admitted' instead of the revision (UPDATE … WHERE state = 'admitted'). */
export class RenewalKeyedOnStateStore extends BrokenBase {
  override casEffect(
    t: string,
    e: string,
    expected: number,
    next: EffectDraft,
  ): Promise<CasOutcome<EffectRecord>> {
    const cur = this.peekEffect(t, e);
    const renewal = cur?.state === "admitted" && next.state === "admitted";
    return super.casEffect(t, e, renewal ? cur.revision : expected, next);
  }
}

/** A guarded cancel that checks the grant (unlocked) before taking the turn lock, then trusts it. */
export class GuardBeforeTurnLockStore extends BrokenBase {
  override async casTurn(
    turnId: string,
    expectedRevision: number,
    next: TurnDraft,
    guard?: TurnGuard,
  ): Promise<TurnCasOutcome> {
    if (guard === undefined) return super.casTurn(turnId, expectedRevision, next);
    if (!this.isAuthorized(guard.principal, turnId, guard.actor)) {
      return { ok: false, code: "unauthorized" };
    }
    await this.step("guard-before-turn-lock:ack");
    return super.casTurn(turnId, expectedRevision, next); // "already checked"
  }
}

/** The fence ignores AdmitRequest.leaseUntil: the mark keeps the claim's (maybe ended) lease. */
export class IgnoresAdmitLeaseStore extends BrokenBase {
  override admitDispatch(r: AdmitRequest): Promise<AdmitOutcome> {
    const { leaseUntil: _ignored, ...rest } = r;
    return super.admitDispatch(rest);
  }
}

export type Variant =
  | "reference"
  | "non-atomic-cas"
  | "launch-before-mark"
  | "mark-lost-on-launch-throw"
  | "no-authority-recheck"
  | "abort-before-cancel-commit"
  | "blind-relaunch"
  | "status-outside-fence"
  | "launch-after-fence-released"
  | "cancel-not-fenced"
  | "per-instance-lock"
  | "ack-not-persisted"
  | "authority-before-fence"
  | "revocation-between-check-and-write"
  | "conflict-without-current"
  | "blind-not-run"
  | "only-cancelled-refused"
  | "grant-cache"
  | "no-renewal"
  | "claim-token-not-written"
  | "renewal-keyed-on-state"
  | "guard-before-turn-lock"
  | "ignores-admit-lease";

export type BrokenVariant = Exclude<Variant, "reference">;

/** The variants the fc.scheduler interleaving suite (one shared instance) must catch. */
export type InterleavingVariant =
  | "non-atomic-cas"
  | "launch-before-mark"
  | "no-authority-recheck"
  | "abort-before-cancel-commit"
  | "blind-relaunch"
  | "status-outside-fence";

/** The variants the fc.scheduler interleaving suite (one shared instance) must catch. */
export const INTERLEAVING_VARIANTS: readonly InterleavingVariant[] = [
  "non-atomic-cas",
  "launch-before-mark",
  "no-authority-recheck",
  "abort-before-cancel-commit",
  "blind-relaunch",
  "status-outside-fence",
];

/** Every planted bug the conformance kit must name on every run. */
export const BROKEN_VARIANTS: readonly BrokenVariant[] = [
  ...INTERLEAVING_VARIANTS,
  "mark-lost-on-launch-throw",
  "launch-after-fence-released",
  "cancel-not-fenced",
  "per-instance-lock",
  "ack-not-persisted",
  "authority-before-fence",
  "revocation-between-check-and-write",
  "conflict-without-current",
  "blind-not-run",
  "only-cancelled-refused",
  "grant-cache",
  "no-renewal",
  "claim-token-not-written",
  "renewal-keyed-on-state",
  "guard-before-turn-lock",
  "ignores-admit-lease",
];

export function makeStore(variant: Variant, options: MemoryStoreOptions): MemoryRecoveryStore {
  switch (variant) {
    case "reference":
      return new MemoryRecoveryStore(options);
    case "non-atomic-cas":
      return new NonAtomicCasStore(options);
    case "launch-before-mark":
      return new LaunchBeforeMarkStore(options);
    case "mark-lost-on-launch-throw":
      return new MarkLostOnLaunchThrowStore(options);
    case "no-authority-recheck":
      return new NoAuthorityRecheckStore(options);
    case "abort-before-cancel-commit":
      return new AckBeforeCommitStore(options);
    case "blind-relaunch":
      return new BlindRelaunchStore(options);
    case "status-outside-fence":
      return new StatusOutsideFenceStore(options);
    case "launch-after-fence-released":
      return new LaunchAfterFenceReleasedStore(options);
    case "cancel-not-fenced":
      return new CancelNotFencedStore(options);
    case "per-instance-lock":
      return new PerInstanceLockStore(options);
    case "ack-not-persisted":
      return new AckNotPersistedStore(options);
    case "authority-before-fence":
      return new AuthorityBeforeFenceStore(options);
    case "revocation-between-check-and-write":
      return new RevocationBetweenCheckAndWriteStore(options);
    case "conflict-without-current":
      return new ConflictWithoutCurrentStore(options);
    case "blind-not-run":
      return new BlindNotRunStore(options);
    case "only-cancelled-refused":
      return new OnlyCancelledRefusedStore(options);
    case "grant-cache":
      return new GrantCacheStore(options);
    case "no-renewal":
      return new NoRenewalStore(options);
    case "claim-token-not-written":
      return new ClaimTokenNotWrittenStore(options);
    case "renewal-keyed-on-state":
      return new RenewalKeyedOnStateStore(options);
    case "guard-before-turn-lock":
      return new GuardBeforeTurnLockStore(options);
    case "ignores-admit-lease":
      return new IgnoresAdmitLeaseStore(options);
  }
}
