/**
 * {@link ChatCapabilities} helpers: the empty declaration and
 * {@link requireChatCapabilities}.
 *
 * @module
 */
import { err, ok, type Refusal, type Result } from "../result.ts";
import type { ChatCapabilities, ChatCapability } from "./types.ts";

/** The five capability names, in declaration order. */
export const CHAT_CAPABILITIES: readonly ChatCapability[] = Object.freeze(
  [
    "connectionReplay",
    "persistedHistory",
    "persistedDecisions",
    "completedToolCheckpoints",
    "interruptedTurnRecovery",
  ] as const,
);

/** A host that promises nothing: every flag `false` (frozen). */
export const NO_CAPABILITIES: Readonly<ChatCapabilities> = Object.freeze({
  connectionReplay: false,
  persistedHistory: false,
  persistedDecisions: false,
  completedToolCheckpoints: false,
  interruptedTurnRecovery: false,
});

/** Refusal of {@link requireChatCapabilities}: `missing` names every required flag not declared `true`. */
export interface MissingCapabilitiesRefusal extends Refusal<"missing-capabilities"> {
  /** The missing capabilities, in {@link CHAT_CAPABILITIES} order. */
  readonly missing: readonly ChatCapability[];
}

/**
 * Check that a host declares every required capability. A flag counts only
 * when it is exactly `true` (no truthiness, no implication between flags:
 * `persistedHistory` never implies `interruptedTurnRecovery`). Unknown names
 * in `required` are ignored. Never throws.
 *
 * @param declared what the host declares (a non-object declares nothing).
 * @param required capability names, or a partial record whose `true` flags are required.
 * @returns the declared capabilities, or `missing-capabilities` naming what is missing.
 *
 * @example
 * ```ts
 * import { requireChatCapabilities } from "@papercusp/chat-protocol";
 * const r = requireChatCapabilities(
 *   { connectionReplay: true, persistedHistory: true, persistedDecisions: false,
 *     completedToolCheckpoints: false, interruptedTurnRecovery: false },
 *   ["persistedHistory", "interruptedTurnRecovery"],
 * );
 * // r.ok === false; r.error.missing → ["interruptedTurnRecovery"]
 * ```
 */
export function requireChatCapabilities(
  declared: ChatCapabilities,
  required: readonly ChatCapability[] | Partial<ChatCapabilities>,
): Result<ChatCapabilities, MissingCapabilitiesRefusal> {
  const d = typeof declared === "object" && declared !== null
    ? declared as unknown as Record<string, unknown>
    : {};
  const wanted = new Set<string>();
  if (Array.isArray(required)) {
    for (const r of required) wanted.add(r);
  } else if (typeof required === "object" && required !== null) {
    for (const name of CHAT_CAPABILITIES) {
      if (Object.hasOwn(required, name) && (required as Record<string, unknown>)[name] === true) {
        wanted.add(name);
      }
    }
  }
  const missing: ChatCapability[] = [];
  for (const name of CHAT_CAPABILITIES) {
    if (wanted.has(name) && !(Object.hasOwn(d, name) && d[name] === true)) missing.push(name);
  }
  if (missing.length > 0) {
    return err({
      code: "missing-capabilities",
      message: `the host does not declare: ${missing.join(", ")}`,
      missing,
    });
  }
  return ok(declared);
}
