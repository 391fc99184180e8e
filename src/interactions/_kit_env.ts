/**
 * The environment of one interactions conformance case: the host's per-case
 * harness, one adapter instance per simulated worker, a probe instance that
 * reads every acknowledged write back, a flaky driver wrapper, seeded
 * randomness and bounded waits.
 *
 * @module
 */
import { isRecord, ownString } from "../_internal/guards.ts";
import { asserter, KitCaseBase } from "../_internal/kit_support.ts";
import { KitFailure } from "../recovery/kit_failure.ts";
import type { Asserter, KitSettings } from "../_internal/kit_support.ts";
import { InteractionResolver } from "./resolver.ts";
import type { StandardSchemaV1 } from "./standard_schema.ts";
import type {
  InteractionAuthority,
  InteractionCaller,
  InteractionRecordV1,
  InteractionStore,
  SchemaRef,
  TransactDecision,
  TransactRequest,
  WorkflowTransition,
} from "./types.ts";
import type { InteractionStoreHarness, OptionalInteractionCapability } from "./testing.ts";

/** Thrown (as a rejection) by a failing interactions conformance case. */
export class InteractionConformanceError extends KitFailure {}

/** Fail the case with `message` unless `cond` holds. */
export const check: Asserter = asserter((m) => new InteractionConformanceError(m));

/** Fail unless `out` is a refusal with `code`. */
export function refusedWith(out: { ok: boolean; error?: { code: string } }, code: string): void {
  check(!out.ok && out.error?.code === code, `expected ${code}, got ${describeResult(out)}`);
}

/** The authority the kit binds its cards to. */
export const KIT_AUTHORITY: InteractionAuthority = {
  conversationId: "conv-kit",
  principalId: "user-kit",
  tenantId: "tenant-kit",
  customerId: "customer-kit",
  publicOwnerId: "owner-kit",
};
/** Another principal of the same tenant. */
export const OTHER: InteractionAuthority = { ...KIT_AUTHORITY, principalId: "user-other" };
/** The host identity the kit's system-actor cases use. */
export const KIT_SYSTEM = {
  kind: "system",
  actorId: "kit-reaper",
  tenantId: "tenant-kit",
} as const;
/** Schema revisions the kit's cards use. */
export const SCHEMA_1: SchemaRef = { id: "kit-choice", revision: 1 };
/** The second revision. */
export const SCHEMA_2: SchemaRef = { id: "kit-choice", revision: 2 };

/** A gate an async validator waits at, so a case can act between validation and commit. */
export class Gate {
  #entered!: () => void;
  #release!: () => void;
  /** Resolves once something waits at the gate. */
  readonly entered: Promise<void> = new Promise((r) => (this.#entered = r));
  readonly #opened: Promise<void> = new Promise((r) => (this.#release = r));
  /** Wait at the gate. */
  pass(): Promise<void> {
    this.#entered();
    return this.#opened;
  }
  /** Let everything through. */
  open(): void {
    this.#release();
  }
}

/** A Standard Schema accepting `{ choice: "a" | "b" }`, optionally held at a gate. */
export function choiceSchema(gate?: Gate): StandardSchemaV1<unknown, { choice: string }> {
  return {
    "~standard": {
      version: 1,
      vendor: "papercusp-kit",
      validate(value: unknown) {
        const judge = (): StandardSchemaV1.Result<{ choice: string }> => {
          const c = ownString(value, "choice");
          return c === "a" || c === "b"
            ? { value: { choice: c } }
            : { issues: [{ message: "choice must be a or b", path: ["choice"] }] };
        };
        if (gate === undefined) return judge();
        return gate.pass().then(judge);
      },
    },
  };
}

/** A pending kit record opened at `now`. */
export function record(
  id: string,
  now: number,
  expiresAt: number | null = null,
): InteractionRecordV1 {
  return {
    v: 1,
    id,
    card: { prompt: "a or b?" },
    authority: { ...KIT_AUTHORITY },
    schema: { ...SCHEMA_1 },
    revision: 1,
    status: "pending",
    createdAt: now,
    expiresAt,
    metadata: {},
  };
}

/** A decision submitting `{ choice: "a" }` as `sid`. */
export function writeSubmit(
  cur: InteractionRecordV1,
  now: number,
  sid: string,
): TransactDecision<string> & { kind: "write" } {
  const next: InteractionRecordV1 = {
    ...cur,
    revision: cur.revision + 1,
    status: "submitted",
    submission: {
      submissionId: sid,
      action: "submit",
      value: { choice: "a" },
      principalId: cur.authority.principalId,
      at: now,
      source: "card",
    },
  };
  return {
    kind: "write",
    next,
    transition: {
      id: `${cur.id}@${next.revision}`,
      interactionId: cur.id,
      kind: "answered",
      revision: next.revision,
      submissionId: sid,
      at: now,
    },
    result: sid,
  };
}

/** A transact request for the kit's caller (an answer unless `action` says otherwise). */
export function req(
  id: string,
  revision = 1,
  schema: SchemaRef = SCHEMA_1,
  caller: InteractionCaller = KIT_AUTHORITY,
  action: TransactRequest["action"] = "answer",
): TransactRequest {
  return { id, caller, action, expectedRevision: revision, expectedSchema: schema };
}

/** An untrusted card response submitting `choice`. */
export function submit(id: string, choice: unknown, extra: Record<string, unknown> = {}) {
  return { action: "submit", correlationId: id, value: { choice, ...extra } };
}

/** Fault rates of a flaky driver wrapper. */
export interface FlakyRates {
  /** Reject before the call reaches the store (a serialization failure: nothing done). */
  readonly serialization: number;
  /** Let a transaction commit, then reject (its acknowledgement is lost). */
  readonly lostAck: number;
}

/** The environment of one case. */
export class KitCase extends KitCaseBase {
  /** The harness of this case. */
  readonly h: InteractionStoreHarness;
  #probe: Promise<InteractionStore> | undefined;

  /** Wrap the harness of one case. */
  constructor(h: InteractionStoreHarness, settings: KitSettings) {
    super(settings, InteractionConformanceError, () => h.close?.());
    this.h = h;
  }

  /** The store clock as last read, epoch ms (the kit's resolvers open cards with it). */
  lastNow = 0;

  /** Read the store clock, epoch ms. */
  async now(): Promise<number> {
    const t = await this.call(this.h.now(), "now()");
    check(typeof t === "number" && Number.isFinite(t), "now() must return epoch ms");
    this.lastNow = t;
    return t;
  }

  /** Advance the store clock by `ms`. */
  async advance(ms: number): Promise<void> {
    await this.call(this.h.advanceClock(ms), "advanceClock()");
    await this.now();
  }

  /** Connect a new adapter instance (one simulated worker), instrumented. */
  async store(flaky?: FlakyRates): Promise<InteractionStore> {
    const w = await this.call(this.h.connect(), "connect()");
    check(isRecord(w) && isRecord(w.store), "connect() must return { store }");
    this.track(w);
    const s = this.#instrument(w.store);
    return flaky ? flakyStore(s, this.random, flaky) : s;
  }

  /** A resolver over a new instance (or `store`), with the kit schemas. */
  async resolver(
    options: { store?: InteractionStore; gate?: Gate } = {},
  ): Promise<InteractionResolver> {
    const store = options.store ?? await this.store();
    const gate = options.gate;
    await this.now();
    return new InteractionResolver({
      store,
      now: () => this.lastNow,
      schemas: (ref) =>
        ref.id === SCHEMA_1.id && (ref.revision === 1 || ref.revision === 2)
          ? choiceSchema(gate)
          : undefined,
    });
  }

  /** The probe instance (connected once per case, never wrapped). */
  probe(): Promise<InteractionStore> {
    this.#probe ??= (async () => {
      return this.track(await this.call(this.h.connect(), "connect() (probe)")).store;
    })();
    return this.#probe;
  }

  /** Transitions stored for `id` (the outbox, as the harness reads it). */
  async transitions(id: string): Promise<readonly WorkflowTransition[]> {
    return await this.call(this.h.transitions(id), "transitions()");
  }

  /** Wrap `store` so each acknowledged write is read back by the probe instance. */
  #instrument(store: InteractionStore): InteractionStore {
    const readBack = (what: string, acked: InteractionRecordV1, caller: InteractionCaller) =>
      this.readBack(
        what,
        acked.revision,
        async () => (await this.probe()).read(acked.id, caller),
        (seen: unknown) => {
          if (isRecord(seen) && seen.ok === false && seen.code === "unauthorized") return "skip";
          const rev = isRecord(seen) && seen.ok === true && isRecord(seen.record) &&
              typeof seen.record.revision === "number"
            ? seen.record.revision
            : -1;
          return rev >= acked.revision || rev;
        },
      );
    return {
      create: async (r) => {
        const out = await store.create(r);
        if (out?.ok === true) await readBack("create", out.value, r.authority);
        return out;
      },
      read: (id, caller) => store.read(id, caller),
      transact: async (q, fn) => {
        const out = await store.transact(q, fn);
        if (out?.ok === true && out.value.record.revision > q.expectedRevision) {
          await readBack("transact", out.value.record, q.caller);
        }
        return out;
      },
    };
  }
}

/** The error a flaky wrapper throws for an injected serialization failure. */
export class InjectedSerializationError extends Error {
  /** Build for `op`. */
  constructor(op: string) {
    super(`could not serialize access due to concurrent update (injected into ${op})`);
    this.name = "InjectedSerializationError";
  }
}

/** The error a flaky wrapper throws for a lost acknowledgement (the transaction did commit). */
export class InjectedLostAckError extends Error {
  /** Build for `op`. */
  constructor(op: string) {
    super(`connection lost after ${op} (injected)`);
    this.name = "InjectedLostAckError";
  }
}

/** The error a kit case throws to simulate a process dying mid-call (nothing may be half-written). */
export class InjectedCrashError extends Error {
  /** Build with what the process was doing when it died. */
  constructor(doing: string) {
    super(`process died while ${doing}`);
    this.name = "InjectedCrashError";
  }
}

/** `store` behind a flaky driver (serialization failures before, lost acknowledgements after). */
export function flakyStore(
  store: InteractionStore,
  random: () => number,
  rates: FlakyRates,
): InteractionStore {
  const before = (op: string) => {
    if (random() < rates.serialization) throw new InjectedSerializationError(op);
  };
  return {
    create: (r) => store.create(r),
    read: (id, c) => {
      before("read");
      return store.read(id, c);
    },
    transact: async (q, fn) => {
      before("transact");
      const out = await store.transact(q, fn);
      if (random() < rates.lostAck) throw new InjectedLostAckError("COMMIT");
      return out;
    },
  };
}

/** `store` with some methods replaced (the kit's control over when a seam call proceeds). */
export function overriding(
  store: InteractionStore,
  over: Partial<InteractionStore>,
): InteractionStore {
  return {
    create: (r) => store.create(r),
    read: (id, c) => store.read(id, c),
    transact: (q, fn) => store.transact(q, fn),
    ...over,
  };
}

/** A short description of a result for failure messages. */
export function describeResult(r: { ok: boolean; error?: { code: string } }): string {
  return r.ok ? "ok" : (r.error?.code ?? "?");
}

/** Registers one case (the kit's own case modules use it). */
export type AddCase = (
  name: string,
  needs: OptionalInteractionCapability | null,
  body: (env: KitCase, prefix: string) => Promise<void>,
) => void;
