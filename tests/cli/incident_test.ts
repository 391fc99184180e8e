/**
 * `inspect` as a person debugging a broken stream uses it (issue 14,
 * "`inspect` for incidents"): deep nesting, floods of bad frames, JSON-array
 * captures, every field, timestamps, stray control characters, bidi
 * characters, --strict, several turns in one capture.
 */
import assert from "node:assert/strict";
import { inspectBytes, inspectText } from "../../src/cli/inspect.ts";
import { renderReport } from "../../src/cli/render.ts";
import { runCli } from "../../src/cli/run.ts";
import { memoryIO } from "./_io.ts";
import { UNSAFE_IN_OUTPUT } from "./_unsafe.ts";

const env = (
  seq: number,
  event: Record<string, unknown>,
  extra: Record<string, unknown> = {},
  turnId = "t-1",
  conversationId = "c-1",
) =>
  JSON.stringify({
    schemaVersion: 1,
    conversationId,
    turnId,
    eventId: `${turnId}:${seq}`,
    seq,
    ...extra,
    event,
  });

/** Run the CLI in process with `stdin` as the capture; resolves to the exit code and the output. */
async function cli(args: string[], stdin: string | Uint8Array) {
  const m = memoryIO(stdin);
  const code = await runCli(["-", ...args], m.io);
  return { code, out: m.out(), err: m.err() };
}

Deno.test("a tool input nested 10 000 deep: no RangeError; --json prints it whole, human output a preview", async () => {
  const deep = "[".repeat(10_000) + "]".repeat(10_000);
  const capture = env(1, { type: "tool_call", callId: "k", name: "n" }).replace(
    '"name":"n"',
    `"name":"n","input":${deep}`,
  ) + "\n" + env(2, { type: "done" }) + "\n";
  // Before: runCli rejected with `RangeError: Maximum call stack size exceeded` (Deno: exit 1).
  const json = await cli(["--json"], capture);
  assert.equal(json.code, 0, json.out.slice(0, 2000));
  const report = JSON.parse(json.out);
  let input = report.turns[0].tools[0].input;
  let depth = 0;
  while (Array.isArray(input)) {
    depth++;
    input = input[0];
  }
  assert.equal(depth, 10_000);
  const human = await cli([], capture);
  assert.equal(human.code, 0);
  assert.match(human.out, /input {4}\[\[\[\[/);
  assert.ok(human.out.length < 10_000, `${human.out.length} characters`);
});

Deno.test("20 000 invalid envelopes: grouped by code, bounded output with counts and first lines", async () => {
  const lines: string[] = [];
  for (let i = 1; i <= 20_000; i++) lines.push(env(i, { type: "bogus" }));
  const capture = lines.join("\n") + "\n";
  // Before: one output line per problem (20 008 lines).
  const human = await cli([], capture);
  assert.equal(human.code, 1);
  const outLines = human.out.split("\n").length;
  assert.ok(outLines < 80, `${outLines} lines`);
  assert.match(
    human.out,
    /unknown-event-type ×20000 error · lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, …/,
  );
  assert.match(human.out, /… 19997 more/);
  assert.match(human.out, /20000 error\(s\)/);
  const report = JSON.parse((await cli(["--json"], capture)).out);
  assert.equal(report.schema, "papercusp.inspect/2");
  assert.equal(report.problems.length, 100);
  assert.equal(report.problemsOmitted, 19_900);
  assert.deepEqual(
    report.problemGroups.map((g: { code: string; count: number }) => [g.code, g.count]),
    [["unknown-event-type", 20_000]],
  );
  assert.equal(report.problemGroups[0].examples.length, 3);
  assert.equal(report.summary.errors, 20_000);
  assert.ok(report.timeline.rows.length <= 40);
  // --all lists every problem
  const all = JSON.parse((await cli(["--json", "--all"], capture)).out);
  assert.equal(all.problems.length, 20_000);
  assert.equal(all.problemsOmitted, 0);
});

Deno.test("a JSON-array capture is read as frames, with each frame's line", () => {
  const frames = [
    JSON.parse(env(1, { type: "delta", text: "Hi" })),
    JSON.parse(env(2, { type: "done" })),
  ];
  const text = JSON.stringify(frames, null, 2);
  // Before: 24 `invalid-json` problems (one per line), dialect unknown.
  const r = inspectText(text);
  assert.equal(r.format, "json-array");
  assert.equal(r.dialect, "v1");
  assert.equal(r.exitCode, 0, JSON.stringify(r.problems));
  assert.equal(r.turns[0].text, "Hi");
  assert.deepEqual(r.timeline.rows.map((row) => row.line), [2, 13]);
  // AI SDK chunks and "[DONE]" strings, and SSE records {event, id, data}
  const ai = inspectText(
    JSON.stringify([
      { type: "start" },
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "Yo" },
      { type: "text-end", id: "t" },
      { type: "finish" },
      "[DONE]",
    ]),
  );
  assert.equal(ai.dialect, "ai-sdk");
  assert.equal(ai.exitCode, 0, JSON.stringify(ai.problems));
  assert.equal(ai.turns[0].text, "Yo");
  const v0 = inspectText(
    JSON.stringify([
      { event: "delta", data: { text: "a" } },
      { event: "done", id: "2", data: "{}" },
    ]),
  );
  assert.equal(v0.dialect, "v0");
  assert.equal(v0.turns[0].text, "a");
  assert.equal(v0.turns[0].status, "completed");
  // an empty array has no frame
  assert.equal(inspectText("[]").exitCode, 2);
  assert.match(inspectText("[]").problems[0].message, /JSON array is empty/);
});

Deno.test("near-miss captures get a hint: a cut array, pretty-printed JSON, wrapped frames, a HAR file, glued SSE", () => {
  const frames = [
    JSON.parse(env(1, { type: "delta", text: "Hi" })),
    JSON.parse(env(2, { type: "done" })),
  ];
  const pretty = JSON.stringify(frames, null, 2);
  const hint = (text: string) => inspectText(text).hints.map((h) => h.code);
  const cut = inspectText(pretty.slice(0, 200));
  assert.deepEqual(cut.hints.map((h) => h.code), ["json-array-invalid"]);
  assert.match(
    cut.hints[0].message,
    /line \d+: the array never closes|line \d+: an element never ends/,
  );
  assert.deepEqual(hint(pretty.replace(/}\n]$/, "},\n]")), ["json-array-invalid"]);
  assert.deepEqual(hint(frames.map((f) => JSON.stringify(f, null, 2)).join("\n")), [
    "pretty-printed-json",
  ]);
  assert.deepEqual(hint(JSON.stringify({ events: frames }, null, 2)), ["wrapped-frames"]);
  assert.match(
    inspectText(JSON.stringify({ events: frames }, null, 2)).hints[0].message,
    /jq '\.events'/,
  );
  assert.deepEqual(hint(JSON.stringify({ log: { version: "1.2", entries: [] } }, null, 1)), [
    "har-file",
  ]);
  assert.deepEqual(hint('data: {"type":"token","content":"a"}\ndata: {"type":"done"}\n\n'), [
    "sse-no-blank-lines",
  ]);
  assert.deepEqual(
    hint('event: message_start\ndata: {"type":"message_start","message":{}}\n\n'),
    ["provider-stream"],
  );
  // a clean capture has no hint
  assert.deepEqual(hint(frames.map((f) => JSON.stringify(f)).join("\n")), []);
});

Deno.test("every field is shown: turn_status reason, error code and retryAfterMs, tool progress, state, extras", () => {
  const text = [
    env(1, { type: "tool_call", callId: "k", name: "search", input: { q: "x" } }, {
      at: 1_000,
    }),
    env(2, { type: "tool_progress", callId: "k", progress: 0.5, message: "halfway" }, {
      at: 1_100,
    }),
    env(3, { type: "state", version: 3, snapshot: { cart: ["p1"] } }, { at: 1_200 }),
    env(4, { type: "turn_status", status: "interrupted", reason: "worker restarted" }, {
      at: 1_300,
    }),
    env(5, { type: "turn_status", status: "running", reason: "resumed" }, { at: 1_400 }),
    env(6, {
      type: "error",
      message: "slow down",
      code: "rate_limited",
      retryable: true,
      retryAfterMs: 1500,
    }, { at: 1_500, traceId: "tr-9" }),
  ].join("\n") + "\n";
  const r = inspectText(text);
  const t = r.turns[0];
  // Before: the report had no statusReason, and render dropped code and retryAfterMs.
  assert.equal(t.statusReason, "resumed");
  assert.deepEqual(t.errors, [{
    message: "slow down",
    retryable: true,
    code: "rate_limited",
    retryAfterMs: 1500,
  }]);
  assert.equal(t.tools[0].progress, 0.5);
  assert.equal(t.tools[0].progressMessage, "halfway");
  assert.deepEqual(t.state, { version: 3, snapshot: { cart: ["p1"] } });
  const out = renderReport(r);
  assert.match(out, /reason +resumed/);
  assert.match(
    out,
    /error \[rate_limited\]: slow down \(retryable: true, retry after 1\.500 s \(1500 ms\)\)/,
  );
  assert.match(out, /progress 50% halfway/);
  assert.match(out, /state +version 3 \{"cart":\["p1"\]\}/);
  // the timeline shows every field of every event, the envelope's extra fields too
  assert.match(out, /turn_status {2}status="interrupted" reason="worker restarted"/);
  assert.match(
    out,
    /error {2}message="slow down" code="rate_limited" retryable=true retryAfterMs=1500 eventId="t-1:6" traceId="tr-9"/,
  );
});

Deno.test("timeline: `at` per frame, offsets from the first, gaps over --gap-ms flagged, time running backwards warned", async () => {
  const text = [
    env(1, { type: "delta", text: "a" }, { at: 1_767_225_600_000 }),
    env(2, { type: "delta", text: "b" }, { at: 1_767_225_600_250 }),
    env(3, { type: "delta", text: "c" }, { at: 1_767_225_612_250 }), // 12 s later
    env(4, { type: "delta", text: "d" }, { at: 1_767_225_612_000 }), // back 250 ms
    env(5, { type: "done" }, { at: 1_767_225_613_000 }),
  ].join("\n") + "\n";
  // Before: `at` was ignored (no timeline at all).
  const r = inspectText(text);
  const tl = r.timeline;
  assert.equal(tl.timedFrames, 5);
  assert.equal(tl.durationMs, 13_000);
  assert.deepEqual(tl.rows.map((row) => row.offsetMs), [0, 250, 12_250, 12_000, 13_000]);
  assert.deepEqual(tl.gaps, [{ line: 3, previousLine: 2, gapMs: 12_000, offsetMs: 12_250 }]);
  assert.equal(tl.rows[2].gapMs, 12_000);
  assert.deepEqual(
    r.problems.map((p) => [p.line, p.severity, p.code]),
    [[4, "warning", "time-backwards"]],
  );
  assert.equal(r.turns[0].summary.durationMs, 13_000);
  const out = renderReport(r);
  assert.match(
    out,
    /Timeline: 5 frame\(s\), 5 with a time, over 13\.0 s from 2026-01-01T00:00:00\.000Z · 1 gap\(s\) over 5\.000 s/,
  );
  assert.match(out, /line 3 +\+12\.3 s +⚠ gap 12\.0 s #3 delta {2}text="c"/);
  // a higher threshold flags nothing
  const quiet = JSON.parse((await cli(["--json", "--gap-ms=20000"], text)).out);
  assert.equal(quiet.timeline.gapCount, 0);
  assert.equal(quiet.timeline.gapThresholdMs, 20_000);
  assert.equal((await cli(["--gap-ms=soon"], text)).code, 2);
});

Deno.test("a raw ESC byte is a problem on its line; the rest of the capture is analysed", () => {
  const text = 'id: 1\ndata: {"type":"token","content":"a"}\n\n' +
    'id: 2\ndata: {"type":"token","content":"b\x1b[31mc"}\n\n' +
    'id: 3\ndata: {"type":"done"}\n\n';
  // Before: exit 2, "the input contains control characters", no line, no turn.
  const r = inspectBytes(new TextEncoder().encode(text));
  assert.equal(r.exitCode, 1);
  assert.deepEqual(r.problems.map((p) => [p.line, p.code]), [
    [4, "invalid-json"],
    [5, "control-character"],
  ]);
  assert.match(r.problems[1].message, /U\+001B \(ESC\) at character 35 of the line/);
  assert.equal(r.turns[0].text, "a");
  assert.equal(r.turns[0].status, "completed");
  assert.ok(!renderReport(r).includes("\x1b"));
  // bytes that are not UTF-8 on one line: the same
  const bytes = new TextEncoder().encode(text.replace("\x1b[31m", "__"));
  bytes[bytes.indexOf(0x5f)] = 0xff;
  const bad = inspectBytes(bytes);
  assert.deepEqual(bad.problems.map((p) => [p.line, p.code]), [[5, "invalid-utf8"]]);
  assert.equal(bad.turns[0].text, "ab\ufffd_c");
});

/** Every character the output must never carry raw. */
const UNSAFE_SAMPLES = [
  "\x00",
  "\x07",
  "\x1b",
  "\x7f",
  "\x85",
  "\x9b",
  "\u00ad",
  "\u061c",
  "\u200b",
  "\u200e",
  "\u200f",
  "\u2028",
  "\u2029",
  "\u202a",
  "\u202b",
  "\u202c",
  "\u202d",
  "\u202e",
  "\u2066",
  "\u2067",
  "\u2068",
  "\u2069",
  "\ufeff",
  "\u{e0041}",
  "\ud800",
];

Deno.test("control and bidi characters are escaped in human and --json output, wherever untrusted text shows", async () => {
  const evil = UNSAFE_SAMPLES.join("");
  // ids are wire ids: NUL and a lone surrogate would be refused (and still shown escaped)
  const evilId = UNSAFE_SAMPLES.filter((c) => c !== "\x00" && c !== "\ud800").join("");
  const text = [
    env(1, { type: "session", sessionId: `s${evilId}` }),
    env(2, { type: "provenance", engine: `e${evil}`, model: `m${evil}` }),
    env(3, { type: "delta", text: `hi ${evil} <report>{"plans":[{"title":"p${evil}"}]}</report>` }),
    env(4, { type: "tool_call", callId: `k${evilId}`, name: `n${evil}`, input: { [evil]: evil } }),
    env(5, {
      type: "tool_result",
      callId: `k${evilId}`,
      name: `n${evil}`,
      ok: false,
      summary: evil,
    }),
    env(6, { type: "tool_call", callId: `k${evil}`, name: "refused: not a wire id" }),
    env(6, { type: "turn_status", status: "cancelled", reason: `r${evil}` }),
  ].join("\n") + "\n" + `{"junk${evil}` + "\n" + env(7, { type: `x${evil}` }, {}, `t${evil}`) +
    "\n";
  // Before: U+202E and the other format characters were printed raw.
  const human = await cli(["--all"], text);
  const json = await cli(["--json", "--all"], text);
  for (const c of UNSAFE_SAMPLES) {
    const name = `U+${c.codePointAt(0)!.toString(16)}`;
    assert.ok(!human.out.includes(c), `${name} raw in the human output`);
    assert.ok(!json.out.includes(c), `${name} raw in the --json output`);
  }
  assert.ok(!UNSAFE_IN_OUTPUT.test(human.out), "an unsafe character in the output");
  assert.match(human.out, /\\u202e/);
  // The JSON escapes change bytes, never values.
  const report = JSON.parse(json.out);
  assert.equal(report.turns[0].sessionId, `s${evilId}`);
  assert.equal(report.turns[0].statusReason, `r${evil}`);
});

Deno.test("--strict: warnings are violations (exit 1)", async () => {
  const cut = env(1, { type: "delta", text: "a" }) + "\n"; // no terminal event: a warning
  assert.equal((await cli([], cut)).code, 0);
  const strict = await cli(["--strict"], cut);
  assert.equal(strict.code, 1);
  assert.match(strict.out, /contract violations \(--strict: warnings count\) \(exit 1\)/);
  const report = JSON.parse((await cli(["--strict", "--json"], cut)).out);
  assert.equal(report.strict, true);
  assert.equal(report.exitCode, 1);
  // a clean capture stays clean
  const clean = env(1, { type: "delta", text: "a" }) + "\n" + env(2, { type: "done" }) + "\n";
  assert.equal((await cli(["--strict"], clean)).code, 0);
});

Deno.test("several turns in one capture: each folded on its own, with its own summary", () => {
  const v1 = [
    env(1, { type: "delta", text: "first" }, { at: 1_000 }, "t-1"),
    env(2, { type: "done" }, { at: 2_000 }, "t-1"),
    env(1, { type: "delta", text: "second" }, { at: 60_000 }, "t-2"),
    env(2, { type: "error", message: "boom", retryable: false }, { at: 61_000 }, "t-2"),
    env(1, { type: "delta", text: "other chat" }, { at: 70_000 }, "t-1", "c-2"),
  ].join("\n") + "\n";
  // Before: the second turn was `foreign-turn` refusals; one turn only.
  const r = inspectText(v1);
  assert.deepEqual(
    r.turns.map((t) => [t.conversationId, t.turnId, t.status, t.text, t.summary.firstLine]),
    [
      ["c-1", "t-1", "completed", "first", 1],
      ["c-1", "t-2", "failed", "second", 3],
      ["c-2", "t-1", "running", "other chat", 5],
    ],
  );
  assert.deepEqual(r.turns.map((t) => t.summary.durationMs), [1_000, 1_000, 0]);
  assert.deepEqual(r.problems.map((p) => [p.turn, p.code]), [[2, "no-terminal-event"]]);
  assert.equal(r.timeline.gapCount, 0); // time between turns is not a gap
  const out = renderReport(r);
  assert.match(
    out,
    /Turn #2: failed · c-1 \/ t-2 · lines 3–4 · 2 event\(s\) · 0 error\(s\), 0 warning\(s\) · 1\.000 s/,
  );
  assert.match(out, /3 turns/);
  // Scout: a `session` after the terminal frame starts the next response's turn
  const scout = inspectText(
    'id: 1\ndata: {"type":"session","sessionId":"s"}\n\nid: 2\ndata: {"type":"token","content":"a"}\n\n' +
      'id: 3\ndata: {"type":"done"}\n\nid: 1\ndata: {"type":"session","sessionId":"s"}\n\n' +
      'id: 2\ndata: {"type":"token","content":"b"}\n\nid: 3\ndata: {"type":"done"}\n\n',
  );
  assert.equal(scout.exitCode, 0, JSON.stringify(scout.problems));
  assert.deepEqual(scout.turns.map((t) => [t.text, t.status]), [["a", "completed"], [
    "b",
    "completed",
  ]]);
  // AI SDK: a `start` after [DONE] is the next message
  const chunks = (text: string) =>
    [
      { type: "start", messageId: `m-${text}` },
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: text },
      { type: "text-end", id: "t" },
      { type: "finish" },
    ].map((c) => `data: ${JSON.stringify(c)}\n\n`).join("") + "data: [DONE]\n\n";
  const ai = inspectText(chunks("one") + chunks("two"));
  assert.equal(ai.exitCode, 0, JSON.stringify(ai.problems));
  assert.deepEqual(ai.turns.map((t) => [t.messageId, t.text]), [["m-one", "one"], [
    "m-two",
    "two",
  ]]);
});

Deno.test("an SSE event over the 1 MiB bound is a problem on its line; the events after it are read", () => {
  const text = 'id: 1\ndata: {"type":"token","content":"a"}\n\n' +
    `id: 2\ndata: ${"x".repeat(1_100_000)}\n\n` +
    'id: 3\ndata: {"type":"token","content":"b"}\n\nid: 4\ndata: {"type":"done"}\n\n';
  // Before: exit 2 for the whole capture.
  const r = inspectText(text);
  assert.equal(r.exitCode, 1);
  assert.deepEqual(r.problems.map((p) => [p.line, p.code]), [[5, "sse-limit"]]);
  assert.equal(r.turns[0].text, "ab");
});

Deno.test("a UTF-16 capture (PowerShell's `>`) is decoded, with a hint", () => {
  const text =
    'id: 1\r\ndata: {"type":"token","content":"hé"}\r\n\r\nid: 2\r\ndata: {"type":"done"}\r\n\r\n';
  const bytes = new Uint8Array(2 + text.length * 2);
  bytes.set([0xff, 0xfe]);
  for (let i = 0; i < text.length; i++) {
    bytes[2 + 2 * i] = text.charCodeAt(i) & 0xff;
    bytes[3 + 2 * i] = text.charCodeAt(i) >> 8;
  }
  const r = inspectBytes(bytes);
  assert.equal(r.exitCode, 0, JSON.stringify(r.problems));
  assert.equal(r.turns[0].text, "hé");
  assert.deepEqual(r.hints.map((h) => h.code), ["utf-16"]);
});

Deno.test("a failure inside inspect is an internal-error report (exit 2), never an exception", () => {
  const hostileOptions = new Proxy({}, {
    get() {
      throw new Error("trap");
    },
  });
  const r = inspectText('data: {"type":"done"}\n\n', hostileOptions);
  assert.equal(r.dialect, "scout"); // the options read as absent
  assert.equal(inspectText(42 as unknown as string).problems[0].code, "unreadable");
  assert.equal(inspectBytes("x" as unknown as Uint8Array).problems[0].code, "unreadable");
});

Deno.test("with --all, every field of every frame of every fixture capture is in the human output", async () => {
  const { previewJson } = await import("../../src/cli/json_text.ts");
  const root = new URL("../../fixtures/", import.meta.url);
  const paths: string[] = [];
  const walk = async (dir: URL, rel: string) => {
    for await (const e of Deno.readDir(dir)) {
      if (e.isDirectory) await walk(new URL(`${e.name}/`, dir), `${rel}${e.name}/`);
      else if (/\.(sse|ndjson)$/.test(e.name)) paths.push(`${rel}${e.name}`);
    }
  };
  await walk(root, "");
  assert.ok(paths.length >= 10);
  let checked = 0;
  for (const path of paths) {
    const r = inspectText(await Deno.readTextFile(new URL(path, root)), { all: true });
    const out = renderReport(r, { all: true });
    for (const row of r.timeline.rows) {
      const data = row.data;
      if (typeof data !== "object" || data === null || Array.isArray(data)) continue;
      const record = data as Record<string, unknown>;
      const event = record.event;
      const fields = r.dialect === "v1" && typeof event === "object" && event !== null
        ? { ...event as Record<string, unknown>, eventId: record.eventId }
        : record;
      for (const [k, v] of Object.entries(fields)) {
        if (k === "type") continue;
        const shown = `${k}=${previewJson(v, 120)}`;
        assert.ok(out.includes(shown), `${path} line ${row.line}: ${shown} not shown`);
        checked++;
      }
    }
  }
  assert.ok(checked > 200, `${checked} fields checked`);
});
