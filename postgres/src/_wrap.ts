/**
 * The two adapters both drivers build from their client's primitives: a
 * {@link PgQueryable} whose failures are classified by phase, and an
 * idempotent LISTEN handle. Area-private.
 *
 * @module
 */
import { classify } from "./_classify.ts";
import type { PgListenHandle, PgParam, PgQueryable, PgRows } from "./driver.ts";

/**
 * A {@link PgQueryable} over `run` (the client's "one statement, rows back"),
 * rejecting with a `PgDriverError` classified as inside a transaction (a lost
 * connection: not committed) or auto-committed (uncertain).
 */
export function queryableOf(
  run: (text: string, params: PgParam[]) => PromiseLike<ArrayLike<unknown>>,
  inTransaction: boolean,
): PgQueryable {
  return {
    async query<R>(text: string, params: readonly PgParam[] = []): Promise<PgRows<R>> {
      try {
        return { rows: Array.from(await run(text, [...params])) as R[] };
      } catch (e) {
        throw classify(e, inTransaction ? "in-transaction" : "autocommit");
      }
    },
  };
}

/**
 * LISTEN through `start` (which resolves to the client's stop function),
 * failures classified. The handle's `unlisten` is idempotent and never
 * rejects.
 */
export async function listenHandle(
  start: () => PromiseLike<() => Promise<void>>,
): Promise<PgListenHandle> {
  let stop: () => Promise<void>;
  try {
    stop = await start();
  } catch (e) {
    throw classify(e, "in-transaction");
  }
  let done = false;
  return {
    async unlisten() {
      if (done) return;
      done = true;
      await stop().catch(() => {});
    },
  };
}
