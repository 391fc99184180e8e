/**
 * `@papercusp/chat-protocol/recovery`: exactly-once tool effects in a turn
 * over the host's compare-and-swap store ({@link TurnRecovery}),
 * reconciliation, cancellation, connection replay ({@link replayAfter}),
 * capability profiles ({@link turnRecoveryProfile},
 * {@link connectionReplayOnlyProfile}) and the in-memory reference host
 * ({@link MemoryRecoveryHost}). The conformance kit for a host's store is in
 * `./recovery/testing`.
 *
 * @example
 * ```ts
 * import { MemoryRecoveryHost, TurnRecovery } from "@papercusp/chat-protocol/recovery";
 * const host = new MemoryRecoveryHost();
 * host.grant("alice", "t1");
 * const recovery = new TurnRecovery(host.seams());
 * await recovery.beginTurn({ conversationId: "c1", turnId: "t1", principal: "alice", effectIds: ["e1"] });
 * const r = await recovery.runEffect({ turnId: "t1", effectId: "e1", principal: "alice", dispatch: () => "sent" });
 * if (r.ok) console.log(r.value.status); // "completed"
 * ```
 *
 * @module
 */
export {
  type AbortSeam,
  type ActorKind,
  type AdmitOutcome,
  type AdmitRefusalReason,
  type AdmitRequest,
  type AuthoritySeam,
  type CancelDeliverySeam,
  type CancelNotice,
  type CancelSubscription,
  type CasOutcome,
  type EffectDraft,
  type EffectOutcome,
  type EffectRecord,
  type EffectState,
  type RecoveryAction,
  type RecoveryError,
  type RecoveryErrorCode,
  type RecoveryStore,
  type TurnCasOutcome,
  type TurnDraft,
  type TurnGuard,
  type TurnRecord,
} from "./src/recovery/types.ts";
export {
  type ActorField,
  type BackoffOptions,
  type CancelOutcome,
  DEFAULT_LEASE_MS,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_MAX_CLAIMS,
  type EffectRun,
  MAX_RECOVERY_ID_LENGTH,
  MAX_TIMER_MS,
  MAX_TURN_EFFECTS,
  type NeedsReconciliationReason,
  type ReconcileOutcome,
  type ReconcileReason,
  REDACTED_CLAIM_TOKEN,
  type ResumeOutcome,
  TurnRecovery,
  type TurnRecoveryOptions,
  type TurnSnapshot,
  type WaitReason,
} from "./src/recovery/turn_recovery.ts";
export {
  type CapabilityRefusal,
  connectionReplayOnlyProfile,
  type RecoveryProfile,
  requireCapability,
  turnRecoveryProfile,
} from "./src/recovery/profile.ts";
export {
  checkReplayCursor,
  DEFAULT_MAX_REPLAY_FRAMES,
  replayAfter,
  type ReplayBatch,
  type ReplayBounds,
  type ReplayError,
  type ReplayErrorCode,
  type ReplayWindowSeam,
  validateReplay,
} from "./src/recovery/replay.ts";
export { CancelRelay, type CancelRelayOptions } from "./src/recovery/cancel_relay.ts";
export {
  AckLostError,
  ALL_TURNS,
  MemoryRecoveryDatabase,
  MemoryRecoveryStore,
  type MemoryStoreOptions,
  type StoreEvent,
  type StoreFault,
  type StoreOp,
  StoreUnavailableError,
} from "./src/recovery/memory_store.ts";
export { MemoryExecutions } from "./src/recovery/memory_executions.ts";
export { MemoryRecoveryHost, type RecoverySeams } from "./src/recovery/memory_host.ts";
export { MemoryReplayWindow } from "./src/recovery/memory_replay_window.ts";
export { MemoryCancelDelivery } from "./src/recovery/memory_cancel_delivery.ts";
export {
  LeaseLostError,
  type LeaseLostErrorCode,
  RecoveryArgumentError,
  type RecoveryArgumentErrorCode,
} from "./src/recovery/errors.ts";
export type { LockKey, LockMode, LockRequest, LockTable } from "./src/recovery/lock_table.ts";
