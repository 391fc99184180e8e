/**
 * Test databases: the real server (`DATABASE_URL`) and PGlite in memory.
 *
 * The server: `DATABASE_URL` when set (CI's `.ci/run` and `deno task pg:up`
 * set it; only 127.0.0.1 is accepted). When it is unset, under CI (`CI` set)
 * the first test that needs it fails with a message saying so; locally a
 * throwaway cluster is started once for the test process (scripts/pg.ts,
 * needs Debian's postgresql binaries) and stopped when the process exits.
 *
 * Each test works in its own fresh schema, so tests never see each other's
 * rows and a developer's server is left as it was (the schema is dropped).
 *
 * @module
 */
import postgres from "postgres";
import { PGlite } from "@electric-sql/pglite";
import {
  type PgDriver,
  pgliteDriver,
  postgresJsDriver,
  type PostgresJsDriverOptions,
} from "../../mod.ts";
import { type Cluster, startCluster, stopClusterSync } from "../../../scripts/pg.ts";

let cluster: Cluster | null = null;
let starting: Promise<string> | null = null;

/** The server URL (see the module doc); throws with the reason when there is none. */
export function databaseUrl(): Promise<string> {
  const url = Deno.env.get("DATABASE_URL");
  if (url) {
    const host = new URL(url).hostname;
    if (host !== "127.0.0.1") {
      throw new Error(`DATABASE_URL must point at 127.0.0.1 (tests only target it), got ${host}`);
    }
    return Promise.resolve(url);
  }
  if (Deno.env.get("CI")) {
    throw new Error(
      "DATABASE_URL is not set: under CI the PostgreSQL tests need the server .ci/run starts " +
        "(scripts/pg.ts up); run `export $(deno task pg:up)` locally",
    );
  }
  starting ??= startCluster().then((c) => {
    cluster = c;
    globalThis.addEventListener("unload", () => {
      if (cluster) stopClusterSync(cluster);
    });
    return c.url;
  });
  return starting;
}

/** A fresh schema name for one test. */
export function freshSchema(tag = "t"): string {
  return `${tag}_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
}

/** A postgres.js client on the test server (no notices printed). */
export async function pgClient(options: { max?: number } = {}): Promise<postgres.Sql> {
  return postgres(await databaseUrl(), {
    max: options.max ?? 4,
    onnotice: () => {},
    idle_timeout: 5,
  });
}

/** A driver on the test server; closing it ends its pool. */
export async function serverDriver(
  options: PostgresJsDriverOptions & { max?: number } = {},
): Promise<PgDriver> {
  return postgresJsDriver(await pgClient(options), options);
}

let shared: Promise<PGlite> | null = null;

/**
 * A driver on this test process's in-memory PGlite (one instance for the
 * whole run: creating one takes seconds; tests isolate by schema). Its
 * `close()` leaves the shared instance open.
 */
export async function pgliteMemory(): Promise<PgDriver> {
  shared ??= PGlite.create();
  const driver = pgliteDriver(await shared);
  return { ...driver, close: () => Promise.resolve() };
}

/** A driver on a fresh in-memory PGlite of its own; closing it closes the database. */
export async function pgliteFresh(): Promise<PgDriver> {
  return pgliteDriver(await PGlite.create());
}

/** The two backends every SQL test runs on. */
export const BACKENDS: readonly { name: "server" | "pglite"; make: () => Promise<PgDriver> }[] = [
  { name: "server", make: () => serverDriver() },
  { name: "pglite", make: () => pgliteMemory() },
];

/** Drop a test schema (server only; PGlite in memory disappears on close). */
export async function dropSchema(driver: PgDriver, schema: string): Promise<void> {
  if (driver.kind === "pglite") return;
  await driver.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}

/** The repository root (cwd for child processes, so they find the workspace config). */
export const REPO_ROOT: string = new URL("../../../", import.meta.url).pathname;

/** Path of a child-process script in tests/_procs/. */
export function procScript(name: string): string {
  return new URL(`../_procs/${name}`, import.meta.url).pathname;
}

/**
 * Spawn a child Deno process running `tests/_procs/<name>` (the Deno binary
 * itself, not npx, so a SIGKILL reaches the process that holds the
 * connection), with stdout piped for line-by-line reading.
 */
export function spawnProc(
  name: string,
  args: string[],
  env: Record<string, string> = {},
): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--quiet", procScript(name), ...args],
    cwd: REPO_ROOT,
    env: { RUST_BACKTRACE: "0", NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** Reads a child's stdout as lines. */
export async function* lines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  let buf = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
    buf += chunk;
    let i;
    while ((i = buf.indexOf("\n")) >= 0) {
      yield buf.slice(0, i);
      buf = buf.slice(i + 1);
    }
  }
  if (buf) yield buf;
}

/** The whole stderr of a child, as text (for failure messages). */
export async function textOf(stream: ReadableStream<Uint8Array>): Promise<string> {
  return await new Response(stream).text();
}

/**
 * Runs `fn` with a driver from `make` and a fresh schema name (not created:
 * `migrate` creates it), then drops the schema and closes the driver.
 */
export async function withSchema(
  make: () => Promise<PgDriver>,
  tag: string,
  fn: (d: PgDriver, schema: string) => Promise<void>,
): Promise<void> {
  const d = await make();
  const schema = freshSchema(tag);
  try {
    await fn(d, schema);
  } finally {
    await dropSchema(d, schema);
    await d.close();
  }
}
