/**
 * Conformance kit for host adapters of `./recovery`: a list of
 * runner-agnostic cases (`{ name, skip?, run() }`) that a host runs against
 * its OWN store adapter with its own test runner. No dependency on Deno,
 * Node or any test framework.
 *
 * Covered: CAS exclusivity and revisions, concurrent CAS, the admission
 * fence (durable mark, launch exactly once, stale claims, cancelled turns,
 * authority recheck), concurrent admits, admission racing cancellation,
 * cancel-before-abort ordering,
 * lost-acknowledgement read-back, reconciliation, replay cursors. Cases for
 * optional capabilities (revocation, fault injection, replay, trimming) are
 * returned with `skip` set when the host does not provide them.
 *
 * Passing it is evidence about the adapter under the conditions of the run.
 * Durability across a real process restart needs the host's own tests
 * against its persistent store.
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
import { MemoryRecoveryHost } from "./memory_host.ts";
import type { StoreFault, StoreOp } from "./memory_store.ts";
import { replayAfter, type ReplayWindowSeam } from "./replay.ts";
import { TurnRecovery } from "./turn_recovery.ts";
import type { AbortSeam, AuthoritySeam, EffectRecord, RecoveryStore, TurnDraft } from "./types.ts";

/** One conformance case. `skip` (a reason) is set when a needed optional capability is absent. */
export interface ConformanceCase {
  /** Case name (prefixed). */
  readonly name: string;
  /** Reason the case should be skipped, when the host lacks a capability. */
  readonly skip?: string;
  /** Resolves when the case passes; rejects with a {@link ConformanceFailure} otherwise. */
  run(): Promise<void>;
}

/** Thrown by a failing case: the message names the violated contract. */
export class ConformanceFailure extends Error {
  /** Build with the violated contract. */
  constructor(message: string) {
    super(message);
    this.name = "ConformanceFailure";
  }
}

/** Operations whose acknowledgement the host can make the kit lose. */
export type LosableOp = "casTurn" | "casEffect" | "admitDispatch";

/**
 * What a host hands the kit: a FRESH adapter (its state may be shared with
 * other tests: the kit uses unique turn ids) plus control hooks.
 */
export interface ConformanceHost {
  /** The adapter under test; must implement `admitDispatch`. */
  readonly store: RecoveryStore;
  /** Authority seam answering from the same state the fence rechecks. */
  readonly authority: AuthoritySeam;
  /** Abort seam of the host executions. */
  readonly abort: AbortSeam;
  /** Grant `principal` authority over `turnId`. */
  grant(principal: string, turnId: string): void | Promise<void>;
  /** Optional: revoke authority (enables the authority-recheck case). */
  revoke?(principal: string, turnId: string): void | Promise<void>;
  /** Optional: the NEXT call of `op` commits, then its acknowledgement is lost (rejects). */
  loseNextAck?(op: LosableOp): void | Promise<void>;
  /** Optional: the replay window and a way to fill and trim it. */
  readonly replay?: {
    /** The host's replay window, as {@link replayAfter} reads it. */
    readonly seam: ReplayWindowSeam;
    /** Append the next v1 envelope of its turn (`seq` 1, 2, … per turn); throw if refused. */
    append(envelope: ChatEventEnvelope): void | Promise<void>;
    /** Optional: drop frames with `seq < seq` (enables the stale-cursor check). */
    trimBefore?(turnId: string, seq: number): void | Promise<void>;
  };
  /** Optional cleanup after each case. */
  close?(): void | Promise<void>;
}

/** Optional host capabilities; a host lacking one declares it in {@link ConformanceOptions.lacks}. */
export type OptionalConformanceCapability = "revocation" | "lost-acks" | "replay" | "replay-trim";

/** Options of {@link recoveryConformanceCases}. */
export interface ConformanceOptions {
  /** Optional capabilities the host lacks: their cases are returned with `skip` set. */
  readonly lacks?: readonly OptionalConformanceCapability[];
  /** Prefix of case names. Default `recovery conformance: `. */
  readonly prefix?: string;
  /** Parallel callers in concurrency cases (2..64). Default 8. */
  readonly concurrency?: number;
}

function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new ConformanceFailure(message);
}

let uniq = 0;
function freshTurnId(): string {
  return `conf-${Date.now().toString(36)}-${(++uniq).toString(36)}-${
    Math.random().toString(36).slice(2, 8)
  }`;
}

function turnDraft(turnId: string, effectIds: string[] = ["e1"]): TurnDraft {
  return { turnId, conversationId: `conv-${turnId}`, status: "running", effectIds };
}

const P = "conformance-principal";

/**
 * Build the conformance cases for hosts made by `makeHost` (called once per
 * case). Run every returned case with any runner; see the module docs for
 * the Deno.test and node:test adapters.
 *
 * @example
 * ```ts
 * import { memoryConformanceHost, recoveryConformanceCases } from "@papercusp/chat-protocol/recovery/testing";
 * const cases = recoveryConformanceCases(() => memoryConformanceHost());
 * for (const c of cases) if (!c.skip) await c.run();
 * ```
 */
export function recoveryConformanceCases(
  makeHost: () => ConformanceHost | Promise<ConformanceHost>,
  options: ConformanceOptions = {},
): ConformanceCase[] {
  const prefix = options.prefix ?? "recovery conformance: ";
  const wanted = options.concurrency;
  const n = typeof wanted === "number" && Number.isFinite(wanted)
    ? Math.min(64, Math.max(2, Math.floor(wanted)))
    : 8;
  const lacks = new Set(options.lacks ?? []);
  const cases: ConformanceCase[] = [];
  const add = (
    name: string,
    needs: OptionalConformanceCapability | null,
    body: (h: ConformanceHost, turnId: string) => Promise<void>,
  ) => {
    const skip = needs && lacks.has(needs) ? `host declares it lacks ${needs}` : undefined;
    cases.push({
      name: prefix + name,
      ...(skip ? { skip } : {}),
      async run() {
        const h = await makeHost();
        try {
          if (needs === "revocation") {
            expect(h.revoke, "host must provide revoke() or declare it lacks revocation");
          }
          if (needs === "lost-acks") {
            expect(h.loseNextAck, "host must provide loseNextAck() or declare it lacks lost-acks");
          }
          if (needs === "replay") {
            expect(h.replay, "host must provide replay or declare it lacks replay");
          }
          if (needs === "replay-trim") {
            expect(
              h.replay?.trimBefore,
              "host must provide replay.trimBefore() or declare it lacks replay-trim",
            );
          }
          await body(h, freshTurnId());
        } finally {
          await h.close?.();
        }
      },
    });
  };
  const begin = async (h: ConformanceHost, turnId: string, effectIds = ["e1"]) => {
    await h.grant(P, turnId);
    const r = await h.store.casTurn(turnId, 0, turnDraft(turnId, effectIds));
    expect(
      r.ok && r.record.revision === 1,
      "creating a turn (expected revision 0) must yield revision 1",
    );
    return r.record;
  };
  const claim = async (h: ConformanceHost, turnId: string, effectId = "e1", expected = 0) => {
    const r = await h.store.casEffect(turnId, effectId, expected, {
      turnId,
      effectId,
      state: "claimed",
      claimToken: `tok-${expected}`,
    });
    expect(r.ok, "claiming an effect at its current revision must succeed");
    return r.record;
  };
  const admit = (h: ConformanceHost, turnId: string, claimRevision: number, launch: () => void) => {
    const fence = h.store.admitDispatch;
    expect(typeof fence === "function", "the store must implement admitDispatch");
    return fence.call(h.store, { turnId, effectId: "e1", claimRevision, principal: P, launch });
  };
  /** Grant P and begin `turnId` through a TurnRecovery over the host's seams (`abort` may wrap the host's). */
  const beginWorker = async (
    h: ConformanceHost,
    turnId: string,
    effectIds = ["e1"],
    abort: AbortSeam = h.abort,
  ) => {
    await h.grant(P, turnId);
    const seams = { store: h.store, authority: h.authority, abort };
    const w = new TurnRecovery(seams);
    const b = await w.beginTurn({
      conversationId: `conv-${turnId}`,
      turnId,
      principal: P,
      effectIds,
    });
    expect(b.ok, `beginTurn must succeed, got ${b.ok ? "ok" : b.error.code}`);
    return { w, seams };
  };
  /** Run effect e1 of `turnId` as P through `w`. */
  const runE1 = (w: TurnRecovery, turnId: string, dispatch: () => unknown) =>
    w.runEffect({ turnId, effectId: "e1", principal: P, dispatch });

  add(
    "CAS on the turn record is exclusive and advances the revision by one",
    null,
    async (h, t) => {
      const first = await begin(h, t);
      const dup = await h.store.casTurn(t, 0, turnDraft(t));
      expect(
        !dup.ok && dup.current?.revision === 1,
        "a second create must conflict and return the current record",
      );
      const upd = await h.store.casTurn(t, 1, { ...turnDraft(t), status: "needs-reconciliation" });
      expect(
        upd.ok && upd.record.revision === 2,
        "CAS at the current revision must yield revision + 1",
      );
      const stale = await h.store.casTurn(t, first.revision, turnDraft(t));
      expect(
        !stale.ok && stale.current?.status === "needs-reconciliation",
        "CAS at a stale revision must conflict",
      );
      const read = await h.store.readTurn(t);
      expect(
        read?.revision === 2 && read.status === "needs-reconciliation",
        "readTurn must return the committed record",
      );
    },
  );

  add(
    "CAS on effect records is exclusive under concurrency (exactly one winner)",
    null,
    async (h, t) => {
      await begin(h, t);
      const results = await Promise.allSettled(
        Array.from({ length: n }, (_, i) =>
          h.store.casEffect(t, "e1", 0, {
            turnId: t,
            effectId: "e1",
            state: "claimed",
            claimToken: `c${i}`,
          })),
      );
      const wins = results.flatMap((
        r,
      ) => (r.status === "fulfilled" && r.value.ok ? [r.value.record] : []));
      expect(wins.length === 1, `concurrent creates: expected 1 winner, got ${wins.length}`);
      const stored = await h.store.readEffect(t, "e1");
      expect(
        stored?.claimToken === wins[0].claimToken && stored.revision === 1,
        "the stored claim must be the winner's",
      );
      const ups = await Promise.allSettled(
        Array.from({ length: n }, (_, i) =>
          h.store.casEffect(t, "e1", 1, {
            turnId: t,
            effectId: "e1",
            state: "claimed",
            claimToken: `u${i}`,
          })),
      );
      const upWins = ups.filter((r) => r.status === "fulfilled" && r.value.ok).length;
      expect(upWins === 1, `concurrent updates at one revision: expected 1 winner, got ${upWins}`);
    },
  );

  add(
    "admission marks durably and invokes launch exactly once before resolving",
    null,
    async (h, t) => {
      await begin(h, t);
      const c = await claim(h, t);
      let launches = 0;
      let readInside: Promise<EffectRecord | null> | undefined;
      const out = await admit(h, t, c.revision, () => {
        launches++;
        readInside = h.store.readEffect(t, "e1");
      });
      expect(
        launches === 1,
        `launch must be invoked exactly once inside the fence, got ${launches}`,
      );
      expect(
        out.admitted && out.record.state === "admitted",
        "admitDispatch must report the admission",
      );
      expect(
        out.record.revision === c.revision + 1,
        "admission must advance the effect revision by one",
      );
      const seen = await readInside;
      expect(
        seen?.state === "admitted",
        "the admission mark must be committed before launch is invoked",
      );
      const again = await admit(h, t, c.revision, () => launches++);
      expect(
        !again.admitted && launches === 1,
        "a second admission of the same claim must refuse without launching",
      );
    },
  );

  add("admission refuses stale and superseded claims without launching", null, async (h, t) => {
    await begin(h, t);
    const c1 = await claim(h, t);
    const c2 = await claim(h, t, "e1", c1.revision); // another worker supersedes
    let launches = 0;
    const stale = await admit(h, t, c1.revision, () => launches++);
    expect(
      !stale.admitted && stale.reason === "stale-claim",
      "a superseded claim must be refused as stale-claim",
    );
    const wrong = await admit(h, t, c2.revision + 5, () => launches++);
    expect(
      !wrong.admitted && wrong.reason === "stale-claim",
      "a wrong claim revision must be refused",
    );
    expect(launches === 0, "refused admissions must not launch");
    const okNow = await admit(h, t, c2.revision, () => launches++);
    expect(okNow.admitted && (launches as number) === 1, "the current claim must be admitted");
  });

  add(
    "admission is per effect: a concurrent turn-revision change does not block it",
    null,
    async (h, t) => {
      await begin(h, t, ["e1", "e2"]);
      const c = await claim(h, t);
      const bump = await h.store.casTurn(t, 1, {
        ...turnDraft(t, ["e1", "e2"]),
        reason: "other effect advanced",
      });
      expect(
        bump.ok && bump.record.revision === 2,
        "a running turn's revision must advance by CAS",
      );
      let launches = 0;
      const out = await admit(h, t, c.revision, () => launches++);
      expect(
        out.admitted && launches === 1,
        "admission must check turn status, not the turn revision",
      );
      const turn = await h.store.readTurn(t);
      expect(turn?.revision === 2, "admission must not change the turn record");
    },
  );

  add(
    "admission shares its fence with cancellation (cancelled turn: no launch)",
    null,
    async (h, t) => {
      const turn = await begin(h, t);
      const c = await claim(h, t);
      const cancel = await h.store.casTurn(t, turn.revision, {
        ...turnDraft(t),
        status: "cancelled",
      });
      expect(cancel.ok, "cancelling by CAS must succeed");
      let launches = 0;
      const out = await admit(h, t, c.revision, () => launches++);
      expect(
        !out.admitted && out.reason === "turn-not-running",
        "admission after cancel must refuse turn-not-running",
      );
      expect(launches === 0, "no launch after the cancellation committed");
    },
  );

  add("admission rechecks current authority inside the fence", "revocation", async (h, t) => {
    await begin(h, t);
    const c = await claim(h, t);
    await h.revoke!(P, t);
    let launches = 0;
    const out = await admit(h, t, c.revision, () => launches++);
    expect(
      !out.admitted && out.reason === "unauthorized",
      "admission after revocation must refuse unauthorized",
    );
    expect(launches === 0, "no launch after revocation");
  });

  add("concurrent admissions of one claim launch exactly once", null, async (h, t) => {
    await begin(h, t);
    const c = await claim(h, t);
    let launches = 0;
    const outs = await Promise.allSettled(
      Array.from({ length: n }, () => admit(h, t, c.revision, () => launches++)),
    );
    const admitted = outs.filter((o) => o.status === "fulfilled" && o.value.admitted).length;
    expect(launches === 1, `concurrent admits: expected 1 launch, got ${launches}`);
    expect(admitted === 1, `concurrent admits: expected 1 admission, got ${admitted}`);
  });

  add(
    "admission and a concurrent cancellation share one fence (no launch after the cancel is acknowledged)",
    null,
    async (h, base) => {
      // Race an admission against a cancelling CAS of the same turn, in both
      // orders and with staggered starts. With one fence, either the
      // admission launches before the cancel commits, or it is refused. A
      // fence that checks the turn outside its critical section launches
      // after the cancel was acknowledged.
      const stagger = async (i: number) => {
        if (i % 4 === 1) await Promise.resolve();
        if (i % 4 === 2) { for (let k = 0; k < 5; k++) await Promise.resolve(); }
        if (i % 4 === 3) await new Promise((resolve) => setTimeout(resolve, 0));
      };
      for (let i = 0; i < 2 * n; i++) {
        const t = `${base}-race${i}`;
        const turn = await begin(h, t);
        const c = await claim(h, t);
        let cancelAcked = false;
        let late = 0;
        let launches = 0;
        const onLaunch = () => {
          launches++;
          if (cancelAcked) late++;
        };
        const cancel = () =>
          h.store.casTurn(t, turn.revision, { ...turnDraft(t), status: "cancelled" }).then((r) => {
            if (r.ok) cancelAcked = true;
            return r;
          });
        const [a, cr] = i % 2 === 0
          ? await Promise.all([admit(h, t, c.revision, onLaunch), stagger(i).then(cancel)])
          : await Promise.all([stagger(i).then(() => admit(h, t, c.revision, onLaunch)), cancel()]);
        expect(
          late === 0,
          "launch was invoked after the cancellation was acknowledged: admission and cancellation do not share one fence",
        );
        expect(
          cr.ok,
          "the cancelling CAS must succeed: admission must not change the turn revision",
        );
        expect(
          a.admitted ? launches === 1 : launches === 0 && a.reason === "turn-not-running",
          `admission must launch once when admitted, else refuse turn-not-running (launches ${launches})`,
        );
      }
    },
  );

  add("exactly once end to end: concurrent workers dispatch an effect once", null, async (h, t) => {
    const { seams } = await beginWorker(h, t);
    let dispatches = 0;
    const runs = await Promise.all(
      Array.from({ length: n }, () => runE1(new TurnRecovery(seams), t, () => ++dispatches)),
    );
    expect(dispatches === 1, `expected 1 dispatch, got ${dispatches}`);
    const after = await runE1(new TurnRecovery(seams), t, () => ++dispatches);
    expect(
      after.ok && after.value.status === "completed" && after.value.reused,
      "the stored result must be reused",
    );
    expect(runs.every((r) => r.ok), "no worker may get an error");
  });

  add(
    "cancellation commits before the abort hook, which reaches the execution signal",
    null,
    async (h, t) => {
      const order: string[] = [];
      const abort: AbortSeam = {
        signalFor: (id) => h.abort.signalFor(id),
        abort: async (id, reason) => {
          const seen = await h.store.readTurn(id);
          order.push(`abort-saw:${seen?.status}`);
          await h.abort.abort(id, reason);
        },
      };
      const { w } = await beginWorker(h, t, [], abort);
      const signal = h.abort.signalFor(t);
      const r = await w.cancel({ turnId: t, principal: P });
      expect(r.ok, `cancel must succeed, got ${r.ok ? "" : r.error.code}`);
      expect(
        order.join() === "abort-saw:cancelled",
        `the abort hook must observe the committed cancel, saw ${order.join()}`,
      );
      expect(signal.aborted, "the abort hook must abort the host execution's signal");
    },
  );

  add(
    "a completion whose acknowledgement is lost is read back, not rerun",
    "lost-acks",
    async (h, t) => {
      const { w } = await beginWorker(h, t);
      let dispatches = 0;
      const r = await runE1(w, t, async () => {
        await h.loseNextAck!("casEffect"); // the next effect write is the completion
        return ++dispatches;
      });
      expect(
        r.ok && r.value.status === "completed",
        "a committed completion must be returned after read-back",
      );
      const stored = await h.store.readEffect(t, "e1");
      expect(
        stored?.state === "completed" && dispatches === 1,
        "the completion must be stored once",
      );
    },
  );

  add("a lost admission acknowledgement never relaunches", "lost-acks", async (h, t) => {
    await begin(h, t);
    const c = await claim(h, t);
    await h.loseNextAck!("admitDispatch");
    let launches = 0;
    let threw = false;
    try {
      await admit(h, t, c.revision, () => launches++);
    } catch {
      threw = true;
    }
    // The invariant first: a store that retries a transaction whose ack it
    // lost (and so resolves) must fail here for the relaunch, not for the shape.
    expect(launches === 1, `a committed admission launches exactly once, got ${launches}`);
    expect(threw, "loseNextAck('admitDispatch') must make admitDispatch reject");
    const again = await admit(h, t, c.revision, () => launches++);
    expect(!again.admitted && launches === 1, "retrying after a lost ack must not relaunch");
  });

  add(
    "reconciliation: unknown outcomes are resolved only by the host, through CAS",
    null,
    async (h, t) => {
      const { w, seams } = await beginWorker(h, t);
      let dispatches = 0;
      const fail = () => {
        dispatches++;
        return Promise.reject(new Error("timeout"));
      };
      const r = await runE1(w, t, fail);
      expect(
        r.ok && r.value.status === "needs-reconciliation",
        "a dispatch error must return needs-reconciliation",
      );
      const retry = await runE1(new TurnRecovery(seams), t, fail);
      expect(
        retry.ok && retry.value.status === "needs-reconciliation" && dispatches === 1,
        "a retry must not redispatch",
      );
      const rec = await w.reconcile({
        turnId: t,
        effectId: "e1",
        principal: P,
        outcome: { ok: true, value: "verified" },
      });
      expect(
        rec.ok && rec.value.turnStatus === "running",
        "reconciliation must persist and reopen the turn",
      );
      const reused = await runE1(w, t, fail);
      expect(
        reused.ok && reused.value.status === "completed" && reused.value.outcome.ok &&
          reused.value.outcome.value === "verified" && dispatches === 1,
        "the reconciled result must be reused",
      );
    },
  );

  const frame = (t: string, seq: number): ChatEventEnvelope => ({
    schemaVersion: 1,
    conversationId: `c-${t}`,
    turnId: t,
    eventId: `${t}:${seq}`,
    seq,
    event: { type: "delta", text: String(seq) },
  });
  /** Replay of turn `t` from the host's window after `afterSeq`. */
  const replayOf = (rp: NonNullable<ConformanceHost["replay"]>, t: string) => (afterSeq: number) =>
    replayAfter(rp.seam, { conversationId: `c-${t}`, turnId: t, afterSeq });
  add(
    "replay: exact suffix after each cursor, empty window, cursor beyond latest",
    "replay",
    async (h, t) => {
      const rp = h.replay!;
      const q = replayOf(rp, t);
      const empty = await q(0);
      expect(
        empty.ok && empty.value.frames.length === 0,
        "an empty window must replay nothing for cursor 0",
      );
      const none = await q(1);
      expect(
        !none.ok && none.error.code === "cursor-beyond-latest",
        "cursor 1 on an empty window is beyond latest",
      );
      for (let s = 1; s <= 5; s++) await rp.append(frame(t, s));
      for (let c = 0; c <= 5; c++) {
        const r = await q(c);
        expect(
          r.ok && r.value.frames.length === 5 - c &&
            r.value.frames.every((f, i) => f.seq === c + 1 + i),
          `replay after ${c} must return exactly seq ${c + 1}..5`,
        );
      }
      const beyond = await q(6);
      expect(
        !beyond.ok && beyond.error.code === "cursor-beyond-latest",
        "cursor 6 must be beyond latest",
      );
    },
  );

  add("replay: a cursor below the retained lower bound is stale", "replay-trim", async (h, t) => {
    const rp = h.replay!;
    for (let s = 1; s <= 6; s++) await rp.append(frame(t, s));
    await rp.trimBefore!(t, 4);
    const q = replayOf(rp, t);
    const stale = await q(2);
    expect(
      !stale.ok && stale.error.code === "stale-cursor",
      "cursor 2 with frames from 4 retained must be stale",
    );
    const edge = await q(3);
    expect(
      edge.ok && edge.value.frames.length === 3,
      "cursor 3 with frames from 4 retained must replay 4..6",
    );
  });

  return cases;
}

/**
 * The reference in-memory host as a {@link ConformanceHost}, with every
 * optional capability. `pause` (e.g. `() => Promise.resolve()`) adds an await
 * point before and after each store critical section so concurrent calls
 * interleave. `makeStore` lets tests swap in another `MemoryRecoveryStore`
 * subclass (e.g. a deliberately broken one).
 */
export function memoryConformanceHost(
  options: {
    readonly pause?: (label: string) => Promise<unknown>;
    readonly makeStore?: (
      storeOptions: {
        fault: (op: StoreOp) => StoreFault;
        pause?: (label: string) => Promise<unknown>;
      },
    ) => MemoryRecoveryHost["store"];
  } = {},
): ConformanceHost {
  const lose = new Set<StoreOp>();
  const storeOptions = {
    fault: (op: StoreOp): StoreFault => (lose.delete(op) ? "ack-lost" : "none"),
    pause: options.pause,
  };
  const host = new MemoryRecoveryHost({ store: storeOptions });
  const store = options.makeStore ? options.makeStore(storeOptions) : host.store;
  return {
    store,
    authority: store.authority(),
    abort: host.executions,
    grant: (p, t) => store.grant(p, t),
    revoke: (p, t) => store.revoke(p, t),
    loseNextAck: (op) => {
      lose.add(op);
    },
    replay: {
      seam: host.replay,
      append: (e) => {
        if (!host.replay.append(e)) {
          throw new ConformanceFailure(`append out of order: seq ${e.seq}`);
        }
      },
      trimBefore: (t, seq) => host.replay.trimBefore(t, seq),
    },
  };
}
