/**
 * Child process of the multi-process crash test: one worker with its own
 * connections (one for the stores, one for the ledger and the fence
 * checks), racing the other workers on the same turns, effects and cards
 * through `TurnRecovery` and `InteractionResolver` over the Postgres stores.
 *
 * Args: `<schema> <workerId> <seed> <killPlan JSON> <mode>`; `DATABASE_URL`.
 * - mode `work`: run effects, answer cards, now and then cancel a turn or a
 *   card, revoke a turn's or a card's authority, resume turns; inject
 *   uncertain acknowledgements (the write committed, the connection "dropped");
 *   with a kill plan, stop dead at a kill point and print `hold …`: the
 *   driver SIGKILLs it there.
 * - mode `sweep`: no faults; as the host's system identity, resolve every
 *   effect that needs it (against the ledger) and run every open effect,
 *   until nothing is open; then print `swept`.
 *
 * Every side effect (a dispatch) first writes a ledger row keyed by its
 * effect, on its own connection, outside the stores' transactions. Inside
 * every admission fence and every card transaction, the worker checks from
 * that other connection that the turn still runs and its grant exists (or
 * the card's authority is not revoked): a failed check is a violation row.
 *
 * Prints one line per event: `ready`, `hold <point> <key>`, `done <turn>
 * <effect> <outcome JSON>`, `accepted <card> <submissionId>`, `uncertain
 * <op>`, `u-end <answer>`, `untyped <answer>`, `notrun …`, `reconciled …`,
 * `resume …`, `cancelled …`, `revoked …`, `r <answer>`.
 *
 * @module
 */
import postgres from "postgres";
import {
  CancelRelay,
  type EffectOutcome,
  MemoryExecutions,
  type RecoveryStore,
  TurnRecovery,
} from "@papercusp/chat-protocol/recovery";
import {
  InteractionResolver,
  type InteractionStore,
  type StandardSchemaV1,
} from "@papercusp/chat-protocol/interactions";
import {
  PgDriverError,
  PostgresCancelDelivery,
  PostgresInteractionStore,
  postgresJsDriver,
  PostgresRecoveryStore,
} from "../../mod.ts";
import {
  authorityOf,
  type KillPlan,
  type KillPoint,
  LEASE_MS,
  openCards,
  openEffects,
  openTurns,
  principalOf,
  storeNames,
  SYSTEM,
  TENANT,
  testTables,
} from "../_crash/shared.ts";

const [schema, workerId, seedArg, planArg, mode] = Deno.args;
const plan = JSON.parse(planArg) as KillPlan;
const sweeping = mode === "sweep";
const url = Deno.env.get("DATABASE_URL")!;
const out = (line: string) => console.log(line);

let seed = Number(seedArg) | 0;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];

const client = postgres(url, { max: 1, onnotice: () => {}, idle_timeout: 0 });
const sideClient = postgres(url, { max: 1, onnotice: () => {}, idle_timeout: 0 });
const driver = postgresJsDriver(client, { lockTimeoutMs: 20_000 });
const side = postgresJsDriver(sideClient);
const n = storeNames(schema);
const tables = testTables(schema);
const store = new PostgresRecoveryStore(driver, { schema });
const istore = new PostgresInteractionStore(driver, { schema });
const delivery = new PostgresCancelDelivery(driver, { schema, healthCheckMs: 2_000 });
const executions = new MemoryExecutions();
const relay = new CancelRelay({ delivery, store, abort: executions });

// ---- kill points and injected uncertainty ---------------------------------

const reached = new Map<KillPoint, number>();
async function killPoint(point: KillPoint, key: string): Promise<void> {
  if (plan.kind !== "point" || plan.point !== point) return;
  const k = (reached.get(point) ?? 0) + 1;
  reached.set(point, k);
  if (k !== plan.ordinal) return;
  out(`hold ${point} ${key}`);
  await new Promise(() => {}); // the driver kills this process here
}

let injected = false;
function maybeLoseAck<T>(op: string, value: T): T {
  if (sweeping || random() >= 0.03) return value;
  injected = true;
  out(`uncertain ${op}`);
  throw new PgDriverError("connection lost while COMMIT was in flight (injected)", {
    kind: "connection",
    commit: "uncertain",
  });
}

async function violation(kind: string, detail: string): Promise<void> {
  out(`violation ${kind} ${detail}`);
  await side.query(
    `INSERT INTO ${tables.violations} (kind, detail, worker) VALUES ($1::text, $2::text, $3::text)`,
    [kind, detail, workerId],
  );
}

/** Inside the fence: the turn must still run and its user grant exist, seen from outside. */
async function checkTurnFence(turnId: string, principal: string): Promise<void> {
  const { rows } = await side.query<{ status: string; granted: boolean }>(
    `SELECT t.status, EXISTS (SELECT 1 FROM ${n.recoveryGrants} AS g WHERE g.actor = 'user'
       AND g.principal = $2::text AND g.turn_id = t.turn_id) AS granted
     FROM ${n.recoveryTurns} AS t WHERE t.turn_id = $1::text`,
    [turnId, principal],
  );
  const row = rows[0];
  if (row?.status !== "running") await violation("launch-after-stop", `${turnId} ${row?.status}`);
  if (row?.granted !== true) await violation("launch-after-revoke", turnId);
}

/** Inside a card transaction: the card must be pending and its authority not revoked. */
async function checkCardFence(id: string, system: boolean): Promise<void> {
  const a = authorityOf(id);
  const { rows } = await side.query<{ status: string; revoked: boolean }>(
    `SELECT i.status, EXISTS (SELECT 1 FROM ${n.interactionAuthorities} AS au
       WHERE au.tenant_id = $2::text AND au.principal_id = $3::text
         AND au.conversation_id = $4::text AND au.revoked_at IS NOT NULL) AS revoked
     FROM ${n.interactions} AS i WHERE i.id = $1::text`,
    [id, a.tenantId, a.principalId, a.conversationId],
  );
  if (rows[0]?.status !== "pending") {
    await violation("answer-after-close", `${id} ${rows[0]?.status}`);
  }
  if (!system && rows[0]?.revoked === true) await violation("answer-after-revoke", id);
}

const recoveryStore: RecoveryStore = {
  readTurn: (t) => store.readTurn(t),
  readEffect: (t, e) => store.readEffect(t, e),
  casTurn: async (t, x, next, g) =>
    maybeLoseAck(
      "casTurn",
      await (g === undefined ? store.casTurn(t, x, next) : store.casTurn(t, x, next, g)),
    ),
  casEffect: async (t, e, x, next) => {
    const r = await store.casEffect(t, e, x, next);
    if (r.ok && next.state === "completed" && !r.record.reconciled) {
      await killPoint("complete-ack", `${t}/${e}`);
    }
    return maybeLoseAck("casEffect", r);
  },
  admitDispatch: async (req) => {
    const r = await store.admitDispatch({
      ...req,
      launch: async () => {
        // A launch that takes a while (holding the fence), so cancels and
        // revocations race against open fences, not only against statements.
        if (!sweeping && random() < 0.3) await new Promise((r) => setTimeout(r, random() * 8));
        await checkTurnFence(req.turnId, req.principal);
        await killPoint("launch", `${req.turnId}/${req.effectId}`);
        return req.launch();
      },
    });
    if (r.admitted) await killPoint("admit-ack", `${req.turnId}/${req.effectId}`);
    return maybeLoseAck("admitDispatch", r);
  },
};

const interactionStore: InteractionStore = {
  create: (r) => istore.create(r),
  read: (id, c) => istore.read(id, c),
  transact: async (q, fn) => {
    const system = (q.caller as { kind?: string }).kind === "system";
    const r = await istore.transact(q, async (cur, ctx) => {
      await checkCardFence(q.id, system);
      await killPoint("transact", q.id);
      return fn(cur, ctx);
    });
    if (r.ok && r.value.record.revision > q.expectedRevision) {
      await killPoint("transact-ack", q.id);
    }
    return maybeLoseAck("transact", r);
  },
};

const recovery = new TurnRecovery({
  store: recoveryStore,
  authority: store.authority(),
  abort: executions,
  cancelDelivery: delivery,
  workerId,
  leaseMs: LEASE_MS,
  renewEveryMs: LEASE_MS / 4,
  random,
});

const choice: StandardSchemaV1<unknown, { choice: string }> = {
  "~standard": {
    version: 1,
    vendor: "crash-test",
    validate: (v) => {
      const c = (v as { choice?: unknown } | null)?.choice;
      return c === "a" || c === "b"
        ? { value: { choice: c } }
        : { issues: [{ message: "choice must be a or b" }] };
    },
  },
};
const resolver = new InteractionResolver({
  store: interactionStore,
  schemas: (ref) => (ref.id === "choice" && ref.revision === 1 ? choice : undefined),
});
const reaper = { kind: "system", actorId: SYSTEM, tenantId: TENANT } as const;

// ---- typed answers ----------------------------------------------------------

const RECOVERY_CODES = new Set([
  "unauthorized",
  "invalid-request",
  "unknown-turn",
  "unknown-effect",
  "turn-exists",
  "turn-not-running",
  "admission-unavailable",
  "admission-contract-violated",
  "contention",
  "claim-limit",
  "lease-live",
  "effect-state",
  "checkpoint-write-failed",
  "cancel-uncertain",
  "restart-recovery-unsupported",
  "store-unavailable",
]);
const CARD_CODES = new Set([
  "not-found",
  "unauthorized",
  "duplicate",
  "expired",
  "cancelled",
  "stale-revision",
  "schema-changed",
  "invalid-answer",
  "decline-not-allowed",
  "unknown-schema",
  "needs-reconciliation",
  "already-exists",
  "invalid-request",
  "store-unavailable",
]);
const WAIT = new Set([
  "in-flight",
  "claimed-elsewhere",
  "uncertain-claim-ack",
  "uncertain-admission",
]);
const RECONCILE = new Set(["dispatch-error", "outcome-unknown", "owner-lost"]);

type RunAnswer = Awaited<ReturnType<TurnRecovery["runEffect"]>>;

function describeRun(r: RunAnswer): string | null {
  if (typeof r !== "object" || r === null) return null;
  if (!r.ok) return RECOVERY_CODES.has(r.error?.code) ? `err:${r.error.code}` : null;
  const v = r.value;
  if (v.status === "completed") return v.outcome?.ok === true ? "completed" : null;
  if (v.status === "needs-reconciliation") {
    if (v.action === "wait" && WAIT.has(v.reason)) return `wait:${v.reason}`;
    if (v.action === "reconcile" && RECONCILE.has(v.reason)) return `reconcile:${v.reason}`;
  }
  return null;
}

// ---- actions ------------------------------------------------------------------

let seq = 0;

async function ledger(turnId: string, effectId: string): Promise<string[]> {
  const { rows } = await side.query<{ value: string }>(
    `SELECT value FROM ${tables.ledger} WHERE turn_id = $1::text AND effect_id = $2::text ORDER BY id`,
    [turnId, effectId],
  );
  return rows.map((r) => r.value);
}

/** The host's verification against the ledger: it ran (reconcile) or it did not (not-run). */
async function verify(turnId: string, effectId: string, claimToken?: string): Promise<void> {
  const entries = await ledger(turnId, effectId);
  const who = sweeping
    ? { principal: SYSTEM, actor: "system" as const }
    : { principal: principalOf(turnId) };
  const token = claimToken === undefined ? {} : { claimToken };
  if (entries.length > 0) {
    const outcome: EffectOutcome = { ok: true, value: entries[0] };
    const r = await recovery.reconcile({ turnId, effectId, outcome, ...who, ...token });
    out(
      `reconciled ${turnId} ${effectId} ${
        r.ok ? (r.value.changed ? "ok" : "unchanged") : r.error.code
      }`,
    );
  } else {
    const r = await recovery.recordNotRun({
      turnId,
      effectId,
      evidence: "no ledger entry for this effect",
      ...who,
      ...token,
    });
    out(
      `notrun ${turnId} ${effectId} ${
        r.ok ? (r.value.changed ? "ok" : "unchanged") : r.error.code
      }`,
    );
  }
}

async function resumeTurn(turnId: string): Promise<void> {
  const who = sweeping
    ? { principal: SYSTEM, actor: "system" as const }
    : { principal: principalOf(turnId) };
  const r = await recovery.resume({ turnId, ...who });
  out(`resume ${turnId} ${r.ok ? r.value.turn.status : r.error.code}`);
  if (r.ok) { for (const e of r.value.needsReconciliation) await verify(turnId, e); }
}

async function runOne(turnId: string, effectId: string): Promise<void> {
  injected = false;
  const r = await recovery.runEffect({
    turnId,
    effectId,
    principal: principalOf(turnId),
    dispatch: async () => {
      const value = `v:${workerId}:${++seq}`;
      await side.query(
        `INSERT INTO ${tables.ledger} (turn_id, effect_id, value, worker)
         VALUES ($1::text, $2::text, $3::text, $4::text)`,
        [turnId, effectId, value, workerId],
      );
      await killPoint("dispatch", `${turnId}/${effectId}`);
      return value;
    },
  });
  const d = describeRun(r);
  if (d === null) out(`untyped ${JSON.stringify(r).slice(0, 300)}`);
  if (injected) out(`u-end ${d ?? "untyped"}`);
  out(`r effect:${d}`);
  const v = r.ok ? r.value : null;
  if (v?.status === "completed") {
    out(`done ${turnId} ${effectId} ${JSON.stringify(v.outcome)}`);
  } else if (v?.status === "needs-reconciliation" && v.action === "reconcile") {
    await verify(turnId, effectId, v.claimToken);
  } else if (
    v?.status === "needs-reconciliation" && v.reason === "uncertain-admission" && v.claimToken
  ) {
    // Nothing was dispatched by this call: verify, then not-run with its own token.
    await verify(turnId, effectId, v.claimToken);
  } else if (!r.ok && r.error.code === "checkpoint-write-failed" && r.error.outcome) {
    const rc = await recovery.reconcile({
      turnId,
      effectId,
      principal: principalOf(turnId),
      outcome: r.error.outcome,
      ...(r.error.claimToken ? { claimToken: r.error.claimToken } : {}),
    });
    out(`reconciled ${turnId} ${effectId} ${rc.ok ? "own" : rc.error.code}`);
  } else if (
    !r.ok && r.error.code === "turn-not-running" && r.error.status === "needs-reconciliation"
  ) {
    await resumeTurn(turnId);
  } else if (
    sweeping && !r.ok && (r.error.code === "claim-limit" || r.error.code === "contention")
  ) {
    // The host gives up on the turn: nothing more is launched for it.
    const x = await recovery.expire({ turnId, principal: SYSTEM, reason: r.error.code });
    out(`expired ${turnId} ${r.error.code} ${x.ok ? "ok" : x.error.code}`);
  }
}

async function answerOne(id: string): Promise<void> {
  injected = false;
  const submissionId = `${workerId}-${++seq}`;
  const r = await resolver.answer({
    id,
    caller: authorityOf(id),
    response: {
      action: "submit",
      correlationId: id,
      value: { choice: random() < 0.5 ? "a" : "b" },
    },
    submissionId,
  });
  const d = r.ok
    ? (r.value.outcome === "committed" || r.value.outcome === "recovered" ? r.value.outcome : null)
    : (CARD_CODES.has(r.error.code) ? r.error.code : null);
  if (d === null) out(`untyped ${JSON.stringify(r).slice(0, 300)}`);
  if (injected) out(`u-end ${d ?? "untyped"}`);
  out(`r card:${d}`);
  if (r.ok) out(`accepted ${id} ${submissionId}`);
}

async function cancelCard(id: string): Promise<void> {
  injected = false;
  const submissionId = `${workerId}-${++seq}`;
  const r = await resolver.cancel(id, reaper, { reason: "crash test", submissionId });
  if (injected) out(`u-end ${r.ok ? r.value.outcome : r.error.code}`);
  out(`r card-cancel:${r.ok ? r.value.outcome : r.error.code}`);
  if (r.ok) out(`accepted ${id} ${submissionId}`);
}

async function cancelTurn(turnId: string): Promise<void> {
  injected = false;
  const r = await recovery.cancel({ turnId, principal: principalOf(turnId), reason: "crash test" });
  if (injected) out(`u-end ${r.ok ? "cancelled" : r.error.code}`);
  out(`r cancel:${r.ok ? "ok" : r.error.code}`);
  if (r.ok) out(`cancelled ${turnId} ${r.value.turn.revision}`);
}

/**
 * Turns to cancel or revoke: those with an effect claimed right now (its
 * admission is about to run, or runs), else the oldest open ones.
 */
async function racedTurns(): Promise<string[]> {
  const { rows } = await side.query<{ turn_id: string }>(
    `SELECT DISTINCT e.turn_id FROM ${n.recoveryEffects} AS e JOIN ${n.recoveryTurns} AS t
       USING (turn_id)
     WHERE e.state = 'claimed' AND t.status = 'running' AND EXISTS (SELECT 1
       FROM ${n.recoveryGrants} AS g WHERE g.actor = 'user' AND g.turn_id = t.turn_id)
     LIMIT 4`,
  );
  return rows.length > 0 ? rows.map((r) => r.turn_id) : await openTurns(side, n, 4);
}

async function work(): Promise<void> {
  for (const t of (await openTurns(side, n, 6)).filter(() => random() < 0.5)) await resumeTurn(t);
  for (let i = 0; i < 400; i++) {
    const roll = random();
    if (roll < 0.6) {
      const effects = await openEffects(side, n, 12);
      if (effects.length > 0) {
        const e = pick(effects);
        await runOne(e.turnId, e.effectId);
      }
    } else if (roll < 0.86) {
      const cards = await openCards(side, n, 6);
      if (cards.length > 0) await answerOne(pick(cards));
    } else if (roll < 0.9) {
      const turns = await racedTurns();
      if (turns.length > 0) await cancelTurn(pick(turns));
    } else if (roll < 0.925) {
      const turns = await racedTurns();
      if (turns.length > 0) {
        const t = pick(turns);
        await store.revoke(principalOf(t), t);
        out(`revoked ${t}`);
      }
    } else if (roll < 0.96) {
      const cards = await openCards(side, n, 6);
      if (cards.length > 0) await cancelCard(pick(cards));
    } else if (roll < 0.98) {
      const cards = await openCards(side, n, 6);
      if (cards.length > 0) {
        const id = pick(cards);
        await istore.revoke(authorityOf(id));
        out(`revoked-card ${id}`);
      }
    } else {
      const turns = await openTurns(side, n, 6);
      if (turns.length > 0) await resumeTurn(pick(turns));
    }
  }
}

/** Effects admitted (or unknown) without an outcome, in any turn: the sweeper resolves them. */
async function unresolved(): Promise<{ turnId: string; effectId: string; leaseUntil: number }[]> {
  const { rows } = await side.query<
    { turn_id: string; effect_id: string; lease_until: number | null }
  >(
    `SELECT turn_id, effect_id, lease_until FROM ${n.recoveryEffects}
     WHERE state IN ('admitted', 'unknown') ORDER BY turn_id, effect_id`,
  );
  return rows.map((r) => ({
    turnId: r.turn_id,
    effectId: r.effect_id,
    leaseUntil: Number(r.lease_until ?? 0),
  }));
}

/**
 * As the host's system identity: resolve every admitted or unknown effect
 * whose lease ended (against the ledger), resume turns waiting for
 * reconciliation, expire turns whose user lost access (nothing more can be
 * launched for them) or whose effect hit its claim limit, and run every
 * open effect, until nothing is open.
 */
async function sweep(): Promise<void> {
  const system = { principal: SYSTEM, actor: "system" as const };
  const expire = async (turnId: string, why: string) => {
    const r = await recovery.expire({ turnId, principal: SYSTEM, reason: why });
    out(`expired ${turnId} ${why} ${r.ok ? "ok" : r.error.code}`);
  };
  for (let round = 0; round < 240; round++) {
    const stuck = await unresolved();
    for (const s of stuck.filter((s) => s.leaseUntil <= Date.now())) {
      await verify(s.turnId, s.effectId);
    }
    const { rows: waiting } = await side.query<{ turn_id: string }>(
      `SELECT turn_id FROM ${n.recoveryTurns} WHERE status = 'needs-reconciliation'`,
    );
    for (const w of waiting) {
      const r = await recovery.resume({ turnId: w.turn_id, ...system });
      out(`resume ${w.turn_id} ${r.ok ? r.value.turn.status : r.error.code}`);
      if (r.ok) { for (const e of r.value.needsReconciliation) await verify(w.turn_id, e); }
    }
    const { rows: orphaned } = await side.query<{ turn_id: string }>(
      `SELECT t.turn_id FROM ${n.recoveryTurns} AS t WHERE t.status = 'running'
       AND NOT EXISTS (SELECT 1 FROM ${n.recoveryGrants} AS g WHERE g.actor = 'user'
         AND g.turn_id = t.turn_id)`,
    );
    for (const o of orphaned) await expire(o.turn_id, "user access revoked");
    const effects = await openEffects(side, n, 10_000);
    for (const e of effects) {
      const r = await recovery.inspect(e.turnId);
      if (!r.ok || r.value.turn.status !== "running") continue;
      await runOne(e.turnId, e.effectId);
    }
    const left = await openEffects(side, n, 1);
    if (stuck.length === 0 && waiting.length === 0 && left.length === 0) {
      out("swept");
      return;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  out("sweep-gave-up");
}

await relay.start();
out("ready");
try {
  if (sweeping) await sweep();
  else await work();
} finally {
  await relay.stop();
  await delivery.driver.close().catch(() => {});
  await side.close().catch(() => {});
}
out("exit");
Deno.exit(0);
