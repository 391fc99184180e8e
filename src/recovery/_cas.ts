/**
 * The one compare-and-swap loop of `TurnRecovery`: decide from the current
 * record, write by CAS, on a conflict decide again from the record the
 * conflict carries (after a jittered backoff), and on an uncertain
 * acknowledgement read back once instead of retrying blindly.
 *
 * @module
 */
import { describeThrown } from "../_internal/describe.ts";
import type { Backoff } from "./_clock.ts";
import type { TurnGuard } from "./types.ts";

/** A call's value, or the text of why there is none (what it threw, a malformed answer). */
export type Attempted<T> = { ok: true; value: T } | { ok: false; error: string };

/** `f()`'s value, or the text of what it threw. */
export async function attempt<T>(f: () => Promise<T>): Promise<Attempted<T>> {
  try {
    return { ok: true, value: await f() };
  } catch (e) {
    return { ok: false, error: describeThrown(e) };
  }
}

/** What {@link casLoop}'s `decide` wants: stop with a value, or write `next` at `expected`. */
export type CasStep<D, T> =
  | { readonly done: T }
  | { readonly expected: number; readonly next: D; readonly guard?: TurnGuard };

/** How {@link casLoop} ended. */
export type CasEnd<R, D, T> =
  /** `decide` stopped with `value`. */
  | { readonly kind: "done"; readonly value: T }
  /** Written (or, after a lost acknowledgement, read back as written). */
  | { readonly kind: "written"; readonly record: R; readonly next: D; readonly recovered: boolean }
  /** A guarded write was refused under the store's lock. */
  | { readonly kind: "unauthorized" }
  /** The first read failed. */
  | { readonly kind: "read-failed"; readonly error: string }
  /**
   * The write threw and the read-back does not show it: it may or may not
   * have committed. `observed` is what the read-back saw (absent when it failed).
   */
  | {
    readonly kind: "uncertain";
    readonly error: string;
    readonly next: D;
    readonly observed?: R | null;
  }
  /** Every attempt conflicted. */
  | { readonly kind: "contention"; readonly current: R | null };

/** What {@link casLoop} needs. */
export interface CasSpec<R, D, T> {
  /** Read the current record (`ok: false`: the read failed). Never rejects. */
  read(): Promise<Attempted<R | null>>;
  /** The CAS (`ok: false`: its acknowledgement is uncertain). Never rejects. */
  write(
    expected: number,
    next: D,
    guard: TurnGuard | undefined,
  ): Promise<
    Attempted<
      | { readonly ok: true; readonly record: R }
      | { readonly ok: false; readonly code: "conflict"; readonly current?: R | null }
      | { readonly ok: false; readonly code: "unauthorized" }
    >
  >;
  /** Decide from the current record (`null`: absent). */
  decide(current: R | null): CasStep<D, T> | Promise<CasStep<D, T>>;
  /** After an uncertain write: does the read-back `record` show `next` committed? */
  landed(record: R | null, next: D): boolean;
  /** Most writes attempted. */
  readonly attempts: number;
  /** Jittered wait between conflicting attempts. */
  readonly backoff: Backoff;
  /** The current record when the caller already read it (skips the first read). */
  readonly current?: R | null;
}

/** Run the CAS loop described by `spec`. Never throws unless `decide` does. */
export async function casLoop<R, D, T>(spec: CasSpec<R, D, T>): Promise<CasEnd<R, D, T>> {
  let current: R | null;
  if (spec.current !== undefined) current = spec.current;
  else {
    const first = await spec.read();
    if (!first.ok) return { kind: "read-failed", error: first.error };
    current = first.value;
  }
  for (let n = 0; n < spec.attempts; n++) {
    await spec.backoff.pause(n);
    const step = await spec.decide(current);
    if ("done" in step) return { kind: "done", value: step.done };
    const written = await spec.write(step.expected, step.next, step.guard);
    if (!written.ok) {
      const error = written.error;
      const back = await spec.read();
      if (back.ok && spec.landed(back.value, step.next)) {
        return { kind: "written", record: back.value as R, next: step.next, recovered: true };
      }
      return back.ok
        ? { kind: "uncertain", error, next: step.next, observed: back.value }
        : { kind: "uncertain", error, next: step.next };
    }
    const answer = written.value;
    if (answer.ok) {
      return { kind: "written", record: answer.record, next: step.next, recovered: false };
    }
    if (answer.code === "unauthorized") return { kind: "unauthorized" };
    if (answer.current !== undefined) current = answer.current;
    else {
      // A conflict without the current record: read it (a store should carry it).
      const again = await spec.read();
      if (!again.ok) return { kind: "read-failed", error: again.error };
      current = again.value;
    }
  }
  return { kind: "contention", current };
}
