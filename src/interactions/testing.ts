/**
 * Conformance kit for host {@link InteractionStore}s: a runner-agnostic list
 * of `{ name, skip?, run() }` cases that exercise the fence (authority,
 * system authority, scope, revision, schema, expiry, cancellation), the
 * exactly-once callback, atomic record + transition writes, read-only
 * decisions, concurrent answers from separate adapter instances and the
 * resolver's end-to-end behaviour, with every seam allowed to be
 * asynchronous and slow.
 *
 * How it catches store bugs on every run rather than by chance:
 * - **Factory mode.** `connect()` opens one adapter instance (its own
 *   connection) per simulated worker, so a lock held per adapter INSTANCE
 *   fails. A lock shared by every instance of one process (module scope) is
 *   not caught: see below.
 * - **Held transactions.** The kit's callback returns a promise the kit
 *   settles: it holds a transaction open inside its critical section and
 *   races another instance's transaction and a revocation against it (both
 *   must wait).
 * - **Durability probes and crash points.** Every acknowledged write is read
 *   back at once by a separate, fresh instance; a decision whose transition
 *   (or record) throws while being written must leave neither behind.
 * - **Flaky driver.** Lost acknowledgements and serialization failures,
 *   injected by the kit, are judged: one winner, no false win.
 * - **Grants per tenant, never cached.** A system actor granted in another
 *   tenant is refused; a system grant revoked (`revokeSystem`) after the
 *   same adapter instance used it is refused by its next fence.
 * The lost-acknowledgement, clock-rewind and system-revocation cases run by default; a host
 * opts out only by declaring it lacks the capability (`lacks`), and a host
 * that neither provides the hook nor declares it fails those cases.
 *
 * Timing: while a transaction is held open, the kit watches the racing
 * writer (another instance's transaction, a revocation) for at least
 * `holdMs` (default 250 ms) AND through several sequential probe reads
 * issued after it, each checking what the store committed (a write or a
 * revocation committed while the transaction is held fails at once): a
 * loaded machine makes a case slower, never wrong. `timeoutMs` (default
 * 10 s) bounds every awaited call.
 *
 * Passing it proves the store's *logic* under concurrency. It does not prove
 * durability across a process restart: a host's Postgres (or other) adapter
 * must separately kill the process after an acknowledged commit, start a new
 * one and read.
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
 *
 * Run with Deno:
 * ```ts ignore
 * import { interactionStoreConformance } from "@papercusp/chat-protocol/interactions/testing";
 * for (const c of interactionStoreConformance(makeHarness)) {
 *   Deno.test({ name: c.name, ignore: c.skip !== undefined, fn: () => c.run() });
 * }
 * ```
 * Run with node:test:
 * ```ts ignore
 * import { test } from "node:test";
 * import { interactionStoreConformance } from "@papercusp/chat-protocol/interactions/testing";
 * for (const c of interactionStoreConformance(makeHarness)) test(c.name, { skip: c.skip }, () => c.run());
 * ```
 *
 * @module
 */
import { kitSettings } from "../_internal/kit_support.ts";
import type { KitRunOptions } from "../recovery/kit_run_options.ts";
import { type AddCase, InteractionConformanceError, KitCase } from "./_kit_env.ts";
import { resolverCases } from "./_kit_resolver_cases.ts";
import { storeCases } from "./_kit_store_cases.ts";
import {
  InjectedFaultError,
  MemoryInteractionDatabase,
  MemoryInteractionStore,
} from "./memory_store.ts";
import type {
  InteractionAuthority,
  InteractionStore,
  SystemAuthority,
  WorkflowTransition,
} from "./types.ts";

export { InteractionConformanceError };
export { KIT_AUTHORITY, KIT_SYSTEM } from "./_kit_env.ts";

/** One simulated worker: an adapter instance with its own connection. */
export interface InteractionWorker {
  /** The adapter instance under test. */
  readonly store: InteractionStore;
  /** Close this instance's connection (called once at the end of the case). */
  close?(): void | Promise<void>;
}

/**
 * What the kit needs from a host store, for ONE case: the factory is called
 * once per case (it may open connections and create a schema) and must
 * return a harness over an EMPTY database.
 */
export interface InteractionStoreHarness {
  /** Open a new adapter instance (a simulated worker with its own connection). */
  connect(): InteractionWorker | Promise<InteractionWorker>;
  /** Store clock, epoch ms (the clock the fence judges expiry by). */
  now(): number | Promise<number>;
  /** Advance the store clock by `ms`. */
  advanceClock(ms: number): void | Promise<void>;
  /**
   * Revoke this bound authority with an ordinary write to the authority rows
   * (it must wait for transactions that read them). Resolves once committed.
   */
  revoke(authority: InteractionAuthority): void | Promise<void>;
  /** Grant the host identity system authority (cancel, expire) in a tenant. */
  grantSystem(actor: Pick<SystemAuthority, "actorId" | "tenantId">): void | Promise<void>;
  /**
   * Withdraw a system grant (of that actor, in that tenant only) with an
   * ordinary write to the authority rows, like {@link InteractionStoreHarness.revoke}:
   * it must wait for transactions that read the row. Resolves once
   * committed. Needed unless `system-revocation` is lacking.
   */
  revokeSystem?(actor: Pick<SystemAuthority, "actorId" | "tenantId">): void | Promise<void>;
  /** Workflow transitions stored for one interaction (the outbox). */
  transitions(
    interactionId: string,
  ): readonly WorkflowTransition[] | Promise<readonly WorkflowTransition[]>;
  /**
   * The NEXT `transact` (through any instance) runs, then its
   * acknowledgement is lost (it rejects). Needed unless `lost-acks` is lacking.
   */
  loseNextAck?(): void | Promise<void>;
  /**
   * Step the clock source under the store back by `ms` (an NTP step, or a
   * worker whose clock lags). Needed unless `clock-rewind` is lacking.
   */
  rewindClock?(ms: number): void | Promise<void>;
  /** Tear the case down (after every instance was closed). */
  close?(): void | Promise<void>;
}

/** One conformance case: run it with any test runner; it rejects on failure. */
export interface InteractionConformanceCase {
  /** Stable, descriptive case name. */
  readonly name: string;
  /** Set (to the reason) when the host declared a capability the case needs missing. */
  readonly skip?: string;
  /** Runs the case; rejects with a {@link InteractionConformanceError} on failure. */
  run(): Promise<void>;
}

/** Optional harness capabilities; a host lacking one declares it in `lacks`. */
export type OptionalInteractionCapability = "lost-acks" | "clock-rewind" | "system-revocation";

/** Options of {@link interactionStoreConformance} (timing and concurrency: {@link KitRunOptions}). */
export interface InteractionConformanceOptions extends KitRunOptions {
  /** Capabilities the harness lacks: their cases are returned with `skip` set. */
  readonly lacks?: readonly OptionalInteractionCapability[];
  /** Prefix of case names (default none). */
  readonly prefix?: string;
}

/**
 * Build the conformance cases for a store. `makeHarness` is called once per
 * case and must return a harness over an EMPTY database.
 *
 * @example
 * ```ts
 * import {
 *   interactionStoreConformance, memoryInteractionHarness,
 * } from "@papercusp/chat-protocol/interactions/testing";
 * const cases = interactionStoreConformance(() => memoryInteractionHarness(), { holdMs: 20 });
 * for (const c of cases) if (c.skip === undefined) await c.run();
 * ```
 */
export function interactionStoreConformance(
  makeHarness: (context: { readonly name: string; readonly seed: number }) =>
    | InteractionStoreHarness
    | Promise<InteractionStoreHarness>,
  options: InteractionConformanceOptions = {},
): InteractionConformanceCase[] {
  const prefix = options.prefix ?? "";
  const lacks = new Set(options.lacks ?? []);
  const cases: InteractionConformanceCase[] = [];
  const add: AddCase = (name, needs, body) => {
    const skip = needs && lacks.has(needs) ? `the harness declares it lacks ${needs}` : undefined;
    const settings = kitSettings(options, cases.length);
    const ids = `k${cases.length}-`;
    cases.push({
      name: prefix + name,
      ...(skip ? { skip } : {}),
      async run() {
        const h = await makeHarness({ name: prefix + name, seed: settings.seed });
        const env = new KitCase(h, settings);
        await env.run(() => body(env, ids));
      },
    });
  };
  storeCases(add);
  resolverCases(add);
  return cases;
}

/** A settable clock source that can also step back (the store must not follow it back). */
export interface SteppingClock {
  /** Current reading, epoch ms. */
  now(): number;
  /** Move forward by `ms`. */
  advance(ms: number): void;
  /** Step back by `ms`. */
  rewind(ms: number): void;
}

/** A {@link SteppingClock} starting at 1,700,000,000,000 epoch ms. */
export function steppingClock(start = 1_700_000_000_000): SteppingClock {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      if (Number.isFinite(ms) && ms > 0) t += ms;
    },
    rewind: (ms) => {
      if (Number.isFinite(ms) && ms > 0) t -= ms;
    },
  };
}

/** Options of {@link memoryInteractionHarness}. */
export interface MemoryInteractionHarnessOptions {
  /** The clock source under the database (default: a new {@link steppingClock}). */
  readonly clock?: SteppingClock;
  /** Awaited at every step of every store call (e.g. a delay standing for a round trip). */
  readonly pause?: () => Promise<void>;
  /** Builds each adapter instance (default {@link MemoryInteractionStore}); tests swap in broken ones. */
  readonly makeStore?: (
    database: MemoryInteractionDatabase,
    pause?: () => Promise<void>,
  ) => InteractionStore;
}

/**
 * The reference in-memory store as an {@link InteractionStoreHarness}, with
 * every capability: one {@link MemoryInteractionDatabase} on a settable clock
 * that can also step back (the database must not follow), one adapter
 * instance per `connect()`, revocations and system grants written through a
 * reference instance (so they take the database's locks).
 */
export function memoryInteractionHarness(
  options: MemoryInteractionHarnessOptions = {},
): InteractionStoreHarness {
  const clock = options.clock ?? steppingClock();
  const database = new MemoryInteractionDatabase(() => clock.now());
  const admin = new MemoryInteractionStore({ database });
  let lose = 0;
  const make = options.makeStore ??
    ((db: MemoryInteractionDatabase, pause?: () => Promise<void>) =>
      new MemoryInteractionStore({ database: db, pause }));
  return {
    connect: () => {
      const inner = make(database, options.pause);
      const store: InteractionStore = {
        create: (r) => inner.create(r),
        read: (id, c) => inner.read(id, c),
        transact: async (q, fn) => {
          const out = await inner.transact(q, fn);
          if (lose > 0) {
            lose--;
            throw new InjectedFaultError("lost-ack"); // committed; the answer is lost
          }
          return out;
        },
      };
      return { store };
    },
    now: () => admin.now(),
    advanceClock: (ms) => clock.advance(ms),
    revoke: (a) => admin.revoke(a),
    grantSystem: (actor) => admin.grantSystem(actor),
    revokeSystem: (actor) => admin.revokeSystem(actor),
    transitions: (id) => admin.transitions(id),
    loseNextAck: () => void lose++,
    rewindClock: (ms) => clock.rewind(ms),
  };
}
