/**
 * Keeps an owner's lease on an admitted effect alive while its dispatch
 * runs, and notices a cancellation whose cross-process notice was missed.
 *
 * @module
 */
import { attempt } from "./_cas.ts";
import type { Worker } from "./_worker.ts";
import type { EffectDraft, EffectRecord } from "./types.ts";

/** The writable fields of `record` (everything but `revision`). */
export function draftOf(record: EffectRecord): EffectDraft {
  const { revision: _revision, ...rest } = record;
  return rest;
}

/**
 * Every `renewEveryMs` (real time) while the dispatch runs: extend
 * `leaseUntil` to host-clock now + `leaseMs` by CAS on the owner's current
 * revision, then re-read the turn and abort this process's execution if it
 * was stopped (a lost cancel notice is caught within one interval).
 * Renewal stops for good once a renewal cannot be confirmed (conflict with
 * another writer, store failure, clock failure) or the execution signal
 * aborted: the lease then runs out and the host may resolve the effect.
 */
export class LeaseKeeper {
  readonly #w: Worker;
  readonly #signal: AbortSignal;
  #record: EffectRecord;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #renewal: Promise<void> | undefined;
  #running = true;
  #abortedLocally = false;

  /** Keep `record` (admitted, owned by this worker) leased while `signal` is not aborted. */
  constructor(w: Worker, record: EffectRecord, signal: AbortSignal) {
    this.#w = w;
    this.#record = record;
    this.#signal = signal;
    if (w.renewEveryMs > 0) this.#schedule();
  }

  #schedule(): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#renewal = this.#renew().finally(() => {
        this.#renewal = undefined;
        if (this.#running) this.#schedule();
      });
    }, this.#w.renewEveryMs);
  }

  async #renew(): Promise<void> {
    const w = this.#w;
    const { turnId, effectId, claimToken } = this.#record;
    if (this.#signal.aborted) return this.#giveUp();
    const now = await w.clock.now();
    if (now === undefined || !this.#running) return this.#giveUp();
    const next = { ...draftOf(this.#record), leaseUntil: now + w.leaseMs };
    const r = await attempt(() => w.store.casEffect(turnId, effectId, this.#record.revision, next));
    if (r.ok && r.value.ok) this.#record = r.value.record;
    else {
      // Conflict or uncertain ack: keep going only if the row is still ours and admitted.
      const cur = r.ok && r.value.ok === false
        ? r.value.current
        : await attempt(() => w.store.readEffect(turnId, effectId)).then((b) =>
          b.ok ? b.value : null
        );
      if (cur && cur.claimToken === claimToken && cur.state === "admitted") this.#record = cur;
      else return this.#giveUp();
    }
    const t = await attempt(() => w.store.readTurn(turnId));
    const status = t.ok ? t.value?.status : undefined;
    if ((status === "cancelled" || status === "failed") && !this.#abortedLocally && w.abort) {
      this.#abortedLocally = true;
      try {
        await w.abort.abort(turnId, t.ok && t.value?.reason ? t.value.reason : status);
      } catch {
        // The cancel is committed; a failing hook is the host's to report.
      }
    }
  }

  #giveUp(): void {
    this.#running = false;
  }

  /** Stop renewing; resolves to the owner's latest known record. */
  async stop(): Promise<EffectRecord> {
    this.#running = false;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#renewal;
    return this.#record;
  }
}
