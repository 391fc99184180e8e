import assert from "node:assert/strict";

const MAIN = new URL("../../src/cli/main.ts", import.meta.url).pathname;
const ROOT = new URL("../../", import.meta.url).pathname;

/** Run the CLI as `deno task start` does (same permissions). */
async function run(args: string[], stdin?: Uint8Array) {
  const cmd = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-env=NO_COLOR", MAIN, ...args],
    cwd: ROOT,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", RUST_BACKTRACE: "0" },
  });
  const child = cmd.spawn();
  if (stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(stdin);
    await w.close();
  }
  const out = await child.output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

Deno.test("exit 0 on a clean capture; --json prints the stable report", async () => {
  const r = await run(["fixtures/legacy/papercup_turn.sse", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.schema, "papercusp.inspect/2");
  assert.equal(report.exitCode, 0);
  assert.equal(report.turns[0].text, "Let me check the large one.");
});

Deno.test("exit 1 on a capture with contract violations; human output has lines and summary", async () => {
  const r = await run(["fixtures/inspect/captures/v1_violations.ndjson"]);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /line 2 +error +gap:/);
  assert.match(r.stdout, /Summary: .*contract violations \(exit 1\)/);
});

Deno.test("exit 2 on a missing file", async () => {
  const r = await run(["fixtures/does/not/exist.sse"]);
  assert.equal(r.code, 2);
  assert.match(r.stdout, /no such file/);
});

Deno.test("exit 2 on binary garbage (stdin and file)", async () => {
  const garbage = new Uint8Array(4096);
  for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 131 + 7) % 256;
  const viaStdin = await run(["-", "--json"], garbage);
  assert.equal(viaStdin.code, 2);
  assert.equal(JSON.parse(viaStdin.stdout).exitCode, 2);
  const path = await Deno.makeTempFile({ suffix: ".sse" });
  try {
    await Deno.writeFile(path, garbage);
    assert.equal((await run([path])).code, 2);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("stdin with '-' reads a capture", async () => {
  const text = 'id: 1\ndata: {"type":"token","content":"Hi"}\n\nid: 2\ndata: {"type":"done"}\n\n';
  const r = await run(["-", "--json"], new TextEncoder().encode(text));
  assert.equal(r.code, 0, r.stdout);
  const report = JSON.parse(r.stdout);
  assert.equal(report.dialect, "scout");
  assert.equal(report.turns[0].text, "Hi");
});

Deno.test("no argument inspects the bundled real ai@7 capture", async () => {
  const r = await run([]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /dialect ai-sdk/);
  assert.match(r.stdout, /weather \(call-1\) output-available/);
});

Deno.test("--help exits 0; bad usage exits 2", async () => {
  const help = await run(["--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Exit codes: 0 clean, 1 contract violations, 2 unreadable input/);
  assert.equal((await run(["--bogus"])).code, 2);
  assert.equal((await run(["--dialect=klingon", "x.sse"])).code, 2);
  assert.equal((await run(["a.sse", "b.sse"])).code, 2);
});

Deno.test("`inspect agents` dispatches to the agents command", async () => {
  const ok = await run([
    "agents",
    "fixtures/agents/sample1_sessions.json",
    "fixtures/agents/sample1_history.json",
    "--json",
  ]);
  assert.equal(ok.code, 0, ok.stderr);
  assert.ok(typeof JSON.parse(ok.stdout) === "object");
  const missing = await run(["agents", "fixtures/agents/nope.json", "fixtures/agents/nope2.json"]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /cannot read/);
});

Deno.test("a reader that goes away (`inspect … --json | head`) is not a crash: no stack trace, exit code kept", async () => {
  const path = await Deno.makeTempFile({ suffix: ".sse" });
  try {
    // ~2 MB of report: far more than a pipe buffer, so the write hits the closed pipe.
    let text = "";
    for (let i = 1; i <= 20_000; i++) {
      text += `id: ${i}\ndata: {"type":"token","content":"word ${i} ${"x".repeat(60)}"}\n\n`;
    }
    await Deno.writeTextFile(path, text + 'id: 20001\ndata: {"type":"done"}\n\n');
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-read", "--allow-env=NO_COLOR", MAIN, path, "--json"],
      cwd: ROOT,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1", RUST_BACKTRACE: "0" },
    }).spawn();
    const reader = child.stdout.getReader();
    const first = await reader.read(); // like `head`: read a little, then close
    assert.ok(!first.done);
    await reader.cancel();
    const stderr = new TextDecoder().decode(
      (await new Response(child.stderr).arrayBuffer()) as ArrayBuffer,
    );
    const status = await child.status;
    assert.equal(stderr, "");
    assert.equal(status.code, 0);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("FILE may be a pipe (`inspect <(curl …)`, a FIFO); a directory is refused by name", async () => {
  const text = 'id: 1\ndata: {"type":"token","content":"Hi"}\n\nid: 2\ndata: {"type":"done"}\n\n';
  const dir = await Deno.makeTempDir();
  const fifo = `${dir}/capture.sse`;
  try {
    const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
    assert.ok(made.success, "mkfifo");
    const pending = run([fifo, "--json"]);
    const w = await Deno.open(fifo, { write: true }); // blocks until inspect opens it
    await w.write(new TextEncoder().encode(text));
    w.close();
    const piped = await pending;
    assert.equal(piped.code, 0, piped.stdout + piped.stderr);
    assert.equal(JSON.parse(piped.stdout).turns[0].text, "Hi");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  const directory = await run(["fixtures", "--json"]);
  assert.equal(directory.code, 2);
  assert.match(JSON.parse(directory.stdout).problems[0].message, /fixtures is a directory/);
});
