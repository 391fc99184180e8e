// The conformance kit under node:test, as a Node host would run it. Every
// library source under src/ is transpiled to plain ESM in a temp dir (Node
// loads only what the kit imports), so this does not depend on a fresh
// `deno task build:npm`; the npm build itself is smoke-tested by that task.
import assert from "node:assert/strict";
import ts from "typescript";
import { memoryConformanceHost, recoveryConformanceCases } from "../../src/recovery/testing.ts";

const ROOT = new URL("../../", import.meta.url);

async function transpileRecovery(dir: string): Promise<void> {
  const files: string[] = [];
  const walk = async (area: string): Promise<void> => {
    await Deno.mkdir(`${dir}/${area}`, { recursive: true });
    for await (const e of Deno.readDir(new URL(area, ROOT))) {
      if (e.isDirectory) await walk(`${area}${e.name}/`);
      else if (e.isFile && e.name.endsWith(".ts")) files.push(`${area}${e.name}`);
    }
  };
  await walk("src/");
  for (const f of files) {
    const source = await Deno.readTextFile(new URL(f, ROOT));
    const out = ts.transpileModule(source, {
      fileName: f,
      compilerOptions: {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        verbatimModuleSyntax: true,
        rewriteRelativeImportExtensions: true,
      },
    });
    await Deno.writeTextFile(`${dir}/${f.replace(/\.ts$/, ".js")}`, out.outputText);
  }
  await Deno.writeTextFile(`${dir}/package.json`, JSON.stringify({ type: "module" }));
}

const NODE_TEST = `
import { test } from "node:test";
import { memoryConformanceHost, recoveryConformanceCases } from "./src/recovery/testing.js";
import { MemoryRecoveryStore } from "./src/recovery/memory_store.js";

// The reference host, exactly as the kit's module docs show for node:test.
const tick = () => Promise.resolve();
for (const c of recoveryConformanceCases(() => memoryConformanceHost({ pause: tick }), { holdMs: 25 })) {
  test(c.name, { skip: c.skip }, () => c.run());
}

// A store whose fence skips the authority recheck must fail under node:test too.
class NoRecheck extends MemoryRecoveryStore {
  fenceAuthorized() { return true; }
}
const broken = recoveryConformanceCases(
  () => memoryConformanceHost({ makeStore: (o) => new NoRecheck(o) }),
  { prefix: "BROKEN " },
).filter((c) => c.name.includes("rechecks the user's grant inside the fence"));
for (const c of broken) test(c.name, { skip: c.skip }, () => c.run());
`;

Deno.test("conformance kit runs under node:test (reference passes, a broken store fails)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "recovery-node-kit-" });
  try {
    await transpileRecovery(dir);
    await Deno.writeTextFile(`${dir}/kit.test.mjs`, NODE_TEST);
    const out = await new Deno.Command("node", {
      args: ["--test", "--test-reporter=tap", "kit.test.mjs"],
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const tap = new TextDecoder().decode(out.stdout);
    const total = recoveryConformanceCases(() => memoryConformanceHost()).length;
    const count = (k: string) => Number(tap.match(new RegExp(`^# ${k} (\\d+)$`, "m"))?.[1]);
    assert.equal(count("pass"), total, tap);
    assert.equal(count("skipped"), 0, tap);
    assert.equal(count("fail"), 1, tap); // exactly the broken store's authority case
    assert.match(
      tap,
      /^not ok \d+ - BROKEN admission: rechecks the user's grant inside the fence/m,
    );
    assert.match(tap, /admission after revocation must refuse unauthorized/);
    assert.equal(out.code, 1); // node:test exits non-zero because of the broken store
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
