/**
 * Card answers (`validateCardResponse`): a card and an untrusted response →
 * the rebuilt answer, or the refusal code and the field it concerns.
 *
 * @module
 */
import type { CaseDef, CaseGroup } from "./_def.ts";
import type { Json, JsonObject } from "../../conformance/ts/kinds.ts";

const card = (presentation?: JsonObject, extra: JsonObject = {}): JsonObject => ({
  correlationId: "q1",
  prompt: "Which?",
  createdAt: 0,
  ...(presentation === undefined ? {} : { presentation }),
  ...extra,
});
const opts = (...ids: string[]) => ids.map((id) => ({ id, label: id.toUpperCase() }));
const radio = card({ kind: "radio", options: opts("a", "b") });
const select = card({ kind: "select", options: opts("a", "b") });
const checkbox = card({ kind: "checkbox", options: opts("a", "b", "c") });
const text = card({ kind: "text", placeholder: "…" });
const slider = card({ kind: "slider", min: 0, max: 10, step: 0.5 });
const date = card({ kind: "date", min: "2026-01-01", max: "2026-12-31" });
const confirm = card();
const approval = card(undefined, {
  approval: { title: "Update(a.js)", question: "Apply?", body: ["+1"] },
});

const submit = (value: Json, correlationId = "q1"): JsonObject => ({
  action: "submit",
  correlationId,
  value,
});

function answer(
  id: string,
  description: string,
  kill: string,
  c: JsonObject,
  response: Json,
  want: JsonObject,
  allowDeclineDefault?: boolean,
): CaseDef {
  return {
    id: `card-answer.${id}`,
    kind: "card-answer",
    description,
    kill,
    input: allowDeclineDefault === undefined
      ? { card: c, response }
      : { card: c, response, allowDeclineDefault },
    want,
  };
}
const yes = (value: Json): JsonObject => ({ ok: true, value });
const no = (code: string, field: string): JsonObject => ({ ok: false, code, field });

const general: CaseDef[] = [
  answer("cancel", "cancel is always allowed", "cards.answer.cancel-always", radio, {
    action: "cancel",
    correlationId: "q1",
  }, yes({ action: "cancel", correlationId: "q1" })),
  answer(
    "cancel-no-decline",
    "cancel is allowed where decline is not",
    "cards.answer.cancel-always",
    card(undefined, { allowDecline: false }),
    { action: "cancel", correlationId: "q1" },
    yes({ action: "cancel", correlationId: "q1" }),
  ),
  answer(
    "decline-allowed",
    "decline when allowDecline is true",
    "cards.answer.decline",
    card(undefined, { allowDecline: true }),
    { action: "decline", correlationId: "q1" },
    yes({ action: "decline", correlationId: "q1" }),
  ),
  answer(
    "decline-absent",
    "decline is refused when allowDecline is absent",
    "cards.answer.decline",
    radio,
    { action: "decline", correlationId: "q1" },
    no("decline-not-allowed", "action"),
  ),
  answer(
    "decline-default",
    "allowDeclineDefault true allows it when the card is silent",
    "cards.answer.decline",
    radio,
    { action: "decline", correlationId: "q1" },
    yes({ action: "decline", correlationId: "q1" }),
    true,
  ),
  answer(
    "decline-false-wins",
    "an explicit allowDecline false wins over the default",
    "cards.answer.decline",
    card(undefined, { allowDecline: false }),
    { action: "decline", correlationId: "q1" },
    no("decline-not-allowed", "action"),
    true,
  ),
  answer(
    "decline-truthy",
    'allowDecline "yes" is not true',
    "cards.answer.decline",
    card(undefined, { allowDecline: "yes" }),
    { action: "decline", correlationId: "q1" },
    no("decline-not-allowed", "action"),
  ),
  answer(
    "mismatch",
    "an answer to another card is refused",
    "cards.answer.correlation",
    radio,
    submit({ optionId: "a" }, "q2"),
    no("correlation-mismatch", "correlationId"),
  ),
  answer(
    "not-object",
    "a response that is not an object",
    "cards.answer.response-shape",
    radio,
    "a",
    no("invalid-response", ""),
  ),
  answer("bad-action", "accept is not a card action", "cards.answer.response-shape", radio, {
    action: "accept",
    correlationId: "q1",
  }, no("invalid-response", "action")),
  answer(
    "no-correlation",
    "a response without correlationId",
    "cards.answer.response-shape",
    radio,
    { action: "cancel" },
    no("invalid-response", "correlationId"),
  ),
  answer(
    "value-array",
    "a submit value that is an array",
    "cards.answer.response-shape",
    radio,
    submit([]),
    no("invalid-response", "value"),
  ),
  answer("value-missing", "a submit without value", "cards.answer.response-shape", radio, {
    action: "submit",
    correlationId: "q1",
  }, no("invalid-response", "value")),
  answer(
    "rebuilt",
    "unknown response keys are dropped from the accepted answer",
    "cards.answer.rebuilt",
    radio,
    { action: "submit", correlationId: "q1", value: { optionId: "b" }, via: "telegram" },
    yes({ action: "submit", correlationId: "q1", value: { optionId: "b" } }),
  ),
  answer(
    "rebuilt-cancel",
    "a cancel keeps only action and correlationId",
    "cards.answer.rebuilt",
    radio,
    { action: "cancel", correlationId: "q1", value: { optionId: "a" } },
    yes({ action: "cancel", correlationId: "q1" }),
  ),
];

const kinds: CaseDef[] = [
  answer(
    "radio",
    "radio: one of the options",
    "cards.answer.choice",
    radio,
    submit({ optionId: "a" }),
    yes({ action: "submit", correlationId: "q1", value: { optionId: "a" } }),
  ),
  answer(
    "radio-unknown",
    "radio: an id the card does not offer",
    "cards.answer.choice",
    radio,
    submit({ optionId: "z" }),
    no("unknown-option", "value.optionId"),
  ),
  answer(
    "radio-number",
    "radio: optionId is a string",
    "cards.answer.choice",
    radio,
    submit({ optionId: 1 }),
    no("invalid-value", "value.optionId"),
  ),
  answer(
    "radio-missing",
    "radio: no optionId",
    "cards.answer.choice",
    radio,
    submit({}),
    no("missing-field", "value.optionId"),
  ),
  answer(
    "select",
    "select answers like radio",
    "cards.answer.choice",
    select,
    submit({ optionId: "b" }),
    yes({ action: "submit", correlationId: "q1", value: { optionId: "b" } }),
  ),
  answer(
    "select-text",
    "select refuses scout-chat's {text} answer",
    "cards.answer.only-kind-fields",
    select,
    submit({ text: "b" }),
    no("unexpected-field", "value.text"),
  ),
  answer(
    "checkbox",
    "checkbox: unique known ids",
    "cards.answer.checkbox",
    checkbox,
    submit({ optionIds: ["c", "a"] }),
    yes({ action: "submit", correlationId: "q1", value: { optionIds: ["c", "a"] } }),
  ),
  answer(
    "checkbox-empty",
    "checkbox: at least one option",
    "cards.answer.checkbox",
    checkbox,
    submit({ optionIds: [] }),
    no("empty-selection", "value.optionIds"),
  ),
  answer(
    "checkbox-duplicate",
    "checkbox: an id twice",
    "cards.answer.checkbox",
    checkbox,
    submit({ optionIds: ["a", "a"] }),
    no("duplicate-option", "value.optionIds[1]"),
  ),
  answer(
    "checkbox-unknown",
    "checkbox: an unknown id names its index",
    "cards.answer.checkbox",
    checkbox,
    submit({ optionIds: ["a", "z"] }),
    no("unknown-option", "value.optionIds[1]"),
  ),
  answer(
    "checkbox-not-array",
    "checkbox: optionIds is an array",
    "cards.answer.checkbox",
    checkbox,
    submit({ optionIds: "a" }),
    no("invalid-value", "value.optionIds"),
  ),
  answer(
    "text",
    "text: a non-blank string",
    "cards.answer.text",
    text,
    submit({ text: " hi " }),
    yes({ action: "submit", correlationId: "q1", value: { text: " hi " } }),
  ),
  answer(
    "text-blank",
    "text: whitespace only is blank",
    "cards.answer.text",
    text,
    submit({ text: " \n\t" }),
    no("blank-text", "value.text"),
  ),
  answer(
    "text-number",
    "text: a number is not text",
    "cards.answer.text",
    text,
    submit({ text: 5 }),
    no("invalid-value", "value.text"),
  ),
  answer(
    "text-extra",
    "text: another field is unexpected",
    "cards.answer.only-kind-fields",
    text,
    submit({ text: "a", lang: "en" }),
    no("unexpected-field", "value.lang"),
  ),
  answer(
    "slider",
    "slider: a value on the step",
    "cards.answer.slider",
    slider,
    submit({ value: 2.5 }),
    yes({ action: "submit", correlationId: "q1", value: { value: 2.5 } }),
  ),
  answer(
    "slider-bounds",
    "slider: min and max are inclusive",
    "cards.answer.slider",
    slider,
    submit({ value: 10 }),
    yes({ action: "submit", correlationId: "q1", value: { value: 10 } }),
  ),
  answer(
    "slider-float-step",
    "slider: 0.1 steps tolerate binary rounding",
    "cards.answer.slider",
    card({ kind: "slider", step: 0.1 }),
    submit({ value: 0.30000000000000004 }),
    yes({ action: "submit", correlationId: "q1", value: { value: 0.30000000000000004 } }),
  ),
  answer(
    "slider-off-step",
    "slider: a value between steps",
    "cards.answer.slider",
    slider,
    submit({ value: 2.25 }),
    no("off-step", "value.value"),
  ),
  answer(
    "slider-above",
    "slider: above max",
    "cards.answer.slider",
    slider,
    submit({ value: 10.5 }),
    no("out-of-range", "value.value"),
  ),
  answer(
    "slider-below",
    "slider: below min",
    "cards.answer.slider",
    slider,
    submit({ value: -0.5 }),
    no("out-of-range", "value.value"),
  ),
  answer(
    "slider-string",
    "slider: a numeric string is not a number",
    "cards.answer.slider",
    slider,
    submit({ value: "5" }),
    no("invalid-value", "value.value"),
  ),
  answer(
    "date",
    "date: a real date in range",
    "cards.answer.date",
    date,
    submit({ date: "2026-02-28" }),
    yes({ action: "submit", correlationId: "q1", value: { date: "2026-02-28" } }),
  ),
  answer(
    "date-feb-29",
    "date: 2026 has no February 29th",
    "cards.answer.date",
    date,
    submit({ date: "2026-02-29" }),
    no("invalid-date", "value.date"),
  ),
  answer(
    "date-leap",
    "date: 2028-02-29 exists",
    "cards.answer.date",
    card({ kind: "date" }),
    submit({ date: "2028-02-29" }),
    yes({ action: "submit", correlationId: "q1", value: { date: "2028-02-29" } }),
  ),
  answer(
    "date-format",
    "date: YYYY-MM-DD only",
    "cards.answer.date",
    date,
    submit({ date: "2026-3-1" }),
    no("invalid-date", "value.date"),
  ),
  answer(
    "date-out",
    "date: after max",
    "cards.answer.date",
    date,
    submit({ date: "2027-01-01" }),
    no("out-of-range", "value.date"),
  ),
  answer(
    "confirm-empty",
    "a confirm card is answered by {}",
    "cards.answer.confirm",
    confirm,
    submit({}),
    yes({ action: "submit", correlationId: "q1", value: {} }),
  ),
  answer(
    "confirm-true",
    "or by {confirmed: true}",
    "cards.answer.confirm",
    confirm,
    submit({ confirmed: true }),
    yes({ action: "submit", correlationId: "q1", value: { confirmed: true } }),
  ),
  answer(
    "confirm-text",
    "a plain confirm card also takes scout-chat's {text}",
    "cards.answer.confirm",
    confirm,
    submit({ text: "yes please" }),
    yes({ action: "submit", correlationId: "q1", value: { text: "yes please" } }),
  ),
  answer(
    "confirm-false",
    "confirmed false is refused: decline or cancel instead",
    "cards.answer.confirm",
    confirm,
    submit({ confirmed: false }),
    no("invalid-value", "value.confirmed"),
  ),
  answer(
    "approval-text",
    "an approval card does not take {text}",
    "cards.answer.only-kind-fields",
    approval,
    submit({ text: "ok" }),
    no("unexpected-field", "value.text"),
  ),
  answer(
    "confirm-blank-text",
    "a confirm card's text must not be blank",
    "cards.answer.confirm",
    confirm,
    submit({ text: "  " }),
    no("blank-text", "value.text"),
  ),
];

const cardsMalformed: CaseDef[] = [
  answer(
    "radio-no-options",
    "a radio card without options refuses every submit",
    "cards.answer.invalid-card",
    card({ kind: "radio" }),
    submit({ optionId: "a" }),
    no("invalid-card", "presentation.options"),
  ),
  answer(
    "radio-repeated-ids",
    "repeated option ids make the card invalid",
    "cards.answer.invalid-card",
    card({ kind: "checkbox", options: [...opts("a"), ...opts("a")] }),
    submit({ optionIds: ["a"] }),
    no("invalid-card", "presentation.options[1].id"),
  ),
  answer(
    "slider-step-zero",
    "a slider step of 0 is invalid",
    "cards.answer.invalid-card",
    card({ kind: "slider", step: 0 }),
    submit({ value: 1 }),
    no("invalid-card", "presentation.step"),
  ),
  answer(
    "slider-min-max",
    "a slider max below min is invalid",
    "cards.answer.invalid-card",
    card({ kind: "slider", min: 5, max: 1 }),
    submit({ value: 3 }),
    no("invalid-card", "presentation.max"),
  ),
  answer(
    "date-bad-min",
    "a date min that is not a date is invalid",
    "cards.answer.invalid-card",
    card({ kind: "date", min: "soon" }),
    submit({ date: "2026-01-01" }),
    no("invalid-card", "presentation.min"),
  ),
  answer(
    "card-no-correlation",
    "a card without correlationId",
    "cards.answer.invalid-card",
    { prompt: "p", createdAt: 0 },
    { action: "cancel", correlationId: "q1" },
    no("invalid-card", "correlationId"),
  ),
  answer(
    "unknown-kind",
    "a product kind is unknown to the built-in validator",
    "cards.answer.unknown-kind",
    card({ kind: "rating" }),
    submit({ stars: 4 }),
    no("unknown-kind", "presentation.kind"),
  ),
  answer(
    "unknown-kind-cancel",
    "a product-kind card can still be cancelled",
    "cards.answer.cancel-always",
    card({ kind: "rating" }),
    { action: "cancel", correlationId: "q1" },
    yes({ action: "cancel", correlationId: "q1" }),
  ),
];

/** Every card-answer case, grouped into files. */
export const CARD_ANSWER_GROUPS: CaseGroup[] = [
  { file: "card-answer/general.json", cases: general },
  { file: "card-answer/kinds.json", cases: kinds },
  { file: "card-answer/malformed.json", cases: cardsMalformed },
];
