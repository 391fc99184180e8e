/**
 * Builds the npm package into `npm/` (the role dnt plays, without JSR):
 *
 * 1. compiles every entry point deno.json `exports` names and everything they
 *    import (plus the `inspect` CLI for the `bin` entry) to ESM + `.d.ts`
 *    with the TypeScript compiler (`rewriteRelativeImportExtensions`);
 *    A CommonJS copy of the entry points goes to `cjs/` (`require`
 *    condition, with its own `.d.ts`);
 * 2. writes `package.json` (an `exports` entry per deno.json entry point,
 *    `import` and `require` conditions, `"sideEffects": false`, zod as a
 *    peer dependency, `bin`), the npm README (`docs/npm/chat-protocol.md`)
 *    and LICENSE;
 * 3. checks the package with `publint --strict` and
 *    `attw --pack --profile node16`, and that every link of its README
 *    resolves inside the package;
 * 4. type-checks consumer projects (ESM and CommonJS under `node16` and
 *    `nodenext`, and `bundler`) with TypeScript 5.5, 5.6, 5.7, 5.8 and 5.9;
 * 5. smoke-tests every entry point under Node with `import` and `require()`
 *    (same export names both ways), checks that `"sideEffects": false` is
 *    true (importing an entry adds no global and changes no built-in
 *    prototype, measured after zod itself is loaded), and runs the CLI `bin`
 *    under Node on a bundled capture.
 *
 * Usage: `deno task build:npm` (add `--skip-checks` to only compile).
 *
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  assertEdgeSafe,
  checkPackage,
  checkReadme,
  compile,
  exportsFor,
  logger,
  run as runIn,
  smokeTest,
  tscMatrix,
} from "./_npm_build.ts";
import { TYPESCRIPTS } from "./_tsc_versions.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const out = join(root, "npm");
const skipChecks = Deno.args.includes("--skip-checks");
const denoJson = JSON.parse(await Deno.readTextFile(join(root, "deno.json")));
// The zod peer range is the one the library is developed and tested against.
const zodRange = String(denoJson.imports.zod).replace(/^npm:zod@/, "");

// The npm exports are exactly deno.json's exports (one source of truth).
const ENTRY_POINTS: Record<string, string> = Object.fromEntries(
  Object.entries(denoJson.exports as Record<string, string>).map((
    [k, v],
  ) => [k, v.replace(/^\.\//, "")]),
);
const CLI_ENTRY = "src/cli/bin.ts";

const log = logger("build:npm");
const run = (cmd: string, args: string[], cwd: string) => runIn(log, cmd, args, cwd);

// 1. compile
await Deno.remove(out, { recursive: true }).catch(() => {});
const emitted = await compile({
  root,
  rootDir: root,
  roots: [...Object.values(ENTRY_POINTS), CLI_ENTRY].map((f) => join(root, f)),
  out,
});
// The CommonJS copy: the entry points only (the CLI `bin` is ESM).
const emittedCjs = await compile({
  root,
  rootDir: root,
  roots: Object.values(ENTRY_POINTS).map((f) => join(root, f)),
  out,
  format: "cjs",
});
const count = (files: string[]) => files.filter((f) => f.endsWith(".js")).length;
log(`compiled ${count(emitted)} ESM modules and ${count(emittedCjs)} CommonJS modules`);
// Library output must not import node: builtins (only the CLI may).
await assertEdgeSafe(
  out,
  [...emitted, ...emittedCjs],
  (f) => f.startsWith(join("esm", "src", "cli")),
);

// bin: add the shebang
const binPath = join(out, "esm", CLI_ENTRY.replace(/\.ts$/, ".js"));
const binText = await Deno.readTextFile(binPath);
await Deno.writeTextFile(binPath, `#!/usr/bin/env node\n${binText.replace(/^#!.*\n/, "")}`);
await Deno.chmod(binPath, 0o755);

// 2. package.json, README, LICENSE, the JSON Schema files
const exportsMap = exportsFor(ENTRY_POINTS);
const pkg = {
  name: denoJson.name,
  version: denoJson.version,
  description:
    "The wire and state contract for streaming agent chats: SSE events, v1 envelopes, cards, message documents, recovery, interactions and agent folds.",
  license: "Apache-2.0",
  type: "module",
  sideEffects: false,
  main: "./cjs/mod.js",
  types: "./cjs/mod.d.ts",
  exports: { ...exportsMap, "./schema/*": "./schema/*", "./package.json": "./package.json" },
  bin: { "chat-protocol-inspect": "./esm/src/cli/bin.js" },
  files: ["esm", "cjs", "schema", "README.md", "LICENSE"],
  engines: { node: ">=20.19" },
  peerDependencies: { zod: zodRange },
  keywords: ["sse", "chat", "agent", "protocol", "streaming", "ai-sdk", "uimessage", "zod"],
};
await Deno.writeTextFile(join(out, "package.json"), JSON.stringify(pkg, null, 2) + "\n");
// The npm README is written for npm users (npm install, import specifiers, links into the
// package); the repository README speaks to a checkout (deno task …).
await Deno.copyFile(join(root, "docs", "npm", "chat-protocol.md"), join(out, "README.md"));
await Deno.copyFile(join(root, "LICENSE"), join(out, "LICENSE"));
// The JSON Schema files (schema/*.schema.json), as `@papercusp/chat-protocol/schema/…`.
for (const path of await listFiles(join(root, "schema"))) {
  await Deno.mkdir(join(out, "schema", dirname(path)), { recursive: true });
  await Deno.copyFile(join(root, "schema", path), join(out, "schema", path));
}
log(`wrote npm/package.json (${pkg.name}@${pkg.version})`);

if (skipChecks) Deno.exit(0);

// 3. publint + attw (fetched from the npm registry by npx, pinned); the README's links
await checkPackage(log, out);
await checkReadme(log, out);

// 4. TypeScript consumers: ESM and CommonJS (node16, nodenext) and bundler projects, with every
// TypeScript from the promised floor (5.5) to the build's own.
await tscMatrix({
  log,
  out,
  name: pkg.name,
  entries: Object.keys(ENTRY_POINTS),
  modules: { zod: join(root, "node_modules", "zod") },
  compilers: TYPESCRIPTS,
  usage: `const folder = new m0.ChatStateFolder("c1", "t1");
export const status: m0.ChatStateV1["status"] = folder.state().status;`,
});

// 5. Node smoke test: every entry point with import and require(); the bin.
await smokeTest({
  log,
  out,
  name: pkg.name,
  entries: Object.keys(ENTRY_POINTS),
  modules: { zod: join(root, "node_modules", "zod") },
  preload: ["zod"],
  then: () =>
    run("node", [binPath, "--json", join(root, "fixtures", "legacy", "scout_turn.sse")], out),
});
log("npm package OK");

/** Every file under `dir`, as paths relative to it, sorted. */
async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(join(dir, prefix))) {
    const rel = prefix === "" ? e.name : join(prefix, e.name);
    if (e.isDirectory) out.push(...await listFiles(dir, rel));
    else out.push(rel);
  }
  return out.sort();
}
