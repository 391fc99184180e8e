/**
 * A throwaway PostgreSQL cluster for tests and developers (Debian's
 * `postgresql` binaries): `initdb` into a fresh temporary directory, then
 * `postgres` listening on 127.0.0.1 only, on a free port, with fsync,
 * synchronous commit and full-page writes off (speed over durability: the
 * data is thrown away). As root, `initdb` and `pg_ctl` run as the `postgres`
 * user through `runuser` (both refuse to run as root) and the directory is
 * chowned to it.
 *
 * CLI (the `pg:up` / `pg:down` / `pg:status` tasks):
 *
 * - `up`: start a cluster (or reuse the one already recorded and running),
 *   record it in `.pg/state.json` under the repository root, and print
 *   `DATABASE_URL=postgres://postgres@127.0.0.1:<port>/postgres` on stdout
 *   (everything else goes to stderr). `export $(deno task pg:up)` sets it.
 * - `down`: stop the recorded cluster (`pg_ctl stop -m fast`) and delete its
 *   directory.
 * - `status`: print the recorded URL and exit 0 when it is running, else 1.
 *
 * The binaries come from `$PG_BIN` when set, else the highest
 * `/usr/lib/postgresql/<major>/bin` that has `initdb`.
 *
 * The module also exports {@link startCluster} for test helpers that start
 * their own cluster when no `DATABASE_URL` is given (see
 * `postgres/tests/_helpers/server.ts`).
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** A running throwaway cluster. */
export interface Cluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication, no password). */
  readonly url: string;
  /** TCP port on 127.0.0.1. */
  readonly port: number;
  /** Temporary directory holding `data/`, the socket and `server.log`. */
  readonly base: string;
  /** Directory of the PostgreSQL binaries used. */
  readonly bin: string;
}

/** Thrown when the cluster cannot be started; `message` says what to do. */
export class ClusterError extends Error {
  /** Build with the full explanation. */
  constructor(message: string) {
    super(message);
    this.name = "ClusterError";
  }
}

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const STATE_DIR = join(ROOT, ".pg");
const STATE_FILE = join(STATE_DIR, "state.json");

/** The PostgreSQL binary directory, or `null` when none is installed. */
export function findPgBin(): string | null {
  const fromEnv = Deno.env.get("PG_BIN");
  if (fromEnv) return exists(join(fromEnv, "initdb")) ? fromEnv : null;
  let majors: number[] = [];
  try {
    majors = [...Deno.readDirSync("/usr/lib/postgresql")]
      .map((e) => Number(e.name))
      .filter((n) => Number.isInteger(n))
      .sort((a, b) => b - a);
  } catch {
    return null;
  }
  for (const m of majors) {
    const bin = `/usr/lib/postgresql/${m}/bin`;
    if (exists(join(bin, "initdb"))) return bin;
  }
  return null;
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

function isRoot(): boolean {
  return Deno.uid() === 0;
}

/** Run a PostgreSQL binary, as the `postgres` user when we are root. */
async function pgRun(bin: string, tool: string, args: string[]): Promise<string> {
  const exe = join(bin, tool);
  const [cmd, argv] = isRoot() ? ["runuser", ["-u", "postgres", "--", exe, ...args]] : [exe, args];
  const out = await new Deno.Command(cmd, { args: argv, stdout: "piped", stderr: "piped" })
    .output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  if (!out.success) throw new ClusterError(`${tool} failed (exit ${out.code}):\n${text}`);
  return text;
}

function pgRunSync(bin: string, tool: string, args: string[]): boolean {
  const exe = join(bin, tool);
  const [cmd, argv] = isRoot() ? ["runuser", ["-u", "postgres", "--", exe, ...args]] : [exe, args];
  return new Deno.Command(cmd, { args: argv, stdout: "null", stderr: "null" }).outputSync()
    .success;
}

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/**
 * Start a throwaway cluster (about 1 s). Throws {@link ClusterError} when no
 * binaries are installed (with the apt-get line to fix it) or the server
 * does not start (with its log).
 */
export async function startCluster(): Promise<Cluster> {
  const bin = findPgBin();
  if (!bin) {
    throw new ClusterError(
      "no PostgreSQL binaries found (looked in $PG_BIN and /usr/lib/postgresql/*/bin); " +
        "install them with `apt-get update && apt-get install -y postgresql`, " +
        "or set DATABASE_URL to a server you run",
    );
  }
  const root = isRoot(); // before creating anything: it may need a permission
  const base = await Deno.makeTempDir({ prefix: "papercusp_pg_" });
  try {
    return await initAndStart(bin, base, root);
  } catch (e) {
    await Deno.remove(base, { recursive: true }).catch(() => {});
    throw e;
  }
}

async function initAndStart(bin: string, base: string, root: boolean): Promise<Cluster> {
  if (root) {
    const chown = await new Deno.Command("chown", { args: ["postgres:postgres", base] }).output();
    if (!chown.success) {
      throw new ClusterError(`chown postgres:postgres ${base} failed (is there a postgres user?)`);
    }
  }
  const data = join(base, "data");
  await pgRun(bin, "initdb", [
    "-D",
    data,
    "-A",
    "trust",
    "-U",
    "postgres",
    "-E",
    "UTF8",
    "--locale=C",
    "--no-sync",
  ]);
  let lastError: unknown = null;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = freePort();
    const opts = [
      `-p ${port}`,
      `-k ${base}`,
      "-c listen_addresses=127.0.0.1",
      "-c fsync=off",
      "-c synchronous_commit=off",
      "-c full_page_writes=off",
      "-c max_connections=200",
    ].join(" ");
    try {
      await pgRun(bin, "pg_ctl", [
        "-D",
        data,
        "-l",
        join(base, "server.log"),
        "-w",
        "-t",
        "30",
        "-o",
        opts,
        "start",
      ]);
      return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, base, bin };
    } catch (e) {
      lastError = e; // most likely the port was taken between probe and bind: try another
    }
  }
  let log = "";
  try {
    log = await Deno.readTextFile(join(base, "server.log"));
  } catch { /* no log */ }
  throw new ClusterError(`the server did not start: ${String(lastError)}\n${log}`);
}

/** Stop a cluster (fast shutdown) and delete its directory. */
export async function stopCluster(c: Cluster): Promise<void> {
  await pgRun(c.bin, "pg_ctl", ["-D", join(c.base, "data"), "-m", "fast", "-w", "stop"])
    .catch(() => {});
  await Deno.remove(c.base, { recursive: true }).catch(() => {});
}

/** {@link stopCluster}, synchronously (for `unload` handlers). */
export function stopClusterSync(c: Cluster): void {
  pgRunSync(c.bin, "pg_ctl", ["-D", join(c.base, "data"), "-m", "fast", "-w", "stop"]);
  try {
    Deno.removeSync(c.base, { recursive: true });
  } catch { /* already gone */ }
}

async function isRunning(c: Cluster): Promise<boolean> {
  try {
    await pgRun(c.bin, "pg_ctl", ["-D", join(c.base, "data"), "status"]);
    return true;
  } catch {
    return false;
  }
}

async function readState(): Promise<Cluster | null> {
  try {
    return JSON.parse(await Deno.readTextFile(STATE_FILE)) as Cluster;
  } catch {
    return null;
  }
}

async function main(command: string | undefined): Promise<number> {
  const state = await readState();
  switch (command) {
    case "up": {
      if (state && await isRunning(state)) {
        console.error(`[pg] already running in ${state.base}`);
        console.log(`DATABASE_URL=${state.url}`);
        return 0;
      }
      if (state) await stopCluster(state);
      const c = await startCluster();
      await Deno.mkdir(STATE_DIR, { recursive: true });
      await Deno.writeTextFile(STATE_FILE, JSON.stringify(c, null, 2) + "\n");
      console.error(`[pg] started PostgreSQL from ${c.bin} in ${c.base}`);
      console.log(`DATABASE_URL=${c.url}`);
      return 0;
    }
    case "down": {
      if (!state) {
        console.error("[pg] no recorded cluster");
        return 0;
      }
      await stopCluster(state);
      await Deno.remove(STATE_FILE).catch(() => {});
      console.error(`[pg] stopped and removed ${state.base}`);
      return 0;
    }
    case "status": {
      if (state && await isRunning(state)) {
        console.log(`DATABASE_URL=${state.url}`);
        return 0;
      }
      console.error("[pg] not running");
      return 1;
    }
    default:
      console.error("usage: scripts/pg.ts up|down|status");
      return 2;
  }
}

if (import.meta.main) {
  try {
    Deno.exit(await main(Deno.args[0]));
  } catch (e) {
    console.error(`[pg] ${e instanceof Error ? e.message : String(e)}`);
    Deno.exit(1);
  }
}
