/**
 * The reference {@link InteractionStore}: an in-memory "fake database" that
 * honours the fence. Rows and outbox entries are stored as JSON text (no
 * object is shared with callers, so every resolver instance that uses the
 * store behaves like a fresh worker talking to one database). `transact`
 * awaits simulated network latency, then runs one synchronous
 * check-and-write critical section, then awaits the acknowledgement, during
 * which faults can be injected.
 *
 * It is for tests, examples and as an executable specification; it is not
 * durable across process restarts.
 *
 * @module
 */
import { err, ok, type Result } from "../result.ts";
import { evaluateFence, nextRecordProblem, sameAuthority } from "./fence.ts";
import type {
  AlreadyExistsRefusal,
  FenceRefusal,
  InteractionAuthority,
  InteractionRecordV1,
  InteractionStore,
  StoreRead,
  TransactCallback,
  TransactCommit,
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

/** Options of {@link MemoryInteractionStore}. */
export interface MemoryInteractionStoreOptions {
  /**
   * Store clock, epoch ms (default `Date.now`). Expiry is judged by it. The
   * store never lets its time go backwards: a reading earlier than one it
   * already used (or not finite) is replaced by the latest time it used, so
   * a card that read as expired stays expired after a clock step back.
   */
  readonly now?: () => number;
  /**
   * Simulated network latency: awaited before the critical section and again
   * before the acknowledgement (default: one resolved promise). Tests pass a
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
 * In-memory reference store honouring the fence; shared by any number of
 * resolver instances (workers). Authority revocation, a clock and faults
 * (lost acknowledgement after commit, failed commit, failed read) are
 * injectable.
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
  #rows = new Map<string, string>();
  #outbox: string[] = [];
  #revoked: Partial<InteractionAuthority>[] = [];
  #clock: () => number;
  #last = Number.NEGATIVE_INFINITY;
  #pause: () => Promise<void>;
  #faults = { lostAcks: 0, failedCommits: 0, failedReads: 0 };
  /** Traffic counters. */
  readonly stats: MemoryInteractionStoreStats = {
    reads: 0,
    transacts: 0,
    callbacks: 0,
    writes: 0,
    creates: 0,
  };

  /** Build an empty store. */
  constructor(options: MemoryInteractionStoreOptions = {}) {
    this.#clock = options.now ?? Date.now;
    this.#pause = options.pause ?? (() => Promise.resolve());
  }

  /** Store clock, epoch ms; never earlier than a time it returned before. */
  now(): number {
    const t = this.#clock();
    if (Number.isFinite(t) && t > this.#last) this.#last = t;
    return this.#last;
  }

  /**
   * Revoke every bound authority matching all given fields (e.g.
   * `{ principalId: "u1" }` or `{ tenantId: "t1" }`). Takes effect for the
   * next fence or read, in every worker.
   */
  revoke(match: Partial<InteractionAuthority>): void {
    this.#revoked.push({ ...match });
  }

  /** `true` unless a revocation matches `authority`. */
  isAuthorized(authority: InteractionAuthority): boolean {
    return !this.#revoked.some((m) =>
      (Object.keys(m) as (keyof InteractionAuthority)[]).every((k) => m[k] === authority[k])
    );
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
    const row = this.#rows.get(id);
    return row === undefined ? undefined : JSON.parse(row);
  }

  /** Stored workflow transitions (fresh copies), optionally for one interaction. */
  transitions(interactionId?: string): WorkflowTransition[] {
    const all: WorkflowTransition[] = this.#outbox.map((t) => JSON.parse(t));
    return interactionId === undefined ? all : all.filter((t) => t.interactionId === interactionId);
  }

  /** Insert iff absent. */
  async create(
    record: InteractionRecordV1,
  ): Promise<Result<InteractionRecordV1, AlreadyExistsRefusal>> {
    this.stats.creates++;
    await this.#pause();
    if (this.#rows.has(record.id)) {
      return err({ code: "already-exists", message: `interaction ${record.id} already exists` });
    }
    const text = JSON.stringify(record);
    this.#rows.set(record.id, text);
    await this.#pause();
    return ok(JSON.parse(text));
  }

  /** Read with the authority recheck. Never writes. */
  async read(id: string, caller: InteractionAuthority): Promise<StoreRead> {
    this.stats.reads++;
    await this.#pause();
    if (this.#faults.failedReads > 0) {
      this.#faults.failedReads--;
      throw new InjectedFaultError("failed-read");
    }
    const row = this.#rows.get(id);
    if (row === undefined) return { ok: false, code: "not-found" };
    const record: InteractionRecordV1 = JSON.parse(row);
    if (!this.isAuthorized(record.authority) || !sameAuthority(record.authority, caller)) {
      return { ok: false, code: "unauthorized" };
    }
    return { ok: true, record, now: this.now() };
  }

  /**
   * The fenced transaction: latency, then ONE synchronous critical section
   * (read current row, {@link evaluateFence}, callback once, validate and
   * write `next` + transition), then latency and the acknowledgement.
   * Throws (rejects) a `TypeError` when the callback is asynchronous or
   * returns an invalid `next` record; nothing is written then.
   */
  async transact<T>(
    request: TransactRequest,
    fn: TransactCallback<T>,
  ): Promise<Result<TransactCommit<T>, FenceRefusal>> {
    this.stats.transacts++;
    await this.#pause();
    if (this.#faults.failedCommits > 0) {
      this.#faults.failedCommits--;
      throw new InjectedFaultError("failed-commit");
    }
    // ---- critical section: no await until the write is done ----
    const row = this.#rows.get(request.id);
    const current: InteractionRecordV1 | undefined = row === undefined
      ? undefined
      : JSON.parse(row);
    const now = this.now();
    const authorized = current !== undefined && this.isAuthorized(current.authority);
    const refusal = evaluateFence(current, request, authorized, now);
    if (refusal !== null) return this.#ack(err(refusal));
    const cur = current as InteractionRecordV1;
    this.stats.callbacks++;
    const decision = fn(JSON.parse(row as string), { authority: cur.authority, now });
    if (typeof (decision as unknown as { then?: unknown })?.then === "function") {
      throw new TypeError("transact callbacks must be synchronous");
    }
    let commit: TransactCommit<T>;
    if (decision.kind === "read") {
      commit = { result: decision.result, record: cur, transition: null };
    } else {
      const problem = nextRecordProblem(cur, decision.next);
      if (problem !== null) throw new TypeError(`invalid next record: ${problem}`);
      if (decision.transition !== null && decision.transition.interactionId !== cur.id) {
        throw new TypeError("the transition belongs to another interaction");
      }
      const text = JSON.stringify(decision.next);
      const transitionText = decision.transition === null
        ? null
        : JSON.stringify(decision.transition);
      this.#rows.set(cur.id, text);
      if (transitionText !== null) this.#outbox.push(transitionText);
      this.stats.writes++;
      commit = {
        result: decision.result,
        record: JSON.parse(text),
        transition: transitionText === null ? null : JSON.parse(transitionText),
      };
    }
    // ---- end of critical section ----
    return this.#ack(ok(commit));
  }

  async #ack<R>(outcome: R): Promise<R> {
    await this.#pause();
    if (this.#faults.lostAcks > 0) {
      this.#faults.lostAcks--;
      throw new InjectedFaultError("lost-ack");
    }
    return outcome;
  }
}
