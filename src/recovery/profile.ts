/**
 * Recovery profiles: which durability promises of {@link ChatCapabilities} a
 * deployment of `./recovery` actually keeps, so a host advertises only what
 * its seams back.
 *
 * @module
 */
import type { ChatCapabilities, ChatCapability } from "../v1/types.ts";
import type { Refusal } from "../result.ts";

/** A named set of capability promises. */
export interface RecoveryProfile {
  /** Stable profile name, e.g. `connection-replay-only`. */
  readonly name: string;
  /** The capabilities the host may advertise under this profile. */
  readonly capabilities: Readonly<ChatCapabilities>;
}

/**
 * Lightweight profile: a dropped connection resumes from `Last-Event-ID`
 * within the retained window (`connectionReplay: true`), and nothing else.
 * Restart recovery is explicitly refused: `interruptedTurnRecovery` and
 * `completedToolCheckpoints` are `false`, and {@link TurnRecovery.resume}
 * refuses with `restart-recovery-unsupported` under it.
 */
export const connectionReplayOnlyProfile: RecoveryProfile = Object.freeze({
  name: "connection-replay-only",
  capabilities: Object.freeze({
    connectionReplay: true,
    persistedHistory: false,
    persistedDecisions: false,
    completedToolCheckpoints: false,
    interruptedTurnRecovery: false,
  }),
});

/**
 * Full profile for a host whose store passes the conformance kit with a
 * persistent adapter: connection replay, completed-tool checkpoints and
 * interrupted-turn recovery. `persistedHistory` and `persistedDecisions` stay
 * `false`: they are separate host promises this module does not implement.
 */
export const turnRecoveryProfile: RecoveryProfile = Object.freeze({
  name: "turn-recovery",
  capabilities: Object.freeze({
    connectionReplay: true,
    persistedHistory: false,
    persistedDecisions: false,
    completedToolCheckpoints: true,
    interruptedTurnRecovery: true,
  }),
});

/** Refusal returned when a profile does not offer a capability. */
export interface CapabilityRefusal extends Refusal<"capability-not-offered"> {
  /** The capability asked for. */
  readonly capability: ChatCapability;
  /** Name of the profile that refused. */
  readonly profile: string;
}

/**
 * `null` when `profile` offers `capability`, otherwise a typed
 * `capability-not-offered` refusal naming both. A malformed profile offers
 * nothing (never throws).
 *
 * @example
 * ```ts
 * import { connectionReplayOnlyProfile, requireCapability } from "@papercusp/chat-protocol/recovery";
 * requireCapability(connectionReplayOnlyProfile, "interruptedTurnRecovery")?.code; // "capability-not-offered"
 * ```
 */
export function requireCapability(
  profile: RecoveryProfile,
  capability: ChatCapability,
): CapabilityRefusal | null {
  let offered = false;
  let name = "invalid-profile";
  try {
    offered = profile.capabilities[capability] === true;
    if (typeof profile.name === "string") name = profile.name;
  } catch {
    offered = false; // a malformed profile offers nothing
  }
  if (offered) return null;
  return {
    code: "capability-not-offered",
    message: `profile '${name}' does not offer ${capability}`,
    capability,
    profile: name,
  };
}
