/**
 * Turns a client's error (postgres.js `PostgresError` / connection errors,
 * PGlite `DatabaseError`) into a {@link PgDriverError}. Area-private.
 *
 * @module
 */
import { type PgCommitOutcome, PgDriverError, type PgErrorKind } from "./driver.ts";

/**
 * Where the error happened, which decides what a lost connection means:
 *
 * - `in-transaction`: a statement inside an open transaction, before
 *   `COMMIT` was sent (a lost connection rolls it back: not committed);
 * - `commit`: the transaction's body finished and `COMMIT` was in flight;
 * - `autocommit`: a statement outside any transaction (it commits by itself).
 */
export type ErrorPhase = "in-transaction" | "commit" | "autocommit";

/** Client codes of postgres.js / Node sockets meaning "never connected, nothing sent". */
const NEVER_SENT = new Set([
  "CONNECT_TIMEOUT",
  "CONNECTION_ENDED",
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

/** Client codes meaning "the connection was lost". */
const LOST = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
]);

function read(e: unknown, key: string): string | undefined {
  try {
    if (typeof e !== "object" || e === null) return undefined;
    const v = (e as Record<string, unknown>)[key];
    return typeof v === "string" ? v : undefined;
  } catch {
    return undefined;
  }
}

/** The message of a client's error, bounded to 500 UTF-16 code units; never throws. */
function messageOf(e: unknown): string {
  try {
    const m = e instanceof Error ? e.message : String(e);
    return typeof m === "string" ? m.slice(0, 500) : "an unprintable error";
  } catch {
    return "an unprintable error";
  }
}

function kindOfSqlState(state: string): PgErrorKind {
  switch (state) {
    case "40001":
      return "serialization-failure";
    case "40P01":
      return "deadlock";
    case "55P03":
      return "lock-timeout";
    case "57014":
      return "statement-timeout";
    case "23505":
      return "unique-violation";
  }
  if (state.startsWith("08") || state === "57P01" || state === "57P02" || state === "57P03") {
    return "connection";
  }
  return "server";
}

/** `e` classified; a {@link PgDriverError} passes through unchanged. */
export function classify(e: unknown, phase: ErrorPhase): PgDriverError {
  if (e instanceof PgDriverError) return e;
  const code = read(e, "code");
  const severity = read(e, "severity");
  const message = messageOf(e);
  if (code !== undefined && /^[0-9A-Z]{5}$/.test(code) && severity !== undefined) {
    // The server answered with an ErrorResponse: the statement (and, in a
    // transaction, the transaction) did not commit.
    const constraint = read(e, "constraint_name") ?? read(e, "constraint");
    return new PgDriverError(message, {
      kind: kindOfSqlState(code),
      commit: "not-committed",
      sqlState: code,
      ...(constraint !== undefined ? { constraint } : {}),
      cause: e,
    });
  }
  if (code !== undefined && (NEVER_SENT.has(code) || LOST.has(code))) {
    const commit: PgCommitOutcome = NEVER_SENT.has(code) || phase === "in-transaction"
      ? "not-committed"
      : "uncertain";
    return new PgDriverError(message, { kind: "connection", commit, clientCode: code, cause: e });
  }
  // Unrecognized: before COMMIT nothing can have committed; after, we cannot tell.
  return new PgDriverError(message, {
    kind: "client",
    commit: phase === "in-transaction" ? "not-committed" : "uncertain",
    ...(code !== undefined ? { clientCode: code } : {}),
    cause: e,
  });
}
