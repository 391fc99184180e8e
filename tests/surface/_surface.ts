/**
 * Reads the package's public surface: the entry points deno.json `exports`
 * names and, for each, its exported names with their kind, from
 * `deno doc --json` (so types count too) plus a runtime import (to tell a zod
 * schema from any other value).
 *
 * @module
 */

/** The repository root as a file URL (with a trailing slash). */
export const ROOT: URL = new URL("../../", import.meta.url);

/** deno.json, parsed. */
export const DENO_JSON: {
  exports: Record<string, string>;
  imports: Record<string, string>;
  publish: { include: string[] };
} = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));

/** Entry point key (`.`, `./sse`, …) → file URL of its top-level file. */
export const ENTRY_POINTS: ReadonlyMap<string, URL> = new Map(
  Object.entries(DENO_JSON.exports).map(([key, file]) => [key, new URL(file, ROOT)]),
);

/**
 * What an exported name is: `deno doc`'s declaration kinds joined with `+`
 * (`function`, `class`, `variable`, `interface`, `typeAlias`, `namespace`,
 * `enum`), except that a variable holding a zod schema is `zod schema`.
 */
export type ExportKind = string;

interface DocLocation {
  readonly filename: string;
  readonly line: number;
  readonly col: number;
}

interface DocNode {
  readonly name: string;
  readonly declarations: readonly {
    readonly kind: string;
    readonly location: DocLocation;
    /** For `kind: "reference"` (a symbol documented under another specifier of the same run). */
    readonly def?: { readonly target?: DocLocation };
  }[];
}

const at = (l: DocLocation) => `${l.filename}:${l.line}:${l.col}`;

/**
 * Runs the Deno binary with `args` in the repository root; returns its
 * stdout, or throws with its stderr when it fails.
 */
export async function runDeno(args: readonly string[]): Promise<string> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [...args],
    cwd: ROOT,
    env: { NO_COLOR: "1", RUST_BACKTRACE: "0" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (code !== 0) throw new Error(`deno ${args[0]} failed: ${new TextDecoder().decode(stderr)}`);
  return new TextDecoder().decode(stdout);
}

/** Runs `deno doc --json` on `specifiers`; returns specifier URL → its exported symbols. */
export async function docSymbols(
  specifiers: readonly string[],
): Promise<Map<string, readonly DocNode[]>> {
  const doc = JSON.parse(await runDeno(["doc", "--json", ...specifiers])) as {
    nodes: Record<string, { symbols?: DocNode[] }>;
  };
  return new Map(Object.entries(doc.nodes).map(([url, n]) => [url, n.symbols ?? []]));
}

/** True for a zod (v4) schema: every one carries the `_zod` internals object. */
export function isZodSchema(value: unknown): boolean {
  return typeof value === "object" && value !== null && "_zod" in value;
}

/** Entry point key → (exported name → kind), names sorted, entry points in deno.json order. */
export async function readSurface(): Promise<Record<string, Record<string, ExportKind>>> {
  const symbols = await docSymbols([...ENTRY_POINTS.values()].map((u) => u.href));
  // When several specifiers export one symbol, deno doc documents it once and
  // lists it as a `reference` (to the declaration's location) elsewhere.
  const kindAt = new Map<string, string>();
  for (const nodes of symbols.values()) {
    for (const n of nodes) for (const d of n.declarations) kindAt.set(at(d.location), d.kind);
  }
  const kindOf = (d: DocNode["declarations"][number]) =>
    d.kind === "reference" && d.def?.target ? kindAt.get(at(d.def.target)) ?? d.kind : d.kind;
  const out: Record<string, Record<string, ExportKind>> = {};
  for (const [key, url] of ENTRY_POINTS) {
    const runtime = await import(url.href) as Record<string, unknown>;
    const names: Record<string, ExportKind> = {};
    const nodes = [...(symbols.get(url.href) ?? [])].sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0
    );
    for (const node of nodes) {
      const kinds = [...new Set(node.declarations.map(kindOf))].sort().join("+");
      names[node.name] = kinds === "variable" && isZodSchema(runtime[node.name])
        ? "zod schema"
        : kinds;
    }
    out[key] = names;
  }
  return out;
}
