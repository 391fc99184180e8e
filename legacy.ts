/**
 * `@papercusp/chat-protocol/legacy`: the legacy0 host adapter. Unversioned
 * frames already on the wire (Scout's unnamed `token` / `tool_start` frames,
 * Papercup's named v0 events) are read only through these explicitly
 * selected functions: {@link decodeLegacyChatFrame} (one frame in a named
 * dialect), {@link upgradeLegacyChatFrame} (to a v1 envelope with
 * host-supplied identity) and {@link encodeLegacyChatFrame} (a v1 envelope
 * back to a legacy frame). Each returns a typed refusal instead of guessing:
 * a tool event without call identity, an unknown result status or an error
 * without the host's retry decision is refused, never fabricated.
 *
 * @example
 * ```ts
 * import { decodeLegacyChatFrame } from "@papercusp/chat-protocol/legacy";
 * const r = decodeLegacyChatFrame({ data: '{"type":"token","content":"Hi"}' }, "scout");
 * if (r.ok) console.log(r.value);
 * ```
 *
 * @module
 */
export type {
  LegacyChatEvent,
  LegacyChatFrame,
  LegacyDecodedFrame,
  LegacyDialect,
  LegacyDomainFrame,
  LegacyFrame,
  LegacyHeartbeatFrame,
  LegacyRefusal,
  LegacyRefusalCode,
  LegacyUsage,
} from "./src/legacy/types.ts";
export {
  decodeLegacyChatFrame,
  LEGACY_MAX_DATA_LENGTH,
  type LegacyDecodeOptions,
} from "./src/legacy/decode.ts";
export {
  type LegacyExtensionOptions,
  type LegacyToolFrame,
  type LegacyUpgradeContext,
  upgradeDecodedLegacyChatFrame,
  upgradeLegacyChatFrame,
} from "./src/legacy/upgrade.ts";
export { encodeLegacyChatFrame, type LegacyVocabulary } from "./src/legacy/encode.ts";
