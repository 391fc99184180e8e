/**
 * The reference chat host (`examples/chat_host/main.ts`) as a real child
 * process for tests: spawned from `Deno.execPath()` itself (a SIGKILL of an
 * `npx` wrapper would leave deno running), on a free port and a data
 * directory, ready once it printed its listening line. Tests read what it
 * printed (`effect started <tool> <turn>` …), kill it (SIGKILL for crash
 * tests), restart it on the same port and data directory, and stop it.
 *
 * @module
 */

const MAIN = new URL("../../examples/chat_host/main.ts", import.meta.url).pathname;
const LISTENING = /^chat host listening on (http:\/\/127\.0\.0\.1:(\d+)\/)$/;

/** Options of {@link startHost}. */
export interface HostProcessOptions {
  /** Port (default: a free one, found by binding port 0). */
  readonly port?: number;
  /**
   * PGlite data directory (default: a fresh temporary directory, removed by
   * `stop()`: a copy of a migrated template made once per test process, since
   * creating a PGlite database takes seconds).
   */
  readonly dataDir?: string;
  /** `--delta-ms` (pause between text deltas; default 5 here, faster than the CLI's 40). */
  readonly deltaMs?: number;
  /** `--effect-ms` (how long each tool effect runs; default 300). */
  readonly effectMs?: number;
  /** Extra CLI arguments. */
  readonly args?: readonly string[];
  /** Extra environment variables (e.g. `DATABASE_URL`). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * How long to wait for the listening line, ms (default 120,000: a give-up
   * bound only; a PGlite host on a busy machine takes tens of seconds).
   */
  readonly readyTimeoutMs?: number;
  /** Echo the child's output to this process's stderr (default: env `HOST_ECHO` set). */
  readonly echo?: boolean;
}

/** A running host process. */
export interface HostProcess {
  /** `http://127.0.0.1:<port>/` (with the trailing slash, as printed). */
  readonly url: string;
  /** The port it listens on (kept across `restart()`). */
  readonly port: number;
  /** The data directory (kept across `restart()`). */
  readonly dataDir: string;
  /** The child's pid (changes on `restart()`). */
  readonly pid: number;
  /** Every stdout line printed so far, across restarts, in order. */
  readonly stdoutLines: readonly string[];
  /** Every stderr line printed so far, across restarts. */
  readonly stderrLines: readonly string[];
  /**
   * Resolves with the first stdout line (printed after `fromLine`, an index
   * into `stdoutLines`; default 0) that `match` matches; rejects after
   * `timeoutMs` (default 120,000, a give-up bound for a busy machine) or when
   * the process exits first.
   */
  waitForLine(
    match: RegExp | string,
    options?: { readonly fromLine?: number; readonly timeoutMs?: number },
  ): Promise<string>;
  /** Send `signal` (default SIGKILL) and wait for the process to exit. */
  kill(signal?: Deno.Signal): Promise<Deno.CommandStatus>;
  /** Start it again on the same port and data directory; resolves once it listens. */
  restart(): Promise<void>;
  /** SIGTERM (SIGKILL after 5 s), wait, and remove a temporary data directory. */
  stop(): Promise<void>;
  /** Resolves when the current process exits. */
  readonly exited: Promise<Deno.CommandStatus>;
}

/** A free TCP port on 127.0.0.1 (bind port 0, read it back, release it). */
export function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

let template: Promise<string> | null = null;
let templateDir: string | null = null;

/**
 * A fresh temporary data directory holding a migrated, closed store: a copy
 * of a template the first call creates (a host started on an empty
 * directory, then stopped with SIGTERM).
 */
export async function templateCopy(): Promise<string> {
  template ??= (async () => {
    const dir = await Deno.makeTempDir({ prefix: "chat_host_template_" });
    const h = await startHost({ dataDir: dir, readyTimeoutMs: 120_000 });
    await h.stop();
    templateDir = dir;
    return dir;
  })();
  const from = await template;
  const to = await Deno.makeTempDir({ prefix: "chat_host_" });
  const cp = await new Deno.Command("cp", { args: ["-a", `${from}/.`, to] }).output();
  if (!cp.success) throw new Error(`cp failed: ${new TextDecoder().decode(cp.stderr)}`);
  // the template's host was stopped (SIGKILL after 5 s if SIGTERM was slow under
  // load): a lock file it left names a dead process, and a copy has no holder
  for (const e of Deno.readDirSync(to)) {
    if (e.name.startsWith("papercusp.lock")) Deno.removeSync(`${to}/${e.name}`);
  }
  return to;
}

globalThis.addEventListener("unload", () => {
  // the template outlives every test: remove it when the test process ends
  try {
    if (templateDir !== null) Deno.removeSync(templateDir, { recursive: true });
  } catch {
    // already gone
  }
});

interface Waiter {
  match: RegExp | string;
  from: number;
  resolve: (line: string) => void;
  reject: (e: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

function matches(match: RegExp | string, line: string): boolean {
  return typeof match === "string" ? line.includes(match) : match.test(line);
}

/** Spawn the host and wait until it prints its listening line. */
export async function startHost(options: HostProcessOptions = {}): Promise<HostProcess> {
  const port = options.port ?? freePort();
  const tempDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? await templateCopy();
  const echo = options.echo ?? Deno.env.get("HOST_ECHO") !== undefined;
  const stdoutLines: string[] = [];
  const stderrLines: string[] = [];
  const waiters = new Set<Waiter>();
  let child: Deno.ChildProcess;
  let exited: Promise<Deno.CommandStatus>;
  let alive = false;

  const settle = () => {
    for (const w of [...waiters]) {
      const i = stdoutLines.findIndex((l, k) => k >= w.from && matches(w.match, l));
      if (i >= 0) {
        waiters.delete(w);
        clearTimeout(w.timer);
        w.resolve(stdoutLines[i]);
      }
    }
  };

  async function pump(stream: ReadableStream<Uint8Array>, into: string[], out: boolean) {
    let rest = "";
    const dec = new TextDecoder();
    try {
      for await (const chunk of stream) {
        rest += dec.decode(chunk, { stream: true });
        let nl: number;
        while ((nl = rest.indexOf("\n")) >= 0) {
          const line = rest.slice(0, nl);
          rest = rest.slice(nl + 1);
          into.push(line);
          if (echo) console.error(`[host ${out ? "out" : "err"}] ${line}`);
          if (out) settle();
        }
      }
    } catch {
      // the process died: its pipes end
    }
    if (rest !== "") {
      into.push(rest);
      if (out) settle();
    }
  }

  function spawn(): void {
    const args = [
      "run",
      "-A",
      MAIN,
      "--port",
      String(port),
      "--data",
      dataDir,
      "--delta-ms",
      String(options.deltaMs ?? 5),
      "--effect-ms",
      String(options.effectMs ?? 300),
      ...(options.args ?? []),
    ];
    child = new Deno.Command(Deno.execPath(), {
      args,
      stdout: "piped",
      stderr: "piped",
      stdin: "null",
      // DATABASE_URL is not inherited (CI exports one for the postgres package):
      // a host uses its PGlite directory unless a test passes a server on purpose
      env: { RUST_BACKTRACE: "0", NO_COLOR: "1", DATABASE_URL: "", ...(options.env ?? {}) },
    }).spawn();
    alive = true;
    const outDone = pump(child.stdout, stdoutLines, true);
    const errDone = pump(child.stderr, stderrLines, false);
    exited = child.status.then(async (s) => {
      alive = false;
      await Promise.all([outDone, errDone]);
      for (const w of [...waiters]) {
        waiters.delete(w);
        clearTimeout(w.timer);
        w.reject(
          new Error(
            `host exited (code ${s.code}, signal ${s.signal}) before printing ${w.match}\n` +
              stderrLines.slice(-20).join("\n"),
          ),
        );
      }
      return s;
    });
  }

  function waitForLine(
    match: RegExp | string,
    o: { readonly fromLine?: number; readonly timeoutMs?: number } = {},
  ): Promise<string> {
    const from = o.fromLine ?? 0;
    const found = stdoutLines.find((l, k) => k >= from && matches(match, l));
    if (found !== undefined) return Promise.resolve(found);
    if (!alive) return Promise.reject(new Error(`host is not running; no line ${match}`));
    return new Promise((resolve, reject) => {
      const w: Waiter = {
        match,
        from,
        resolve,
        reject,
        timer: setTimeout(() => {
          waiters.delete(w);
          reject(
            new Error(
              `timed out waiting for ${match}; stdout tail:\n${stdoutLines.slice(-10).join("\n")}` +
                `\nstderr tail:\n${stderrLines.slice(-10).join("\n")}`,
            ),
          );
        }, o.timeoutMs ?? 120_000),
      };
      waiters.add(w);
    });
  }

  async function ready(): Promise<void> {
    const from = stdoutLines.length;
    const line = await waitForLine(LISTENING, {
      fromLine: from,
      timeoutMs: options.readyTimeoutMs ?? 120_000,
    });
    const m = LISTENING.exec(line)!;
    if (Number(m[2]) !== port) throw new Error(`host listens on ${m[2]}, expected ${port}`);
  }

  spawn();
  try {
    await ready();
  } catch (e) {
    if (alive) child!.kill("SIGKILL");
    await exited!;
    throw e;
  }

  const host: HostProcess = {
    url: `http://127.0.0.1:${port}/`,
    port,
    dataDir,
    get pid() {
      return child.pid;
    },
    stdoutLines,
    stderrLines,
    waitForLine,
    async kill(signal: Deno.Signal = "SIGKILL") {
      if (alive) {
        try {
          child.kill(signal);
        } catch {
          // already gone
        }
      }
      return await exited;
    },
    async restart() {
      if (alive) throw new Error("restart() while the host still runs: kill() it first");
      spawn();
      await ready();
    },
    async stop() {
      if (alive) {
        try {
          child.kill("SIGTERM");
        } catch {
          // already gone
        }
        const t = setTimeout(() => {
          try {
            if (alive) child.kill("SIGKILL");
          } catch {
            // already gone
          }
        }, 5_000);
        await exited;
        clearTimeout(t);
      }
      if (tempDir) await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    },
    get exited() {
      return exited;
    },
  };
  return host;
}
