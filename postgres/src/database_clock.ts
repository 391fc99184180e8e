/**
 * `databaseClock`: a synchronous host clock that follows the database
 * server's clock, for `TurnRecovery`'s `now` when workers on several
 * machines share one database (leases are judged by the host clock, so
 * every worker must agree on it far better than the lease length).
 *
 * @module
 */
import { PgArgumentError } from "./errors.ts";
import type { PgQueryable } from "./driver.ts";
import { safeInt } from "./_rows.ts";

/** Default interval between two synchronizations of a {@link DatabaseClock}, ms. */
export const DEFAULT_CLOCK_SYNC_MS = 60_000;

/** A host clock following the database's (see {@link databaseClock}). */
export interface DatabaseClock {
  /**
   * Epoch ms: this machine's clock plus the last measured offset to the
   * database's, never earlier than a value it returned before. Synchronous
   * (no round trip); pass it as `TurnRecovery`'s `now`.
   */
  now(): number;
  /**
   * Measure the offset again (one round trip, its midpoint taken as the
   * server's reading). Resolves to the new offset in ms; rejects with the
   * driver's `PgDriverError` (the old offset stays).
   */
  sync(): Promise<number>;
  /** The current offset, ms (database minus this machine). */
  offsetMs(): number;
  /** Stop the periodic synchronization (idempotent). */
  close(): void;
}

/**
 * Measure the database clock's offset once (rejects with the driver's
 * `PgDriverError` when that fails), then keep it fresh every `syncEveryMs`
 * (default {@link DEFAULT_CLOCK_SYNC_MS}; 0 = never; failures keep the old
 * offset and go to `onError`). The timer never keeps a process alive.
 * Throws `PgArgumentError` for a negative or non-integer `syncEveryMs`.
 *
 * @example
 * ```ts
 * import { PGlite } from "@electric-sql/pglite";
 * import { databaseClock, pgliteDriver } from "@papercusp/chat-protocol-postgres";
 * const sql = pgliteDriver(await PGlite.create());
 * const clock = await databaseClock(sql);
 * const leaseEnd = clock.now() + 30_000; // what TurnRecovery({ now: clock.now }) computes
 * clock.close();
 * ```
 */
export async function databaseClock(
  driver: PgQueryable,
  options: { readonly syncEveryMs?: number; readonly onError?: (error: unknown) => void } = {},
): Promise<DatabaseClock> {
  const every = options.syncEveryMs ?? DEFAULT_CLOCK_SYNC_MS;
  if (!Number.isSafeInteger(every) || every < 0) {
    throw new PgArgumentError("invalid-option", "syncEveryMs must be a non-negative integer");
  }
  let offset = 0;
  let last = Number.NEGATIVE_INFINITY;
  const sync = async () => {
    const t0 = Date.now();
    const { rows } = await driver.query<{ ms: unknown }>(
      "SELECT floor(extract(epoch from clock_timestamp()) * 1000)::bigint AS ms",
    );
    const t1 = Date.now();
    offset = safeInt(rows[0]?.ms, "ms") - Math.round((t0 + t1) / 2);
    return offset;
  };
  await sync();
  let timer: ReturnType<typeof setInterval> | null = null;
  if (every > 0) {
    timer = setInterval(() => {
      sync().catch((e) => {
        try {
          options.onError?.(e);
        } catch { /* nowhere left to report */ }
      });
    }, every);
    (timer as { unref?: () => void }).unref?.();
  }
  return {
    now: () => {
      last = Math.max(last, Date.now() + offset);
      return last;
    },
    sync,
    offsetMs: () => offset,
    close: () => {
      if (timer !== null) clearInterval(timer);
      timer = null;
    },
  };
}
