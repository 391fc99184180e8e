/**
 * `@papercusp/chat-protocol/cards`: interactive cards (v0-wire spec §4), the
 * questions an agent asks mid-turn.
 *
 * - Card types ({@link CardSpec}, {@link OpenCardSnapshot},
 *   {@link CardResponse}) and the built-in presentation kinds
 *   ({@link CARD_PRESENTATION_KINDS}).
 * - Per-kind answer validation ({@link validateCardResponse}), with an
 *   extension point for product kinds ({@link createCardValidator}); a
 *   refusal names the field and the reason.
 * - The JSON Schema of a valid answer ({@link cardResponseJsonSchema}) and
 *   MCP elicitation interop ({@link cardToElicitation},
 *   {@link elicitationResultToCardResponse}).
 *
 * The zod schemas of cards and the schema factory `createCardSchemas` are
 * in `./schemas`.
 *
 * @example
 * ```ts
 * import { type OpenCardSnapshot, validateCardResponse } from "@papercusp/chat-protocol/cards";
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
} from "./src/cards/types.ts";
export { CARD_PRESENTATION_KINDS } from "./src/cards/kinds.ts";
export { decodeCardOptions } from "./src/cards/decode_card_options.ts";
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
} from "./src/cards/validate_card_response.ts";
export { CardArgumentError, type CardArgumentErrorCode } from "./src/cards/errors.ts";
export {
  cardResponseJsonSchema,
  cardValueSchema,
  type CustomCardValueSchemas,
} from "./src/cards/card_response_json_schema.ts";
export {
  cardToElicitation,
  type ElicitationEnumChoice,
  type ElicitationFormRequest,
  type ElicitationPropertySchema,
  type ElicitationResult,
  elicitationResultToCardResponse,
} from "./src/cards/elicitation.ts";
