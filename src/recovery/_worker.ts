/**
 * The state one `TurnRecovery` instance shares with its collaborators: the
 * checked seams, the host clock, the settings, and claim tokens. Built once
 * from the (untrusted) options; building never throws.
 *
 * @module
 */
import { isRecord } from "../_internal/guards.ts";
import { Backoff, HostClock } from "./_clock.ts";
import { type CheckedStore, checkedStore } from "./_checked_store.ts";
import { type RecoveryProfile, turnRecoveryProfile } from "./profile.ts";
import type { TurnRecoveryOptions } from "./turn_recovery.ts";
import type {
  AbortSeam,
  ActorKind,
  AuthoritySeam,
  CancelDeliverySeam,
  EffectDraft,
  RecoveryAction,
  RecoveryStore,
  TurnDraft,
  TurnGuard,
} from "./types.ts";

type WorkerOptions = TurnRecoveryOptions;

/** Default lease length, ms. */
export const DEFAULT_LEASE_MS = 30_000;
/** Default bound on claims per effect. */
export const DEFAULT_MAX_CLAIMS = 8;
/** Default bound on attempts per call. */
export const DEFAULT_MAX_ATTEMPTS = 16;

/** Used in place of a malformed profile: it offers nothing (fail closed). */
const NO_CAPABILITIES: RecoveryProfile = Object.freeze({
  name: "invalid-profile",
  capabilities: Object.freeze({
    connectionReplay: false,
    persistedHistory: false,
    persistedDecisions: false,
    completedToolCheckpoints: false,
    interruptedTurnRecovery: false,
  }),
});

/**
 * The longest delay a timer takes, ms (2^31 - 1): `leaseMs` is clamped to it,
 * since renewals and the lease guard are timers.
 */
export const MAX_TIMER_MS = 2_147_483_647;

function positiveInt(x: unknown, fallback: number): number {
  return typeof x === "number" && Number.isSafeInteger(x) && x > 0 ? x : fallback;
}

/**
 * `bytes` random bytes as hex, from the platform's CSPRNG
 * (`crypto.getRandomValues`: Deno, browsers, workerd, Node 19+). Claim
 * tokens are bearer proofs of lease ownership, so they must be unguessable.
 */
function randomHex(bytes: number): string {
  const buf = new Uint8Array(bytes);
  globalThis.crypto.getRandomValues(buf);
  let out = "";
  for (const b of buf) out += b.toString(16).padStart(2, "0");
  return out;
}

function nonNegative(x: unknown, fallback: number): number {
  return typeof x === "number" && Number.isFinite(x) && x >= 0 ? x : fallback;
}

/** The worker state shared by the `TurnRecovery` collaborators. */
export class Worker {
  /** The host store, every call attempted and every answer checked (never rejects). */
  readonly store: CheckedStore;
  /** The host store as given (to check whether it offers the fence). */
  readonly hostStore: RecoveryStore | undefined;
  /** Authority seam (may be missing or malformed: asking then fails closed). */
  readonly authority: AuthoritySeam | undefined;
  /** Abort seam of this process. */
  readonly abort: AbortSeam | undefined;
  /** Cross-process cancel delivery. */
  readonly cancelDelivery: CancelDeliverySeam | undefined;
  /** The advertised profile. */
  readonly profile: RecoveryProfile;
  /** Prefix of claim tokens. */
  readonly workerId: string;
  /** Bound on attempts per call. */
  readonly maxAttempts: number;
  /** Bound on claims per effect. */
  readonly maxClaims: number;
  /** Lease length, ms. */
  readonly leaseMs: number;
  /** Lease renewal interval while dispatching, ms (0: no renewal). */
  readonly renewEveryMs: number;
  /** Lease that must be left when a dispatch starts, ms (half the lease). */
  readonly minDispatchLeaseMs: number;
  /**
   * When less than this is left of the owner's lease without a confirmed
   * renewal, the owner aborts its dispatch's signal (a quarter of the lease).
   */
  readonly leaseGuardMs: number;
  /** The host clock. */
  readonly clock: HostClock;
  /** Conflict backoff. */
  readonly backoff: Backoff;

  /** Read the options once; never throws. */
  constructor(options: unknown) {
    let o: Partial<WorkerOptions> = {};
    try {
      if (isRecord(options)) {
        const src = options as Partial<WorkerOptions>;
        o = {
          store: src.store,
          authority: src.authority,
          abort: src.abort,
          cancelDelivery: src.cancelDelivery,
          profile: src.profile,
          workerId: src.workerId,
          maxAttempts: src.maxAttempts,
          maxClaims: src.maxClaims,
          now: src.now,
          leaseMs: src.leaseMs,
          renewEveryMs: src.renewEveryMs,
          backoff: src.backoff,
          random: src.random,
        };
      }
    } catch {
      o = {};
    }
    this.hostStore = o.store;
    this.store = checkedStore(o.store as RecoveryStore);
    this.authority = o.authority;
    this.abort = o.abort;
    this.cancelDelivery = o.cancelDelivery;
    this.profile = o.profile === undefined
      ? turnRecoveryProfile
      : isProfile(o.profile)
      ? o.profile
      : NO_CAPABILITIES;
    this.workerId = typeof o.workerId === "string" ? o.workerId : `w-${randomHex(8)}`;
    this.maxAttempts = positiveInt(o.maxAttempts, DEFAULT_MAX_ATTEMPTS);
    this.maxClaims = positiveInt(o.maxClaims, DEFAULT_MAX_CLAIMS);
    this.leaseMs = Math.min(positiveInt(o.leaseMs, DEFAULT_LEASE_MS), MAX_TIMER_MS);
    this.renewEveryMs = Math.floor(Math.min(
      nonNegative(o.renewEveryMs, Math.floor(this.leaseMs / 3)),
      this.leaseMs,
    ));
    this.minDispatchLeaseMs = Math.ceil(this.leaseMs / 2);
    this.leaseGuardMs = Math.floor(this.leaseMs / 4);
    const now = o.now;
    this.clock = new HostClock(typeof now === "function" ? now : Date.now);
    const random = o.random;
    this.backoff = new Backoff(o.backoff, typeof random === "function" ? random : Math.random);
  }

  /** The effect record's read and CAS, and this worker's bounds, for `casLoop`. */
  effectCas(turnId: string, effectId: string) {
    return {
      read: () => this.store.readEffect(turnId, effectId),
      write: (expected: number, next: EffectDraft) =>
        this.store.casEffect(turnId, effectId, expected, next),
      attempts: this.maxAttempts,
      backoff: this.backoff,
    };
  }

  /** The turn record's read and (guarded) CAS, and this worker's bounds, for `casLoop`. */
  turnCas(turnId: string) {
    return {
      read: () => this.store.readTurn(turnId),
      write: (expected: number, next: TurnDraft, guard: TurnGuard | undefined) =>
        this.store.casTurn(turnId, expected, next, guard),
      attempts: this.maxAttempts,
      backoff: this.backoff,
    };
  }

  /**
   * A fresh claim token: this worker's id and 128 random bits, so nobody
   * can guess the token of another worker's claim (it is the proof that
   * lets the owner resolve its own effect under its live lease).
   */
  nextToken(): string {
    return `${this.workerId}#${randomHex(16)}`;
  }

  /** Ask the authority seam; a throw or a non-`true` answer is "no". */
  async authorized(
    principal: string,
    turnId: string,
    action: RecoveryAction,
    actor: ActorKind,
  ): Promise<boolean> {
    try {
      return (await this.authority!.check({ principal, turnId, action, actor })) === true;
    } catch {
      return false;
    }
  }
}

function isProfile(p: unknown): p is RecoveryProfile {
  return isRecord(p) && typeof p.name === "string" && isRecord(p.capabilities);
}
