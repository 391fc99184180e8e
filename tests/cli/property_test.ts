import assert from "node:assert/strict";
import fc from "fast-check";
import { inspectBytes, inspectText } from "../../src/cli/inspect.ts";
import { renderReport } from "../../src/cli/render.ts";

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
  '{"schemaVersion":1,"conversationId":"c","turnId":"t","eventId":"e2","seq":2,"event":{"type":"done"}}',
  "data: {broken",
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
    fc.property(capture, (text) => {
      const r = inspectText(text);
      const errors = r.problems.filter((p) => p.severity === "error").length;
      assert.equal(r.summary.errors, errors);
      if (r.exitCode !== 2) assert.equal(r.exitCode, errors > 0 ? 1 : 0);
      const lineCount = text.split(/\r\n|\r|\n/).length;
      for (const p of r.problems) {
        assert.ok(p.line === null || (p.line >= 1 && Number.isInteger(p.line)));
        assert.ok(p.line === null || p.line <= lineCount, `line ${p.line} of ${lineCount}`);
      }
      // input order, whole-capture findings last
      const order = r.problems.map((p) => p.line ?? Infinity);
      assert.deepEqual(order, [...order].sort((a, b) => a - b));
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
    }),
    { numRuns: 2_000 },
  );
});
