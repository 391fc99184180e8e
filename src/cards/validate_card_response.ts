/**
 * Per-kind validation of card answers, with an extension point for
 * product-defined card kinds.
 *
 * @module
 */
import { CardArgumentError } from "./errors.ts";
import { err, ok, type Refusal, type Result } from "../result.ts";
import { isRecord, own } from "../_internal/guards.ts";
import { describeThrown, describeValue, quoteClipped } from "../_internal/describe.ts";
import { readOptions } from "../_internal/fields.ts";
import { BUILTIN_KINDS } from "./kinds.ts";
import type {
  CardOption,
  CardPresentation,
  CardPresentationKind,
  CardResponse,
  OpenCardSnapshot,
} from "./types.ts";

/** Stable refusal codes of the cards module. */
export type CardRefusalCode =
  /** The response is not a `{action, correlationId, value?}` object of the right types. */
  | "invalid-response"
  /** The response's `correlationId` is not the card's. */
  | "correlation-mismatch"
  /** `decline` on a card that does not allow it. */
  | "decline-not-allowed"
  /** The card itself is malformed for its kind (e.g. radio without options). */
  | "invalid-card"
  /** `presentation.kind` is neither built in nor registered. */
  | "unknown-kind"
  /** A required answer field is absent. */
  | "missing-field"
  /** The answer carries a field this kind does not define. */
  | "unexpected-field"
  /** An answer field has the wrong type. */
  | "invalid-value"
  /** An option id the card does not offer. */
  | "unknown-option"
  /** The same option id twice. */
  | "duplicate-option"
  /** A checkbox answer with no option. */
  | "empty-selection"
  /** A slider value or date outside `min`/`max`. */
  | "out-of-range"
  /** A slider value not on `step`. */
  | "off-step"
  /** Not a real ISO `YYYY-MM-DD` calendar date. */
  | "invalid-date"
  /** A text answer that is empty or whitespace only. */
  | "blank-text"
  /** The card cannot be expressed in the target format (MCP elicitation) without loss. */
  | "not-expressible";

/**
 * A card refusal: `code`, a human `message`, and the `field` it concerns as a
 * path (`"value.optionIds[2]"`, `"correlationId"`, `"presentation.options"`).
 */
export interface CardRefusal extends Refusal<CardRefusalCode> {
  /** Path of the offending field, e.g. `value.optionIds[2]`, `correlationId`, `presentation.options`; `""` for the whole input. */
  readonly field: string;
}

/** A card answer's `value`. */
export type CardValue = Record<string, unknown>;

/**
 * Validator of one custom card kind: receives the card's presentation, the
 * submitted `value` (an own-keys-only fresh copy) and the card; returns the
 * accepted value (build a fresh object) or a {@link CardRefusal}.
 */
export type CardKindValidator<K extends string = string> = (
  presentation: CardPresentation<K>,
  value: CardValue,
  card: OpenCardSnapshot<K>,
) => Result<CardValue, CardRefusal>;

/** Options shared by the validation entry points. */
export interface CardValidationOptions {
  /**
   * Whether `decline` is allowed when the card's `allowDecline` is absent
   * (or `null`). Only `true` allows it; any other value counts as `false`.
   * Default `false`: on the wire, decline is allowed only if
   * `allowDecline === true` (scout-chat shows the decline button only for a
   * truthy `allowDecline`). Note that tooldef's server-side `CardSpec`
   * defaults to `true` (only an explicit `false` refuses): pass `true` here to
   * mirror a tooldef server for cards whose snapshot omits the field.
   */
  readonly allowDeclineDefault?: boolean;
}

/** Options of {@link createCardValidator}. */
export interface CardValidatorOptions<X extends string> extends CardValidationOptions {
  /** Validators of product-defined kinds, by kind name. Built-in kinds cannot be overridden. */
  readonly kinds?: { readonly [P in X]: CardKindValidator<CardPresentationKind | X> };
}

/** A card answer validator (see {@link createCardValidator}). */
export interface CardValidator<K extends string> {
  /** Validate `response` (untrusted) against `card`; see {@link validateCardResponse}. */
  validate(card: OpenCardSnapshot<K>, response: unknown): Result<CardResponse, CardRefusal>;
  /** Whether a custom validator is registered for `kind` (never for a built-in kind name). */
  hasKind(kind: string): boolean;
}

/** Build a {@link CardRefusal}. */
export function cardRefusal(code: CardRefusalCode, field: string, message: string): CardRefusal {
  return { code, message, field };
}

const refuse = (code: CardRefusalCode, field: string, message: string) =>
  err(cardRefusal(code, field, message));

/** Refuse the first key of `value` not in `allowed`. */
function onlyKeys(value: CardValue, allowed: readonly string[]): CardRefusal | null {
  for (const k of Object.keys(value)) {
    if (!allowed.includes(k)) {
      return cardRefusal(
        "unexpected-field",
        `value.${k}`,
        `this card's answer has no field ${quoteClipped(k, 64)}`,
      );
    }
  }
  return null;
}

/**
 * The answer's single field `name`: any other key → `unexpected-field`; an
 * absent (or `undefined`) `name` → `missing-field` with message `missing`.
 */
function onlyField(value: CardValue, name: string, missing: string): Result<unknown, CardRefusal> {
  const extra = onlyKeys(value, [name]);
  if (extra) return err(extra);
  const v = own(value, name);
  return v === undefined ? refuse("missing-field", `value.${name}`, missing) : ok(v);
}

/** A text answer: a string that is not blank. */
function textAnswer(text: unknown): Result<CardValue, CardRefusal> {
  if (typeof text !== "string") {
    return refuse("invalid-value", "value.text", "text must be a string");
  }
  if (text.trim() === "") return refuse("blank-text", "value.text", "the answer is blank");
  return ok({ text });
}

/** `true` for a real calendar date written `YYYY-MM-DD` (years 0000–9999). */
export function isIsoDate(s: unknown): s is string {
  if (typeof s !== "string" || s.length !== 10 || s[4] !== "-" || s[7] !== "-") return false;
  for (const i of [0, 1, 2, 3, 5, 6, 8, 9]) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  const y = Number(s.slice(0, 4));
  const m = Number(s.slice(5, 7));
  const d = Number(s.slice(8, 10));
  if (m < 1 || m > 12 || d < 1) return false;
  const dim = [
    31,
    (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28,
    31,
    30,
    31,
    30,
    31,
    31,
    30,
    31,
    30,
    31,
  ];
  return d <= dim[m - 1];
}

/** The card's options, checked: a non-empty array of `{id: string}` with unique ids. */
export function cardOptionIds(p: CardPresentation<string>): Result<string[], CardRefusal> {
  const options = own(p, "options");
  if (!Array.isArray(options) || options.length === 0) {
    return refuse(
      "invalid-card",
      "presentation.options",
      `a ${p.kind} card needs at least one option`,
    );
  }
  const ids: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < options.length; i++) {
    const o = options[i] as Partial<CardOption> | null;
    if (!isRecord(o) || typeof own(o, "id") !== "string") {
      return refuse(
        "invalid-card",
        `presentation.options[${i}].id`,
        "an option id must be a string",
      );
    }
    const id = o.id as string;
    if (seen.has(id)) {
      return refuse(
        "invalid-card",
        `presentation.options[${i}].id`,
        `option id ${quoteClipped(id, 64)} appears twice`,
      );
    }
    seen.add(id);
    ids.push(id);
  }
  return ok(ids);
}

/** Checked numeric slider bounds and step. */
export function sliderBounds(
  p: CardPresentation<string>,
): Result<{ min?: number; max?: number; step?: number }, CardRefusal> {
  const out: { min?: number; max?: number; step?: number } = {};
  for (const k of ["min", "max", "step"] as const) {
    const v = own(p, k);
    if (v === undefined) continue;
    if (typeof v !== "number" || !Number.isFinite(v)) {
      return refuse("invalid-card", `presentation.${k}`, `slider ${k} must be a finite number`);
    }
    out[k] = v;
  }
  if (out.min !== undefined && out.max !== undefined && out.min > out.max) {
    return refuse("invalid-card", "presentation.max", "slider max is below min");
  }
  if (out.step !== undefined && !(out.step > 0)) {
    return refuse("invalid-card", "presentation.step", "slider step must be positive");
  }
  return ok(out);
}

/** Checked ISO date bounds. */
export function dateBounds(
  p: CardPresentation<string>,
): Result<{ min?: string; max?: string }, CardRefusal> {
  const out: { min?: string; max?: string } = {};
  for (const k of ["min", "max"] as const) {
    const v = own(p, k);
    if (v === undefined) continue;
    if (!isIsoDate(v)) {
      return refuse(
        "invalid-card",
        `presentation.${k}`,
        `date ${k} must be an ISO YYYY-MM-DD date`,
      );
    }
    out[k] = v;
  }
  if (out.min !== undefined && out.max !== undefined && out.min > out.max) {
    return refuse("invalid-card", "presentation.max", "date max is before min");
  }
  return ok(out);
}

/**
 * `true` when `value` is on the grid `base + k·step` for an integer `k`,
 * tolerant of binary floating point (a step of 0.1 accepts
 * `0.30000000000000004`): `value` may be off the nearest grid point by at
 * most 1e-9 of a step, or by the rounding error of numbers of that magnitude
 * (16 ulps of `max(|value|, |base|)`). Never more: a half step is refused at
 * any magnitude (`1e12 + 0.5` is not on a step of 1).
 */
function isOnStep(value: number, base: number, step: number): boolean {
  const k = Math.round((value - base) / step);
  if (!Number.isFinite(k)) return false;
  const off = Math.abs(value - (base + k * step));
  return off <= 1e-9 * step ||
    off <= 16 * Number.EPSILON * Math.max(Math.abs(value), Math.abs(base));
}

function validateBuiltin(
  p: CardPresentation<string>,
  value: CardValue,
): Result<CardValue, CardRefusal> {
  switch (own(p, "kind")) {
    case "radio":
    case "select": {
      const ids = cardOptionIds(p);
      if (!ids.ok) return ids;
      const f = onlyField(value, "optionId", "pick one option");
      if (!f.ok) return f;
      const id = f.value;
      if (typeof id !== "string") {
        return refuse("invalid-value", "value.optionId", "optionId must be a string");
      }
      if (!new Set(ids.value).has(id)) {
        return refuse(
          "unknown-option",
          "value.optionId",
          `${quoteClipped(id, 64)} is not one of this card's options`,
        );
      }
      return ok({ optionId: id });
    }
    case "checkbox": {
      const ids = cardOptionIds(p);
      if (!ids.ok) return ids;
      const f = onlyField(value, "optionIds", "pick at least one option");
      if (!f.ok) return f;
      const picked = f.value;
      if (!Array.isArray(picked)) {
        return refuse("invalid-value", "value.optionIds", "optionIds must be an array");
      }
      if (picked.length === 0) {
        return refuse("empty-selection", "value.optionIds", "pick at least one option");
      }
      const known = new Set(ids.value);
      const seen = new Set<string>();
      for (let i = 0; i < picked.length; i++) {
        const id = picked[i];
        const f = `value.optionIds[${i}]`;
        if (typeof id !== "string") {
          return refuse("invalid-value", f, "an option id must be a string");
        }
        if (seen.has(id)) {
          return refuse("duplicate-option", f, `${quoteClipped(id, 64)} is picked twice`);
        }
        if (!known.has(id)) {
          return refuse(
            "unknown-option",
            f,
            `${quoteClipped(id, 64)} is not one of this card's options`,
          );
        }
        seen.add(id);
      }
      return ok({ optionIds: [...seen] });
    }
    case "text": {
      const f = onlyField(value, "text", "type an answer");
      return f.ok ? textAnswer(f.value) : f;
    }
    case "slider": {
      const b = sliderBounds(p);
      if (!b.ok) return b;
      const f = onlyField(value, "value", "choose a value");
      if (!f.ok) return f;
      const v = f.value;
      if (typeof v !== "number" || !Number.isFinite(v)) {
        return refuse("invalid-value", "value.value", "the slider value must be a finite number");
      }
      const { min, max, step } = b.value;
      if ((min !== undefined && v < min) || (max !== undefined && v > max)) {
        return refuse(
          "out-of-range",
          "value.value",
          `${v} is outside ${min ?? "-∞"}…${max ?? "∞"}`,
        );
      }
      if (step !== undefined && !isOnStep(v, min ?? 0, step)) {
        return refuse(
          "off-step",
          "value.value",
          `${v} is not on a step of ${step} from ${min ?? 0}`,
        );
      }
      return ok({ value: v });
    }
    case "date": {
      const b = dateBounds(p);
      if (!b.ok) return b;
      const f = onlyField(value, "date", "choose a date");
      if (!f.ok) return f;
      const d = f.value;
      if (!isIsoDate(d)) {
        return refuse("invalid-date", "value.date", "the date must be a real YYYY-MM-DD date");
      }
      const { min, max } = b.value;
      if ((min !== undefined && d < min) || (max !== undefined && d > max)) {
        return refuse("out-of-range", "value.date", `${d} is outside ${min ?? "…"}–${max ?? "…"}`);
      }
      return ok({ date: d });
    }
    default:
      return refuse(
        "unknown-kind",
        "presentation.kind",
        `unknown card kind ${describeValue(own(p, "kind"))}`,
      );
  }
}

/**
 * Answer rules of a card WITHOUT a presentation ("confirm" cards: plain
 * prompt, approval card, report-only card). Submit means "yes / OK":
 * - approval card: `{}` or `{ confirmed: true }`;
 * - otherwise also `{ text: "<non-blank>" }` — what scout-chat POSTs, since it
 *   renders a text input for presentation-less cards.
 * `{ confirmed: false }` is refused: send `decline` (or `cancel`) instead.
 */
function validateConfirm(
  card: OpenCardSnapshot<string>,
  value: CardValue,
): Result<CardValue, CardRefusal> {
  const isApproval = own(card, "approval") !== undefined;
  if (!isApproval && Object.hasOwn(value, "text")) {
    const extra = onlyKeys(value, ["text"]);
    return extra ? err(extra) : textAnswer(own(value, "text"));
  }
  const extra = onlyKeys(value, ["confirmed"]);
  if (extra) return err(extra);
  if (!Object.hasOwn(value, "confirmed")) return ok({});
  if (own(value, "confirmed") !== true) {
    return refuse(
      "invalid-value",
      "value.confirmed",
      "confirmed must be true; decline or cancel to say no",
    );
  }
  return ok({ confirmed: true });
}

/**
 * Build a validator that also knows product-defined card kinds. Its
 * `validate` never throws: a card or response it cannot read (a throwing
 * getter, a revoked proxy), or a product validator that throws, is an
 * `invalid-card` refusal.
 *
 * @throws {CardArgumentError} `invalid-options` when `options` cannot be read (a throwing getter or a
 *   revoked proxy: a programmer's mistake)
 *
 * @example
 * ```ts
 * import { createCardValidator, cardRefusal, type OpenCardSnapshot } from "@papercusp/chat-protocol/cards";
 * import { err, ok } from "@papercusp/chat-protocol";
 * const v = createCardValidator<"rating">({
 *   kinds: {
 *     rating: (_p, value) =>
 *       typeof value.stars === "number" && value.stars >= 1 && value.stars <= 5
 *         ? ok({ stars: value.stars })
 *         : err(cardRefusal("out-of-range", "value.stars", "1 to 5 stars")),
 *   },
 * });
 * const card: OpenCardSnapshot<"rating"> = { correlationId: "c1", createdAt: 0, prompt: "Rate", presentation: { kind: "rating" } };
 * v.validate(card, { action: "submit", correlationId: "c1", value: { stars: 4 } }).ok; // → true
 * ```
 */
export function createCardValidator<X extends string = never>(
  options: CardValidatorOptions<X> = {},
): CardValidator<CardPresentationKind | X> {
  const kinds = new Map<string, CardKindValidator<CardPresentationKind | X>>();
  let allowDeclineDefault = false;
  let readable = false;
  try {
    const o = readOptions(options, ["kinds", "allowDeclineDefault"]);
    if (o !== null) {
      const given = o.kinds;
      if (typeof given === "object" && given !== null) {
        for (const k of Object.keys(given)) {
          const fn = (given as Record<string, CardKindValidator<CardPresentationKind | X>>)[k];
          // A built-in name is ignored: built-in kinds cannot be overridden.
          if (typeof fn === "function" && !BUILTIN.has(k)) kinds.set(k, fn);
        }
      }
      allowDeclineDefault = o.allowDeclineDefault === true;
      readable = true;
    }
  } catch {
    readable = false;
  }
  if (!readable) {
    throw new CardArgumentError(
      "invalid-options",
      "createCardValidator's options could not be read (a throwing getter or a revoked proxy)",
    );
  }
  return {
    hasKind: (kind) => kinds.has(kind),
    validate(card, response) {
      try {
        return validate(card, response);
      } catch (e) {
        // A hostile card or response (throwing getter, revoked proxy), or a product kind's
        // validator that threw: refused, never thrown.
        return refuse("invalid-card", "", `validation failed: ${describeThrown(e, 200)}`);
      }
    },
  };

  function validate(
    card: OpenCardSnapshot<CardPresentationKind | X>,
    response: unknown,
  ): Result<CardResponse, CardRefusal> {
    if (!isRecord(card) || typeof own(card, "correlationId") !== "string") {
      return refuse("invalid-card", "correlationId", "the card has no string correlationId");
    }
    if (!isRecord(response)) {
      return refuse("invalid-response", "", "a card response must be an object");
    }
    const action = own(response, "action");
    if (action !== "submit" && action !== "decline" && action !== "cancel") {
      return refuse("invalid-response", "action", 'action must be "submit", "decline" or "cancel"');
    }
    const correlationId = own(response, "correlationId");
    if (typeof correlationId !== "string") {
      return refuse("invalid-response", "correlationId", "correlationId must be a string");
    }
    if (correlationId !== card.correlationId) {
      return refuse(
        "correlation-mismatch",
        "correlationId",
        "this response answers a different card",
      );
    }
    // Cancel is always allowed: the person dismissed the card (the server
    // also resolves timeouts and run cancellation as cancel).
    if (action === "cancel") return ok({ action, correlationId });
    if (action === "decline") {
      const allowed = own(card, "allowDecline") ?? allowDeclineDefault;
      if (allowed !== true) {
        return refuse("decline-not-allowed", "action", "this card does not allow decline");
      }
      return ok({ action, correlationId });
    }
    const rawValue = own(response, "value");
    if (!isRecord(rawValue)) {
      return refuse("invalid-response", "value", "a submit needs a value object");
    }
    const value: CardValue = {};
    for (const k of Object.keys(rawValue)) {
      Object.defineProperty(value, k, {
        value: rawValue[k],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    const p = own(card, "presentation") as CardPresentation<CardPresentationKind | X> | undefined;
    let result: Result<CardValue, CardRefusal>;
    if (p === undefined) result = validateConfirm(card, value);
    else if (!isRecord(p)) {
      return refuse("invalid-card", "presentation", "presentation must be an object");
    } else {
      const kind = own(p, "kind") as string;
      const custom = kinds.get(kind);
      result = custom !== undefined ? custom(p, value, card) : validateBuiltin(p, value);
    }
    if (!result.ok) return result;
    return ok({ action: "submit", correlationId, value: result.value });
  }
}

const BUILTIN = new Set<string>(BUILTIN_KINDS);

const defaultValidators = new Map<boolean, CardValidator<string>>();

/**
 * Validate an untrusted card answer against its card. Returns the answer
 * rebuilt from fresh objects (own fields only, unknown response keys
 * dropped) or a {@link CardRefusal} naming the field and the reason.
 * Never throws.
 *
 * Rules:
 * - `response` is `{ action: "submit" | "decline" | "cancel", correlationId,
 *   value? }` and `correlationId` must equal the card's
 *   (`correlation-mismatch`).
 * - `cancel`: always allowed.
 * - `decline`: only if `card.allowDecline === true` (absent or `null` → see
 *   {@link CardValidationOptions.allowDeclineDefault}, default `false`).
 * - `submit`: `value` must be an object; per kind — radio/select
 *   `{ optionId }` one of the options; checkbox `{ optionIds }` non-empty,
 *   unique, all known; text `{ text }` not blank; slider `{ value }` a finite
 *   number within `min`/`max` and on `step` counted from `min` (float steps
 *   such as 0.1 are compared with a tolerance of 1e-9 of a step or the
 *   rounding error of the values' magnitude — never half a step); date
 *   `{ date }` a real `YYYY-MM-DD` date within `min`/`max`. Any other key is
 *   `unexpected-field`. Note: scout-chat renders select, slider and date
 *   cards as a plain text input and POSTs `{ text }` for them; such answers
 *   are refused here (`unexpected-field`): a host serving that client must
 *   map the text to the kind's field first.
 * - Presentation-less ("confirm") cards — plain prompt, approval, report-only:
 *   `{}` or `{ confirmed: true }`; a non-approval card also accepts
 *   `{ text }` (not blank), which is what scout-chat sends.
 * - Product kinds: use {@link createCardValidator}; here they are
 *   `unknown-kind`.
 *
 * @example
 * ```ts
 * import { validateCardResponse, type OpenCardSnapshot } from "@papercusp/chat-protocol/cards";
 * const card: OpenCardSnapshot = {
 *   correlationId: "c1", createdAt: 0, prompt: "Which?",
 *   presentation: { kind: "radio", options: [{ id: "a", label: "A" }] },
 * };
 * validateCardResponse(card, { action: "submit", correlationId: "c1", value: { optionId: "a" } });
 * // → { ok: true, value: { action: "submit", correlationId: "c1", value: { optionId: "a" } } }
 * validateCardResponse(card, { action: "submit", correlationId: "c1", value: { optionId: "b" } });
 * // → { ok: false, error: { code: "unknown-option", field: "value.optionId", message: … } }
 * ```
 */
export function validateCardResponse(
  card: OpenCardSnapshot<string>,
  response: unknown,
  options: CardValidationOptions = {},
): Result<CardResponse, CardRefusal> {
  // Normalised to a boolean so the cache holds at most two validators
  // whatever a caller passes (only `true` allows decline anyway; options that
  // cannot be read allow nothing).
  const key = readOptions(options, ["allowDeclineDefault"])?.allowDeclineDefault === true;
  let v = defaultValidators.get(key);
  if (v === undefined) {
    v = createCardValidator({ allowDeclineDefault: key }) as unknown as CardValidator<string>;
    defaultValidators.set(key, v);
  }
  return v.validate(card, response);
}
