import assert from "node:assert/strict";
import { inspectBytes, inspectText } from "../../src/cli/inspect.ts";
import { renderReport } from "../../src/cli/render.ts";
import { encodeSseFrame } from "../../sse.ts";
import { assertGolden, readFixture } from "../_helpers/golden.ts";

/** Every capture under fixtures/ (SSE and NDJSON), except expected outputs. */
async function captures(): Promise<string[]> {
  const out: string[] = [];
  const root = new URL("../../fixtures/", import.meta.url);
  async function walk(dir: URL, rel: string) {
    for await (const e of Deno.readDir(dir)) {
      if (e.isDirectory) await walk(new URL(`${e.name}/`, dir), `${rel}${e.name}/`);
      else if (/\.(sse|ndjson)$/.test(e.name)) out.push(`${rel}${e.name}`);
    }
  }
  await walk(root, "");
  return out.sort();
}

/** fixtures/inspect/<dir>__<file>.json, e.g. `inspect/legacy__scout_turn.sse.json`. */
const goldenName = (path: string) => `inspect/${path.replaceAll("/", "__")}.json`;

Deno.test("golden: inspect --json over every capture in fixtures/", async (t) => {
  const paths = await captures();
  assert.ok(paths.length >= 10, `found only ${paths.length} captures`);
  for (const path of paths) {
    await t.step(path, async () => {
      const report = inspectText(await readFixture(path), { source: path });
      assert.notEqual(report.exitCode, 2, `${path} unreadable`);
      await assertGolden(goldenName(path), report);
    });
  }
});

Deno.test("real ai@7 captures are clean and fold to a completed turn", async () => {
  for (
    const name of ["plain_text", "reasoning", "tool_two_steps", "tool_error", "approval_request"]
  ) {
    const r = inspectText(await readFixture(`ai-sdk/${name}.sse`));
    assert.equal(r.dialect, "ai-sdk", name);
    assert.equal(r.exitCode, 0, `${name}: ${JSON.stringify(r.problems)}`);
    assert.equal(r.turns[0]?.status, "completed", name);
  }
  const two = inspectText(await readFixture("ai-sdk/tool_two_steps.sse"));
  assert.deepEqual(two.turns[0]?.tools.map((t) => [t.callId, t.name, t.status]), [
    ["call-1", "weather", "output-available"],
  ]);
});

Deno.test("scout capture (spec frames): clean, failed turn with tool, card, domain events", async () => {
  const r = inspectText(await readFixture("legacy/scout_turn.sse"));
  assert.equal(r.dialect, "scout");
  assert.equal(r.exitCode, 0, JSON.stringify(r.problems));
  assert.deepEqual(r.problems.map((p) => [p.line, p.code]), [
    [15, "derived-call-id"],
    [33, "no-retry-permission"],
    [33, "unfinished-call"], // Scout has no tool result: the failed turn marks the call
  ]);
  assert.match(r.problems[2].message, /Scout's vocabulary has no tool result event/);
  assert.equal(r.turns[0]?.status, "failed");
  assert.equal(r.turns[0]?.text, "Hi");
  assert.equal(r.turns[0]?.sessionId, "s-7");
  assert.deepEqual(r.turns[0]?.tools, [{
    callId: "frame:4",
    name: "search_products",
    status: "unfinished",
  }]);
  assert.deepEqual(
    r.turns[0]?.cards.map((c) => [c.correlationId, c.status, c.prompt, c.resolution]),
    [["c1", "closed", "Pick one", undefined]],
  );
  // the closed card still shows every field it was opened with
  assert.deepEqual(r.turns[0]?.cards[0].card, {
    correlationId: "c1",
    prompt: "Pick one",
    createdAt: 1767225600000,
    presentation: { kind: "radio", options: [{ id: "a", label: "A" }, { id: "b", label: "B" }] },
    allowDecline: true,
  });
  assert.deepEqual(r.turns[0]?.errors, [{ message: "boom", retryable: false }]);
  assert.deepEqual(r.turns[0]?.domainEvents, [{ line: 18, type: "products" }, {
    line: 21,
    type: "broaden",
  }]);
  assert.equal(r.summary.heartbeats, 1);
  assert.equal(r.summary.comments, 4);
});

Deno.test("frames after Scout's terminal frame are violations and are not folded", async () => {
  const r = inspectText(await readFixture("inspect/captures/scout_after_done.sse"));
  assert.equal(r.exitCode, 1);
  assert.equal(r.turns[0]?.status, "completed");
  assert.equal(r.turns[0]?.text, "Hi");
  const after = r.problems.filter((p) => p.code === "after-terminal").map((p) => p.line);
  assert.deepEqual(after, [13, 16, 19, 22, 25, 28, 31]);
  assert.equal(r.problems.filter((p) => p.severity === "error").length, after.length);
});

Deno.test("scout transport-test stream is clean", async () => {
  const r = inspectText(await readFixture("legacy/scout_transport_turn.sse"));
  assert.equal(r.exitCode, 0);
  assert.deepEqual(r.problems, []);
  assert.equal(r.turns[0]?.status, "completed");
});

Deno.test("scout runtime capture is clean: tool_start{name, callId} and a <report> block", async () => {
  const r = inspectText(await readFixture("legacy/scout_runtime_turn.sse"));
  assert.equal(r.exitCode, 0, JSON.stringify(r.problems));
  // Scout reports no tool results: the completed turn marks its call unfinished (a warning)
  assert.deepEqual(r.problems.map((p) => [p.line, p.severity, p.code]), [
    [19, "warning", "unfinished-call"],
  ]);
  assert.deepEqual(r.turns[0]?.tools, [{
    callId: "call_1",
    name: "search_products",
    status: "unfinished",
  }]);
  assert.deepEqual(r.turns[0]?.segments.map((s) => s.kind), ["text", "report"]);
});

Deno.test("papercup (v0) capture folds tools, cards and usage", async () => {
  const r = inspectText(await readFixture("legacy/papercup_turn.sse"));
  assert.equal(r.dialect, "v0");
  assert.equal(r.exitCode, 0);
  assert.equal(r.turns[0]?.text, "Let me check the large one.");
  assert.deepEqual(r.turns[0]?.tools.map((t) => [t.callId, t.status, t.summary]), [[
    "call_7",
    "ok",
    "picked Large",
  ]]);
  assert.deepEqual(
    r.turns[0]?.cards.map((c) => [c.correlationId, c.status, c.prompt]),
    [["c9", "closed", "Which size?"]],
  );
  assert.equal((r.turns[0]?.cards[0].card as { createdAt?: number })?.createdAt, 1767225600000);
});

Deno.test("v1 violations carry the right line numbers and codes", async () => {
  const r = inspectText(await readFixture("inspect/captures/v1_violations.ndjson"));
  assert.equal(r.dialect, "v1");
  assert.equal(r.format, "ndjson");
  assert.deepEqual(
    r.problems.filter((p) => p.severity === "error").map((p) => [p.line, p.code]),
    [
      [2, "gap"],
      [3, "duplicate"],
      [4, "invalid-envelope"],
      [5, "invalid-json"],
      [6, "gap"], // turn t-other is folded on its own: its first event has seq 4
      [7, "invalid-envelope"],
      [8, "unsupported-version"],
    ],
  );
  assert.deepEqual(
    r.problems.filter((p) => p.severity === "warning").map((p) => [p.line, p.turn, p.code]),
    [[7, 0, "interleaved-turn"], [null, 0, "no-terminal-event"], [null, 1, "no-terminal-event"]],
  );
  assert.deepEqual(r.turns.map((t) => [t.turnId, t.text, t.status, t.summary.events]), [
    ["t-1", "Hello world", "running", 2],
    ["t-other", "!", "running", 1],
  ]);
  assert.deepEqual(r.turns.map((t) => [t.summary.firstLine, t.summary.lastLine]), [[1, 8], [6, 6]]);
});

Deno.test("the v1 SSE capture is exactly what encodeSseFrame writes for the NDJSON envelopes", async () => {
  const lines = (await readFixture("inspect/captures/v1_turn.ndjson")).trim().split("\n");
  const sse = lines.map((l) => {
    const e = JSON.parse(l);
    return encodeSseFrame({ id: e.eventId, event: e.event.type, data: l });
  }).join("");
  assert.equal(sse, await readFixture("inspect/captures/v1_turn.sse"));
  const a = inspectText(sse);
  const b = inspectText(lines.join("\n"));
  assert.equal(a.exitCode, 0);
  // the same turns; only where they sit in the capture differs
  const bodies = (r: typeof a) => r.turns.map(({ summary: _, ...body }) => body);
  assert.deepEqual(bodies(a), bodies(b));
  assert.equal(a.turns[0]?.status, "completed");
  assert.deepEqual(a.turns[0]?.segments.map((s) => s.kind), ["text", "ask"]);
});

Deno.test("line numbers survive CRLF and CR line endings", () => {
  const lf = 'id: 1\ndata: {"type":"token","content":"a"}\n\nid: 2\ndata: {"type":"token"}\n\n';
  for (const eol of ["\n", "\r\n", "\r"]) {
    const r = inspectText(lf.replaceAll("\n", eol));
    assert.deepEqual(
      r.problems.filter((p) => p.severity === "error").map((p) => p.line),
      [4],
      JSON.stringify(eol),
    );
  }
});

Deno.test("unreadable input: binary, not UTF-8, oversized, no frames → exit 2", () => {
  assert.equal(inspectBytes(new Uint8Array([0xff, 0xfe, 0x00, 0x01])).exitCode, 2);
  // No frame at all, and bytes that are not text: binary data (a PNG header).
  const png = inspectBytes(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]));
  assert.equal(png.exitCode, 2);
  assert.equal(png.problems[0].code, "not-text");
  // Deliberate change (papercusp.inspect/2): a NUL inside a frame no longer refuses the whole
  // capture; it is a control-character problem on its line and the rest is analysed.
  const nul = inspectBytes(new TextEncoder().encode("data: a\0b\n\n"));
  assert.equal(nul.exitCode, 1);
  assert.deepEqual(nul.problems.map((p) => [p.line, p.code]), [
    [1, "control-character"],
    [1, "invalid-json"],
    [null, "unknown-dialect"],
  ]);
  assert.equal(inspectBytes(new Uint8Array(100), { maxBytes: 10 }).problems[0].code, "too-large");
  // The bound counts UTF-8 bytes, not UTF-16 code units: 6 × "é" is 12 bytes.
  assert.equal(inspectText("é".repeat(6), { maxBytes: 10 }).problems[0].code, "too-large");
  assert.notEqual(inspectText("é".repeat(5), { maxBytes: 10 }).problems[0]?.code, "too-large");
  assert.equal(inspectText("").exitCode, 2);
  assert.equal(inspectText("just some prose\nno frames\n").exitCode, 2);
});

Deno.test("an SSE line over the parser bound is unreadable, not buffered", () => {
  const r = inspectText(`data: ${"x".repeat(1_100_000)}\n\n`);
  assert.equal(r.exitCode, 2);
  assert.equal(r.problems[0].code, "sse-limit");
});

Deno.test("unknown dialect is a violation; --dialect forces one", () => {
  const text = 'data: {"hello":1}\n\n';
  assert.equal(inspectText(text).dialect, "unknown");
  assert.equal(inspectText(text).exitCode, 1);
  const forced = inspectText('id: 1\ndata: {"type":"session","sessionId":"s"}\n\n', {
    dialect: "scout",
  });
  assert.equal(forced.dialect, "scout");
  assert.equal(forced.dialectReason, "chosen with --dialect");
});

Deno.test("render: problems with lines, folded turn, summary; control characters escaped", async () => {
  const r = inspectText(await readFixture("inspect/captures/scout_violations.sse"));
  const text = renderReport(r);
  assert.match(text, /line 4 +error +invalid-event: Scout `token` frame needs a string `content`/);
  assert.match(text, /Summary: 7 frame\(s\).*exit 1\)/);
  const evil = inspectText(
    'id: 1\ndata: {"type":"token","content":"\\u001b[31mred"}\n\nid: 2\ndata: {"type":"done"}\n\n',
  );
  const out = renderReport(evil);
  assert.ok(!out.includes("\x1b"), "raw ESC leaked to the terminal");
  assert.match(out, /\\u001b\[31mred/);
});

Deno.test("the bundled capture is byte for byte the real ai@7 fixture", async () => {
  const { BUNDLED_CAPTURE, BUNDLED_CAPTURE_NAME } = await import(
    "../../src/cli/bundled_capture.ts"
  );
  assert.equal(BUNDLED_CAPTURE, await readFixture(BUNDLED_CAPTURE_NAME.replace(/^fixtures\//, "")));
});

Deno.test("inspect as host: derived call ids need a frame id; results pair only unambiguously", () => {
  // Scout tool_start without callId and without an id: nothing to derive from → violation.
  const noId = inspectText(
    'data: {"type":"tool_start","tool":"search"}\n\ndata: {"type":"done"}\n\n',
    {
      dialect: "scout",
    },
  );
  assert.deepEqual(
    noId.problems.filter((p) => p.severity === "error").map((p) => p.code),
    ["missing-call-identity"],
  );
  // Papercup result without callId: paired with the only running call of that name (warning).
  const v0 = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
  const one = inspectText(
    v0("tool_call", { name: "t", callId: "k1" }) + v0("tool_result", { name: "t", ok: true }) +
      v0("done", {}),
  );
  assert.equal(one.exitCode, 0);
  assert.deepEqual(one.problems.map((p) => p.code), ["paired-by-name"]);
  assert.deepEqual(one.turns[0]?.tools.map((t) => [t.callId, t.status]), [["k1", "ok"]]);
  // Two running calls of the same name: ambiguous → refused, never guessed.
  const two = inspectText(
    v0("tool_call", { name: "t", callId: "k1" }) + v0("tool_call", { name: "t", callId: "k2" }) +
      v0("tool_result", { name: "t", ok: true }) + v0("done", {}),
  );
  // (the turn then completes with both calls unfinished: each a warning at `done`)
  assert.deepEqual(two.problems.map((p) => [p.line, p.code]), [
    [7, "missing-call-identity"],
    [10, "unfinished-call"],
    [10, "unfinished-call"],
  ]);
  // Unknown result status is a violation, not a success.
  const unknown = inspectText(
    v0("tool_call", { name: "t", callId: "k1" }) + v0("tool_result", { name: "t", callId: "k1" }) +
      v0("done", {}),
  );
  assert.deepEqual(unknown.problems.map((p) => [p.line, p.code]), [
    [4, "unknown-result-status"],
    [7, "unfinished-call"],
  ]);
  assert.deepEqual(unknown.turns[0]?.tools.map((t) => t.status), ["unfinished"]);
});

Deno.test("v0 capture with Scout names: flagged, passed through as domain events", () => {
  const r = inspectText(
    'event: delta\ndata: {"text":"a"}\n\nevent: token\ndata: {"content":"b"}\n\nevent: done\ndata: {}\n\n',
  );
  assert.equal(r.dialect, "v0");
  assert.deepEqual(r.problems.map((p) => [p.line, p.code]), [[4, "scout-name"]]);
  assert.equal(r.turns[0]?.text, "a");
  assert.deepEqual(r.turns[0]?.domainEvents, [{ line: 4, type: "token" }]);
});

Deno.test("problems are in input order, whole-capture findings last (a cut AI SDK capture)", async () => {
  const full = await readFixture("ai-sdk/tool_two_steps.sse");
  const cut = full.slice(0, full.indexOf("tool-input-delta") + 30); // cut inside an event
  const r = inspectText(cut);
  assert.equal(r.dialect, "ai-sdk");
  assert.deepEqual(r.problems.map((p) => [p.line, p.code]), [
    [13, "unterminated-event"],
    [null, "no-finish"],
    [null, "no-done"],
  ]);
  assert.equal(r.turns[0]?.status, "running");
});

Deno.test("NDJSON cut mid-line: the partial last line is a truncated-line warning, not a bad frame", () => {
  const env = (seq: number, event: unknown) =>
    JSON.stringify({
      schemaVersion: 1,
      conversationId: "c",
      turnId: "t",
      eventId: `e${seq}`,
      seq,
      event,
    });
  const text = env(1, { type: "delta", text: "a" }) + "\n" + env(2, { type: "done" }).slice(0, 50);
  const r = inspectText(text);
  assert.deepEqual(r.problems.map((p) => [p.line, p.severity, p.code]), [
    [2, "warning", "truncated-line"],
    [null, "warning", "no-terminal-event"],
  ]);
  assert.equal(r.summary.frames, 1);
  assert.equal(r.turns[0]?.text, "a");
  // a complete last line without a newline is fine; a bad line WITH a newline is still an error
  assert.deepEqual(inspectText(env(1, { type: "done" })).problems, []);
  const bad = inspectText(env(1, { type: "delta", text: "a" }) + "\n{oops\n");
  assert.deepEqual(
    bad.problems.filter((p) => p.severity === "error").map((p) => [p.line, p.code]),
    [
      [2, "invalid-json"],
    ],
  );
  assert.match(bad.problems[0].message, /not JSON \(.*character 2 of the data/);
  // only a cut line: nothing to inspect, and the reason says so
  const only = inspectText(env(1, { type: "done" }).slice(0, 40));
  assert.equal(only.exitCode, 2);
  assert.match(only.problems[0].message, /cut off/);
});

Deno.test("no frames: the reason names what was found (empty, comments only, an unterminated event)", () => {
  const reason = (text: string) => {
    const r = inspectText(text);
    assert.equal(r.exitCode, 2, JSON.stringify(text));
    assert.equal(r.problems[0].code, "no-frames");
    return r;
  };
  assert.match(reason("").problems[0].message, /empty/);
  assert.match(reason("\ufeff\n\n").problems[0].message, /empty/);
  const comments = reason(": one\r\n: two\r\n\r\n");
  assert.match(comments.problems[0].message, /only SSE comment lines \(2/);
  assert.equal(comments.summary.comments, 2);
  assert.match(reason('data: {"type":"done"}').problems[0].message, /never ends/);
  assert.match(reason("just prose\n").problems[0].message, /neither an SSE capture/);
});

Deno.test("a comment right before a frame does not move the frame's line", () => {
  const r = inspectText(
    ': keep-alive\nid: 1\ndata: {"type":"token","content":"a"}\n\n: ping\nid: 2\ndata: {"type":"token"}\n\n' +
      'id: 3\ndata: {"type":"done"}\n\n: trailing comment, no newline',
  );
  assert.deepEqual(r.problems.map((p) => [p.line, p.code]), [[6, "invalid-event"]]);
  assert.equal(r.summary.comments, 2); // an unterminated last line is never processed (SSE)
});

Deno.test("a capture mixing dialects: every foreign frame gets a mixed-dialect warning on its line", () => {
  const text = [
    'id: 1\ndata: {"type":"token","content":"Hi"}\n',
    'event: delta\ndata: {"text":"x"}\n',
    'id: 2\ndata: {"type":"text-delta","id":"t","delta":"y"}\n',
    'id: 3\ndata: {"schemaVersion":1,"conversationId":"c","turnId":"t","eventId":"e","seq":1,"event":{"type":"done"}}\n',
    'id: 4\ndata: {"type":"done"}\n',
  ].join("\n") + "\n";
  const r = inspectText(text);
  assert.equal(r.dialect, "scout");
  assert.deepEqual(
    r.problems.filter((p) => p.code === "mixed-dialect").map((
      p,
    ) => [p.line, p.message.slice(0, 40)]),
    [
      [4, "this frame looks like named v0 events (e"],
      [7, "this frame looks like an AI SDK UI messa"],
      [10, "this frame looks like v1 envelopes (sche"],
    ],
  );
  assert.equal(r.turns[0]?.text, "Hi");
  // a forced dialect is checked the same way
  const forced = inspectText('id: 1\ndata: {"type":"token","content":"Hi"}\n\n', { dialect: "v1" });
  assert.deepEqual(forced.problems.filter((p) => p.code === "mixed-dialect").map((p) => p.line), [
    1,
  ]);
});

Deno.test("unknown dialect: frames whose data is not JSON are named, with the parser's reason", () => {
  const r = inspectText('id: 1\ndata: {"type":"token","content":"x"\n\n');
  assert.equal(r.exitCode, 1);
  assert.deepEqual(r.problems.map((p) => [p.line, p.code]), [
    [1, "invalid-json"],
    [null, "unknown-dialect"],
  ]);
  assert.match(r.problems[0].message, /character 30 of the data/);
});

Deno.test("scout ids beyond 2^53 - 1 get an id-precision warning (Scout's client reads Number(id))", () => {
  const r = inspectText(
    'id: 9007199254740992\ndata: {"type":"token","content":"a"}\n\nid: 9007199254740993\ndata: {"type":"done"}\n\n',
  );
  assert.deepEqual(r.problems.map((p) => [p.line, p.severity, p.code]), [
    [1, "warning", "id-precision"],
    [4, "warning", "id-precision"],
    [4, "error", "non-monotonic-id"], // both read as 9007199254740992 by the client
  ]);
});

Deno.test("render: a newline inside an untrusted name cannot forge an output line", () => {
  const r = inspectText(
    'id: 1\ndata: {"type":"tool_start","tool":"evil\\nline 99   error   forged: fake","callId":"k"}\n\n' +
      'id: 2\ndata: {"type":"x\\nSummary: all clean (exit 0)"}\n\n' +
      'id: 3\ndata: {"type":"token","content":"two\\nlines\\twith a tab"}\n\nid: 4\ndata: {"type":"done"}\n\n',
  );
  const out = renderReport(r);
  const lines = out.split("\n");
  assert.ok(!lines.some((l) => l.startsWith("line 99")), out);
  assert.equal(lines.filter((l) => l.startsWith("Summary")).length, 1, out);
  assert.match(out, /evil\\u000aline 99/);
  // assistant text keeps its own lines (and tabs), each behind the gutter
  assert.ok(lines.includes("    │ two") && lines.includes("    │ lines\twith a tab"), out);
});

Deno.test("v1 NDJSON: an envelope line over the 1 MiB envelope bound is a too-large violation on its line", () => {
  const env = (seq: number, event: unknown) =>
    JSON.stringify({
      schemaVersion: 1,
      conversationId: "c",
      turnId: "t",
      eventId: `e${seq}`,
      seq,
      event,
    });
  const text = [
    env(1, { type: "delta", text: "a" }),
    env(2, { type: "delta", text: "é".repeat(600_000) }), // 1.2 MB of UTF-8, 600k UTF-16 units
    env(3, { type: "done" }),
  ].join("\n") + "\n";
  const r = inspectText(text);
  assert.deepEqual(r.problems.map((p) => [p.line, p.code]), [[2, "too-large"], [3, "gap"]]);
  assert.match(r.problems[0].message, /bytes, over the 1048576-byte bound/);
  assert.equal(r.exitCode, 1);
});

Deno.test("v1: a swap (seq 1, 3, 2) is one `reordered`, never a `gap`, and folds in seq order (as in foldChatState and the adapters)", async () => {
  const { foldChatState } = await import("../../mod.ts");
  const line = (seq: number, event: unknown) =>
    JSON.stringify({
      schemaVersion: 1,
      conversationId: "c",
      turnId: "t",
      eventId: `e${seq}`,
      seq,
      event,
    });
  const values = [
    line(1, { type: "delta", text: "<1>" }),
    line(3, { type: "delta", text: "<3>" }),
    line(2, { type: "delta", text: "<2>" }),
    line(4, { type: "done" }),
  ];
  const r = inspectText(values.join("\n") + "\n");
  // Before: a `gap` at line 2, a refused `reordered` at line 3, and the text "<1><3>".
  assert.deepEqual(r.problems.map((p) => [p.line, p.code]), [[3, "reordered"]]);
  assert.equal(r.turns[0].text, "<1><2><3>");
  assert.equal(r.turns[0].status, "completed");
  const fold = foldChatState(values.map((v) => JSON.parse(v)));
  assert.deepEqual(fold.refusals.map((x) => [x.index + 1, x.error.code]), [[3, "reordered"]]);
  assert.equal(fold.state?.text, r.turns[0].text);
  // a lost seq is still one gap, and the fold goes on after it
  const lost = inspectText([values[0], values[1], values[3]].join("\n") + "\n");
  assert.deepEqual(lost.problems.map((p) => [p.line, p.code]), [[2, "gap"]]);
  assert.equal(lost.turns[0].text, "<1><3>");
});

Deno.test("v1 terminal states: open cards and running calls at the end of a turn are warnings, with what the fold made of them", () => {
  const line = (seq: number, event: unknown) =>
    JSON.stringify({
      schemaVersion: 1,
      conversationId: "c",
      turnId: "t",
      eventId: `e${seq}`,
      seq,
      event,
    });
  const opening = [
    line(1, { type: "tool_call", callId: "k1", name: "search" }),
    line(2, { type: "card", card: { correlationId: "q1", prompt: "Size?", createdAt: 1 } }),
  ];
  const cancelled = inspectText(
    [...opening, line(3, { type: "turn_status", status: "cancelled" })].join("\n") + "\n",
  );
  // Before: a clean report with the card open forever and the call running.
  assert.deepEqual(cancelled.problems.map((p) => [p.line, p.severity, p.code]), [
    [3, "warning", "card-closed-by-turn"],
    [3, "warning", "unfinished-call"],
  ]);
  assert.deepEqual(cancelled.turns[0].tools.map((t) => t.status), ["unfinished"]);
  assert.deepEqual(
    cancelled.turns[0].cards.map((c) => [c.correlationId, c.status, c.resolution, c.prompt]),
    [["q1", "closed", "cancelled", "Size?"]],
  );
  const failed = inspectText(
    [...opening, line(3, { type: "error", message: "boom", retryable: false })].join("\n") + "\n",
  );
  assert.match(
    failed.problems[0].message,
    /when the turn failed: it closes with the turn \(resolution interrupted\)/,
  );
  const done = inspectText([opening[0], line(2, { type: "done" })].join("\n") + "\n");
  // Before: a clean completed turn whose tool call still ran.
  assert.deepEqual(done.problems.map((p) => [p.line, p.severity, p.code]), [
    [2, "warning", "unfinished-call"],
  ]);
  assert.match(done.problems[0].message, /when the turn completed: it is marked unfinished$/);
  assert.deepEqual(done.turns[0].tools.map((t) => t.status), ["unfinished"]);
  assert.equal(done.exitCode, 0);
});
