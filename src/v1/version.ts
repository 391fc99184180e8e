/**
 * Wire version negotiation: exactly the numbers 0 and 1 are versions.
 *
 * @module
 */
import { err, ok, type Refusal, type Result } from "../result.ts";
import { describeValue } from "../_internal/describe.ts";
import type { ChatProtocolVersion } from "./types.ts";

/** Refusal of {@link negotiateChatVersion} / {@link negotiateChatVersions}. */
export interface UnsupportedVersionRefusal extends Refusal<"unsupported-version"> {
  /** What was offered (the value, or the list of offers). */
  readonly received: unknown;
}

/** The versions this package speaks, highest first. */
export const SUPPORTED_CHAT_VERSIONS: readonly ChatProtocolVersion[] = Object.freeze(
  [1, 0] as const,
);

/**
 * Accept exactly the explicit numbers `0` and `1` (`-0` is `0`; `1.0` is the
 * same number as `1`). Anything else is `unsupported-version`: missing
 * (`undefined`), `null`, strings (`"1"`), future (`2`), non-integers (`1.5`),
 * `NaN`, bigints (`1n`), objects.
 *
 * @example
 * ```ts
 * import { negotiateChatVersion } from "@papercusp/chat-protocol";
 * negotiateChatVersion(1); // { ok: true, value: 1 }
 * negotiateChatVersion("1"); // { ok: false, error: { code: "unsupported-version", … } }
 * ```
 */
export function negotiateChatVersion(
  x: unknown,
): Result<ChatProtocolVersion, UnsupportedVersionRefusal> {
  if (x === 0) return ok(0);
  if (x === 1) return ok(1);
  return err({
    code: "unsupported-version",
    message: `unsupported chat protocol version ${describeValue(x)} (supported: 0, 1)`,
    received: x,
  });
}

/**
 * Pick the highest version both sides speak. Offers that are not exactly 0 or
 * 1 are ignored; `serverSupports` defaults to both. No common version (or
 * `clientOffers` not an array, or unreadable) → `unsupported-version` with
 * `received` the offers. Never throws.
 */
export function negotiateChatVersions(
  clientOffers: readonly unknown[],
  serverSupports: readonly ChatProtocolVersion[] = SUPPORTED_CHAT_VERSIONS,
): Result<ChatProtocolVersion, UnsupportedVersionRefusal> {
  try {
    if (Array.isArray(clientOffers) && Array.isArray(serverSupports)) {
      for (const v of SUPPORTED_CHAT_VERSIONS) {
        if (clientOffers.some((o) => o === v) && serverSupports.some((s) => s === v)) return ok(v);
      }
    }
  } catch {
    // A hostile list (revoked proxy, throwing getter): no version in common.
  }
  return err({
    code: "unsupported-version",
    message: "no chat protocol version in common (supported: 0, 1)",
    received: clientOffers,
  });
}
