/**
 * The in-memory reference store ("fake database") for `./recovery`: the
 * contracts of {@link RecoveryStore} kept in one JavaScript heap, shared by
 * any number of {@link TurnRecovery} instances, with fault injection.
 *
 * Atomicity: JavaScript runs one task at a time, so every CAS and the whole
 * admission fence are synchronous critical sections: check and write happen
 * with no `await` between them. The optional `pause` hook only adds await
 * points before the critical section (request in flight) and after it
 * (acknowledgement in flight), which is where real networks lose
 * acknowledgements and processes crash.
 *
 * Evidence for this tree only: a host's production durability across
 * restarts needs its own persistent adapter run through the conformance kit.
 *
 * @module
 */
import type {
  AdmitOutcome,
  AdmitRequest,
  AuthoritySeam,
  CasOutcome,
  EffectDraft,
  EffectRecord,
  RecoveryStore,
  TurnDraft,
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
  }
  | { readonly kind: "fault"; readonly op: StoreOp; readonly fault: StoreFault };

/** Options of {@link MemoryRecoveryStore}. */
export interface MemoryStoreOptions {
  /** Chooses a fault per call (default: always `none`). */
  readonly fault?: (op: StoreOp) => StoreFault;
  /**
   * Awaited before and after each critical section (e.g. a `fc.scheduler()`
   * task, or a delay). Without it no call yields beyond its own promise.
   */
  readonly pause?: (label: string) => Promise<unknown>;
  /** Receives every {@link StoreEvent}. */
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

function never<T>(): Promise<T> {
  return new Promise<T>(() => {});
}

/**
 * The reference store. Also holds the authority grants (as a database would
 * hold ACL rows) so the admission fence can recheck them inside its critical
 * section; {@link MemoryRecoveryStore.authority} exposes them as an
 * {@link AuthoritySeam}. Records are frozen; revisions start at 1.
 */
export class MemoryRecoveryStore implements RecoveryStore {
  /** Turn records by turn id. */
  protected readonly turns: Map<string, TurnRecord> = new Map();
  /** Effect records by turn id, then effect id. */
  protected readonly effects: Map<string, Map<string, EffectRecord>> = new Map();
  /** Granted `principal \0 turnId` pairs. */
  protected readonly grants: Set<string> = new Set();
  /** Commit counter (logical time). */
  protected tick = 0;
  /** Fault chooser. */
  protected readonly faultFor: (op: StoreOp) => StoreFault;
  /** Optional await point. */
  protected readonly pause: ((label: string) => Promise<unknown>) | undefined;
  /** Optional observer. */
  protected readonly observe: ((event: StoreEvent) => void) | undefined;
  /** True without faults and pauses: calls skip the (no-op) request/ack steps. */
  protected readonly direct: boolean;

  /** Build an empty store. */
  constructor(options: MemoryStoreOptions = {}) {
    this.faultFor = options.fault ?? (() => "none");
    this.pause = options.pause;
    this.observe = options.observe;
    this.direct = options.fault === undefined && options.pause === undefined;
  }

  /** Logical time: number of commits so far. */
  get now(): number {
    return this.tick;
  }

  /** Grant `principal` authority over `turnId`. */
  grant(principal: string, turnId: string): void {
    this.grants.add(`${principal}\u0000${turnId}`);
  }

  /** Revoke `principal`'s authority over `turnId` (committed immediately). */
  revoke(principal: string, turnId: string): void {
    this.grants.delete(`${principal}\u0000${turnId}`);
    this.observe?.({ kind: "revoke", tick: ++this.tick, principal, turnId });
  }

  /** Current authority, read synchronously (used inside the fence). */
  isAuthorized(principal: string, turnId: string): boolean {
    return this.grants.has(`${principal}\u0000${turnId}`);
  }

  /** The grants as an {@link AuthoritySeam} (answers from current state at each call). */
  authority(): AuthoritySeam {
    return {
      check: async ({ principal, turnId }) => {
        if (this.direct) return this.isAuthorized(principal, turnId);
        const f = await this.before("authority");
        if (f === "crash-before" || f === "crash-after") return never();
        const answer = this.isAuthorized(principal, turnId);
        if (this.pause) await this.pause("authority:ack");
        return answer;
      },
    };
  }

  /** Synchronous read of a turn record (for tests and hosts' own lookups). */
  peekTurn(turnId: string): TurnRecord | null {
    return this.turns.get(turnId) ?? null;
  }

  /** Synchronous read of an effect record. */
  peekEffect(turnId: string, effectId: string): EffectRecord | null {
    return this.effects.get(turnId)?.get(effectId) ?? null;
  }

  /**
   * Force a turn's status (e.g. `interrupted` after a simulated restart),
   * as the host's own restart path would. Returns the new record or `null`.
   */
  setTurnStatus(turnId: string, status: TurnRecord["status"], reason?: string): TurnRecord | null {
    const t = this.turns.get(turnId);
    if (!t) return null;
    const next: TurnRecord = Object.freeze({ ...t, status, reason, revision: t.revision + 1 });
    this.turns.set(turnId, next);
    this.observe?.({ kind: "commit-turn", tick: ++this.tick, record: next });
    return next;
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

  /** Read a turn record (subject to injected faults and pauses). */
  async readTurn(turnId: string): Promise<TurnRecord | null> {
    if (this.direct) return this.peekTurn(turnId);
    const f = await this.before("readTurn");
    return this.after("readTurn", f, this.peekTurn(turnId));
  }

  /** Read an effect record (subject to injected faults and pauses). */
  async readEffect(turnId: string, effectId: string): Promise<EffectRecord | null> {
    if (this.direct) return this.peekEffect(turnId, effectId);
    const f = await this.before("readEffect");
    return this.after("readEffect", f, this.peekEffect(turnId, effectId));
  }

  /** The atomic turn CAS (synchronous critical section). */
  protected casTurnSync(
    turnId: string,
    expectedRevision: number,
    next: TurnDraft,
  ): CasOutcome<TurnRecord> {
    const cur = this.turns.get(turnId) ?? null;
    if ((cur ? cur.revision : 0) !== expectedRevision) {
      return { ok: false, code: "conflict", current: cur };
    }
    const record: TurnRecord = Object.freeze({
      ...next,
      turnId,
      effectIds: Object.freeze([...next.effectIds]),
      revision: expectedRevision + 1,
    });
    this.turns.set(turnId, record);
    this.observe?.({ kind: "commit-turn", tick: ++this.tick, record });
    return { ok: true, record };
  }

  /** The atomic effect CAS (synchronous critical section). */
  protected casEffectSync(
    turnId: string,
    effectId: string,
    expectedRevision: number,
    next: EffectDraft,
  ): CasOutcome<EffectRecord> {
    let byEffect = this.effects.get(turnId);
    const cur = byEffect?.get(effectId) ?? null;
    if ((cur ? cur.revision : 0) !== expectedRevision) {
      return { ok: false, code: "conflict", current: cur };
    }
    const record: EffectRecord = Object.freeze({
      ...next,
      turnId,
      effectId,
      revision: expectedRevision + 1,
    });
    if (!byEffect) {
      byEffect = new Map();
      this.effects.set(turnId, byEffect);
    }
    byEffect.set(effectId, record);
    this.observe?.({ kind: "commit-effect", tick: ++this.tick, record });
    return { ok: true, record };
  }

  /**
   * The admission fence (synchronous critical section): recheck authority,
   * turn `running`, claim revision; mark `admitted`; invoke launch once.
   */
  protected admitSync(request: AdmitRequest): AdmitOutcome {
    const turn = this.turns.get(request.turnId);
    if (!turn) return { admitted: false, reason: "unknown-turn" };
    if (!this.fenceAuthorized(request.principal, request.turnId)) {
      return { admitted: false, reason: "unauthorized", status: turn.status };
    }
    if (turn.status !== "running") {
      return { admitted: false, reason: "turn-not-running", status: turn.status };
    }
    const byEffect = this.effects.get(request.turnId);
    const cur = byEffect?.get(request.effectId);
    if (!byEffect || !cur || cur.state !== "claimed" || cur.revision !== request.claimRevision) {
      return { admitted: false, reason: "stale-claim", status: turn.status };
    }
    const record: EffectRecord = Object.freeze({
      ...cur,
      state: "admitted" as const,
      revision: cur.revision + 1,
    });
    byEffect.set(request.effectId, record);
    this.observe?.({ kind: "admit", tick: ++this.tick, record });
    this.invokeLaunch(request);
    return { admitted: true, record };
  }

  /** The authority recheck inside the fence (current grants, never a cached answer). */
  protected fenceAuthorized(principal: string, turnId: string): boolean {
    return this.isAuthorized(principal, turnId);
  }

  /** Invoke the launch callback; its exceptions do not undo the durable mark. */
  protected invokeLaunch(request: AdmitRequest): void {
    this.observe?.({
      kind: "launch",
      tick: this.tick,
      turnId: request.turnId,
      effectId: request.effectId,
    });
    try {
      request.launch();
    } catch {
      // The launched work owns its errors.
    }
  }

  /** Atomic CAS of the turn record (expected revision 0 = create). */
  async casTurn(
    turnId: string,
    expectedRevision: number,
    next: TurnDraft,
  ): Promise<CasOutcome<TurnRecord>> {
    if (this.direct) return this.casTurnSync(turnId, expectedRevision, next);
    const f = await this.before("casTurn");
    return this.after("casTurn", f, this.casTurnSync(turnId, expectedRevision, next));
  }

  /** Atomic CAS of an effect record (expected revision 0 = create). */
  async casEffect(
    turnId: string,
    effectId: string,
    expectedRevision: number,
    next: EffectDraft,
  ): Promise<CasOutcome<EffectRecord>> {
    if (this.direct) return this.casEffectSync(turnId, effectId, expectedRevision, next);
    const f = await this.before("casEffect");
    return this.after("casEffect", f, this.casEffectSync(turnId, effectId, expectedRevision, next));
  }

  /** The admission fence: see {@link RecoveryStore.admitDispatch}. */
  async admitDispatch(request: AdmitRequest): Promise<AdmitOutcome> {
    if (this.direct) return this.admitSync(request);
    const f = await this.before("admitDispatch");
    return this.after("admitDispatch", f, this.admitSync(request));
  }
}
