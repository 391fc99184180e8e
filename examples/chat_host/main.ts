/**
 * The reference chat host's command line (Deno):
 *
 *   deno task demo                 # or: deno run -A examples/chat_host/main.ts
 *
 * Flags: `--port N` (default 8787; 0 picks a free one), `--data DIR` (the
 * PGlite directory, default `.chat_host_data` under the working directory;
 * ignored when `DATABASE_URL` is set: that server is used and migrated),
 * `--delta-ms N` (pause between streamed text deltas, default 40),
 * `--effect-ms N` (how long each tool effect runs, default 300), `--retain N`
 * (keep only the last N events of a finished turn's log; default: all),
 * `--delta-chars N` (length of each text delta, default 6),
 * `--after-effect-ms N` (pause between an effect's ledger write and its
 * completion in the store; default 0; crash tests widen that window),
 * `--max-open-turns N` (most unfinished turns per user, default 20; one
 * more is refused 429 `too-many-turns`).
 *
 * Prints `chat host listening on http://127.0.0.1:<port>/` once it serves
 * (after resuming every unfinished turn in the store), and `effect started
 * <tool> <turnId>` / `effect finished <tool> <turnId>` around each side
 * effect. SIGINT / SIGTERM close it cleanly. A port already in use is one
 * line on stderr (`chat host: cannot listen on …: the port is in use`) and
 * exit code 1, before the store is opened.
 *
 * @module
 */
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { type PgDriver, postgresJsDriver } from "@papercusp/chat-protocol-postgres";
import { openPGliteDir } from "@papercusp/chat-protocol-postgres/pglite-dir";
import { type ChatHost, createChatHost, type WebAsset } from "./host.ts";
import { bundleApp } from "./bundle.ts";

function flag(name: string, fallback: string): string {
  const i = Deno.args.indexOf(`--${name}`);
  if (i >= 0 && i + 1 < Deno.args.length) return Deno.args[i + 1];
  const eq = Deno.args.find((a) => a.startsWith(`--${name}=`));
  return eq === undefined ? fallback : eq.slice(name.length + 3);
}

function intFlag(name: string, fallback: number): number {
  const v = Number(flag(name, String(fallback)));
  if (!Number.isSafeInteger(v) || v < 0) {
    console.error(`--${name} must be a non-negative integer`);
    Deno.exit(2);
  }
  return v;
}

const port = intFlag("port", 8787);
const deltaMs = intFlag("delta-ms", 40);
const effectMs = intFlag("effect-ms", 300);
const dataDir = flag("data", ".chat_host_data");
const afterEffectMs = intFlag("after-effect-ms", 0);
const deltaChars = Math.max(1, intFlag("delta-chars", 6));
const retain = flag("retain", "");
const retainEvents = retain === "" ? undefined : intFlag("retain", 0);
const maxOpenTurns = Math.max(1, intFlag("max-open-turns", 20));
const databaseUrl = Deno.env.get("DATABASE_URL");

async function openDriver(): Promise<PgDriver> {
  if (databaseUrl !== undefined && databaseUrl !== "") {
    return postgresJsDriver(postgres(databaseUrl, { max: 4, onnotice: () => {} }));
  }
  const r = await openPGliteDir({ dataDir, open: (dir) => new PGlite(dir) });
  if (!r.ok) {
    console.error(`cannot open ${dataDir}: ${r.error.code}: ${r.error.message}`);
    Deno.exit(1);
  }
  return r.value.driver;
}

const webDir = new URL("./web/", import.meta.url);
const appJs = await bundleApp();
const asset = async (name: string): Promise<WebAsset | null> => {
  if (name === "app.js") return { body: appJs };
  if (name !== "index.html" && name !== "style.css") return null;
  try {
    return { body: await Deno.readFile(new URL(name, webDir)) };
  } catch {
    return null;
  }
};

// Bind first: a busy port is a one-line error and exit 1 before the store
// is opened (its lock taken) or any turn is resumed.
const ac = new AbortController();
let resolveHost!: (host: ChatHost) => void;
const ready = new Promise<ChatHost>((r) => resolveHost = r);
let server: Deno.HttpServer<Deno.NetAddr>;
try {
  server = Deno.serve({
    hostname: "127.0.0.1",
    port,
    signal: ac.signal,
    onListen: () => {}, // the listening line is printed once the host is ready
  }, async (request) => (await ready).fetch(request));
} catch (e) {
  const why = e instanceof Deno.errors.AddrInUse
    ? "the port is in use"
    : e instanceof Error
    ? e.message
    : String(e);
  console.error(`chat host: cannot listen on 127.0.0.1:${port}: ${why}`);
  Deno.exit(1);
}

const driver = await openDriver();
const host = await createChatHost({
  driver,
  deltaMs,
  deltaChars,
  effectMs,
  afterEffectMs,
  asset,
  retainEvents,
  maxOpenTurns,
});
if (host.resumedTurns.length > 0) {
  console.log(`resuming ${host.resumedTurns.length} unfinished turn(s)`);
}
resolveHost(host);
console.log(`chat host listening on http://127.0.0.1:${server.addr.port}/`);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: closing`);
  ac.abort();
  await Promise.race([server.finished, new Promise((r) => setTimeout(r, 1_000))]);
  await host.close().catch(() => {});
  Deno.exit(0);
}
Deno.addSignalListener("SIGINT", () => void stop("SIGINT"));
Deno.addSignalListener("SIGTERM", () => void stop("SIGTERM"));
