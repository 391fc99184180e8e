/**
 * Zod schemas of the wire card shapes (v0-wire spec §4.1).
 *
 * The schemas check SHAPES (types, required fields); the per-kind answer
 * rules live in {@link validateCardResponse}. Unknown keys are stripped.
 *
 * @module
 */
import { z } from "zod";
import { ownRecord } from "../_internal/record_schema.ts";
import { BUILTIN_KINDS, CARD_PRESENTATION_KINDS } from "./kinds.ts";
import { GoalOwnerReportRefV1Schema } from "../blocks/schemas.ts";
import type { ReportBlock } from "../blocks/types.ts";
import type {
  CardApproval,
  CardOption,
  CardPresentation,
  CardPresentationKind,
  CardResponse,
  CardSpec,
  OpenCardSnapshot,
} from "./types.ts";

/** {@link CardPresentationKind}: one of {@link CARD_PRESENTATION_KINDS}. */
export const CardPresentationKindSchema: z.ZodType<CardPresentationKind> = z.enum(
  BUILTIN_KINDS,
);

/** {@link CardOption}. */
export const CardOptionSchema: z.ZodType<CardOption> = z.object({
  id: z.string(),
  label: z.string(),
  description: z.string().optional(),
  hint: z.string().optional(),
  style: z.enum(["default", "primary", "danger"]).optional(),
});

/**
 * Structural {@link ReportBlock} check for a card's `report` (types only:
 * the card author's strings need not be trimmed; normalise with
 * `parseReportBlock` before rendering).
 */
const CardReportSchema: z.ZodType<ReportBlock> = z.object({
  title: z.string().optional(),
  plans: z.array(z.object({
    slug: z.string().optional(),
    title: z.string(),
    status: z.string().optional(),
    summary: z.string().optional(),
    items: z.array(z.object({
      id: z.string().optional(),
      text: z.string(),
      status: z.string().optional(),
      ref: z.string().optional(),
    })).optional(),
  })),
  goalReport: GoalOwnerReportRefV1Schema.optional(),
});

/** {@link CardApproval}. */
export const CardApprovalSchema: z.ZodType<CardApproval> = z.object({
  title: z.string(),
  question: z.string(),
  body: z.array(z.string()),
});

/** The zod schemas of every card shape, for a given kind schema. */
export interface CardSchemas<K extends string> {
  /** Schema of a presentation with these kinds. */
  readonly CardPresentationSchema: z.ZodType<CardPresentation<K>>;
  /** Schema of a card spec with these kinds. */
  readonly CardSpecSchema: z.ZodType<CardSpec<K>>;
  /** Schema of an open card snapshot with these kinds. */
  readonly OpenCardSnapshotSchema: z.ZodType<OpenCardSnapshot<K>>;
}

/**
 * Build the card schemas for a product's own kinds: pass the list of extra
 * kind names; the built-in six are always included.
 *
 * @example
 * ```ts
 * import { createCardSchemas } from "@papercusp/chat-protocol/schemas";
 * const { OpenCardSnapshotSchema } = createCardSchemas(["rating"]);
 * OpenCardSnapshotSchema.safeParse({ correlationId: "c", createdAt: 0, prompt: "Rate", presentation: { kind: "rating" } }).success; // → true
 * ```
 */
export function createCardSchemas<X extends string = never>(
  extraKinds: readonly X[] = [],
): CardSchemas<CardPresentationKind | X> {
  type K = CardPresentationKind | X;
  const all = [...CARD_PRESENTATION_KINDS, ...extraKinds] as string[];
  const kind = z.string().refine((k) => all.includes(k), {
    message: `kind must be one of ${all.join(", ")}`,
  }) as unknown as z.ZodType<K>;
  const presentation = z.object({
    kind,
    options: z.array(CardOptionSchema).optional(),
    placeholder: z.string().optional(),
    multiline: z.boolean().optional(),
    min: z.union([z.number(), z.string()]).optional(),
    max: z.union([z.number(), z.string()]).optional(),
    step: z.number().optional(),
    voiceAnswerable: z.boolean().optional(),
  }) as unknown as z.ZodType<CardPresentation<K>>;
  const specShape = {
    prompt: z.string(),
    presentation: presentation.optional(),
    fallbackText: z.string().optional(),
    details: z.string().optional(),
    approval: CardApprovalSchema.optional(),
    allowDecline: z.boolean().optional(),
    timeoutMs: z.number().nonnegative().optional(),
    report: CardReportSchema.optional(),
  };
  const spec = z.object(specShape) as unknown as z.ZodType<CardSpec<K>>;
  const snapshot = z.object({
    ...specShape,
    correlationId: z.string(),
    createdAt: z.number(),
    dataSchemaJson: ownRecord(z.string(), z.unknown()).optional(),
  }) as unknown as z.ZodType<OpenCardSnapshot<K>>;
  return {
    CardPresentationSchema: presentation,
    CardSpecSchema: spec,
    OpenCardSnapshotSchema: snapshot,
  };
}

const base: CardSchemas<CardPresentationKind> = createCardSchemas();

/** {@link CardPresentation} with the built-in kinds (flat: every field but `kind` optional). */
export const CardPresentationSchema: z.ZodType<CardPresentation> = base.CardPresentationSchema;

/** {@link CardSpec} (`report` is checked structurally; normalise it with `parseReportBlock`). */
export const CardSpecSchema: z.ZodType<CardSpec> = base.CardSpecSchema;

/** {@link OpenCardSnapshot}: a {@link CardSpec} plus `correlationId`, `createdAt` (epoch ms), `dataSchemaJson?`. */
export const OpenCardSnapshotSchema: z.ZodType<OpenCardSnapshot> = base.OpenCardSnapshotSchema;

/** {@link CardResponse}: submit (with a `value` object), decline or cancel. */
export const CardResponseSchema: z.ZodType<CardResponse> = z.discriminatedUnion("action", [
  z.object({
    action: z.literal("submit"),
    correlationId: z.string(),
    value: ownRecord(z.string(), z.unknown()),
  }),
  z.object({ action: z.literal("decline"), correlationId: z.string() }),
  z.object({ action: z.literal("cancel"), correlationId: z.string() }),
]);
