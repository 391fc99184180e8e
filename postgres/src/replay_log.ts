/**
 * `PostgresReplayLog`: the durable, retained event window of v1 envelopes,
 * implementing the core's `ReplayWindowSeam` so `replayAfter` serves a
 * reconnecting client (`Last-Event-ID` → cursor) from PostgreSQL.
 *
 * @module
 */
import { PgArgumentError } from "./errors.ts";
import {
  type ChatEventEnvelope,
  type EnvelopeIssue,
  parseChatEnvelope,
  parseChatEnvelopeJson,
  type Refusal,
  type Result,
} from "@papercusp/chat-protocol";
import type { ReplayBounds, ReplayWindowSeam } from "@papercusp/chat-protocol/recovery";
import { driverFailure } from "./_failure.ts";
import { safeInt } from "./_rows.ts";
import { exceedsUtf8Bytes, isStorableId, isStorableText, MAX_ID_BYTES } from "./_text.ts";
import {
  type PgCommitOutcome,
  type PgDriver,
  type PgErrorKind,
  type PgQueryable,
} from "./driver.ts";
import { type TableNames, tableNames, type TableOptions } from "./names.ts";

/** Default bound of one stored envelope: 1 MiB of UTF-8 JSON. */
export const DEFAULT_MAX_ENVELOPE_BYTES = 1_048_576;

/**
 * Default bound of one `readAfter`: 10,001 frames, one more than
 * `replayAfter` accepts by default, so an oversized suffix is reported as
 * `window-too-large`, never cut silently.
 */
export const DEFAULT_MAX_READ_FRAMES = 10_001;

/** Options of {@link PostgresReplayLog}. */
export interface PostgresReplayLogOptions extends TableOptions {
  /** Largest stored envelope, in UTF-8 bytes of its JSON; default {@link DEFAULT_MAX_ENVELOPE_BYTES}. */
  readonly maxEnvelopeBytes?: number;
  /** Most frames one `readAfter` returns; default {@link DEFAULT_MAX_READ_FRAMES}. */
  readonly maxReadFrames?: number;
}

/** A stored append. */
export interface AppendReceipt {
  /** Conversation of the envelope. */
  readonly conversationId: string;
  /** Turn of the envelope. */
  readonly turnId: string;
  /** Its `seq`. */
  readonly seq: number;
  /** Its `eventId`. */
  readonly eventId: string;
  /**
   * `true` when this exact envelope (same `seq`, `eventId` and content) was
   * already stored: appending again after an uncertain acknowledgement is
   * safe and answers this instead of a conflict.
   */
  readonly alreadyStored: boolean;
}

/** Codes of {@link AppendRefusal}. */
export type AppendRefusalCode =
  /**
   * Not a v1 envelope (see `issues`), its data cannot be serialized as JSON,
   * or its `conversationId`, `turnId` or `eventId` cannot be a key (NUL, a
   * lone surrogate, more than 1,024 UTF-8 bytes).
   */
  | "invalid-envelope"
  /** Its JSON is larger than `maxEnvelopeBytes`. */
  | "too-large"
  /**
   * `seq` is not `latestSeq + 1` of its turn: taken by another append (the
   * loser of a race gets this), or it would leave a gap.
   */
  | "seq-conflict"
  /** Another retained frame of the conversation has this `eventId`. */
  | "duplicate-event-id"
  /** The turn is recorded under another conversation (turn ids are unique across conversations). */
  | "conversation-mismatch"
  /** The database failed (own transaction only); see `kind` and `commit`. */
  | "store-unavailable";

/** Why {@link PostgresReplayLog.append} stored nothing (or, with `commit: "uncertain"`, may have). */
export interface AppendRefusal extends Refusal<AppendRefusalCode> {
  /** The turn's latest `seq` seen under its lock (`seq-conflict`). */
  readonly latestSeq?: number;
  /** The `seq` an append must carry next (`seq-conflict`). */
  readonly expectedSeq?: number;
  /** The conversation the turn belongs to (`conversation-mismatch`). */
  readonly conversationId?: string;
  /** Where the other frame with this event id is (`duplicate-event-id`). */
  readonly existing?: { readonly turnId: string; readonly seq: number };
  /** What the validator found (`invalid-envelope`). */
  readonly issues?: readonly EnvelopeIssue[];
  /** The driver's error kind (`store-unavailable`). */
  readonly kind?: PgErrorKind;
  /**
   * `store-unavailable`: `uncertain` when the connection was lost while
   * committing. Append the same envelope again: it answers `alreadyStored`
   * when the first one committed, so this is a read-back, not a blind write.
   */
  readonly commit?: PgCommitOutcome;
}

/** Retention policy of {@link PostgresReplayLog.trim}: at least one field. */
export interface TrimPolicy {
  /** Keep at most this many newest frames per turn (non-negative integer; 0 drops all). */
  readonly keepLast?: number;
  /**
   * Drop every frame appended more than this many milliseconds ago (by the
   * DATABASE clock), together with any newer frame before it, so the
   * retained window stays contiguous.
   */
  readonly olderThanMs?: number;
}

/** The bounds of one turn after {@link PostgresReplayLog.trim}. */
export interface TrimmedTurn extends ReplayBounds {
  /** The turn. */
  readonly turnId: string;
  /** Frames deleted by this call. */
  readonly removed: number;
}

/** Thrown by {@link PostgresReplayLog.readAfter} when a stored frame is no longer a valid envelope. */
export class ReplayLogCorruptionError extends Error {
  /** Turn of the frame. */
  readonly turnId: string;
  /** `seq` of the frame. */
  readonly seq: number;
  /** Build for the frame at `turnId`/`seq`. */
  constructor(turnId: string, seq: number, why: string) {
    super(`stored frame ${seq} of turn ${JSON.stringify(turnId.slice(0, 64))} is invalid: ${why}`);
    this.name = "ReplayLogCorruptionError";
    this.turnId = turnId;
    this.seq = seq;
  }
}

function positiveInt(name: string, v: unknown, fallback: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 1) {
    throw new PgArgumentError("invalid-option", `${name} must be a positive integer`);
  }
  return v;
}

function refusal(error: AppendRefusal): { readonly ok: false; readonly error: AppendRefusal } {
  return { ok: false, error };
}

/**
 * The replay log on PostgreSQL (tables from `migrate` with the same
 * {@link TableOptions}).
 *
 * - {@link append} stores one validated v1 envelope; per turn, `seq` must be
 *   exactly the next one (`latestSeq + 1`) and `eventId` unique within the
 *   conversation's retained frames. Appends to one turn are serialized by a
 *   row lock on the turn, so of two concurrent appends of one `seq` one
 *   wins and the other gets `seq-conflict`. Pass `{ tx }` to append inside
 *   the host's own transaction, so the frame commits (or not) together with
 *   the turn's state change. Ids of more than 1,024 UTF-8 bytes (PostgreSQL's
 *   index entries hold at most 2,704 bytes) are refused `invalid-envelope`
 *   before any SQL; reads of such a turn id answer nothing stored.
 * - {@link bounds} and {@link readAfter} are the core's `ReplayWindowSeam`:
 *   `replayAfter(log, { conversationId, turnId, afterSeq })` answers exactly
 *   the retained frames after the cursor, or a typed refusal (`stale-cursor`,
 *   `cursor-beyond-latest`, `gap`, …).
 * - {@link trim} applies retention and reports the new lower bound.
 *
 * The constructor throws `TableOptionsError` for an invalid schema/prefix and
 * `PgArgumentError` for a non-positive bound (programmer's mistakes).
 *
 * @example
 * ```ts
 * import { PGlite } from "@electric-sql/pglite";
 * import { replayAfter } from "@papercusp/chat-protocol/recovery";
 * import { migrate, pgliteDriver, PostgresReplayLog } from "@papercusp/chat-protocol-postgres";
 * const sql = pgliteDriver(new PGlite());
 * await migrate(sql);
 * const log = new PostgresReplayLog(sql);
 * await log.append({ schemaVersion: 1, conversationId: "c1", turnId: "t1", eventId: "e1", seq: 1, event: { type: "delta", text: "Hi" } });
 * const r = await replayAfter(log, { conversationId: "c1", turnId: "t1", afterSeq: 0 });
 * // r.ok && r.value.frames.length === 1
 * ```
 */
export class PostgresReplayLog implements ReplayWindowSeam {
  readonly #driver: PgDriver;
  readonly #n: TableNames;
  readonly #maxBytes: number;
  readonly #maxRead: number;

  /** A log over `driver`'s database; see the class doc for what it throws. */
  constructor(driver: PgDriver, options: PostgresReplayLogOptions = {}) {
    this.#driver = driver;
    this.#n = tableNames(options);
    this.#maxBytes = positiveInt(
      "maxEnvelopeBytes",
      options.maxEnvelopeBytes,
      DEFAULT_MAX_ENVELOPE_BYTES,
    );
    this.#maxRead = positiveInt("maxReadFrames", options.maxReadFrames, DEFAULT_MAX_READ_FRAMES);
  }

  /**
   * Append one envelope (validated with the core's `parseChatEnvelope`;
   * unknown keys stripped; stored as its JSON text). Never throws in its own
   * transaction: every failure is a typed {@link AppendRefusal}. With
   * `options.tx` (the host's transaction) refusals are still returned and
   * leave the transaction usable, but a database failure REJECTS with the
   * driver's `PgDriverError`, so the host's transaction fails as a whole.
   */
  async append(
    envelope: unknown,
    options: { readonly tx?: PgQueryable } = {},
  ): Promise<Result<AppendReceipt, AppendRefusal>> {
    const parsed = parseChatEnvelope(envelope);
    if (!parsed.ok) {
      return refusal({
        code: "invalid-envelope",
        message: parsed.error.message,
        ...("issues" in parsed.error ? { issues: parsed.error.issues } : {}),
      });
    }
    const { conversationId, turnId, eventId } = parsed.value;
    if (![conversationId, turnId, eventId].every(isStorableText)) {
      return refusal({
        code: "invalid-envelope",
        message:
          "conversationId, turnId and eventId must be well-formed Unicode without NUL (PostgreSQL text cannot store them unchanged)",
      });
    }
    if (![conversationId, turnId, eventId].every(isStorableId)) {
      return refusal({
        code: "invalid-envelope",
        message:
          `conversationId, turnId and eventId must be at most ${MAX_ID_BYTES} UTF-8 bytes each (a key column's limit)`,
      });
    }
    let text: string;
    try {
      text = JSON.stringify(parsed.value);
    } catch {
      return refusal({
        code: "invalid-envelope",
        message: "the envelope's data cannot be serialized as JSON",
      });
    }
    if (exceedsUtf8Bytes(text, this.#maxBytes)) {
      return refusal({
        code: "too-large",
        message: `the envelope's JSON is more than ${this.#maxBytes} bytes`,
      });
    }
    const tx = options.tx;
    if (tx) return await this.#appendIn(tx, parsed.value, text);
    try {
      return await this.#driver.transaction((own) => this.#appendIn(own, parsed.value, text));
    } catch (e) {
      return driverFailure(e, "store-unavailable", "append");
    }
  }

  async #appendIn(
    tx: PgQueryable,
    env: ChatEventEnvelope,
    text: string,
  ): Promise<Result<AppendReceipt, AppendRefusal>> {
    const n = this.#n;
    const receipt = (alreadyStored: boolean): Result<AppendReceipt, AppendRefusal> => ({
      ok: true,
      value: {
        conversationId: env.conversationId,
        turnId: env.turnId,
        seq: env.seq,
        eventId: env.eventId,
        alreadyStored,
      },
    });
    // Create the turn row if needed and lock it (the no-op update takes the
    // row lock and returns the committed state after any waiting).
    const { rows: [turn] } = await tx.query<{ conversation_id: string; latest_seq: unknown }>(
      `INSERT INTO ${n.replayTurns} AS t (turn_id, conversation_id) VALUES ($1::text, $2::text)
       ON CONFLICT (turn_id) DO UPDATE SET latest_seq = t.latest_seq
       RETURNING t.conversation_id, t.latest_seq`,
      [env.turnId, env.conversationId],
    );
    if (turn.conversation_id !== env.conversationId) {
      return refusal({
        code: "conversation-mismatch",
        message: "the turn is recorded under another conversation",
        conversationId: turn.conversation_id,
      });
    }
    const latest = safeInt(turn.latest_seq, "latest_seq");
    if (env.seq !== latest + 1) {
      if (env.seq <= latest) {
        const { rows: [same] } = await tx.query<{ event_id: string; envelope: string }>(
          `SELECT event_id, envelope FROM ${n.replayFrames} WHERE turn_id = $1::text AND seq = $2::bigint`,
          [env.turnId, env.seq],
        );
        if (same && same.event_id === env.eventId && same.envelope === text) return receipt(true);
      }
      return refusal({
        code: "seq-conflict",
        message: `seq ${env.seq} is not the next of the turn (latest is ${latest})`,
        latestSeq: latest,
        expectedSeq: latest + 1,
      });
    }
    const { rows: inserted } = await tx.query(
      `WITH ins AS (
         INSERT INTO ${n.replayFrames} (turn_id, seq, conversation_id, event_id, envelope)
         VALUES ($1::text, $2::bigint, $3::text, $4::text, $5::text)
         ON CONFLICT DO NOTHING RETURNING seq
       )
       UPDATE ${n.replayTurns} AS t SET latest_seq = ins.seq FROM ins
       WHERE t.turn_id = $1::text RETURNING t.latest_seq`,
      [env.turnId, env.seq, env.conversationId, env.eventId, text],
    );
    if (inserted.length === 1) return receipt(false);
    // Under the turn lock the seq was free, so the event id collided.
    const { rows: [other] } = await tx.query<{ turn_id: string; seq: unknown }>(
      `SELECT turn_id, seq FROM ${n.replayFrames} WHERE conversation_id = $1::text AND event_id = $2::text`,
      [env.conversationId, env.eventId],
    );
    return refusal({
      code: "duplicate-event-id",
      message: "another retained frame of the conversation has this event id",
      ...(other ? { existing: { turnId: other.turn_id, seq: safeInt(other.seq, "seq") } } : {}),
    });
  }

  /**
   * The retained window of `turnId`: `{ lowestRetainedSeq, latestSeq }`,
   * `{ 1, 0 }` for a turn never appended to, and `lowestRetainedSeq ===
   * latestSeq + 1` when retention dropped every frame. Rejects with a
   * `PgDriverError` when the database fails (`replayAfter` answers
   * `replay-unavailable`).
   */
  async bounds(turnId: string): Promise<ReplayBounds> {
    // An id that cannot be stored was never appended.
    if (typeof turnId !== "string" || !isStorableId(turnId)) {
      return { lowestRetainedSeq: 1, latestSeq: 0 };
    }
    const { rows: [row] } = await this.#driver.query<{ low: unknown; latest: unknown }>(
      `SELECT lowest_retained_seq AS low, latest_seq AS latest FROM ${this.#n.replayTurns} WHERE turn_id = $1::text`,
      [turnId],
    );
    if (!row) return { lowestRetainedSeq: 1, latestSeq: 0 };
    return {
      lowestRetainedSeq: safeInt(row.low, "lowest_retained_seq"),
      latestSeq: safeInt(row.latest, "latest_seq"),
    };
  }

  /**
   * Every retained envelope of `turnId` with `seq > afterSeq`, in `seq`
   * order, at most `maxReadFrames` of them. Rejects with `PgArgumentError` for a cursor
   * that is not a non-negative safe integer, {@link ReplayLogCorruptionError}
   * when a stored frame no longer validates, and a `PgDriverError` when the
   * database fails.
   */
  async readAfter(turnId: string, afterSeq: number): Promise<ChatEventEnvelope[]> {
    if (!Number.isSafeInteger(afterSeq) || afterSeq < 0) {
      throw new PgArgumentError("invalid-argument", "afterSeq must be a non-negative safe integer");
    }
    if (typeof turnId !== "string" || !isStorableId(turnId)) return [];
    const { rows } = await this.#driver.query<{ seq: unknown; envelope: string }>(
      `SELECT seq, envelope FROM ${this.#n.replayFrames}
       WHERE turn_id = $1::text AND seq > $2::bigint ORDER BY seq LIMIT $3::bigint`,
      [turnId, afterSeq, this.#maxRead],
    );
    return rows.map((row) => {
      const r = parseChatEnvelopeJson(row.envelope, { maxBytes: this.#maxBytes });
      if (!r.ok) throw new ReplayLogCorruptionError(turnId, safeInt(row.seq, "seq"), r.error.code);
      return r.value;
    });
  }

  /**
   * Retention: drop the oldest frames of one turn (`turnId`) or of every
   * turn (`turnId` omitted) by `policy`, and raise each turn's
   * `lowestRetainedSeq` to the first frame kept (`latestSeq + 1` when none
   * is). Turns keep their bounds, so a client whose cursor was dropped gets
   * `stale-cursor`, not a silent restart. One statement, under the turns'
   * row locks (an append to the same turn waits).
   *
   * Returns the bounds of every turn considered, or `store-unavailable`.
   * Rejects with `PgArgumentError` when `policy` has neither field or a field is not a
   * non-negative safe integer.
   */
  async trim(
    policy: TrimPolicy,
    turnId?: string,
  ): Promise<Result<TrimmedTurn[], AppendRefusal>> {
    const keep = policy.keepLast;
    const older = policy.olderThanMs;
    for (const [name, v] of [["keepLast", keep], ["olderThanMs", older]] as const) {
      if (v !== undefined && (!Number.isSafeInteger(v) || v < 0)) {
        throw new PgArgumentError(
          "invalid-argument",
          `${name} must be a non-negative safe integer`,
        );
      }
    }
    if (keep === undefined && older === undefined) {
      throw new PgArgumentError("invalid-argument", "a trim policy needs keepLast or olderThanMs");
    }
    if (turnId !== undefined && (typeof turnId !== "string" || !isStorableId(turnId))) {
      return { ok: true, value: [] }; // never appended to
    }
    const n = this.#n;
    try {
      const { rows } = await this.#driver.query<
        { turn_id: string; low: unknown; latest: unknown; removed: unknown }
      >(
        `WITH target AS (
           SELECT t.turn_id, t.latest_seq AS latest, t.lowest_retained_seq AS old_low,
             LEAST(t.latest_seq + 1, GREATEST(
               t.lowest_retained_seq,
               CASE WHEN $2::bigint IS NULL THEN 0 ELSE t.latest_seq - $2::bigint + 1 END,
               CASE WHEN $3::bigint IS NULL THEN 0 ELSE COALESCE((
                 SELECT max(f.seq) FROM ${n.replayFrames} f
                 WHERE f.turn_id = t.turn_id
                   AND f.appended_at < now() - $3::bigint * interval '1 millisecond'
               ), 0) + 1 END
             )) AS new_low
           FROM ${n.replayTurns} t
           WHERE $1::text IS NULL OR t.turn_id = $1::text
           FOR UPDATE OF t
         ), del AS (
           DELETE FROM ${n.replayFrames} f USING target
           WHERE f.turn_id = target.turn_id AND f.seq < target.new_low
           RETURNING f.turn_id
         ), raised AS (
           UPDATE ${n.replayTurns} t SET lowest_retained_seq = target.new_low FROM target
           WHERE t.turn_id = target.turn_id AND target.new_low > target.old_low
           RETURNING t.turn_id
         )
         SELECT target.turn_id, target.new_low AS low, target.latest,
           (SELECT count(*) FROM del WHERE del.turn_id = target.turn_id) AS removed
         FROM target ORDER BY target.turn_id`,
        [turnId ?? null, keep ?? null, older ?? null],
      );
      return {
        ok: true,
        value: rows.map((r) => ({
          turnId: r.turn_id,
          lowestRetainedSeq: safeInt(r.low, "lowest_retained_seq"),
          latestSeq: safeInt(r.latest, "latest_seq"),
          removed: safeInt(r.removed, "removed"),
        })),
      };
    } catch (e) {
      return driverFailure(e, "store-unavailable", "trim");
    }
  }

  /**
   * Forget a turn entirely (its bounds and frames): afterwards it reads as
   * never appended to (`{ 1, 0 }`). `true` when it existed. Rejects with a
   * `PgDriverError` when the database fails.
   */
  async deleteTurn(turnId: string): Promise<boolean> {
    if (typeof turnId !== "string" || !isStorableId(turnId)) return false;
    const { rows } = await this.#driver.query(
      `DELETE FROM ${this.#n.replayTurns} WHERE turn_id = $1::text RETURNING turn_id`,
      [turnId],
    );
    return rows.length > 0;
  }
}
