/**
 * `@papercusp/chat-protocol/message`: the message document. The AI SDK
 * `UIMessage` parts model (vendored byte-compatible, zero new part types)
 * plus a {@link ChatMessage} envelope: thread, participants, per-recipient
 * delivery and broker-set provenance.
 *
 * - Parts: {@link UIMessage}, {@link ChatPart} and each part type, the tool
 *   part states ({@link TOOL_PART_STATES}), {@link createDataPart}.
 * - The seed's zod schemas under their documented names ({@link chatMessage},
 *   {@link inboundChatMessage}, {@link dataPart}, {@link toolPart}, …); the
 *   same objects are in `./schemas` under `*Schema` names.
 * - Envelope: {@link parseChatMessage} (broker-owned data),
 *   {@link parseInboundChatMessage} (transport input: refuses, never strips,
 *   a claimed provenance or delivery), {@link markHumanEndorsed} and its
 *   checked form {@link endorseAgentMessage} (the only ways an endorsement
 *   is minted), {@link toUIMessage} /
 *   {@link fromUIMessage}.
 * - Delivery: {@link DeliveryState}, {@link capDeliveryStatus}.
 * - Adapters: messaging ({@link fromMessagingInbound},
 *   {@link toMessagingOutbound}, {@link deliveryFromSendResult}) and
 *   human-in-the-loop gates and approvals ({@link fromHitlGate},
 *   {@link toHitlAnswer}, {@link toHitlAnswers}, and their Result forms
 *   {@link readHitlAnswer}, {@link readHitlAnswers}).
 *
 * The AI SDK UI message stream (chunks, the fold, v1 ⇄ chunks) is in
 * `./ai-sdk`, AG-UI events in `./ag-ui`, the zod schemas in `./schemas`.
 *
 * @example
 * ```ts
 * import { parseInboundChatMessage } from "@papercusp/chat-protocol/message";
 * const r = parseInboundChatMessage({
 *   id: "m1", threadId: "t1", authorId: "u1", role: "user",
 *   createdAt: "2026-01-01T00:00:00.000Z", parts: [{ type: "text", text: "Hi" }],
 * });
 * if (r.ok) console.log(r.value.parts[0]); // { type: "text", text: "Hi" }
 * ```
 *
 * @module
 */
export {
  type ChatPart,
  chatPart,
  type Citation,
  type DataPart,
  dataPart,
  type DynamicToolPart,
  dynamicToolPart,
  type FilePart,
  filePart,
  type JsonValue,
  type MessageRole,
  messageRole,
  type PartStreamState,
  type ProviderMetadata,
  providerMetadata,
  type ReasoningPart,
  reasoningPart,
  type SourceDocumentPart,
  sourceDocumentPart,
  type SourceUrlPart,
  sourceUrlPart,
  type StepStartPart,
  stepStartPart,
  type TextPart,
  textPart,
  type ToolApproval,
  toolApproval,
  type ToolPart,
  toolPart,
  type ToolPartFields,
  type ToolPartState,
  type UIMessage,
  uiMessage,
  type UIMessageLike,
} from "./src/message/parts.ts";
export {
  createDataPart,
  DATA_PART_KEY_PATTERN,
  type DataPartRefusal,
  isDataPartType,
  isToolPart,
  isToolPartType,
  TOOL_PART_STATES,
  toolNameOf,
} from "./src/message/part_types.ts";
export {
  capDeliveryStatus,
  DELIVERY_LADDER,
  type DeliveryState,
  type DeliveryStatus,
  TRANSPORT_DELIVERY_CEILING,
} from "./src/message/delivery.ts";
export { deliveryState, deliveryStatus } from "./src/message/delivery_schemas.ts";
export {
  type AddressScheme,
  addressScheme,
  type ChatMessage,
  chatMessage,
  type ChatThread,
  chatThread,
  endorseAgentMessage,
  type EndorsementRefusal,
  type InboundChatMessage,
  inboundChatMessage,
  markHumanEndorsed,
  type MessageIssue,
  type MessageRefusal,
  parseChatMessage,
  parseInboundChatMessage,
  type Participant,
  participant,
  type ParticipantAddress,
  type ParticipantKind,
  participantKind,
  type Provenance,
  provenance,
  type ThreadKind,
  threadKind,
} from "./src/message/envelope.ts";
export {
  type ChatEnvelope,
  fromUIMessage,
  toUIMessage,
} from "./src/message/ui_message_envelope.ts";
export { MessageArgumentError, type MessageArgumentErrorCode } from "./src/message/errors.ts";
export {
  deliveryFromSendResult,
  fromMessagingInbound,
  type InboundContext,
  type MessagingInbound,
  type MessagingSendInput,
  type MessagingSendResult,
  type OutboundResult,
  toMessagingOutbound,
} from "./src/message/messaging.ts";
export { GATE_PART_TYPE, GATE_TOOL_NAME } from "./src/message/gate_part.ts";
export {
  fromHitlGate,
  type GateContext,
  type GateRefusal,
  type GateSnapshot,
  parseHitlGate,
} from "./src/message/hitl.ts";
export {
  type GateAnswer,
  type HitlAnswerOptions,
  type HitlAnswerRefusal,
  MAX_HITL_ANSWER_PARTS,
  readHitlAnswer,
  readHitlAnswers,
  toHitlAnswer,
  toHitlAnswers,
} from "./src/message/hitl_answer.ts";
export { MAX_MESSAGE_PARTS } from "./src/message/message_limits.ts";
