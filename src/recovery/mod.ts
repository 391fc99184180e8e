/**
 * recovery: exactly-once tool effects over the host's CAS store
 * ({@link TurnRecovery}), connection replay ({@link replayAfter}), capability
 * profiles, the in-memory reference host and the conformance kit
 * ({@link recoveryConformanceCases}).
 *
 * @module
 */
export * from "./types.ts";
export * from "./profile.ts";
export * from "./replay.ts";
export * from "./turn_recovery.ts";
export * from "./memory_store.ts";
export * from "./memory_executions.ts";
export * from "./memory_replay_window.ts";
export * from "./memory_host.ts";
