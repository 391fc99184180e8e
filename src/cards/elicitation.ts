/**
 * MCP elicitation interop: a card as an `elicitation/create` form request,
 * and the client's `ElicitResult` back as a card response.
 *
 * Format source: the MCP specification, revision 2025-11-25, schema.ts
 * (`ElicitRequestFormParams`, `PrimitiveSchemaDefinition`, `ElicitResult`).
 *
 * @module
 */
import { err, ok, type Result } from "../result.ts";
import { isRecord, own } from "../_internal/guards.ts";
import { describeThrown } from "../_internal/describe.ts";
import { readOptions } from "../_internal/fields.ts";
import type { CardPresentation, CardResponse, OpenCardSnapshot } from "./types.ts";
import {
  cardOptionIds,
  type CardRefusal,
  cardRefusal,
  type CardValidationOptions,
  dateBounds,
  sliderBounds,
  validateCardResponse,
} from "./validate_card_response.ts";

/** One `{ const, title }` choice of a titled MCP enum. */
export interface ElicitationEnumChoice {
  /** The value returned when chosen (the card option id). */
  const: string;
  /** Display title (the option label). */
  title: string;
}

/** The MCP primitive property schemas this module emits (a subset of `PrimitiveSchemaDefinition`). */
export type ElicitationPropertySchema =
  | { type: "string"; title?: string; description?: string; minLength?: number; format?: "date" }
  | {
    type: "number" | "integer";
    title?: string;
    description?: string;
    minimum?: number;
    maximum?: number;
  }
  | { type: "string"; title?: string; description?: string; oneOf: ElicitationEnumChoice[] }
  | {
    type: "array";
    title?: string;
    description?: string;
    minItems?: number;
    items: { anyOf: ElicitationEnumChoice[] };
  };

/** An MCP `elicitation/create` request in form mode (method + params). */
export interface ElicitationFormRequest {
  /** Always `elicitation/create`. */
  method: "elicitation/create";
  /** Form-mode parameters: message and the flat requested schema. */
  params: {
    mode: "form";
    message: string;
    requestedSchema: {
      type: "object";
      properties: Record<string, ElicitationPropertySchema>;
      required?: string[];
    };
  };
}

/** The client's answer (MCP `ElicitResult`). */
export interface ElicitationResult {
  /** accept (submitted), decline (explicit no) or cancel (dismissed). */
  action: "accept" | "decline" | "cancel";
  /** Submitted form data; only with `accept`. */
  content?: Record<string, string | number | boolean | string[]>;
}

const notExpressible = (field: string, message: string) =>
  err(cardRefusal("not-expressible", field, message));

/**
 * Map a card to an MCP `elicitation/create` form request, or refuse with
 * `not-expressible` when the form could not carry the card faithfully.
 *
 * Mapping (property names equal the card's answer fields, so `content` maps
 * back 1:1):
 * - radio / select → `optionId`: `{type:"string", oneOf:[{const:id, title}]}`;
 * - checkbox → `optionIds`: `{type:"array", minItems:1, items:{anyOf:[{const, title}]}}`;
 * - text → `text`: `{type:"string", minLength:1}` (placeholder as description);
 * - slider → `value`: `{type:"number", minimum, maximum}`, or `"integer"` when
 *   `step` is 1 and `min` is an integer;
 * - date → `date`: `{type:"string", format:"date"}`;
 * - no presentation (plain prompt, approval, confirm) → an empty form: accept
 *   means "confirmed" (`value: {}`). Ask with a `text` presentation to collect
 *   text.
 * Option titles are `label`, or `label — description` (plus hint) so no text
 * is dropped; option `style` is visual only and not carried. The message is
 * the prompt, then the approval title and body lines, then `details`.
 *
 * Refused (`not-expressible`, with the field): a `report` body (structured,
 * would be flattened); a card that does not allow decline (MCP clients
 * always offer decline; see {@link CardValidationOptions.allowDeclineDefault});
 * a slider `step` other than 1-from-an-integer (MCP has no `multipleOf`);
 * date `min`/`max` (MCP string schemas have no date bounds); custom kinds.
 * Malformed cards → `invalid-card`, including an option without a string
 * `label` (every MCP choice needs a `title`), an `approval` without a string
 * `title` and string `body` lines, and a non-string `details`. Card fields
 * are read as own properties only.
 *
 * @example
 * ```ts
 * import { cardToElicitation } from "@papercusp/chat-protocol/cards";
 * cardToElicitation({
 *   correlationId: "c1", createdAt: 0, prompt: "Deploy where?", allowDecline: true,
 *   presentation: { kind: "radio", options: [{ id: "eu", label: "EU" }, { id: "us", label: "US" }] },
 * });
 * // → { ok: true, value: { method: "elicitation/create", params: { mode: "form", message: "Deploy where?",
 * //     requestedSchema: { type: "object", properties: { optionId: { type: "string",
 * //       oneOf: [{ const: "eu", title: "EU" }, { const: "us", title: "US" }] } }, required: ["optionId"] } } } }
 * ```
 */
export function cardToElicitation(
  card: OpenCardSnapshot<string>,
  options: CardValidationOptions = {},
): Result<ElicitationFormRequest, CardRefusal> {
  try {
    return toElicitation(card, options);
  } catch (e) {
    return err(
      cardRefusal(
        "invalid-card",
        "",
        `malformed card: ${describeThrown(e, 200)}`,
      ),
    );
  }
}

function toElicitation(
  card: OpenCardSnapshot<string>,
  options: CardValidationOptions,
): Result<ElicitationFormRequest, CardRefusal> {
  if (!isRecord(card) || typeof own(card, "prompt") !== "string") {
    return err(cardRefusal("invalid-card", "prompt", "the card has no string prompt"));
  }
  if (own(card, "report") !== undefined) {
    return notExpressible("report", "a structured report body cannot be shown in an MCP form");
  }
  const allowDeclineDefault = readOptions(options, ["allowDeclineDefault"])?.allowDeclineDefault;
  if ((own(card, "allowDecline") ?? allowDeclineDefault) !== true) {
    return notExpressible(
      "allowDecline",
      "MCP clients always offer decline, but this card does not allow it",
    );
  }
  const parts = [card.prompt];
  const approval = own(card, "approval");
  if (approval !== undefined) {
    const title = isRecord(approval) ? own(approval, "title") : undefined;
    const body = isRecord(approval) ? own(approval, "body") : undefined;
    if (
      typeof title !== "string" || !Array.isArray(body) ||
      !body.every((line) => typeof line === "string")
    ) {
      return err(
        cardRefusal(
          "invalid-card",
          "approval",
          "an approval needs a string title and an array of string body lines",
        ),
      );
    }
    parts.push([title, ...body].join("\n"));
  }
  const details = own(card, "details");
  if (details !== undefined && typeof details !== "string") {
    return err(cardRefusal("invalid-card", "details", "details must be a string"));
  }
  if (details !== undefined && details !== "") parts.push(details);
  const message = parts.join("\n\n");
  const request = (
    properties: Record<string, ElicitationPropertySchema>,
    required: string[],
  ): Result<ElicitationFormRequest, CardRefusal> =>
    ok({
      method: "elicitation/create",
      params: {
        mode: "form",
        message,
        requestedSchema: required.length > 0
          ? { type: "object", properties, required }
          : { type: "object", properties },
      },
    });
  const p = own(card, "presentation") as CardPresentation<string> | undefined;
  if (p === undefined) return request({}, []);
  if (!isRecord(p)) {
    return err(cardRefusal("invalid-card", "presentation", "presentation must be an object"));
  }
  switch (own(p, "kind")) {
    case "radio":
    case "select":
    case "checkbox": {
      const ids = cardOptionIds(p);
      if (!ids.ok) return ids;
      // MCP requires a string `title` for every choice: a label is mandatory here.
      const labelless = p.options!.findIndex((o) => typeof own(o, "label") !== "string");
      if (labelless !== -1) {
        return err(
          cardRefusal(
            "invalid-card",
            `presentation.options[${labelless}].label`,
            "an option label must be a string (MCP choices need a title)",
          ),
        );
      }
      const choices = p.options!.map((o): ElicitationEnumChoice => {
        const extra = [own(o, "description"), own(o, "hint")].filter((s): s is string =>
          typeof s === "string" && s !== ""
        );
        return {
          const: o.id,
          title: extra.length > 0 ? `${o.label} — ${extra.join(" — ")}` : o.label,
        };
      });
      return p.kind === "checkbox"
        ? request({ optionIds: { type: "array", minItems: 1, items: { anyOf: choices } } }, [
          "optionIds",
        ])
        : request({ optionId: { type: "string", oneOf: choices } }, ["optionId"]);
    }
    case "text": {
      const placeholder = own(p, "placeholder");
      return request(
        {
          text: typeof placeholder === "string" && placeholder !== ""
            ? { type: "string", minLength: 1, description: placeholder }
            : { type: "string", minLength: 1 },
        },
        ["text"],
      );
    }
    case "slider": {
      const b = sliderBounds(p);
      if (!b.ok) return b;
      const { min, max, step } = b.value;
      let type: "number" | "integer" = "number";
      if (step !== undefined) {
        if (step === 1 && Number.isInteger(min ?? 0)) type = "integer";
        else {return notExpressible(
            "presentation.step",
            `MCP number fields cannot require a step of ${step}`,
          );}
      }
      const schema: ElicitationPropertySchema = { type };
      if (min !== undefined) schema.minimum = min;
      if (max !== undefined) schema.maximum = max;
      return request({ value: schema }, ["value"]);
    }
    case "date": {
      const b = dateBounds(p);
      if (!b.ok) return b;
      if (b.value.min !== undefined) {
        return notExpressible("presentation.min", "MCP date fields have no lower bound");
      }
      if (b.value.max !== undefined) {
        return notExpressible("presentation.max", "MCP date fields have no upper bound");
      }
      return request({ date: { type: "string", format: "date" } }, ["date"]);
    }
    default:
      return notExpressible(
        "presentation.kind",
        `custom card kind ${JSON.stringify(String(own(p, "kind")))} has no MCP form mapping`,
      );
  }
}

/**
 * Map an MCP `ElicitResult` (untrusted) back to a validated card response:
 * `accept` → `submit` with `content` as the value (absent content → `{}`),
 * `decline` → `decline`, `cancel` → `cancel`; the result is then checked by
 * {@link validateCardResponse} (same `options`), so an out-of-range or blank
 * answer is refused, never passed on. A card that
 * {@link cardToElicitation} refuses is refused here with the same refusal.
 * Never throws.
 *
 * @example
 * ```ts
 * import { elicitationResultToCardResponse } from "@papercusp/chat-protocol/cards";
 * const card = { correlationId: "c1", createdAt: 0, prompt: "Name?", allowDecline: true, presentation: { kind: "text" as const } };
 * elicitationResultToCardResponse(card, { action: "accept", content: { text: "Ada" } });
 * // → { ok: true, value: { action: "submit", correlationId: "c1", value: { text: "Ada" } } }
 * ```
 */
export function elicitationResultToCardResponse(
  card: OpenCardSnapshot<string>,
  result: unknown,
  options: CardValidationOptions = {},
): Result<CardResponse, CardRefusal> {
  const expressible = cardToElicitation(card, options);
  if (!expressible.ok) return expressible;
  if (!isRecord(result)) {
    return err(cardRefusal("invalid-response", "", "an elicitation result must be an object"));
  }
  let action: unknown, content: unknown, correlationId: unknown;
  try {
    action = own(result, "action");
    content = own(result, "content");
    correlationId = own(card, "correlationId");
  } catch {
    // a throwing getter or a proxy trap: nothing of it is passed on
    return err(cardRefusal("invalid-response", "", "the elicitation result could not be read"));
  }
  if (action === "decline" || action === "cancel") {
    return validateCardResponse(card, { action, correlationId }, options);
  }
  if (action !== "accept") {
    return err(
      cardRefusal("invalid-response", "action", 'action must be "accept", "decline" or "cancel"'),
    );
  }
  if (content !== undefined && !isRecord(content)) {
    return err(cardRefusal("invalid-response", "content", "content must be an object"));
  }
  return validateCardResponse(
    card,
    { action: "submit", correlationId, value: content ?? {} },
    options,
  );
}
