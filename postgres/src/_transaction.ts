/**
 * The transaction wrapper both drivers share: timeouts and isolation at the
 * start, and the classification of failures by phase (before `COMMIT` was
 * sent: not committed; while it was in flight: uncertain). Area-private.
 *
 * @module
 */
import { PgArgumentError } from "./errors.ts";
import { classify } from "./_classify.ts";
import type { PgQueryable, PgTransactionOptions } from "./driver.ts";

/** Timeouts a driver applies to every transaction unless one overrides them, in ms. */
export interface TimeoutDefaults {
  readonly statementTimeoutMs?: number;
  readonly lockTimeoutMs?: number;
}

/**
 * Checks a timeout option: `undefined` or a non-negative safe integer of
 * milliseconds. Throws `PgArgumentError` otherwise (a programmer's mistake in the
 * options, documented on the driver factories).
 */
export function checkTimeout(name: string, v: unknown): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) {
    throw new PgArgumentError(
      "invalid-option",
      `${name} must be a non-negative integer of milliseconds`,
    );
  }
  return v;
}

/** The statements that open a transaction with `options` over `defaults`. */
export function openingStatements(
  options: PgTransactionOptions | undefined,
  defaults: TimeoutDefaults,
  withTimeouts: boolean,
): { text: string; params: string[] }[] {
  const out: { text: string; params: string[] }[] = [];
  const isolation = options?.isolation;
  if (isolation !== undefined) {
    if (
      isolation !== "read committed" && isolation !== "repeatable read" &&
      isolation !== "serializable"
    ) {
      throw new PgArgumentError(
        "invalid-option",
        "isolation must be read committed, repeatable read or serializable",
      );
    }
    out.push({ text: `SET TRANSACTION ISOLATION LEVEL ${isolation.toUpperCase()}`, params: [] });
  }
  if (!withTimeouts) return out;
  const statement = checkTimeout("statementTimeoutMs", options?.statementTimeoutMs) ??
    defaults.statementTimeoutMs;
  const lock = checkTimeout("lockTimeoutMs", options?.lockTimeoutMs) ?? defaults.lockTimeoutMs;
  const sets: string[] = [];
  const params: string[] = [];
  if (statement !== undefined) {
    params.push(String(statement));
    sets.push(`set_config('statement_timeout', $${params.length}, true)`);
  }
  if (lock !== undefined) {
    params.push(String(lock));
    sets.push(`set_config('lock_timeout', $${params.length}, true)`);
  }
  if (sets.length > 0) out.push({ text: `SELECT ${sets.join(", ")}`, params });
  return out;
}

/**
 * Runs `fn` through a client's own transaction primitive `begin` (which
 * sends `BEGIN`, calls the body, then `COMMIT`, or `ROLLBACK` when the body
 * throws), classifying failures: an error the body threw is rethrown
 * unchanged (nothing committed); a client failure before the body finished
 * is `not-committed`; one after (while `COMMIT` was in flight) is
 * `uncertain` unless the server answered. (PGlite's driver uses it; the
 * postgres.js driver runs its own, pipelined, on a reserved connection.)
 */
export async function runTransaction<T, Raw>(
  begin: (body: (raw: Raw) => Promise<T>) => Promise<T>,
  wrap: (raw: Raw) => PgQueryable,
  opening: readonly { text: string; params: string[] }[],
  fn: (tx: PgQueryable) => Promise<T>,
): Promise<T> {
  let bodyDone = false;
  let thrownByBody: { error: unknown } | null = null;
  try {
    return await begin(async (raw) => {
      const tx = wrap(raw);
      let result: T;
      try {
        for (const s of opening) await tx.query(s.text, s.params);
        result = await fn(tx);
      } catch (e) {
        thrownByBody = { error: e };
        throw e;
      }
      bodyDone = true;
      return result;
    });
  } catch (e) {
    // COMMIT was never sent when the body threw: whatever the rollback did,
    // nothing committed, and the caller's own error is the one to see.
    if (thrownByBody !== null) throw (thrownByBody as { error: unknown }).error;
    throw classify(e, bodyDone ? "commit" : "in-transaction");
  }
}
