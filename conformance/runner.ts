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
 *     deno run --allow-read --allow-run conformance/runner.ts --timeout-ms=60000
 *
 * Exit codes: 0 every testee passes every case it ran, 1 a failure (a case,
 * a testee that could not run or ran nothing), 2 a usage error.
 *
 * @module
 */

import { describeThrown, quoteClipped } from "../src/_internal/describe.ts";

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
  /** Where the docs state it (`docs/<page>.md#anchor` or `conformance/README.md#anchor`). */
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
    if (!/^(?:(?:conformance\/)?README|docs\/[a-z_]+)\.md#[a-z0-9-]+$/.test(r.anchor)) {
      problems.push(
        `${r.id}: anchor ${r.anchor} is not docs/<page>.md#… or conformance/README.md#…`,
      );
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

/** What one testee run gave: the outcomes, the kinds the testee declared, the cases skipped. */
export interface TesteeRun {
  /** The outcome (or the testee's error) of each case it was sent, by case id. */
  readonly outcomes: Map<string, Json | TesteeError>;
  /** The kinds the testee's hello declared. */
  readonly kinds: readonly string[];
  /** Cases not sent because the testee does not declare their kind: count by kind. */
  readonly skipped: Map<string, number>;
}

/** The last `max` characters a stream gave, read concurrently; `text()` waits at most `waitMs`. */
function tailOf(stream: ReadableStream<Uint8Array>, max = 2000) {
  let tail = "";
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  const done = (async () => {
    try {
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        tail = (tail + r.value).slice(-max);
      }
    } catch {
      // cancelled
    }
  })();
  return {
    async text(waitMs = 1000): Promise<string> {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([done, new Promise((r) => (timer = setTimeout(r, waitMs)))]);
      clearTimeout(timer);
      return tail;
    },
    cancel: () => reader.cancel().catch(() => {}),
  };
}

/**
 * Run `cases` through one testee and return what {@link TesteeRun} holds.
 * The runner sends `hello`, waits for the testee's hello, then sends one
 * `case` line for each case whose kind the hello's `kinds` declares (with
 * `mutant` when given: `mutants[i]` for `cases[i]`); the others are
 * `skipped`, never answered. Rejects, with the line number and the tail of
 * the testee's stderr, when the testee cannot be started, answers the
 * handshake wrongly (another protocol, no `kinds` list), writes a line that
 * is not a JSON object or longer than {@link MAX_LINE_LENGTH}, answers a
 * case id it was not sent (the ids are named) or one twice, leaves a sent
 * case unanswered, or takes more than `timeoutMs` milliseconds in all. The
 * testee's whole process group is killed when the run ends, however it
 * ends (see {@link spawnTestee}).
 */
export async function runTesteeCases(
  testee: Testee,
  cases: readonly ConformanceCase[],
  mutants?: readonly string[],
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<TesteeRun> {
  const { child, kill } = spawnTestee(testee);
  const encoder = new TextEncoder();
  const writer = child.stdin.getWriter();
  let declared: (kinds: ReadonlySet<string> | null) => void = () => {};
  const hello = new Promise<ReadonlySet<string> | null>((r) => (declared = r));
  const sent = new Set<string>();
  const skipped = new Map<string, number>();
  const send = (async () => {
    try {
      await writer.write(
        encoder.encode(JSON.stringify({ type: "hello", protocol: PROTOCOL }) + "\n"),
      );
      const kinds = await hello;
      const lines: string[] = [];
      cases.forEach((c, i) => {
        if (kinds === null) return;
        if (!kinds.has(c.kind)) {
          skipped.set(c.kind, (skipped.get(c.kind) ?? 0) + 1);
          return;
        }
        sent.add(c.id);
        const msg: Record<string, Json> = { type: "case", id: c.id, kind: c.kind, input: c.input };
        if (mutants !== undefined) msg.mutant = mutants[i];
        lines.push(JSON.stringify(msg));
      });
      if (lines.length > 0) await writer.write(encoder.encode(lines.join("\n") + "\n"));
      await writer.close();
    } catch {
      // the testee exited early: reported below
    }
  })();
  const stderr = tailOf(child.stderr);
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
    reader.cancel().catch(() => {});
  }, timeoutMs);
  const outcomes = new Map<string, Json | TesteeError>();
  const unknownIds: string[] = [];
  let kinds: string[] | null = null;
  let lineNo = 0;
  const handle = (line: string) => {
    lineNo++;
    if (line.trim() === "") return;
    let msg: unknown;
    try {
      msg = JSON.parse(line);
    } catch {
      throw new Error(`line ${lineNo} of its stdout is not JSON: ${quoteClipped(line, 200)}`);
    }
    if (typeof msg !== "object" || msg === null || Array.isArray(msg)) {
      throw new Error(
        `line ${lineNo} of its stdout is ${
          msg === null ? "null" : Array.isArray(msg) ? "an array" : `a ${typeof msg}`
        }, not a JSON object: ${quoteClipped(line, 200)}`,
      );
    }
    const m = msg as Record<string, Json>;
    if (kinds === null) {
      if (m.type !== "hello" || m.protocol !== PROTOCOL) {
        throw new Error(`bad handshake on line ${lineNo}: ${quoteClipped(line, 200)}`);
      }
      if (!Array.isArray(m.kinds) || !m.kinds.every((k) => typeof k === "string")) {
        throw new Error(`its hello (line ${lineNo}) has no "kinds" list of strings`);
      }
      kinds = m.kinds as string[];
      declared(new Set(kinds));
      return;
    }
    if ((m.type !== "outcome" && m.type !== "error") || typeof m.id !== "string") {
      throw new Error(
        `line ${lineNo} is neither {"type":"outcome","id":…} nor {"type":"error","id":…}: ${
          quoteClipped(line, 200)
        }`,
      );
    }
    if (!sent.has(m.id)) {
      unknownIds.push(m.id);
      return;
    }
    if (outcomes.has(m.id)) throw new Error(`line ${lineNo} answers case ${m.id} a second time`);
    outcomes.set(m.id, m.type === "outcome" ? m.outcome : new TesteeError(String(m.message)));
  };
  try {
    try {
      const lines = new LineSplitter();
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        for (const line of lines.push(r.value)) handle(line);
      }
      if (timedOut) throw new Error(`killed after ${timeoutMs} ms`);
      handle(lines.end());
      declared(null);
      await send;
      const status = await child.status;
      if (timedOut) throw new Error(`killed after ${timeoutMs} ms`);
      if (kinds === null) throw new Error(`no handshake (exit ${status.code})`);
      if (unknownIds.length > 0) {
        throw new Error(
          `answered ${unknownIds.length} case id(s) it was not sent: ${
            unknownIds.slice(0, 5).map((id) => quoteClipped(id, 60)).join(", ")
          }${unknownIds.length > 5 ? ", …" : ""}`,
        );
      }
      if (outcomes.size < sent.size) {
        const missing = [...sent].filter((id) => !outcomes.has(id));
        throw new Error(
          `answered ${outcomes.size} of the ${sent.size} cases sent (exit ${status.code}); first unanswered: ${
            missing.slice(0, 3).join(", ")
          }`,
        );
      }
      return { outcomes, kinds, skipped };
    } catch (e) {
      kill();
      const tail = (await stderr.text()).trim();
      throw new Error(
        `${testee.name}: ${describeThrown(e)}${
          tail === "" ? "" : `\n  its stderr ends with:\n    ${tail.split("\n").join("\n    ")}`
        }`,
      );
    }
  } finally {
    // Whatever happened (a bad handshake, a line that is not JSON, a timeout), nothing stays running.
    clearTimeout(timer);
    declared(null);
    kill();
    reader.cancel().catch(() => {});
    stderr.cancel();
    writer.abort().catch(() => {});
  }
}

/**
 * Run `cases` through one testee ({@link runTesteeCases}) and return the
 * outcomes by case id. Cases of kinds the testee does not declare are
 * absent from the map (so {@link judge} fails them: "no answer").
 */
export async function runTestee(
  testee: Testee,
  cases: readonly ConformanceCase[],
  mutants?: readonly string[],
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<Map<string, Json | TesteeError>> {
  return (await runTesteeCases(testee, cases, mutants, timeoutMs)).outcomes;
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

/**
 * The directory the caller ran the runner from: `INIT_CWD` under `deno task`
 * (which runs tasks in the repository root), else the process's own. A
 * `--testee` runs there, so its relative paths mean what the caller typed.
 */
function callerCwd(): string {
  try {
    const init = Deno.env.get("INIT_CWD");
    if (init !== undefined && init !== "") return init;
  } catch {
    // no env permission: the process's directory
  }
  return Deno.cwd();
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
  let testees: Testee[] = custom !== undefined
    ? [{ name: custom, command: custom.split(" ").filter((s) => s !== ""), cwd: callerCwd() }]
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
    let skipped: Map<string, number>;
    try {
      const run = await runTesteeCases(testee, cases, undefined, options.timeoutMs);
      skipped = run.skipped;
      results = judge(cases.filter((c) => !skipped.has(c.kind)), run.outcomes);
    } catch (e) {
      console.log(`\n${testee.name}: could not run: ${e instanceof Error ? e.message : e}`);
      failed++;
      continue;
    }
    const ms = Math.round(performance.now() - started);
    const bad = results.filter((r) => !r.pass);
    const rulesSeen = perRule(results);
    const badRules = [...rulesSeen].filter(([, v]) => v.fail > 0);
    const skippedCount = [...skipped.values()].reduce((a, b) => a + b, 0);
    console.log(
      `\n${testee.name}: ${results.length - bad.length} passed, ${bad.length} failed${
        skippedCount > 0 ? `, ${skippedCount} not run` : ""
      } (${ms} ms)`,
    );
    if (skippedCount > 0) {
      console.log(
        `  NOT RUN (kinds its hello does not declare; not counted as passed): ${
          [...skipped].map(([k, n]) => `${k} ${n}`).join(", ")
        }`,
      );
      // The shipped testees must cover every kind; a testee that ran nothing passed nothing.
      if (custom === undefined || results.length === 0) failed++;
      if (results.length === 0) console.log("  FAIL: it ran no case at all");
    }
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
      ? `\nconformance: all testees pass every case${
        custom !== undefined ? " of the kinds they declare" : ""
      }`
      : `\nconformance: ${failed} testee(s) failed`,
  );
  return failed === 0 ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
