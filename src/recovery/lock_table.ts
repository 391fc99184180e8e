/**
 * Keyed shared/exclusive locks held across `await`s, FIFO per key: what the
 * in-memory reference stores use to behave like a database's row locks
 * (`SELECT … FOR UPDATE` / `FOR SHARE`), so a critical section that awaits
 * (simulated round trips, a held launch or transaction callback) still
 * excludes every other writer of the same rows, whichever store instance
 * ("connection") it comes from.
 *
 * Public as types: `./recovery` and `./interactions` export {@link LockTable},
 * {@link LockKey}, {@link LockMode} and {@link LockRequest} because the
 * reference stores' protected hooks name them (a subclass that simulates
 * another database overrides them).
 *
 * @module
 */

/** How a key is locked: `shared` holders coexist; `exclusive` excludes everyone. */
export type LockMode = "shared" | "exclusive";

/**
 * A row's key as parts, e.g. `["turn", turnId]` or `["grant", actor, principal, turnId]`:
 * looked up part by part (no key string is built per lock). Every key with the
 * same first part must have the same number of parts.
 */
export type LockKey = readonly [string, string?, string?, string?];

/** One key to lock and how. */
export interface LockRequest {
  /** The row's key. */
  readonly key: LockKey;
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

type Level = Map<string, Level | KeyState>;

/**
 * A table of keyed locks. Callers must take keys in one global order (the
 * stores document theirs) so two multi-key acquisitions never deadlock.
 * An entry stays in the table once used (one small object per key, like the
 * row it stands for), so an uncontended lock allocates nothing.
 */
export class LockTable {
  readonly #root: Level = new Map();

  /**
   * Lock every key of `requests`, in order. Returns the release function
   * directly when every key was free (no await needed), else a promise of it.
   * The release function is idempotent.
   */
  acquire(requests: readonly LockRequest[]): (() => void) | Promise<() => void> {
    const held: KeyState[] = [];
    for (let i = 0; i < requests.length; i++) {
      const s = this.#state(requests[i].key);
      if (!take(s, requests[i].mode)) return this.#acquireFrom(requests, i, held);
      held.push(s);
    }
    return releaser(held);
  }

  /** Whether any holder or waiter exists for `key` (for tests). */
  isLocked(key: LockKey): boolean {
    const s = this.#state(key);
    return s.holders > 0 || s.queue.length > 0;
  }

  #state(key: LockKey): KeyState {
    let level = this.#root;
    const last = key.length - 1;
    for (let i = 0; i < last; i++) {
      const part = key[i] ?? "";
      let next = level.get(part) as Level | undefined;
      if (next === undefined) {
        next = new Map();
        level.set(part, next);
      }
      level = next;
    }
    const leaf = key[last] ?? "";
    let s = level.get(leaf) as KeyState | undefined;
    if (s === undefined) {
      s = { mode: "shared", holders: 0, queue: [] };
      level.set(leaf, s);
    }
    return s;
  }

  async #acquireFrom(
    requests: readonly LockRequest[],
    from: number,
    held: KeyState[],
  ): Promise<() => void> {
    for (let i = from; i < requests.length; i++) {
      const s = this.#state(requests[i].key);
      const mode = requests[i].mode;
      if (!take(s, mode)) {
        await new Promise<void>((grant) => s.queue.push({ mode, grant }));
      }
      held.push(s);
    }
    return releaser(held);
  }
}

/** Take `s` in `mode` now if nobody holds or waits for it incompatibly. */
function take(s: KeyState, mode: LockMode): boolean {
  if (s.queue.length > 0) return false;
  if (s.holders === 0) {
    s.mode = mode;
    s.holders = 1;
    return true;
  }
  if (s.mode === "shared" && mode === "shared") {
    s.holders++;
    return true;
  }
  return false;
}

function releaser(held: readonly KeyState[]): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    for (let i = held.length - 1; i >= 0; i--) release(held[i]);
  };
}

function release(s: KeyState): void {
  if (--s.holders > 0) return;
  const next = s.queue.shift();
  if (next === undefined) return;
  s.mode = next.mode;
  s.holders = 1;
  next.grant();
  // Consecutive shared waiters are granted together.
  while (s.mode === "shared" && s.queue.length > 0 && s.queue[0].mode === "shared") {
    s.holders++;
    s.queue.shift()!.grant();
  }
}
