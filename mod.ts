/**
 * `@papercusp/chat-protocol`: the v1 wire contract for streaming agent chats,
 * the part a first-time user needs.
 *
 * - The {@link ChatEventEnvelope} (`schemaVersion: 1`, host-allocated
 *   conversation / turn / event ids, a positive per-turn `seq`, stable tool
 *   `callId`) and its event union {@link ChatEventV1}.
 * - The validators {@link parseChatEnvelope} (a value) and
 *   {@link parseChatEnvelopeJson} (JSON text, size-bounded), returning a
 *   {@link Result}: untrusted input is refused, never thrown.
 * - The turn state {@link ChatStateV1} and its fold ({@link ChatStateFolder},
 *   {@link foldChatState}), the turn lifecycle ({@link TURN_TRANSITIONS}),
 *   capabilities ({@link requireChatCapabilities}) and version negotiation
 *   ({@link negotiateChatVersion}).
 * - Extension events ({@link ExtensionEventV1}, {@link isExtensionName},
 *   {@link createExtensionRegistry}) and the channels and replay rule
 *   ({@link CHAT_EVENT_V1_CHANNELS}, {@link replayEnvelope}).
 *
 * The card types that `card` events and `ChatStateV1.openCards` carry
 * (`OpenCardSnapshot`, …) are in `./cards`, the report block types in
 * `./blocks`.
 *
 * No zod at runtime and no name that clashes with an export of the AI SDK
 * (`ai`). Everything else has its own entry point: `./v0` (named v0 events),
 * `./sse` (SSE codec), `./legacy` (Scout / Papercup frames), `./cards`,
 * `./blocks`, `./message`, `./ai-sdk`, `./ag-ui`, `./schemas` (the zod
 * schemas), `./recovery`, `./interactions`, `./agents` and the conformance kits
 * `./recovery/testing`, `./interactions/testing`. The refusal and drop types
 * the v1 adapters (`./ai-sdk`, `./ag-ui`, `./http`) report
 * ({@link V1AdapterRefusal}, {@link DroppedEvent}) are here, beside
 * {@link EnvelopeAdmissionRefusal}.
 *
 * @example Fold an NDJSON turn
 * ```ts
 * import { ChatStateFolder, parseChatEnvelopeJson } from "@papercusp/chat-protocol";
 * const ndjson =
 *   '{"schemaVersion":1,"conversationId":"c1","turnId":"t1","eventId":"e1","seq":1,"event":{"type":"delta","text":"Hi"}}\n';
 * const folder = new ChatStateFolder("c1", "t1");
 * for (const line of ndjson.split("\n").filter(Boolean)) {
 *   const env = parseChatEnvelopeJson(line);
 *   const r = env.ok ? folder.push(env.value) : env;
 *   if (!r.ok) console.warn(r.error.code, r.error.message);
 * }
 * console.log(folder.state().text); // "Hi"
 * ```
 *
 * @module
 */
export { err, ok, type Refusal, type Result } from "./src/result.ts";
export type { V1AdapterRefusal, V1AdapterRefusalCode } from "./src/v1/v1_adapter_refusal.ts";
export type { DroppedEvent, DropReason } from "./src/v1/dropped_event.ts";
export {
  type CardClosedEventV1,
  type CardEventV1,
  type CardResolution,
  CHAT_SCHEMA_VERSION,
  type ChatCapabilities,
  type ChatCapability,
  type ChatChannel,
  type ChatEventEnvelope,
  type ChatEventV1,
  type ChatEventV1Type,
  type ChatJsonValue,
  type ChatOrderingCode,
  type ChatOrderingDetail,
  type ChatProtocolVersion,
  type ChatStateV1,
  type ChatUsage,
  type DeltaEventV1,
  type DoneEventV1,
  type ElidedEventV1,
  type EnvelopeAdmissionCode,
  type EnvelopeAdmissionRefusal,
  type ErrorEventV1,
  type ExtensionEventV1,
  type GroundedBlock,
  type NavigateEventV1,
  type ProvenanceEventV1,
  type ProviderProvenance,
  type ReasoningEventV1,
  type SessionEventV1,
  type SourceRef,
  type StateEventV1,
  type ToolCallEventV1,
  type ToolCallStateV1,
  type ToolProgressEventV1,
  type ToolResultEventV1,
  type TurnStatus,
  type TurnStatusEventV1,
} from "./src/v1/types.ts";
export {
  CHAT_EVENT_V1_TYPES,
  DEFAULT_MAX_ENVELOPE_BYTES,
  type EnvelopeIssue,
  type EnvelopeRefusal,
  isChatEventV1Type,
  parseChatEnvelope,
  parseChatEnvelopeJson,
  type ParseChatEnvelopeJsonOptions,
  type ParseChatEnvelopeOptions,
} from "./src/v1/parse.ts";
export {
  type ChatExtensionRegistry,
  type ChatExtensionValidator,
  createExtensionRegistry,
  EXTENSION_NAME_PATTERN,
  type ExtensionRegistryOptions,
  type ExtensionVerdict,
  isExtensionName,
} from "./src/v1/extensions.ts";
export { CHAT_EVENT_V1_CHANNELS, chatEventChannel, replayEnvelope } from "./src/v1/channels.ts";
export { ChatArgumentError, type ChatArgumentErrorCode } from "./src/v1/errors.ts";
export {
  canTransition,
  isTerminalTurnStatus,
  isTurnStatus,
  nextTurnStatus,
  TERMINAL_TURN_STATUSES,
  TURN_END_CARD_RESOLUTION,
  TURN_STATUSES,
  TURN_TRANSITIONS,
} from "./src/v1/lifecycle.ts";
export {
  type ChatFoldRefusal,
  type ChatFoldRefusalCode,
  ChatStateFolder,
  type ChatStateFolderOptions,
  createChatState,
  foldChatState,
  type FoldChatStateOptions,
  type FoldChatStateReport,
  foldChatStateStrict,
  type IndexedFoldRefusal,
  type InvalidStateRefusal,
  resumeChatState,
} from "./src/v1/fold.ts";
export {
  MAX_EXTENSION_DEPTH,
  MAX_EXTENSION_NAME_LENGTH,
  MAX_EXTENSION_STATE_NAMES,
  MAX_EXTENSION_VALUES,
  MAX_REFUSALS,
  MAX_STREAM_ITEMS,
} from "./src/v1/limits.ts";
export {
  CHAT_CAPABILITIES,
  type MissingCapabilitiesRefusal,
  NO_CAPABILITIES,
  requireChatCapabilities,
} from "./src/v1/capabilities.ts";
export {
  negotiateChatVersion,
  negotiateChatVersions,
  SUPPORTED_CHAT_VERSIONS,
  type UnsupportedVersionRefusal,
} from "./src/v1/version.ts";
