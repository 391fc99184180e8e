/**
 * Conformance kit for host adapters of `./recovery`: a list of
 * runner-agnostic cases (`{ name, skip?, run() }`) that a host runs against
 * its OWN store adapter with its own test runner. No dependency on Deno,
 * Node or any test framework; every seam may be asynchronous and slow.
 *
 * How it catches fence bugs on every run rather than by chance:
 * - **Factory mode.** The host hands over a factory: `connect()` opens one
 *   adapter instance (its own connection or pool) per simulated worker, so a
 *   lock held per adapter INSTANCE (a mutex field of the adapter object)
 *   lets two workers through and fails. A lock shared by every instance of
 *   one process (module scope) is not caught: see below.
 * - **Held fences.** The kit's launch callback returns a promise the kit
 *   settles: it holds an admission open inside its transaction and races a
 *   cancel, a revocation and other admissions against it (they must wait),
 *   and queues admissions behind a cancel or a revocation (they must recheck
 *   under the lock).
 * - **Durability probes.** Every acknowledged write is read back at once by
 *   a separate, fresh adapter instance; a launch that throws (a worker dying
 *   between mark and launch) must leave the mark durable.
 * - **Kit-driven workers.** `TurnRecovery` workers run on the kit's clock:
 *   an acknowledgement that never arrives, a dispatch that stalls past its
 *   lease, a clock stepping back; and a flaky driver (lost acks and
 *   serialization failures injected by the kit) whose outcome is judged.
 * Cases for optional capabilities are returned with `skip` only when the
 * host declares it lacks them (`lacks`); a host that neither provides a hook
 * nor declares it missing fails that case loudly. Lost acknowledgements run
 * by default.
 *
 * Timing: nothing assumes microsecond latency, and no verdict rests on a
 * sleep. While a fence is held, the kit watches the racing writer for at
 * least `holdMs` (default 250 ms) AND through several sequential reads of
 * the probe instance issued after it, and each read checks what the store
 * committed (a cancel or revocation committed while the fence is held fails
 * at once), so a loaded machine makes a case slower, not wrong. Races whose
 * precondition the kit cannot force (an admission queued BEHIND a cancel or
 * a revocation) are judged from what the store committed and retried on a
 * fresh turn when the store happened to serve the later writer first; a case
 * that never establishes its precondition fails saying "inconclusive", it
 * does not pass. `timeoutMs` (default 10 s) bounds every awaited seam call,
 * so a deadlock is a named failure, not a hung kit.
 *
 * Passing it is evidence about the adapter under the conditions of the run.
 * Durability across a real process restart needs the host's own tests
 * against its persistent store (kill the process after an acknowledged
 * write, start a new one, read).
 *
 * What the kit cannot catch (honestly):
 * - **Process-wide state.** Every simulated worker, and the probe, is an
 *   adapter instance in ONE JavaScript process (one isolate). A lock, cache
 *   or write-behind buffer at module scope (or in any object the instances
 *   share) is shared by all of them exactly as the database would be, so an
 *   adapter that keeps such state PASSES here and still breaks once two
 *   processes run. Keep no coordination or cached authority outside the
 *   database, and prove it with the host's own test that runs the adapter in
 *   two OS processes against one database (the Postgres package's process
 *   tests do).
 * - Durability across a real process restart, and clock skew between
 *   machines (the kit's workers share one clock).
 * - **A guarded cancel that checks the grant before the turn lock, on a
 *   store whose revocation also takes the turn lock** (as
 *   `PostgresRecoveryStore.revoke` does). The kit makes the revocation
 *   commit while the cancel waits for the turn lock; such a store queues the
 *   revocation behind the cancel instead (a correct order), so the bug can
 *   only show in a window the kit cannot hold open, and the case passes on
 *   the order the store committed.
 *
 * Deno:
 * ```ts ignore
 * for (const c of recoveryConformanceCases(makeHost)) {
 *   Deno.test({ name: c.name, ignore: c.skip !== undefined, fn: () => c.run() });
 * }
 * ```
 * node:test:
 * ```ts ignore
 * import { test } from "node:test";
 * for (const c of recoveryConformanceCases(makeHost)) test(c.name, { skip: c.skip }, () => c.run());
 * ```
 *
 * @module
 */
import type { ChatEventEnvelope } from "../v1/types.ts";
import { kitSettings } from "../_internal/kit_support.ts";
import type { KitRunOptions } from "./kit_run_options.ts";
import { type AddCase, ConformanceFailure, KitCase } from "./_kit_env.ts";
import { replayCases } from "./_kit_replay_cases.ts";
import { storeCases } from "./_kit_store_cases.ts";
import { workerCases } from "./_kit_worker_cases.ts";
import { MemoryCancelDelivery } from "./memory_cancel_delivery.ts";
import { MemoryReplayWindow } from "./memory_replay_window.ts";
import {
  MemoryRecoveryDatabase,
  MemoryRecoveryStore,
  type MemoryStoreOptions,
  type StoreFault,
  type StoreOp,
} from "./memory_store.ts";
import type { ReplayWindowSeam } from "./replay.ts";
import type { ActorKind, AuthoritySeam, CancelDeliverySeam, RecoveryStore } from "./types.ts";

export { ConformanceFailure };

/** One conformance case. `skip` (a reason) is set when the host declared a needed capability missing. */
export interface ConformanceCase {
  /** Case name (prefixed). */
  readonly name: string;
  /** Reason the case should be skipped, when the host lacks a capability. */
  readonly skip?: string;
  /** Resolves when the case passes; rejects with a {@link ConformanceFailure} otherwise. */
  run(): Promise<void>;
}

/** Operations whose acknowledgement the host can make the kit lose. */
export type LosableOp = "casTurn" | "casEffect" | "admitDispatch";

/** One simulated worker: an adapter instance with its own connection. */
export interface ConformanceWorker {
  /** The adapter instance under test; must implement `admitDispatch`. */
  readonly store: RecoveryStore;
  /** Authority seam answering from the same rows the fences recheck. */
  readonly authority: AuthoritySeam;
  /**
   * The NEXT call of `op` through this instance commits, then its
   * acknowledgement is lost (it rejects). Needed unless the host declares it
   * lacks `lost-acks`.
   */
  loseNextAck?(op: LosableOp): void | Promise<void>;
  /** Close this instance's connection (called once at the end of the case). */
  close?(): void | Promise<void>;
}

/**
 * What a host hands the kit for ONE case (the factory is called once per
 * case, and may open connections, create a schema, start a server). Case
 * ids are unique, so hosts may share state between cases.
 */
export interface ConformanceHost {
  /** Open a new adapter instance (a simulated worker with its own connection). */
  connect(): ConformanceWorker | Promise<ConformanceWorker>;
  /**
   * Grant authority over `turnId`: the user's (default) or, with `system`,
   * the host service identity `principal`. Resolves once committed.
   */
  grant(principal: string, turnId: string, actor?: ActorKind): void | Promise<void>;
  /**
   * Revoke a grant with an ordinary write to the authority rows (it must
   * wait for fences holding those rows). Needed unless `revocation` is declared lacking.
   */
  revoke?(principal: string, turnId: string, actor?: ActorKind): void | Promise<void>;
  /** Cross-process cancel delivery shared by the case's workers (unless `cancel-delivery` is lacking). */
  readonly cancelDelivery?: CancelDeliverySeam;
  /** The replay window and a way to fill and trim it (unless `replay` is lacking). */
  readonly replay?: {
    /** The host's replay window, as `replayAfter` reads it. */
    readonly seam: ReplayWindowSeam;
    /** Append the next v1 envelope of its turn (`seq` 1, 2, … per turn); throw if refused. */
    append(envelope: ChatEventEnvelope): void | Promise<void>;
    /** Drop frames with `seq < seq` (unless `replay-trim` is lacking). */
    trimBefore?(turnId: string, seq: number): void | Promise<void>;
  };
  /** Tear the case down (after every instance was closed). */
  close?(): void | Promise<void>;
}

/** What the factory is told about the case it sets up. */
export interface ConformanceCaseContext {
  /** The case name. */
  readonly name: string;
  /** The case's seed. */
  readonly seed: number;
}

/** Optional host capabilities; a host lacking one declares it in {@link ConformanceOptions.lacks}. */
export type OptionalConformanceCapability =
  | "revocation"
  | "lost-acks"
  | "cancel-delivery"
  | "replay"
  | "replay-trim";

/** Options of {@link recoveryConformanceCases} (timing and concurrency: {@link KitRunOptions}). */
export interface ConformanceOptions extends KitRunOptions {
  /** Optional capabilities the host lacks: their cases are returned with `skip` set. */
  readonly lacks?: readonly OptionalConformanceCapability[];
  /** Prefix of case names. Default `recovery conformance: `. */
  readonly prefix?: string;
}

let uniq = 0;
function freshTurnId(): string {
  return `conf-${Date.now().toString(36)}-${(++uniq).toString(36)}-${
    Math.random().toString(36).slice(2, 8)
  }`;
}

/**
 * Build the conformance cases for hosts made by `makeHost` (called once per
 * case). Run every returned case with any runner; see the module docs for
 * the Deno.test and node:test adapters.
 *
 * @example
 * ```ts
 * import {
 *   memoryConformanceHost, recoveryConformanceCases,
 * } from "@papercusp/chat-protocol/recovery/testing";
 * const cases = recoveryConformanceCases(() => memoryConformanceHost(), { holdMs: 20 });
 * for (const c of cases) if (!c.skip) await c.run();
 * ```
 */
export function recoveryConformanceCases(
  makeHost: (context: ConformanceCaseContext) => ConformanceHost | Promise<ConformanceHost>,
  options: ConformanceOptions = {},
): ConformanceCase[] {
  const prefix = options.prefix ?? "recovery conformance: ";
  const lacks = new Set(options.lacks ?? []);
  const cases: ConformanceCase[] = [];
  const add: AddCase = (name, needs, body) => {
    const skip = needs && lacks.has(needs) ? `host declares it lacks ${needs}` : undefined;
    const settings = kitSettings(options, cases.length);
    cases.push({
      name: prefix + name,
      ...(skip ? { skip } : {}),
      async run() {
        const host = await makeHost({ name: prefix + name, seed: settings.seed });
        const env = new KitCase(host, settings);
        await env.run(() => body(env, freshTurnId()));
      },
    });
  };
  storeCases(add);
  workerCases(add);
  replayCases(add);
  return cases;
}

/** Options of {@link memoryConformanceHost}. */
export interface MemoryConformanceHostOptions {
  /** Awaited at every step of every store call (e.g. a delay standing for a round trip). */
  readonly pause?: (label: string) => Promise<unknown>;
  /**
   * Builds each adapter instance (default {@link MemoryRecoveryStore});
   * tests swap in deliberately broken subclasses.
   */
  readonly makeStore?: (options: MemoryStoreOptions) => MemoryRecoveryStore;
  /** Faults every instance draws from (in addition to `loseNextAck`). */
  readonly fault?: (op: StoreOp) => StoreFault;
}

/**
 * The reference in-memory host as a {@link ConformanceHost}, with every
 * optional capability: one {@link MemoryRecoveryDatabase} per case, one
 * adapter instance per `connect()`, grants written through a reference
 * instance (so they take the database's locks), a {@link MemoryCancelDelivery}
 * and a {@link MemoryReplayWindow}.
 */
export function memoryConformanceHost(
  options: MemoryConformanceHostOptions = {},
): ConformanceHost {
  const database = new MemoryRecoveryDatabase();
  const admin = new MemoryRecoveryStore({ database });
  const replay = new MemoryReplayWindow();
  const make = options.makeStore ?? ((o: MemoryStoreOptions) => new MemoryRecoveryStore(o));
  return {
    connect: () => {
      const lose = new Set<StoreOp>();
      const store = make({
        database,
        pause: options.pause,
        fault: (op) => (lose.delete(op) ? "ack-lost" : options.fault?.(op) ?? "none"),
      });
      return {
        store,
        authority: store.authority(),
        loseNextAck: (op) => void lose.add(op),
      };
    },
    grant: (p, t, actor) => admin.grant(p, t, actor),
    revoke: (p, t, actor) => admin.revoke(p, t, actor),
    cancelDelivery: new MemoryCancelDelivery(),
    replay: {
      seam: replay,
      append: (e) => {
        if (!replay.append(e)) throw new ConformanceFailure(`append out of order: seq ${e.seq}`);
      },
      trimBefore: (t, seq) => replay.trimBefore(t, seq),
    },
  };
}
