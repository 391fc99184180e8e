/**
 * The public surface changes only on purpose.
 *
 * - Per entry point (deno.json `exports`): the sorted exported names and each
 *   one's kind must equal `fixtures/surface/exports.json`. After an intended
 *   change, rewrite it with
 *   `deno test --allow-all tests/surface/exports_test.ts -- --update` and
 *   review the diff.
 * - Each entry file is named re-exports only, straight from concept files
 *   (no `export *`, no `src/<area>/mod.ts` barrel, no other entry file), so a
 *   bundler never evaluates a module the caller did not ask for.
 * - The root holds no zod schema and no name that `ai` (the AI SDK) exports.
 * - One name per thing, one entry point per name (CONTRIBUTING, "Layout").
 *
 * @module
 */
import assert from "node:assert/strict";
import { assertGolden } from "../_helpers/golden.ts";
import { isLibraryFile } from "../../lint/edge_safe.ts";
import * as root from "../../mod.ts";
import {
  DENO_JSON,
  docSymbols,
  ENTRY_POINTS,
  isZodSchema,
  readSurface,
  ROOT,
  runDeno,
} from "./_surface.ts";
import { surfaceReport } from "../../scripts/surface_report.ts";

Deno.test("export surface per entry point matches fixtures/surface/exports.json", async () => {
  const surface = await readSurface();
  assert.deepEqual(Object.keys(surface), [...ENTRY_POINTS.keys()]);
  for (const [key, names] of Object.entries(surface)) {
    assert.ok(Object.keys(names).length > 0, `${key} exports nothing`);
  }
  await assertGolden("surface/exports.json", surface);
});

/** Drop comments (the entry files have no string containing comment markers). */
function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
}

const RE_EXPORT = /^export (?:type )?\{[^}]*\} from "([^"]+)";$/;

Deno.test("entry files are named re-exports from concept files only", async () => {
  const entryPaths = new Set([...ENTRY_POINTS.values()].map((u) => u.href));
  for (const [key, url] of ENTRY_POINTS) {
    const text = await Deno.readTextFile(url);
    assert.match(text, /^\/\*\*[\s\S]*?@module[\s\S]*?\*\//, `${key}: no module doc`);
    const statements = stripComments(text).split(";").map((s) => s.trim()).filter(Boolean)
      .map((s) => s.replace(/\s+/g, " ") + ";");
    assert.ok(statements.length > 0, `${key}: no statement`);
    for (const st of statements) {
      const m = RE_EXPORT.exec(st);
      assert.ok(m, `${key}: not a named re-export: ${st.slice(0, 120)}`);
      const target = new URL(m[1], url);
      assert.ok(m[1].startsWith("./src/"), `${key}: re-exports from outside src/: ${m[1]}`);
      assert.ok(!target.pathname.endsWith("/mod.ts"), `${key}: re-exports a barrel: ${m[1]}`);
      assert.ok(!entryPaths.has(target.href), `${key}: re-exports another entry: ${m[1]}`);
      await Deno.stat(target); // the concept file exists
    }
  }
});

/**
 * A module of the shared internals (`src/_internal/`). (Area-private
 * `_name.ts` modules still declare some public names in `./recovery`,
 * `./interactions`, `./ai-sdk` and the root: left to the branches that own
 * those areas.)
 */
const isInternalModule = (path: string) => path.includes("/src/_internal/");

Deno.test("no exported name is declared in src/_internal/ (the shared internals are never public)", async () => {
  const symbols = await docSymbols([...ENTRY_POINTS.values()].map((u) => u.href));
  const internal: string[] = [];
  for (const [entry, nodes] of symbols) {
    for (const n of nodes) {
      for (const d of n.declarations) {
        const where = d.kind === "reference" && d.def?.target ? d.def.target : d.location;
        if (isInternalModule(where.filename)) {
          internal.push(
            `${entry.slice(entry.lastIndexOf("/") + 1)}: ${n.name} (${where.filename})`,
          );
        }
      }
    }
  }
  assert.deepEqual(internal, []);
});

Deno.test("every entry file is published and linted as library code", () => {
  for (const [key, url] of ENTRY_POINTS) {
    const file = url.href.slice(ROOT.href.length);
    assert.ok(DENO_JSON.publish.include.includes(file), `${key}: ${file} not in publish.include`);
    assert.ok(isLibraryFile(url.pathname), `${key}: ${file} escapes the edge-safe lint rules`);
  }
  assert.equal(isLibraryFile(new URL("tests/surface/exports_test.ts", ROOT).pathname), false);
  assert.equal(isLibraryFile(new URL("src/v1/parse.ts", ROOT).pathname), true);
});

Deno.test("the root exports no zod schema", () => {
  const schemas = Object.entries(root).filter(([, v]) => isZodSchema(v)).map(([k]) => k);
  assert.deepEqual(schemas, []);
});

/**
 * The runtime export names of `ai`, read in a subprocess: importing `ai`
 * needs `--allow-sys=hostname`, which the test task does not grant.
 */
async function aiRuntimeNames(): Promise<string[]> {
  return JSON.parse(
    await runDeno([
      "eval",
      "--allow-sys=hostname",
      "--allow-env",
      "--allow-read",
      'console.log(JSON.stringify(Object.keys(await import("ai"))))',
    ]),
  );
}

Deno.test("the root's names and the AI SDK's (`ai`) are disjoint, types included", async () => {
  const aiValues = await aiRuntimeNames();
  const aiSpecifier = DENO_JSON.imports["ai"]; // npm:ai@<pinned version>
  const rootUrl = ENTRY_POINTS.get(".")!.href;
  const symbols = await docSymbols([rootUrl, aiSpecifier]);
  const rootNames = new Set((symbols.get(rootUrl) ?? []).map((s) => s.name));
  const aiTypes = [...symbols.entries()].filter(([url]) => url !== rootUrl)
    .flatMap(([, nodes]) => nodes.map((s) => s.name));
  // Sanity: both lists are real (a failed read must not pass as "disjoint").
  assert.ok(rootNames.has("parseChatEnvelopeJson") && rootNames.has("ChatStateV1"));
  assert.ok(aiTypes.includes("UIMessage") && aiTypes.includes("TextPart"), "ai's types read");
  assert.ok(aiValues.includes("readUIMessageStream"), "ai's values read");
  const aiNames = new Set([...aiTypes, ...aiValues]);
  assert.deepEqual([...rootNames].filter((n) => aiNames.has(n)).sort(), []);
  assert.deepEqual(Object.keys(root).filter((n) => aiNames.has(n)).sort(), []);
});

Deno.test("one entry point per name and one name per thing (scripts/surface_report.ts)", async () => {
  const report = await surfaceReport();
  // Sanity: the report read the real surface.
  assert.ok(report.total.names > 500 && report.total.values > 200, JSON.stringify(report.total));
  assert.deepEqual(report.multiEntry, [], "names exported from more than one entry point");
  assert.deepEqual(report.twoNames, [], "things exported under two or more names");
});
