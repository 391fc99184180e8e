/**
 * A browser client that parses and folds v1 envelopes and decodes SSE must
 * not ship zod (issue 10, "Bundle size is part of the surface"): bundle the
 * concept files it imports with esbuild (minified, browser platform) and
 * check the module graph. The size goal itself (≤ 10 KB gzipped) is measured
 * by the bundle benchmark; this test guards the graph.
 */
import assert from "node:assert/strict";
import * as esbuild from "esbuild";

const root = new URL("../../", import.meta.url).pathname;

async function graph(contents: string): Promise<string[]> {
  try {
    const r = await esbuild.build({
      stdin: { contents, resolveDir: root, loader: "ts" },
      bundle: true,
      minify: true,
      format: "esm",
      platform: "browser",
      write: false,
      metafile: true,
      nodePaths: [`${root}node_modules`],
    });
    return Object.keys(Object.values(r.metafile!.outputs)[0].inputs).filter((k) => k !== "<stdin>");
  } finally {
    await esbuild.stop();
  }
}

Deno.test("the browser client graph (parse, fold, lifecycle, capabilities, version, SSE decoder) has no zod and no npm module", async () => {
  const inputs = await graph(`
export { parseChatEnvelope, parseChatEnvelopeJson } from "./src/v1/parse.ts";
export { ChatStateFolder, foldChatState, foldChatStateStrict } from "./src/v1/fold.ts";
export { canTransition, nextTurnStatus, TURN_TRANSITIONS } from "./src/v1/lifecycle.ts";
export { NO_CAPABILITIES, requireChatCapabilities } from "./src/v1/capabilities.ts";
export { negotiateChatVersion, negotiateChatVersions } from "./src/v1/version.ts";
export { SseDecoderStream } from "./src/sse/decoder_stream.ts";
export { SseParser } from "./src/sse/parser.ts";
`);
  assert.deepEqual(inputs.filter((k) => k.includes("node_modules") || k.includes("zod")), []);
  // only the v1 and SSE concept files and the shared internals, never the zod schemas
  for (const k of inputs) {
    assert.match(k, /^src\/(v1|sse|_internal)\/[a-z_]+\.ts$|^src\/result\.ts$/, k);
    assert.doesNotMatch(k, /schemas\.ts$/, k);
  }
});
