/**
 * `@papercusp/chat-protocol-postgres`: the chat protocol's durable stores on
 * PostgreSQL. A real server through postgres.js, or PGlite (embedded
 * PostgreSQL) for examples, demos and single-process hosts; both are peer
 * dependencies the host creates and passes in.
 *
 * - Drivers: {@link postgresJsDriver}, {@link pgliteDriver} behind
 *   {@link PgDriver}, with typed failures ({@link PgDriverError}: kind and
 *   whether the work may have committed).
 * - {@link migrate}: versioned, idempotent schema migrations in a schema and
 *   with a table prefix of the host's choice.
 * - {@link PostgresReplayLog}: the retained window of v1 envelopes, the
 *   core's `ReplayWindowSeam` for `replayAfter`.
 * - {@link PostgresRecoveryStore}: the core's `RecoveryStore` (turn and
 *   effect records, the admission fence, grants) for `TurnRecovery`.
 * - {@link PostgresCancelDelivery}: the core's `CancelDeliverySeam` over
 *   LISTEN/NOTIFY, for `CancelRelay` and `TurnRecovery`.
 * - {@link PostgresInteractionStore}: the core's `InteractionStore` (fenced
 *   card answers, the outbox, authority rows) for `InteractionResolver`.
 * - {@link databaseClock}: a host clock that follows the database's.
 * - {@link publish} / {@link subscribe}: a small LISTEN/NOTIFY transport.
 *
 * PGlite on a directory: `@papercusp/chat-protocol-postgres/pglite-dir`.
 *
 * @module
 */
export {
  type PgCommitOutcome,
  type PgDriver,
  PgDriverError,
  type PgErrorKind,
  type PgIsolation,
  type PgListenHandle,
  type PgParam,
  type PgQueryable,
  type PgRows,
  type PgTransactionOptions,
} from "./src/driver.ts";
export {
  type PostgresJsConnection,
  postgresJsDriver,
  type PostgresJsDriverOptions,
  type PostgresJsPending,
  type PostgresJsReservedSql,
  type PostgresJsSql,
  type PostgresJsTransactionSql,
} from "./src/postgres_js.ts";
export {
  pgliteDriver,
  type PGliteDriverOptions,
  type PGliteLike,
  type PGliteTransactionLike,
} from "./src/pglite.ts";
export {
  isSafeIdentifier,
  MAX_IDENTIFIER_BYTES,
  MAX_PREFIX_BYTES,
  quoteIdentifier,
  type TableNames,
  tableNames,
  type TableOptions,
  TableOptionsError,
} from "./src/names.ts";
export { PgArgumentError, type PgArgumentErrorCode } from "./src/errors.ts";
export {
  migrate,
  type MigrateOptions,
  type MigrateRefusal,
  type MigrateRefusalCode,
  type MigrateReport,
} from "./src/migrate.ts";
export {
  type AppendReceipt,
  type AppendRefusal,
  type AppendRefusalCode,
  DEFAULT_MAX_ENVELOPE_BYTES,
  DEFAULT_MAX_READ_FRAMES,
  PostgresReplayLog,
  type PostgresReplayLogOptions,
  ReplayLogCorruptionError,
  type TrimmedTurn,
  type TrimPolicy,
} from "./src/replay_log.ts";
export {
  ALL_TURNS,
  DEFAULT_MAX_OUTCOME_BYTES,
  PostgresRecoveryStore,
  type PostgresRecoveryStoreOptions,
} from "./src/recovery_store.ts";
export {
  DEFAULT_MAX_REREAD_TURNS,
  DEFAULT_REREAD_MARGIN_MS,
  PostgresCancelDelivery,
  type PostgresCancelDeliveryOptions,
  type PostgresCancelSubscription,
} from "./src/cancel_delivery.ts";
export {
  DEFAULT_MAX_RECORD_BYTES,
  type OutboxEntry,
  PostgresInteractionStore,
  type PostgresInteractionStoreOptions,
} from "./src/interaction_store.ts";
export { type DatabaseClock, databaseClock, DEFAULT_CLOCK_SYNC_MS } from "./src/database_clock.ts";
export {
  DEFAULT_HEALTH_CHECK_MS,
  MAX_NOTIFY_PAYLOAD_BYTES,
  type NotificationHandlers,
  type NotificationSubscription,
  type NotifyRefusal,
  type NotifyRefusalCode,
  publish,
  subscribe,
  type SubscribeOptions,
  type SubscriptionStats,
} from "./src/notifications.ts";
/**
 * Types of the core that this package's API uses, re-exported so its
 * signatures are documented in one place (they are the same types as
 * `@papercusp/chat-protocol`'s and `@papercusp/chat-protocol/recovery`'s).
 */
export type { ChatEventEnvelope, EnvelopeIssue, Refusal, Result } from "@papercusp/chat-protocol";
export type {
  ActorKind,
  AdmitOutcome,
  AdmitRequest,
  AuthoritySeam,
  CancelDeliverySeam,
  CancelNotice,
  CancelSubscription,
  CasOutcome,
  EffectDraft,
  EffectRecord,
  RecoveryStore,
  ReplayBounds,
  ReplayWindowSeam,
  TurnCasOutcome,
  TurnDraft,
  TurnGuard,
  TurnRecord,
} from "@papercusp/chat-protocol/recovery";
export type {
  AlreadyExistsRefusal,
  FenceRefusal,
  InteractionAuthority,
  InteractionCaller,
  InteractionRecordV1,
  InteractionStore,
  StoreRead,
  SystemAuthority,
  TransactCallback,
  TransactCommit,
  TransactRequest,
  WorkflowTransition,
} from "@papercusp/chat-protocol/interactions";
