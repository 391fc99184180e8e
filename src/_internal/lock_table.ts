/**
 * Keyed shared/exclusive locks held across `await`s, FIFO per key: what the
 * in-memory reference stores use to behave like a database's row locks
 * (`SELECT … FOR UPDATE` / `FOR SHARE`), so a critical section that awaits
 * (simulated round trips, a held launch or transaction callback) still
 * excludes every other writer of the same rows, whichever store instance
 * ("connection") it comes from.
 *
 * Internal: not exported from any entry point.
 *
 * @module
 */

/** How a key is locked: `shared` holders coexist; `exclusive` excludes everyone. */
export type LockMode = "shared" | "exclusive";

/** One key to lock and how. */
export interface LockRequest {
  /** The row's key, e.g. `turn:t1`. */
  readonly key: string;
  /** Shared or exclusive. */
  readonly mode: LockMode;
}

interface Waiter {
  readonly mode: LockMode;
  readonly grant: () => void;
}

interface KeyState {
  mode: LockMode;
  holders: number;
  readonly queue: Waiter[];
}

/**
 * A table of keyed locks. Callers must take keys in one global order (the
 * stores document theirs) so two multi-key acquisitions never deadlock.
 */
export class LockTable {
  readonly #keys = new Map<string, KeyState>();

  /**
   * Lock every key of `requests`, in order. Returns the release function
   * directly when every key was free (no await needed), else a promise of it.
   * The release function is idempotent.
   */
  acquire(requests: readonly LockRequest[]): (() => void) | Promise<() => void> {
    const held: LockRequest[] = [];
    for (let i = 0; i < requests.length; i++) {
      if (!this.#tryTake(requests[i])) return this.#acquireFrom(requests, i, held);
      held.push(requests[i]);
    }
    return this.#releaser(held);
  }

  /** Whether any holder or waiter exists for `key` (for tests). */
  isLocked(key: string): boolean {
    return this.#keys.has(key);
  }

  async #acquireFrom(
    requests: readonly LockRequest[],
    from: number,
    held: LockRequest[],
  ): Promise<() => void> {
    for (let i = from; i < requests.length; i++) {
      const r = requests[i];
      if (!this.#tryTake(r)) await this.#wait(r);
      held.push(r);
    }
    return this.#releaser(held);
  }

  #tryTake(r: LockRequest): boolean {
    const s = this.#keys.get(r.key);
    if (s === undefined) {
      this.#keys.set(r.key, { mode: r.mode, holders: 1, queue: [] });
      return true;
    }
    if (s.queue.length === 0 && s.mode === "shared" && r.mode === "shared") {
      s.holders++;
      return true;
    }
    return false;
  }

  #wait(r: LockRequest): Promise<void> {
    const s = this.#keys.get(r.key)!;
    return new Promise<void>((resolve) => s.queue.push({ mode: r.mode, grant: resolve }));
  }

  #releaser(held: readonly LockRequest[]): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      for (let i = held.length - 1; i >= 0; i--) this.#release(held[i].key);
    };
  }

  #release(key: string): void {
    const s = this.#keys.get(key);
    if (s === undefined) return;
    if (--s.holders > 0) return;
    const next = s.queue.shift();
    if (next === undefined) {
      this.#keys.delete(key);
      return;
    }
    s.mode = next.mode;
    s.holders = 1;
    next.grant();
    // Consecutive shared waiters are granted together.
    while (s.mode === "shared" && s.queue.length > 0 && s.queue[0].mode === "shared") {
      s.holders++;
      s.queue.shift()!.grant();
    }
  }
}
