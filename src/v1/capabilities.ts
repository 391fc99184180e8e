/**
 * {@link ChatCapabilities} helpers: the empty declaration and
 * {@link requireChatCapabilities}.
 *
 * @module
 */
import { err, ok, type Refusal, type Result } from "../result.ts";
import type { ChatCapabilities, ChatCapability } from "./types.ts";
import { isRecord } from "../_internal/guards.ts";
import { clipText } from "../_internal/describe.ts";

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

/**
 * Refusal of {@link requireChatCapabilities}: `missing` names every required
 * flag not declared `true`; `unknown` names required capabilities this
 * package does not know (a typo must not pass as "nothing required").
 */
export interface MissingCapabilitiesRefusal extends Refusal<"missing-capabilities"> {
  /** The missing capabilities, in {@link CHAT_CAPABILITIES} order. */
  readonly missing: readonly ChatCapability[];
  /**
   * Required names that are not capabilities, in the order given; empty when
   * every name is known. A string appears as is (cut to 64 UTF-16 code
   * units), any other value as `(its typeof)`, e.g. `(number)` or `(null)`;
   * a `required` that is neither an array nor an object appears the same way.
   */
  readonly unknown: readonly string[];
  /**
   * Record form only: capabilities whose requirement is neither `true`
   * (required) nor `false` / `undefined` (not required), e.g. `1`, `"true"`
   * or `null`, in the order given (cut to 64 UTF-16 code units). Such a
   * requirement is refused, never read as "not required". Empty otherwise.
   */
  readonly invalid: readonly string[];
}

const KNOWN: ReadonlySet<string> = new Set<string>(CHAT_CAPABILITIES);

/** How a required name appears in `unknown`: strings (bounded) as is, anything else as `(type)`. */
function nameOf(v: unknown): string {
  return typeof v === "string" ? clipText(v, 64) : `(${v === null ? "null" : typeof v})`;
}

/**
 * Check that a host declares every required capability. Only `true` counts,
 * on both sides: a declared flag counts only when it is exactly `true` (no
 * truthiness, no implication between flags: `persistedHistory` never
 * implies `interruptedTurnRecovery`), and in the record form a capability is
 * required by exactly `true` (`false` or absent: not required). It fails
 * closed: a required name that is not one of {@link CHAT_CAPABILITIES}
 * (e.g. a typo), or a `required` that is neither an array nor an object, is
 * refused (listed in `unknown`), and so is a record entry whose value is
 * neither `true` nor `false` (`1`, `"true"`, `null`: listed in `invalid`),
 * never ignored. Never throws.
 *
 * @param declared what the host declares (a non-object or an array declares nothing).
 * @param required capability names, or a partial record whose `true` flags are required
 *   (every other value must be `false` or `undefined`).
 * @returns the declared capabilities ({@link NO_CAPABILITIES} when `declared`
 *   is not a non-array object), or `missing-capabilities` naming what is missing and
 *   what is unknown.
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
  try {
    return check(declared, required);
  } catch {
    // Only reachable through hostile objects (throwing getters, revoked proxies): fail closed.
    return err({
      code: "missing-capabilities",
      message: "the declared or required capabilities could not be read",
      missing: [],
      unknown: ["(unreadable)"],
      invalid: [],
    });
  }
}

function check(
  declared: ChatCapabilities,
  required: readonly ChatCapability[] | Partial<ChatCapabilities>,
): Result<ChatCapabilities, MissingCapabilitiesRefusal> {
  const d: Record<string, unknown> = isRecord(declared) ? declared : {};
  const wanted = new Set<string>();
  const unknown: string[] = [];
  const invalid: string[] = [];
  const want = (name: unknown) => {
    if (typeof name === "string" && KNOWN.has(name)) wanted.add(name);
    else unknown.push(nameOf(name));
  };
  if (Array.isArray(required)) {
    for (const r of required) want(r);
  } else if (typeof required === "object" && required !== null) {
    for (const name of Object.keys(required)) {
      const flag = (required as Record<string, unknown>)[name];
      if (flag === true) want(name);
      else if (flag !== false && flag !== undefined) invalid.push(nameOf(name));
    }
  } else {
    unknown.push(nameOf(required));
  }
  const missing: ChatCapability[] = [];
  for (const name of CHAT_CAPABILITIES) {
    if (wanted.has(name) && !(Object.hasOwn(d, name) && d[name] === true)) missing.push(name);
  }
  if (missing.length > 0 || unknown.length > 0 || invalid.length > 0) {
    const parts: string[] = [];
    if (missing.length > 0) parts.push(`the host does not declare: ${missing.join(", ")}`);
    if (unknown.length > 0) {
      parts.push(
        `not capabilities (required but unknown): ${
          unknown.map((u) => JSON.stringify(u)).join(", ")
        }`,
      );
    }
    if (invalid.length > 0) {
      parts.push(
        `required with a value other than true or false: ${
          invalid.map((u) => JSON.stringify(u)).join(", ")
        }`,
      );
    }
    return err({
      code: "missing-capabilities",
      message: parts.join("; "),
      missing,
      unknown,
      invalid,
    });
  }
  return ok(isRecord(declared) ? declared : NO_CAPABILITIES);
}
