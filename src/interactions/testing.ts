/**
 * Conformance kit for host {@link InteractionStore}s: a runner-agnostic list
 * of `{ name, run() }` cases that exercise the fence (authority, scope,
 * revision, schema, expiry, cancellation), the exactly-once callback, atomic
 * record + transition writes, read-only decisions, concurrent answers from
 * fresh workers and the resolver's end-to-end behaviour.
 *
 * Passing it proves the store's *logic* under concurrency in one process. It
 * does not prove durability: a host's Postgres (or other) adapter must
 * separately prove that committed records and transitions survive a process
 * restart (kill the process after an acknowledged commit, start a new one,
 * read).
 *
 * Run with Deno:
 * ```ts ignore
 * import { interactionStoreConformance } from "@papercusp/chat-protocol/interactions";
 * for (const c of interactionStoreConformance(makeHarness)) {
 *   Deno.test({ name: c.name, ignore: c.skip !== undefined, fn: () => c.run() });
 * }
 * ```
 * Run with node:test:
 * ```ts ignore
 * import { test } from "node:test";
 * import { interactionStoreConformance } from "@papercusp/chat-protocol/interactions";
 * for (const c of interactionStoreConformance(makeHarness)) test(c.name, { skip: c.skip }, () => c.run());
 * ```
 *
 * @module
 */
import { ownString } from "../_internal/guards.ts";
import { InteractionResolver } from "./resolver.ts";
import type { StandardSchemaV1 } from "./standard_schema.ts";
import type {
  InteractionAuthority,
  InteractionRecordV1,
  InteractionStore,
  SchemaRef,
  TransactDecision,
  WorkflowTransition,
} from "./types.ts";

/** What the kit needs from a host store under test. One fresh harness per case. */
export interface InteractionStoreHarness {
  /** The store (empty). */
  readonly store: InteractionStore;
  /** Store clock, epoch ms (the clock the fence judges expiry by). */
  now(): number;
  /** Advance the store clock by `ms`. */
  advanceClock(ms: number): void | Promise<void>;
  /** Revoke this bound authority (e.g. remove the principal's grant). */
  revoke(authority: InteractionAuthority): void | Promise<void>;
  /** Workflow transitions stored for one interaction (the outbox). */
  transitions(
    interactionId: string,
  ): readonly WorkflowTransition[] | Promise<readonly WorkflowTransition[]>;
  /**
   * Optional fault hook: the NEXT `transact` runs (commits or is refused by
   * the fence) but its acknowledgement is lost, i.e. it rejects. Enables the
   * lost-acknowledgement case; without it that case is returned with `skip`.
   */
  loseNextAck?(): void | Promise<void>;
  /**
   * Optional fault hook: step the clock source under the store back by `ms`
   * (an NTP step, or another worker whose clock lags). Enables the
   * clock-rewind case; without it that case is returned with `skip`.
   */
  rewindClock?(ms: number): void | Promise<void>;
  /** Release resources after the case (optional). */
  close?(): void | Promise<void>;
}

/** One conformance case: run it with any test runner; it rejects on failure. */
export interface InteractionConformanceCase {
  /** Stable, descriptive case name. */
  readonly name: string;
  /** Set (to the reason) when the harness lacks an optional hook the case needs. */
  readonly skip?: string;
  /** Runs the case; rejects with a {@link InteractionConformanceError} on failure. */
  run(): Promise<void>;
}

/** Options of {@link interactionStoreConformance}. */
export interface InteractionConformanceOptions {
  /**
   * The harness implements `loseNextAck`: run the lost-acknowledgement case
   * (otherwise it is returned with `skip` set).
   */
  readonly lostAcks?: boolean;
  /**
   * The harness implements `rewindClock`: run the clock-rewind case
   * (otherwise it is returned with `skip`).
   */
  readonly clockRewind?: boolean;
}

/** Thrown (as a rejection) by a failing conformance case. */
export class InteractionConformanceError extends Error {
  /** Build the error. */
  constructor(message: string) {
    super(message);
    this.name = "InteractionConformanceError";
  }
}

function check(cond: unknown, message: string): asserts cond {
  if (!cond) throw new InteractionConformanceError(message);
}

/** The authority the kit binds its cards to. */
export const KIT_AUTHORITY: InteractionAuthority = {
  conversationId: "conv-kit",
  principalId: "user-kit",
  tenantId: "tenant-kit",
  customerId: "customer-kit",
  publicOwnerId: "owner-kit",
};

const OTHER: InteractionAuthority = { ...KIT_AUTHORITY, principalId: "user-other" };
const SCHEMA_1: SchemaRef = { id: "kit-choice", revision: 1 };
const SCHEMA_2: SchemaRef = { id: "kit-choice", revision: 2 };

/** A Standard Schema accepting `{ choice: "a" | "b" }`, optionally held at a gate. */
function choiceSchema(gate?: Gate): StandardSchemaV1<unknown, { choice: string }> {
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

/** A gate an async validator waits at, so a case can act between validation and commit. */
class Gate {
  #entered!: () => void;
  #release!: () => void;
  readonly entered: Promise<void> = new Promise((r) => (this.#entered = r));
  readonly #opened: Promise<void> = new Promise((r) => (this.#release = r));
  pass(): Promise<void> {
    this.#entered();
    return this.#opened;
  }
  open(): void {
    this.#release();
  }
}

function record(id: string, now: number, expiresAt: number | null = null): InteractionRecordV1 {
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

function submitted(cur: InteractionRecordV1, now: number, sid: string): InteractionRecordV1 {
  return {
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
}

function writeSubmit(cur: InteractionRecordV1, now: number, sid: string): TransactDecision<string> {
  const next = submitted(cur, now, sid);
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

const REQ = (id: string, revision = 1, schema: SchemaRef = SCHEMA_1) => ({
  id,
  caller: KIT_AUTHORITY,
  expectedRevision: revision,
  expectedSchema: schema,
});

/**
 * Checks that the store refuses `req` with `code` WITHOUT running the
 * callback (which would try to submit `sid`); `why` names the case.
 */
async function refusedBeforeCallback(
  h: InteractionStoreHarness,
  req: ReturnType<typeof REQ>,
  code: string,
  why: string,
  sid = "late",
): Promise<void> {
  let called = false;
  const out = await h.store.transact(req, (cur, ctx) => {
    called = true;
    return writeSubmit(cur, ctx.now, sid);
  });
  check(!out.ok && out.error.code === code, `${why} → ${code}`);
  check(!called, `callback must not run ${why}`);
}

function submit(id: string, choice: unknown, extra: Record<string, unknown> = {}) {
  return { action: "submit", correlationId: id, value: { choice, ...extra } };
}

/**
 * Build the conformance cases for a store. `makeHarness` is called once per
 * case and must return a harness over an EMPTY store. Every case is
 * deterministic and independent.
 *
 * @example
 * ```ts
 * import { FakeClock, MemoryInteractionStore } from "@papercusp/chat-protocol/interactions";
 * import {
 *   interactionStoreConformance,
 *   type InteractionStoreHarness,
 * } from "@papercusp/chat-protocol/interactions/testing";
 * const cases = interactionStoreConformance((): InteractionStoreHarness => {
 *   const clock = new FakeClock();
 *   const store = new MemoryInteractionStore({ now: () => clock.now() });
 *   return {
 *     store, now: () => clock.now(), advanceClock: (ms) => clock.advance(ms),
 *     revoke: (a) => store.revoke(a), transitions: (id) => store.transitions(id),
 *   };
 * });
 * for (const c of cases) if (c.skip === undefined) await c.run();
 * ```
 */
export function interactionStoreConformance(
  makeHarness: () => InteractionStoreHarness | Promise<InteractionStoreHarness>,
  options: InteractionConformanceOptions = {},
): InteractionConformanceCase[] {
  const cases: InteractionConformanceCase[] = [];
  const add = (
    name: string,
    body: (h: InteractionStoreHarness) => Promise<void>,
    needs?: "loseNextAck" | "rewindClock",
  ) =>
    cases.push({
      name,
      ...(needs === "loseNextAck" && options.lostAcks !== true
        ? { skip: "the harness does not declare lostAcks (a loseNextAck hook)" }
        : needs === "rewindClock" && options.clockRewind !== true
        ? { skip: "the harness does not declare clockRewind (a rewindClock hook)" }
        : {}),
      async run() {
        const h = await makeHarness();
        try {
          await body(h);
        } finally {
          await h.close?.();
        }
      },
    });
  const worker = (h: InteractionStoreHarness, gate?: Gate) =>
    new InteractionResolver({
      store: h.store,
      now: () => h.now(),
      schemas: (ref) =>
        ref.id === SCHEMA_1.id && (ref.revision === 1 || ref.revision === 2)
          ? choiceSchema(gate)
          : undefined,
    });

  // ---------------------------------------------------------------- store level
  add("store: create inserts once and never overwrites", async (h) => {
    const rec = record("s-create", h.now());
    check((await h.store.create(rec)).ok, "first create must succeed");
    const again = await h.store.create({ ...rec, metadata: { overwritten: "yes" } });
    check(!again.ok && again.error.code === "already-exists", "second create must refuse");
    const r = await h.store.read(rec.id, KIT_AUTHORITY);
    check(r.ok && r.record.metadata.overwritten === undefined, "create must not overwrite");
  });

  add("store: read rechecks scope and current authority", async (h) => {
    await h.store.create(record("s-read", h.now()));
    const missing = await h.store.read("s-missing", KIT_AUTHORITY);
    check(!missing.ok && missing.code === "not-found", "missing → not-found");
    const other = await h.store.read("s-read", OTHER);
    check(!other.ok && other.code === "unauthorized", "another principal → unauthorized");
    for (const k of ["tenantId", "conversationId", "customerId", "publicOwnerId"] as const) {
      const r = await h.store.read("s-read", { ...KIT_AUTHORITY, [k]: "someone-else" });
      check(!r.ok && r.code === "unauthorized", `another ${k} → unauthorized`);
    }
    await h.revoke(KIT_AUTHORITY);
    const revoked = await h.store.read("s-read", KIT_AUTHORITY);
    check(!revoked.ok && revoked.code === "unauthorized", "revoked authority → unauthorized");
  });

  add(
    "store: transact calls back exactly once and writes record + transition atomically",
    async (h) => {
      await h.store.create(record("s-once", h.now()));
      let calls = 0;
      const out = await h.store.transact(REQ("s-once"), (cur, ctx) => {
        calls++;
        check(cur.revision === 1 && cur.status === "pending", "callback sees the current record");
        check(ctx.authority.principalId === KIT_AUTHORITY.principalId, "callback gets authority");
        return writeSubmit(cur, ctx.now, "sub-1");
      });
      check(calls === 1, `callback must run exactly once, ran ${calls}`);
      check(out.ok && out.value.result === "sub-1", "transact returns the callback result");
      const r = await h.store.read("s-once", KIT_AUTHORITY);
      check(r.ok && r.record.revision === 2 && r.record.status === "submitted", "next stored");
      const ts = await h.transitions("s-once");
      check(ts.length === 1 && ts[0].submissionId === "sub-1", "exactly one transition stored");
    },
  );

  add("store: a read-only decision has no effect", async (h) => {
    await h.store.create(record("s-ro", h.now()));
    const out = await h.store.transact(REQ("s-ro"), () => ({ kind: "read", result: 42 }));
    check(out.ok && out.value.result === 42 && out.value.transition === null, "read result");
    const r = await h.store.read("s-ro", KIT_AUTHORITY);
    check(r.ok && r.record.revision === 1 && r.record.status === "pending", "nothing written");
    check((await h.transitions("s-ro")).length === 0, "no transition");
  });

  add("store: fence refuses another principal without calling back", async (h) => {
    await h.store.create(record("s-scope", h.now()));
    for (
      const k of [
        "principalId",
        "tenantId",
        "conversationId",
        "customerId",
        "publicOwnerId",
      ] as const
    ) {
      await refusedBeforeCallback(
        h,
        { ...REQ("s-scope"), caller: { ...KIT_AUTHORITY, [k]: "intruder" } },
        "unauthorized",
        `for a ${k} mismatch`,
        "intruder",
      );
    }
    const r = await h.store.read("s-scope", KIT_AUTHORITY);
    check(r.ok && r.record.status === "pending", "still pending");
  });

  add("store: fence rechecks revoked authority inside the transaction", async (h) => {
    await h.store.create(record("s-revoke", h.now()));
    const pre = await h.store.read("s-revoke", KIT_AUTHORITY);
    check(pre.ok, "readable before revocation");
    await h.revoke(KIT_AUTHORITY);
    await refusedBeforeCallback(h, REQ("s-revoke"), "unauthorized", "after revocation");
    check((await h.transitions("s-revoke")).length === 0, "no transition after revocation");
  });

  add("store: fence refuses at and after expiry by the store clock", async (h) => {
    await h.store.create(record("s-exp", h.now(), h.now() + 1000));
    await h.advanceClock(1000);
    await refusedBeforeCallback(h, REQ("s-exp"), "expired", "after expiry");
    check((await h.transitions("s-exp")).length === 0, "no transition after expiry");
  });

  add("store: fence refuses resolved and cancelled records", async (h) => {
    await h.store.create(record("s-term", h.now()));
    await h.store.transact(REQ("s-term"), (cur, ctx) => writeSubmit(cur, ctx.now, "first"));
    const again = await h.store.transact(
      REQ("s-term", 2),
      (cur, ctx) => writeSubmit(cur, ctx.now, "second"),
    );
    check(!again.ok && again.error.code === "resolved", "resolved record → resolved");
    await h.store.create(record("s-cancel", h.now()));
    await h.store.transact(REQ("s-cancel"), (cur, ctx) => ({
      kind: "write",
      next: { ...cur, revision: 2, status: "cancelled" },
      transition: null,
      result: ctx.now,
    }));
    const late = await h.store.transact(
      REQ("s-cancel", 2),
      (cur, ctx) => writeSubmit(cur, ctx.now, "x"),
    );
    check(!late.ok && late.error.code === "cancelled", "cancelled record → cancelled");
  });

  add("store: fence refuses a changed schema and a stale revision", async (h) => {
    await h.store.create(record("s-rev", h.now()));
    await h.store.transact(REQ("s-rev"), (cur) => ({
      kind: "write",
      next: { ...cur, revision: 2, schema: { ...SCHEMA_2 } },
      transition: null,
      result: null,
    }));
    const schema = await h.store.transact(
      REQ("s-rev", 1, SCHEMA_1),
      (cur, ctx) => writeSubmit(cur, ctx.now, "x"),
    );
    check(!schema.ok && schema.error.code === "schema-changed", "old schema → schema-changed");
    await h.store.transact(REQ("s-rev", 2, SCHEMA_2), (cur) => ({
      kind: "write",
      next: { ...cur, revision: 3, metadata: { step: "1" } },
      transition: null,
      result: null,
    }));
    const stale = await h.store.transact(
      REQ("s-rev", 2, SCHEMA_2),
      (cur, ctx) => writeSubmit(cur, ctx.now, "x"),
    );
    check(!stale.ok && stale.error.code === "stale-revision", "old revision → stale-revision");
    const r = await h.store.read("s-rev", KIT_AUTHORITY);
    check(
      r.ok && r.record.status === "pending" && r.record.revision === 3,
      "metadata advanced revision",
    );
  });

  add("store: concurrent transacts on one revision commit exactly once", async (h) => {
    await h.store.create(record("s-race", h.now()));
    const outs = await Promise.all(
      Array.from(
        { length: 8 },
        (_, i) => h.store.transact(REQ("s-race"), (cur, ctx) => writeSubmit(cur, ctx.now, `w${i}`)),
      ),
    );
    const winners = outs.filter((o) => o.ok);
    check(winners.length === 1, `exactly one transact must commit, ${winners.length} did`);
    check((await h.transitions("s-race")).length === 1, "exactly one transition");
    const r = await h.store.read("s-race", KIT_AUTHORITY);
    check(
      r.ok && winners[0].ok && r.record.submission?.submissionId === winners[0].value.result,
      "the stored submission is the winner's",
    );
  });

  add(
    "store: a clock step back never re-opens an expired record",
    async (h) => {
      const rewind = h.rewindClock;
      check(rewind !== undefined, "clockRewind declared but the harness has no rewindClock");
      await h.store.create(record("s-rewind", h.now(), h.now() + 1000));
      await h.advanceClock(1000);
      const first = await h.store.transact(
        REQ("s-rewind"),
        (cur, ctx) => writeSubmit(cur, ctx.now, "a"),
      );
      check(!first.ok && first.error.code === "expired", "expired at the boundary");
      await rewind.call(h, 500);
      await refusedBeforeCallback(h, REQ("s-rewind"), "expired", "after the clock stepped back");
      const r = await h.store.read("s-rewind", KIT_AUTHORITY);
      check(
        r.ok && r.record.expiresAt !== null && r.now >= r.record.expiresAt,
        "read's clock must not go back either",
      );
      check((await h.transitions("s-rewind")).length === 0, "no transition");
    },
    "rewindClock",
  );

  // ------------------------------------------------------------- resolver level
  add(
    "resolver: two workers answer, one wins, the other gets duplicate with the stored submission",
    async (h) => {
      const opened = await worker(h).open({
        id: "r-dup",
        card: { prompt: "a or b?" },
        authority: KIT_AUTHORITY,
        schema: SCHEMA_1,
      });
      check(opened.ok, "open");
      const [x, y] = await Promise.all([
        worker(h).answer({
          id: "r-dup",
          caller: KIT_AUTHORITY,
          response: submit("r-dup", "a"),
          submissionId: "x",
        }),
        worker(h).answer({
          id: "r-dup",
          caller: KIT_AUTHORITY,
          response: submit("r-dup", "b"),
          submissionId: "y",
        }),
      ]);
      const wins = [x, y].filter((o) => o.ok);
      check(wins.length === 1, `exactly one worker must win, ${wins.length} did`);
      const loser = x.ok ? y : x;
      const winner = x.ok ? x : y;
      check(!loser.ok && loser.error.code === "duplicate", "the loser gets duplicate");
      check(
        !loser.ok && loser.error.code === "duplicate" && winner.ok &&
          loser.error.submission.submissionId === winner.value.submission.submissionId,
        "duplicate carries the stored (winning) submission",
      );
      check((await h.transitions("r-dup")).length === 1, "one workflow transition");
    },
  );

  add("resolver: authority revoked while validating → unauthorized, nothing stored", async (h) => {
    const gate = new Gate();
    await worker(h).open({
      id: "r-rev",
      card: { prompt: "?" },
      authority: KIT_AUTHORITY,
      schema: SCHEMA_1,
    });
    const pending = worker(h, gate).answer({
      id: "r-rev",
      caller: KIT_AUTHORITY,
      response: submit("r-rev", "a"),
    });
    await gate.entered;
    await h.revoke(KIT_AUTHORITY);
    gate.open();
    const out = await pending;
    check(
      !out.ok && out.error.code === "unauthorized",
      `expected unauthorized, got ${describe(out)}`,
    );
    check((await h.transitions("r-rev")).length === 0, "no transition");
  });

  add("resolver: expires while validating → expired, nothing stored", async (h) => {
    const gate = new Gate();
    await worker(h).open({
      id: "r-exp",
      card: { prompt: "?", timeoutMs: 500 },
      authority: KIT_AUTHORITY,
      schema: SCHEMA_1,
    });
    const pending = worker(h, gate).answer({
      id: "r-exp",
      caller: KIT_AUTHORITY,
      response: submit("r-exp", "a"),
    });
    await gate.entered;
    await h.advanceClock(500);
    gate.open();
    const out = await pending;
    check(!out.ok && out.error.code === "expired", `expected expired, got ${describe(out)}`);
    const view = await worker(h).read("r-exp", KIT_AUTHORITY);
    check(
      view.ok && view.value.status === "expired" && view.value.record.revision === 1,
      "reads expired",
    );
    check((await h.transitions("r-exp")).length === 0, "no transition");
  });

  add(
    "resolver: schema or metadata changed while validating → schema-changed / stale-revision",
    async (h) => {
      for (const change of ["schema", "metadata"] as const) {
        const id = `r-chg-${change}`;
        const gate = new Gate();
        await worker(h).open({
          id,
          card: { prompt: "?" },
          authority: KIT_AUTHORITY,
          schema: SCHEMA_1,
        });
        const pending = worker(h, gate).answer({
          id,
          caller: KIT_AUTHORITY,
          response: submit(id, "a"),
        });
        await gate.entered;
        const changed = change === "schema"
          ? await worker(h).changeSchema(id, KIT_AUTHORITY, SCHEMA_2)
          : await worker(h).updateMetadata(id, KIT_AUTHORITY, { note: "edited" });
        check(
          changed.ok && changed.value.record.revision === 2,
          `${change} change advances the revision`,
        );
        gate.open();
        const out = await pending;
        const want = change === "schema" ? "schema-changed" : "stale-revision";
        check(!out.ok && out.error.code === want, `expected ${want}, got ${describe(out)}`);
        const view = await worker(h).read(id, KIT_AUTHORITY);
        check(view.ok && view.value.status === "pending", "still pending");
      }
    },
  );

  add("resolver: submitted fields never grant authority", async (h) => {
    await worker(h).open({
      id: "r-auth",
      card: { prompt: "?" },
      authority: KIT_AUTHORITY,
      schema: SCHEMA_1,
    });
    const intruder = await worker(h).answer({
      id: "r-auth",
      caller: OTHER,
      response: submit("r-auth", "a"),
    });
    check(
      !intruder.ok && intruder.error.code === "unauthorized",
      "another principal → unauthorized",
    );
    const crossTenant = await worker(h).answer({
      id: "r-auth",
      caller: { ...KIT_AUTHORITY, tenantId: "tenant-other" },
      response: submit("r-auth", "a"),
    });
    check(
      !crossTenant.ok && crossTenant.error.code === "unauthorized",
      "another tenant → unauthorized",
    );
    const named = await worker(h).answer({
      id: "r-auth",
      caller: KIT_AUTHORITY,
      response: submit("r-auth", "a", {
        principalId: "user-other",
        tenantId: "tenant-other",
        authority: OTHER,
      }),
    });
    check(named.ok, "the bound caller may answer");
    const view = await worker(h).read("r-auth", KIT_AUTHORITY);
    check(
      view.ok && view.value.record.authority.principalId === KIT_AUTHORITY.principalId &&
        view.value.record.authority.tenantId === KIT_AUTHORITY.tenantId &&
        view.value.record.submission?.principalId === KIT_AUTHORITY.principalId,
      "the bound authority and the submitting principal are unchanged",
    );
    const otherRead = await worker(h).read("r-auth", OTHER);
    check(
      !otherRead.ok && otherRead.error.code === "unauthorized",
      "the other principal still cannot read",
    );
  });

  add(
    "resolver: MCP elicitation accept / decline / cancel resolve through the same path",
    async (h) => {
      const w = worker(h);
      for (
        const [id, result, status] of [
          ["e-acc", { action: "accept", content: { choice: "b" } }, "submitted"],
          ["e-dec", { action: "decline" }, "declined"],
          ["e-can", { action: "cancel" }, "cancelled"],
        ] as const
      ) {
        await w.open({ id, card: { prompt: "?" }, authority: KIT_AUTHORITY, schema: SCHEMA_1 });
        const out = await w.resolveElicitation({ id, caller: KIT_AUTHORITY, result });
        check(out.ok && out.value.record.status === status, `${result.action} → ${status}`);
        check((await h.transitions(id)).length === 1, `${result.action} stores one transition`);
      }
      await w.open({
        id: "e-bad",
        card: { prompt: "?" },
        authority: KIT_AUTHORITY,
        schema: SCHEMA_1,
      });
      const bad = await w.resolveElicitation({
        id: "e-bad",
        caller: KIT_AUTHORITY,
        result: { action: "accept", content: { choice: "zzz" } },
      });
      check(
        !bad.ok && bad.error.code === "invalid-answer" && bad.error.issues.length > 0,
        "invalid content",
      );
    },
  );

  add("resolver: read recovers state without advancing", async (h) => {
    const w = worker(h);
    await w.open({
      id: "r-read",
      card: { prompt: "?" },
      authority: KIT_AUTHORITY,
      schema: SCHEMA_1,
    });
    for (let i = 0; i < 3; i++) {
      const v = await w.read("r-read", KIT_AUTHORITY);
      check(
        v.ok && v.value.status === "pending" && v.value.record.revision === 1,
        "pending, rev 1",
      );
      check(v.ok && v.value.openCard?.correlationId === "r-read", "open card snapshot");
    }
    await w.answer({ id: "r-read", caller: KIT_AUTHORITY, response: submit("r-read", "a") });
    for (let i = 0; i < 3; i++) {
      const v = await w.read("r-read", KIT_AUTHORITY);
      check(
        v.ok && v.value.status === "submitted" && v.value.record.revision === 2,
        "terminal, rev 2",
      );
      check(v.ok && v.value.openCard === null, "no open card once answered");
    }
    check((await h.transitions("r-read")).length === 1, "reads add no transitions");
  });

  add(
    "resolver: lost acknowledgement → exactly one read → the stored submission or needs-reconciliation",
    async (h) => {
      const lose = h.loseNextAck;
      check(lose !== undefined, "lostAcks declared but the harness has no loseNextAck");
      const calls: string[] = [];
      const s = h.store;
      const spy: InteractionStore = {
        create: (r) => s.create(r),
        read: (id, c) => (calls.push("read"), s.read(id, c)),
        transact: (q, f) => (calls.push("transact"), s.transact(q, f)),
      };
      const w = new InteractionResolver({ store: spy, schemas: () => choiceSchema(), now: h.now });
      // The winner's ack is lost: recovered from the one read, never re-written.
      await w.open({
        id: "r-ack",
        card: { prompt: "?" },
        authority: KIT_AUTHORITY,
        schema: SCHEMA_1,
      });
      await lose.call(h);
      const won = await w.answer({
        id: "r-ack",
        caller: KIT_AUTHORITY,
        response: submit("r-ack", "a"),
        submissionId: "lost-winner",
      });
      check(
        calls.join(",") === "read,transact,read",
        `expected read,transact,read; got ${calls.join(",")}`,
      );
      check(
        won.ok && won.value.outcome === "recovered",
        `expected recovered, got ${describe(won)}`,
      );
      check(
        won.ok && won.value.submission.submissionId === "lost-winner",
        "recovered the stored submission",
      );
      check((await h.transitions("r-ack")).length === 1, "exactly one transition");
      // A loser that passed validation before the winner committed, whose
      // (refused) transact loses its ack: needs-reconciliation, record unchanged.
      await w.open({
        id: "r-ack2",
        card: { prompt: "?" },
        authority: KIT_AUTHORITY,
        schema: SCHEMA_1,
      });
      const gate = new Gate();
      const slow = new InteractionResolver({
        store: spy,
        schemas: () => choiceSchema(gate),
        now: h.now,
      });
      const pending = slow.answer({
        id: "r-ack2",
        caller: KIT_AUTHORITY,
        response: submit("r-ack2", "b"),
        submissionId: "loser",
      });
      await gate.entered;
      const first = await w.answer({
        id: "r-ack2",
        caller: KIT_AUTHORITY,
        response: submit("r-ack2", "a"),
        submissionId: "winner",
      });
      check(first.ok, "the first answer commits");
      await lose.call(h);
      calls.length = 0;
      gate.open();
      const lost = await pending;
      check(
        calls.join(",") === "transact,read",
        `expected transact,read after validation; got ${calls.join(",")}`,
      );
      check(
        !lost.ok && lost.error.code === "needs-reconciliation",
        `expected needs-reconciliation, got ${describe(lost)}`,
      );
      const view = await w.read("r-ack2", KIT_AUTHORITY);
      check(
        view.ok && view.value.record.submission?.submissionId === "winner" &&
          view.value.record.revision === 2,
        "the loser never advanced the record",
      );
      check((await h.transitions("r-ack2")).length === 1, "exactly one transition");
    },
    "loseNextAck",
  );

  return cases;
}

function describe(r: { ok: boolean; error?: { code: string } }): string {
  return r.ok ? "ok" : (r.error?.code ?? "?");
}
