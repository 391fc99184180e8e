/**
 * The package's schema, as an ordered list of versions. Area-private: the
 * list only ever grows; a released version's statements never change
 * (`migrate` refuses a database whose recorded checksum differs). Version 1
 * is the replay log, 2 the recovery store, 3 the interaction store.
 *
 * @module
 */
import type { TableNames } from "./names.ts";

/** One schema version: statements run in order, in the migration's transaction. */
export interface Migration {
  /** 1, 2, 3, … without holes. */
  readonly version: number;
  /** What it adds, in a few words (stored in the migrations table). */
  readonly name: string;
  /** The statements, with the host's quoted names filled in. */
  statements(n: TableNames): readonly string[];
}

/** Every version, in order. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "replay log",
    statements: (n) => [
      // One row per turn: its conversation and the retained window's bounds.
      // Appends lock this row, which serializes them per turn.
      `CREATE TABLE ${n.replayTurns} (
        turn_id text PRIMARY KEY,
        conversation_id text NOT NULL,
        latest_seq bigint NOT NULL DEFAULT 0 CHECK (latest_seq >= 0),
        lowest_retained_seq bigint NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK (lowest_retained_seq >= 1 AND lowest_retained_seq <= latest_seq + 1)
      )`,
      // One row per retained frame; the envelope is stored as the exact JSON
      // text that was validated and is replayed.
      `CREATE TABLE ${n.replayFrames} (
        turn_id text NOT NULL REFERENCES ${n.replayTurns} (turn_id) ON DELETE CASCADE,
        seq bigint NOT NULL CHECK (seq >= 1),
        conversation_id text NOT NULL,
        event_id text NOT NULL,
        envelope text NOT NULL,
        appended_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT "${n.replayFramesKey}" PRIMARY KEY (turn_id, seq)
      )`,
      `CREATE UNIQUE INDEX "${n.replayEventIdIndex}"
        ON ${n.replayFrames} (conversation_id, event_id)`,
    ],
  },
  {
    version: 2,
    name: "recovery store",
    statements: (n) => [
      // One row per turn record. effect_ids is the JSON text of the
      // host-authorized effect ids. stopped_at (database clock) is set when
      // the status becomes cancelled or failed: a cancel subscriber whose
      // LISTEN connection dropped re-reads the turns stopped since.
      `CREATE TABLE ${n.recoveryTurns} (
        turn_id text PRIMARY KEY,
        conversation_id text NOT NULL,
        revision bigint NOT NULL CHECK (revision >= 1),
        status text NOT NULL,
        effect_ids text NOT NULL,
        reason text,
        stopped_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`,
      `CREATE INDEX "${n.recoveryStoppedIndex}" ON ${n.recoveryTurns} (stopped_at)
        WHERE stopped_at IS NOT NULL`,
      // One row per effect record. claim_token is the claim owner and
      // lease_until its lease (epoch ms of the host clock TurnRecovery uses;
      // the store never judges it). outcome is the JSON text of the stored
      // outcome; reason the typed reason of unknown / not-run.
      `CREATE TABLE ${n.recoveryEffects} (
        turn_id text NOT NULL,
        effect_id text NOT NULL,
        revision bigint NOT NULL CHECK (revision >= 1),
        state text NOT NULL,
        claim_token text NOT NULL,
        lease_until double precision,
        claims bigint,
        outcome text,
        reconciled boolean,
        reason text,
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (turn_id, effect_id)
      )`,
      // Authority rows the fences read FOR SHARE: a revocation deletes one
      // and so waits for a fence that read it. turn_id '*' in a system grant
      // covers every turn.
      `CREATE TABLE ${n.recoveryGrants} (
        actor text NOT NULL CHECK (actor IN ('user', 'system')),
        principal text NOT NULL,
        turn_id text NOT NULL,
        granted_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (actor, principal, turn_id)
      )`,
    ],
  },
  {
    version: 3,
    name: "interaction store",
    statements: (n) => [
      // One row per interaction: the record's JSON text as written, plus the
      // columns the fence and hosts query (revision, status, expiry in epoch
      // ms of the store clock, the bound authority).
      `CREATE TABLE ${n.interactions} (
        id text PRIMARY KEY,
        record text NOT NULL,
        revision bigint NOT NULL CHECK (revision >= 1),
        status text NOT NULL,
        expires_at bigint,
        conversation_id text NOT NULL,
        principal_id text NOT NULL,
        tenant_id text NOT NULL,
        customer_id text NOT NULL,
        public_owner_id text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`,
      // Workflow transitions, inserted in the transaction of their record;
      // the host consumes them (delivered_at marks a consumed row).
      `CREATE TABLE ${n.interactionOutbox} (
        position bigserial PRIMARY KEY,
        transition_id text NOT NULL UNIQUE,
        interaction_id text NOT NULL,
        kind text NOT NULL,
        transition text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        delivered_at timestamptz
      )`,
      `CREATE INDEX "${n.interactionOutboxByIdIndex}"
        ON ${n.interactionOutbox} (interaction_id, position)`,
      `CREATE INDEX "${n.interactionOutboxPendingIndex}"
        ON ${n.interactionOutbox} (position) WHERE delivered_at IS NULL`,
      // One row per bound authority; the fence reads it FOR SHARE, and a
      // revocation (revoked_at set) is an ordinary write that waits for it.
      `CREATE TABLE ${n.interactionAuthorities} (
        tenant_id text NOT NULL,
        principal_id text NOT NULL,
        conversation_id text NOT NULL,
        customer_id text NOT NULL,
        public_owner_id text NOT NULL,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (tenant_id, principal_id, conversation_id, customer_id, public_owner_id)
      )`,
      // The host's system identities per tenant (cancel and expire only).
      `CREATE TABLE ${n.interactionSystemGrants} (
        actor_id text NOT NULL,
        tenant_id text NOT NULL,
        granted_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (actor_id, tenant_id)
      )`,
      // The store clock's high-water mark, epoch ms: raised whenever a reader
      // saw a card expire by the clock, so it stays expired after the
      // database clock steps back.
      `CREATE TABLE ${n.interactionClock} (
        id boolean PRIMARY KEY DEFAULT true CHECK (id),
        high_water_ms bigint NOT NULL
      )`,
      `INSERT INTO ${n.interactionClock} (id, high_water_ms) VALUES (true, 0)`,
    ],
  },
];
