/**
 * The steps both npm builds share (`build_npm.ts` for the core,
 * `build_npm_postgres.ts` for `@papercusp/chat-protocol-postgres`): compile
 * `.ts` sources to ESM + `.d.ts` with the TypeScript compiler, check that
 * library output imports no `node:` builtin, run `publint --strict` and
 * `attw --pack --profile esm-only`, and smoke-test the entry points under
 * Node with `import` and `require()`.
 *
 * @module
 */
import ts from "typescript";
import { join, relative } from "node:path";

/** Prints one build log line with the build's tag. */
export function logger(tag: string): (msg: string) => void {
  return (msg) => console.log(`[${tag}] ${msg}`);
}

/** Runs a command, inheriting stdio; throws when it exits non-zero. */
export async function run(
  log: (msg: string) => void,
  cmd: string,
  args: string[],
  cwd: string,
): Promise<void> {
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

/** Every file under `dir`, recursively. */
export async function* walk(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) yield* walk(p);
    else yield p;
  }
}

/**
 * Compiles `roots` (absolute paths) and everything they import into
 * `<out>/esm` (ESM + `.d.ts`, relative `.ts` imports rewritten to `.js`).
 * `paths` maps bare specifiers to declaration files (a sibling package's
 * build). Returns the emitted files, relative to `out`.
 */
export async function compile(input: {
  readonly root: string;
  readonly rootDir: string;
  readonly roots: readonly string[];
  readonly out: string;
  readonly paths?: Record<string, string[]>;
}): Promise<string[]> {
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
    outDir: join(input.out, "esm"),
    rootDir: input.rootDir,
    types: ["node"],
    typeRoots: [join(input.root, "node_modules/@types")],
    noEmitOnError: true,
    ...(input.paths ? { paths: input.paths } : {}),
  };
  const host = ts.createCompilerHost(options);
  const program = ts.createProgram([...input.roots], options, host);
  const emit = program.emit();
  const diagnostics = ts.getPreEmitDiagnostics(program).concat(emit.diagnostics);
  if (diagnostics.length > 0) {
    const text = ts.formatDiagnosticsWithColorAndContext(diagnostics, host);
    console.error(text);
    if (emit.emitSkipped) throw new Error("TypeScript emit failed");
  }
  const emitted: string[] = [];
  for await (const f of walk(join(input.out, "esm"))) emitted.push(relative(input.out, f));
  return emitted;
}

/**
 * Throws when an emitted library module (one `mayUseNode` does not allow)
 * imports a `node:` builtin, or when any module still has an `npm:` specifier.
 */
export async function assertEdgeSafe(
  out: string,
  emitted: readonly string[],
  mayUseNode: (file: string) => boolean,
): Promise<void> {
  for (const f of emitted) {
    if (!f.endsWith(".js")) continue;
    const text = await Deno.readTextFile(join(out, f));
    if (
      !mayUseNode(f) &&
      /^\s*(?:import|export|\})[^\n]*\bfrom\s*["']node:|^\s*import\s*["']node:|\bimport\(\s*["']node:/m
        .test(text)
    ) {
      throw new Error(`${f} imports a node: builtin; library code must stay edge-safe`);
    }
    if (/["']npm:/.test(text)) throw new Error(`${f} still has an npm: specifier`);
  }
}

/** `package.json` `exports` for deno.json-style entry points (`"./x": "x.ts"`). */
export function exportsFor(
  entries: Record<string, string>,
): Record<string, { types: string; default: string }> {
  const map: Record<string, { types: string; default: string }> = {};
  for (const [key, file] of Object.entries(entries)) {
    const base = "./esm/" + file.replace(/\.ts$/, "");
    map[key] = { types: `${base}.d.ts`, default: `${base}.js` };
  }
  return map;
}

/** `publint --strict` and `attw --pack --profile esm-only` on the package in `out` (pinned, via npx). */
export async function checkPackage(log: (msg: string) => void, out: string): Promise<void> {
  await run(log, "npx", ["--yes", "publint@0.3.25", "--strict", "."], out);
  await run(log, "npx", [
    "--yes",
    "@arethetypeswrong/cli@0.18.5",
    "--pack",
    ".",
    "--profile",
    "esm-only",
  ], out);
}

/**
 * Node smoke test: links `modules` (package name → directory) into
 * `<out>/node_modules`, then imports every entry point by the package's own
 * name with `import` and `require()` (the same export names both ways, at
 * least one), and checks that `"sideEffects": false` is true: importing an
 * entry adds no global and changes no built-in prototype (the `preload`
 * specifiers, peers, are loaded first and not judged). Then runs `extra`
 * (more ESM code), then `then` (while the links still exist). Cleans up
 * after itself.
 */
export async function smokeTest(input: {
  readonly log: (msg: string) => void;
  readonly out: string;
  readonly name: string;
  readonly entries: readonly string[];
  readonly modules: Record<string, string>;
  readonly preload: readonly string[];
  readonly extra?: string;
  readonly then?: () => Promise<void>;
}): Promise<void> {
  const { out, name } = input;
  for (const [pkg, target] of Object.entries(input.modules)) {
    const link = join(out, "node_modules", pkg);
    await Deno.mkdir(join(link, ".."), { recursive: true });
    await Deno.symlink(target, link).catch(() => {});
  }
  const smoke = `
const entries = ${JSON.stringify(input.entries)};
const { createRequire } = await import("node:module");
const require = createRequire(import.meta.url);
// "sideEffects": false must be true: importing an entry adds no global and
// changes no built-in prototype (peers are loaded first and not judged).
for (const peer of ${JSON.stringify(input.preload)}) await import(peer);
const builtins = [Object, Array, String, Number, Function, Promise, Map, Set, RegExp, Error, JSON, Math];
const shape = () => JSON.stringify([
  Object.getOwnPropertyNames(globalThis).sort(),
  builtins.map((b) => [Object.getOwnPropertyNames(b).sort(), b.prototype ? Object.getOwnPropertyNames(b.prototype).sort() : []]),
]);
const before = shape();
for (const e of entries) {
  const spec = e === "." ? "${name}" : "${name}/" + e.slice(2);
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
${input.extra ?? ""}
`;
  // Resolve the package by its own name from inside its folder (self-reference).
  await Deno.writeTextFile(join(out, "smoke.mjs"), smoke);
  try {
    await run(input.log, "node", ["smoke.mjs"], out);
    await input.then?.();
  } finally {
    await Deno.remove(join(out, "smoke.mjs")).catch(() => {});
    await Deno.remove(join(out, "node_modules"), { recursive: true }).catch(() => {});
  }
}
