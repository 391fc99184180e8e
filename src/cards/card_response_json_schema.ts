/**
 * JSON Schema of a card answer's `value`, for renderers in other languages.
 *
 * @module
 */
import { z } from "zod";
import { err, ok, type Result } from "../result.ts";
import { isRecord, own } from "../_internal/guards.ts";
import { describeThrown, describeValue } from "../_internal/describe.ts";
import type { CardPresentation, OpenCardSnapshot } from "./types.ts";
import {
  cardOptionIds,
  type CardRefusal,
  cardRefusal,
  dateBounds,
  sliderBounds,
} from "./validate_card_response.ts";

/** Zod schemas of product-defined kinds' answer values, by kind name. */
export type CustomCardValueSchemas = Readonly<
  Record<string, (presentation: CardPresentation<string>) => z.ZodType>
>;

const nonBlank = z.string().regex(/\S/, "must not be blank");

function optionUnion(p: CardPresentation<string>, ids: string[]): z.ZodType {
  const labels = new Map<string, unknown>();
  for (const o of p.options ?? []) if (!labels.has(o.id)) labels.set(o.id, own(o, "label"));
  const labelOf = (id: string) => {
    const label = labels.get(id);
    return typeof label === "string" ? label : id;
  };
  const literals = ids.map((id) => z.literal(id).meta({ title: labelOf(id) }));
  return literals.length === 1
    ? literals[0]
    : z.union(literals as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]]);
}

/**
 * The zod schema of a valid answer `value` for `card` (shape-level: the
 * JSON-Schema-expressible part of {@link validateCardResponse}'s rules).
 * Refuses malformed cards (`invalid-card`: not an object, a non-object
 * presentation, bad options or bounds) and custom kinds without an entry in
 * `custom` (`not-expressible`). Card fields are read as own properties only.
 * Never throws on a hostile card (`invalid-card`); does not catch what a
 * `custom` schema factory throws (see {@link cardResponseJsonSchema}, which
 * does).
 */
export function cardValueSchema(
  card: OpenCardSnapshot<string>,
  custom: CustomCardValueSchemas = {},
): Result<z.ZodType, CardRefusal> {
  let r: Result<z.ZodType, CardRefusal> | ProductSchema;
  try {
    r = valueSchema(card, custom);
  } catch (e) {
    // a hostile card or `custom` map (throwing getter, revoked proxy): refused, never thrown
    return err(
      cardRefusal("invalid-card", "", `the card could not be read: ${describeThrown(e, 200)}`),
    );
  }
  // the caller's own factory runs outside the guard: what it throws propagates (documented)
  return "make" in r ? ok(r.make(r.presentation)) : r;
}

/** A product kind's schema factory and the presentation (read once) to call it with. */
interface ProductSchema {
  readonly make: (p: CardPresentation<string>) => z.ZodType;
  readonly presentation: CardPresentation<string>;
}

/** The schema, or the product kind's factory to call (outside the guard). */
function valueSchema(
  card: OpenCardSnapshot<string>,
  custom: CustomCardValueSchemas,
): Result<z.ZodType, CardRefusal> | ProductSchema {
  if (!isRecord(card)) return err(cardRefusal("invalid-card", "", "a card must be an object"));
  const p = own(card, "presentation") as CardPresentation<string> | undefined;
  if (p === undefined) {
    const confirm = z.strictObject({ confirmed: z.literal(true).optional() });
    if (own(card, "approval") !== undefined) return ok(confirm);
    return ok(z.union([confirm, z.strictObject({ text: nonBlank })]));
  }
  if (!isRecord(p)) {
    return err(cardRefusal("invalid-card", "presentation", "presentation must be an object"));
  }
  const kind = own(p, "kind");
  switch (kind) {
    case "radio":
    case "select": {
      const ids = cardOptionIds(p);
      if (!ids.ok) return ids;
      return ok(z.strictObject({ optionId: optionUnion(p, ids.value) }));
    }
    case "checkbox": {
      const ids = cardOptionIds(p);
      if (!ids.ok) return ids;
      return ok(z.strictObject({ optionIds: z.array(optionUnion(p, ids.value)).min(1) }));
    }
    case "text":
      return ok(z.strictObject({ text: nonBlank }));
    case "slider": {
      const b = sliderBounds(p);
      if (!b.ok) return b;
      const { min, max, step } = b.value;
      const base = min ?? 0;
      const integral = step !== undefined && Number.isInteger(step) && Number.isInteger(base);
      let n = integral ? z.int() : z.number();
      if (min !== undefined) n = n.min(min);
      if (max !== undefined) n = n.max(max);
      if (integral && step! > 1 && base % step! === 0) n = n.multipleOf(step!);
      else if (step !== undefined && !(integral && step === 1)) {
        n = n.describe(`on a step of ${step} counted from ${base}`);
      }
      return ok(z.strictObject({ value: n }));
    }
    case "date": {
      const b = dateBounds(p);
      if (!b.ok) return b;
      const { min, max } = b.value;
      let d: z.ZodType = z.iso.date();
      if (min !== undefined || max !== undefined) {
        d = d.describe(`a date from ${min ?? "any"} to ${max ?? "any"}`);
      }
      return ok(z.strictObject({ date: d }));
    }
    default: {
      const make = typeof kind === "string" && isRecord(custom) && Object.hasOwn(custom, kind)
        ? custom[kind]
        : undefined;
      if (typeof make !== "function") {
        return err(
          cardRefusal(
            "not-expressible",
            "presentation.kind",
            `no value schema for kind ${describeValue(kind)}`,
          ),
        );
      }
      return { make, presentation: p };
    }
  }
}

/**
 * JSON Schema (draft 2020-12, via zod's `z.toJSONSchema`, `$schema` key
 * removed as in tooldef's `dataSchemaJson`) of a valid answer `value` for
 * `card`. Radio/select ids become `const` values with the option label as
 * `title`; checkbox arrays get `minItems: 1` and `uniqueItems: true`; text is
 * `pattern: "\\S"`; slider gets `minimum`/`maximum` (`type: "integer"` and
 * `multipleOf` when the step grid allows it, else a `description`); date is
 * `format: "date"` (bounds only in `description`). The JSON Schema is a
 * rendering aid: the authoritative check is {@link validateCardResponse}.
 *
 * @example
 * ```ts
 * import { cardResponseJsonSchema } from "@papercusp/chat-protocol/cards";
 * cardResponseJsonSchema({ correlationId: "c", createdAt: 0, prompt: "When?", presentation: { kind: "date" } });
 * // → { ok: true, value: { type: "object", properties: { date: { type: "string", format: "date", … } }, required: ["date"], additionalProperties: false } }
 * ```
 */
export function cardResponseJsonSchema(
  card: OpenCardSnapshot<string>,
  custom: CustomCardValueSchemas = {},
): Result<Record<string, unknown>, CardRefusal> {
  try {
    const schema = cardValueSchema(card, custom);
    if (!schema.ok) return schema;
    const json = z.toJSONSchema(schema.value) as Record<string, unknown>;
    delete json.$schema;
    const props = json.properties as Record<string, Record<string, unknown>> | undefined;
    const p = own(card, "presentation") as CardPresentation<string> | undefined;
    if (isRecord(p) && own(p, "kind") === "checkbox" && props?.optionIds) {
      props.optionIds.uniqueItems = true;
    }
    return ok(json);
  } catch (e) {
    return err(
      cardRefusal(
        "not-expressible",
        "",
        `no JSON Schema: ${describeThrown(e, 200)}`,
      ),
    );
  }
}
