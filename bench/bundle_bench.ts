/**
 * Bundle size: what a browser ships for each entry point and for a minimal
 * v1 client, beside the AI SDK's and AG-UI's equivalent client stacks.
 *
 *   deno run -A bench/bundle_bench.ts
 *
 * Each bundle is built by esbuild (pinned in deno.json) as a browser ESM
 * bundle, minified and tree-shaken, with our modules marked side-effect free
 * (as the npm package declares `"sideEffects": false`) and the peers' own
 * `package.json` `sideEffects` respected; the size printed is the gzipped
 * output (level 9), in KB = 1,000 bytes, with the share of zod in it.
 *
 * - Every entry point in deno.json `exports`, all of its names kept
 *   (`export * from`): the most a user of that entry can ship.
 * - The scenario "a browser client importing only `parseChatEnvelopeJson` +
 *   `ChatStateFolder` + `SseDecoderStream`", beside the AI SDK's equivalent
 *   (`parseJsonEventStream` + `readUIMessageStream` + `uiMessageChunkSchema`
 *   from `ai`) and AG-UI's (`HttpAgent` from `@ag-ui/client`, its client:
 *   SSE decoding, event verification and the state fold, with
 *   `@ag-ui/core`'s `EventSchemas`).
 *
 * - Single-function imports (`capDeliveryStatus`, `toHitlAnswer`,
 *   `toUIMessage` from `./message`, `cardResponseJsonSchema` from `./cards`):
 *   what a caller of that one function ships (`cardResponseJsonSchema`
 *   printed only: it still builds its JSON Schema with zod).
 *
 * Goals (issue 10), exit 1 when one is missed: the scenario is ≤ 10 KB
 * gzipped including everything it pulls in, and neither the scenario, the
 * root entry point (`.`) nor the first three single-function imports contain
 * zod.
 *
 * @module
 */
import * as esbuild from "esbuild";
import { gzipSync } from "node:zlib";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Goals } from "./_timing.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const denoJson = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
const ENTRIES = Object.entries(denoJson.exports as Record<string, string>);
const KB = 1000;
const SCENARIO_GOAL_KB = 10;

/**
 * Our own modules are side-effect free, as the npm package.json says
 * (`"sideEffects": false`): esbuild may drop any of them that nothing uses.
 * Peers keep the `sideEffects` of their own package.json.
 */
const ownModulesSideEffectFree: esbuild.Plugin = {
  name: "own-modules-side-effect-free",
  setup(build) {
    build.onResolve({ filter: /^\.{0,2}\// }, (args) => {
      const base = args.importer === "" || args.importer === "<stdin>"
        ? args.resolveDir
        : dirname(args.importer);
      const path = isAbsolute(args.path) ? args.path : resolve(base, args.path);
      if (relative(ROOT, path).startsWith("node_modules")) return undefined;
      if (relative(ROOT, path).startsWith("..")) return undefined;
      return { path, sideEffects: false };
    });
  },
};

interface Measured {
  /** Minified bytes. */
  readonly min: number;
  /** Gzipped (level 9) bytes. */
  readonly gz: number;
  /** Minified bytes that came from zod. */
  readonly zodMin: number;
  /** Minified bytes per package (`ours` for this repository). */
  readonly byPackage: ReadonlyMap<string, number>;
}

function packageOf(input: string): string {
  const m = /node_modules\/(?:\.deno\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(input);
  return m ? m[1] : "ours";
}

/** Bundle `source` (an ES module, resolved from the repository root) and measure it. */
async function measure(source: string): Promise<Measured> {
  const result = await esbuild.build({
    stdin: { contents: source, resolveDir: ROOT, loader: "ts", sourcefile: "client.ts" },
    bundle: true,
    minify: true,
    treeShaking: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    metafile: true,
    logLevel: "silent",
    plugins: [ownModulesSideEffectFree],
  });
  const code = result.outputFiles[0].contents;
  const byPackage = new Map<string, number>();
  const out = Object.values(result.metafile.outputs)[0];
  for (const [input, { bytesInOutput }] of Object.entries(out.inputs)) {
    const pkg = packageOf(input);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + bytesInOutput);
  }
  return {
    min: code.length,
    gz: gzipSync(code, { level: 9 }).length,
    zodMin: byPackage.get("zod") ?? 0,
    byPackage,
  };
}

const kb = (bytes: number) => (bytes / KB).toFixed(1).padStart(6);

function row(label: string, m: Measured, extra = ""): void {
  const top = [...m.byPackage].sort((a, b) => b[1] - a[1]).slice(0, 3)
    .map(([p, b]) => `${p} ${Math.round((100 * b) / m.min)}%`).join(", ");
  console.log(
    `${label.padEnd(42)} ${kb(m.gz)} KB gz  ${kb(m.min)} KB min  (${top})${extra}`,
  );
}

const goals = new Goals();
const fileOf = (key: string) => join(ROOT, (denoJson.exports as Record<string, string>)[key]);

console.log("entry points (all names kept), esbuild minified + gzip -9, KB = 1,000 bytes\n");
const sizes = new Map<string, Measured>();
for (const [key] of ENTRIES) {
  const spec = key === "." ? "@papercusp/chat-protocol" : `@papercusp/chat-protocol${key.slice(1)}`;
  const m = await measure(`export * from ${JSON.stringify(fileOf(key))};`);
  sizes.set(key, m);
  row(spec, m);
}

console.log('\nscenario: a browser client that parses, folds and decodes SSE ("v1 client")\n');
const ours = await measure(
  `export { ChatStateFolder, parseChatEnvelopeJson } from ${JSON.stringify(fileOf("."))};
   export { SseDecoderStream } from ${JSON.stringify(fileOf("./sse"))};`,
);
const aiSdk = await measure(
  `export { parseJsonEventStream, readUIMessageStream, uiMessageChunkSchema } from "ai";`,
);
const agUi = await measure(
  `export { HttpAgent } from "@ag-ui/client";
   export { EventSchemas } from "@ag-ui/core";`,
);
row("ours: parseChatEnvelopeJson + ChatStateFolder + SseDecoderStream", ours);
row(
  "AI SDK: parseJsonEventStream + readUIMessageStream + uiMessageChunkSchema",
  aiSdk,
  `  ratio ${(aiSdk.gz / ours.gz).toFixed(1)}× ours`,
);
row(
  "AG-UI: HttpAgent + EventSchemas",
  agUi,
  `  ratio ${(agUi.gz / ours.gz).toFixed(1)}× ours`,
);
console.log("\nsingle-function imports (what a caller of one function ships)\n");
// `goal`: the import must ship no zod. cardResponseJsonSchema still renders its JSON Schema with
// z.toJSONSchema (printed, no goal yet).
const SINGLE: readonly [name: string, entry: string, goal: boolean][] = [
  ["capDeliveryStatus", "./message", true],
  ["toHitlAnswer", "./message", true],
  ["toUIMessage", "./message", true],
  ["cardResponseJsonSchema", "./cards", false],
];
const singles = new Map<string, Measured>();
for (const [name, entry, goal] of SINGLE) {
  const m = await measure(`export { ${name} } from ${JSON.stringify(fileOf(entry))};`);
  if (goal) singles.set(name, m);
  row(`${name} (${entry})`, m, `  zod ${(m.zodMin / KB).toFixed(1)} KB min`);
}
await esbuild.stop();

console.log("");
goals.check(
  `v1 client scenario ≤ ${SCENARIO_GOAL_KB} KB gzipped`,
  ours.gz <= SCENARIO_GOAL_KB * KB,
  `${(ours.gz / KB).toFixed(1)} KB (zod ${(ours.zodMin / KB).toFixed(1)} KB of ${
    (ours.min / KB).toFixed(1)
  } KB minified)`,
);
goals.check("v1 client scenario has no zod", ours.zodMin === 0, `${ours.zodMin} bytes of zod`);
const root = sizes.get(".")!;
goals.check("root entry point (.) has no zod", root.zodMin === 0, `${root.zodMin} bytes of zod`);
for (const [name, m] of singles) {
  goals.check(`${name} alone has no zod`, m.zodMin === 0, `${m.zodMin} bytes of zod`);
}
goals.finish();
