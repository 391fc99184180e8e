/**
 * Recovery profiles: which durability promises of {@link ChatCapabilities} a
 * deployment of `./recovery` actually keeps, so a host advertises only what
 * its seams back.
 *
 * @module
 */
import type { ChatCapabilities, ChatCapability } from "../v1/types.ts";
import type { Refusal } from "../result.ts";
import { CHAT_CAPABILITIES } from "../v1/capabilities.ts";
import { describeValue } from "../_internal/describe.ts";
import { readFields, readOwnFields } from "../_internal/fields.ts";

const KNOWN: ReadonlySet<string> = new Set(CHAT_CAPABILITIES);

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
export interface CapabilityRefusal
  extends Refusal<"capability-not-offered" | "invalid-capability"> {
  /**
   * The capability asked for; for `invalid-capability` (a value that is not
   * one of the five {@link ChatCapability} names) a safe description of it.
   */
  readonly capability: ChatCapability | string;
  /** Name of the profile that refused (`"invalid-profile"` when it has none that can be read). */
  readonly profile: string;
}

/**
 * `null` when `profile` offers `capability`, otherwise a typed refusal naming
 * both: `capability-not-offered`, or `invalid-capability` when `capability`
 * is not one of the five {@link ChatCapability} names (a symbol, an object,
 * `"__proto__"`, …). Only an own `capabilities[capability] === true` offers
 * it (an inherited value does not); a malformed profile (throwing getters, a
 * revoked proxy, no `capabilities` record) offers nothing. Each field is read
 * once. Never throws.
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
  const fields = readFields(profile, ["name", "capabilities"] as const);
  const name = fields !== null && typeof fields.name === "string" ? fields.name : "invalid-profile";
  if (typeof capability !== "string" || !KNOWN.has(capability)) {
    const described = describeValue(capability);
    return {
      code: "invalid-capability",
      message: `${described} is not a chat capability (one of ${CHAT_CAPABILITIES.join(", ")})`,
      capability: described,
      profile: name,
    };
  }
  const offered = fields !== null && readOwnFields(fields.capabilities, [capability])?.[capability];
  if (offered === true) return null;
  return {
    code: "capability-not-offered",
    message: `profile '${name}' does not offer ${capability}`,
    capability,
    profile: name,
  };
}
