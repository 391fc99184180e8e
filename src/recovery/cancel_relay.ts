/**
 * {@link CancelRelay}: one process's receiving end of cross-process cancel.
 *
 * @module
 */
import { describeThrown } from "../_internal/describe.ts";
import { isRecord } from "../_internal/guards.ts";
import type { AbortSeam, CancelDeliverySeam, CancelSubscription, RecoveryStore } from "./types.ts";

/** Options of {@link CancelRelay}. */
export interface CancelRelayOptions {
  /** Where committed cancellations arrive from (e.g. Postgres LISTEN). */
  readonly delivery: CancelDeliverySeam;
  /** The store, read to confirm each notice (a notice is never trusted as such). */
  readonly store: Pick<RecoveryStore, "readTurn">;
  /** This process's executions: the relay calls `abort` for a confirmed stop. */
  readonly abort: Pick<AbortSeam, "abort">;
  /** Called with the text of a failed confirmation read or abort hook (default: ignore). */
  readonly onError?: (turnId: string, message: string) => void;
}

/**
 * Subscribes this process to committed cancellations and aborts the local
 * execution of each cancelled turn, so a cancel handled by one process reaches
 * a dispatch running in another. Each notice is confirmed by re-reading the
 * turn from the store: only a turn stored `cancelled` or `failed` is aborted
 * (a forged, stale or garbled notice aborts nothing). Never throws. Wiring:
 * `new CancelRelay({ delivery, store, abort }).start()` once per process,
 * with the same delivery seam given to every `TurnRecovery` as
 * `cancelDelivery`.
 */
export class CancelRelay {
  readonly #options: CancelRelayOptions;
  #subscription: CancelSubscription | undefined;
  #pending = new Set<Promise<void>>();
  /** Notices confirmed and relayed to the abort hook so far. */
  relayed = 0;

  /** Build a relay; nothing is subscribed until {@link CancelRelay.start}. */
  constructor(options: CancelRelayOptions) {
    this.#options = options;
  }

  /** Subscribe (idempotent). Resolves `false` when the delivery seam refused to subscribe. */
  async start(): Promise<boolean> {
    if (this.#subscription) return true;
    try {
      this.#subscription = await this.#options.delivery.subscribe((n) => this.#receive(n));
      return true;
    } catch (e) {
      this.#options.onError?.("", describeThrown(e));
      return false;
    }
  }

  /** Unsubscribe and wait for notices being relayed. */
  async stop(): Promise<void> {
    const s = this.#subscription;
    this.#subscription = undefined;
    try {
      await s?.unsubscribe();
    } catch {
      // Unsubscribing is best effort.
    }
    await Promise.all([...this.#pending]);
  }

  /** Wait until every notice received so far has been confirmed and relayed. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  #receive(notice: unknown): void {
    let turnId: unknown;
    try {
      turnId = isRecord(notice) ? notice.turnId : undefined;
    } catch {
      return;
    }
    if (typeof turnId !== "string" || turnId.length === 0) return;
    const p = this.#confirmAndAbort(turnId).finally(() => this.#pending.delete(p));
    this.#pending.add(p);
  }

  async #confirmAndAbort(turnId: string): Promise<void> {
    const { store, abort, onError } = this.#options;
    try {
      const turn = await store.readTurn(turnId);
      const status = isRecord(turn) ? turn.status : undefined;
      if (status !== "cancelled" && status !== "failed") return;
      const reason = typeof turn?.reason === "string" ? turn.reason : String(status);
      this.relayed++;
      await abort.abort(turnId, reason);
    } catch (e) {
      onError?.(turnId, describeThrown(e));
    }
  }
}
