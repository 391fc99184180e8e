import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import {
  MAX_BLOCK_BODY_LENGTH,
  normalizeSegments,
  segmentsToText,
  serializeAskTag,
  splitTurnText,
  TurnTextScanner,
  TurnTextScannerStream,
  type TurnTextSegment,
} from "../../blocks.ts";
import { referenceSplit } from "./_reference.ts";
import { assertGolden } from "../_helpers/golden.ts";

const ASK = '<ask>{"question":"Merge?","options":[{"id":"y","label":"Yes"}]}</ask>';
const REPORT = '<report>{"plans":[{"title":"Ship","items":[{"text":"tests"}]}]}</report>';

Deno.test("splitTurnText: every block in order, with raw text", () => {
  const text = `Intro ${REPORT} middle ${ASK} end`;
  assert.deepEqual(splitTurnText(text), [
    { kind: "text", text: "Intro " },
    {
      kind: "report",
      block: { plans: [{ title: "Ship", items: [{ text: "tests" }] }] },
      raw: REPORT,
    },
    { kind: "text", text: " middle " },
    { kind: "ask", block: { question: "Merge?", options: [{ id: "y", label: "Yes" }] }, raw: ASK },
    { kind: "text", text: " end" },
  ]);
});

Deno.test("splitTurnText: invalid reasons", () => {
  assert.deepEqual(
    splitTurnText('a<ask> </ask>b<report>{x</report><ask>[1]</ask><ask>{"question":1'),
    [
      { kind: "text", text: "a" },
      { kind: "invalid", tag: "ask", raw: "<ask> </ask>", reason: "empty-body" },
      { kind: "text", text: "b" },
      { kind: "invalid", tag: "report", raw: "<report>{x</report>", reason: "malformed-json" },
      { kind: "invalid", tag: "ask", raw: "<ask>[1]</ask>", reason: "invalid-block" },
      { kind: "invalid", tag: "ask", raw: "<ask>", reason: "unclosed" },
      { kind: "text", text: '{"question":1' },
    ],
  );
});

Deno.test("regression: a stray opening tag never hides the blocks after it", () => {
  const report = '<report>{"plans":[{"title":"t"}]}</report>';
  const text = `Use the <ask> tag like this: ${report} and <ASK>${
    ASK.slice(5, -6)
  } <report>{ <ask>`;
  const segs = splitTurnText(text);
  assert.deepStrictEqual(segs, [
    { kind: "text", text: "Use the " },
    { kind: "invalid", tag: "ask", raw: "<ask>", reason: "unclosed" },
    { kind: "text", text: " tag like this: " },
    { kind: "report", block: { plans: [{ title: "t" }] }, raw: report },
    { kind: "text", text: " and " },
    { kind: "invalid", tag: "ask", raw: "<ASK>", reason: "unclosed" },
    { kind: "text", text: ASK.slice(5, -6) + " " },
    { kind: "invalid", tag: "report", raw: "<report>", reason: "unclosed" },
    { kind: "text", text: "{ " },
    { kind: "invalid", tag: "ask", raw: "<ask>", reason: "unclosed" },
  ]);
  assert.equal(segmentsToText(segs), text);
  // Streaming gives the same segments, one character at a time too.
  assert.deepStrictEqual(normalizeSegments(scanChunks([...text])), segs);
  // And the stray tag's text is released at the end of the turn, not before.
  const s = new TurnTextScanner();
  assert.deepStrictEqual(s.push(`Use the <ask> tag like this: ${report}`), [
    { kind: "text", text: "Use the " },
  ]);
  assert.deepStrictEqual(normalizeSegments(s.end()), segs.slice(1, 4));
});

Deno.test("splitTurnText: tag edge cases", () => {
  assert.deepEqual(splitTurnText(""), []);
  assert.deepEqual(splitTurnText(undefined as unknown as string), []);
  assert.deepEqual(splitTurnText("a < b <a <ask <ask x> </ask> <"), [{
    kind: "text",
    text: "a < b <a <ask <ask x> </ask> <",
  }]);
  // Close of the other kind does not close; nested tags are body (lazy, like parseAskTag).
  assert.deepEqual(
    splitTurnText('<ask>{"question":"q"}</report></ask>').map((
      s,
    ) => [s.kind, (s as { reason?: string }).reason]),
    [["invalid", "malformed-json"]],
  );
  assert.deepEqual(splitTurnText('<<ASK>{"question":"q"}</Ask>>').map((s) => s.kind), [
    "text",
    "ask",
    "text",
  ]);
});

Deno.test("splitTurnText: size bound — too-large block becomes invalid and scanning continues", () => {
  const cl = "</ask>".length;
  const over = "x".repeat(MAX_BLOCK_BODY_LENGTH + 100);
  const segs = splitTurnText(`a<ask>${over}</ask>${ASK}`);
  assert.equal(segs.length, 4);
  assert.deepEqual(segs[0], { kind: "text", text: "a" });
  assert.equal(segs[1].kind, "invalid");
  assert.equal((segs[1] as { reason: string }).reason, "too-large");
  assert.equal((segs[1] as { raw: string }).raw.length, 5 + MAX_BLOCK_BODY_LENGTH + cl);
  assert.deepEqual(segs[2], { kind: "text", text: "x".repeat(100 - cl) + "</ask>" });
  assert.equal(segs[3].kind, "ask");
  assert.equal(segmentsToText(segs), `a<ask>${over}</ask>${ASK}`);
  // Exactly at the bound is accepted; one more character is not.
  const body = `{"question":"q","p":"${"x".repeat(MAX_BLOCK_BODY_LENGTH - 23)}"}`;
  assert.equal(body.length, MAX_BLOCK_BODY_LENGTH);
  assert.equal(splitTurnText(`<ask>${body}</ask>`)[0].kind, "ask");
  assert.equal((splitTurnText(`<ask>${body} </ask>`)[0] as { reason: string }).reason, "too-large");
});

Deno.test("splitTurnText: adversarial input round-trips (timing lives in bench/blocks_bench.ts)", () => {
  const inputs = [
    "<ask>".repeat(200_000),
    "<".repeat(1_000_000),
    "<report>" + "{".repeat(1_000_000),
    ("<ask>" + "x".repeat(50)).repeat(10_000),
  ];
  for (const s of inputs) assert.equal(segmentsToText(splitTurnText(s)), s);
});

// Differential + chunking properties.
const piece = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.constantFrom(
      "<ask>",
      "</ask>",
      "<ASK>",
      "</Ask>",
      "<report>",
      "</report>",
      "<RePoRt>",
      "</REPORT>",
      "<",
      "</",
      "<a",
      "<as",
      "<r",
      "<repo",
      ">",
      "sk>",
      "ort>",
    ),
  },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '{"question":"q"}',
      '{"question":" Q ","options":[{"id":"a"}]}',
      '{"plans":[{"title":"t"}]}',
      "{",
      "}",
      "[1]",
      " ",
      "\n",
      "x",
      "😀",
      "\u2028",
      "İ",
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 4 }) },
);
const soup = fc.array(piece, { maxLength: 14 }).map((a) => a.join(""));

function chunk(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let prev = 0;
  for (const p of points) {
    out.push(text.slice(prev, p));
    prev = p;
  }
  out.push(text.slice(prev));
  return out;
}

function scanChunks(chunks: string[], maxBlockBodyLength?: number): TurnTextSegment[] {
  const s = new TurnTextScanner({ maxBlockBodyLength });
  const all: TurnTextSegment[] = [];
  for (const c of chunks) all.push(...s.push(c));
  all.push(...s.end());
  return all;
}

Deno.test("property: splitTurnText equals the naive reference on small inputs, and is lossless (10^4 runs)", () => {
  fc.assert(
    fc.property(soup, (text) => {
      const segs = splitTurnText(text);
      assert.deepStrictEqual(segs, referenceSplit(text));
      assert.equal(segmentsToText(segs), text);
      assert.deepStrictEqual(normalizeSegments(segs), segs, "already in normal form");
      JSON.parse(JSON.stringify(segs));
    }),
    { numRuns: 10_000 },
  );
});

Deno.test("property: for ANY chunking the scanner's merged output equals splitTurnText (10^4 runs)", () => {
  fc.assert(
    fc.property(soup, fc.array(fc.nat(), { maxLength: 12 }), (text, cuts) => {
      assert.deepStrictEqual(normalizeSegments(scanChunks(chunk(text, cuts))), splitTurnText(text));
    }),
    { numRuns: 10_000 },
  );
});

Deno.test("property: one character at a time equals splitTurnText (2,000 runs)", () => {
  fc.assert(
    fc.property(soup, (text) => {
      assert.deepStrictEqual(
        normalizeSegments(
          scanChunks([...text].flatMap((c) => c.length > 1 ? [c[0], c.slice(1)] : [c])),
        ),
        splitTurnText(text),
      );
    }),
    { numRuns: 2_000 },
  );
});

const OPEN_PREFIXES = ["<", "<a", "<as", "<ask", "<r", "<re", "<rep", "<repo", "<repor", "<report"];

Deno.test("property: the scanner holds back only a possible tag start or an open block (10^4 runs)", () => {
  fc.assert(
    fc.property(soup, fc.array(fc.nat(), { maxLength: 12 }), (text, cuts) => {
      const s = new TurnTextScanner();
      let fed = "";
      let emitted = "";
      for (const c of chunk(text, cuts)) {
        fed += c;
        for (const seg of s.push(c)) {
          emitted += seg.kind === "text" ? seg.text : seg.raw;
        }
        assert.ok(fed.startsWith(emitted));
        const held = fed.slice(emitted.length).toLowerCase();
        const ok = held === "" || OPEN_PREFIXES.includes(held) || /^[\uD800-\uDBFF]$/.test(held) ||
          held.startsWith("<ask>") ||
          held.startsWith("<report>");
        assert.ok(ok, `held back ${JSON.stringify(held)}`);
      }
    }),
    { numRuns: 10_000 },
  );
});

Deno.test("scanner: never shows a partial tag; emits text immediately otherwise", () => {
  const s = new TurnTextScanner();
  assert.deepEqual(s.push("Hello <"), [{ kind: "text", text: "Hello " }]);
  assert.deepEqual(s.push("a"), []);
  assert.deepEqual(s.push("b"), [{ kind: "text", text: "<ab" }]);
  assert.deepEqual(s.push("<AS"), []);
  assert.deepEqual(s.push('K>{"que'), []);
  assert.deepEqual(s.push('stion":"x"}</as'), []);
  assert.deepEqual(s.push("k>!"), [
    {
      kind: "ask",
      block: { question: "x" },
      raw: '<AsK>{"question":"x"}</ask>'.replace("AsK", "ASK"),
    },
    { kind: "text", text: "!" },
  ]);
  assert.deepEqual(s.end(), []);
  assert.deepEqual(s.push("more"), [], "finished scanner ignores input");
});

/** Feed `chunks` with `write`, draining after the chunks whose index is in `drains`. */
function writeChunks(chunks: string[], drains: Set<number>, max?: number): TurnTextSegment[][] {
  const s = new TurnTextScanner({ maxBlockBodyLength: max });
  const calls: TurnTextSegment[][] = [];
  chunks.forEach((c, i) => {
    s.write(c);
    if (drains.has(i)) calls.push(s.drain());
  });
  calls.push(s.end());
  return calls;
}

Deno.test("property: write/drain on any chunking and drain schedule equals splitTurnText; each drain is in normal form (10^4 runs)", () => {
  fc.assert(
    fc.property(
      soup,
      fc.array(fc.nat(), { maxLength: 12 }),
      fc.array(fc.nat({ max: 12 }), { maxLength: 6 }),
      fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }),
      (text, cuts, drainAt, max) => {
        const calls = writeChunks(chunk(text, cuts), new Set(drainAt), max);
        for (const out of calls) assert.deepStrictEqual(normalizeSegments(out), out);
        assert.deepStrictEqual(
          normalizeSegments(calls.flat()),
          splitTurnText(text, { maxBlockBodyLength: max }),
        );
      },
    ),
    { numRuns: 10_000 },
  );
});

Deno.test("property: push(d) returns exactly what write(d) then drain() returns, call by call (10^4 runs)", () => {
  fc.assert(
    fc.property(soup, fc.array(fc.nat(), { maxLength: 12 }), (text, cuts) => {
      const chunks = chunk(text, cuts);
      const pushed = new TurnTextScanner();
      const written = new TurnTextScanner();
      for (const c of chunks) {
        written.write(c);
        assert.deepStrictEqual(pushed.push(c), written.drain());
      }
      assert.deepStrictEqual(pushed.end(), written.end());
    }),
    { numRuns: 10_000 },
  );
});

Deno.test("scanner: write/drain coalesces plain text into one segment and holds what push holds", () => {
  const s = new TurnTextScanner();
  for (const d of ["Here", " is ", "some", " tex", "t. <"]) s.write(d);
  assert.deepEqual(s.drain(), [{ kind: "text", text: "Here is some text. " }]);
  assert.deepEqual(s.drain(), [], "nothing new: the '<' is held");
  for (const d of ["RePo", "rt>{", '"pla', 'ns":[{"title":"t"}]}</REP', "ORT> ok"]) s.write(d);
  const report = '<RePort>{"plans":[{"title":"t"}]}</REPORT>';
  assert.deepEqual(s.drain(), [
    { kind: "report", block: { plans: [{ title: "t" }] }, raw: report },
    { kind: "text", text: " ok" },
  ]);
  assert.deepEqual(s.end(), []);
});

Deno.test("scanner: a tag fragment held across deltas keeps its exact case, in text and in raw", () => {
  // One character per delta: every fragment is held and rebuilt from the
  // match state (which letters were upper case), never sliced from input.
  for (
    const text of [
      "<ReP x",
      "<rEPOR<aSk <A",
      "x<AsK>y",
      '<rEpOrT>{"plans":[{"title":"t"}]}</RePoRt>',
    ]
  ) {
    const out = scanChunks([...text]);
    assert.equal(segmentsToText(out), text, JSON.stringify(out));
    assert.deepStrictEqual(normalizeSegments(out), splitTurnText(text));
  }
});

Deno.test("scanner: push and drain return a fresh array every call (callers may keep or change it)", () => {
  const s = new TurnTextScanner();
  const a = s.push("a <");
  const b = s.push("x");
  const c = s.push("<a");
  const d = s.drain();
  assert.notEqual(c, d);
  (a as unknown[]).push("junk");
  (c as unknown[]).push("junk");
  assert.deepEqual(b, [{ kind: "text", text: "<x" }]);
  assert.deepEqual(s.push("sk>"), []);
  assert.deepEqual(s.end(), [{ kind: "invalid", tag: "ask", raw: "<ask>", reason: "unclosed" }]);
});

Deno.test("scanner: an over-long open block is released while streaming (bounded memory)", () => {
  const s = new TurnTextScanner();
  const out: TurnTextSegment[] = [];
  out.push(...s.push("<report>"));
  const chunkText = "y".repeat(10_000);
  let pushes = 0;
  while (!out.some((x) => x.kind === "invalid")) {
    out.push(...s.push(chunkText));
    pushes++;
    assert.ok(pushes < 40, "the too-large block must be released before 400k characters");
  }
  assert.equal(out[0].kind, "invalid");
  assert.equal((out[0] as { reason: string }).reason, "too-large");
  // Afterwards text flows immediately again.
  assert.deepEqual(s.push("zz"), [{ kind: "text", text: "zz" }]);
});

Deno.test("scanner: random chunkings across the size bound equal splitTurnText (40 runs)", () => {
  const big = `a<ask>${"x".repeat(MAX_BLOCK_BODY_LENGTH + 3)}</ask>${ASK}<report>${
    "q".repeat(MAX_BLOCK_BODY_LENGTH - 5)
  }</report><ask>tail`;
  const expected = splitTurnText(big);
  fc.assert(
    fc.property(fc.array(fc.nat({ max: big.length }), { maxLength: 30 }), (cuts) => {
      assert.deepStrictEqual(normalizeSegments(scanChunks(chunk(big, cuts))), expected);
    }),
    { numRuns: 40 },
  );
});

Deno.test("TurnTextScannerStream: a TransformStream<string, TurnTextSegment>", async () => {
  const chunks = ["Hi <as", "k>", '{"question":"Ok?"}</', "ask> bye <rep"];
  const segs = await Array.fromAsync(
    ReadableStream.from(chunks).pipeThrough(new TurnTextScannerStream()),
  );
  assert.deepStrictEqual(normalizeSegments(segs), splitTurnText(chunks.join("")));
  assert.deepStrictEqual(segs.at(-1), { kind: "text", text: "<rep" });
});

Deno.test("splitTurnText: a folded assistant turn (golden fixtures/blocks/split_turn_text.json)", async () => {
  const turn = [
    "Here is where we are.\n",
    '<report>\n{"title":" Week 48 ","plans":[{"slug":"ship-v2","status":"active","items":[{"id":"WI-1","text":"tests","status":"done"},{"id":"WI-2"}]}],',
    '"goalReport":{"schemaVersion":1,"goalId":"g-7","reportId":"r-3","bodySha256":"' +
    "ab".repeat(32) + '"}}\n</report>\n',
    "One question < two answers:\n",
    serializeAskTag({
      question: "Ship with </ask> in the title?",
      options: [{ id: "y", label: "Yes" }, { id: "n", label: "No", description: "wait a week" }],
      refs: ["P-12"],
    }),
    "\n<ask>not json</ask> and an unclosed <REPORT>{...",
  ].join("");
  const segs = splitTurnText(turn);
  assert.deepEqual(segs.map((s) => s.kind), [
    "text",
    "report",
    "text",
    "ask",
    "text",
    "invalid",
    "text",
    "invalid",
    "text",
  ]);
  assert.equal(segmentsToText(segs), turn);
  await assertGolden("blocks/split_turn_text.json", { turn, segments: segs });
});

Deno.test("property: with small size bounds, splitTurnText equals the bounded reference and any chunking agrees (10^4 runs)", () => {
  fc.assert(
    fc.property(
      soup,
      fc.integer({ min: 0, max: 40 }),
      fc.array(fc.nat(), { maxLength: 10 }),
      (text, max, cuts) => {
        const whole = splitTurnText(text, { maxBlockBodyLength: max });
        assert.deepStrictEqual(whole, referenceSplit(text, max));
        assert.equal(segmentsToText(whole), text);
        assert.deepStrictEqual(normalizeSegments(scanChunks(chunk(text, cuts), max)), whole);
      },
    ),
    { numRuns: 10_000 },
  );
});

Deno.test("maxBlockBodyLength is clamped to [0, MAX_BLOCK_BODY_LENGTH]", () => {
  const body = "x".repeat(MAX_BLOCK_BODY_LENGTH + 10);
  const huge = splitTurnText(`<ask>${body}</ask>`, { maxBlockBodyLength: 1e9 });
  assert.equal((huge[0] as { reason: string }).reason, "too-large");
  assert.equal(
    splitTurnText('<ask>{"question":"q"}</ask>', { maxBlockBodyLength: -5 })[0].kind,
    "invalid",
  );
  assert.equal(
    splitTurnText('<ask>{"question":"q"}</ask>', { maxBlockBodyLength: Number.NaN })[0].kind,
    "ask",
  );
});

Deno.test("scanner: an emoji split across deltas is never emitted in halves", () => {
  const s = new TurnTextScanner();
  const smile = "😀";
  assert.deepEqual(s.push("hi " + smile[0]), [{ kind: "text", text: "hi " }]);
  assert.deepEqual(s.push(smile[1] + "!"), [{ kind: "text", text: smile + "!" }]);
  assert.deepEqual(s.push("\uD800"), []);
  assert.deepEqual(
    s.end(),
    [{ kind: "text", text: "\uD800" }],
    "a lone high surrogate at the end is kept",
  );
});

Deno.test("regression: too-large blocks never search the rest of the input for their close tag", () => {
  // Count the characters String.prototype.indexOf examines: linear work means
  // a bounded number of passes over the input, whatever the number of blocks.
  const unit = "<ask>" + "x".repeat(MAX_BLOCK_BODY_LENGTH + 100);
  const text = unit.repeat(24);
  const original = String.prototype.indexOf;
  let scanned = 0;
  String.prototype.indexOf = function (this: string, search: string, from = 0) {
    const r = original.call(this, search, from);
    scanned += (r === -1 ? this.length : r) - Math.max(0, from);
    return r;
  };
  let segs: TurnTextSegment[];
  try {
    segs = splitTurnText(text);
  } finally {
    String.prototype.indexOf = original;
  }
  assert.equal(segs.filter((s) => s.kind === "invalid").length, 24);
  assert.equal(segmentsToText(segs), text);
  assert.ok(scanned <= 3 * text.length, `indexOf examined ${scanned} for ${text.length}`);
});

Deno.test("regression: TurnTextScannerStream errors on non-string chunks instead of dropping them", async () => {
  const bytes = new TextEncoder().encode("<ask>");
  await assert.rejects(
    Array.fromAsync(
      ReadableStream.from<unknown>(["ok ", bytes]).pipeThrough(
        new TurnTextScannerStream() as unknown as TransformStream<unknown, TurnTextSegment>,
      ),
    ),
    TypeError,
  );
});
