/**
 * `@papercusp/chat-protocol/message`: the message document. The AI SDK
 * `UIMessage` parts model (vendored byte-compatible, zero new part types)
 * plus a {@link ChatMessage} envelope: thread, participants, per-recipient
 * delivery and broker-set provenance.
 *
 * - Parts: {@link UIMessage}, {@link ChatPart} and each part type, the tool
 *   part states ({@link TOOL_PART_STATES}), {@link dataPart}.
 * - Envelope: {@link parseChatMessage} (broker-owned data),
 *   {@link parseInboundChatMessage} (transport input: refuses, never strips,
 *   a claimed provenance or delivery), {@link markHumanEndorsed} (the only
 *   way an endorsement is minted), {@link toUIMessage} /
 *   {@link fromUIMessage}.
 * - Delivery: {@link DeliveryState}, {@link capDeliveryStatus}.
 * - Adapters: messaging ({@link fromMessagingInbound},
 *   {@link toMessagingOutbound}, {@link deliveryFromSendResult}) and
 *   human-in-the-loop gates ({@link fromHitlGate}, {@link toHitlAnswer}).
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
  type Citation,
  DATA_PART_KEY_PATTERN,
  type DataPart,
  dataPart,
  type DataPartNameRefusal,
  type DynamicToolPart,
  type FilePart,
  isDataPartType,
  isToolPart,
  isToolPartType,
  type JsonValue,
  type MessageRole,
  type PartStreamState,
  type ProviderMetadata,
  type ReasoningPart,
  type SourceDocumentPart,
  type SourceUrlPart,
  type StepStartPart,
  type TextPart,
  TOOL_PART_STATES,
  type ToolApproval,
  toolNameOf,
  type ToolPart,
  type ToolPartFields,
  type ToolPartState,
  type UIMessage,
} from "./src/message/parts.ts";
export {
  capDeliveryStatus,
  DELIVERY_LADDER,
  type DeliveryState,
  type DeliveryStatus,
  TRANSPORT_DELIVERY_CEILING,
} from "./src/message/delivery.ts";
export {
  type AddressScheme,
  type ChatEnvelope,
  type ChatMessage,
  type ChatThread,
  type EndorsementRefusal,
  fromUIMessage,
  type InboundChatMessage,
  markHumanEndorsed,
  type MessageIssue,
  type MessageRefusal,
  parseChatMessage,
  parseInboundChatMessage,
  type Participant,
  type ParticipantAddress,
  type ParticipantKind,
  type Provenance,
  type ThreadKind,
  toUIMessage,
} from "./src/message/envelope.ts";
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
export {
  fromHitlGate,
  GATE_PART_TYPE,
  GATE_TOOL_NAME,
  type GateAnswer,
  type GateContext,
  type GateRefusal,
  type GateSnapshot,
  toHitlAnswer,
} from "./src/message/hitl.ts";
