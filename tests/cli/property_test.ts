import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import { inspectBytes, inspectText } from "../../src/cli/inspect.ts";
import { renderReport } from "../../src/cli/render.ts";
import { runCli } from "../../src/cli/run.ts";
import { memoryIO } from "./_io.ts";
import { hostile, HOSTILE_RUNS } from "../_helpers/hostile.ts";
import { UNSAFE_IN_OUTPUT } from "./_unsafe.ts";

const LINES = [
  "",
  "id: 1",
  "id: x",
  "event: delta",
  "event: heartbeat",
  "event: token",
  ": comment",
  'data: {"type":"token","content":"a"}',
  'data: {"type":"tool_start","tool":"t"}',
  'data: {"type":"done"}',
  'data: {"type":"error","message":"m"}',
  'data: {"text":"x"}',
  'data: {"type":"text-delta","id":"t","delta":"x"}',
  'data: {"type":"start"}',
  "data: [DONE]",
  'data: {"schemaVersion":1,"conversationId":"c","turnId":"t","eventId":"e","seq":1,"event":{"type":"delta","text":"x"}}',
  'data: {"__proto__":{"polluted":1},"type":"constructor"}',
  '{"schemaVersion":1,"conversationId":"c","turnId":"t","eventId":"e2","seq":2,"at":5,"event":{"type":"done"}}',
  '{"schemaVersion":1,"conversationId":"c","turnId":"u","eventId":"e3","seq":1,"at":1,"event":{"type":"turn_status","status":"cancelled","reason":"r"}}',
  "data: {broken",
  'data: {"tsMs":1767225600000}',
  "[",
  "]",
  ",",
  'data: {"type":"session","sessionId":"\\u202e"}',
  "data: \u001b[2J\u202e",
];

const capture = fc.oneof(
  fc.array(fc.constantFrom(...LINES), { maxLength: 30 }).map((ls) => ls.join("\n") + "\n"),
  fc.array(fc.oneof(fc.constantFrom(...LINES), fc.string()), { maxLength: 20 }).map((ls) =>
    ls.join("\r\n")
  ),
  fc.string({ maxLength: 200 }),
);

Deno.test("inspectText never throws, renders, and keeps exitCode consistent with problems (10^4 runs)", () => {
  fc.assert(
    fc.property(capture, fc.boolean(), (text, strict) => {
      const r = inspectText(text, { strict });
      const errors = r.problemGroups.filter((g) => g.severity === "error")
        .reduce((n, g) => n + g.count, 0);
      const warnings = r.problemGroups.filter((g) => g.severity === "warning")
        .reduce((n, g) => n + g.count, 0);
      assert.equal(r.summary.errors, errors);
      assert.equal(r.summary.warnings, warnings);
      if (r.exitCode !== 2) {
        assert.equal(r.exitCode, errors > 0 || (strict && warnings > 0) ? 1 : 0);
      }
      assert.equal(r.problems.length + r.problemsOmitted, errors + warnings);
      const lineCount = text.split(/\r\n|\r|\n/).length;
      for (const p of r.problems) {
        assert.ok(p.line === null || (p.line >= 1 && Number.isInteger(p.line)));
        assert.ok(p.line === null || p.line <= lineCount, `line ${p.line} of ${lineCount}`);
        assert.ok(p.turn === undefined || r.turns[p.turn] !== undefined, `turn ${p.turn}`);
      }
      // input order, whole-capture findings last
      const order = r.problems.map((p) => p.line ?? Infinity);
      assert.deepEqual(order, [...order].sort((a, b) => a - b));
      // per-turn counts add up to at most the totals
      const perTurn = r.turns.reduce((n, t) => n + t.summary.errors + t.summary.warnings, 0);
      assert.ok(perTurn <= errors + warnings);
      assert.equal(r.turns.reduce((n, t) => n + t.summary.events, 0), r.summary.events);
      assert.equal(typeof renderReport(r), "string");
      JSON.stringify(r);
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    }),
    { numRuns: 10_000 },
  );
});

Deno.test("inspectBytes never throws on arbitrary bytes", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
      const r = inspectBytes(bytes);
      assert.ok(r.exitCode === 0 || r.exitCode === 1 || r.exitCode === 2);
      assert.ok(!r.problemGroups.some((g) => g.code === "internal-error"));
    }),
    { numRuns: 2_000 },
  );
});

Deno.test("inspectText / inspectBytes never throw on hostile arguments and options (10^4 runs)", () => {
  fc.assert(
    fc.property(hostile(), hostile(), fc.boolean(), (text, options, bytes) => {
      const t = text.build();
      const o = options.build();
      const r = bytes
        ? inspectBytes(t as Uint8Array, o as Record<string, never>)
        : inspectText(t as string, o as Record<string, never>);
      assert.ok(r.exitCode === 0 || r.exitCode === 1 || r.exitCode === 2);
      assert.ok(
        !r.problemGroups.some((g) => g.code === "internal-error"),
        JSON.stringify(r.problems),
      );
      const good = inspectText('data: {"type":"done"}\n\n', o as Record<string, never>);
      assert.ok(!good.problemGroups.some((g) => g.code === "internal-error"));
    }),
    { numRuns: HOSTILE_RUNS },
  );
});

// ---------------------------------------------------------------------------------------------
// The command line as a whole, over every kind of input a broken stream produces.

const enc = new TextEncoder();

const envelope = (seq: number, event: unknown, turnId = "t") =>
  JSON.stringify({
    schemaVersion: 1,
    conversationId: "c",
    turnId,
    eventId: `${turnId}${seq}`,
    seq,
    at: 1767225600000 + seq * 1000,
    event,
  });

/** A value nested `depth` levels deep, as JSON text. */
const nested = fc.record({
  depth: fc.integer({ min: 1, max: 12_000 }),
  open: fc.constantFrom("[", '{"a":', '{"":['),
}).map(({ depth, open }) => {
  const close = open === "[" ? "]" : open === '{"a":' ? "}" : "]}";
  return open.repeat(depth) + (open === '{"a":' ? "1" : "") + close.repeat(depth);
});

/** A capture with a deeply nested value where a tool input, output, metadata or raw line goes. */
const deepCapture = fc.tuple(nested, fc.integer({ min: 0, max: 6 })).map(([deep, where]) => {
  switch (where) {
    case 0:
      return envelope(1, { type: "tool_call", callId: "k", name: "n" }).replace(
        '"name":"n"',
        `"name":"n","input":${deep}`,
      ) + "\n" + envelope(2, { type: "done" }) + "\n";
    case 1:
      return `data: {"type":"start"}\n\ndata: {"type":"tool-input-available","toolCallId":"k",` +
        `"toolName":"t","input":${deep}}\n\ndata: {"type":"finish"}\n\ndata: [DONE]\n\n`;
    case 2:
      return `id: 1\ndata: {"type":"tool_start","tool":"t","callId":"k","input":${deep}}\n\n`;
    case 3:
      return `event: state\ndata: {"version":1,"snapshot":${deep}}\n\nevent: done\ndata: {}\n\n`;
    case 4:
      return `[${deep}, ${envelope(1, { type: "done" })}]`;
    case 5:
      return `${deep}\n`;
    default:
      return `data: {"type":"start","messageMetadata":${deep}}\n\n`;
  }
});

/** One line over (or near) the 1 MiB SSE / envelope bounds. */
const hugeCapture = fc.tuple(
  fc.integer({ min: 100_000, max: 1_300_000 }),
  fc.constantFrom("sse", "ndjson", "raw"),
).map(([n, kind]) => {
  const big = "x".repeat(n);
  if (kind === "sse") {
    return `id: 1\ndata: {"type":"token","content":"${big}"}\n\nid: 2\ndata: {"type":"done"}\n\n`;
  }
  if (kind === "ndjson") {
    return envelope(1, { type: "delta", text: big }) + "\n" + envelope(2, { type: "done" }) + "\n";
  }
  return big;
});

/** Random JSON as NDJSON, as one JSON array, or as SSE data lines. */
const jsonCapture = fc.tuple(
  fc.array(fc.jsonValue({ maxDepth: 4 }), { maxLength: 8 }),
  fc.constantFrom("ndjson", "array", "sse", "pretty"),
).map(([values, kind]) => {
  if (kind === "array") return JSON.stringify(values);
  if (kind === "pretty") return values.map((v) => JSON.stringify(v, null, 2)).join("\n");
  if (kind === "sse") return values.map((v) => `data: ${JSON.stringify(v)}\n\n`).join("");
  return values.map((v) => JSON.stringify(v)).join("\n");
});

/** Well-formed turns of every dialect, shuffled together. */
const mixedCapture = fc.shuffledSubarray([
  envelope(1, { type: "delta", text: "a" }) + "\n",
  envelope(2, { type: "done" }) + "\n",
  envelope(1, { type: "error", message: "e", code: "x", retryable: true, retryAfterMs: 5 }, "u") +
  "\n",
  'data: {"type":"token","content":"b"}\n\n',
  'id: 9\ndata: {"type":"done"}\n\n',
  'event: delta\ndata: {"text":"c"}\n\n',
  'data: {"type":"text-delta","id":"t","delta":"d"}\n\n',
  "data: [DONE]\n\n",
  'event: heartbeat\ndata: {"tsMs":1767225600000}\n\n',
  '[{"type":"start"},"[DONE]"]\n',
]).map((parts) => parts.join(""));

/** A text capture with control, bidi or non-UTF-8 bytes spliced in. */
const corrupted = fc.tuple(
  fc.oneof(mixedCapture, capture),
  fc.array(
    fc.tuple(
      fc.nat(),
      fc.oneof(
        fc.constantFrom(
          [0x1b],
          [0x00],
          [0xff],
          [0xc3],
          [0xe2, 0x80, 0xae],
          [0xef, 0xbb, 0xbf],
          [0x0d],
          [0x0a, 0x0a],
        ),
        fc.uint8Array({ maxLength: 4 }).map((a) => [...a]),
      ),
    ),
    { maxLength: 4 },
  ),
).map(([text, splices]) => {
  let bytes = [...enc.encode(text)];
  for (const [at, insert] of splices) {
    const i = bytes.length === 0 ? 0 : at % bytes.length;
    bytes = [...bytes.slice(0, i), ...insert, ...bytes.slice(i)];
  }
  return new Uint8Array(bytes);
});

const anyInput: fc.Arbitrary<Uint8Array> = fc.oneof(
  { weight: 3, arbitrary: fc.uint8Array({ maxLength: 400 }) },
  { weight: 3, arbitrary: jsonCapture.map((s) => enc.encode(s)) },
  { weight: 2, arbitrary: deepCapture.map((s) => enc.encode(s)) },
  { weight: 1, arbitrary: hugeCapture.map((s) => enc.encode(s)) },
  { weight: 4, arbitrary: mixedCapture.map((s) => enc.encode(s)) },
  { weight: 4, arbitrary: capture.map((s) => enc.encode(s)) },
  { weight: 4, arbitrary: corrupted },
);

const anyArgs = fc.subarray([
  "--json",
  "--strict",
  "--all",
  "--gap-ms=0",
  "--dialect=v1",
  "--dialect=scout",
  "--dialect=ai-sdk",
  "--dialect=v0",
]);

Deno.test("runCli (the CLI's main function) never throws and exits 0, 1 or 2 on any input (10^4 runs)", async () => {
  let runs = 0;
  await fc.assert(
    fc.asyncProperty(anyInput, anyArgs, async (bytes, args) => {
      runs++;
      const m = memoryIO(bytes);
      const code = await runCli(["-", ...args], m.io); // a throw fails the property
      assert.ok(code === 0 || code === 1 || code === 2, `exit ${code}`);
      assert.equal(m.err(), "");
      const text = m.out();
      assert.ok(text.length > 0);
      assert.ok(!text.includes("internal-error"), text.slice(0, 2000));
      assert.ok(!UNSAFE_IN_OUTPUT.test(text), "raw unsafe character");
      if (args.includes("--json")) {
        const report = JSON.parse(text);
        assert.equal(report.schema, "papercusp.inspect/2");
        assert.equal(report.exitCode, code);
        if (!args.includes("--all")) assert.ok(report.problems.length <= 100);
      } else if (!args.includes("--all")) {
        const lines = text.split("\n").length;
        assert.ok(lines < 5_000, `${lines} output lines`);
      }
    }),
    { numRuns: 10_000 },
  );
  assert.equal(runs, 10_000);
});
