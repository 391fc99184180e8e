/**
 * The in-memory reference store ("fake database") for `./recovery`: the
 * contracts of {@link RecoveryStore} kept in one JavaScript heap, with
 * faults and latency injectable.
 *
 * {@link MemoryRecoveryDatabase} is the shared state (the "server": rows,
 * grants and row locks); each {@link MemoryRecoveryStore} is one adapter
 * instance over it (a "connection"). Any number of instances share one
 * database, like processes share Postgres, so the conformance kit can run
 * one adapter instance per simulated worker.
 *
 * Locking follows the rules on {@link RecoveryStore}: `casTurn` and
 * `admitDispatch` take the turn's lock; admission and guarded turn CAS hold
 * the caller's grant lock shared, and `grant`/`revoke` take it exclusive;
 * effect writes take the effect's lock. Keys are always taken in the order
 * turn, grant, effect. A write becomes visible (committed) only at the end
 * of its critical section, so a reader during a held admission sees the
 * effect as it was, as under MVCC.
 *
 * The optional `pause` hook is awaited at every step: before the call
 * (request in flight), at each statement inside the critical section (with
 * the locks held: a realistic round trip per statement) and after it
 * (acknowledgement in flight). Without `pause` and faults, uncontended calls
 * run their critical sections without awaiting anything.
 *
 * Evidence for this tree only: a host's production durability across
 * restarts needs its own persistent adapter run through the conformance kit.
 *
 * @module
 */
import { type LockRequest, LockTable } from "./lock_table.ts";
import type {
  ActorKind,
  AdmitOutcome,
  AdmitRequest,
  AuthoritySeam,
  CasOutcome,
  EffectDraft,
  EffectRecord,
  RecoveryStore,
  TurnCasOutcome,
  TurnDraft,
  TurnGuard,
  TurnRecord,
} from "./types.ts";

/** The store operations a fault can be injected into. */
export type StoreOp =
  | "readTurn"
  | "casTurn"
  | "readEffect"
  | "casEffect"
  | "admitDispatch"
  | "authority";

/**
 * A fault for one store call:
 * - `none`: normal;
 * - `fail`: rejects before the critical section (nothing written);
 * - `ack-lost`: commits, then rejects (the caller cannot tell it committed);
 * - `crash-before`: never settles, nothing written (the caller's process died);
 * - `crash-after`: commits, never settles.
 */
export type StoreFault = "none" | "fail" | "ack-lost" | "crash-before" | "crash-after";

/** What the store records about itself, for tests and the example. `tick` increases on every commit. */
export type StoreEvent =
  | { readonly kind: "commit-turn"; readonly tick: number; readonly record: TurnRecord }
  | { readonly kind: "commit-effect"; readonly tick: number; readonly record: EffectRecord }
  | { readonly kind: "admit"; readonly tick: number; readonly record: EffectRecord }
  | {
    readonly kind: "launch";
    readonly tick: number;
    readonly turnId: string;
    readonly effectId: string;
  }
  | {
    readonly kind: "revoke";
    readonly tick: number;
    readonly principal: string;
    readonly turnId: string;
    readonly actor: ActorKind;
  }
  | { readonly kind: "fault"; readonly op: StoreOp; readonly fault: StoreFault };

/** Options of {@link MemoryRecoveryStore}. */
export interface MemoryStoreOptions {
  /** The shared database this instance connects to (default: a new, private one). */
  readonly database?: MemoryRecoveryDatabase;
  /** Chooses a fault per call (default: always `none`). */
  readonly fault?: (op: StoreOp) => StoreFault;
  /**
   * Awaited before each call, at each statement of its critical section
   * (locks held) and before its acknowledgement, with a label such as
   * `admitDispatch:request`, `admitDispatch:mark` or `casTurn:ack` (e.g. a
   * `fc.scheduler()` task, or a delay standing for a network round trip).
   */
  readonly pause?: (label: string) => Promise<unknown>;
  /** Receives every {@link StoreEvent} of this instance's calls. */
  readonly observe?: (event: StoreEvent) => void;
}

/** Rejection used for an injected `fail`. */
export class StoreUnavailableError extends Error {
  /** Build with the failing operation's name. */
  constructor(op: string) {
    super(`store unavailable during ${op}`);
    this.name = "StoreUnavailableError";
  }
}

/** Rejection used for an injected `ack-lost`: the write DID commit. */
export class AckLostError extends Error {
  /** Build with the operation whose acknowledgement was lost. */
  constructor(op: string) {
    super(`acknowledgement of ${op} lost`);
    this.name = "AckLostError";
  }
}

const NO_FAULTS = (): StoreFault => "none";

function never<T>(): Promise<T> {
  return new Promise<T>(() => {});
}

const grantKey = (actor: ActorKind, principal: string, turnId: string) =>
  `${actor}\u0000${principal}\u0000${turnId}`;

/** Turn id a system grant uses to cover every turn. */
export const ALL_TURNS = "*";

/**
 * The shared state of the in-memory reference database: committed turn and
 * effect records, authority grants (as ACL rows) and the row lock table.
 * Records are frozen; revisions start at 1.
 */
export class MemoryRecoveryDatabase {
  /** Committed turn records by turn id. */
  readonly turns: Map<string, TurnRecord> = new Map();
  /** Committed effect records by turn id, then effect id. */
  readonly effects: Map<string, Map<string, EffectRecord>> = new Map();
  /** Granted `actor \0 principal \0 turnId` rows (`turnId` {@link ALL_TURNS} for a system-wide grant). */
  readonly grants: Set<string> = new Set();
  /** Row locks. */
  readonly locks: LockTable = new LockTable();
  /** Commit counter (logical time). */
  tick = 0;

  /** Current authority (an unlocked read of the grant rows). */
  isAuthorized(principal: string, turnId: string, actor: ActorKind = "user"): boolean {
    return this.grants.has(grantKey(actor, principal, turnId)) ||
      (actor === "system" && this.grants.has(grantKey(actor, principal, ALL_TURNS)));
  }

  /** The committed effect record, or `null`. */
  effect(turnId: string, effectId: string): EffectRecord | null {
    return this.effects.get(turnId)?.get(effectId) ?? null;
  }

  /** Store `record` as committed. */
  putEffect(record: EffectRecord): void {
    let byEffect = this.effects.get(record.turnId);
    if (!byEffect) {
      byEffect = new Map();
      this.effects.set(record.turnId, byEffect);
    }
    byEffect.set(record.effectId, record);
  }

  /** The lock requests a fence needs to read `principal`'s grant rows under its lock. */
  grantLocks(principal: string, turnId: string, actor: ActorKind): LockRequest[] {
    const locks: LockRequest[] = [{ key: ["grant", actor, principal, turnId], mode: "shared" }];
    if (actor === "system") {
      locks.push({ key: ["grant", actor, principal, ALL_TURNS], mode: "shared" });
    }
    return locks;
  }
}

/**
 * One adapter instance of the reference store over a (shared)
 * {@link MemoryRecoveryDatabase}. Also manages authority grants (the host's
 * ACL rows) so the fences recheck them under their locks;
 * {@link MemoryRecoveryStore.authority} exposes them as an
 * {@link AuthoritySeam}.
 */
export class MemoryRecoveryStore implements RecoveryStore {
  /** The shared database. */
  readonly database: MemoryRecoveryDatabase;
  /** Fault chooser. */
  protected readonly faultFor: (op: StoreOp) => StoreFault;
  /** Optional await point. */
  protected readonly pause: ((label: string) => Promise<unknown>) | undefined;
  /** Optional observer. */
  protected readonly observe: ((event: StoreEvent) => void) | undefined;

  /** Connect a new instance (to `options.database`, or to a new private database). */
  constructor(options: MemoryStoreOptions = {}) {
    this.database = options.database ?? new MemoryRecoveryDatabase();
    this.faultFor = options.fault ?? NO_FAULTS;
    this.pause = options.pause;
    this.observe = options.observe;
    this.#isDirect = this.pause === undefined && this.faultFor === NO_FAULTS;
  }

  readonly #isDirect: boolean;

  /** Logical time: number of commits so far. */
  get now(): number {
    return this.database.tick;
  }

  /**
   * Grant `principal` authority over `turnId` (`actor` `system`: a host
   * service identity; `turnId` {@link ALL_TURNS} grants every turn). Takes
   * the grant row's lock: applied at once when no fence holds it.
   */
  grant(principal: string, turnId: string, actor: ActorKind = "user"): Promise<void> {
    return this.#changeGrant(principal, turnId, actor, true);
  }

  /**
   * Revoke `principal`'s authority over `turnId`. Waits for fences that hold
   * the grant row (they read it under their locks), then commits; applied at
   * once when none does.
   */
  revoke(principal: string, turnId: string, actor: ActorKind = "user"): Promise<void> {
    return this.#changeGrant(principal, turnId, actor, false);
  }

  #changeGrant(
    principal: string,
    turnId: string,
    actor: ActorKind,
    add: boolean,
  ): Promise<void> {
    const key = grantKey(actor, principal, turnId);
    const apply = (release: () => void) => {
      try {
        if (add) this.database.grants.add(key);
        else {
          this.database.grants.delete(key);
          this.observe?.({
            kind: "revoke",
            tick: ++this.database.tick,
            principal,
            turnId,
            actor,
          });
        }
      } finally {
        release();
      }
    };
    const lock = this.lockTable().acquire([
      { key: ["grant", actor, principal, turnId], mode: "exclusive" },
    ]);
    if (typeof lock === "function") {
      apply(lock);
      return Promise.resolve();
    }
    return lock.then(apply);
  }

  /** Current authority, read without a lock. */
  isAuthorized(principal: string, turnId: string, actor: ActorKind = "user"): boolean {
    return this.database.isAuthorized(principal, turnId, actor);
  }

  /** The grants as an {@link AuthoritySeam} (answers from current state at each call). */
  authority(): AuthoritySeam {
    return {
      check: async ({ principal, turnId, actor }) => {
        const kind = actor === "system" ? "system" : "user";
        if (this.#direct) return this.isAuthorized(principal, turnId, kind);
        const f = await this.before("authority");
        if (f === "crash-before" || f === "crash-after") return never();
        const answer = this.isAuthorized(principal, turnId, kind);
        if (this.pause) await this.pause("authority:ack");
        return answer;
      },
    };
  }

  /** Synchronous read of a committed turn record (for tests and hosts' own lookups). */
  peekTurn(turnId: string): TurnRecord | null {
    return this.database.turns.get(turnId) ?? null;
  }

  /** Synchronous read of a committed effect record. */
  peekEffect(turnId: string, effectId: string): EffectRecord | null {
    return this.database.effect(turnId, effectId);
  }

  /**
   * Force a turn's status (e.g. `interrupted` after a simulated restart),
   * as the host's own restart path would; bypasses locks (test helper).
   * Returns the new record or `null`.
   */
  setTurnStatus(turnId: string, status: TurnRecord["status"], reason?: string): TurnRecord | null {
    const t = this.database.turns.get(turnId);
    if (!t) return null;
    const next: TurnRecord = Object.freeze({ ...t, status, reason, revision: t.revision + 1 });
    this.database.turns.set(turnId, next);
    this.observe?.({ kind: "commit-turn", tick: ++this.database.tick, record: next });
    return next;
  }

  get #direct(): boolean {
    return this.#isDirect;
  }

  /** Draw the fault for `op`, await the request pause, and throw/hang for pre-commit faults. */
  protected async before(op: StoreOp): Promise<StoreFault> {
    const f = this.faultFor(op);
    if (f !== "none") this.observe?.({ kind: "fault", op, fault: f });
    if (this.pause) await this.pause(`${op}:request`);
    if (f === "fail") throw new StoreUnavailableError(op);
    if (f === "crash-before") return never();
    return f;
  }

  /** Await the acknowledgement pause, then deliver, lose or hang. */
  protected async after<T>(op: StoreOp, f: StoreFault, value: T): Promise<T> {
    if (this.pause) await this.pause(`${op}:ack`);
    if (f === "ack-lost") throw new AckLostError(op);
    if (f === "crash-after") return never();
    return value;
  }

  /** The lock table this instance takes row locks in (the database's). */
  protected lockTable(): LockTable {
    return this.database.locks;
  }

  /** One statement inside a critical section (a round trip with the locks held). */
  protected step(label: string): Promise<unknown> | undefined {
    return this.pause?.(label);
  }

  /** `then()` after the statement `label` (at once, synchronously, without a pause). */
  protected at<T>(label: string, then: () => T | Promise<T>): T | Promise<T> {
    const p = this.step(label);
    return p ? p.then(then) : then();
  }

  /**
   * Run `body` holding `locks` (taken in order), through `before`/`after`.
   * The fast path (no pause, no fault, free locks, a synchronous body)
   * awaits nothing.
   */
  protected locked<T>(
    op: StoreOp,
    locks: readonly LockRequest[],
    body: () => T | Promise<T>,
  ): Promise<T> {
    if (this.#direct) {
      const lock = this.lockTable().acquire(locks);
      if (typeof lock === "function") {
        let out: T | Promise<T>;
        try {
          out = body();
        } catch (e) {
          lock();
          return Promise.reject(e);
        }
        if (!(out instanceof Promise)) {
          lock();
          return Promise.resolve(out);
        }
        return out.finally(lock);
      }
    }
    return this.#lockedSlow(op, locks, body);
  }

  async #lockedSlow<T>(
    op: StoreOp,
    locks: readonly LockRequest[],
    body: () => T | Promise<T>,
  ): Promise<T> {
    const f = this.#direct ? "none" : await this.before(op);
    const lock = this.lockTable().acquire(locks);
    const release = typeof lock === "function" ? lock : await lock;
    let value: T;
    try {
      value = await body();
    } finally {
      release();
    }
    return f === "none" && this.pause === undefined ? value : this.after(op, f, value);
  }

  /** Read a committed turn record (subject to injected faults and pauses). */
  async readTurn(turnId: string): Promise<TurnRecord | null> {
    if (this.#direct) return this.peekTurn(turnId);
    const f = await this.before("readTurn");
    return this.after("readTurn", f, this.peekTurn(turnId));
  }

  /** Read a committed effect record (subject to injected faults and pauses). */
  async readEffect(turnId: string, effectId: string): Promise<EffectRecord | null> {
    if (this.#direct) return this.peekEffect(turnId, effectId);
    const f = await this.before("readEffect");
    return this.after("readEffect", f, this.peekEffect(turnId, effectId));
  }

  /** Commit a turn record (the write of a critical section). */
  protected commitTurn(record: TurnRecord): TurnRecord {
    this.database.turns.set(record.turnId, record);
    this.observe?.({ kind: "commit-turn", tick: ++this.database.tick, record });
    return record;
  }

  /** Commit an effect record (the write of a critical section). */
  protected commitEffect(record: EffectRecord, kind: "commit-effect" | "admit"): EffectRecord {
    this.database.putEffect(record);
    this.observe?.({ kind, tick: ++this.database.tick, record });
    return record;
  }

  /** Atomic CAS of the turn record (expected revision 0 = create), guard rechecked under the lock. */
  casTurn(
    turnId: string,
    expectedRevision: number,
    next: TurnDraft,
    guard?: TurnGuard,
  ): Promise<TurnCasOutcome> {
    const locks: LockRequest[] = [{ key: ["turn", turnId], mode: "exclusive" }];
    if (guard) locks.push(...this.database.grantLocks(guard.principal, turnId, guard.actor));
    return this.locked(
      "casTurn",
      locks,
      () =>
        this.at("casTurn:read", (): TurnCasOutcome | Promise<TurnCasOutcome> => {
          const cur = this.peekTurn(turnId);
          if (guard && !this.fenceAuthorized(guard.principal, turnId, guard.actor)) {
            return { ok: false, code: "unauthorized" };
          }
          if ((cur ? cur.revision : 0) !== expectedRevision) {
            return { ok: false, code: "conflict", current: cur };
          }
          return this.at("casTurn:write", () => {
            const record: TurnRecord = Object.freeze({
              ...next,
              turnId,
              effectIds: Object.freeze([...next.effectIds]),
              revision: expectedRevision + 1,
            });
            return { ok: true, record: this.commitTurn(record) } as const;
          });
        }),
    );
  }

  /** Atomic CAS of an effect record (expected revision 0 = create). */
  casEffect(
    turnId: string,
    effectId: string,
    expectedRevision: number,
    next: EffectDraft,
  ): Promise<CasOutcome<EffectRecord>> {
    const locks: LockRequest[] = [{ key: ["effect", turnId, effectId], mode: "exclusive" }];
    return this.locked("casEffect", locks, () =>
      this.at(
        "casEffect:read",
        (): CasOutcome<EffectRecord> | Promise<CasOutcome<EffectRecord>> => {
          const cur = this.peekEffect(turnId, effectId);
          if ((cur ? cur.revision : 0) !== expectedRevision) {
            return { ok: false, code: "conflict", current: cur };
          }
          return this.at("casEffect:write", () => {
            const record: EffectRecord = Object.freeze({
              ...next,
              turnId,
              effectId,
              revision: expectedRevision + 1,
            });
            return { ok: true, record: this.commitEffect(record, "commit-effect") } as const;
          });
        },
      ));
  }

  /**
   * The admission fence: one critical section holding the turn lock, the
   * principal's grant (shared) and the effect lock. Recheck authority, turn
   * `running`, claim revision; write the mark; invoke and await launch;
   * commit. See {@link RecoveryStore.admitDispatch}.
   */
  admitDispatch(request: AdmitRequest): Promise<AdmitOutcome> {
    const { turnId, effectId, principal } = request;
    const locks: LockRequest[] = [
      { key: ["turn", turnId], mode: "exclusive" },
      ...this.database.grantLocks(principal, turnId, "user"),
      { key: ["effect", turnId, effectId], mode: "exclusive" },
    ];
    return this.locked("admitDispatch", locks, () => this.admitLocked(request));
  }

  /** The body of the admission fence, with its locks held (synchronous without pauses). */
  protected admitLocked(request: AdmitRequest): AdmitOutcome | Promise<AdmitOutcome> {
    return this.at("admitDispatch:lock", (): AdmitOutcome | Promise<AdmitOutcome> => {
      const turn = this.peekTurn(request.turnId);
      if (!turn) return { admitted: false, reason: "unknown-turn" };
      return this.at("admitDispatch:authority", (): AdmitOutcome | Promise<AdmitOutcome> => {
        if (!this.fenceAuthorized(request.principal, request.turnId, "user")) {
          return { admitted: false, reason: "unauthorized", status: turn.status };
        }
        if (turn.status !== "running") {
          return { admitted: false, reason: "turn-not-running", status: turn.status };
        }
        const cur = this.peekEffect(request.turnId, request.effectId);
        if (!cur || cur.state !== "claimed" || cur.revision !== request.claimRevision) {
          return { admitted: false, reason: "stale-claim", status: turn.status };
        }
        return this.at("admitDispatch:mark", () => {
          const record: EffectRecord = Object.freeze({
            ...cur,
            state: "admitted" as const,
            revision: cur.revision + 1,
            ...freshLease(request),
          });
          const commit = () =>
            this.at("admitDispatch:commit", (): AdmitOutcome => ({
              admitted: true,
              record: this.commitEffect(record, "admit"),
            }));
          const held = this.invokeLaunch(request);
          return held ? held.then(commit) : commit();
        });
      });
    });
  }

  /** The authority recheck inside a fence (current grants, never a cached answer). */
  protected fenceAuthorized(principal: string, turnId: string, actor: ActorKind): boolean {
    return this.isAuthorized(principal, turnId, actor);
  }

  /**
   * Invoke the launch callback once; a promise it returns is awaited (the
   * returned promise settles after it). Its errors do not undo the mark (the
   * launch may have started something).
   */
  protected invokeLaunch(request: AdmitRequest): Promise<void> | undefined {
    this.observe?.({
      kind: "launch",
      tick: this.database.tick,
      turnId: request.turnId,
      effectId: request.effectId,
    });
    let held: unknown;
    try {
      held = request.launch();
    } catch {
      return undefined; // The launched work owns its errors; the mark stands.
    }
    if (typeof (held as PromiseLike<void> | undefined)?.then !== "function") return undefined;
    return Promise.resolve(held).then(() => {}, () => {});
  }
}

/** `{ leaseUntil }` from an admission request that carries a finite one (else nothing: keep the claim's). */
function freshLease(request: AdmitRequest): { leaseUntil?: number } {
  const until = request.leaseUntil;
  return typeof until === "number" && Number.isFinite(until) ? { leaseUntil: until } : {};
}
