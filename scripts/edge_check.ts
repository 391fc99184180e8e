/**
 * Edge check: bundles `tests/edge/worker.ts` (which imports all four entry
 * points) for the browser platform and runs it inside `workerd`, Cloudflare's
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
  join(root, "tests/edge/worker.ts"),
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
console.log(`[edge] workerd test passed (bundle ${text.length} bytes)`);
