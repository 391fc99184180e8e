/**
 * What the multi-process crash test's driver and its workers share: the
 * test's own tables (the side-effect ledger and fence violations, written
 * outside the stores' transactions), ids, the kill points, and how work is
 * created and found.
 *
 * @module
 */
import { type PgQueryable, type TableNames, tableNames } from "../../mod.ts";

/** Where a worker may be told to stop dead (SIGKILL from the driver while it waits there). */
export const KILL_POINTS = [
  /** Inside the admission fence's launch callback: mark written, not committed. */
  "launch",
  /** After the admission committed, before `TurnRecovery` saw the acknowledgement. */
  "admit-ack",
  /** Inside the dispatch, right after the side effect wrote its ledger entry. */
  "dispatch",
  /** After the completion committed, before its acknowledgement. */
  "complete-ack",
  /** Inside an interaction `transact` callback (row locked, nothing written). */
  "transact",
  /** After an interaction `transact` committed, before its acknowledgement. */
  "transact-ack",
] as const;

/** A kill point. */
export type KillPoint = typeof KILL_POINTS[number];

/** How a worker dies: at the `ordinal`-th time it reaches `point`, or (`time`) whenever the driver decides. */
export type KillPlan =
  | { readonly kind: "point"; readonly point: KillPoint; readonly ordinal: number }
  | { readonly kind: "time" }
  | { readonly kind: "none" };

/** Effects per turn. */
export const EFFECTS_PER_TURN = 3;
/** The tenant of every card. */
export const TENANT = "tenant-crash";
/** The host identity that may cancel cards and turns, and resolves what users no longer can. */
export const SYSTEM = "crash-reaper";
/** Lease of the workers' `TurnRecovery`, ms (host clock: one machine). */
export const LEASE_MS = 2_000;

/** The user principal of a turn (one per turn, so revoking it touches one turn). */
export const principalOf = (turnId: string): string => `user-${turnId}`;

/** The bound authority of a card (one per card, so revoking it touches one card). */
export const authorityOf = (cardId: string) => ({
  conversationId: `conv-${cardId}`,
  principalId: `user-${cardId}`,
  tenantId: TENANT,
  customerId: "cust-crash",
  publicOwnerId: `owner-${cardId}`,
});

/** The test's own tables in `schema`: the ledger and the fence violations. */
export function testTables(schema: string): { ledger: string; violations: string } {
  return { ledger: `"${schema}".crash_ledger`, violations: `"${schema}".crash_violations` };
}

/** Create the test's own tables (after `migrate`). */
export async function createTestTables(q: PgQueryable, schema: string): Promise<void> {
  const t = testTables(schema);
  await q.query(`CREATE TABLE ${t.ledger} (
    id bigserial PRIMARY KEY,
    turn_id text NOT NULL,
    effect_id text NOT NULL,
    value text NOT NULL,
    worker text NOT NULL,
    at timestamptz NOT NULL DEFAULT clock_timestamp())`);
  await q.query(`CREATE INDEX ON ${t.ledger} (turn_id, effect_id)`);
  await q.query(`CREATE TABLE ${t.violations} (
    id bigserial PRIMARY KEY,
    kind text NOT NULL,
    detail text NOT NULL,
    worker text NOT NULL)`);
}

/** Names of the stores' tables in `schema`. */
export function storeNames(schema: string): TableNames {
  return tableNames({ schema });
}

/** A turn's user still holds its grant (a host stops working on a turn whose user lost access). */
const granted = (n: TableNames) =>
  `EXISTS (SELECT 1 FROM ${n.recoveryGrants} AS g WHERE g.actor = 'user' AND g.turn_id = t.turn_id)`;

/**
 * Effects a worker may take up: of turns still `running` or
 * `needs-reconciliation` whose user holds the grant, not completed, oldest
 * turns first (workers race on the same few), at most `limit`.
 */
export async function openEffects(
  q: PgQueryable,
  n: TableNames,
  limit: number,
): Promise<{ turnId: string; effectId: string }[]> {
  const { rows } = await q.query<{ turn_id: string; effect_id: string }>(
    `SELECT t.turn_id, e.id AS effect_id
     FROM ${n.recoveryTurns} AS t,
       LATERAL json_array_elements_text(t.effect_ids::json) AS e (id)
     WHERE t.status IN ('running', 'needs-reconciliation') AND ${granted(n)}
       AND NOT EXISTS (SELECT 1 FROM ${n.recoveryEffects} AS x
         WHERE x.turn_id = t.turn_id AND x.effect_id = e.id AND x.state = 'completed')
     ORDER BY t.turn_id, e.id LIMIT $1::int`,
    [limit],
  );
  return rows.map((r) => ({ turnId: r.turn_id, effectId: r.effect_id }));
}

/** Pending cards, oldest first, at most `limit`. */
export async function openCards(q: PgQueryable, n: TableNames, limit: number): Promise<string[]> {
  const { rows } = await q.query<{ id: string }>(
    `SELECT id FROM ${n.interactions} WHERE status = 'pending' ORDER BY id LIMIT $1::int`,
    [limit],
  );
  return rows.map((r) => r.id);
}

/** Turns still running or waiting for reconciliation, their user granted, oldest first. */
export async function openTurns(q: PgQueryable, n: TableNames, limit: number): Promise<string[]> {
  const { rows } = await q.query<{ turn_id: string }>(
    `SELECT turn_id FROM ${n.recoveryTurns} AS t
     WHERE status IN ('running', 'needs-reconciliation') AND ${granted(n)}
     ORDER BY turn_id LIMIT $1::int`,
    [limit],
  );
  return rows.map((r) => r.turn_id);
}
