/**
 * The multi-process crash test's driver: keeps `workers` OS processes
 * (`tests/_procs/crash_worker.ts`, spawned from `Deno.execPath()`, each
 * with its own connections) racing on the same turns, effects and cards,
 * and SIGKILLs them: each is spawned with a kill plan (stop dead at the
 * k-th time it reaches a kill point, where the driver kills it, or at a
 * random time), and a fresh process replaces it. After `rounds` kills, two
 * sweepers (no faults) resolve and finish everything as the host's system
 * identity, then the invariants are checked against the database, the
 * ledger and what every worker printed.
 *
 * @module
 */
import { InteractionResolver, type StandardSchemaV1 } from "@papercusp/chat-protocol/interactions";
import { MemoryExecutions, TurnRecovery } from "@papercusp/chat-protocol/recovery";
import {
  migrate,
  type PgDriver,
  PostgresInteractionStore,
  PostgresRecoveryStore,
} from "../../mod.ts";
import { lines, serverDriver, spawnProc, textOf } from "../_helpers/db.ts";
import {
  authorityOf,
  createTestTables,
  EFFECTS_PER_TURN,
  KILL_POINTS,
  type KillPlan,
  openCards,
  openEffects,
  principalOf,
  storeNames,
  SYSTEM,
  TENANT,
  testTables,
} from "./shared.ts";

/** Options of {@link runCrash}. */
export interface CrashOptions {
  /** The server (127.0.0.1). */
  readonly url: string;
  /** Kill rounds (SIGKILLs of a worker, each replaced by a fresh process). */
  readonly rounds: number;
  /** Concurrent worker processes (default 4). */
  readonly workers?: number;
  /** Seed of the kill plans and the workers' choices. */
  readonly seed?: number;
  /** Progress lines (default: none). */
  readonly log?: (line: string) => void;
  /** Keep the schema afterwards (default: dropped). */
  readonly keep?: boolean;
}

/** What a run found. Every `*Violations`/list field must be empty for the invariants to hold. */
export interface CrashReport {
  readonly schema: string;
  readonly rounds: number;
  readonly elapsedMs: number;
  readonly processes: number;
  readonly killsByPoint: Record<string, number>;
  /** Effects whose side effect ran more than once (ledger entries per effect > 1). */
  readonly launchedTwice: string[];
  /** Fence checks that saw a stopped turn, a revoked grant or a closed/revoked card. */
  readonly fenceViolations: string[];
  /** Side effects (ledger entries) whose effect is not stored completed with that value. */
  readonly lostCompletions: string[];
  /** Completions a worker was told of that are not what is stored. */
  readonly ackedNotStored: string[];
  /** Effects left admitted or unknown, and turns left needs-reconciliation, after the sweep. */
  readonly unresolved: string[];
  /** Cards with more than one accepted answer, or an accepted one that is not stored. */
  readonly cardViolations: string[];
  /** Answers that were not typed, and worker processes that died on their own. */
  readonly untyped: string[];
  readonly crashed: string[];
  /** Every answer the workers got, by kind (`effect:completed`, `card:duplicate`, `cancel:ok`, …). */
  readonly answers: Record<string, number>;
  readonly counts: {
    effects: number;
    completed: number;
    notRunRecorded: number;
    reconciled: number;
    resumes: number;
    ledgerEntries: number;
    cards: number;
    cardsAnswered: number;
    cardsCancelled: number;
    turnsCancelled: number;
    turnsRevoked: number;
    turnsExpiredBySweep: number;
    uncertainInjected: number;
    uncertainEndedTyped: number;
    uncertainCutByKill: number;
    needsReconciliationAnswers: number;
  };
}

const CHOICE: StandardSchemaV1<unknown, unknown> = {
  "~standard": { version: 1, vendor: "crash-test", validate: (v) => ({ value: v }) },
};

interface Child {
  readonly id: string;
  readonly proc: Deno.ChildProcess;
  readonly plan: KillPlan;
  /** Lines printed so far (dropped once summarized). */
  out: string[];
  killedAt?: string;
  counted?: boolean;
  done: Promise<void>;
}

/** What the workers printed, kept per kind (the rest is counted and dropped). */
interface Printed {
  readonly done: string[];
  readonly accepted: string[];
  readonly untyped: string[];
  readonly counters: Map<string, number>;
  /** Every typed answer a worker got, by kind (`effect:completed`, `card:duplicate`, …). */
  readonly answers: Map<string, number>;
  uncertainInjected: number;
  uncertainEndedTyped: number;
  uncertainCut: number;
}

const COUNTED = [
  "resume ",
  "revoked ",
  "expired ",
  "cancelled ",
  "r effect:wait:",
  "r effect:reconcile:",
];

/** Fold one finished worker's lines into `p`. */
function summarize(c: Child, p: Printed): void {
  const lines = c.out;
  c.out = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l.startsWith("done ")) p.done.push(l);
    else if (l.startsWith("accepted ")) p.accepted.push(l);
    else if (l.startsWith("untyped ")) p.untyped.push(`${c.id}: ${l}`);
    else if ((l.startsWith("notrun ") || l.startsWith("reconciled ")) && l.endsWith(" ok")) {
      const k = l.slice(0, l.indexOf(" "));
      p.counters.set(k, (p.counters.get(k) ?? 0) + 1);
    } else if (l === "r card:needs-reconciliation") {
      p.counters.set(
        "r card:needs-reconciliation",
        (p.counters.get("r card:needs-reconciliation") ?? 0) + 1,
      );
    } else if (l.startsWith("uncertain ")) {
      p.uncertainInjected++;
      const end = lines.slice(i + 1).find((x) =>
        x.startsWith("u-end ") || x.startsWith("uncertain ")
      );
      if (end === undefined || end.startsWith("uncertain ")) {
        // Cut by a kill, or a second loss inside the same call (its u-end follows).
        if (end === undefined) p.uncertainCut++;
        else p.uncertainEndedTyped++;
      } else if (end.includes("untyped")) p.untyped.push(`${c.id}: ${end}`);
      else p.uncertainEndedTyped++;
    }
    for (const k of COUNTED) {
      if (l.startsWith(k)) p.counters.set(k, (p.counters.get(k) ?? 0) + 1);
    }
    if (l.startsWith("r ")) p.answers.set(l.slice(2), (p.answers.get(l.slice(2)) ?? 0) + 1);
  }
}

/** Run the crash test (see the module doc); resolves to what it found. */
export async function runCrash(options: CrashOptions): Promise<CrashReport> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const workers = options.workers ?? 4;
  let seed = options.seed ?? 1;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const admin = await serverDriver({ max: 4 });
  const schema = `crash_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  try {
    const m = await migrate(admin, { schema });
    if (!m.ok) throw new Error(m.error.message);
    await createTestTables(admin, schema);
    const n = storeNames(schema);
    const store = new PostgresRecoveryStore(admin, { schema });
    const istore = new PostgresInteractionStore(admin, { schema });
    await store.grant(SYSTEM, "*", "system");
    await istore.grantSystem({ actorId: SYSTEM, tenantId: TENANT });
    const host = new TurnRecovery({
      store,
      authority: store.authority(),
      abort: new MemoryExecutions(),
    });
    const resolver = new InteractionResolver({ store: istore, schemas: () => CHOICE });
    let turns = 0, cards = 0;
    const topUp = async () => {
      if ((await openEffects(admin, n, 24)).length < 24) {
        for (let i = 0; i < 8; i++) {
          const turnId = `t${String(++turns).padStart(6, "0")}`;
          await store.grant(principalOf(turnId), turnId);
          const r = await host.beginTurn({
            conversationId: `conv-${turnId}`,
            turnId,
            principal: principalOf(turnId),
            effectIds: Array.from({ length: EFFECTS_PER_TURN }, (_, k) => `e${k}`),
          });
          if (!r.ok) throw new Error(`beginTurn: ${r.error.code}`);
        }
      }
      if ((await openCards(admin, n, 8)).length < 8) {
        for (let i = 0; i < 6; i++) {
          const id = `c${String(++cards).padStart(6, "0")}`;
          const r = await resolver.open({
            id,
            card: { prompt: "a or b?" },
            authority: authorityOf(id),
            schema: { id: "choice", revision: 1 },
          });
          if (!r.ok) throw new Error(`open: ${r.error.code}`);
        }
      }
    };
    await topUp();

    const printed: Printed = {
      done: [],
      accepted: [],
      untyped: [],
      counters: new Map(),
      answers: new Map(),
      uncertainInjected: 0,
      uncertainEndedTyped: 0,
      uncertainCut: 0,
    };
    const killsByPoint: Record<string, number> = {};
    const crashed: string[] = [];
    let kills = 0, spawned = 0;
    const kill = (c: Child, why: string) => {
      if (c.killedAt !== undefined) return;
      c.killedAt = why;
      try {
        c.proc.kill("SIGKILL");
      } catch { /* already gone */ }
    };
    const spawn = (plan: KillPlan, mode: "work" | "sweep"): Child => {
      const id = `w${++spawned}`;
      const proc = spawnProc("crash_worker.ts", [
        schema,
        id,
        String(Math.floor(random() * 2 ** 31)),
        JSON.stringify(plan),
        mode,
      ], { DATABASE_URL: options.url });
      const child: Child = { id, proc, plan, out: [], done: Promise.resolve() };
      const stderr = textOf(proc.stderr);
      child.done = (async () => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        for await (const l of lines(proc.stdout)) {
          child.out.push(l);
          if (l.startsWith("hold ")) kill(child, l.split(" ")[1]);
          if (l === "ready" && plan.kind === "time") {
            timer = setTimeout(() => kill(child, "time"), 50 + Math.floor(random() * 1500));
          }
        }
        clearTimeout(timer);
        const status = await proc.status;
        const err = await stderr;
        if (child.killedAt === undefined && status.code !== 0) {
          crashed.push(`${id} exited ${status.code}: ${err.slice(-600)}`);
        }
        if (mode === "sweep" && !child.out.includes("swept")) {
          crashed.push(`${id}: the sweep did not finish (${child.out.at(-1)})`);
        }
        summarize(child, printed);
      })();
      return child;
    };
    const planOf = (): KillPlan =>
      random() < 0.2 ? { kind: "time" } : {
        kind: "point",
        point: KILL_POINTS[Math.floor(random() * KILL_POINTS.length)],
        ordinal: 1 + Math.floor(random() * 3),
      };

    // Kill rounds: always `workers` live processes; each ending is replaced.
    const live = new Set<Child>();
    const ended: Child[] = [];
    const start = (c: Child) => {
      live.add(c);
      c.done = c.done.then(() => {
        live.delete(c);
        ended.push(c);
      });
    };
    for (let i = 0; i < workers; i++) start(spawn(planOf(), "work"));
    let lastLog = performance.now();
    while (kills < options.rounds) {
      await Promise.race([...live].map((c) => c.done));
      for (const c of ended.splice(0)) {
        if (c.killedAt !== undefined && !c.counted) {
          c.counted = true;
          kills++;
          killsByPoint[c.killedAt] = (killsByPoint[c.killedAt] ?? 0) + 1;
        }
      }
      await topUp();
      while (live.size < workers && kills < options.rounds) start(spawn(planOf(), "work"));
      if (performance.now() - lastLog > 10_000) {
        lastLog = performance.now();
        log(`crash: ${kills}/${options.rounds} kills, ${spawned} processes`);
      }
    }
    for (const c of live) kill(c, "end");
    await Promise.all([...live].map((c) => c.done));
    log(
      `crash: ${kills} kills done in ${
        ((performance.now() - started) / 1000).toFixed(0)
      } s; sweeping`,
    );

    // Sweep: two fault-free workers resolve and finish everything.
    const sweepers = [spawn({ kind: "none" }, "sweep"), spawn({ kind: "none" }, "sweep")];
    await Promise.all(sweepers.map((c) => c.done));
    return await verify(admin, schema, printed, {
      rounds: kills,
      elapsedMs: performance.now() - started,
      processes: spawned,
      killsByPoint,
      crashed,
    });
  } finally {
    if (!options.keep) {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
    }
    await admin.close();
  }
}

async function verify(
  admin: PgDriver,
  schema: string,
  printed: Printed,
  run: Pick<CrashReport, "rounds" | "elapsedMs" | "processes" | "killsByPoint" | "crashed">,
): Promise<CrashReport> {
  const n = storeNames(schema);
  const t = testTables(schema);
  const count = (k: string) => printed.counters.get(k) ?? 0;

  const twice = await admin.query<{ k: string; c: number }>(
    `SELECT turn_id || '/' || effect_id AS k, count(*)::int AS c FROM ${t.ledger}
     GROUP BY turn_id, effect_id HAVING count(*) > 1`,
  );
  const violations = await admin.query<{ kind: string; detail: string; worker: string }>(
    `SELECT kind, detail, worker FROM ${t.violations} ORDER BY id`,
  );
  const effects = await admin.query<
    {
      turn_id: string;
      effect_id: string;
      state: string;
      outcome: string | null;
      reconciled: boolean | null;
    }
  >(`SELECT turn_id, effect_id, state, outcome, reconciled FROM ${n.recoveryEffects}`);
  const stored = new Map(effects.rows.map((e) => [`${e.turn_id}/${e.effect_id}`, e]));
  const valueOf = (o: string | null) => {
    try {
      return o === null ? undefined : (JSON.parse(o) as { value?: unknown }).value;
    } catch {
      return undefined;
    }
  };
  const ledger = await admin.query<{ k: string; value: string }>(
    `SELECT turn_id || '/' || effect_id AS k, value FROM ${t.ledger} ORDER BY id`,
  );
  const lostCompletions: string[] = [];
  const ledgerValues = new Map<string, Set<string>>();
  for (const l of ledger.rows) {
    const e = stored.get(l.k);
    if (e?.state !== "completed" || valueOf(e.outcome) !== l.value) {
      lostCompletions.push(`${l.k}: ledger ${l.value}, stored ${e?.state} ${e?.outcome}`);
    }
    if (!ledgerValues.has(l.k)) ledgerValues.set(l.k, new Set());
    ledgerValues.get(l.k)!.add(l.value);
  }
  const ackedNotStored: string[] = [];
  for (const l of printed.done) {
    const [, turnId, effectId, ...json] = l.split(" ");
    const k = `${turnId}/${effectId}`;
    let acked: unknown;
    try {
      acked = (JSON.parse(json.join(" ")) as { value?: unknown }).value;
    } catch {
      continue; // a line cut by a kill
    }
    const e = stored.get(k);
    if (e?.state !== "completed" || valueOf(e.outcome) !== acked) {
      ackedNotStored.push(`${k}: acked ${acked}, stored ${e?.state} ${e?.outcome}`);
    }
  }
  const unresolved: string[] = [];
  for (const e of effects.rows) {
    if (e.state === "admitted" || e.state === "unknown") {
      unresolved.push(`${e.turn_id}/${e.effect_id} ${e.state}`);
    }
    // A completion never comes from nowhere: its value was a side effect's.
    const k = `${e.turn_id}/${e.effect_id}`;
    if (e.state === "completed" && !ledgerValues.get(k)?.has(String(valueOf(e.outcome)))) {
      unresolved.push(`${k} completed with ${e.outcome}, which no side effect produced`);
    }
  }
  const turns = await admin.query<{ turn_id: string; status: string }>(
    `SELECT turn_id, status FROM ${n.recoveryTurns}`,
  );
  for (const tr of turns.rows) {
    if (tr.status === "needs-reconciliation") unresolved.push(`turn ${tr.turn_id} ${tr.status}`);
    if (tr.status === "running") {
      for (let k = 0; k < EFFECTS_PER_TURN; k++) {
        if (stored.get(`${tr.turn_id}/e${k}`)?.state !== "completed") {
          unresolved.push(`running turn ${tr.turn_id} with e${k} not completed`);
        }
      }
    }
  }

  const cardRows = await admin.query<{ id: string; status: string; record: string }>(
    `SELECT id, status, record FROM ${n.interactions}`,
  );
  const outbox = await admin.query<{ interaction_id: string; c: number }>(
    `SELECT interaction_id, count(*)::int AS c FROM ${n.interactionOutbox} GROUP BY interaction_id`,
  );
  const transitions = new Map(outbox.rows.map((r) => [r.interaction_id, Number(r.c)]));
  const accepted = new Map<string, Set<string>>();
  for (const l of printed.accepted) {
    const [, id, sid] = l.split(" ");
    if (sid === undefined) continue;
    if (!accepted.has(id)) accepted.set(id, new Set());
    accepted.get(id)!.add(sid);
  }
  const cardViolations: string[] = [];
  for (const c of cardRows.rows) {
    const rec = JSON.parse(c.record) as { submission?: { submissionId: string } };
    const sids = accepted.get(c.id) ?? new Set<string>();
    if (sids.size > 1) cardViolations.push(`${c.id}: accepted ${sids.size} answers ${[...sids]}`);
    if (sids.size === 1 && rec.submission?.submissionId !== [...sids][0]) {
      cardViolations.push(
        `${c.id}: accepted ${[...sids][0]}, stored ${rec.submission?.submissionId}`,
      );
    }
    const want = c.status === "pending" ? 0 : 1;
    if ((transitions.get(c.id) ?? 0) !== want) {
      cardViolations.push(`${c.id}: ${c.status} with ${transitions.get(c.id) ?? 0} transitions`);
    }
  }

  const states = (s: string) => effects.rows.filter((e) => e.state === s).length;
  return {
    schema,
    ...run,
    launchedTwice: twice.rows.map((r) => `${r.k} launched ${r.c} times`),
    fenceViolations: violations.rows.map((v) => `${v.worker}: ${v.kind} ${v.detail}`),
    lostCompletions,
    ackedNotStored,
    unresolved,
    cardViolations,
    untyped: printed.untyped,
    answers: Object.fromEntries([...printed.answers].sort((a, b) => b[1] - a[1])),
    counts: {
      effects: effects.rows.length,
      completed: states("completed"),
      notRunRecorded: count("notrun"),
      reconciled: count("reconciled"),
      resumes: count("resume "),
      ledgerEntries: ledger.rows.length,
      cards: cardRows.rows.length,
      cardsAnswered: cardRows.rows.filter((c) => c.status === "submitted").length,
      cardsCancelled: cardRows.rows.filter((c) => c.status === "cancelled").length,
      turnsCancelled: turns.rows.filter((r) => r.status === "cancelled").length,
      turnsRevoked: count("revoked "),
      turnsExpiredBySweep: count("expired "),
      uncertainInjected: printed.uncertainInjected,
      uncertainEndedTyped: printed.uncertainEndedTyped,
      uncertainCutByKill: printed.uncertainCut,
      needsReconciliationAnswers: count("r effect:wait:") + count("r effect:reconcile:") +
        count("r card:needs-reconciliation"),
    },
  };
}

/** The invariant violations of a report, one line each (none: the run passed). */
export function failures(r: CrashReport): string[] {
  return [
    ...r.launchedTwice,
    ...r.fenceViolations,
    ...r.lostCompletions,
    ...r.ackedNotStored,
    ...r.unresolved,
    ...r.cardViolations,
    ...r.untyped,
    ...r.crashed,
  ];
}
