/**
 * `@papercusp/chat-protocol/schemas`: the zod schemas of the areas whose own
 * entry point loads no zod, for those who want zod (peer dependency, v4) at
 * runtime: the v0 events, the v1 envelope and events, cards and blocks, each
 * named `<Type>Schema` and typed `z.ZodType<T>` with `T` the type exported
 * by the matching entry point. The message document's schemas (`chatMessage`,
 * `uiMessage`, …) are exported by `./message` and the agent-broker payloads'
 * (`brokerHistory`, …) by `./agents`, under the seed's names, and only there.
 *
 * The fast, zod-free validators live beside their types
 * (`parseChatEnvelope` in `.`, `parseChatEvent` in `./v0`, the block and card
 * parsers in `./blocks` and `./cards`): importing this entry point is what
 * puts zod into a bundle.
 *
 * @example
 * ```ts
 * import { ChatEventEnvelopeSchema } from "@papercusp/chat-protocol/schemas";
 * const r = ChatEventEnvelopeSchema.safeParse({
 *   schemaVersion: 1, conversationId: "c1", turnId: "t1", eventId: "e1", seq: 1,
 *   event: { type: "delta", text: "Hi" },
 * });
 * console.log(r.success); // true
 * ```
 *
 * @module
 */
export {
  CardClosedEventSchema,
  CardEventSchema,
  ChatEventSchema,
  DeltaEventSchema,
  DoneEventSchema,
  DoneUsageSchema,
  ErrorEventSchema,
  NavigateEventSchema,
  ProvenanceEventSchema,
  SessionEventSchema,
  StateEventSchema,
  ToolCallEventSchema,
  ToolResultEventSchema,
  WireCardSchema,
} from "./src/v0/schemas.ts";
export {
  CardClosedEventV1Schema,
  CardEventV1Schema,
  CardResolutionSchema,
  ChatCapabilitiesSchema,
  ChatEventEnvelopeSchema,
  ChatEventV1Schema,
  ChatStateV1Schema,
  ChatUsageSchema,
  DeltaEventV1Schema,
  DoneEventV1Schema,
  ElidedEventV1Schema,
  ErrorEventV1Schema,
  ExtensionEventV1Schema,
  GroundedBlockSchema,
  NavigateEventV1Schema,
  OpenCardSnapshotV1Schema,
  ProvenanceEventV1Schema,
  ReasoningEventV1Schema,
  SessionEventV1Schema,
  SourceRefSchema,
  StateEventV1Schema,
  ToolCallEventV1Schema,
  ToolCallStateV1Schema,
  ToolProgressEventV1Schema,
  ToolResultEventV1Schema,
  TurnStatusEventV1Schema,
} from "./src/v1/schemas.ts";
export {
  CardApprovalSchema,
  CardOptionSchema,
  CardPresentationKindSchema,
  CardPresentationSchema,
  CardResponseSchema,
  type CardSchemas,
  CardSpecSchema,
  createCardSchemas,
  OpenCardSnapshotSchema,
} from "./src/cards/schemas.ts";
export {
  AskBlockSchema,
  AskOptionSchema,
  GoalOwnerReportRefV1Schema,
  ReportBlockSchema,
  ReportItemSchema,
  ReportPlanSchema,
} from "./src/blocks/schemas.ts";
