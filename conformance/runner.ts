/**
 * The conformance runner: feeds every case of `conformance/cases/` to one or
 * more testees over protocol `papercusp-conformance/1` (JSON lines on
 * stdin/stdout, see `conformance/README.md`), compares each outcome with the
 * case's `expect`, prints per-rule and total pass/fail counts, and exits 1
 * on any failure.
 *
 * Usage (`deno task conformance` runs the first line):
 *
 *     deno run --allow-read --allow-run conformance/runner.ts            # both testees
 *     deno run --allow-read --allow-run conformance/runner.ts --only=python
 *     deno run --allow-read --allow-run conformance/runner.ts --testee="./my-client --conformance"
 *     deno run --allow-read --allow-run conformance/runner.ts --mutation # the mutation check
 *     deno run --allow-read --allow-run conformance/runner.ts --verbose  # every failing case in full
 *
 * @module
 */

/** The protocol the runner speaks. */
export const PROTOCOL = "papercusp-conformance/1";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** One case of the corpus. */
export interface ConformanceCase {
  /** Unique id, e.g. `fold.order.gap-one`. */
  readonly id: string;
  /** The case kind (see the README). */
  readonly kind: string;
  /** What the case shows, in one sentence. */
  readonly description: string;
  /** The one rule whose mutant must turn this case red. */
  readonly kill: string;
  /** Other rules the case exercises (for the per-rule counts). */
  readonly rules?: readonly string[];
  /** The kind's input. */
  readonly input: { [key: string]: Json };
  /** The expected outcome. */
  readonly expect: Json;
}

/** One rule of `conformance/rules.json`. */
export interface Rule {
  /** Stable id, e.g. `v1.order.gap`. */
  readonly id: string;
  /** The rule in one line. */
  readonly statement: string;
  /** Where the README states it (`README.md#anchor` or `conformance/README.md#anchor`). */
  readonly anchor: string;
}

/** A testee to run: a command line and a name. */
export interface Testee {
  /** Shown in the report. */
  readonly name: string;
  /** The program and its arguments. */
  readonly command: readonly string[];
  /** The directory it runs in (default: the repository root). */
  readonly cwd?: string | URL;
}

/** A testee's answer that is not an outcome: its error message for the case. */
export class TesteeError {
  /** Create one. */
  constructor(
    /** What the testee said (or that it did not answer). */
    readonly message: string,
  ) {}
  /** How it is printed. */
  toJSON(): Json {
    return { testeeError: this.message };
  }
}

/** The verdict on one case. */
export interface CaseResult {
  /** The case. */
  readonly case: ConformanceCase;
  /** Whether the outcome equals `expect`. */
  readonly pass: boolean;
  /** The testee's outcome (or its error). */
  readonly got: Json | TesteeError;
}

const ROOT = new URL("../", import.meta.url);
const CONFORMANCE = new URL("./", import.meta.url);

/** Every case under `conformance/cases/`, in file then case order. */
export function loadCases(dir: URL = new URL("cases/", CONFORMANCE)): ConformanceCase[] {
  const files: string[] = [];
  const walk = (d: URL, prefix: string) => {
    for (const e of Deno.readDirSync(d)) {
      if (e.isDirectory) walk(new URL(`${e.name}/`, d), `${prefix}${e.name}/`);
      else if (e.name.endsWith(".json")) files.push(prefix + e.name);
    }
  };
  walk(dir, "");
  files.sort();
  const out: ConformanceCase[] = [];
  for (const f of files) {
    const doc = JSON.parse(Deno.readTextFileSync(new URL(f, dir)));
    for (const c of doc.cases as ConformanceCase[]) out.push(c);
  }
  return out;
}

/** The rules registry. */
export function loadRules(): Rule[] {
  return JSON.parse(Deno.readTextFileSync(new URL("rules.json", CONFORMANCE))).rules;
}

/** Problems of the corpus itself: duplicate ids, unknown kinds or rules, missing fields. */
export function checkCorpus(cases: readonly ConformanceCase[], rules: readonly Rule[]): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  const known = new Set(rules.map((r) => r.id));
  const kinds = new Set([
    "schema",
    "fold",
    "sse",
    "capabilities",
    "version",
    "legacy",
    "replay",
    "blocks",
    "card-answer",
  ]);
  for (const r of rules) {
    if (!/^[a-z0-9]+(\.[a-z0-9-]+)+$/.test(r.id)) problems.push(`rule id ${r.id} is malformed`);
    if (typeof r.statement !== "string" || r.statement === "") {
      problems.push(`${r.id}: no statement`);
    }
    if (!/^(conformance\/)?README\.md#[a-z0-9-]+$/.test(r.anchor)) {
      problems.push(`${r.id}: anchor ${r.anchor} is not README.md#… or conformance/README.md#…`);
    }
  }
  if (new Set(rules.map((r) => r.id)).size !== rules.length) problems.push("duplicate rule ids");
  for (const c of cases) {
    if (ids.has(c.id)) problems.push(`duplicate case id ${c.id}`);
    ids.add(c.id);
    if (!kinds.has(c.kind)) problems.push(`${c.id}: unknown kind ${c.kind}`);
    if (!known.has(c.kill)) problems.push(`${c.id}: kill names unknown rule ${c.kill}`);
    for (const r of c.rules ?? []) if (!known.has(r)) problems.push(`${c.id}: unknown rule ${r}`);
    if (typeof c.description !== "string" || c.description === "") {
      problems.push(`${c.id}: no description`);
    }
    if (c.input === undefined || c.expect === undefined) problems.push(`${c.id}: no input/expect`);
  }
  for (const r of rules) {
    if (!cases.some((c) => c.kill === r.id)) problems.push(`rule ${r.id} has no kill case`);
  }
  return problems;
}

/** Deep equality of JSON values (object key order ignored). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => sameJson(x, bb[i]));
  }
  const ka = Object.keys(a as object), kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  return ka.every((k) =>
    Object.hasOwn(b as object, k) &&
    sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])
  );
}

/** The longest line the runner reads from a testee: 16 Mi UTF-16 code units (a case's outcome). */
export const MAX_LINE_LENGTH = 16 * 1024 * 1024;

/**
 * Splits decoded text arriving in chunks into LF-terminated lines. Each
 * chunk is scanned once (the unterminated rest is kept as parts, not
 * re-scanned), and a line longer than `max` UTF-16 code units throws an
 * `Error` saying so instead of buffering without bound.
 */
export class LineSplitter {
  #parts: string[] = [];
  #length = 0;
  /** Create one; `max` in UTF-16 code units (default {@link MAX_LINE_LENGTH}). */
  constructor(readonly max: number = MAX_LINE_LENGTH) {}
  /** Feed one chunk; the lines it completes, without their LF. */
  push(chunk: string): string[] {
    const out: string[] = [];
    let start = 0;
    for (let nl = chunk.indexOf("\n"); nl !== -1; nl = chunk.indexOf("\n", start)) {
      this.#grow(nl - start);
      this.#parts.push(chunk.slice(start, nl));
      out.push(this.#parts.length === 1 ? this.#parts[0] : this.#parts.join(""));
      this.#parts = [];
      this.#length = 0;
      start = nl + 1;
    }
    if (start < chunk.length) {
      this.#grow(chunk.length - start);
      this.#parts.push(chunk.slice(start));
    }
    return out;
  }
  /** The unterminated rest at the end of the output (`""` when none). */
  end(): string {
    const rest = this.#parts.join("");
    this.#parts = [];
    this.#length = 0;
    return rest;
  }
  #grow(n: number): void {
    this.#length += n;
    if (this.#length > this.max) {
      throw new Error(`a line longer than ${this.max} characters (the limit); is it JSON lines?`);
    }
  }
}

/** How long a testee may take for the whole corpus before it is killed: 5 minutes. */
export const DEFAULT_TIMEOUT_MS = 300_000;

/** The default testees: this library (TypeScript) and the Python client. */
export function defaultTestees(): Testee[] {
  return [
    {
      name: "typescript",
      command: [Deno.execPath(), "run", "--quiet", "--allow-read", "conformance/ts/testee.ts"],
    },
    { name: "python", command: ["python3", "conformance/python/testee.py"] },
  ];
}

/**
 * `setsid` (util-linux), which starts a testee as the leader of its own
 * process group so a timeout can kill the testee and every process it
 * started (a wrapper script's children); `null` where it is missing (then
 * only the testee itself is killed).
 */
function setsidPath(): string | null {
  for (const dir of ["/usr/bin", "/bin", "/usr/local/bin"]) {
    try {
      if (Deno.statSync(`${dir}/setsid`).isFile) return `${dir}/setsid`;
    } catch {
      // not there
    }
  }
  return null;
}

/** Start `testee` in its own process group (Linux); `kill()` ends the whole group. */
function spawnTestee(testee: Testee): { child: Deno.ChildProcess; kill: () => void } {
  const setsid = setsidPath();
  const [program, ...args] = setsid === null ? testee.command : [setsid, ...testee.command];
  const child = new Deno.Command(program, {
    args,
    cwd: testee.cwd ?? ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { RUST_BACKTRACE: "0", NO_COLOR: "1", PYTHONIOENCODING: "utf-8" },
  }).spawn();
  const kill = () => {
    // setsid execs the testee as a session leader: its pid is the group id.
    if (setsid !== null) {
      try {
        Deno.kill(-child.pid, "SIGKILL");
      } catch {
        // the group is gone
      }
    }
    try {
      child.kill("SIGKILL");
    } catch {
      // already exited
    }
  };
  return { child, kill };
}

/**
 * Run `cases` through one testee: a `hello` handshake, then one `case` line
 * each (with `mutant` when given: `mutants[i]` for `cases[i]`). Resolves to
 * the outcomes by case id, or rejects when the testee cannot be started,
 * answers the handshake wrongly, exits early, or takes more than
 * `timeoutMs` milliseconds in all; then the testee's whole process group
 * is killed (see {@link spawnTestee}) and its output no longer read.
 */
export async function runTestee(
  testee: Testee,
  cases: readonly ConformanceCase[],
  mutants?: readonly string[],
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<Map<string, Json | TesteeError>> {
  const { child, kill } = spawnTestee(testee);
  const encoder = new TextEncoder();
  const writer = child.stdin.getWriter();
  const send = (async () => {
    const lines = [JSON.stringify({ type: "hello", protocol: PROTOCOL })];
    cases.forEach((c, i) => {
      const msg: Record<string, Json> = { type: "case", id: c.id, kind: c.kind, input: c.input };
      if (mutants !== undefined) msg.mutant = mutants[i];
      lines.push(JSON.stringify(msg));
    });
    try {
      await writer.write(encoder.encode(lines.join("\n") + "\n"));
      await writer.close();
    } catch {
      // the testee exited early: reported below
    }
  })();
  const stderr = new Response(child.stderr).text();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
    reader.cancel().catch(() => {});
  }, timeoutMs);
  try {
    const outcomes = new Map<string, Json | TesteeError>();
    let hello: Record<string, Json> | null = null;
    const lines = new LineSplitter();
    const handle = (line: string) => {
      if (line.trim() === "") return;
      const msg = JSON.parse(line) as Record<string, Json>;
      if (hello === null) {
        hello = msg;
        if (msg.type !== "hello" || msg.protocol !== PROTOCOL) {
          throw new Error(`${testee.name}: bad handshake ${line.slice(0, 200)}`);
        }
        return;
      }
      if (msg.type === "outcome") outcomes.set(msg.id as string, msg.outcome);
      else outcomes.set(msg.id as string, new TesteeError(String(msg.message)));
    };
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      let complete: string[];
      try {
        complete = lines.push(r.value);
      } catch (e) {
        throw new Error(`${testee.name}: ${e instanceof Error ? e.message : e}`);
      }
      for (const line of complete) handle(line);
    }
    if (timedOut) throw new Error(`${testee.name}: killed after ${timeoutMs} ms`);
    handle(lines.end());
    await send;
    const status = await child.status;
    clearTimeout(timer);
    const err = await stderr;
    if (timedOut) throw new Error(`${testee.name}: killed after ${timeoutMs} ms`);
    if (hello === null) {
      throw new Error(`${testee.name}: no handshake (exit ${status.code}) ${err.slice(0, 2000)}`);
    }
    if (outcomes.size < cases.length) {
      throw new Error(
        `${testee.name}: answered ${outcomes.size} of ${cases.length} cases (exit ${status.code}) ${
          err.slice(0, 2000)
        }`,
      );
    }
    return outcomes;
  } finally {
    // Whatever happened (a bad handshake, a line that is not JSON, a timeout), nothing stays running.
    clearTimeout(timer);
    kill();
    reader.cancel().catch(() => {});
    writer.abort().catch(() => {});
  }
}

/** Compare each case's outcome with its `expect`. */
export function judge(
  cases: readonly ConformanceCase[],
  outcomes: Map<string, Json | TesteeError>,
): CaseResult[] {
  return cases.map((c) => {
    const got = outcomes.get(c.id) ?? new TesteeError("no answer");
    return { case: c, got, pass: !(got instanceof TesteeError) && sameJson(got, c.expect) };
  });
}

/** Per-rule counts: every rule a case kills or names in `rules`. */
export function perRule(
  results: readonly CaseResult[],
): Map<string, { pass: number; fail: number }> {
  const out = new Map<string, { pass: number; fail: number }>();
  for (const r of results) {
    for (const rule of new Set([r.case.kill, ...(r.case.rules ?? [])])) {
      const e = out.get(rule) ?? { pass: 0, fail: 0 };
      if (r.pass) e.pass++;
      else e.fail++;
      out.set(rule, e);
    }
  }
  return out;
}

/**
 * The mutation check: each case runs with the mutant of its `kill` rule, and
 * must then FAIL (its outcome must differ from `expect`). Returns the cases
 * that stayed green, by rule.
 */
export async function mutationCheck(
  testee: Testee,
  cases: readonly ConformanceCase[],
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<{ survivors: Map<string, string[]>; killed: number }> {
  const outcomes = await runTestee(testee, cases, cases.map((c) => c.kill), timeoutMs);
  const survivors = new Map<string, string[]>();
  let killed = 0;
  for (const r of judge(cases, outcomes)) {
    if (r.got instanceof TesteeError) {
      survivors.set(r.case.kill, [
        ...(survivors.get(r.case.kill) ?? []),
        `${r.case.id} (testee error: ${r.got.message})`,
      ]);
    } else if (r.pass) {
      survivors.set(r.case.kill, [...(survivors.get(r.case.kill) ?? []), r.case.id]);
    } else killed++;
  }
  return { survivors, killed };
}

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + " ".repeat(n - s.length);
}

/** The runner's options, from its command line. */
export interface RunnerOptions {
  /** `--mutation`: run the mutation check instead of the testees. */
  readonly mutation: boolean;
  /** `--verbose`: per-rule counts and every failing case in full. */
  readonly verbose: boolean;
  /** `--only=<name>`: run only the default testee of that name. */
  readonly only?: string;
  /** `--testee=<command line>`: run this program instead of the default testees. */
  readonly testee?: string;
  /** `--timeout-ms=<n>`: how long a testee may take for the whole corpus (ms). */
  readonly timeoutMs: number;
  /** `--help`: print the usage and exit 0. */
  readonly help: boolean;
}

/** The runner's usage text. */
export const USAGE = `usage: deno task conformance [options]
  --only=<typescript|python>   run one of the default testees
  --testee="<command line>"    run your testee instead (split on spaces; relative paths are
                               resolved from the directory you run the task in)
  --mutation                   the mutation check (the TypeScript testee with each rule switched off)
  --timeout-ms=<n>             kill a testee (and its process group) after n ms (default ${DEFAULT_TIMEOUT_MS})
  --verbose                    per-rule counts, every failing case in full
  --help                       this text
exit: 0 all pass, 1 a failure, 2 a usage error`;

/** The names `--only` accepts: the default testees. */
export const DEFAULT_TESTEE_NAMES: readonly string[] = ["typescript", "python"];

/**
 * Parse the runner's command line. Every argument must be one of the known
 * flags: an unknown or misspelt flag (`--mutaton`), a flag without its value
 * (`--only=`), an `--only` that names no default testee, an empty
 * `--testee`, `--only` with `--testee` or a bad `--timeout-ms` is a usage
 * error (`{ok: false, message}`), so the runner never runs something other
 * than what was asked and reports success.
 */
export function parseRunnerArgs(
  args: readonly string[],
): { ok: true; options: RunnerOptions } | { ok: false; message: string } {
  let mutation = false, verbose = false, help = false;
  let only: string | undefined, testee: string | undefined;
  let timeoutMs = DEFAULT_TIMEOUT_MS;
  for (const arg of args) {
    const eq = arg.indexOf("=");
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const value = eq === -1 ? undefined : arg.slice(eq + 1);
    const flagOnly = (set: () => void) => {
      if (value !== undefined) return `${name} takes no value`;
      set();
      return null;
    };
    let problem: string | null = null;
    switch (name) {
      case "--mutation":
        problem = flagOnly(() => (mutation = true));
        break;
      case "--verbose":
        problem = flagOnly(() => (verbose = true));
        break;
      case "--help":
      case "-h":
        problem = flagOnly(() => (help = true));
        break;
      case "--only":
        if (value === undefined || !DEFAULT_TESTEE_NAMES.includes(value)) {
          problem = `--only must be one of ${DEFAULT_TESTEE_NAMES.join(", ")} (got ${
            JSON.stringify(value ?? null)
          })`;
        } else only = value;
        break;
      case "--testee":
        if (value === undefined || value.trim() === "") problem = "--testee needs a command line";
        else testee = value;
        break;
      case "--timeout-ms": {
        const n = value === undefined || !/^[0-9]+$/.test(value) ? NaN : Number(value);
        if (!Number.isSafeInteger(n) || n < 1) {
          problem = `--timeout-ms must be a positive integer (got ${
            JSON.stringify(value ?? null)
          })`;
        } else timeoutMs = n;
        break;
      }
      default:
        problem = `unknown argument ${JSON.stringify(arg)}`;
    }
    if (problem !== null) return { ok: false, message: problem };
  }
  if (only !== undefined && testee !== undefined) {
    return { ok: false, message: "--only chooses a default testee; it cannot go with --testee" };
  }
  if (mutation && (only !== undefined || testee !== undefined)) {
    return { ok: false, message: "--mutation runs the TypeScript testee; no --only or --testee" };
  }
  return { ok: true, options: { mutation, verbose, only, testee, timeoutMs, help } };
}

/** Run the runner with `args`; resolves to the exit code (0 pass, 1 failure, 2 usage error). */
export async function main(args: readonly string[] = Deno.args): Promise<number> {
  const parsed = parseRunnerArgs(args);
  if (!parsed.ok) {
    console.error(`conformance: ${parsed.message}
${USAGE}`);
    return 2;
  }
  const options = parsed.options;
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  const verbose = options.verbose;
  const cases = loadCases();
  const rules = loadRules();
  const problems = checkCorpus(cases, rules);
  if (problems.length > 0) {
    console.error(`the corpus itself is broken:\n  ${problems.join("\n  ")}`);
    return 1;
  }
  const byKind = new Map<string, number>();
  for (const c of cases) byKind.set(c.kind, (byKind.get(c.kind) ?? 0) + 1);
  console.log(
    `corpus: ${cases.length} cases (${
      [...byKind].map(([k, n]) => `${k} ${n}`).join(", ")
    }), ${rules.length} rules`,
  );

  if (options.mutation) {
    const ts: Testee = {
      name: "typescript --mutation",
      command: [
        Deno.execPath(),
        "run",
        "--quiet",
        "--allow-read",
        "conformance/ts/testee.ts",
        "--mutation",
      ],
    };
    const { survivors, killed } = await mutationCheck(ts, cases, options.timeoutMs);
    const ruleCount = new Set(cases.map((c) => c.kill)).size;
    console.log(
      `mutation check: ${rules.length} rules, each switched off in the TypeScript testee's harness; ${killed} of ${cases.length} kill cases went red`,
    );
    if (survivors.size > 0) {
      for (const [rule, ids] of survivors) {
        console.log(`  ${rule}: kill cases stayed green (defects): ${ids.join(", ")}`);
      }
      console.log(`FAILED: ${survivors.size} of ${ruleCount} rules have surviving kill cases`);
      return 1;
    }
    console.log(`ok: every kill case of all ${ruleCount} rules went red under its rule's mutant`);
    return 0;
  }

  const custom = options.testee;
  let testees = custom !== undefined
    ? [{ name: custom, command: custom.split(" ").filter((s) => s !== "") }]
    : defaultTestees();
  if (options.only !== undefined) testees = testees.filter((t) => t.name === options.only);
  if (testees.length === 0) {
    console.error("conformance: no testee to run");
    return 2;
  }
  let failed = 0;
  for (const testee of testees) {
    const started = performance.now();
    let results: CaseResult[];
    try {
      results = judge(cases, await runTestee(testee, cases, undefined, options.timeoutMs));
    } catch (e) {
      console.log(`${testee.name}: could not run: ${e instanceof Error ? e.message : e}`);
      failed++;
      continue;
    }
    const ms = Math.round(performance.now() - started);
    const bad = results.filter((r) => !r.pass);
    const rulesSeen = perRule(results);
    const badRules = [...rulesSeen].filter(([, v]) => v.fail > 0);
    console.log(
      `\n${testee.name}: ${results.length - bad.length} passed, ${bad.length} failed (${ms} ms)`,
    );
    if (verbose || bad.length > 0) {
      console.log("  per rule (pass/total):");
      for (const [rule, v] of [...rulesSeen].sort(([a], [b]) => a.localeCompare(b))) {
        if (verbose || v.fail > 0) {
          console.log(
            `    ${pad(rule, 40)} ${v.pass}/${v.pass + v.fail}${v.fail > 0 ? "  FAIL" : ""}`,
          );
        }
      }
    } else {
      console.log(`  ${rulesSeen.size} rules, all passing`);
    }
    for (const r of bad.slice(0, verbose ? bad.length : 10)) {
      console.log(
        `  FAIL ${r.case.id} (${r.case.kind}, kill ${r.case.kill}): ${r.case.description}`,
      );
      console.log(`    expected ${JSON.stringify(r.case.expect).slice(0, verbose ? 100000 : 400)}`);
      console.log(`    got      ${JSON.stringify(r.got).slice(0, verbose ? 100000 : 400)}`);
    }
    if (bad.length > 10 && !verbose) console.log(`  … ${bad.length - 10} more (--verbose)`);
    if (bad.length > 0) failed++;
    if (badRules.length > 0) console.log(`  ${badRules.length} rules failing`);
  }
  console.log(
    failed === 0
      ? "\nconformance: all testees pass every case"
      : `\nconformance: ${failed} testee(s) failed`,
  );
  return failed === 0 ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
