/**
 * Effects per second through `PostgresRecoveryStore` on a real PostgreSQL
 * server, beside the floor: the fewest SQL round trips that give the same
 * guarantees, issued bare over postgres.js by a hand-written loop.
 *
 * One effect = claim + admit + complete, the three store writes
 * `TurnRecovery.runEffect` makes for an effect that runs:
 * - claim: a CAS creating the effect record with a lease (`casEffect` at 0);
 * - admit: the fence, one transaction locking the turn row, reading the
 *   grant FOR SHARE, writing the mark, calling `launch`, committing;
 * - complete: a CAS storing the outcome (`casEffect` at the admission's revision).
 * `runEffect` itself also makes three reads before the claim (the
 * authority's grant check, the turn, the effect): 9 statements in 7 round
 * trips per effect with a lock timeout set (see the README's Tuning). Those
 * reads are the core's and the same for any store, so neither side here
 * sends them. Both sides set `lock_timeout` in the fence, as the README
 * recommends (the library through `lockTimeoutMs`).
 * The floor: prepared statements; claim = 1 statement; admit = BEGIN and
 * `set_config('lock_timeout', …, true)` pipelined with the fence statement
 * (one round trip), then COMMIT; complete = 1 statement: 4 round trips (6
 * statements), the minimum with a client-side launch between the mark and
 * COMMIT.
 *
 * Workers: 1, 4 and 16 concurrent loops in this process, each with its own
 * connection (a postgres.js client with `max: 1`) and its own turn (so
 * workers contend for the server, not for one turn's lock). Each side runs
 * `ROUNDS` timed rounds of `ROUND_MS`, alternating which goes first; the
 * best round counts. Admission latency (the fence call, ms) is pooled over
 * all rounds: p50 and p99. Statements per effect are counted by
 * postgres.js's `debug` hook on both sides; round trips per effect follow
 * from how each side sends them.
 *
 * Goals (exit 1 on a miss): at every worker count the library reaches at
 * least 1/1.25 of the floor's effects/s, and its p50 admission latency is at
 * most 1.25× the floor's; effects/s grow from 1 to 4 workers (≥ 1.3×) and do
 * not collapse past saturation (16 workers ≥ 0.8× of 4).
 *
 * Server: `DATABASE_URL` (127.0.0.1 only), else a throwaway cluster started
 * here (scripts/pg.ts). Usage: `deno task bench:postgres` (`deno run -A postgres/bench/postgres_bench.ts`;
 * `--rounds=N`, `--ms=N` change the rounds and their length).
 *
 * @module
 */
import postgres from "postgres";
import { migrate, postgresJsDriver, PostgresRecoveryStore, tableNames } from "../mod.ts";
import { type Cluster, startCluster, stopClusterSync } from "../../scripts/pg.ts";
import { cpuMs, Goals } from "../../bench/_timing.ts";

const WORKERS = (Deno.args.find((a) => a.startsWith("--workers="))?.slice(10) ?? "1,4,16")
  .split(",").map(Number);
const ROUNDS = Number(Deno.args.find((a) => a.startsWith("--rounds="))?.slice(9) ?? 4);
const ROUND_MS = Number(Deno.args.find((a) => a.startsWith("--ms="))?.slice(5) ?? 1500);
const RATIO = 1.25;

let cluster: Cluster | null = null;
let url = Deno.env.get("DATABASE_URL");
if (!url) {
  cluster = await startCluster();
  url = cluster.url;
}
if (new URL(url).hostname !== "127.0.0.1") throw new Error("DATABASE_URL must be 127.0.0.1");

const schema = `bench_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
const n = tableNames({ schema });
let statements = 0;
const client = (counted: boolean) =>
  postgres(url!, {
    max: 1,
    onnotice: () => {},
    debug: counted ? () => void statements++ : undefined,
  });

const admin = postgresJsDriver(client(false));
const migrated = await migrate(admin, { schema });
if (!migrated.ok) throw new Error(migrated.error.message);
const adminStore = new PostgresRecoveryStore(admin, { schema });

/** One worker's loop: effects of its own turn until `until` (performance.now ms). */
type Loop = (turnId: string, until: number, latencies: number[]) => Promise<number>;
interface Side {
  readonly name: "floor" | "library";
  /** A loop per worker (each with its own connection), and a closer. */
  open(workers: number): { loops: Loop[]; close(): Promise<void> };
}

const claimDraft = (turnId: string, effectId: string) => ({
  turnId,
  effectId,
  state: "claimed" as const,
  claimToken: "w",
  leaseUntil: Date.now() + 30_000,
  claims: 1,
});

const library: Side = {
  name: "library",
  open(workers) {
    const drivers = Array.from(
      { length: workers },
      () => postgresJsDriver(client(true), { lockTimeoutMs: LOCK_TIMEOUT_MS }),
    );
    const loops = drivers.map((d): Loop => {
      const store = new PostgresRecoveryStore(d, { schema });
      return async (turnId, until, latencies) => {
        let done = 0;
        for (let i = 0; performance.now() < until; i++) {
          const e = `e${i}`;
          const claimed = await store.casEffect(turnId, e, 0, claimDraft(turnId, e));
          if (!claimed.ok) throw new Error("claim refused");
          const t0 = performance.now();
          let launched = 0;
          const a = await store.admitDispatch({
            turnId,
            effectId: e,
            claimRevision: claimed.record.revision,
            principal: "p",
            launch: () => void launched++,
          });
          latencies.push(performance.now() - t0);
          if (!a.admitted || launched !== 1) throw new Error("admission refused");
          const c = await store.casEffect(turnId, e, a.record.revision, {
            ...claimDraft(turnId, e),
            state: "completed",
            outcome: { ok: true, value: i },
          });
          if (!c.ok) throw new Error("completion refused");
          done++;
        }
        return done;
      };
    });
    return { loops, close: () => Promise.all(drivers.map((d) => d.close())).then(() => {}) };
  },
};

/** `lock_timeout` of both sides' fences, ms. */
const LOCK_TIMEOUT_MS = 2_000;

/** Named prepared statements: one round trip each after the first use (postgres.js's default). */
const PREPARED = { prepare: true } as const;

const floor: Side = {
  name: "floor",
  open(workers) {
    const sqls = Array.from({ length: workers }, () => client(true));
    const E = n.recoveryEffects, T = n.recoveryTurns, G = n.recoveryGrants;
    const claim = `INSERT INTO ${E} (turn_id, effect_id, revision, state, claim_token,
      lease_until, claims) VALUES ($1, $2, 1, 'claimed', 'w', $3, 1)
      ON CONFLICT DO NOTHING RETURNING revision`;
    const fence = `WITH t AS MATERIALIZED (
        SELECT status FROM ${T} WHERE turn_id = $1 FOR NO KEY UPDATE),
      g AS MATERIALIZED (
        SELECT 1 FROM ${G} AS gr, t WHERE gr.actor = 'user' AND gr.principal = $3
          AND gr.turn_id = $1 FOR SHARE OF gr)
      UPDATE ${E} SET state = 'admitted', revision = revision + 1
      WHERE turn_id = $1 AND effect_id = $2 AND state = 'claimed' AND revision = 1
        AND EXISTS (SELECT 1 FROM t WHERE status = 'running') AND EXISTS (SELECT 1 FROM g)
      RETURNING revision`;
    const complete = `UPDATE ${E} SET state = 'completed', outcome = $3, revision = revision + 1
      WHERE turn_id = $1 AND effect_id = $2 AND revision = 2 RETURNING revision`;
    const loops = sqls.map((sql): Loop => async (turnId, until, latencies) => {
      let done = 0;
      for (let i = 0; performance.now() < until; i++) {
        const e = `e${i}`;
        const c = await sql.unsafe(claim, [turnId, e, Date.now() + 30_000], PREPARED);
        if (c.length !== 1) throw new Error("claim refused");
        const t0 = performance.now();
        const conn = await sql.reserve();
        let launched = 0;
        try {
          const begin = conn.unsafe("BEGIN").execute();
          const timeout = conn.unsafe(
            "SELECT set_config('lock_timeout', $1, true)",
            [String(LOCK_TIMEOUT_MS)],
            PREPARED,
          ).execute();
          const marked = conn.unsafe(fence, [turnId, e, "p"], PREPARED).execute();
          await begin;
          await timeout;
          if ((await marked).length !== 1) throw new Error("admission refused");
          launched++;
          await conn.unsafe("COMMIT");
        } finally {
          conn.release();
        }
        latencies.push(performance.now() - t0);
        if (launched !== 1) throw new Error("no launch");
        const d = await sql.unsafe(
          complete,
          [turnId, e, JSON.stringify({ ok: true, value: i })],
          PREPARED,
        );
        if (d.length !== 1) throw new Error("completion refused");
        done++;
      }
      return done;
    });
    return { loops, close: () => Promise.all(sqls.map((s) => s.end())).then(() => {}) };
  },
};

let turnSeq = 0;
async function newTurn(): Promise<string> {
  const turnId = `bt${++turnSeq}`;
  await adminStore.grant("p", turnId);
  const r = await adminStore.casTurn(turnId, 0, {
    turnId,
    conversationId: "c",
    status: "running",
    effectIds: [],
  });
  if (!r.ok) throw new Error("turn refused");
  return turnId;
}

interface Result {
  rate: number;
  latencies: number[];
  statementsPerEffect: number;
  /** Client (this process) and server (the workers' backends) CPU ms per effect, best round. */
  clientCpu: number;
  serverCpu: number;
}

/** CPU ms (user + system) the server processes `pids` used so far (Linux /proc). */
function backendCpuMs(pids: number[]): number {
  const tick = 10; // USER_HZ = 100 on Linux: one tick is 10 ms
  let total = 0;
  for (const pid of pids) {
    try {
      const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      total += (Number(fields[11]) + Number(fields[12])) * tick;
    } catch {
      // The backend is gone, or /proc is not readable: not counted.
    }
  }
  return total;
}

/** The backend pids of the server's client connections to this schema's database right now. */
async function backendPids(): Promise<number[]> {
  const { rows } = await admin.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()",
  );
  return rows.map((r) => Number(r.pid));
}

async function measure(side: Side, workers: number, into: Result): Promise<void> {
  const { loops, close } = side.open(workers);
  try {
    const turns = await Promise.all(loops.map(() => newTurn()));
    // Warm-up: connections, plans.
    await Promise.all(loops.map((loop, i) => loop(turns[i], performance.now() + 150, [])));
    const fresh = await Promise.all(loops.map(() => newTurn()));
    const pids = await backendPids();
    statements = 0;
    const server0 = backendCpuMs(pids);
    const client0 = cpuMs();
    const start = performance.now();
    const until = start + ROUND_MS;
    const counts = await Promise.all(loops.map((loop, i) => loop(fresh[i], until, into.latencies)));
    const wall = performance.now() - start;
    const client = cpuMs() - client0;
    const server = backendCpuMs(pids) - server0;
    const total = counts.reduce((a, b) => a + b, 0);
    const rate = total / (wall / 1000);
    if (rate > into.rate) {
      into.rate = rate;
      into.clientCpu = client / total;
      into.serverCpu = server / total;
    }
    into.statementsPerEffect = statements / total;
  } finally {
    await close();
  }
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

const goals = new Goals();
const rates = new Map<number, number>();
try {
  console.log(
    `PostgreSQL effects/s (claim + admit + complete), ${ROUNDS} rounds of ${ROUND_MS} ms, best round`,
  );
  console.log(
    "workers | floor eff/s | library eff/s | floor/lib | admit p50 floor/lib ms | admit p99 floor/lib ms | statements/effect floor/lib | CPU ms/effect client+server floor / lib",
  );
  for (const w of WORKERS) {
    const f: Result = {
      rate: 0,
      latencies: [],
      statementsPerEffect: 0,
      clientCpu: 0,
      serverCpu: 0,
    };
    const l: Result = {
      rate: 0,
      latencies: [],
      statementsPerEffect: 0,
      clientCpu: 0,
      serverCpu: 0,
    };
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? [[floor, f], [library, l]] : [[library, l], [floor, f]];
      for (const [side, into] of order as [Side, Result][]) await measure(side, w, into);
    }
    rates.set(w, l.rate);
    const ratio = f.rate / l.rate;
    const [fp50, lp50] = [pct(f.latencies, 0.5), pct(l.latencies, 0.5)];
    const [fp99, lp99] = [pct(f.latencies, 0.99), pct(l.latencies, 0.99)];
    console.log(
      `${String(w).padStart(7)} | ${f.rate.toFixed(0).padStart(11)} | ${
        l.rate.toFixed(0).padStart(13)
      } | ${ratio.toFixed(2).padStart(9)} | ${fp50.toFixed(2)} / ${lp50.toFixed(2)} | ${
        fp99.toFixed(2)
      } / ${lp99.toFixed(2)} | ${f.statementsPerEffect.toFixed(1)} / ${
        l.statementsPerEffect.toFixed(1)
      } | ${f.clientCpu.toFixed(3)}+${f.serverCpu.toFixed(3)} / ${l.clientCpu.toFixed(3)}+${
        l.serverCpu.toFixed(3)
      }`,
    );
    goals.check(
      `${w} worker(s): library within ${RATIO}x of the floor (effects/s)`,
      ratio <= RATIO,
      `floor/library ${ratio.toFixed(2)}`,
    );
    goals.check(
      `${w} worker(s): library p50 admission latency within ${RATIO}x of the floor`,
      lp50 / fp50 <= RATIO,
      `library/floor ${(lp50 / fp50).toFixed(2)}`,
    );
  }
  const [r1, r4, r16] = [1, 4, 16].map((w) => rates.get(w));
  if (r1 !== undefined && r4 !== undefined) {
    goals.check("effects/s grow from 1 to 4 workers", r4 >= 1.3 * r1, `${(r4 / r1).toFixed(2)}x`);
  }
  if (r4 !== undefined && r16 !== undefined) {
    goals.check(
      "effects/s hold past saturation (16 vs 4 workers)",
      r16 >= 0.8 * r4,
      `${(r16 / r4).toFixed(2)}x`,
    );
  }
} finally {
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
  await admin.close();
  if (cluster) stopClusterSync(cluster);
}
goals.finish();
