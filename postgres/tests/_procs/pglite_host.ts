/**
 * Child process of the PGlite restart test: a single-process chat host on
 * PGlite on a directory (`openPGliteDir`), using all three stores through
 * `TurnRecovery`, `InteractionResolver` and `PostgresReplayLog`.
 *
 * Args: `<dataDir> <tag> <acksFile|-> <work|check> <holdAtDispatch>`
 *
 * On start it notes the lock file's recorded pid (a previous process's, which
 * the parent SIGKILLed), opens the directory (a refusal prints `refused <code>
 * <holderPid>` and exits 3), prints `opened <previous pid|->`, migrates, then
 * checks the directory like a host restarting after a crash:
 * 1. every acknowledgement listed in `acksFile` (JSON lines printed by
 *    earlier processes, see below) is stored as acknowledged;
 * 2. no torn state: every turn's replay window is `1..latest` without a gap;
 *    every terminal card has its outbox row (same revision, same kind); no
 *    effect ran twice (side-effect ledger entries per effect ≤ 1); a stored
 *    completion equals its ledger entry;
 * 3. it recovers as the host would (system identity): resumes turns waiting
 *    for reconciliation and resolves every admitted or unknown effect whose
 *    lease ended against the ledger (`reconcile` when the side effect ran,
 *    `recordNotRun` when not), then checks that no effect is left admitted or
 *    unknown and that every ledger entry is a stored completion (none lost).
 * It prints `violation <what>` per broken rule and `checked <acks>
 * <reconciled> <notRun>`.
 *
 * Mode `work` then prints `ready` and runs turns until killed: grant, begin
 * (2 effects), appends 3 envelopes between the effects, runs the effects
 * (each dispatch first writes its ledger row, committed on its own), opens
 * a card and answers it, and cancels every 4th turn before its last effect.
 * After each acknowledged write it prints `ack <JSON>`. With
 * `holdAtDispatch` = k > 0, the k-th dispatch prints `hold` right after its
 * ledger row and waits to be killed. Mode `check` closes the directory
 * (releasing the lock) and prints `closed`.
 *
 * @module
 */
import { PGlite } from "@electric-sql/pglite";
import { MemoryExecutions, TurnRecovery } from "@papercusp/chat-protocol/recovery";
import { InteractionResolver, type StandardSchemaV1 } from "@papercusp/chat-protocol/interactions";
import {
  ALL_TURNS,
  migrate,
  PostgresInteractionStore,
  PostgresRecoveryStore,
  PostgresReplayLog,
  tableNames,
} from "../../mod.ts";
import { LOCK_FILE_NAME, openPGliteDir } from "../../pglite_dir.ts";

const [dataDir, tag, acksFile, mode, holdArg] = Deno.args;
const out = (line: string) => console.log(line);
const SCHEMA = "chat";
const SYSTEM = "host-system";
const LEASE_MS = 300;

/** One acknowledged write, as printed after `ack `. */
export type Ack =
  | { k: "turn"; turnId: string }
  | { k: "event"; turnId: string; seq: number; eventId: string }
  | { k: "effect"; turnId: string; effectId: string; value: string }
  | { k: "cancel"; turnId: string }
  | { k: "card"; id: string }
  | { k: "answer"; id: string; submissionId: string; choice: string };

const previous = await Deno.readTextFile(`${dataDir}/${LOCK_FILE_NAME}`).then(
  (t) => String(JSON.parse(t).pid),
  () => "-",
);
const opened = await openPGliteDir({ dataDir, open: (dir) => new PGlite(dir) });
if (!opened.ok) {
  out(
    `refused ${opened.error.code} ${
      opened.error.code === "open-failed" ? "-" : opened.error.holder?.pid ?? "-"
    }`,
  );
  Deno.exit(3);
}
const driver = opened.value.driver;
out(`opened ${previous}`);
const m = await migrate(driver, { schema: SCHEMA });
if (!m.ok) throw new Error(`migrate: ${m.error.message}`);
const LEDGER = `"${SCHEMA}".side_ledger`;
await driver.query(
  `CREATE TABLE IF NOT EXISTS ${LEDGER} (id serial PRIMARY KEY, turn_id text NOT NULL,
     effect_id text NOT NULL, value text NOT NULL)`,
);
const n = tableNames({ schema: SCHEMA });
const store = new PostgresRecoveryStore(driver, { schema: SCHEMA });
const istore = new PostgresInteractionStore(driver, { schema: SCHEMA });
const log = new PostgresReplayLog(driver, { schema: SCHEMA });
await store.grant(SYSTEM, ALL_TURNS, "system");
const recovery = new TurnRecovery({
  store,
  authority: store.authority(),
  abort: new MemoryExecutions(),
  leaseMs: LEASE_MS,
});
const choice: StandardSchemaV1<unknown, { choice: string }> = {
  "~standard": {
    version: 1,
    vendor: "restart-test",
    validate: (v) => {
      const c = (v as { choice?: unknown } | null)?.choice;
      return typeof c === "string" ? { value: { choice: c } } : { issues: [{ message: "choice" }] };
    },
  },
};
const resolver = new InteractionResolver({ store: istore, schemas: () => choice });
const authorityOf = (id: string) => ({
  conversationId: `conv-${id}`,
  principalId: "alice",
  tenantId: "tenant-1",
  customerId: "cust-1",
  publicOwnerId: "owner-1",
});

// ---- the restart check ---------------------------------------------------------

const violation = (what: string) => out(`violation ${what}`);

async function ledgerOf(turnId: string, effectId: string): Promise<string[]> {
  const { rows } = await driver.query<{ value: string }>(
    `SELECT value FROM ${LEDGER} WHERE turn_id = $1 AND effect_id = $2 ORDER BY id`,
    [turnId, effectId],
  );
  return rows.map((r) => r.value);
}

async function checkAck(a: Ack): Promise<void> {
  const what = JSON.stringify(a);
  if (a.k === "turn" || a.k === "cancel") {
    const t = await store.readTurn(a.turnId);
    if (t === null) return violation(`lost ${what}`);
    if (a.k === "cancel" && t.status !== "cancelled") violation(`lost ${what}: ${t.status}`);
  } else if (a.k === "event") {
    const got = await log.readAfter(a.turnId, a.seq - 1);
    if (got[0]?.seq !== a.seq || got[0]?.eventId !== a.eventId) violation(`lost ${what}`);
  } else if (a.k === "effect") {
    const e = await store.readEffect(a.turnId, a.effectId);
    const o = e?.outcome;
    if (e?.state !== "completed" || !o?.ok || o.value !== a.value) {
      violation(`lost ${what}: ${JSON.stringify(e)}`);
    }
  } else if (a.k === "card") {
    if (await istore.peek(a.id) === null) violation(`lost ${what}`);
  } else {
    const r = await istore.peek(a.id);
    const s = r?.submission;
    if (
      r?.status !== "submitted" || s?.submissionId !== a.submissionId ||
      (s?.value as { choice?: string } | undefined)?.choice !== a.choice
    ) violation(`lost ${what}: ${JSON.stringify(r)}`);
  }
}

async function checkTorn(): Promise<void> {
  const { rows: gaps } = await driver.query<{ turn_id: string; n: number; top: number }>(
    `SELECT turn_id, count(*)::int AS n, max(seq)::int AS top FROM ${n.replayFrames}
     GROUP BY turn_id HAVING count(*) <> max(seq) OR min(seq) <> 1`,
  );
  for (const g of gaps) violation(`replay gap in ${g.turn_id}: ${g.n} frames, top ${g.top}`);
  const { rows: twice } = await driver.query<{ turn_id: string; effect_id: string }>(
    `SELECT turn_id, effect_id FROM ${LEDGER} GROUP BY turn_id, effect_id HAVING count(*) > 1`,
  );
  for (const t of twice) violation(`launched twice: ${t.turn_id}/${t.effect_id}`);
  const { rows: cards } = await driver.query<{ id: string }>(
    `SELECT id FROM ${n.interactions} WHERE status <> 'pending'`,
  );
  for (const { id } of cards) {
    const rec = await istore.peek(id);
    const moves = await istore.transitions(id);
    const last = moves.at(-1);
    if (
      !rec || !last || last.revision !== rec.revision ||
      last.submissionId !== rec.submission?.submissionId
    ) {
      violation(`card ${id} ${rec?.status} without its outbox row: ${JSON.stringify(moves)}`);
    }
  }
}

/** Effects of every turn with their records, for the completion checks. */
async function effects(): Promise<{ turnId: string; effectId: string; state: string | null }[]> {
  const { rows } = await driver.query<{ turn_id: string; effect_id: string; state: string | null }>(
    `SELECT t.turn_id, e.id AS effect_id, x.state FROM ${n.recoveryTurns} AS t
       CROSS JOIN LATERAL json_array_elements_text(t.effect_ids::json) AS e (id)
       LEFT JOIN ${n.recoveryEffects} AS x ON x.turn_id = t.turn_id AND x.effect_id = e.id
     ORDER BY 1, 2`,
  );
  return rows.map((r) => ({ turnId: r.turn_id, effectId: r.effect_id, state: r.state }));
}

let reconciled = 0, notRun = 0;
async function resolveAgainstLedger(turnId: string, effectId: string): Promise<void> {
  const entries = await ledgerOf(turnId, effectId);
  const who = { principal: SYSTEM, actor: "system" as const };
  if (entries.length > 0) {
    const r = await recovery.reconcile({
      turnId,
      effectId,
      outcome: { ok: true, value: entries[0] },
      ...who,
    });
    if (r.ok) reconciled++;
    else violation(`reconcile ${turnId}/${effectId}: ${r.error.code}`);
  } else {
    const r = await recovery.recordNotRun({ turnId, effectId, evidence: "no ledger row", ...who });
    if (r.ok) notRun++;
    else violation(`not-run ${turnId}/${effectId}: ${r.error.code}`);
  }
}

async function recover(): Promise<void> {
  // A killed process's lease may still run for LEASE_MS after its last write.
  await new Promise((r) => setTimeout(r, LEASE_MS + 50));
  for (const e of await effects()) {
    if (e.state === "admitted" || e.state === "unknown") {
      await resolveAgainstLedger(e.turnId, e.effectId);
    }
  }
  const { rows: waiting } = await driver.query<{ turn_id: string }>(
    `SELECT turn_id FROM ${n.recoveryTurns} WHERE status = 'needs-reconciliation'`,
  );
  for (const { turn_id } of waiting) {
    const r = await recovery.resume({ turnId: turn_id, principal: SYSTEM, actor: "system" });
    if (!r.ok) violation(`resume ${turn_id}: ${r.error.code}`);
    else for (const e of r.value.needsReconciliation) await resolveAgainstLedger(turn_id, e);
  }
  for (const e of await effects()) {
    if (e.state === "admitted" || e.state === "unknown") {
      violation(`unresolved ${e.turnId}/${e.effectId} ${e.state}`);
    }
  }
  const { rows: ledger } = await driver.query<
    { turn_id: string; effect_id: string; value: string }
  >(
    `SELECT turn_id, effect_id, value FROM ${LEDGER}`,
  );
  for (const l of ledger) {
    const e = await store.readEffect(l.turn_id, l.effect_id);
    const o = e?.outcome;
    if (e?.state !== "completed" || !o?.ok || o.value !== l.value) {
      violation(`lost completion ${l.turn_id}/${l.effect_id}: ${JSON.stringify(e)}`);
    }
  }
}

const acks: Ack[] = acksFile === "-"
  ? []
  : (await Deno.readTextFile(acksFile)).split("\n").filter(Boolean).map((l) => JSON.parse(l));
for (const a of acks) await checkAck(a);
await checkTorn();
await recover();
out(`checked ${acks.length} ${reconciled} ${notRun}`);

if (mode === "check") {
  await driver.close();
  out("closed");
  Deno.exit(0);
}

// ---- work until killed ------------------------------------------------------------

const ack = (a: Ack) => out(`ack ${JSON.stringify(a)}`);
const hold = Number(holdArg);
let dispatches = 0;

async function append(turnId: string, seq: number): Promise<void> {
  const eventId = `${turnId}-ev${seq}`;
  const r = await log.append({
    schemaVersion: 1,
    conversationId: `conv-${turnId}`,
    turnId,
    eventId,
    seq,
    event: { type: "delta", text: `frame ${seq}` },
  });
  if (!r.ok) throw new Error(`append ${turnId}#${seq}: ${r.error.code}`);
  ack({ k: "event", turnId, seq, eventId });
}

async function run(turnId: string, effectId: string): Promise<void> {
  const r = await recovery.runEffect({
    turnId,
    effectId,
    principal: "alice",
    dispatch: async () => {
      const value = `${turnId}/${effectId}@${Deno.pid}`;
      await driver.query(
        `INSERT INTO ${LEDGER} (turn_id, effect_id, value) VALUES ($1, $2, $3)`,
        [turnId, effectId, value],
      );
      if (++dispatches === hold) {
        out("hold");
        await new Promise(() => {}); // the parent kills this process here
      }
      return value;
    },
  });
  if (!r.ok || r.value.status !== "completed" || !r.value.outcome.ok) {
    throw new Error(`runEffect ${turnId}/${effectId}: ${JSON.stringify(r)}`);
  }
  ack({ k: "effect", turnId, effectId, value: r.value.outcome.value as string });
}

out("ready");
for (let i = 0;; i++) {
  const turnId = `${tag}-t${i}`;
  await store.grant("alice", turnId);
  const begun = await recovery.beginTurn({
    conversationId: `conv-${turnId}`,
    turnId,
    principal: "alice",
    effectIds: ["e0", "e1"],
  });
  if (!begun.ok) throw new Error(`beginTurn ${turnId}: ${begun.error.code}`);
  ack({ k: "turn", turnId });
  await append(turnId, 1);
  await run(turnId, "e0");
  await append(turnId, 2);
  if (i % 4 === 3) {
    const c = await recovery.cancel({ turnId, principal: "alice", reason: "restart test" });
    if (!c.ok) throw new Error(`cancel ${turnId}: ${c.error.code}`);
    ack({ k: "cancel", turnId });
  } else {
    await run(turnId, "e1");
  }
  await append(turnId, 3);
  const id = `${tag}-c${i}`;
  const o = await resolver.open({
    id,
    card: { prompt: "a or b?" },
    authority: authorityOf(id),
    schema: { id: "choice", revision: 1 },
  });
  if (!o.ok) throw new Error(`open ${id}: ${o.error.code}`);
  ack({ k: "card", id });
  const submissionId = `${id}-s`;
  const pick = i % 2 === 0 ? "a" : "b";
  const a = await resolver.answer({
    id,
    caller: authorityOf(id),
    response: { action: "submit", correlationId: id, value: { choice: pick } },
    submissionId,
  });
  if (!a.ok) throw new Error(`answer ${id}: ${a.error.code}`);
  ack({ k: "answer", id, submissionId, choice: pick });
}
