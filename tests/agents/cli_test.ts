/** `inspect agents`: text and JSON output over the spec samples, exit codes, both io shapes. */
import assert from "node:assert/strict";
import { assertGolden, readFixture } from "../_helpers/golden.ts";
import { AGENTS_MAX_INPUT_CHARS, runAgentsCommand } from "../../src/cli/agents_command.ts";

function memoryIo(files: Record<string, string>) {
  const out: string[] = [];
  return {
    out,
    io: {
      readText: (p: string) =>
        Object.hasOwn(files, p)
          ? Promise.resolve(files[p])
          : Promise.reject(new Error("no such file")),
      write: (s: string) => void out.push(s),
    },
  };
}

async function sampleFiles(n: number): Promise<Record<string, string>> {
  return {
    "s.json": await readFixture(`agents/sample${n}_sessions.json`),
    "h.json": await readFixture(`agents/sample${n}_history.json`),
  };
}

Deno.test("text output for the three spec samples (golden)", async () => {
  for (const n of [1, 2, 3]) {
    const { io, out } = memoryIo(await sampleFiles(n));
    const code = await runAgentsCommand([
      "s.json",
      "h.json",
      "--now=1767225500000",
      "--seat",
      "titan=tpc",
    ], io);
    assert.equal(code, 0);
    await assertGolden(`agents/cli_sample${n}.golden.json`, out.join("").split("\n"));
  }
});

Deno.test("text output names the roster rows and draws the tree", async () => {
  const { io, out } = memoryIo(await sampleFiles(3));
  await runAgentsCommand(["s.json", "h.json", "--now=7000"], io);
  const text = out.join("");
  assert.match(text, /w1 \(earlier\)\s+exited\s+history\s+spawned\s+coord/);
  assert.match(text, /1\.25 \(exit-report\)/);
  assert.match(text, / {2}coord .*\n {2}├─ w2 .*\n {2}└─ w3 .*\n {5}└─ w1 /);
});

Deno.test("text output says how long ago each row last did anything, and each tree node's state", async () => {
  const { io, out } = memoryIo(await sampleFiles(3));
  await runAgentsCommand(["s.json", "h.json", "--now=7000"], io);
  const text = out.join("");
  assert.match(text, /LAST EVENT/);
  assert.match(text, / {2}w3 +retired .* 1\.9 s ago /); // retired at 5000, late detach at 5100
  assert.match(text, / {2}w1 \(earlier\) +exited .* 5\.0 s ago /);
  assert.match(text, /└─ w3 {2}\[retired; thinking @/);
  assert.match(text, /└─ w1 {2}\[spawning; thinking @/);
  assert.match(text, /├─ w2 {2}\[failed; thinking @/);
});

Deno.test("unknown kinds are described as what they are: no state change, names and activity only", async () => {
  const files: Record<string, string> = {
    "s.json": JSON.stringify({ sessions: [], brokerUptimeMs: 86_400_000 }),
    "h.json": JSON.stringify({
      items: [
        { msgId: "a", kind: "agent_spawned", from: "c", text: "", at: 1, meta: { target: "w" } },
        { msgId: "z", kind: "future_kind", from: "w", text: "", at: 2, meta: { target: "c" } },
      ],
    }),
  };
  const { io, out } = memoryIo(files);
  assert.equal(await runAgentsCommand(["s.json", "h.json", "--now=7000"], io), 0);
  const text = out.join("");
  assert.match(
    text,
    /1 row\(s\) of unknown kinds: no state change, read for names and activity only/,
  );
  assert.match(text, /└─ w {2}\[spawning; thinking @ 1970-01-01T00:00:00\.002Z\]/);
});

Deno.test("--json prints roster, graph and the parse report", async () => {
  const { io, out } = memoryIo(await sampleFiles(1));
  const code = await runAgentsCommand(["s.json", "h.json", "--json", "--now", "1767225500000"], io);
  assert.equal(code, 0);
  const doc = JSON.parse(out.join(""));
  assert.deepEqual(Object.keys(doc), ["roster", "graph", "parse"]);
  assert.deepEqual(doc.roster.agents.map((a: { name: string }) => a.name), [
    "tpc",
    "tpc-impl",
    "relay",
  ]);
  assert.deepEqual(doc.graph.nodes.map((n: { name: string }) => n.name), [
    "human",
    "tpc",
    "tpc-impl",
  ]);
  assert.deepEqual(doc.parse, {
    sessions: { malformed: 0, issues: [] },
    history: { malformed: 0, issues: [] },
  });
});

Deno.test("malformed rows: printed with reasons, exit 1, window counts every row", async () => {
  const files = {
    "s.json": JSON.stringify({ sessions: [{ name: "x" }], brokerUptimeMs: 50_000 }),
    "h.json": JSON.stringify({
      items: [
        { msgId: "a", kind: "agent_spawned", from: "c", text: "", at: 1, meta: { target: "w" } },
        { msgId: "b", kind: "message", from: "c", text: "", at: "late", meta: {} },
      ],
    }),
  };
  const { io, out } = memoryIo(files);
  assert.equal(await runAgentsCommand(["s.json", "h.json", "--now=10", "--limit=2"], io), 1);
  const text = out.join("");
  assert.match(text, /history 2 row\(s\) \(limit 2,/);
  assert.match(text, /1 malformed session row\(s\) skipped:\n {4}#0: /);
  assert.match(text, /1 malformed history row\(s\) skipped:\n {4}#1: at: /);
  assert.match(text, /history window is full/);
  const json = memoryIo(files);
  assert.equal(await runAgentsCommand(["s.json", "h.json", "--json", "--limit=2"], json.io), 1);
  const doc = JSON.parse(json.out.join(""));
  assert.equal(doc.roster.history.events, 2);
  assert.equal(doc.roster.diagnostics.malformedEvents, 1);
  assert.equal(doc.roster.diagnostics.malformedSessions, 1);
  assert.equal(doc.roster.diagnostics.historyFull, true);
});

Deno.test("usage and input errors exit 2 with a message", async () => {
  const cases: [string[], Record<string, string>, RegExp][] = [
    [[], {}, /expected <sessions\.json> <history\.json>/],
    [["a"], {}, /expected/],
    [["a", "b", "--bogus"], {}, /unknown option --bogus/],
    [["a", "b", "--limit=0"], {}, /--limit needs a positive integer/],
    [["a", "b", "--seat=x"], {}, /--seat needs SEAT=PREFIX/],
    [["a", "b"], {}, /cannot read a: no such file/],
    [["a", "b"], { a: "{", b: "{}" }, /a is not JSON/],
    [["a", "b"], { a: '{"sessions":[]}', b: '{"rows":[]}' }, /b: expected a \/api\/history body/],
    [["a", "b"], { a: "[]", b: '{"items":[]}' }, /a: expected a \/api\/sessions body/],
  ];
  for (const [args, files, re] of cases) {
    const { io, out } = memoryIo(files);
    assert.equal(await runAgentsCommand(args, io), 2, args.join(" "));
    assert.match(out.join(""), re);
  }
  const huge = memoryIo({ a: " ".repeat(AGENTS_MAX_INPUT_CHARS + 1), b: "{}" });
  assert.equal(await runAgentsCommand(["a", "b"], huge.io), 2);
  assert.match(huge.out.join(""), /a is over \d+ characters/);
  const notText: string[] = [];
  const code = await runAgentsCommand(["a", "b"], {
    readText: () => Promise.resolve(42 as unknown as string),
    write: (s) => notText.push(s),
  });
  assert.equal(code, 2);
  assert.match(notText.join(""), /cannot read a: the reader returned no text/);
  const help = memoryIo({});
  assert.equal(await runAgentsCommand(["--help"], help.io), 0);
  assert.match(help.out.join(""), /^inspect agents:/);
});

Deno.test("accepts main.ts's io shape (readTextFile/stdout/stderr) and sanitises control characters", async () => {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const files: Record<string, string> = {
    s: '{"sessions":[],"brokerUptimeMs":60000}',
    h: JSON.stringify({
      items: [{
        msgId: "a",
        kind: "agent_spawned",
        from: "c",
        text: "",
        at: 1,
        meta: { target: "evil\u001b[2J" },
      }],
    }),
  };
  const io = {
    readTextFile: (p: string) => Promise.resolve(files[p]),
    stdout: (s: string) => void stdout.push(s),
    stderr: (s: string) => void stderr.push(s),
  };
  assert.equal(await runAgentsCommand(["s", "h", "--now=5"], io), 0);
  assert.ok(!stdout.join("").includes("\u001b"));
  assert.match(stdout.join(""), /evil\?\[2J/);
  assert.equal(await runAgentsCommand(["s"], io), 2);
  assert.match(stderr.join(""), /expected/);
});

Deno.test("the generated 1,000-row pair runs through the CLI and flags aged-out spawn rows", async () => {
  const files = {
    "s.json": await readFixture("agents/generated_1000_sessions.json"),
    "h.json": await readFixture("agents/generated_1000_history.json"),
  };
  const { io, out } = memoryIo(files);
  assert.equal(await runAgentsCommand(["s.json", "h.json", "--now=1767300000000"], io), 0);
  const text = out.join("");
  assert.match(text, /history 1000 row\(s\) \(limit 1000,/);
  assert.match(text, /spawn row likely aged out \(origin unknown, marked \*\): /);
});
