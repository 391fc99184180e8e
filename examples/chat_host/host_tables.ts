/**
 * The reference host's own two tables, beside the library's stores: the
 * turns it runs (who started each, from which client, whether it is
 * finished) and the side-effect ledger (what the scripted tools "did" in
 * the outside world: one row per executed effect, never deduplicated by the
 * table, so a double execution shows).
 *
 * @module
 */
import type { PgDriver, PgQueryable } from "@papercusp/chat-protocol-postgres";

/** A turn the host runs. */
export interface TurnRow {
  readonly turnId: string;
  readonly conversationId: string;
  /** The user who started it (the card and effects are bound to them). */
  readonly userId: string;
  /** The client's chat / thread key (`ai:<chatId>`, `ag:<threadId>`) or `null` (v1 page). */
  readonly chatKey: string | null;
  readonly prompt: string;
  /** Epoch ms. */
  readonly createdAt: number;
  readonly finished: boolean;
}

/** One executed side effect. */
export interface LedgerRow {
  /** The effect's idempotency key, `<turnId>/<toolName>`. */
  readonly key: string;
  readonly toolName: string;
  readonly turnId: string;
  /** The effect's output, as JSON text. */
  readonly output: string;
  /** Epoch ms. */
  readonly at: number;
}

/** Create the host's tables when missing. */
export async function createHostTables(db: PgDriver): Promise<void> {
  await db.query(`CREATE TABLE IF NOT EXISTS chat_host_turns (
    turn_id text PRIMARY KEY,
    conversation_id text NOT NULL,
    user_id text NOT NULL,
    chat_key text,
    prompt text NOT NULL,
    created_at bigint NOT NULL,
    finished boolean NOT NULL DEFAULT false
  )`);
  await db.query(
    `CREATE INDEX IF NOT EXISTS chat_host_turns_chat ON chat_host_turns (user_id, chat_key, created_at)`,
  );
  await db.query(`CREATE TABLE IF NOT EXISTS chat_host_ledger (
    id bigserial PRIMARY KEY,
    key text NOT NULL,
    tool_name text NOT NULL,
    turn_id text NOT NULL,
    output text NOT NULL,
    at bigint NOT NULL
  )`);
}

interface RawTurn {
  turn_id: string;
  conversation_id: string;
  user_id: string;
  chat_key: string | null;
  prompt: string;
  created_at: string | number;
  finished: boolean;
}

function turnRow(r: RawTurn): TurnRow {
  return {
    turnId: r.turn_id,
    conversationId: r.conversation_id,
    userId: r.user_id,
    chatKey: r.chat_key,
    prompt: r.prompt,
    createdAt: Number(r.created_at),
    finished: r.finished,
  };
}

const TURN_COLUMNS = "turn_id, conversation_id, user_id, chat_key, prompt, created_at, finished";

/**
 * Insert a new turn, unless its user already has `maxOpen` turns that are
 * not finished (one statement: the count and the insert together). `true`
 * when inserted, `false` when the cap refused it.
 */
export async function insertTurn(
  db: PgQueryable,
  t: Omit<TurnRow, "finished">,
  maxOpen: number,
): Promise<boolean> {
  const { rows } = await db.query<{ turn_id: string }>(
    `INSERT INTO chat_host_turns (${TURN_COLUMNS})
     SELECT $1, $2, $3, $4, $5, $6, false
     WHERE (SELECT count(*) FROM chat_host_turns WHERE user_id = $3 AND NOT finished) < $7
     RETURNING turn_id`,
    [t.turnId, t.conversationId, t.userId, t.chatKey, t.prompt, t.createdAt, maxOpen],
  );
  return rows.length === 1;
}

/** The turn `turnId`, or `null`. */
export async function readTurn(db: PgQueryable, turnId: string): Promise<TurnRow | null> {
  const { rows } = await db.query<RawTurn>(
    `SELECT ${TURN_COLUMNS} FROM chat_host_turns WHERE turn_id = $1`,
    [turnId],
  );
  return rows.length === 0 ? null : turnRow(rows[0]);
}

/** The latest turn of `userId` in the chat `chatKey`, or `null`. */
export async function latestChatTurn(
  db: PgQueryable,
  userId: string,
  chatKey: string,
): Promise<TurnRow | null> {
  const { rows } = await db.query<RawTurn>(
    `SELECT ${TURN_COLUMNS} FROM chat_host_turns WHERE user_id = $1 AND chat_key = $2
     ORDER BY created_at DESC, turn_id DESC LIMIT 1`,
    [userId, chatKey],
  );
  return rows.length === 0 ? null : turnRow(rows[0]);
}

/** Every turn that is not finished, oldest first. */
export async function unfinishedTurns(db: PgQueryable): Promise<TurnRow[]> {
  const { rows } = await db.query<RawTurn>(
    `SELECT ${TURN_COLUMNS} FROM chat_host_turns WHERE NOT finished ORDER BY created_at, turn_id`,
  );
  return rows.map(turnRow);
}

/** Mark `turnId` finished (its terminal event is in the log). */
export async function markFinished(db: PgQueryable, turnId: string): Promise<void> {
  await db.query(`UPDATE chat_host_turns SET finished = true WHERE turn_id = $1`, [turnId]);
}

interface RawLedger {
  key: string;
  tool_name: string;
  turn_id: string;
  output: string;
  at: string | number;
}

function ledgerRow(r: RawLedger): LedgerRow {
  return {
    key: r.key,
    toolName: r.tool_name,
    turnId: r.turn_id,
    output: r.output,
    at: Number(r.at),
  };
}

const LEDGER_COLUMNS = "key, tool_name, turn_id, output, at";

/** Append one executed effect to the ledger. */
export async function insertLedger(db: PgQueryable, row: LedgerRow): Promise<void> {
  await db.query(
    `INSERT INTO chat_host_ledger (key, tool_name, turn_id, output, at) VALUES ($1, $2, $3, $4, $5)`,
    [row.key, row.toolName, row.turnId, row.output, row.at],
  );
}

/** The ledger rows of `key` (normally zero or one). */
export async function ledgerFor(db: PgQueryable, key: string): Promise<LedgerRow[]> {
  const { rows } = await db.query<RawLedger>(
    `SELECT ${LEDGER_COLUMNS} FROM chat_host_ledger WHERE key = $1 ORDER BY id`,
    [key],
  );
  return rows.map(ledgerRow);
}

/** The ledger rows of the turns of `userId`, oldest first. */
export async function readLedger(db: PgQueryable, userId: string): Promise<LedgerRow[]> {
  const { rows } = await db.query<RawLedger>(
    `SELECT ${LEDGER_COLUMNS.split(", ").map((c) => `l.${c}`).join(", ")}
     FROM chat_host_ledger l JOIN chat_host_turns t ON t.turn_id = l.turn_id
     WHERE t.user_id = $1 ORDER BY l.id`,
    [userId],
  );
  return rows.map(ledgerRow);
}
