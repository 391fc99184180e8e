import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import {
  type AskBlock,
  MAX_BLOCK_BODY_LENGTH,
  parseAskBlock,
  parseAskTag,
  parseReportBlock,
  parseReportTag,
  type ReportBlock,
  serializeAskTag,
  serializeReportTag,
  splitTurnText,
} from "../../blocks.ts";

Deno.test("parseAskTag: case-insensitive, first match, lazy body, no attributes", () => {
  assert.deepEqual(parseAskTag('x <AsK>\n {"question":"a"}\n</aSK> <ask>{"question":"b"}</ask>'), {
    question: "a",
  });
  assert.equal(parseAskTag('<ask id="1">{"question":"a"}</ask>'), null);
  assert.equal(parseAskTag('<ask >{"question":"a"}</ask>'), null);
  assert.equal(parseAskTag('<ask>{"question":"a"}'), null, "unclosed");
  assert.equal(parseAskTag("<ask>   </ask>"), null, "empty body");
  assert.equal(parseAskTag("no tag"), null);
  assert.equal(parseAskTag('<ask>{"question":"a"}</ask >'), null);
  // Lazy: the first close ends the body, even if that makes it invalid.
  assert.equal(parseAskTag('<ask>{"question":"</ask>"}</ask>'), null);
  // A report tag is not an ask tag.
  assert.equal(parseAskTag('<report>{"question":"a"}</report>'), null);
  assert.equal(parseAskTag(123 as unknown as string), null);
});

Deno.test("parseReportTag: first report block, size bound", () => {
  assert.deepEqual(parseReportTag('<REPORT>{"plans":[{"title":"A"}]}</Report>'), {
    plans: [{ title: "A" }],
  });
  assert.equal(parseReportTag("<report>{}</report>"), null);
  const pad = "x".repeat(MAX_BLOCK_BODY_LENGTH);
  assert.equal(parseReportTag(`<report>{"plans":[{"title":"${pad}"}]}</report>`), null);
  const fits = `{"plans":[{"title":"t"}],"p":"${"x".repeat(MAX_BLOCK_BODY_LENGTH - 32)}"}`;
  assert.equal(fits.length, MAX_BLOCK_BODY_LENGTH);
  assert.deepEqual(parseReportTag(`<report>${fits}</report>`), { plans: [{ title: "t" }] });
  assert.equal(parseReportTag(`<report>${fits} </report>`), null, "one character over the bound");
});

Deno.test("serializeAskTag escapes <, >, &, U+2028, U+2029", () => {
  const s = serializeAskTag({ question: "a </ask> & <b> \u2028\u2029" });
  assert.equal(
    s,
    '<ask>{"question":"a \\u003c/ask\\u003e \\u0026 \\u003cb\\u003e \\u2028\\u2029"}</ask>',
  );
  assert.equal(
    serializeReportTag({ plans: [{ title: "</report>" }] }),
    '<report>{"plans":[{"title":"\\u003c/report\\u003e"}]}</report>',
  );
});

Deno.test("regression: the original serializer breaks on </ask>, ours round-trips", () => {
  const block: AskBlock = { question: "What does </ask> mean?" };
  const original = "<ask>" + JSON.stringify(block) + "</ask>";
  assert.equal(parseAskTag(original), null, "the documented caveat of the original serializer");
  assert.deepEqual(parseAskTag(serializeAskTag(block)!), block);
  const report: ReportBlock = { plans: [{ title: "x </REPORT> y" }] };
  assert.equal(parseReportTag("<report>" + JSON.stringify(report) + "</report>"), null);
  assert.deepEqual(parseReportTag(serializeReportTag(report)!), report);
});

const nasty = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 12 }),
  fc.string({ unit: "binary", maxLength: 12 }),
  fc.constantFrom(
    "</ask>",
    "</report>",
    "<ask>",
    "</ASK>",
    "<",
    ">",
    "&",
    "\u2028",
    "\u2029",
    "😀",
    " x ",
    '"',
    "\\",
    "\u0000",
    "\uD800",
    "\uDC00",
  ),
);
const text = fc.array(nasty, { maxLength: 4 }).map((a) => a.join(""));
const askInput = fc.record({
  question: text,
  options: fc.array(
    fc.record({ id: text, label: text, description: text }, { requiredKeys: ["id"] }),
    { maxLength: 3 },
  ),
  refs: fc.array(text, { maxLength: 3 }),
}, { requiredKeys: ["question"] });
const itemInput = fc.record({ id: text, text: text, status: text, ref: text }, {
  requiredKeys: [],
});
const planInput = fc.record({
  slug: text,
  title: text,
  status: text,
  summary: text,
  items: fc.array(itemInput, { maxLength: 3 }),
}, { requiredKeys: [] });
const reportInput = fc.record({
  title: text,
  plans: fc.array(planInput, { maxLength: 3 }),
  goalReport: fc.constant({
    schemaVersion: 1,
    goalId: "g",
    reportId: "r",
    bodySha256: "f".repeat(64),
  }),
}, { requiredKeys: ["plans"] });

Deno.test("property: parseAskTag(serializeAskTag(b)) deep-equals b for every valid block (10^4 runs)", () => {
  // The generator must really produce the hard cases; count them.
  const hits = { closeTag: 0, u2028: 0, emoji: 0, loneSurrogate: 0 };
  fc.assert(
    fc.property(askInput, text, text, (raw, before, after) => {
      const b = parseAskBlock(raw);
      if (b === null) return;
      const json = JSON.stringify(b);
      if (/<\/ask>/i.test(b.question)) hits.closeTag++;
      if (json.includes("\u2028")) hits.u2028++;
      if (json.includes("\u{1F600}")) hits.emoji++;
      if (/\\ud[89a-f]/i.test(json)) hits.loneSurrogate++;
      const tag = serializeAskTag(b);
      assert.ok(tag !== null, "a parsed block always has JSON text");
      assert.deepStrictEqual(parseAskTag(tag), b);
      // Also found by the splitter inside arbitrary text (which contains no other open tag).
      if (!/<(ask|report)>/i.test(before + after)) {
        const segs = splitTurnText(before + tag + after).filter((s) => s.kind !== "text");
        assert.equal(segs.length >= 1, true);
        assert.deepStrictEqual(segs[0], { kind: "ask", block: b, raw: tag });
      }
    }),
    { numRuns: 10_000 },
  );
  for (const [k, n] of Object.entries(hits)) assert.ok(n >= 100, `only ${n} blocks with ${k}`);
});

Deno.test("property: parseReportTag(serializeReportTag(b)!) deep-equals b for every valid block (10^4 runs)", () => {
  fc.assert(
    fc.property(reportInput, (raw) => {
      const b = parseReportBlock(raw);
      if (b === null) return;
      assert.deepStrictEqual(parseReportTag(serializeReportTag(b)!), b);
    }),
    { numRuns: 10_000 },
  );
});

Deno.test("property: parseAskTag / parseReportTag never throw on arbitrary text (10^4 runs)", () => {
  const soup = fc.array(
    fc.oneof(
      nasty,
      fc.constantFrom(
        "<ask>",
        "<report>",
        "</report>",
        '{"question":"q"}',
        '{"plans":[{"title":"t"}]}',
      ),
    ),
    { maxLength: 10 },
  ).map((a) => a.join(""));
  fc.assert(
    fc.property(soup, (s) => {
      const a = parseAskTag(s);
      const r = parseReportTag(s);
      if (a !== null) assert.deepStrictEqual(parseAskBlock(a), a);
      if (r !== null) assert.deepStrictEqual(parseReportBlock(r), r);
    }),
    { numRuns: 10_000 },
  );
});
