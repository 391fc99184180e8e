/**
 * The environment of one recovery conformance case: the host's per-case
 * setup, one adapter instance per simulated worker, a probe instance that
 * reads every acknowledged write back (durability), an optional flaky driver
 * wrapper, the kit's clock, seeded randomness and bounded waits.
 *
 * @module
 */
import { isRecord } from "../_internal/guards.ts";
import { asserter, KitCaseBase } from "../_internal/kit_support.ts";
import { KitFailure } from "./kit_failure.ts";
import type { Asserter, KitSettings } from "../_internal/kit_support.ts";
import { MemoryExecutions } from "./memory_executions.ts";
import { TurnRecovery, type TurnRecoveryOptions } from "./turn_recovery.ts";
import type {
  AdmitOutcome,
  CasOutcome,
  EffectRecord,
  RecoveryStore,
  TurnCasOutcome,
  TurnRecord,
} from "./types.ts";
import type {
  ConformanceHost,
  ConformanceWorker,
  OptionalConformanceCapability,
} from "./testing.ts";

/** Thrown by a failing recovery conformance case: the message names the violated contract. */
export class ConformanceFailure extends KitFailure {}

/** Fail the case with `message` unless `condition` holds. */
export const expect: Asserter = asserter((m) => new ConformanceFailure(m));

/** The principal every case acts as. */
export const P = "conformance-principal";
/** The host service identity system-actor cases use. */
export const SYSTEM = "conformance-system";
/** Lease length the kit's workers use, in kit-clock ms. */
export const KIT_LEASE_MS = 60_000;

/** `value` as JSON with object keys sorted (a comparison that ignores key order). */
function canonical(value: unknown): string | undefined {
  return JSON.stringify(
    value,
    (_k, v) =>
      isRecord(v) && !Array.isArray(v)
        ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]]))
        : v,
  );
}

/** The first field of `sent` that `got` does not hold as sent, or `null` (JSON, key order ignored). */
export function fieldNotAsSent(sent: object, got: unknown): string | null {
  const g = isRecord(got) ? got : {};
  for (const [k, v] of Object.entries(sent)) {
    if (canonical(g[k]) !== canonical(v)) return k;
  }
  return null;
}

/** One simulated worker: its adapter instance, instrumented, and its raw handle. */
export interface KitWorker {
  /** The instance, wrapped: acknowledged writes are read back by the probe. */
  readonly store: RecoveryStore;
  /** The host's handle (authority seam, fault hooks). */
  readonly raw: ConformanceWorker;
}

/** Which faults a flaky wrapper injects (rates in `[0, 1]`). */
export interface FlakyRates {
  /** Reject before the call reaches the store (a serialization failure: nothing done). */
  readonly serialization: number;
  /** Let the call commit, then reject (its acknowledgement is lost). */
  readonly lostAck: number;
}

/** The error a flaky wrapper throws for an injected serialization failure. */
export class InjectedSerializationError extends Error {
  /** Build for `op`. */
  constructor(op: string) {
    super(`could not serialize access due to concurrent update (injected into ${op})`);
    this.name = "InjectedSerializationError";
  }
}

/** The error a flaky wrapper throws for a lost acknowledgement (the call did commit). */
export class InjectedLostAckError extends Error {
  /** Build for `op`. */
  constructor(op: string) {
    super(`connection lost after ${op} was sent (injected; it committed)`);
    this.name = "InjectedLostAckError";
  }
}

/** The error a kit case throws to simulate a worker dying mid-call (inside `launch`). */
export class InjectedCrashError extends Error {
  /** Build with where the worker died. */
  constructor(where: string) {
    super(`worker died inside ${where}`);
    this.name = "InjectedCrashError";
  }
}

/** The error a kit case's dispatch rejects with (the external call failed: its outcome is unknown). */
export class InjectedDispatchError extends Error {
  /** Build with what went wrong (e.g. `timeout`). */
  constructor(what: string) {
    super(what);
    this.name = "InjectedDispatchError";
  }
}

/** A settable kit clock, epoch ms: the host clock of the kit's `TurnRecovery` workers. */
export class KitClock {
  /** Current time. */
  t = 1_700_000_000_000;
  /** Read it (a `TurnRecoveryOptions.now`). */
  readonly now = (): number => this.t;
  /** Move it by `ms` (negative: a clock step back). */
  advance(ms: number): void {
    this.t += ms;
  }
}

/** The environment of one case. */
export class KitCase extends KitCaseBase {
  /** The host of this case. */
  readonly host: ConformanceHost;
  /** The workers' host clock. */
  readonly clock: KitClock = new KitClock();
  /** This process's executions (abort seam) for workers without their own. */
  readonly executions: MemoryExecutions = new MemoryExecutions();
  #probe: Promise<ConformanceWorker> | undefined;

  /** Wrap the host of one case. */
  constructor(host: ConformanceHost, settings: KitSettings) {
    super(settings, ConformanceFailure, () => host.close?.());
    this.host = host;
  }

  /** Connect a new adapter instance (one simulated worker). */
  async worker(flaky?: FlakyRates): Promise<KitWorker> {
    const raw = await this.call(this.host.connect(), "connect()");
    expect(isRecord(raw) && isRecord(raw.store), "connect() must return { store, authority }");
    this.track(raw);
    let store = this.#instrument(raw.store);
    if (flaky) store = flakyStore(store, this.random, flaky);
    return { store, raw };
  }

  /** `n` workers. */
  async workers(n: number, flaky?: FlakyRates): Promise<KitWorker[]> {
    const out: KitWorker[] = [];
    for (let i = 0; i < n; i++) out.push(await this.worker(flaky));
    return out;
  }

  /** A `TurnRecovery` over `w` with the kit's clock, lease and seeded jitter. */
  recovery(w: KitWorker, overrides: Partial<TurnRecoveryOptions> = {}): TurnRecovery {
    return new TurnRecovery({
      store: w.store,
      authority: w.raw.authority,
      abort: this.executions,
      now: this.clock.now,
      leaseMs: KIT_LEASE_MS,
      renewEveryMs: 0,
      backoff: { baseMs: 1, maxMs: 8 },
      random: this.random,
      ...overrides,
    });
  }

  /** The probe instance (connected once per case, never wrapped). */
  probe(): Promise<ConformanceWorker> {
    this.#probe ??= (async () => {
      return this.track(await this.call(this.host.connect(), "connect() (probe)"));
    })();
    return this.#probe;
  }

  /** Wrap `store` so each acknowledged write is read back by the probe instance. */
  #instrument(store: RecoveryStore): RecoveryStore {
    const readBack = (
      what: string,
      acked: TurnRecord | EffectRecord,
      read: (probe: RecoveryStore) => Promise<TurnRecord | EffectRecord | null>,
    ) =>
      this.readBack(what, acked.revision, async () => read((await this.probe()).store), (seen) => {
        const rev = isRecord(seen) && typeof seen.revision === "number" ? seen.revision : -1;
        const a = acked as unknown as Record<string, unknown>;
        const same = isRecord(seen) && seen.status === a.status && seen.state === a.state &&
          seen.claimToken === a.claimToken;
        return rev > acked.revision || (rev === acked.revision && same) || rev;
      });
    const wrapped: RecoveryStore = {
      readTurn: (t) => store.readTurn(t),
      readEffect: (t, e) => store.readEffect(t, e),
      casTurn: async (t, expected, next, guard) => {
        const r: TurnCasOutcome =
          await (guard === undefined
            ? store.casTurn(t, expected, next)
            : store.casTurn(t, expected, next, guard));
        if (r?.ok === true) await readBack("casTurn", r.record, (p) => p.readTurn(t));
        return r;
      },
      casEffect: async (t, e, expected, next) => {
        const r: CasOutcome<EffectRecord> = await store.casEffect(t, e, expected, next);
        if (r?.ok === true) {
          // What was SENT, not only the store's own answer: an UPDATE that leaves a
          // column out while answering RETURNING * agrees with itself.
          const wrong = fieldNotAsSent(next, r.record);
          if (wrong !== null) {
            this.durability.push(
              `an acknowledged casEffect stored '${wrong}' as ${
                canonical((r.record as unknown as Record<string, unknown>)[wrong])
              }, not as sent (${
                canonical((next as unknown as Record<string, unknown>)[wrong])
              }): the UPDATE must set every column of the record, claim_token included`,
            );
          }
          await readBack("casEffect", r.record, (p) => p.readEffect(t, e));
        }
        return r;
      },
    };
    if (typeof store.admitDispatch === "function") {
      wrapped.admitDispatch = async (req) => {
        const a: AdmitOutcome = await store.admitDispatch!(req);
        if (a?.admitted === true) {
          await readBack("admission", a.record, (p) => p.readEffect(req.turnId, req.effectId));
        }
        return a;
      };
    }
    return wrapped;
  }
}

/**
 * `store` behind a flaky driver: each call may be refused before it reaches
 * the store (a serialization failure), and each write may commit and then
 * lose its acknowledgement, drawn from `random`.
 */
export function flakyStore(
  store: RecoveryStore,
  random: () => number,
  rates: FlakyRates,
): RecoveryStore {
  const gate = async <T>(op: string, write: boolean, f: () => Promise<T>): Promise<T> => {
    if (random() < rates.serialization) throw new InjectedSerializationError(op);
    const value = await f();
    if (write && random() < rates.lostAck) throw new InjectedLostAckError(op);
    return value;
  };
  const out: RecoveryStore = {
    readTurn: (t) => gate("readTurn", false, () => store.readTurn(t)),
    readEffect: (t, e) => gate("readEffect", false, () => store.readEffect(t, e)),
    casTurn: (t, x, n, g) =>
      gate(
        "casTurn",
        true,
        () => g === undefined ? store.casTurn(t, x, n) : store.casTurn(t, x, n, g),
      ),
    casEffect: (t, e, x, n) => gate("casEffect", true, () => store.casEffect(t, e, x, n)),
  };
  if (typeof store.admitDispatch === "function") {
    out.admitDispatch = (r) => gate("admitDispatch", true, () => store.admitDispatch!(r));
  }
  return out;
}

/** `store` with some methods replaced (the kit's control over when a seam call proceeds). */
export function overriding(store: RecoveryStore, over: Partial<RecoveryStore>): RecoveryStore {
  return {
    readTurn: (t) => store.readTurn(t),
    readEffect: (t, e) => store.readEffect(t, e),
    casTurn: (t, x, n, g) => g === undefined ? store.casTurn(t, x, n) : store.casTurn(t, x, n, g),
    casEffect: (t, e, x, n) => store.casEffect(t, e, x, n),
    admitDispatch: (r) => store.admitDispatch!(r),
    ...over,
  };
}

/** Registers one case (the kit's own case modules use it). */
export type AddCase = (
  name: string,
  needs: OptionalConformanceCapability | null,
  body: (env: KitCase, turnId: string) => Promise<void>,
) => void;
