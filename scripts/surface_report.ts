/**
 * Prints the package's public surface in figures, from deno.json `exports`:
 *
 * - per entry point, the number of exported names, split into types
 *   (interfaces, type aliases) and runtime values (functions, classes,
 *   variables), and the totals;
 * - every name exported from more than one entry point, with the entries;
 * - every thing exported under two or more names: one runtime value (the
 *   same object, e.g. a zod schema exported as both `FooSchema` and
 *   `fooSchema`) or one declaration (a re-export `as`, a type alias that
 *   only renames another exported type) reachable under different names.
 *
 * `deno task surface [--json]`; `tests/surface/exports_test.ts` requires both
 * lists to be empty.
 *
 * @module
 */
import { docSymbols, ENTRY_POINTS, isZodSchema } from "../tests/surface/_surface.ts";

interface Location {
  readonly filename: string;
  readonly line: number;
  readonly col: number;
}
interface Declaration {
  readonly kind: string;
  readonly location: Location;
  readonly def?: { readonly target?: Location };
  readonly typeAliasDef?: {
    readonly tsType?: { readonly kind?: string; readonly typeRef?: { typeName?: string } };
    readonly typeParams?: readonly unknown[];
  };
}
interface Node {
  readonly name: string;
  readonly declarations: readonly Declaration[];
}

const TYPE_KINDS = new Set(["interface", "typeAlias"]);
const at = (l: Location) =>
  `${l.filename.replace(/^file:\/\/.*?\/(src|[a-z_]+\.ts)/, "$1")}:${l.line}`;

/** Entry key → its nodes, and the declaration kind at each location. */
async function readEntries(): Promise<Map<string, readonly Node[]>> {
  const symbols = await docSymbols([...ENTRY_POINTS.values()].map((u) => u.href));
  const out = new Map<string, readonly Node[]>();
  for (const [key, url] of ENTRY_POINTS) {
    out.set(key, (symbols.get(url.href) ?? []) as unknown as readonly Node[]);
  }
  return out;
}

/** Counts of one entry point's exports. */
export interface EntryFigures {
  names: number;
  types: number;
  values: number;
  zodSchemas: number;
}

/** The surface in figures (see the module doc). */
export interface SurfaceReport {
  /** Entry point key → its counts. */
  readonly perEntry: Readonly<Record<string, EntryFigures>>;
  /** The counts summed over the entry points. */
  readonly total: EntryFigures;
  /** How many different names the entry points export. */
  readonly distinct: number;
  /** `[name, entry keys]` for each name exported from more than one entry point. */
  readonly multiEntry: readonly (readonly [string, readonly string[]])[];
  /** The names of each thing exported under more than one name. */
  readonly twoNames: readonly (readonly string[])[];
}

/** Reads the surface of every entry point in deno.json `exports`. */
export async function surfaceReport(): Promise<SurfaceReport> {
  const entries = await readEntries();
  const kindAt = new Map<string, Declaration>();
  for (const nodes of entries.values()) {
    for (const n of nodes) for (const d of n.declarations) kindAt.set(at(d.location), d);
  }
  const resolve = (d: Declaration): Declaration =>
    d.kind === "reference" && d.def?.target ? kindAt.get(at(d.def.target)) ?? d : d;

  const perEntry: Record<string, EntryFigures> = {};
  /** name → entries exporting it. */
  const entriesOf = new Map<string, string[]>();
  /** declaration location → names it is exported under. */
  const namesAt = new Map<string, Set<string>>();
  /** runtime value → names it is exported under. */
  const namesOfValue = new Map<unknown, Set<string>>();
  /** type alias name → the exported type it merely renames. */
  const aliasOf = new Map<string, string>();
  const allNames = new Set<string>();

  for (const [key, nodes] of entries) {
    const runtime = await import(ENTRY_POINTS.get(key)!.href) as Record<string, unknown>;
    const figures: EntryFigures = { names: 0, types: 0, values: 0, zodSchemas: 0 };
    for (const n of nodes) {
      allNames.add(n.name);
      figures.names++;
      const decls = n.declarations.map(resolve);
      if (decls.every((d) => TYPE_KINDS.has(d.kind))) figures.types++;
      else figures.values++;
      if (isZodSchema(runtime[n.name])) figures.zodSchemas++;
      entriesOf.set(n.name, [...(entriesOf.get(n.name) ?? []), key]);
      for (const d of decls) {
        const where = at(d.location);
        namesAt.set(where, (namesAt.get(where) ?? new Set()).add(n.name));
        const t = d.typeAliasDef;
        if (
          d.kind === "typeAlias" && t?.tsType?.kind === "typeRef" && !t.typeParams?.length &&
          t.tsType.typeRef?.typeName
        ) aliasOf.set(n.name, t.tsType.typeRef.typeName);
      }
      if (Object.hasOwn(runtime, n.name)) {
        const v = runtime[n.name];
        if ((typeof v === "object" && v !== null) || typeof v === "function") {
          namesOfValue.set(v, (namesOfValue.get(v) ?? new Set()).add(n.name));
        }
      }
    }
    perEntry[key] = figures;
  }

  const multiEntry = [...entriesOf].filter(([, e]) => e.length > 1).sort(([a], [b]) =>
    a < b ? -1 : 1
  );
  const groups = new Map<string, string[]>();
  const addGroup = (names: Iterable<string>) => {
    const sorted = [...new Set(names)].sort();
    if (sorted.length > 1) groups.set(sorted.join(" = "), sorted);
  };
  for (const names of namesAt.values()) addGroup(names);
  for (const names of namesOfValue.values()) addGroup(names);
  for (const [alias, target] of aliasOf) if (allNames.has(target)) addGroup([alias, target]);
  // A value group and a location group of the same pair are one finding.
  const twoNames = [...groups.values()].sort((a, b) => (a[0] < b[0] ? -1 : 1));

  const total = Object.values(perEntry).reduce(
    (s, f) => ({
      names: s.names + f.names,
      types: s.types + f.types,
      values: s.values + f.values,
      zodSchemas: s.zodSchemas + f.zodSchemas,
    }),
    { names: 0, types: 0, values: 0, zodSchemas: 0 },
  );
  return { perEntry, total, distinct: allNames.size, multiEntry, twoNames };
}

if (import.meta.main) {
  const report = await surfaceReport();
  const { perEntry, total, distinct, multiEntry, twoNames } = report;

  if (Deno.args.includes("--json")) {
    console.log(JSON.stringify(report, null, 2));
  } else {
    const pad = (s: string | number, n: number) => String(s).padStart(n);
    console.log("entry point              names  types  values  zod");
    for (const [key, f] of Object.entries(perEntry)) {
      console.log(
        `${key.padEnd(24)} ${pad(f.names, 5)}  ${pad(f.types, 5)}  ${pad(f.values, 6)}  ${
          pad(f.zodSchemas, 3)
        }`,
      );
    }
    console.log(
      `${"total".padEnd(24)} ${pad(total.names, 5)}  ${pad(total.types, 5)}  ${
        pad(total.values, 6)
      }  ${pad(total.zodSchemas, 3)}`,
    );
    console.log(`distinct names: ${distinct}`);
    console.log(`\nnames exported from more than one entry point: ${multiEntry.length}`);
    for (const [name, e] of multiEntry) console.log(`  ${name}: ${e.join(", ")}`);
    console.log(`\nthings exported under two or more names: ${twoNames.length}`);
    for (const names of twoNames) console.log(`  ${names.join(" = ")}`);
  }
}
