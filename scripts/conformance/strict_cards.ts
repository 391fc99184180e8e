/**
 * Card answer, block and legacy cases where a client's own language tempts
 * it away from the contract: a slider value off the step by less than half a
 * step, ISO 8601 date forms other than extended `YYYY-MM-DD`, JavaScript's
 * `trim` set (U+FEFF is whitespace; U+0085 and U+001C–U+001F are not, unlike
 * Python's `str.strip`), and Scout ids of non-ASCII digits.
 *
 * @module
 */
import type { CaseDef, CaseGroup } from "./_def.ts";
import type { Json, JsonObject } from "../../conformance/ts/kinds.ts";

const card = (presentation: JsonObject): JsonObject => ({
  correlationId: "q1",
  prompt: "Which?",
  createdAt: 0,
  presentation,
});
const submit = (value: Json): JsonObject => ({ action: "submit", correlationId: "q1", value });
const no = (code: string, field: string): JsonObject => ({ ok: false, code, field });

function answer(
  id: string,
  description: string,
  kill: string,
  c: JsonObject,
  value: Json,
  want: JsonObject,
): CaseDef {
  return {
    id: `card-answer.strict.${id}`,
    kind: "card-answer",
    description,
    kill,
    input: { card: c, response: submit(value) },
    want,
  };
}

const slider = card({ kind: "slider", min: 0, max: 10, step: 0.5 });
const date = card({ kind: "date", min: "2026-01-01", max: "2026-12-31" });
const text = card({ kind: "text" });

const answers: CaseDef[] = [
  answer(
    "slider-near-step",
    "slider: 2.3 is 0.2 from the step 2.5 (less than half a step) and still off-step",
    "cards.answer.slider",
    slider,
    { value: 2.3 },
    no("off-step", "value.value"),
  ),
  answer(
    "slider-just-above-step",
    "slider: 2.6 is 0.1 above the step 2.5 and off-step",
    "cards.answer.slider",
    slider,
    { value: 2.6 },
    no("off-step", "value.value"),
  ),
  answer(
    "slider-step-from-min",
    "slider: steps count from min 0.3, so 1 is off-step and 1.3 is on it",
    "cards.answer.slider",
    card({ kind: "slider", min: 0.3, max: 5, step: 0.5 }),
    { value: 1 },
    no("off-step", "value.value"),
  ),
  answer(
    "date-basic-form",
    "date: the basic ISO form 20260301 is not YYYY-MM-DD",
    "cards.answer.date",
    date,
    { date: "20260301" },
    no("invalid-date", "value.date"),
  ),
  answer(
    "date-week-form",
    "date: an ISO week date 2026-W10-1 is not YYYY-MM-DD",
    "cards.answer.date",
    date,
    { date: "2026-W10-1" },
    no("invalid-date", "value.date"),
  ),
  answer(
    "date-ordinal-form",
    "date: an ISO ordinal date 2026-060 is not YYYY-MM-DD",
    "cards.answer.date",
    date,
    { date: "2026-060" },
    no("invalid-date", "value.date"),
  ),
  answer(
    "date-non-ascii-digits",
    "date: Arabic-Indic digits are not digits here",
    "cards.answer.date",
    date,
    { date: "٢٠٢٦-٠٣-٠١" },
    no("invalid-date", "value.date"),
  ),
  answer(
    "text-bom-blank",
    "text: U+FEFF alone is blank (JavaScript trim removes it)",
    "cards.answer.text",
    text,
    { text: "\ufeff" },
    no("blank-text", "value.text"),
  ),
  answer(
    "text-nbsp-ideographic-blank",
    "text: no-break and ideographic spaces alone are blank",
    "cards.answer.text",
    text,
    { text: "\u00a0\u3000\u2028" },
    no("blank-text", "value.text"),
  ),
  answer(
    "text-nel-not-blank",
    "text: U+0085 and U+001C are not in JavaScript's trim set, so the answer is not blank",
    "cards.answer.text",
    text,
    { text: "\u0085\u001c " },
    {
      ok: true,
      value: { action: "submit", correlationId: "q1", value: { text: "\u0085\u001c " } },
    },
  ),
];

function blocks(id: string, description: string, kill: string, t: string, want: Json[]): CaseDef {
  return {
    id: `blocks.strict.${id}`,
    kind: "blocks",
    description,
    kill,
    input: { text: t },
    want: { segments: want },
  };
}

const ASK_BOM = "<ask>\ufeff</ask>";
const ASK_NEL = '<ask>{"question":"\u0085Merge?\u3000","options":[{"id":"\ufeffa"}]}</ask>';

const split: CaseDef[] = [
  blocks(
    "bom-body-empty",
    "a block whose body is one U+FEFF is blank (empty-body), not malformed JSON",
    "blocks.empty-body",
    ASK_BOM,
    [{ kind: "invalid", tag: "ask", raw: ASK_BOM, reason: "empty-body" }],
  ),
  blocks(
    "trim-set",
    "ask strings are trimmed with JavaScript's set: U+3000 and U+FEFF go, U+0085 stays",
    "blocks.ask.normalise",
    ASK_NEL,
    [{
      kind: "ask",
      block: { question: "\u0085Merge?", options: [{ id: "a", label: "a" }] },
      raw: ASK_NEL,
    }],
  ),
];

const scout = (id: string): JsonObject => ({
  id,
  data: JSON.stringify({ type: "token", content: "a" }),
});

const legacy: CaseDef[] = [
  {
    id: "legacy.strict.scout-id-arabic-digit",
    kind: "legacy",
    description: "a Scout id of an Arabic-Indic digit (١) is invalid-id: ids are ASCII digits",
    kill: "legacy.scout.decimal-id",
    input: {
      context: { dialect: "scout", conversationId: "c1", turnId: "t1" },
      frames: [scout("١")],
    },
    want: { results: [{ ok: false, code: "invalid-id" }] },
  },
  {
    id: "legacy.strict.scout-id-fullwidth-digit",
    kind: "legacy",
    description: "a Scout id of fullwidth digits (１２) is invalid-id",
    kill: "legacy.scout.decimal-id",
    input: {
      context: { dialect: "scout", conversationId: "c1", turnId: "t1" },
      frames: [scout("１２")],
    },
    want: { results: [{ ok: false, code: "invalid-id" }] },
  },
];

legacy.push({
  id: "legacy.strict.papercup-state-overflow",
  kind: "legacy",
  description:
    "a Papercup state whose version is written 1e400 (Infinity once parsed) is invalid-event",
  kill: "legacy.v1-valid",
  input: {
    context: { dialect: "papercup", conversationId: "c1", turnId: "t1" },
    frames: [{ event: "state", data: '{"type":"state","version":1e400,"snapshot":{}}' }],
  },
  want: { results: [{ ok: false, code: "invalid-event" }] },
});

/** The strict card answer, block and legacy cases. */
export const STRICT_CARDS_GROUPS: CaseGroup[] = [
  { file: "card-answer/strict.json", cases: answers },
  { file: "blocks/strict.json", cases: split },
  { file: "legacy/strict.json", cases: legacy },
];
