/**
 * {@link MemoryRecoveryHost}: the reference store, executions and replay
 * window wired together, for tests, examples and the conformance kit.
 *
 * @module
 */
import { MemoryExecutions } from "./memory_executions.ts";
import { MemoryReplayWindow } from "./memory_replay_window.ts";
import { MemoryRecoveryStore, type MemoryStoreOptions } from "./memory_store.ts";
import type { AbortSeam, AuthoritySeam, RecoveryStore } from "./types.ts";

/** The seams {@link TurnRecovery} needs, as one object. */
export interface RecoverySeams {
  /** The CAS store with the admission fence. */
  readonly store: RecoveryStore;
  /** Current authority. */
  readonly authority: AuthoritySeam;
  /** Host execution abort hook. */
  readonly abort: AbortSeam;
}

/**
 * A whole in-memory host: one {@link MemoryRecoveryStore} (which also holds
 * authority grants), one {@link MemoryExecutions} and one
 * {@link MemoryReplayWindow}. Several `TurnRecovery` workers built from
 * {@link MemoryRecoveryHost.seams} share it like processes share a database.
 */
export class MemoryRecoveryHost {
  /** The reference store. */
  readonly store: MemoryRecoveryStore;
  /** The host executions (abort seam). */
  readonly executions: MemoryExecutions;
  /** The replay window. */
  readonly replay: MemoryReplayWindow;

  /**
   * Build with optional store options (faults, pauses, observer), an abort
   * observer, and `retain` (most replay frames kept per turn; default: all).
   */
  constructor(
    options: {
      readonly store?: MemoryStoreOptions;
      readonly onAbort?: (turnId: string, reason: string) => void;
      readonly retain?: number;
    } = {},
  ) {
    this.store = new MemoryRecoveryStore(options.store);
    this.executions = new MemoryExecutions({ onAbort: options.onAbort });
    this.replay = new MemoryReplayWindow({ retain: options.retain });
  }

  /** Grant `principal` authority over `turnId`. */
  grant(principal: string, turnId: string): void {
    this.store.grant(principal, turnId);
  }

  /** Revoke `principal`'s authority over `turnId`. */
  revoke(principal: string, turnId: string): void {
    this.store.revoke(principal, turnId);
  }

  /** Seams for one more worker (`new TurnRecovery(host.seams())`). */
  seams(): RecoverySeams {
    return { store: this.store, authority: this.store.authority(), abort: this.executions };
  }
}
