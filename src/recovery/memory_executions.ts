/**
 * Reference {@link AbortSeam}: one `AbortController` per turn standing for
 * the host's execution of that turn, shared by every worker of the process.
 *
 * @module
 */
import type { AbortSeam } from "./types.ts";

/**
 * Host-owned executions in memory. `signalFor(turnId)` is the execution's
 * signal; `abort(turnId)` aborts it, so the abort hook reaches the work that
 * was dispatched with that signal. A fresh controller is created after an
 * abort only through {@link MemoryExecutions.reset}.
 */
export class MemoryExecutions implements AbortSeam {
  readonly #controllers = new Map<string, AbortController>();
  readonly #onAbort: ((turnId: string, reason: string) => void) | undefined;

  /** `onAbort` runs synchronously at the start of every abort (tests check ordering with it). */
  constructor(options: { readonly onAbort?: (turnId: string, reason: string) => void } = {}) {
    this.#onAbort = options.onAbort;
  }

  #controller(turnId: string): AbortController {
    let c = this.#controllers.get(turnId);
    if (!c) {
      c = new AbortController();
      this.#controllers.set(turnId, c);
    }
    return c;
  }

  /** The execution signal of `turnId`. */
  signalFor(turnId: string): AbortSignal {
    return this.#controller(turnId).signal;
  }

  /** Abort the execution of `turnId` with `reason` (idempotent). */
  abort(turnId: string, reason: string): void {
    this.#onAbort?.(turnId, reason);
    this.#controller(turnId).abort(reason);
  }

  /** Forget the execution of `turnId` (a new one gets a fresh signal). */
  reset(turnId: string): void {
    this.#controllers.delete(turnId);
  }
}
