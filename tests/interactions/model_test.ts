/**
 * Model-based tests (fc.commands): random sequences of open, answer, decline,
 * cancel, expire-by-clock, revoke authority, lose an ack, fail a commit,
 * change schema revision, change metadata, race two workers, read and new
 * worker, checked step by step against a model. ≥ 10^4 sequences in total.
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import {
  FakeClock,
  type InteractionAuthority,
  InteractionResolver,
  type InteractionStore,
  MemoryInteractionStore,
  type SchemaRef,
} from "../../interactions.ts";
import { schemas } from "./_fixtures.ts";

const IDS = ["c0", "c1", "c2"] as const;
type Idx = 0 | 1 | 2;

interface CardModel {
  status: "pending" | "submitted" | "declined" | "cancelled";
  revision: number;
  schemaRev: 1 | 2;
  expiresAt: number | null;
  revoked: boolean;
  allowDecline: boolean;
  submissionId?: string;
  transitions: number;
}
interface Model {
  now: number;
  cards: (CardModel | undefined)[];
  lostAcks: number;
  failedCommits: number;
  workers: number;
  seq: number;
  /** Principals revoked so far (a revocation also covers cards opened later). */
  revokedPrincipals: boolean[];
}
interface Real {
  clock: FakeClock;
  store: MemoryInteractionStore;
  workers: InteractionResolver[];
  calls: string[];
  /** Status a record first became terminal with (terminal records stay terminal). */
  firstTerminal: Map<string, string>;
}

const authorityOf = (i: Idx): InteractionAuthority => ({
  conversationId: `conv-${i}`,
  principalId: `user-${i}`,
  tenantId: "tenant-1",
  customerId: "cust-1",
  publicOwnerId: "owner-1",
});

function spied(store: InteractionStore, calls: string[]): InteractionStore {
  return {
    create: (r) => (calls.push("create"), store.create(r)),
    read: (id, c) => (calls.push("read"), store.read(id, c)),
    transact: (q, f) => (calls.push("transact"), store.transact(q, f)),
  };
}

function newWorker(r: Real): InteractionResolver {
  return new InteractionResolver({
    store: spied(r.store, r.calls),
    schemas,
    now: () => r.clock.now(),
  });
}

/** What the resolver must answer before it reaches the store's transact (or "proceed"). */
function gate(m: Model, i: Idx, impersonate: boolean): string {
  const c = m.cards[i];
  if (c === undefined) return "not-found";
  if (impersonate || c.revoked) return "unauthorized";
  if (c.status === "submitted" || c.status === "declined") return "duplicate";
  if (c.status === "cancelled") return "cancelled";
  if (c.expiresAt !== null && m.now >= c.expiresAt) return "expired";
  return "proceed";
}

type Outcome = { ok: true; value: { outcome: string } } | { ok: false; error: { code: string } };

/**
 * Apply the store-level faults the model knows about once a call reaches
 * `transact`, check the spy (exactly one read after an uncertain ack, no
 * second transact), and return whether the change committed.
 */
function expectTransact(
  m: Model,
  r: Real,
  out: Outcome,
  mark: number,
): boolean {
  const after = r.calls.slice(mark);
  if (m.failedCommits > 0) {
    m.failedCommits--;
    assert.deepEqual(after, ["read", "transact", "read"], "one read after an uncertain ack");
    assert.ok(!out.ok && out.error.code === "needs-reconciliation", JSON.stringify(out));
    see("needs-reconciliation");
    return false;
  }
  if (m.lostAcks > 0) {
    m.lostAcks--;
    assert.deepEqual(after, ["read", "transact", "read"], "one read after an uncertain ack");
    assert.ok(out.ok && out.value.outcome === "recovered", JSON.stringify(out));
    see("recovered");
    return true;
  }
  assert.deepEqual(after, ["read", "transact"]);
  assert.ok(out.ok && out.value.outcome === "committed", JSON.stringify(out));
  see("committed");
  return true;
}

function expectRefusal(out: Outcome, code: string): void {
  see(code);
  assert.ok(!out.ok, `expected ${code}, got ok`);
  assert.equal(out.error.code, code);
}

class Cmd implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly label: string,
    readonly runFn: (m: Model, r: Real) => Promise<void>,
    readonly checkFn: (m: Readonly<Model>) => boolean = () => true,
  ) {}
  check(m: Readonly<Model>): boolean {
    return this.checkFn(m);
  }
  async run(m: Model, r: Real): Promise<void> {
    commandsRun++;
    await this.runFn(m, r);
    await invariants(m, r);
  }
  toString(): string {
    return this.label;
  }
}

async function invariants(m: Model, r: Real): Promise<void> {
  for (const [k, id] of IDS.entries()) {
    const c = m.cards[k];
    const rec = r.store.peek(id);
    if (c === undefined) {
      assert.equal(rec, undefined);
      continue;
    }
    assert.ok(rec);
    assert.equal(rec.status, c.status, `${id} status`);
    assert.equal(rec.revision, c.revision, `${id} revision`);
    assert.equal(rec.schema.revision, c.schemaRev, `${id} schema`);
    assert.equal(rec.submission?.submissionId, c.submissionId, `${id} submission`);
    assert.equal(r.store.transitions(id).length, c.transitions, `${id} transitions`);
    assert.equal(rec.authority.principalId, `user-${k}`, "bound authority never changes");
    if (rec.status !== "pending") {
      const first = r.firstTerminal.get(id) ?? rec.status;
      r.firstTerminal.set(id, first);
      assert.equal(rec.status, first, "terminal records stay terminal");
    }
  }
  await Promise.resolve();
}

const idx = fc.constantFrom<Idx>(0, 1, 2);
const workerPick = fc.nat({ max: 7 });

const open = fc.record({
  i: idx,
  timeout: fc.constantFrom(0, 100, 1000),
  allowDecline: fc.boolean(),
})
  .map(({ i, timeout, allowDecline }) =>
    new Cmd(`open(${i},${timeout},${allowDecline})`, async (m, r) => {
      const out = await r.workers[0].open({
        id: IDS[i],
        card: { prompt: "?", timeoutMs: timeout, allowDecline },
        authority: authorityOf(i),
        schema: { id: "pick", revision: 1 },
      });
      if (m.cards[i] !== undefined) return expectRefusal(out as Outcome, "already-exists");
      assert.ok(out.ok);
      m.cards[i] = {
        status: "pending",
        revision: 1,
        schemaRev: 1,
        expiresAt: timeout > 0 ? m.now + timeout : null,
        revoked: m.revokedPrincipals[i] === true,
        allowDecline,
        transitions: 0,
      };
    })
  );

/** "a" is valid under both schema revisions, "c" only under revision 2, "zzz" never. */
const answer = fc.record({
  i: idx,
  w: workerPick,
  option: fc.constantFrom("a", "c", "zzz"),
  impersonate: fc.constantFrom("none", "none", "principal", "tenant"),
  via: fc.constantFrom("card", "elicitation"),
}).map(({ i, w, option, impersonate, via }) =>
  new Cmd(`answer(${i},w${w},${option},${impersonate},${via})`, async (m, r) => {
    const worker = r.workers[w % r.workers.length];
    const caller = impersonate === "none"
      ? authorityOf(i)
      : impersonate === "principal"
      ? { ...authorityOf(i), principalId: "intruder" }
      : { ...authorityOf(i), tenantId: "tenant-evil" };
    const sid = `s${++m.seq}`;
    const mark = r.calls.length;
    // The body names another principal and tenant: it must change nothing.
    const value = { optionId: option, principalId: "intruder", tenantId: "tenant-evil" };
    const out = (via === "card"
      ? await worker.answer({
        id: IDS[i],
        caller,
        response: { action: "submit", correlationId: IDS[i], value },
        submissionId: sid,
      })
      : await worker.resolveElicitation({
        id: IDS[i],
        caller,
        result: { action: "accept", content: value },
        submissionId: sid,
      })) as Outcome;
    const g = gate(m, i, impersonate !== "none");
    if (g !== "proceed") return expectRefusal(out, g);
    const c = m.cards[i] as CardModel;
    const valid = option === "a" || (option === "c" && c.schemaRev === 2);
    if (!valid) return expectRefusal(out, "invalid-answer");
    if (expectTransact(m, r, out, mark)) {
      Object.assign(c, {
        status: "submitted",
        revision: c.revision + 1,
        submissionId: sid,
        transitions: c.transitions + 1,
      });
    }
  })
);

const resolveOther = fc.record({
  i: idx,
  w: workerPick,
  action: fc.constantFrom("decline", "cancel", "server-cancel", "elicit-decline", "elicit-cancel"),
}).map(({ i, w, action }) =>
  new Cmd(`${action}(${i},w${w})`, async (m, r) => {
    const worker = r.workers[w % r.workers.length];
    const sid = `s${++m.seq}`;
    const mark = r.calls.length;
    const caller = authorityOf(i);
    const id = IDS[i];
    const out = (action === "server-cancel"
      ? await worker.cancel(id, caller, { submissionId: sid })
      : action.startsWith("elicit-")
      ? await worker.resolveElicitation({
        id,
        caller,
        result: { action: action.slice(7) },
        submissionId: sid,
      })
      : await worker.answer({
        id,
        caller,
        response: { action, correlationId: id },
        submissionId: sid,
      })) as Outcome;
    const g = gate(m, i, false);
    if (g !== "proceed") return expectRefusal(out, g);
    const c = m.cards[i] as CardModel;
    const isDecline = action.endsWith("decline");
    if (isDecline && !c.allowDecline) {
      return expectRefusal(out, "decline-not-allowed");
    }
    if (expectTransact(m, r, out, mark)) {
      Object.assign(c, {
        status: isDecline ? "declined" : "cancelled",
        revision: c.revision + 1,
        submissionId: sid,
        transitions: c.transitions + 1,
      });
    }
  })
);

const changeSchema = fc.record({ i: idx, w: workerPick }).map(({ i, w }) =>
  new Cmd(`changeSchema(${i},w${w})`, async (m, r) => {
    const c = m.cards[i];
    const target: SchemaRef = { id: "pick", revision: c?.schemaRev === 2 ? 1 : 2 };
    const mark = r.calls.length;
    const out = await r.workers[w % r.workers.length].changeSchema(
      IDS[i],
      authorityOf(i),
      target,
    ) as Outcome;
    const g = gate(m, i, false);
    if (g !== "proceed") return expectRefusal(out, g);
    if (expectTransact(m, r, out, mark)) {
      const cm = c as CardModel;
      cm.schemaRev = target.revision as 1 | 2;
      cm.revision++;
    }
  })
);

const metadata = fc.record({ i: idx, w: workerPick, v: fc.string({ maxLength: 5 }) }).map((
  { i, w, v },
) =>
  new Cmd(`metadata(${i},w${w},${JSON.stringify(v)})`, async (m, r) => {
    const mark = r.calls.length;
    const out = await r.workers[w % r.workers.length].updateMetadata(IDS[i], authorityOf(i), {
      note: v,
    }) as Outcome;
    const g = gate(m, i, false);
    if (g !== "proceed") return expectRefusal(out, g);
    if (expectTransact(m, r, out, mark)) (m.cards[i] as CardModel).revision++;
  })
);

const race = fc.record({ i: idx, a: workerPick, b: workerPick }).map(({ i, a, b }) =>
  new Cmd(
    `race(${i},w${a},w${b})`,
    async (m, r) => {
      const wa = r.workers[a % r.workers.length];
      const wb = r.workers[b % r.workers.length];
      const sa = `s${++m.seq}`;
      const sb = `s${++m.seq}`;
      const id = IDS[i];
      const caller = authorityOf(i);
      const outs = await Promise.all([
        wa.answer({
          id,
          caller,
          response: { action: "submit", correlationId: id, value: { optionId: "a" } },
          submissionId: sa,
        }),
        wb.answer({
          id,
          caller,
          response: { action: "submit", correlationId: id, value: { optionId: "a" } },
          submissionId: sb,
        }),
      ]);
      const g = gate(m, i, false);
      if (g !== "proceed") {
        for (const o of outs) expectRefusal(o as Outcome, g);
        return;
      }
      const wins = outs.filter((o) => o.ok);
      assert.equal(wins.length, 1, "exactly one of two racing workers wins");
      see("race-won");
      const winner = wins[0];
      const loser = outs.find((o) => !o.ok);
      assert.ok(winner?.ok && loser && !loser.ok);
      assert.equal(loser.error.code, "duplicate");
      assert.equal(
        loser.error.code === "duplicate" && loser.error.submission.submissionId,
        winner.value.submission.submissionId,
      );
      const c = m.cards[i] as CardModel;
      Object.assign(c, {
        status: "submitted",
        revision: c.revision + 1,
        submissionId: winner.value.submission.submissionId,
        transitions: c.transitions + 1,
      });
    },
    (m) => m.lostAcks === 0 && m.failedCommits === 0,
  )
);

/** An answer whose (async) validation is overtaken by a concurrent change. */
const overtaken = fc.record({
  i: idx,
  w: workerPick,
  change: fc.constantFrom("metadata", "schema", "revoke", "expire", "none"),
}).map(({ i, w, change }) =>
  new Cmd(
    `overtaken(${i},w${w},${change})`,
    async (m, r) => {
      const gateOpen = Promise.withResolvers<void>();
      const entered = Promise.withResolvers<void>();
      const slow = new InteractionResolver({
        store: spied(r.store, r.calls),
        now: () => r.clock.now(),
        schemas: (ref) => {
          const inner = schemas(ref);
          if (inner === undefined) return undefined;
          return {
            "~standard": {
              version: 1,
              vendor: "gated",
              validate: async (v: unknown) => {
                entered.resolve();
                await gateOpen.promise;
                return inner["~standard"].validate(v);
              },
            },
          };
        },
      });
      const id = IDS[i];
      const caller = authorityOf(i);
      const sid = `s${++m.seq}`;
      const g = gate(m, i, false);
      const pending = slow.answer({
        id,
        caller,
        response: { action: "submit", correlationId: id, value: { optionId: "a" } },
        submissionId: sid,
      });
      if (g !== "proceed") {
        expectRefusal(await pending as Outcome, g);
        return;
      }
      await entered.promise;
      const c = m.cards[i] as CardModel;
      const other = r.workers[w % r.workers.length];
      let expected = "committed";
      if (change === "metadata") {
        assert.ok((await other.updateMetadata(id, caller, { k: sid })).ok);
        c.revision++;
        expected = "stale-revision";
      } else if (change === "schema") {
        const target = c.schemaRev === 2 ? 1 : 2;
        assert.ok((await other.changeSchema(id, caller, { id: "pick", revision: target })).ok);
        c.schemaRev = target;
        c.revision++;
        expected = "schema-changed";
      } else if (change === "revoke") {
        r.store.revoke({ principalId: `user-${i}` });
        m.revokedPrincipals[i] = true;
        c.revoked = true;
        expected = "unauthorized";
      } else if (change === "expire" && c.expiresAt !== null) {
        const ms = c.expiresAt - m.now;
        r.clock.advance(ms);
        m.now += ms;
        expected = "expired";
      }
      gateOpen.resolve();
      const out = await pending as Outcome;
      if (expected !== "committed") return expectRefusal(out, expected);
      assert.ok(out.ok && out.value.outcome === "committed", JSON.stringify(out));
      see("committed-after-wait");
      Object.assign(c, {
        status: "submitted",
        revision: c.revision + 1,
        submissionId: sid,
        transitions: c.transitions + 1,
      });
    },
    (m) => m.lostAcks === 0 && m.failedCommits === 0,
  )
);

const read = fc.record({ i: idx, w: workerPick, impersonate: fc.boolean() }).map((
  { i, w, impersonate },
) =>
  new Cmd(`read(${i},w${w},${impersonate})`, async (m, r) => {
    const writes = r.store.stats.writes;
    const caller = impersonate ? { ...authorityOf(i), customerId: "x" } : authorityOf(i);
    const out = await r.workers[w % r.workers.length].read(IDS[i], caller);
    assert.equal(r.store.stats.writes, writes, "read never writes");
    const c = m.cards[i];
    if (c === undefined) return expectRefusal(out as Outcome, "not-found");
    if (impersonate || c.revoked) return expectRefusal(out as Outcome, "unauthorized");
    assert.ok(out.ok);
    const expired = c.status === "pending" && c.expiresAt !== null && m.now >= c.expiresAt;
    assert.equal(out.value.status, expired ? "expired" : c.status);
    assert.equal(out.value.record.revision, c.revision);
    assert.equal(out.value.openCard !== null, out.value.status === "pending");
  })
);

const advance = fc.constantFrom(50, 100, 500, 1000).map((ms) =>
  new Cmd(`advance(${ms})`, (m, r) => {
    r.clock.advance(ms);
    m.now += ms;
    return Promise.resolve();
  })
);

const revoke = idx.map((i) =>
  new Cmd(`revoke(${i})`, (m, r) => {
    r.store.revoke({ principalId: `user-${i}` });
    m.revokedPrincipals[i] = true;
    const c = m.cards[i];
    if (c !== undefined) c.revoked = true;
    return Promise.resolve();
  })
);

const loseAck = fc.constant(
  new Cmd("loseAck", (m, r) => {
    r.store.loseNextAck();
    m.lostAcks++;
    return Promise.resolve();
  }, (m) => m.lostAcks + m.failedCommits < 2),
);

const failCommit = fc.constant(
  new Cmd("failCommit", (m, r) => {
    r.store.failNextCommit();
    m.failedCommits++;
    return Promise.resolve();
  }, (m) => m.lostAcks + m.failedCommits < 2),
);

const addWorker = fc.constant(
  new Cmd("newWorker", (m, r) => {
    r.workers.push(newWorker(r));
    m.workers++;
    return Promise.resolve();
  }, (m) => m.workers < 8),
);

const allCommands = [
  open,
  open,
  open,
  answer,
  answer,
  answer,
  resolveOther,
  changeSchema,
  metadata,
  race,
  overtaken,
  overtaken,
  read,
  advance,
  revoke,
  loseAck,
  failCommit,
  addWorker,
];

function setupModel(): { model: Model; real: Real } {
  const clock = new FakeClock();
  const store = new MemoryInteractionStore({ now: () => clock.now() });
  const real: Real = { clock, store, workers: [], calls: [], firstTerminal: new Map() };
  real.workers.push(newWorker(real));
  return {
    model: {
      now: clock.now(),
      cards: [],
      lostAcks: 0,
      failedCommits: 0,
      workers: 1,
      seq: 0,
      revokedPrincipals: [],
    },
    real,
  };
}

let sequences = 0;
let commandsRun = 0;
/** Outcome counts, to show the model explores the interesting states. */
const seen = new Map<string, number>();
const see = (k: string) => seen.set(k, (seen.get(k) ?? 0) + 1);

Deno.test("model: 10^4 random command sequences agree with the model", async () => {
  await fc.assert(
    fc.asyncProperty(fc.commands(allCommands, { maxCommands: 30, size: "+1" }), async (cmds) => {
      sequences++;
      await fc.asyncModelRun(setupModel, cmds);
    }),
    { numRuns: 10_000 },
  );
  assert.ok(sequences >= 10_000, `${sequences} sequences`);
  console.log(
    `model: ${sequences} sequences, ${commandsRun} commands`,
    Object.fromEntries([...seen].sort()),
  );
  // Every interesting outcome must have been reached many times.
  for (
    const k of [
      "committed",
      "recovered",
      "needs-reconciliation",
      "race-won",
      "duplicate",
      "cancelled",
      "expired",
      "unauthorized",
      "invalid-answer",
      "decline-not-allowed",
      "stale-revision",
      "schema-changed",
      "committed-after-wait",
      "not-found",
      "already-exists",
    ]
  ) {
    assert.ok((seen.get(k) ?? 0) >= 50, `${k} reached only ${seen.get(k) ?? 0} times`);
  }
});

Deno.test("model: invariants catch a change the model did not predict", async () => {
  // Sanity check that the model can fail.
  const { model, real } = setupModel();
  const opener = new Cmd("open", async (m, r) => {
    await r.workers[0].open({
      id: "c0",
      card: { prompt: "?" },
      authority: authorityOf(0),
      schema: { id: "pick", revision: 1 },
    });
    m.cards[0] = {
      status: "pending",
      revision: 1,
      schemaRev: 1,
      expiresAt: null,
      revoked: false,
      allowDecline: true,
      transitions: 0,
    };
  });
  await opener.run(model, real);
  // Mutate the real store behind the model's back: the invariant must notice.
  await real.workers[0].updateMetadata("c0", authorityOf(0), { sneaky: "1" });
  await assert.rejects(() => invariants(model, real), /revision/);
});
