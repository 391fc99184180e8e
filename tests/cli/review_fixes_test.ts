/**
 * inspect on captures a reviewer broke it with: raw control characters in a
 * JSON array, unknown SSE fields, deep nesting, invisible characters, and
 * usage errors under --json.
 */
import assert from "node:assert/strict";
import { inspectText } from "../../src/cli/inspect.ts";

const env = (seq: number, event: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    schemaVersion: 1,
    conversationId: "c",
    turnId: "t",
    eventId: `e${seq}`,
    seq,
    ...extra,
    event,
  });

Deno.test("a raw control character in one JSON-array element: that frame is reported, the rest analysed", () => {
  const text = "[\n" + [
    env(1, { type: "delta", text: "Hi" }),
    env(2, { type: "delta", text: "\u001b[31mred" }).replace("\\u001b", "\u001b"),
    env(3, { type: "done" }),
  ].join(",\n") + "\n]\n";
  assert.ok(text.includes("\u001b"));
  const r = inspectText(text);
  assert.equal(r.format, "json-array");
  assert.deepEqual(r.hints.map((h) => h.code), []);
  const codes = r.problems.map((p) => [p.line, p.code]);
  assert.deepEqual(codes.filter(([, c]) => c === "control-character"), [[3, "control-character"]]);
  assert.ok(codes.some(([l, c]) => l === 3 && c === "invalid-json"), JSON.stringify(codes));
  assert.match(
    r.problems.find((p) => p.code === "invalid-json")!.message,
    /Bad control character in string literal at character \d+ of the data/,
  );
  assert.match(
    r.problems.find((p) => p.code === "control-character")!.message,
    /U\+001B \(ESC\) at character \d+ of the line/,
  );
  assert.equal(r.turns[0].text, "Hi");
  assert.equal(r.timeline.rows.length >= 2, true);
});
