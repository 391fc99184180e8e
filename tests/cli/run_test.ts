import assert from "node:assert/strict";
import { type CliIO, readBounded, type ReadOutcome, runCli } from "../../src/cli/run.ts";

function fakeIO(files: Record<string, string | Uint8Array>, stdin?: string) {
  const out: string[] = [];
  const err: string[] = [];
  const read = (name: string, data: string | Uint8Array | undefined, max: number): ReadOutcome => {
    if (data === undefined) {
      return { ok: false, code: "unreadable", message: `cannot read ${name}: no such file` };
    }
    const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
    if (bytes.byteLength > max) return { ok: false, code: "too-large", message: "too large" };
    return { ok: true, bytes };
  };
  const io: CliIO = {
    readFile: (p, max) => Promise.resolve(read(p, files[p], max)),
    readStdin: (max) => Promise.resolve(read("stdin", stdin, max)),
    write: (s) => void out.push(s),
    error: (s) => void err.push(s),
    color: false,
  };
  return { io, out: () => out.join(""), err: () => err.join("") };
}

Deno.test("runCli: file, stdin, --json, --dialect, bundled capture", async () => {
  const scout = 'id: 1\ndata: {"type":"token","content":"Hi"}\n\nid: 2\ndata: {"type":"done"}\n\n';
  const f = fakeIO({ "a.sse": scout }, scout);
  assert.equal(await runCli(["a.sse"], f.io), 0);
  assert.match(f.out(), /dialect scout/);
  const j = fakeIO({}, scout);
  assert.equal(await runCli(["-", "--json"], j.io), 0);
  assert.equal(JSON.parse(j.out()).turns[0].text, "Hi");
  const forced = fakeIO({ "a.sse": scout });
  assert.equal(await runCli(["a.sse", "--dialect=v1", "--json"], forced.io), 1);
  assert.equal(JSON.parse(forced.out()).dialect, "v1");
  const bundled = fakeIO({});
  assert.equal(await runCli([], bundled.io), 0);
  assert.match(bundled.out(), /tool_two_steps\.sse \(bundled\)/);
});

Deno.test("runCli: unreadable and bad usage exit 2", async () => {
  const missing = fakeIO({});
  assert.equal(await runCli(["nope.sse", "--json"], missing.io), 2);
  assert.equal(JSON.parse(missing.out()).problems[0].code, "unreadable");
  const big = fakeIO({ "big.sse": new Uint8Array(70 * 1024 * 1024) });
  assert.equal(await runCli(["big.sse", "--json"], big.io), 2);
  assert.equal(JSON.parse(big.out()).problems[0].code, "too-large");
  for (const args of [["--nope"], ["a", "b"], ["--dialect=x"]]) {
    const u = fakeIO({});
    assert.equal(await runCli(args, u.io), 2, args.join(" "));
    assert.match(u.err(), /^inspect: /);
  }
  const help = fakeIO({});
  assert.equal(await runCli(["--help"], help.io), 0);
  assert.match(help.out(), /Exit codes/);
});

Deno.test("runCli: agents goes through the same I/O", async () => {
  const sessions = await Deno.readTextFile(
    new URL("../../fixtures/agents/sample1_sessions.json", import.meta.url),
  );
  const history = await Deno.readTextFile(
    new URL("../../fixtures/agents/sample1_history.json", import.meta.url),
  );
  const f = fakeIO({ "s.json": sessions, "h.json": history });
  assert.equal(await runCli(["agents", "s.json", "h.json", "--json"], f.io), 0);
  assert.equal(typeof JSON.parse(f.out()), "object");
  const m = fakeIO({});
  assert.equal(await runCli(["agents", "s.json", "h.json"], m.io), 2);
  assert.match(m.err(), /no such file/);
});

Deno.test("runCli: a leading `--` (deno task start -- --help) is ignored; a later one ends the options", async () => {
  const help = fakeIO({});
  assert.equal(await runCli(["--", "--help"], help.io), 0, help.err());
  assert.match(help.out(), /Exit codes/);
  assert.equal(help.err(), "");
  const scout = 'id: 1\ndata: {"type":"token","content":"Hi"}\n\nid: 2\ndata: {"type":"done"}\n\n';
  const file = fakeIO({ "a.sse": scout, "--json": scout });
  assert.equal(await runCli(["--", "a.sse", "--json"], file.io), 0, file.err());
  assert.equal(JSON.parse(file.out()).turns[0].text, "Hi");
  const dashFile = fakeIO({ "--json": scout });
  assert.equal(await runCli(["--json", "--", "--json"], dashFile.io), 0, dashFile.err());
  assert.equal(JSON.parse(dashFile.out()).source, "--json");
  const sessions = await Deno.readTextFile(
    new URL("../../fixtures/agents/sample1_sessions.json", import.meta.url),
  );
  const history = await Deno.readTextFile(
    new URL("../../fixtures/agents/sample1_history.json", import.meta.url),
  );
  const agents = fakeIO({ "s.json": sessions, "h.json": history });
  assert.equal(await runCli(["--", "agents", "--json", "--", "s.json", "h.json"], agents.io), 0);
  assert.equal(typeof JSON.parse(agents.out()), "object");
});

Deno.test("runCli: --dialect takes its value after a space too; a missing value is bad usage", async () => {
  const scout = 'id: 1\ndata: {"type":"token","content":"Hi"}\n\nid: 2\ndata: {"type":"done"}\n\n';
  const f = fakeIO({ "a.sse": scout });
  assert.equal(await runCli(["--dialect", "scout", "a.sse", "--json"], f.io), 0, f.err());
  const report = JSON.parse(f.out());
  assert.equal(report.dialect, "scout");
  assert.equal(report.dialectReason, "chosen with --dialect");
  const missing = fakeIO({ "a.sse": scout });
  assert.equal(await runCli(["a.sse", "--dialect"], missing.io), 2);
  assert.match(missing.err(), /--dialect needs a value/);
});

Deno.test("readBounded: joins chunks; refuses past the bound counting string chunks as UTF-8 bytes", async () => {
  async function* gen(...chunks: (Uint8Array | string)[]) {
    yield* chunks;
  }
  const joined = await readBounded(gen(new Uint8Array([1, 2]), "é"), 4, "x");
  assert.deepEqual(joined, { ok: true, bytes: new Uint8Array([1, 2, 0xc3, 0xa9]) });
  const big = await readBounded(gen(new Uint8Array(3), "é"), 4, "stdin");
  assert.equal(big.ok, false);
  assert.equal(!big.ok && big.code, "too-large");
  assert.equal(!big.ok && big.message, "stdin is over the 4-byte bound");
});
