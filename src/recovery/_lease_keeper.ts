/**
 * Keeps an owner's lease on an admitted effect alive while its dispatch
 * runs, aborts the dispatch when the lease can no longer be held, and
 * notices a cancellation whose cross-process notice was missed.
 *
 * @module
 */
import { MAX_TIMER_MS, type Worker } from "./_worker.ts";
import { LeaseLostError } from "./errors.ts";
import type { EffectDraft, EffectRecord } from "./types.ts";

/** The writable fields of `record` (everything but `revision`). */
export function draftOf(record: EffectRecord): EffectDraft {
  const { revision: _revision, ...rest } = record;
  return rest;
}

/** Ms of `record`'s lease left at `now` (negative once it ended; `-Infinity` without a lease). */
export function leaseLeft(record: EffectRecord, now: number): number {
  const until = record.leaseUntil;
  return typeof until === "number" && Number.isFinite(until)
    ? until - now
    : Number.NEGATIVE_INFINITY;
}

/**
 * Extend the owner's lease on its admitted `record` to host-clock now +
 * `leaseMs`, by CAS at its revision. The owner's current record (renewed,
 * or as found when the row is still this owner's admission), or `null`
 * when the row is no longer ours or nothing could be confirmed.
 */
export async function renewLease(w: Worker, record: EffectRecord): Promise<EffectRecord | null> {
  const { turnId, effectId, claimToken } = record;
  const now = await w.clock.now();
  if (now === undefined) return null;
  const next = { ...draftOf(record), leaseUntil: now + w.leaseMs };
  const r = await w.store.casEffect(turnId, effectId, record.revision, next);
  if (r.ok && r.value.ok) return r.value.record;
  // Conflict or uncertain ack: go on only if the row is still ours and admitted.
  const cur = r.ok && r.value.ok === false
    ? r.value.current
    : await w.store.readEffect(turnId, effectId).then((b) => b.ok ? b.value : null);
  return cur && cur.claimToken === claimToken && cur.state === "admitted" ? cur : null;
}

const timerMs = (ms: number) => Math.min(Math.max(0, Math.floor(ms)), MAX_TIMER_MS);

/**
 * While the dispatch runs, renew `leaseUntil` (host-clock now + `leaseMs`)
 * by CAS on the owner's current revision, then re-read the turn and abort
 * this process's execution if it was stopped (a lost cancel notice is
 * caught within one interval).
 *
 * Renewals are timed from the lease actually left: the next one runs after
 * `min(renewEveryMs, left / 3)` ms of real time, so a lease that was
 * already partly spent is renewed early. Renewal stops for good once a
 * renewal cannot be confirmed (the row is no longer ours, store or clock
 * failure) or the execution aborted.
 *
 * The guard: when less than `leaseGuardMs` (a quarter) of the last
 * confirmed lease is left, {@link LeaseKeeper.signal} aborts (reason: a
 * {@link LeaseLostError}, `lease-not-renewed`), so the
 * dispatch stops before any other worker may take the effect for lost
 * (which it may once the lease ended by its clock).
 */
export class LeaseKeeper {
  readonly #w: Worker;
  readonly #host: AbortSignal;
  readonly #lost = new AbortController();
  readonly #onHostAbort: () => void;
  #record: EffectRecord;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #guard: ReturnType<typeof setTimeout> | undefined;
  #renewal: Promise<void> | undefined;
  #running = true;
  #abortedLocally = false;

  /**
   * Keep `record` (admitted, owned by this worker) leased while `signal` is
   * not aborted; `now` is the host-clock reading the lease left was judged at.
   */
  constructor(w: Worker, record: EffectRecord, signal: AbortSignal, now: number) {
    this.#w = w;
    this.#record = record;
    this.#host = signal;
    this.#onHostAbort = () => this.#lost.abort(signal.reason);
    if (signal.aborted) this.#lost.abort(signal.reason);
    else signal.addEventListener("abort", this.#onHostAbort, { once: true });
    this.#arm(now);
  }

  /**
   * The dispatch's signal: aborts when the host execution's signal aborts,
   * or when the owner can no longer count on its lease (see the class doc).
   */
  get signal(): AbortSignal {
    return this.#lost.signal;
  }

  /** (Re)arm the guard and the next renewal from the lease left at `now`. */
  #arm(now: number): void {
    if (!this.#running) return;
    const left = leaseLeft(this.#record, now);
    if (this.#guard !== undefined) clearTimeout(this.#guard);
    this.#guard = setTimeout(() => {
      this.#guard = undefined;
      if (this.#running) {
        this.#lost.abort(
          new LeaseLostError(
            "lease-not-renewed",
            "the owner's lease on this effect could not be renewed in time",
          ),
        );
      }
    }, timerMs(left - this.#w.leaseGuardMs));
    if (this.#w.renewEveryMs > 0) {
      this.#schedule(Math.min(this.#w.renewEveryMs, left / 3));
    }
  }

  #schedule(ms: number): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#renewal = this.#renew().finally(() => {
        this.#renewal = undefined;
      });
    }, timerMs(ms));
  }

  async #renew(): Promise<void> {
    const w = this.#w;
    const { turnId } = this.#record;
    if (this.#host.aborted || !this.#running) return this.#giveUp();
    const renewed = await renewLease(w, this.#record);
    if (!renewed || !this.#running) return this.#giveUp();
    this.#record = renewed;
    const now = await w.clock.now();
    if (now === undefined) return this.#giveUp();
    this.#arm(now);
    const t = await w.store.readTurn(turnId);
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
    // No further renewal; the guard still aborts the dispatch before the lease ends.
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Stop renewing and guarding; resolves to the owner's latest known record. */
  async stop(): Promise<EffectRecord> {
    this.#running = false;
    this.#host.removeEventListener("abort", this.#onHostAbort);
    await this.#renewal;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    if (this.#guard !== undefined) clearTimeout(this.#guard);
    this.#timer = undefined;
    this.#guard = undefined;
    return this.#record;
  }
}
