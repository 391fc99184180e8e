/**
 * {@link MemoryRecoveryHost}: the reference database, executions, cancel
 * delivery and replay window wired together, for tests, examples and the
 * conformance kit.
 *
 * @module
 */
import { MemoryCancelDelivery } from "./memory_cancel_delivery.ts";
import { MemoryExecutions } from "./memory_executions.ts";
import { MemoryReplayWindow } from "./memory_replay_window.ts";
import {
  MemoryRecoveryDatabase,
  MemoryRecoveryStore,
  type MemoryStoreOptions,
} from "./memory_store.ts";
import type {
  AbortSeam,
  ActorKind,
  AuthoritySeam,
  CancelDeliverySeam,
  RecoveryStore,
} from "./types.ts";

/** The seams {@link TurnRecovery} needs, as one object. */
export interface RecoverySeams {
  /** The CAS store with the admission fence. */
  readonly store: RecoveryStore;
  /** Current authority. */
  readonly authority: AuthoritySeam;
  /** Host execution abort hook (this process). */
  readonly abort: AbortSeam;
  /** Cross-process cancel delivery. */
  readonly cancelDelivery: CancelDeliverySeam;
}

/**
 * A whole in-memory host: one {@link MemoryRecoveryDatabase} (which also
 * holds authority grants), the default adapter instance over it
 * ({@link MemoryRecoveryHost.store}), one {@link MemoryExecutions}, one
 * {@link MemoryCancelDelivery} and one {@link MemoryReplayWindow}. Several
 * `TurnRecovery` workers built from {@link MemoryRecoveryHost.seams} share it
 * like processes share a database; {@link MemoryRecoveryHost.connect} gives
 * a worker its own adapter instance.
 */
export class MemoryRecoveryHost {
  /** The shared database. */
  readonly database: MemoryRecoveryDatabase;
  /** The default adapter instance (faults, pauses and observer from the options apply to it). */
  readonly store: MemoryRecoveryStore;
  /** The host executions (abort seam). */
  readonly executions: MemoryExecutions;
  /** Cross-process cancel delivery. */
  readonly cancelDelivery: MemoryCancelDelivery;
  /** The replay window. */
  readonly replay: MemoryReplayWindow;
  readonly #storeOptions: MemoryStoreOptions;

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
    this.#storeOptions = options.store ?? {};
    this.database = this.#storeOptions.database ?? new MemoryRecoveryDatabase();
    this.store = new MemoryRecoveryStore({ ...this.#storeOptions, database: this.database });
    this.executions = new MemoryExecutions({ onAbort: options.onAbort });
    this.cancelDelivery = new MemoryCancelDelivery();
    this.replay = new MemoryReplayWindow({ retain: options.retain });
  }

  /** Grant `principal` authority over `turnId` (applied at once unless a fence holds the row). */
  grant(principal: string, turnId: string, actor: ActorKind = "user"): Promise<void> {
    return this.store.grant(principal, turnId, actor);
  }

  /** Revoke `principal`'s authority over `turnId` (waits for fences holding the row). */
  revoke(principal: string, turnId: string, actor: ActorKind = "user"): Promise<void> {
    return this.store.revoke(principal, turnId, actor);
  }

  /** Seams for one more worker sharing the default store instance (`new TurnRecovery(host.seams())`). */
  seams(): RecoverySeams {
    return {
      store: this.store,
      authority: this.store.authority(),
      abort: this.executions,
      cancelDelivery: this.cancelDelivery,
    };
  }

  /**
   * Seams for one more worker with its OWN adapter instance over the shared
   * database (same fault, pause and observer options), like a worker with
   * its own connection.
   */
  connect(): RecoverySeams & { readonly store: MemoryRecoveryStore } {
    const store = new MemoryRecoveryStore({ ...this.#storeOptions, database: this.database });
    return {
      store,
      authority: store.authority(),
      abort: this.executions,
      cancelDelivery: this.cancelDelivery,
    };
  }
}
