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
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  assertEdgeSafe,
  checkPackage,
  compile,
  exportsFor,
  logger,
  run as runIn,
  smokeTest,
} from "./_npm_build.ts";

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
log(`compiled ${emitted.filter((f) => f.endsWith(".js")).length} modules`);
// Library output must not import node: builtins (only the CLI may).
await assertEdgeSafe(out, emitted, (f) => f.startsWith(join("esm", "src", "cli")));

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
log(`wrote npm/package.json (${pkg.name}@${pkg.version})`);

if (skipChecks) Deno.exit(0);

// 3. publint + attw (fetched from the npm registry by npx, pinned)
await checkPackage(log, out);

// 4. Node smoke test: every entry point with import and require(); the bin.
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
