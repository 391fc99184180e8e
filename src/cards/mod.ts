/**
 * Interactive cards (v0-wire spec §4): types and zod schemas, per-kind
 * answer validation with an extension point for product kinds, the JSON
 * Schema of an answer, and MCP elicitation interop.
 *
 * @example
 * ```ts
 * import { type OpenCardSnapshot, validateCardResponse } from "@papercusp/chat-protocol";
 * const card: OpenCardSnapshot = {
 *   correlationId: "c1", createdAt: Date.now(), prompt: "How many?",
 *   presentation: { kind: "slider", min: 0, max: 1, step: 0.1 },
 * };
 * validateCardResponse(card, { action: "submit", correlationId: "c1", value: { value: 0.3 } }).ok; // → true
 * ```
 *
 * @module
 */
export type {
  CardApproval,
  CardOption,
  CardPresentation,
  CardPresentationKind,
  CardResponse,
  CardSpec,
  OpenCardSnapshot,
} from "./types.ts";
export { CARD_PRESENTATION_KINDS } from "./kinds.ts";
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
} from "./schemas.ts";
export { decodeCardOptions } from "./decode_card_options.ts";
export {
  type CardKindValidator,
  type CardRefusal,
  cardRefusal,
  type CardRefusalCode,
  type CardValidationOptions,
  type CardValidator,
  type CardValidatorOptions,
  type CardValue,
  createCardValidator,
  isIsoDate,
  validateCardResponse,
} from "./validate_card_response.ts";
export {
  cardResponseJsonSchema,
  cardValueSchema,
  type CustomCardValueSchemas,
} from "./card_response_json_schema.ts";
export {
  cardToElicitation,
  type ElicitationEnumChoice,
  type ElicitationFormRequest,
  type ElicitationPropertySchema,
  type ElicitationResult,
  elicitationResultToCardResponse,
} from "./elicitation.ts";
