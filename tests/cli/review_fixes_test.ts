/**
 * inspect on captures a reviewer broke it with: raw control characters in a
 * JSON array, unknown SSE fields, deep nesting, invisible characters, and
 * usage errors under --json.
 */
import assert from "node:assert/strict";
import { inspectText } from "../../src/cli/inspect.ts";
import { runCli } from "../../src/cli/run.ts";
import { memoryIO } from "./_io.ts";

/** Run the CLI in process with `stdin` as the capture. */
async function cli(args: string[], stdin: string | Uint8Array, file = "-") {
  const m = memoryIO(stdin);
  const code = await runCli(file === "" ? args : [file, ...args], m.io);
  return { code, out: m.out(), err: m.err() };
}

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

Deno.test("an SSE line with an unknown field (a `Data:` typo, a bare JSON line) is a dropped-line warning", () => {
  const text = [
    `data: ${env(1, { type: "delta", text: "a" })}`,
    "",
    `Data: ${env(2, { type: "delta", text: "b" })}`,
    "",
    env(2, { type: "delta", text: "c" }),
    "",
    "foo: bar",
    `data: ${env(2, { type: "done" })}`,
    "",
  ].join("\n");
  const r = inspectText(text);
  assert.equal(r.format, "sse");
  const dropped = r.problems.filter((p) => p.code === "dropped-line");
  assert.deepEqual(dropped.map((p) => [p.line, p.severity]), [[3, "warning"], [5, "warning"], [
    7,
    "warning",
  ]]);
  assert.match(dropped[0].message, /"Data" is not `data`/);
  assert.match(dropped[1].message, /bare JSON line inside an SSE stream/);
  assert.match(dropped[2].message, /"foo" is not one SSE knows/);
});

Deno.test("dropped SSE lines show in the timeline with --all and in --json", async () => {
  const text = `data: ${env(1, { type: "delta", text: "a" })}\n\nData: {"x":1}\n\n` +
    `data: ${env(2, { type: "done" })}\n\n`;
  const human = await cli(["--all"], text);
  assert.match(
    human.out,
    /line 1 +#1 delta[^\n]*\n {2}line 3 +dropped \(dropped-line\)\n {2}line 5 +#2 done/,
  );
  const json = JSON.parse((await cli(["--json"], text)).out);
  assert.deepEqual(
    json.problems.filter((p: { code: string }) => p.code === "dropped-line").map((
      p: { line: number },
    ) => p.line),
    [3],
  );
});

Deno.test("usage errors under --json print a JSON error object on stdout (exit 2)", async () => {
  for (
    const [args, message] of [
      [["--json", "--bogus"], /unknown option --bogus/],
      [["--json", "--gap-ms=x"], /--gap-ms needs a whole number/],
      [["--dialect=v9", "--json"], /--dialect must be one of/],
      [["a", "b", "--json"], /one capture at a time \(got 2\)/],
    ] as const
  ) {
    const r = await cli([...args], "", "");
    assert.equal(r.code, 2);
    const out = JSON.parse(r.out);
    assert.equal(out.schema, "papercusp.inspect/2");
    assert.equal(out.error.code, "usage");
    assert.equal(out.exitCode, 2);
    assert.match(out.error.message, message);
  }
  // without --json: the human message and the usage on stderr, nothing on stdout
  const human = await cli(["--bogus"], "", "");
  assert.equal(human.out, "");
  assert.match(human.err, /unknown option --bogus[\s\S]*Usage:/);
});

Deno.test("nesting deeper than 16 384 levels is a too-deep problem, never parsed; 16 384 still is", () => {
  const nested = (n: number) => "[".repeat(n) + "]".repeat(n);
  const deep = env(1, { type: "tool_call", callId: "k", name: "n" }).replace(
    '"name":"n"',
    `"name":"n","input":${nested(200_000)}`,
  );
  const r = inspectText(deep + "\n" + env(2, { type: "done" }) + "\n");
  const tooDeep = r.problems.filter((p) => p.code === "too-deep");
  assert.deepEqual(tooDeep.map((p) => p.line), [1]);
  assert.match(tooDeep[0].message, /more than 16384 levels deep/);
  // a top-level array nested 200 000 deep (a JSON-array capture)
  const top = inspectText(nested(200_000) + "\n");
  assert.deepEqual(top.problems.filter((p) => p.code === "too-deep").map((p) => p.line), [1]);
  // at the bound: parsed as before (the envelope's level and the event's are 2 more)
  const ok = inspectText(
    env(1, { type: "tool_call", callId: "k", name: "n" }).replace(
      '"name":"n"',
      `"name":"n","input":${nested(16_382)}`,
    ) + "\n" + env(2, { type: "done" }) + "\n",
  );
  assert.deepEqual(ok.problems.filter((p) => p.code === "too-deep"), []);
  assert.equal(ok.exitCode, 0, JSON.stringify(ok.problems.slice(0, 3)));
});

Deno.test("format characters (Cf, e.g. U+1D173) and Hangul fillers are escaped in the output", async () => {
  const hidden = "a\u{1d173}b\u115fc\u1160d\u3164e\uffa0f\u0600g\u{e0001}h";
  const text = env(1, { type: "delta", text: hidden }) + "\n" + env(2, { type: "done" }) + "\n";
  const human = await cli(["--all"], text);
  for (const c of ["\u{1d173}", "\u115f", "\u1160", "\u3164", "\uffa0", "\u0600", "\u{e0001}"]) {
    assert.ok(!human.out.includes(c), `U+${c.codePointAt(0)!.toString(16)} printed raw`);
  }
  assert.match(human.out, /a\\u\{1d173\}b\\u115fc\\u1160d\\u3164e\\uffa0f\\u0600g\\u\{e0001\}h/);
  // ZWJ stays (emoji sequences need it)
  const zwj = await cli(["--all"], env(1, { type: "delta", text: "👩\u200d💻" }) + "\n");
  assert.ok(zwj.out.includes("👩\u200d💻"));
  const json = await cli(["--json"], text);
  assert.ok(!/[\u{1d173}\u115f\u3164]/u.test(json.out));
  assert.equal(JSON.parse(json.out).turns[0].text, hidden);
});

Deno.test("inspect agents: a usage error under --json is the same JSON error object", async () => {
  const r = await cli(["agents", "only-one.json", "--json"], "", "");
  assert.equal(r.code, 2);
  const out = JSON.parse(r.out);
  assert.deepEqual(out, {
    schema: "papercusp.inspect/2",
    error: { code: "usage", message: "expected <sessions.json> <history.json>" },
    exitCode: 2,
  });
});
