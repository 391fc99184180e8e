/**
 * The package's schema, as an ordered list of versions. Area-private: the
 * list only ever grows; a released version's statements never change
 * (`migrate` refuses a database whose recorded checksum differs). The
 * recovery and interaction stores arrive as versions 2 and 3, appended here.
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
];
