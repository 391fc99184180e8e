/**
 * In-process wake-ups by key: a runner notifies `log:<turnId>` after each
 * append (stream responses read the log again) and the answer endpoint
 * notifies `card:<turnId>` (the runner reads the card again). Each key
 * also has a version, so a reader that checks it never sleeps through a
 * notification that came just before it started waiting.
 *
 * @module
 */

/** Wake-ups by key. */
export class Signals {
  readonly #waiters = new Map<string, Set<() => void>>();
  readonly #versions = new Map<string, number>();

  /** How many times `key` was notified. */
  version(key: string): number {
    return this.#versions.get(key) ?? 0;
  }

  /** Wake everyone waiting on `key`. */
  notify(key: string): void {
    this.#versions.set(key, this.version(key) + 1);
    const set = this.#waiters.get(key);
    if (set === undefined) return;
    this.#waiters.delete(key);
    for (const wake of set) wake();
  }

  /**
   * Resolves at the next `notify(key)`, after `timeoutMs`, or when `signal`
   * aborts (never rejects).
   */
  wait(key: string, signal: AbortSignal | undefined, timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      let set = this.#waiters.get(key);
      if (set === undefined) this.#waiters.set(key, set = new Set());
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        this.#waiters.get(key)?.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      signal?.addEventListener("abort", done, { once: true });
      set.add(done);
    });
  }

  /**
   * A `wake` for the stream responses of `./http` on `key`: resolves at
   * once when `key` was notified since the previous call returned (the
   * response read the window in between), else at the next notification,
   * after `timeoutMs` (other processes' appends), or on abort.
   */
  waker(key: string, timeoutMs = 1_000): (signal: AbortSignal) => Promise<void> {
    let seen = this.version(key);
    return async (signal) => {
      if (this.version(key) === seen) await this.wait(key, signal, timeoutMs);
      seen = this.version(key);
    };
  }
}
