/**
 * Builds the npm package into `npm/` (the role dnt plays, without JSR):
 *
 * 1. compiles every entry point deno.json `exports` names and everything they
 *    import (plus the `inspect` CLI for the `bin` entry) to ESM + `.d.ts`
 *    with the TypeScript compiler (`rewriteRelativeImportExtensions`);
 * 2. writes `package.json` (an `exports` entry per deno.json entry point,
 *    `"sideEffects": false`, zod as a peer dependency, `bin`), README and
 *    LICENSE;
 * 3. checks the package with `publint --strict` and
 *    `attw --pack --profile esm-only`;
 * 4. smoke-tests every entry point under Node with `import` and `require()`
 *    (same export names both ways), checks that `"sideEffects": false` is
 *    true (importing an entry adds no global and changes no built-in
 *    prototype, measured after zod itself is loaded), and runs the CLI `bin`
 *    under Node on a bundled capture.
 *
 * Usage: `deno task build:npm` (add `--skip-checks` to only compile).
 *
 * @module
 */
import ts from "typescript";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

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

function log(msg: string) {
  console.log(`[build:npm] ${msg}`);
}

async function run(cmd: string, args: string[], cwd: string): Promise<void> {
  log(`$ ${cmd} ${args.join(" ")}`);
  const child = new Deno.Command(cmd, {
    args,
    cwd,
    stdout: "inherit",
    stderr: "inherit",
    env: { NO_UPDATE_NOTIFIER: "1", npm_config_fund: "false", npm_config_audit: "false" },
  });
  const { code } = await child.output();
  if (code !== 0) throw new Error(`${cmd} ${args.join(" ")} exited with ${code}`);
}

// 1. compile
await Deno.remove(out, { recursive: true }).catch(() => {});
const roots = [...Object.values(ENTRY_POINTS), CLI_ENTRY].map((f) => join(root, f));
const options: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts", "lib.dom.asynciterable.d.ts"],
  declaration: true,
  sourceMap: false,
  strict: true,
  isolatedModules: true,
  verbatimModuleSyntax: true,
  allowImportingTsExtensions: true,
  rewriteRelativeImportExtensions: true,
  skipLibCheck: true,
  outDir: join(out, "esm"),
  rootDir: root,
  types: ["node"],
  typeRoots: [join(root, "node_modules/@types")],
  noEmitOnError: true,
};
const host = ts.createCompilerHost(options);
const program = ts.createProgram(roots, options, host);
const emit = program.emit();
const diagnostics = ts.getPreEmitDiagnostics(program).concat(emit.diagnostics);
if (diagnostics.length > 0) {
  const text = ts.formatDiagnosticsWithColorAndContext(diagnostics, host);
  console.error(text);
  if (emit.emitSkipped) throw new Error("TypeScript emit failed");
}
const emitted: string[] = [];
for await (const f of walk(join(out, "esm"))) emitted.push(relative(out, f));
log(`compiled ${emitted.filter((f) => f.endsWith(".js")).length} modules`);
// Library output must not import node: builtins (only the CLI may).
for (const f of emitted) {
  if (!f.endsWith(".js") || f.startsWith(join("esm", "src", "cli"))) continue;
  const text = await Deno.readTextFile(join(out, f));
  if (
    /^\s*(?:import|export|\})[^\n]*\bfrom\s*["']node:|^\s*import\s*["']node:|\bimport\(\s*["']node:/m
      .test(text)
  ) {
    throw new Error(`${f} imports a node: builtin; library code must stay edge-safe`);
  }
  if (/["']npm:/.test(text)) throw new Error(`${f} still has an npm: specifier`);
}

// bin: add the shebang
const binPath = join(out, "esm", CLI_ENTRY.replace(/\.ts$/, ".js"));
const binText = await Deno.readTextFile(binPath);
await Deno.writeTextFile(binPath, `#!/usr/bin/env node\n${binText.replace(/^#!.*\n/, "")}`);
await Deno.chmod(binPath, 0o755);

// 2. package.json, README, LICENSE, the JSON Schema files
const exportsMap: Record<string, { types: string; default: string }> = {};
for (const [key, file] of Object.entries(ENTRY_POINTS)) {
  const base = "./esm/" + file.replace(/\.ts$/, "");
  exportsMap[key] = { types: `${base}.d.ts`, default: `${base}.js` };
}
const pkg = {
  name: denoJson.name,
  version: denoJson.version,
  description:
    "The wire and state contract for streaming agent chats: SSE events, v1 envelopes, cards, message documents, recovery, interactions and agent folds.",
  license: "Apache-2.0",
  type: "module",
  sideEffects: false,
  main: "./esm/mod.js",
  types: "./esm/mod.d.ts",
  exports: { ...exportsMap, "./schema/*": "./schema/*", "./package.json": "./package.json" },
  bin: { "chat-protocol-inspect": "./esm/src/cli/bin.js" },
  files: ["esm", "schema", "README.md", "LICENSE"],
  engines: { node: ">=20.19" },
  peerDependencies: { zod: zodRange },
  keywords: ["sse", "chat", "agent", "protocol", "streaming", "ai-sdk", "uimessage", "zod"],
};
await Deno.writeTextFile(join(out, "package.json"), JSON.stringify(pkg, null, 2) + "\n");
await Deno.copyFile(join(root, "README.md"), join(out, "README.md"));
await Deno.copyFile(join(root, "LICENSE"), join(out, "LICENSE"));
// The JSON Schema files (schema/*.schema.json), as `@papercusp/chat-protocol/schema/…`.
for (const path of await listFiles(join(root, "schema"))) {
  await Deno.mkdir(join(out, "schema", dirname(path)), { recursive: true });
  await Deno.copyFile(join(root, "schema", path), join(out, "schema", path));
}
/** Every file under `dir`, as paths relative to it. */
async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(join(dir, prefix))) {
    const rel = prefix === "" ? e.name : join(prefix, e.name);
    if (e.isDirectory) out.push(...await listFiles(dir, rel));
    else out.push(rel);
  }
  return out.sort();
}
log(`wrote npm/package.json (${pkg.name}@${pkg.version})`);

if (skipChecks) Deno.exit(0);

// 3. publint + attw (fetched from the npm registry by npx, pinned)
await run("npx", ["--yes", "publint@0.3.25", "--strict", "."], out);
await run("npx", [
  "--yes",
  "@arethetypeswrong/cli@0.18.5",
  "--pack",
  ".",
  "--profile",
  "esm-only",
], out);

// 4. Node smoke test: every entry point with import and require(); the bin.
await Deno.mkdir(join(out, "node_modules"), { recursive: true });
await Deno.symlink(join(root, "node_modules", "zod"), join(out, "node_modules", "zod"))
  .catch(() => {});
const smoke = `
const entries = ${JSON.stringify(Object.keys(ENTRY_POINTS))};
const { createRequire } = await import("node:module");
const require = createRequire(import.meta.url);
// "sideEffects": false must be true: importing an entry adds no global and
// changes no built-in prototype (zod, a peer, is loaded first and not judged).
await import("zod");
const builtins = [Object, Array, String, Number, Function, Promise, Map, Set, RegExp, Error, JSON, Math];
const shape = () => JSON.stringify([
  Object.getOwnPropertyNames(globalThis).sort(),
  builtins.map((b) => [Object.getOwnPropertyNames(b).sort(), b.prototype ? Object.getOwnPropertyNames(b.prototype).sort() : []]),
]);
const before = shape();
for (const e of entries) {
  const spec = e === "." ? "${pkg.name}" : "${pkg.name}/" + e.slice(2);
  const viaImport = await import(spec);
  const viaRequire = require(spec);
  const names = Object.keys(viaImport).sort();
  if (names.length === 0) throw new Error(spec + " exports nothing");
  if (JSON.stringify(Object.keys(viaRequire).sort()) !== JSON.stringify(names)) {
    throw new Error(spec + ": require() and import differ");
  }
  if (shape() !== before) throw new Error(spec + ": importing it changed a global or a built-in (sideEffects: false is false)");
  console.log("node " + process.version + ": " + spec + " ok (" + names.length + " runtime exports, import + require, no side effect)");
}
`;
// Resolve the package by its own name from inside npm/ (self-reference).
await Deno.writeTextFile(join(out, "smoke.mjs"), smoke);
try {
  await run("node", ["smoke.mjs"], out);
} finally {
  await Deno.remove(join(out, "smoke.mjs"));
}
await run("node", [binPath, "--json", join(root, "fixtures", "legacy", "scout_turn.sse")], out);
await Deno.remove(join(out, "node_modules"), { recursive: true });
log("npm package OK");

async function* walk(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) yield* walk(p);
    else yield p;
  }
}
