/**
 * Where the package's tables live: a schema and a table-name prefix, so a
 * host puts them beside its own session tables. Every name the package puts
 * into SQL is validated here and then double-quoted; no untrusted text is
 * ever concatenated into a statement.
 *
 * @module
 */

/** Where the tables live. The same options go to `migrate` and to every store. */
export interface TableOptions {
  /**
   * Schema holding the tables; created by `migrate` when missing. A lower-case
   * identifier (`[a-z_][a-z0-9_]*`, at most 63 bytes, not starting with
   * `pg_`). Default `"public"`.
   */
  readonly schema?: string;
  /**
   * Prefix of every table and index name (`[a-z_][a-z0-9_]*` or empty, at
   * most 30 bytes: the longest derived name, `<prefix>interaction_outbox_by_interaction`,
   * must fit PostgreSQL's 63-byte identifiers; a longer prefix throws
   * `TableOptionsError`). Default `"chat_"`, giving `chat_replay_frames` etc.
   */
  readonly prefix?: string;
}

/** The fully quoted names of the package's tables and indexes (`"schema"."prefix_table"`). */
export interface TableNames {
  /** The schema, unquoted (validated). */
  readonly schemaName: string;
  /** The prefix, unquoted (validated). */
  readonly prefix: string;
  /** `"schema"`. */
  readonly schema: string;
  /** The migrations table: one row per applied version. */
  readonly migrations: string;
  /** One row per turn of the replay log: its conversation and bounds. */
  readonly replayTurns: string;
  /** One row per retained frame of the replay log. */
  readonly replayFrames: string;
  /** Name (unquoted) of the unique index over a conversation's event ids. */
  readonly replayEventIdIndex: string;
  /** Name (unquoted) of the primary key of the frames table (turn, seq). */
  readonly replayFramesKey: string;
  /** Recovery: one row per turn record (`TurnRecord`, with its revision). */
  readonly recoveryTurns: string;
  /** Recovery: one row per effect record (`EffectRecord`, with its revision, claim owner and lease). */
  readonly recoveryEffects: string;
  /** Recovery: authority grants (`user` per turn, `system` per turn or `'*'`). */
  readonly recoveryGrants: string;
  /** Name (unquoted) of the index over stopped turns by stop time (cancel re-reads). */
  readonly recoveryStoppedIndex: string;
  /** Interactions: one row per interaction record (its JSON, revision and bound authority). */
  readonly interactions: string;
  /** Interactions: the outbox of workflow transitions, written with their record. */
  readonly interactionOutbox: string;
  /** Interactions: one row per bound authority (revocation writes it). */
  readonly interactionAuthorities: string;
  /** Interactions: system grants (host identity per tenant). */
  readonly interactionSystemGrants: string;
  /** Interactions: the store clock's high-water mark (one row). */
  readonly interactionClock: string;
  /** Name (unquoted) of the index over undelivered outbox rows. */
  readonly interactionOutboxPendingIndex: string;
  /** Name (unquoted) of the index over outbox rows by interaction. */
  readonly interactionOutboxByIdIndex: string;
  /**
   * The LISTEN/NOTIFY channel committed turn stops are announced on
   * (unquoted: `<prefix>turn_stop`, or `<prefix>turn_stop_<schema>` outside
   * `public`), shared by `PostgresRecoveryStore` and `PostgresCancelDelivery`.
   */
  readonly cancelChannel: string;
}

/** Thrown by `migrate` and the stores' constructors when {@link TableOptions} are invalid. */
export class TableOptionsError extends TypeError {
  /** Build with the explanation. */
  constructor(message: string) {
    super(message);
    this.name = "TableOptionsError";
  }
}

const IDENT = /^[a-z_][a-z0-9_]*$/;

/**
 * The cancel channel of a schema and prefix: `<prefix>turn_stop` in
 * `public`, else `<prefix>turn_stop_<schema>` (channels are per database,
 * not per schema); cut to 63 bytes with a hash suffix when longer.
 */
function channelName(schema: string, prefix: string): string {
  const full = schema === "public" ? `${prefix}turn_stop` : `${prefix}turn_stop_${schema}`;
  if (full.length <= MAX_IDENTIFIER_BYTES) return full;
  let h = 0x811c9dc5;
  for (let i = 0; i < full.length; i++) h = Math.imul(h ^ full.charCodeAt(i), 0x01000193);
  return `${full.slice(0, MAX_IDENTIFIER_BYTES - 9)}_${(h >>> 0).toString(16).padStart(8, "0")}`;
}

/** Longest identifier PostgreSQL keeps, in bytes (NAMEDATALEN - 1). */
export const MAX_IDENTIFIER_BYTES = 63;

/**
 * Longest accepted {@link TableOptions.prefix}, in bytes: 63 minus the
 * longest name derived from it (`interaction_outbox_by_interaction`, 33).
 */
export const MAX_PREFIX_BYTES = 30;

/**
 * `true` when `name` is a lower-case SQL identifier the package accepts
 * (`[a-z_][a-z0-9_]*`, 1 to 63 bytes): never needs quoting, never clashes in
 * case. Never throws (non-strings are `false`).
 */
export function isSafeIdentifier(name: unknown): name is string {
  return typeof name === "string" && name.length > 0 && name.length <= MAX_IDENTIFIER_BYTES &&
    IDENT.test(name);
}

/**
 * `name` double-quoted for SQL, with `"` doubled (PostgreSQL's quoting rule
 * for identifiers). Throws {@link TableOptionsError} when `name` is not
 * {@link isSafeIdentifier}: the package quotes only names it validated.
 */
export function quoteIdentifier(name: string): string {
  if (!isSafeIdentifier(name)) {
    throw new TableOptionsError(
      "identifier must match [a-z_][a-z0-9_]* and be at most 63 bytes",
    );
  }
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Validate {@link TableOptions} and build every quoted name. Throws
 * {@link TableOptionsError} (a programmer's mistake in the options) when the
 * schema or prefix is not accepted or a resulting name exceeds 63 bytes.
 *
 * @example
 * ```ts
 * import { tableNames } from "@papercusp/chat-protocol-postgres";
 * const n = tableNames({ schema: "chat", prefix: "app_" });
 * // n.replayFrames === '"chat"."app_replay_frames"'
 * ```
 */
export function tableNames(options: TableOptions = {}): TableNames {
  let schema: unknown, prefix: unknown;
  try {
    schema = options.schema ?? "public";
    prefix = options.prefix ?? "chat_";
  } catch (e) {
    // a throwing getter or a revoked proxy: the options themselves are the mistake
    throw new TableOptionsError(
      `the table options could not be read: ${e instanceof Error ? e.name : typeof e}`,
    );
  }
  if (!isSafeIdentifier(schema) || schema.startsWith("pg_")) {
    throw new TableOptionsError(
      "schema must match [a-z_][a-z0-9_]*, be at most 63 bytes and not start with pg_",
    );
  }
  if (
    typeof prefix !== "string" || prefix.length > MAX_PREFIX_BYTES ||
    (prefix !== "" && !IDENT.test(prefix))
  ) {
    throw new TableOptionsError(
      `prefix must be empty or match [a-z_][a-z0-9_]*, at most ${MAX_PREFIX_BYTES} bytes`,
    );
  }
  const q = (table: string) => `${quoteIdentifier(schema)}.${quoteIdentifier(prefix + table)}`;
  const bare = (name: string) => quoteIdentifier(prefix + name) && prefix + name;
  return {
    schemaName: schema,
    prefix,
    schema: quoteIdentifier(schema),
    migrations: q("migrations"),
    replayTurns: q("replay_turns"),
    replayFrames: q("replay_frames"),
    replayEventIdIndex: bare("replay_frames_event_key"),
    replayFramesKey: bare("replay_frames_pkey"),
    recoveryTurns: q("recovery_turns"),
    recoveryEffects: q("recovery_effects"),
    recoveryGrants: q("recovery_grants"),
    recoveryStoppedIndex: bare("recovery_turns_stopped"),
    interactions: q("interactions"),
    interactionOutbox: q("interaction_outbox"),
    interactionAuthorities: q("interaction_authorities"),
    interactionSystemGrants: q("interaction_system_grants"),
    interactionClock: q("interaction_clock"),
    interactionOutboxPendingIndex: bare("interaction_outbox_pending"),
    interactionOutboxByIdIndex: bare("interaction_outbox_by_interaction"),
    cancelChannel: channelName(schema, prefix),
  };
}
