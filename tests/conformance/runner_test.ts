/**
 * The conformance runner itself: its command line, and how it treats
 * testees that misbehave (hang, leave children, answer garbage).
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import {
  LineSplitter,
  loadCases,
  parseRunnerArgs,
  runTestee,
  runTesteeCases,
} from "../../conformance/runner.ts";

const RUNNER = new URL("../../conformance/runner.ts", import.meta.url);

/** Run the runner as a process: its exit code, stdout and stderr. */
async function runRunner(args: string[], cwd?: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--allow-read",
      "--allow-run",
      "--allow-env",
      RUNNER.pathname,
      ...args,
    ],
    cwd,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", INIT_CWD: "" },
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("runner arguments: unknown, misspelt or empty flags are usage errors", () => {
  for (
    const args of [
      ["--mutaton"],
      ["--bogus"],
      ["mutation"],
      ["--only="],
      ["--only"],
      ["--only=rust"],
      ["--testee="],
      ["--testee=   "],
      ["--timeout-ms=0"],
      ["--timeout-ms=1.5"],
      ["--timeout-ms="],
      ["--verbose=yes"],
      ["--only=python", "--testee=python3 x.py"],
      ["--mutation", "--only=python"],
    ]
  ) {
    const r = parseRunnerArgs(args);
    assert.equal(r.ok, false, JSON.stringify(args));
  }
  const ok = parseRunnerArgs(["--only=python", "--verbose", "--timeout-ms=1000"]);
  assert.deepEqual(ok, {
    ok: true,
    options: {
      mutation: false,
      verbose: true,
      only: "python",
      testee: undefined,
      timeoutMs: 1000,
      help: false,
    },
  });
});

Deno.test("runner: a misspelt flag exits 2 with the usage, running nothing", async () => {
  const r = await runRunner(["--mutaton"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /unknown argument "--mutaton"/);
  assert.match(r.stderr, /usage: deno task conformance/);
  assert.doesNotMatch(r.stdout, /all testees pass/);
  const only = await runRunner(["--only=pyhton"]);
  assert.equal(only.code, 2);
  assert.match(only.stderr, /--only must be one of typescript, python/);
});

const TESTEES = new URL("./_testees/", import.meta.url);
const CASES = loadCases().filter((c) => c.kind === "version").slice(0, 3);

/** Whether process `pid` is gone (or a zombie waiting to be reaped). */
function dead(pid: number): boolean {
  try {
    return Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1].startsWith("Z");
  } catch {
    return true;
  }
}

/** Wait (bounded) until every pid is dead; the ones still alive. */
async function survivors(pids: number[]): Promise<number[]> {
  for (let i = 0; i < 50 && pids.some((p) => !dead(p)); i++) {
    await new Promise((r) => setTimeout(r, 100));
  }
  return pids.filter((p) => !dead(p));
}

Deno.test("runner timeout: the testee's whole process group is killed and reading stops", async () => {
  const dir = Deno.makeTempDirSync();
  try {
    const prefix = `${dir}/pid`;
    await assert.rejects(
      runTestee(
        { name: "wrapper", command: ["sh", new URL("wrapper.sh", TESTEES).pathname, prefix] },
        CASES,
        undefined,
        1000,
      ),
      /wrapper: killed after 1000 ms/,
    );
    const pids = ["holder", "detached"].map((k) => Number(Deno.readTextFileSync(`${prefix}.${k}`)));
    assert.deepEqual(await survivors(pids), [], "grandchildren still running");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

for (
  const [script, error] of [["bad_hello.py", /bad handshake/], ["garbage.py", /JSON/]] as const
) {
  Deno.test(`runner: a testee is killed when it fails the run (${script})`, async () => {
    const dir = Deno.makeTempDirSync();
    try {
      const pidFile = `${dir}/pid`;
      await assert.rejects(
        runTestee(
          { name: script, command: ["python3", new URL(script, TESTEES).pathname, pidFile] },
          CASES,
          undefined,
          60_000,
        ),
        error,
      );
      assert.deepEqual(await survivors([Number(Deno.readTextFileSync(pidFile))]), []);
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  });
}

Deno.test("runner lines: any chunking gives the lines split on LF", () => {
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom("a", "\n", "é", "{}", "\n\n", "😀")),
      fc.nat(),
      (parts, seed) => {
        const text = parts.join("");
        const splitter = new LineSplitter();
        const got: string[] = [];
        let pos = 0, s = seed;
        while (pos < text.length) {
          s = (s * 1103515245 + 12345) % 2147483648;
          const n = 1 + (s % 7);
          got.push(...splitter.push(text.slice(pos, pos + n)));
          pos += n;
        }
        const all = text.split("\n");
        assert.deepEqual(got, all.slice(0, -1));
        assert.equal(splitter.end(), all[all.length - 1]);
      },
    ),
  );
});

Deno.test("runner lines: a line over the limit is refused, in one chunk or many", () => {
  assert.throws(() => new LineSplitter(10).push("0123456789x\n"), /longer than 10/);
  const s = new LineSplitter(10);
  s.push("01234");
  s.push("56789");
  assert.throws(() => s.push("x"), /longer than 10/);
  assert.deepEqual(new LineSplitter(10).push("0123456789\n"), ["0123456789"]);
});

Deno.test("runner: a testee line over 16 Mi characters fails the run with a clear error", async () => {
  await assert.rejects(
    runTestee(
      { name: "big", command: ["python3", new URL("big_line.py", TESTEES).pathname] },
      CASES,
      undefined,
      60_000,
    ),
    /big: a line longer than 16777216 characters/,
  );
});

const py = (script: string, ...args: string[]) => ({
  name: script,
  command: ["python3", new URL(script, TESTEES).pathname, ...args],
});

Deno.test("runner diagnostics: a null line, garbage with stderr, ids it was not sent", async () => {
  await assert.rejects(
    runTestee(py("null_line.py"), CASES),
    /null_line.py: line 2 of its stdout is null, not a JSON object: "null"/,
  );
  const dir = Deno.makeTempDirSync();
  try {
    await assert.rejects(
      runTestee(py("garbage.py", `${dir}/pid`), CASES),
      /not JSON: "this is not json"\n {2}its stderr ends with:\n {4}about to go wrong/,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
  await assert.rejects(
    runTestee(py("wrong_ids.py"), CASES),
    /answered 3 case id\(s\) it was not sent: "bogus-1", "bogus-2", "bogus-3"/,
  );
});

Deno.test("runner kinds: only the declared kinds are sent; the rest are reported as skipped", async () => {
  const cases = loadCases().filter((c) => c.kind === "version" || c.kind === "capabilities");
  const run = await runTesteeCases(py("partial.py", "version"), cases);
  const versions = cases.filter((c) => c.kind === "version").map((c) => c.id);
  assert.deepEqual([...run.outcomes.keys()], versions);
  assert.deepEqual(run.kinds, ["version"]);
  assert.deepEqual([...run.skipped], [["capabilities", cases.length - versions.length]]);
});

Deno.test("runner kinds: skipped kinds are never counted as passed; running nothing fails", async () => {
  const partial = await runRunner([
    `--testee=python3 ${new URL("partial.py", TESTEES).pathname} version`,
  ]);
  assert.match(partial.stdout, /0 passed, 17 failed, \d+ not run/);
  assert.match(
    partial.stdout,
    /NOT RUN \(kinds its hello does not declare; not counted as passed\): .*schema \d+/,
  );
  assert.equal(partial.code, 1);
  const none = await runRunner([`--testee=python3 ${new URL("partial.py", TESTEES).pathname}`]);
  assert.match(none.stdout, /0 passed, 0 failed, \d+ not run/);
  assert.match(none.stdout, /FAIL: it ran no case at all/);
  assert.equal(none.code, 1);
});

Deno.test("runner: a --testee's relative paths are resolved from the caller's directory", async () => {
  const dir = Deno.makeTempDirSync();
  try {
    Deno.copyFileSync(new URL("partial.py", TESTEES), `${dir}/mine.py`);
    const r = await runRunner(["--testee=python3 ./mine.py version"], dir);
    assert.doesNotMatch(r.stdout, /could not run/);
    assert.match(r.stdout, /python3 \.\/mine\.py version: 0 passed, 17 failed/);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
