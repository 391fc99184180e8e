/**
 * Bundles the page script `web/app.ts` (and the library modules it imports:
 * the v1 parser and fold, the blocks scanner, the SSE parser) into one
 * browser ES module with esbuild, for the host to serve as `/app.js`.
 *
 * @module
 */
import * as esbuild from "esbuild";

/** The page script bundled by {@link bundleApp}. */
export const APP_ENTRY: string = new URL("./web/app.ts", import.meta.url).pathname;

/**
 * Bundles {@link APP_ENTRY} (ES2022, browser platform, minified, inline
 * source map off) and returns the JavaScript text. esbuild's service is
 * stopped afterwards, so a server or a test holds no child process. Rejects
 * with esbuild's build error when the page does not compile.
 */
export async function bundleApp(): Promise<string> {
  try {
    const result = await esbuild.build({
      entryPoints: [APP_ENTRY],
      bundle: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      minify: true,
      write: false,
      logLevel: "silent",
    });
    return result.outputFiles[0].text;
  } finally {
    await esbuild.stop();
  }
}
