/**
 * Edge check: bundles `tests/edge/worker.ts` (which imports every entry point
 * deno.json `exports` names; checked here first) for the browser platform and runs it inside `workerd`, Cloudflare's
 * real runtime, with `workerd test`. workerd has no `Deno` global and rejects
 * `node:` builtins, so a pass proves the library is edge-safe.
 *
 * Usage: `deno task edge` (needs npm registry access the first time:
 * `npx --yes workerd@1.20261117.1`).
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const worker = join(root, "tests/edge/worker.ts");

// The worker must import every entry point, so none escapes the check.
const denoJson = JSON.parse(await Deno.readTextFile(join(root, "deno.json")));
const workerText = await Deno.readTextFile(worker);
const missing = Object.entries(denoJson.exports as Record<string, string>)
  .filter(([, file]) => !workerText.includes(`from "../../${file.replace(/^\.\//, "")}"`))
  .map(([key]) => key);
if (missing.length > 0) {
  throw new Error(`tests/edge/worker.ts does not import entry point(s) ${missing.join(", ")}`);
}
const dir = await Deno.makeTempDir({ prefix: "edge_check_" });
const bundle = join(dir, "worker.js");

async function run(cmd: string, args: string[]): Promise<void> {
  console.log(`[edge] $ ${cmd} ${args.join(" ")}`);
  const { code } = await new Deno.Command(cmd, {
    args,
    cwd: dir,
    stdout: "inherit",
    stderr: "inherit",
  })
    .output();
  if (code !== 0) throw new Error(`${cmd} exited with ${code}`);
}

await run(Deno.execPath(), [
  "bundle",
  "--quiet",
  "--platform",
  "browser",
  "--format",
  "esm",
  "--config",
  join(root, "deno.json"),
  "-o",
  bundle,
  worker,
]);
const text = await Deno.readTextFile(bundle);
if (/\bDeno\./.test(text)) throw new Error("bundle references the Deno global");
if (/from\s*["']node:/.test(text)) throw new Error("bundle imports a node: builtin");
await Deno.writeTextFile(
  join(dir, "config.capnp"),
  `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker", esModule = embed "worker.js") ],
  compatibilityDate = "2026-11-01",
);
`,
);
await run("npx", ["--yes", "workerd@1.20261117.1", "test", "config.capnp"]);
await Deno.remove(dir, { recursive: true });
console.log(
  `[edge] workerd test passed: ${
    Object.keys(denoJson.exports).length
  } entry points (bundle ${text.length} bytes)`,
);
