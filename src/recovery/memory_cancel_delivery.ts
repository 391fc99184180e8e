/**
 * {@link MemoryCancelDelivery}: the in-memory reference
 * {@link CancelDeliverySeam}, a broadcast bus shared by the simulated
 * processes of one test or example (each runs its own {@link CancelRelay}).
 *
 * @module
 */
import type { CancelDeliverySeam, CancelNotice, CancelSubscription } from "./types.ts";
import { RecoveryArgumentError } from "./errors.ts";

/**
 * Broadcasts every published notice to every subscriber, asynchronously (a
 * microtask later, as a notification arrives after the publisher's commit).
 * `dropNext(n)` loses the next `n` notices, like a process that was not
 * listening when they were sent.
 */
export class MemoryCancelDelivery implements CancelDeliverySeam {
  readonly #listeners = new Set<(notice: CancelNotice) => void>();
  #drop = 0;
  /** Notices published so far (delivered or dropped). */
  published = 0;

  /**
   * Deliver a copy of `notice` to every current subscriber (unless dropped).
   * Rejects with a {@link RecoveryArgumentError} (`invalid-notice`),
   * delivering nothing, when the notice cannot be read (a throwing getter,
   * a revoked proxy).
   */
  publish(notice: CancelNotice): Promise<void> {
    this.published++;
    let copy: CancelNotice;
    try {
      const { turnId, revision, status, reason } = notice;
      copy = { turnId, revision, status, reason };
    } catch {
      return Promise.reject(
        new RecoveryArgumentError("invalid-notice", "the cancel notice could not be read"),
      );
    }
    if (this.#drop > 0) {
      this.#drop--;
      return Promise.resolve();
    }
    const targets = [...this.#listeners];
    return Promise.resolve().then(() => {
      for (const listener of targets) {
        try {
          listener(copy);
        } catch {
          // A subscriber's failure is its own; the others still get the notice.
        }
      }
    });
  }

  /** Receive every later notice until unsubscribed. */
  subscribe(onNotice: (notice: CancelNotice) => void): CancelSubscription {
    const listener = (n: CancelNotice) => onNotice(n);
    this.#listeners.add(listener);
    return { unsubscribe: () => void this.#listeners.delete(listener) };
  }

  /** Lose the next `n` published notices (default 1). */
  dropNext(n = 1): void {
    if (Number.isSafeInteger(n) && n > 0) this.#drop += n;
  }
}
