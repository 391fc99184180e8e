/**
 * Builds the npm package of `@papercusp/chat-protocol-postgres` into
 * `postgres/npm/`:
 *
 * 1. compiles its entry points (`.`, `./pglite-dir`) to ESM + `.d.ts` and a
 *    CommonJS copy (`cjs/`, the `require` condition); the
 *    core is resolved from its own npm build (`npm/`, so run
 *    `deno task build:npm` first) and stays a bare `@papercusp/chat-protocol`
 *    import; only `src/dir_lock.ts` (the `./pglite-dir` file lock) may import
 *    `node:` builtins;
 * 2. writes `package.json` (`import` and `require` conditions): the core as a peer dependency, the drivers
 *    `postgres` and `@electric-sql/pglite` as OPTIONAL peer dependencies
 *    (the host installs the one it uses);
 * 3. checks it with `publint --strict` and `attw --pack --profile node16`,
 *    and that its README (`docs/npm/chat-protocol-postgres.md`) links only
 *    to files in the package;
 * 4. under Node: imports both entry points with `import` and `require()`,
 *    then runs migrate + append + `replayAfter` on PGlite in memory, the
 *    directory lock on PGlite on a temporary directory, and, when
 *    `DATABASE_URL` is set, the same on the real server through postgres.js.
 *
 * Usage: `deno task build:npm:postgres` (add `--skip-checks` to only compile).
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  assertEdgeSafe,
  checkPackage,
  checkReadme,
  compile,
  exportsFor,
  logger,
  smokeTest,
} from "./_npm_build.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const pkgDir = join(root, "postgres");
const out = join(pkgDir, "npm");
const coreOut = join(root, "npm");
const skipChecks = Deno.args.includes("--skip-checks");
const log = logger("build:npm:postgres");

const denoJson = JSON.parse(await Deno.readTextFile(join(pkgDir, "deno.json")));
const coreJson = JSON.parse(await Deno.readTextFile(join(root, "deno.json")));
type Target = { types?: string };
let corePkg: {
  name: string;
  version: string;
  exports: Record<string, { import?: Target; require?: Target }>;
};
try {
  corePkg = JSON.parse(await Deno.readTextFile(join(coreOut, "package.json")));
} catch {
  throw new Error("the core's npm build is missing: run `deno task build:npm` first");
}
if (corePkg.version !== coreJson.version) {
  throw new Error("npm/ holds a stale core build: run `deno task build:npm` first");
}
const driverRange = (spec: string) => "^" + String(spec).replace(/^npm:[^@]*@?[^@]*@/, "");

const ENTRY_POINTS: Record<string, string> = Object.fromEntries(
  Object.entries(denoJson.exports as Record<string, string>).map((
    [k, v],
  ) => [k, v.replace(/^\.\//, "")]),
);

// 1. compile, with the core's declarations standing in for its sources
await Deno.remove(out, { recursive: true }).catch(() => {});
// Each build reads the core's declarations of its own format (ESM for ESM, CommonJS for CJS).
const corePaths = (condition: "import" | "require") => {
  const paths: Record<string, string[]> = {};
  for (const [key, target] of Object.entries(corePkg.exports)) {
    const types = target[condition]?.types;
    if (!types) continue;
    const spec = key === "." ? corePkg.name : `${corePkg.name}/${key.slice(2)}`;
    paths[spec] = [join(coreOut, types)];
  }
  return paths;
};
const roots = Object.values(ENTRY_POINTS).map((f) => join(pkgDir, f));
const emitted = [
  ...await compile({ root, rootDir: pkgDir, roots, out, paths: corePaths("import") }),
  ...await compile({
    root,
    rootDir: pkgDir,
    roots,
    out,
    paths: corePaths("require"),
    format: "cjs",
  }),
];
log(`compiled ${emitted.filter((f) => f.endsWith(".js")).length} modules (ESM and CommonJS)`);
await assertEdgeSafe(
  out,
  emitted,
  (f) => f === join("esm", "src", "dir_lock.js") || f === join("cjs", "src", "dir_lock.js"),
);

// 2. package.json, README, LICENSE
const pkg = {
  name: denoJson.name,
  version: denoJson.version,
  description:
    "PostgreSQL stores for @papercusp/chat-protocol: migrations, a replay log of v1 envelopes and a LISTEN/NOTIFY transport, over postgres.js or PGlite.",
  license: "Apache-2.0",
  type: "module",
  sideEffects: false,
  main: "./cjs/mod.js",
  types: "./cjs/mod.d.ts",
  exports: { ...exportsFor(ENTRY_POINTS), "./package.json": "./package.json" },
  files: ["esm", "cjs", "README.md", "LICENSE"],
  engines: { node: ">=20.19" },
  peerDependencies: {
    [corePkg.name]: `^${corePkg.version}`,
    "postgres": driverRange(denoJson.imports["postgres"]),
    "@electric-sql/pglite": driverRange(denoJson.imports["@electric-sql/pglite"]),
  },
  peerDependenciesMeta: {
    "postgres": { optional: true },
    "@electric-sql/pglite": { optional: true },
  },
  keywords: ["postgres", "postgresql", "pglite", "chat", "agent", "replay", "sse"],
};
await Deno.writeTextFile(join(out, "package.json"), JSON.stringify(pkg, null, 2) + "\n");
await Deno.copyFile(join(root, "docs", "npm", "chat-protocol-postgres.md"), join(out, "README.md"));
await Deno.copyFile(join(pkgDir, "LICENSE"), join(out, "LICENSE"));
log(
  `wrote postgres/npm/package.json (${pkg.name}@${pkg.version}, peers ${
    JSON.stringify(pkg.peerDependencies)
  })`,
);

if (skipChecks) Deno.exit(0);

// 3. publint + attw
await checkPackage(log, out);
await checkReadme(log, out);

// 4. Node: load both entry points, then use them for real.
const realUse = `
const { PGlite } = await import("@electric-sql/pglite");
const { replayAfter } = await import("@papercusp/chat-protocol/recovery");
const pg = await import("${pkg.name}");
const { openPGliteDir } = await import("${pkg.name}/pglite-dir");
const { mkdtempSync, rmSync } = await import("node:fs");
const { tmpdir } = await import("node:os");
const { join } = await import("node:path");
const envelope = (seq) => ({ schemaVersion: 1, conversationId: "c1", turnId: "t1", eventId: "e" + seq, seq, event: { type: "delta", text: "hi " + seq } });
async function roundTrip(label, driver, schema) {
  const m = await pg.migrate(driver, { schema });
  if (!m.ok) throw new Error(label + ": migrate " + JSON.stringify(m.error));
  const log = new pg.PostgresReplayLog(driver, { schema });
  for (const seq of [1, 2, 3]) {
    const r = await log.append(envelope(seq));
    if (!r.ok) throw new Error(label + ": append " + JSON.stringify(r.error));
  }
  const r = await replayAfter(log, { conversationId: "c1", turnId: "t1", afterSeq: 1 });
  if (!r.ok || r.value.frames.length !== 2) throw new Error(label + ": replay " + JSON.stringify(r));
  console.log("node " + process.version + ": " + label + " migrate + append + replayAfter ok");
}
const memory = pg.pgliteDriver(await PGlite.create());
await roundTrip("PGlite in memory", memory, "chat");
await memory.close();
const dir = mkdtempSync(join(tmpdir(), "cp_pg_smoke_"));
try {
  const a = await openPGliteDir({ dataDir: dir, open: (d) => new PGlite(d) });
  if (!a.ok) throw new Error("openPGliteDir " + JSON.stringify(a.error));
  const b = await openPGliteDir({ dataDir: dir, open: (d) => new PGlite(d) });
  if (b.ok || b.error.code !== "locked") throw new Error("second open was not refused");
  await roundTrip("PGlite on a directory (second open refused)", a.value.driver, "chat");
  await a.value.driver.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (process.env.DATABASE_URL) {
  const postgres = (await import("postgres")).default;
  const driver = pg.postgresJsDriver(postgres(process.env.DATABASE_URL, { max: 2, onnotice: () => {} }));
  const schema = "npm_smoke_" + Math.random().toString(36).slice(2, 10);
  try {
    await roundTrip("postgres.js on the real server", driver, schema);
  } finally {
    await driver.query('DROP SCHEMA IF EXISTS "' + schema + '" CASCADE');
    await driver.close();
  }
}
`;
const nm = join(root, "node_modules");
await smokeTest({
  log,
  out,
  name: pkg.name,
  entries: Object.keys(ENTRY_POINTS),
  modules: {
    [corePkg.name]: coreOut,
    "zod": join(nm, "zod"),
    "postgres": join(nm, "postgres"),
    "@electric-sql/pglite": join(nm, "@electric-sql", "pglite"),
  },
  // Peers load first; the core's entry points this package imports are peers too.
  preload: ["zod", corePkg.name, `${corePkg.name}/recovery`],
  extra: realUse,
});
log("npm package OK");
