/**
 * `PostgresCancelDelivery`: the core's `CancelDeliverySeam` over
 * LISTEN/NOTIFY, so a cancel committed by one process reaches the process
 * running the dispatch (its `CancelRelay` re-reads the turn and fires the
 * execution's abort signal).
 *
 * Three paths carry a committed stop:
 * 1. `PostgresRecoveryStore` announces it from the cancelling statement
 *    itself (NOTIFY, delivered at COMMIT, also if the cancelling process
 *    dies right after);
 * 2. `TurnRecovery.cancel` then calls {@link PostgresCancelDelivery.publish}
 *    (`pg_notify`; also for a turn already cancelled, whose first canceller
 *    may have died);
 * 3. a subscription whose LISTEN connection dropped (notifications sent
 *    meanwhile are lost) re-reads, once it listens again, the turns stopped
 *    since it last listened (`stopped_at`, database clock) and hands each to
 *    the subscriber as a notice.
 * A notice is a hint: `CancelRelay` confirms each by reading the turn.
 *
 * @module
 */
import { PgArgumentError } from "./errors.ts";
import type {
  CancelDeliverySeam,
  CancelNotice,
  CancelSubscription,
} from "@papercusp/chat-protocol/recovery";
import type { PgDriver } from "./driver.ts";
import { type TableNames, tableNames, type TableOptions } from "./names.ts";
import { type NotificationSubscription, publish, subscribe } from "./notifications.ts";
import { isStorableText } from "./_text.ts";
import { safeInt } from "./_rows.ts";

/** Default bound of the turns one re-read hands over (the newest stops first). */
export const DEFAULT_MAX_REREAD_TURNS = 1_000;

/** Default margin of a re-read before the last time the subscription listened, ms. */
export const DEFAULT_REREAD_MARGIN_MS = 5_000;

/** Options of {@link PostgresCancelDelivery}. */
export interface PostgresCancelDeliveryOptions extends TableOptions {
  /**
   * Interval of the LISTEN health check (a self-ping), ms; default 10,000
   * (see `subscribe`); 0 turns it off. A silently dead subscription is
   * re-established, and re-read, within about two intervals.
   */
  readonly healthCheckMs?: number;
  /** Most turns one re-read hands over, newest stop first; default {@link DEFAULT_MAX_REREAD_TURNS}. */
  readonly maxRereadTurns?: number;
  /**
   * How far before the last moment the subscription listened a re-read
   * starts, ms of the database clock (a stop's `stopped_at` is taken by its
   * statement, a little before its COMMIT); default {@link DEFAULT_REREAD_MARGIN_MS}.
   */
  readonly rereadMarginMs?: number;
  /** Receives failures of a re-read or a health check, and notices that fail validation. Default: ignore. */
  readonly onError?: (error: unknown) => void;
}

/** A subscription of {@link PostgresCancelDelivery.subscribe}. */
export interface PostgresCancelSubscription extends CancelSubscription {
  /**
   * Re-read the turns stopped since this subscription last listened and
   * hand each to the subscriber (what a resubscription does by itself).
   * Resolves to the number of notices handed over; rejects with the
   * driver's `PgDriverError`.
   */
  reread(): Promise<number>;
  /** Times the LISTEN was re-established (each followed by a re-read). */
  resubscribed(): number;
}

interface StoppedRow {
  readonly turn_id: string;
  readonly revision: unknown;
  readonly status: string;
  readonly reason: string | null;
}

/**
 * Cross-process cancel delivery on PostgreSQL, for the tables of a
 * `PostgresRecoveryStore` with the same schema and prefix (the channel is
 * `TableNames.cancelChannel`). Give the same instance to every
 * `TurnRecovery` as `cancelDelivery`, and run one `CancelRelay` per process
 * over it. Throws `TableOptionsError` for invalid table options and
 * `PgArgumentError` for an invalid numeric option.
 *
 * @example
 * ```ts
 * import { PGlite } from "@electric-sql/pglite";
 * import { CancelRelay, MemoryExecutions } from "@papercusp/chat-protocol/recovery";
 * import {
 *   migrate, pgliteDriver, PostgresCancelDelivery, PostgresRecoveryStore,
 * } from "@papercusp/chat-protocol-postgres";
 *
 * const sql = pgliteDriver(await PGlite.create());
 * await migrate(sql);
 * const store = new PostgresRecoveryStore(sql);
 * const delivery = new PostgresCancelDelivery(sql);
 * const executions = new MemoryExecutions();
 * const relay = new CancelRelay({ delivery, store, abort: executions });
 * await relay.start(); // this process's dispatches now abort on a cancel from anywhere
 * ```
 */
export class PostgresCancelDelivery implements CancelDeliverySeam {
  /** The driver notices are published and received on. */
  readonly driver: PgDriver;
  /** The table names (and `cancelChannel`) in use. */
  readonly names: TableNames;
  readonly #options: PostgresCancelDeliveryOptions;
  readonly #max: number;
  readonly #margin: number;

  /** A delivery over `driver` (see the class doc for what it throws). */
  constructor(driver: PgDriver, options: PostgresCancelDeliveryOptions = {}) {
    this.driver = driver;
    this.names = tableNames(options);
    this.#options = options;
    this.#max = options.maxRereadTurns ?? DEFAULT_MAX_REREAD_TURNS;
    this.#margin = options.rereadMarginMs ?? DEFAULT_REREAD_MARGIN_MS;
    for (const [name, v] of [["maxRereadTurns", this.#max], ["rereadMarginMs", this.#margin]]) {
      if (!Number.isSafeInteger(v) || (v as number) < 0) {
        throw new PgArgumentError("invalid-option", `${name} must be a non-negative integer`);
      }
    }
  }

  /**
   * Announce a committed stop: `pg_notify` on the cancel channel with the
   * notice as JSON (its reason cut to 500 code units). Rejects with a
   * `TypeError` for a notice that is not one (the core never sends such)
   * and with the driver's `PgDriverError` when the database fails; the stop
   * itself stays committed either way.
   */
  async publish(notice: CancelNotice): Promise<void> {
    const checked = checkNotice(notice);
    if (checked === null) throw new TypeError("not a cancel notice");
    const sent = await publish(this.driver, this.names.cancelChannel, JSON.stringify(checked));
    if (!sent.ok) throw new TypeError(sent.error.message);
  }

  /**
   * LISTEN on the cancel channel (through the driver's own LISTEN
   * connection) and call `onNotice` for each valid notice; after the
   * subscription was re-established, re-read the turns stopped meanwhile
   * (see the module doc). Resolves once listening; rejects with the
   * driver's `PgDriverError` when the first LISTEN fails.
   */
  async subscribe(onNotice: (notice: CancelNotice) => void): Promise<PostgresCancelSubscription> {
    const onError = this.#options.onError;
    const report = (e: unknown) => {
      try {
        onError?.(e);
      } catch { /* nowhere left to report */ }
    };
    let since = 0;
    let resubscribed = 0;
    let chain: Promise<number> = Promise.resolve(0);
    const deliver = (notice: CancelNotice) => {
      try {
        onNotice(notice);
      } catch (e) {
        report(e);
      }
    };
    const reread = () => {
      const run = chain.then(async () => {
        const at = await this.#clock();
        const from = since - this.#margin;
        const { rows } = await this.driver.query<StoppedRow>(
          `SELECT turn_id, revision, status, reason FROM ${this.names.recoveryTurns}
           WHERE stopped_at >= to_timestamp($1::float8 / 1000) ORDER BY stopped_at DESC
           LIMIT $2::int`,
          [from, this.#max],
        );
        since = at;
        for (const row of rows) {
          const notice = checkNotice({
            turnId: row.turn_id,
            revision: safeInt(row.revision, "revision"),
            status: row.status,
            reason: row.reason ?? row.status,
          });
          if (notice !== null) deliver(notice);
        }
        return rows.length;
      });
      chain = run.catch(() => 0);
      return run;
    };
    const result = await subscribe(
      this.driver,
      this.names.cancelChannel,
      {
        onMessage: (payload) => {
          let parsed: unknown;
          try {
            parsed = JSON.parse(payload);
          } catch {
            parsed = null;
          }
          const notice = checkNotice(parsed);
          if (notice === null) report(new TypeError("dropped a notification that is not a notice"));
          else deliver(notice);
        },
        onResubscribed: () => {
          resubscribed++;
          reread().catch(report);
        },
        onError: report,
      },
      this.#options.healthCheckMs === undefined
        ? {}
        : { healthCheckMs: this.#options.healthCheckMs },
    );
    if (!result.ok) throw new TypeError(result.error.message);
    const sub: NotificationSubscription = result.value;
    try {
      since = await this.#clock();
    } catch (e) {
      await sub.close();
      throw e;
    }
    return {
      unsubscribe: () => sub.close(),
      reread,
      resubscribed: () => resubscribed,
    };
  }

  /** The database clock, epoch ms. */
  async #clock(): Promise<number> {
    const { rows } = await this.driver.query<{ ms: unknown }>(
      "SELECT floor(extract(epoch from clock_timestamp()) * 1000)::bigint AS ms",
    );
    return safeInt(rows[0]?.ms, "ms");
  }
}

/** A copy of `x` when it is a well-formed notice (reason cut to 500 code units), else `null`. */
function checkNotice(x: unknown): CancelNotice | null {
  try {
    if (typeof x !== "object" || x === null) return null;
    const { turnId, revision, status, reason } = x as Record<string, unknown>;
    if (!isStorableText(turnId) || turnId.length === 0) return null;
    if (!Number.isSafeInteger(revision) || (revision as number) < 1) return null;
    if (status !== "cancelled" && status !== "failed") return null;
    if (typeof reason !== "string") return null;
    const cut = reason.slice(0, 500);
    return {
      turnId,
      revision: revision as number,
      status,
      reason: isStorableText(cut) ? cut : String(status),
    };
  } catch {
    return null;
  }
}
