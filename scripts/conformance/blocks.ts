/**
 * `<report>` / `<ask>` blocks in turn text: `splitTurnText(text)` → segments
 * (`text`, `report`, `ask`, `invalid` with a reason).
 *
 * @module
 */
import type { CaseDef, CaseGroup } from "./_def.ts";
import type { Json, JsonObject } from "../../conformance/ts/kinds.ts";

function blocks(
  id: string,
  description: string,
  kill: string,
  text: string,
  segments: Json[],
  extra: JsonObject = {},
  rules?: string[],
): CaseDef {
  return {
    id: `blocks.${id}`,
    kind: "blocks",
    description,
    kill,
    rules,
    input: { text, ...extra },
    want: { segments },
  };
}
const t = (text: string) => ({ kind: "text", text });
const ask = (block: JsonObject, raw: string) => ({ kind: "ask", block, raw });
const report = (block: JsonObject, raw: string) => ({ kind: "report", block, raw });
const bad = (tag: string, reason: string, raw: string) => ({ kind: "invalid", tag, raw, reason });

const A = '<ask>{"question":"Merge?"}</ask>';
const R = '<report>{"plans":[{"title":"Ship"}]}</report>';
const goal = { schemaVersion: 1, goalId: "g1", reportId: "r1", bodySha256: "ab".repeat(32) };

const split: CaseDef[] = [
  blocks("ask", "text, an ask block, text", "blocks.split.segments", `Ok? ${A} Thanks`, [
    t("Ok? "),
    ask({ question: "Merge?" }, A),
    t(" Thanks"),
  ]),
  blocks("report", "a report block alone", "blocks.split.segments", R, [
    report({ plans: [{ title: "Ship" }] }, R),
  ]),
  blocks(
    "all-blocks",
    "every block is found, not only the first",
    "blocks.split.all-blocks",
    `${R} and ${A} and ${A}`,
    [
      report({ plans: [{ title: "Ship" }] }, R),
      t(" and "),
      ask({ question: "Merge?" }, A),
      t(" and "),
      ask({ question: "Merge?" }, A),
    ],
  ),
  blocks("adjacent", "two blocks back to back", "blocks.split.all-blocks", A + R, [
    ask({ question: "Merge?" }, A),
    report({ plans: [{ title: "Ship" }] }, R),
  ]),
  blocks(
    "upper",
    "tags match in any ASCII case",
    "blocks.tags.case-insensitive",
    '<ASK>{"question":"Q"}</Ask>',
    [ask({ question: "Q" }, '<ASK>{"question":"Q"}</Ask>')],
  ),
  blocks(
    "mixed-case-report",
    "<Report> … </REPORT>",
    "blocks.tags.case-insensitive",
    '<Report>{"plans":[{"title":"x"}]}</REPORT>',
    [report({ plans: [{ title: "x" }] }, '<Report>{"plans":[{"title":"x"}]}</REPORT>')],
  ),
  blocks(
    "attributes",
    "a tag with attributes is text",
    "blocks.tags.exact-open",
    '<ask id="1">{"question":"Q"}</ask>',
    [t('<ask id="1">{"question":"Q"}</ask>')],
  ),
  blocks(
    "space",
    "a tag with a space before > is text",
    "blocks.tags.exact-open",
    '<ask >{"question":"Q"}</ask>',
    [t('<ask >{"question":"Q"}</ask>')],
  ),
  blocks(
    "other-tag-inside",
    "other tags inside a body belong to the body",
    "blocks.split.segments",
    '<ask>{"question":"a <report> b"}</ask>',
    [ask({ question: "a <report> b" }, '<ask>{"question":"a <report> b"}</ask>')],
  ),
  blocks(
    "close-first-same",
    "the body runs to the first close tag of the same name",
    "blocks.malformed-json",
    '<ask>{"question":"x</ask>"}</ask>',
    [bad("ask", "malformed-json", '<ask>{"question":"x</ask>'), t('"}</ask>')],
  ),
  blocks(
    "escaped-close",
    "an escaped close tag inside JSON is not a close tag",
    "blocks.ask.normalise",
    '<ask>{"question":" what \\u003c/ask\\u003e does "}</ask>',
    [ask(
      { question: "what </ask> does" },
      '<ask>{"question":" what \\u003c/ask\\u003e does "}</ask>',
    )],
  ),
  blocks(
    "stray-close",
    "a close tag without its opening is text",
    "blocks.stray-close",
    "done </ask> ok",
    [t("done </ask> ok")],
  ),
  blocks(
    "lone-lt",
    "a lone < and partial tags are text",
    "blocks.split.segments",
    `a < b <as c <repor ${A}`,
    [t("a < b <as c <repor "), ask({ question: "Merge?" }, A)],
  ),
];

const invalid: CaseDef[] = [
  blocks(
    "unclosed",
    "an opening tag without close covers the tag alone; what follows is scanned again",
    "blocks.unclosed",
    `<report> then ${A}`,
    [bad("report", "unclosed", "<report>"), t(" then "), ask({ question: "Merge?" }, A)],
  ),
  blocks(
    "unclosed-end",
    "an opening tag near the end is unclosed, the rest is text",
    "blocks.unclosed",
    "text <report> tail",
    [t("text "), bad("report", "unclosed", "<report>"), t(" tail")],
  ),
  blocks(
    "unclosed-other-close",
    "a report is not closed by </ask>",
    "blocks.unclosed",
    '<report>{"plans":[]}</ask>',
    [bad("report", "unclosed", "<report>"), t('{"plans":[]}</ask>')],
  ),
  blocks("empty-body", "a blank body is empty-body", "blocks.empty-body", "<ask> \n </ask>", [
    bad("ask", "empty-body", "<ask> \n </ask>"),
  ]),
  blocks("empty-body-tight", "<ask></ask> is empty-body", "blocks.empty-body", "a<ask></ask>b", [
    t("a"),
    bad("ask", "empty-body", "<ask></ask>"),
    t("b"),
  ]),
  blocks(
    "malformed",
    "a body that is not JSON is malformed-json",
    "blocks.malformed-json",
    "<report>{plans: []}</report>",
    [bad("report", "malformed-json", "<report>{plans: []}</report>")],
  ),
  blocks(
    "malformed-trailing",
    "JSON followed by more text is malformed-json",
    "blocks.malformed-json",
    '<ask>{"question":"Q"} extra</ask>',
    [bad("ask", "malformed-json", '<ask>{"question":"Q"} extra</ask>')],
  ),
  blocks(
    "invalid-ask",
    "JSON that is not an ask (no question) is invalid-block",
    "blocks.invalid-block",
    '<ask>{"q":"x"}</ask>',
    [bad("ask", "invalid-block", '<ask>{"q":"x"}</ask>')],
  ),
  blocks(
    "invalid-ask-array",
    "a JSON array is invalid-block",
    "blocks.invalid-block",
    "<ask>[]</ask>",
    [bad("ask", "invalid-block", "<ask>[]</ask>")],
  ),
  blocks(
    "invalid-report-empty",
    "a report with no surviving plan is invalid-block",
    "blocks.invalid-block",
    '<report>{"plans":[{"title":"  "}]}</report>',
    [bad("report", "invalid-block", '<report>{"plans":[{"title":"  "}]}</report>')],
  ),
  blocks(
    "invalid-report-plans",
    "plans that are not an array are invalid-block",
    "blocks.invalid-block",
    '<report>{"plans":{}}</report>',
    [bad("report", "invalid-block", '<report>{"plans":{}}</report>')],
  ),
  blocks(
    "too-large",
    "a close tag beyond the body bound makes the block too-large",
    "blocks.too-large",
    '<ask>{"question":"0123456789"}</ask>',
    [bad("ask", "too-large", '<ask>{"question":"012'), t('3456789"}</ask>')],
    { maxBlockBodyLength: 10 },
  ),
  blocks(
    "too-large-surrogate",
    "a too-large cut never splits a surrogate pair: the high half goes back to text",
    "blocks.too-large",
    "<ask>" + "𝄞".repeat(8),
    [bad("ask", "too-large", "<ask>" + "𝄞".repeat(5)), t("𝄞".repeat(3))],
    { maxBlockBodyLength: 5 },
  ),
  blocks(
    "at-bound",
    "a body exactly at the bound is fine",
    "blocks.too-large",
    '<ask>{"question":"x"}</ask>',
    [ask({ question: "x" }, '<ask>{"question":"x"}</ask>')],
    { maxBlockBodyLength: 16 },
    ["blocks.ask.normalise"],
  ),
];

const normalise: CaseDef[] = [
  blocks(
    "ask-trim",
    "question, ids, labels and refs are trimmed; labels fall back to ids",
    "blocks.ask.normalise",
    '<ask>{"question":" Deploy? ","options":[{"id":" y "},{"id":"n","label":" No ","description":" stop "}],"refs":[" P-1 ","  "]}</ask>',
    [ask(
      {
        question: "Deploy?",
        options: [{ id: "y", label: "y" }, { id: "n", label: "No", description: "stop" }],
        refs: ["P-1"],
      },
      '<ask>{"question":" Deploy? ","options":[{"id":" y "},{"id":"n","label":" No ","description":" stop "}],"refs":[" P-1 ","  "]}</ask>',
    )],
  ),
  blocks(
    "ask-drop-options",
    "options without an id are dropped; none left means no options",
    "blocks.ask.normalise",
    '<ask>{"question":"Q","options":[{"label":"x"},3,null],"refs":"P-1"}</ask>',
    [ask(
      { question: "Q" },
      '<ask>{"question":"Q","options":[{"label":"x"},3,null],"refs":"P-1"}</ask>',
    )],
  ),
  blocks(
    "ask-extra-keys",
    "unknown ask keys are dropped",
    "blocks.ask.normalise",
    '<ask>{"question":"Q","urgent":true}</ask>',
    [ask({ question: "Q" }, '<ask>{"question":"Q","urgent":true}</ask>')],
  ),
  blocks(
    "ask-body-whitespace",
    "whitespace around the body is trimmed before parsing",
    "blocks.split.segments",
    '<ask>\n  {"question":"Q"}\n</ask>',
    [ask({ question: "Q" }, '<ask>\n  {"question":"Q"}\n</ask>')],
  ),
  blocks(
    "report-fallbacks",
    "a plan's title falls back to its slug, an item's text to its id",
    "blocks.report.normalise",
    '<report>{"title":" Status ","plans":[{"slug":"p1","items":[{"id":"i1"},{"text":" ship ","status":" done "},{}]}]}</report>',
    [report(
      {
        plans: [{
          slug: "p1",
          title: "p1",
          items: [{ id: "i1", text: "i1" }, { text: "ship", status: "done" }],
        }],
        title: "Status",
      },
      '<report>{"title":" Status ","plans":[{"slug":"p1","items":[{"id":"i1"},{"text":" ship ","status":" done "},{}]}]}</report>',
    )],
  ),
  blocks(
    "report-skip-plans",
    "plans without a title or slug are skipped",
    "blocks.report.normalise",
    '<report>{"plans":[{"summary":"x"},{"title":"Keep"},"no"]}</report>',
    [report(
      { plans: [{ title: "Keep" }] },
      '<report>{"plans":[{"summary":"x"},{"title":"Keep"},"no"]}</report>',
    )],
  ),
  blocks(
    "report-goal",
    "a valid goal report reference is kept",
    "blocks.split.segments",
    `<report>${JSON.stringify({ plans: [], goalReport: goal })}</report>`,
    [report(
      { plans: [], goalReport: goal },
      `<report>${JSON.stringify({ plans: [], goalReport: goal })}</report>`,
    )],
    {},
    ["blocks.report.normalise"],
  ),
  blocks(
    "report-goal-bad",
    "an invalid goal report reference makes the whole block invalid",
    "blocks.report.goal-ref",
    `<report>${
      JSON.stringify({ plans: [{ title: "A" }], goalReport: { ...goal, extra: 1 } })
    }</report>`,
    [bad(
      "report",
      "invalid-block",
      `<report>${
        JSON.stringify({ plans: [{ title: "A" }], goalReport: { ...goal, extra: 1 } })
      }</report>`,
    )],
  ),
  blocks(
    "report-goal-null",
    "goalReport null is not absent: the block is invalid",
    "blocks.report.goal-ref",
    '<report>{"plans":[{"title":"A"}],"goalReport":null}</report>',
    [bad(
      "report",
      "invalid-block",
      '<report>{"plans":[{"title":"A"}],"goalReport":null}</report>',
    )],
  ),
];

/** Every blocks case, grouped into files. */
export const BLOCKS_GROUPS: CaseGroup[] = [
  { file: "blocks/split.json", cases: split },
  { file: "blocks/invalid.json", cases: invalid },
  { file: "blocks/normalise.json", cases: normalise },
];
