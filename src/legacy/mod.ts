/**
 * legacy: the legacy0 host adapter. Unversioned frames already on the wire
 * (Scout's unnamed `token` / `tool_start` frames, Papercup's named v0 events)
 * are read only through these explicitly selected functions: decode, upgrade
 * to a v1 envelope with host-supplied identity, and encode back.
 *
 * @module
 */
export * from "./types.ts";
export { decodeLegacyChatFrame, LEGACY_MAX_DATA_LENGTH } from "./decode.ts";
export type { LegacyDecodeOptions } from "./decode.ts";
export { upgradeDecodedLegacyChatFrame, upgradeLegacyChatFrame } from "./upgrade.ts";
export type { LegacyToolFrame, LegacyUpgradeContext } from "./upgrade.ts";
export { encodeLegacyChatFrame } from "./encode.ts";
export type { LegacyVocabulary } from "./encode.ts";
