/**
 * The steps both npm builds share (`build_npm.ts` for the core,
 * `build_npm_postgres.ts` for `@papercusp/chat-protocol-postgres`): compile
 * `.ts` sources to ESM + `.d.ts` with the TypeScript compiler, check that
 * library output imports no `node:` builtin, run `publint --strict` and
 * `attw --pack --profile node16`, check the npm README's links, type-check
 * consumer projects over several TypeScript versions, and smoke-test the entry points under
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
 * `<out>/esm` (ESM + `.d.ts`, relative `.ts` imports rewritten to `.js`),
 * or with `format: "cjs"` into `<out>/cjs` (CommonJS + `.d.ts`, and a
 * `package.json` `{"type":"commonjs"}` that makes Node and TypeScript read
 * that folder as CommonJS). `paths` maps bare specifiers to declaration
 * files (a sibling package's build). Returns the emitted files, relative to
 * `out`.
 */
export async function compile(input: {
  readonly root: string;
  readonly rootDir: string;
  readonly roots: readonly string[];
  readonly out: string;
  readonly paths?: Record<string, string[]>;
  readonly format?: "esm" | "cjs";
}): Promise<string[]> {
  const cjs = input.format === "cjs";
  const dir = cjs ? "cjs" : "esm";
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: cjs ? ts.ModuleKind.CommonJS : ts.ModuleKind.ESNext,
    moduleResolution: cjs ? ts.ModuleResolutionKind.Node10 : ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts", "lib.dom.asynciterable.d.ts"],
    declaration: true,
    sourceMap: false,
    strict: true,
    isolatedModules: true,
    verbatimModuleSyntax: !cjs, // it forbids CommonJS output
    esModuleInterop: true, // CommonJS: `import process from "node:process"` reads the module
    allowImportingTsExtensions: true,
    rewriteRelativeImportExtensions: true,
    skipLibCheck: true,
    outDir: join(input.out, dir),
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
  if (cjs) {
    await Deno.writeTextFile(join(input.out, dir, "package.json"), '{ "type": "commonjs" }\n');
  }
  const emitted: string[] = [];
  for await (const f of walk(join(input.out, dir))) emitted.push(relative(input.out, f));
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
      /^\s*(?:import|export|\})[^\n]*\bfrom\s*["']node:|^\s*import\s*["']node:|\b(?:import|require)\(\s*["']node:/m
        .test(text)
    ) {
      throw new Error(`${f} imports a node: builtin; library code must stay edge-safe`);
    }
    if (/["']npm:/.test(text)) throw new Error(`${f} still has an npm: specifier`);
  }
}

/** One `exports` target: the `.d.ts` beside the `.js` it types. */
export interface ExportTarget {
  readonly types: string;
  readonly default: string;
}

/**
 * `package.json` `exports` for deno.json-style entry points (`"./x": "x.ts"`):
 * `import` gets the ESM build (`esm/`), `require` the CommonJS one (`cjs/`),
 * each with its own declarations, so TypeScript reads CommonJS types for a
 * CommonJS consumer (`module` `node16` / `nodenext`, any TypeScript ≥ 5.5)
 * and ESM types for an ESM one.
 */
export function exportsFor(
  entries: Record<string, string>,
): Record<string, { import: ExportTarget; require: ExportTarget }> {
  const map: Record<string, { import: ExportTarget; require: ExportTarget }> = {};
  for (const [key, file] of Object.entries(entries)) {
    const stem = file.replace(/\.ts$/, "");
    const target = (dir: string) => ({
      types: `./${dir}/${stem}.d.ts`,
      default: `./${dir}/${stem}.js`,
    });
    map[key] = { import: target("esm"), require: target("cjs") };
  }
  return map;
}

/**
 * `publint --strict` and `attw --pack --profile node16` (ESM and CommonJS
 * consumers under `node16` / `nodenext`, and bundlers) on the package in
 * `out` (pinned, via npx).
 */
export async function checkPackage(log: (msg: string) => void, out: string): Promise<void> {
  await run(log, "npx", ["--yes", "publint@0.3.25", "--strict", "."], out);
  await run(log, "npx", [
    "--yes",
    "@arethetypeswrong/cli@0.18.5",
    "--pack",
    ".",
    "--profile",
    "node16",
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

/** One consumer project of {@link tscMatrix}: its `package.json` type and compiler options. */
interface Consumer {
  readonly name: string;
  readonly type: "module" | "commonjs";
  readonly module: string;
  readonly moduleResolution: string;
}

/** The consumers the README names: ESM and CommonJS under `nodenext` and `node16`, and bundlers. */
const CONSUMERS: readonly Consumer[] = [
  { name: "esm-nodenext", type: "module", module: "nodenext", moduleResolution: "nodenext" },
  { name: "esm-node16", type: "module", module: "node16", moduleResolution: "node16" },
  { name: "cjs-nodenext", type: "commonjs", module: "nodenext", moduleResolution: "nodenext" },
  { name: "cjs-node16", type: "commonjs", module: "node16", moduleResolution: "node16" },
  { name: "bundler", type: "module", module: "esnext", moduleResolution: "bundler" },
];

/**
 * Type-checks consumer projects of the built package in `out` with every
 * compiler of `compilers` (the `typescript` module of each version): for
 * each consumer of {@link CONSUMERS}, a project whose `index.ts` imports
 * every entry point (`import * as`, plus `usage`, a snippet that uses the
 * types); the first consumer checks with `skipLibCheck: false`, so the
 * package's declarations are checked too. `modules` (package name → directory) are linked into the
 * projects' `node_modules`. Logs one line per version and throws listing
 * every failing pair.
 */
export async function tscMatrix(input: {
  readonly log: (msg: string) => void;
  readonly out: string;
  readonly name: string;
  readonly entries: readonly string[];
  readonly modules: Record<string, string>;
  readonly usage: string;
  // deno-lint-ignore no-explicit-any
  readonly compilers: readonly any[];
}): Promise<void> {
  const base = await Deno.makeTempDir({ prefix: "tsc_matrix_" });
  try {
    const links = { [input.name]: input.out, ...input.modules };
    for (const [pkg, target] of Object.entries(links)) {
      const link = join(base, "node_modules", pkg);
      await Deno.mkdir(join(link, ".."), { recursive: true });
      await Deno.symlink(target, link);
    }
    const specs = input.entries.map((e) => e === "." ? input.name : `${input.name}/${e.slice(2)}`);
    const index = specs.map((s, i) => `import * as m${i} from "${s}";`).join("\n") +
      `\nexport const all = [${specs.map((_, i) => `m${i}`).join(", ")}];\n${input.usage}\n`;
    for (const c of CONSUMERS) {
      await Deno.mkdir(join(base, c.name));
      await Deno.writeTextFile(
        join(base, c.name, "package.json"),
        JSON.stringify({ type: c.type }),
      );
      await Deno.writeTextFile(join(base, c.name, "index.ts"), index);
    }
    const failures: string[] = [];
    for (const ts of input.compilers) {
      const started = performance.now();
      const results: string[] = [];
      for (const c of CONSUMERS) {
        const parsed = ts.convertCompilerOptionsFromJson({
          module: c.module,
          moduleResolution: c.moduleResolution,
          target: "es2022",
          lib: ["es2022", "dom", "dom.iterable"],
          strict: true,
          noEmit: true,
          // The package's declarations are checked once per version (ESM, nodenext), the other
          // consumers check resolution and use (TS1479, TS2307, …) and skip the rest.
          skipLibCheck: c !== CONSUMERS[0],
          types: [],
        }, join(base, c.name));
        const program = ts.createProgram([join(base, c.name, "index.ts")], parsed.options);
        const diagnostics = [...parsed.errors, ...ts.getPreEmitDiagnostics(program)];
        results.push(
          `${c.name} ${diagnostics.length === 0 ? "ok" : `${diagnostics.length} errors`}`,
        );
        if (diagnostics.length > 0) {
          const text = ts.formatDiagnostics(diagnostics.slice(0, 5), {
            getCanonicalFileName: (f: string) => f,
            getCurrentDirectory: () => base,
            getNewLine: () => "\n",
          });
          failures.push(`TypeScript ${ts.version}, ${c.name}:\n${text}`);
        }
      }
      const ms = Math.round(performance.now() - started);
      input.log(`tsc ${ts.version}: ${results.join(", ")} (${ms} ms)`);
    }
    if (failures.length > 0) throw new Error(`consumer type check failed:\n${failures.join("\n")}`);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
}

/**
 * Throws unless the package's `README.md` (in `out`) is written for npm
 * users: every relative link names a file that is in the package (the
 * tarball holds only `out`), and no line tells the reader to run
 * `deno task` (there is no deno.json in the package).
 */
export async function checkReadme(log: (msg: string) => void, out: string): Promise<void> {
  const text = await Deno.readTextFile(join(out, "README.md"));
  const problems: string[] = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^(?:https:\/\/|#)/.test(target)) continue;
    const path = target.split("#")[0];
    if (/^(?:\.\.\/|\/)/.test(path) || !(await exists(join(out, path)))) {
      problems.push(`link to ${target}: not a file in the package`);
    }
  }
  if (/deno task/.test(text)) problems.push("tells the reader to run `deno task`");
  if (problems.length > 0) throw new Error(`npm README: ${problems.join("; ")}`);
  log("README.md: every link resolves inside the package");
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}
