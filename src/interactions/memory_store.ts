/**
 * The reference {@link InteractionStore}: an in-memory "fake database" that
 * honours the fence and the locking rules written on `InteractionStore`.
 *
 * {@link MemoryInteractionDatabase} is the shared state (rows and outbox as
 * JSON text, revocations, system grants, the store clock and row locks);
 * each {@link MemoryInteractionStore} is one adapter instance over it (a
 * "connection"), so any number of resolver instances behave like workers
 * talking to one database. `transact` holds the row's lock and the authority
 * rows (shared) for its whole critical section; `revoke` and system-grant
 * changes take the authority rows exclusively, so they wait for transactions
 * that read them. No object is shared with callers.
 *
 * It is for tests, examples and as an executable specification; it is not
 * durable across process restarts.
 *
 * @module
 */
import { type LockRequest, LockTable } from "../recovery/lock_table.ts";
import { err, ok, type Result } from "../result.ts";
import { InteractionArgumentError } from "./errors.ts";
import { evaluateFence, isSystemCaller, nextRecordProblem, sameAuthority } from "./fence.ts";
import type {
  AlreadyExistsRefusal,
  FenceRefusal,
  InteractionAuthority,
  InteractionCaller,
  InteractionRecordV1,
  InteractionStore,
  StoreRead,
  SystemAuthority,
  TransactCallback,
  TransactCommit,
  TransactDecision,
  TransactRequest,
  WorkflowTransition,
} from "./types.ts";

/** A settable clock (epoch ms) shared by a store and the resolvers in a test. */
export class FakeClock {
  #now: number;
  /** Start at `start` epoch ms (default 1_700_000_000_000). */
  constructor(start = 1_700_000_000_000) {
    this.#now = start;
  }
  /** Current time, epoch ms. */
  now(): number {
    return this.#now;
  }
  /** Move forward by `ms` milliseconds (negative values are ignored: time never goes back). */
  advance(ms: number): void {
    if (Number.isFinite(ms) && ms > 0) this.#now += ms;
  }
}

/** The error a {@link MemoryInteractionStore} rejects with for an injected fault. */
export class InjectedFaultError extends Error {
  /** `lost-ack`: committed, acknowledgement lost; `failed-commit`: nothing written. */
  readonly fault: "lost-ack" | "failed-commit" | "failed-read";
  /** Build the error for `fault`. */
  constructor(fault: "lost-ack" | "failed-commit" | "failed-read") {
    super(`injected fault: ${fault}`);
    this.name = "InjectedFaultError";
    this.fault = fault;
  }
}

/** The lock every transaction holds shared and every authority change exclusive. */
const AUTHORITY_ROWS: LockRequest = { key: ["authority"], mode: "shared" };

/**
 * The shared state of the in-memory reference database. Its clock (epoch ms)
 * is the store clock every instance uses; it never goes backwards: a reading
 * earlier than one already used (or not finite) is replaced by the latest
 * time used, so a card that read as expired stays expired after a step back.
 */
export class MemoryInteractionDatabase {
  /** Rows as JSON text, by interaction id. */
  readonly rows: Map<string, string> = new Map();
  /** Outbox entries (workflow transitions) as JSON text, in commit order. */
  readonly outbox: string[] = [];
  /** Revocations (each matches every bound authority equal on its fields). */
  readonly revoked: Partial<InteractionAuthority>[] = [];
  /** System grants, `actorId \0 tenantId`. */
  readonly systemGrants: Set<string> = new Set();
  /** Row locks. */
  readonly locks: LockTable = new LockTable();
  readonly #clock: () => number;
  #last = Number.NEGATIVE_INFINITY;

  /** Build an empty database over `clock` (default `Date.now`). */
  constructor(clock: () => number = Date.now) {
    this.#clock = clock;
  }

  /** Store clock, epoch ms; never earlier than a time it returned before. */
  now(): number {
    const t = this.#clock();
    if (Number.isFinite(t) && t > this.#last) this.#last = t;
    return this.#last;
  }

  /** `true` unless a revocation matches `authority`. */
  isAuthorized(authority: InteractionAuthority): boolean {
    return !this.revoked.some((m) =>
      (Object.keys(m) as (keyof InteractionAuthority)[]).every((k) => m[k] === authority[k])
    );
  }

  /** Whether `caller` is currently authorised for a record bound to `bound`. */
  authorizes(bound: InteractionAuthority, caller: InteractionCaller): boolean {
    if (isSystemCaller(caller)) {
      return this.systemGrants.has(`${caller.actorId}\u0000${bound.tenantId}`);
    }
    return this.isAuthorized(bound);
  }
}

/** Options of {@link MemoryInteractionStore}. */
export interface MemoryInteractionStoreOptions {
  /** The shared database this instance connects to (default: a new one over `now`). */
  readonly database?: MemoryInteractionDatabase;
  /**
   * Store clock of a new database, epoch ms (default `Date.now`); ignored
   * when `database` is given. Expiry is judged by it.
   */
  readonly now?: () => number;
  /**
   * Simulated network latency: awaited before the critical section, at each
   * statement inside it (locks held) and before the acknowledgement
   * (default: one resolved promise before and after). Tests pass a
   * scheduler-controlled pause to explore interleavings.
   */
  readonly pause?: () => Promise<void>;
}

/** Counters a test can read (a spy on the store's traffic). */
export interface MemoryInteractionStoreStats {
  /** `read` calls. */
  reads: number;
  /** `transact` calls. */
  transacts: number;
  /** Callback invocations. */
  callbacks: number;
  /** Committed writes (records replaced). */
  writes: number;
  /** `create` calls. */
  creates: number;
}

/**
 * One adapter instance of the reference store over a (shared)
 * {@link MemoryInteractionDatabase}. Authority revocation, system grants, a
 * clock and faults (lost acknowledgement after commit, failed commit, failed
 * read; per instance) are injectable.
 *
 * @example
 * ```ts
 * import { FakeClock, MemoryInteractionStore } from "@papercusp/chat-protocol/interactions";
 * const clock = new FakeClock();
 * const store = new MemoryInteractionStore({ now: () => clock.now() });
 * store.loseNextAck(); // the next transact commits, then rejects
 * ```
 */
export class MemoryInteractionStore implements InteractionStore {
  /** The shared database. */
  readonly database: MemoryInteractionDatabase;
  readonly #pause: (() => Promise<void>) | undefined;
  #faults = { lostAcks: 0, failedCommits: 0, failedReads: 0 };
  /** Traffic counters of this instance. */
  readonly stats: MemoryInteractionStoreStats = {
    reads: 0,
    transacts: 0,
    callbacks: 0,
    writes: 0,
    creates: 0,
  };

  /** Connect an instance (to `options.database`, or to a new database). */
  constructor(options: MemoryInteractionStoreOptions = {}) {
    this.database = options.database ?? new MemoryInteractionDatabase(options.now);
    this.#pause = options.pause;
  }

  /** Store clock, epoch ms (the database's); never earlier than a time it returned before. */
  now(): number {
    return this.database.now();
  }

  /**
   * Revoke every bound authority matching all given fields (e.g.
   * `{ principalId: "u1" }` or `{ tenantId: "t1" }`). Waits for transactions
   * that read the authority rows, then takes effect for every later fence or
   * read, in every worker; applied at once when none holds them.
   */
  revoke(match: Partial<InteractionAuthority>): Promise<void> {
    const copy = { ...match };
    return this.#authorityChange(() => void this.database.revoked.push(copy));
  }

  /** Grant the host identity `actorId` system authority (cancel, expire) in `tenantId`. */
  grantSystem(actor: Pick<SystemAuthority, "actorId" | "tenantId">): Promise<void> {
    const key = `${actor.actorId}\u0000${actor.tenantId}`;
    return this.#authorityChange(() => void this.database.systemGrants.add(key));
  }

  /** Withdraw a system grant (waits like {@link MemoryInteractionStore.revoke}). */
  revokeSystem(actor: Pick<SystemAuthority, "actorId" | "tenantId">): Promise<void> {
    const key = `${actor.actorId}\u0000${actor.tenantId}`;
    return this.#authorityChange(() => void this.database.systemGrants.delete(key));
  }

  #authorityChange(apply: () => void): Promise<void> {
    const lock = this.lockTable().acquire([{ key: AUTHORITY_ROWS.key, mode: "exclusive" }]);
    const run = (release: () => void) => {
      try {
        apply();
      } finally {
        release();
      }
    };
    if (typeof lock === "function") {
      run(lock);
      return Promise.resolve();
    }
    return lock.then(run);
  }

  /** `true` unless a revocation matches `authority`. */
  isAuthorized(authority: InteractionAuthority): boolean {
    return this.database.isAuthorized(authority);
  }

  /**
   * The next `n` transacts run (commit or fence refusal) but their answer is
   * lost: they reject with a `lost-ack` {@link InjectedFaultError}.
   */
  loseNextAck(n = 1): void {
    this.#faults.lostAcks += n;
  }
  /** The next `n` transacts reject with `failed-commit` without writing. */
  failNextCommit(n = 1): void {
    this.#faults.failedCommits += n;
  }
  /** The next `n` reads reject with `failed-read`. */
  failNextRead(n = 1): void {
    this.#faults.failedReads += n;
  }

  /** The stored record (a fresh copy), bypassing authority. For tests and operators. */
  peek(id: string): InteractionRecordV1 | undefined {
    const row = this.database.rows.get(id);
    return row === undefined ? undefined : JSON.parse(row);
  }

  /** Stored workflow transitions (fresh copies), optionally for one interaction. */
  transitions(interactionId?: string): WorkflowTransition[] {
    const all: WorkflowTransition[] = this.database.outbox.map((t) => JSON.parse(t));
    return interactionId === undefined ? all : all.filter((t) => t.interactionId === interactionId);
  }

  /** The lock table this instance takes row locks in (the database's). */
  protected lockTable(): LockTable {
    return this.database.locks;
  }

  /** One simulated round trip (default: one resolved promise). */
  protected pause(): Promise<void> {
    return this.#pause ? this.#pause() : Promise.resolve();
  }

  /** A statement inside a critical section (a round trip only when a pause is configured). */
  protected step(): Promise<void> | undefined {
    return this.#pause?.();
  }

  /** Insert iff absent. */
  async create(
    record: InteractionRecordV1,
  ): Promise<Result<InteractionRecordV1, AlreadyExistsRefusal>> {
    this.stats.creates++;
    await this.pause();
    const text = JSON.stringify(record);
    if (this.database.rows.has(record.id)) {
      return err({ code: "already-exists", message: `interaction ${record.id} already exists` });
    }
    this.commitRow(record.id, text, null);
    await this.pause();
    return ok(JSON.parse(text));
  }

  /** Read with the authority recheck. Never writes. */
  async read(id: string, caller: InteractionCaller): Promise<StoreRead> {
    this.stats.reads++;
    await this.pause();
    if (this.#faults.failedReads > 0) {
      this.#faults.failedReads--;
      throw new InjectedFaultError("failed-read");
    }
    const record = this.readRow(id);
    if (record === undefined) return { ok: false, code: "not-found" };
    const allowed = isSystemCaller(caller)
      ? this.database.authorizes(record.authority, caller) &&
        caller.tenantId === record.authority.tenantId
      : this.database.authorizes(record.authority, caller) &&
        sameAuthority(record.authority, caller);
    if (!allowed) return { ok: false, code: "unauthorized" };
    return { ok: true, record, now: this.now() };
  }

  /** The committed row `id`, parsed (a fresh copy), or `undefined`. */
  protected readRow(id: string): InteractionRecordV1 | undefined {
    const row = this.database.rows.get(id);
    return row === undefined ? undefined : JSON.parse(row);
  }

  /** Commit a row and (with it, atomically) its transition. */
  protected commitRow(id: string, text: string, transitionText: string | null): void {
    this.database.rows.set(id, text);
    if (transitionText !== null) this.database.outbox.push(transitionText);
  }

  /**
   * The fenced transaction: latency, then ONE critical section holding the
   * row lock and the authority rows (read current row, {@link evaluateFence},
   * callback once and awaited, validate and write `next` + transition
   * together), then latency and the acknowledgement. Rejects with an
   * {@link InteractionArgumentError} when the callback returns an invalid
   * `next` record (`invalid-next-record`) or another interaction's
   * transition (`foreign-transition`), and with what serializing threw for
   * a decision that cannot be serialized (a `BigInt`, a cycle, a throwing
   * getter); nothing is written then.
   */
  async transact<T>(
    request: TransactRequest,
    fn: TransactCallback<T>,
  ): Promise<Result<TransactCommit<T>, FenceRefusal>> {
    this.stats.transacts++;
    await this.pause();
    if (this.#faults.failedCommits > 0) {
      this.#faults.failedCommits--;
      throw new InjectedFaultError("failed-commit");
    }
    const lock = this.lockTable().acquire(this.transactLocks(request));
    const release = typeof lock === "function" ? lock : await lock;
    let outcome: Result<TransactCommit<T>, FenceRefusal>;
    try {
      outcome = await this.transactLocked(request, fn);
    } finally {
      release();
    }
    return this.#ack(outcome);
  }

  /** The locks a transaction holds: its row (exclusive), then the authority rows (shared). */
  protected transactLocks(request: TransactRequest): LockRequest[] {
    return [{ key: ["row", request.id], mode: "exclusive" }, AUTHORITY_ROWS];
  }

  /** Whether `caller` is authorised for a record bound to `bound`, read under the fence. */
  protected fenceAuthorized(bound: InteractionAuthority, caller: InteractionCaller): boolean {
    return this.database.authorizes(bound, caller);
  }

  /** The time the fence judges expiry by, given the store clock reading `now` (the same). */
  protected fenceNow(now: number): number {
    return now;
  }

  /** The critical section of {@link MemoryInteractionStore.transact}, locks held. */
  protected async transactLocked<T>(
    request: TransactRequest,
    fn: TransactCallback<T>,
  ): Promise<Result<TransactCommit<T>, FenceRefusal>> {
    await this.step();
    const current = this.readRow(request.id);
    const now = this.now();
    const authorized = current !== undefined &&
      this.fenceAuthorized(current.authority, request.caller);
    const refusal = evaluateFence(current, request, authorized, this.fenceNow(now));
    if (refusal !== null) return err(refusal);
    const cur = current as InteractionRecordV1;
    this.stats.callbacks++;
    const decision: TransactDecision<T> = await fn(this.readRow(request.id)!, {
      authority: cur.authority,
      now,
    });
    if (decision.kind === "read") {
      return ok({ result: decision.result, record: cur, transition: null });
    }
    const problem = nextRecordProblem(cur, decision.next);
    if (problem !== null) {
      throw new InteractionArgumentError("invalid-next-record", `invalid next record: ${problem}`);
    }
    if (decision.transition !== null && decision.transition.interactionId !== cur.id) {
      throw new InteractionArgumentError(
        "foreign-transition",
        "the transition belongs to another interaction",
      );
    }
    const written = await this.commitDecision(cur.id, decision);
    this.stats.writes++;
    return ok({ result: decision.result, ...written });
  }

  /**
   * Write a `write` decision: serialize the record AND its transition
   * before writing either (a throw while reading them writes nothing), then
   * commit both in one step.
   */
  protected async commitDecision<T>(
    id: string,
    decision: TransactDecision<T> & { readonly kind: "write" },
  ): Promise<{ record: InteractionRecordV1; transition: WorkflowTransition | null }> {
    const text = JSON.stringify(decision.next);
    const transitionText = decision.transition === null
      ? null
      : JSON.stringify(decision.transition);
    await this.step();
    this.commitRow(id, text, transitionText);
    return {
      record: JSON.parse(text),
      transition: transitionText === null ? null : JSON.parse(transitionText),
    };
  }

  async #ack<R>(outcome: R): Promise<R> {
    await this.pause();
    if (this.#faults.lostAcks > 0) {
      this.#faults.lostAcks--;
      throw new InjectedFaultError("lost-ack");
    }
    return outcome;
  }
}
