/**
 * Writes the JSON Schema files under `schema/` from the zod schemas
 * (`deno task schema:gen`); with `--check`, writes nothing and exits 1 when a
 * checked-in file differs from generation (the drift test does the same).
 *
 * @module
 */
import { generateJsonSchemas } from "./json_schema.ts";

const root = new URL("../schema/", import.meta.url);
const check = Deno.args.includes("--check");
const files = generateJsonSchemas();
let drift = 0;
for (const [path, text] of files) {
  const url = new URL(path, root);
  let old: string | null = null;
  try {
    old = await Deno.readTextFile(url);
  } catch {
    old = null;
  }
  if (old === text) continue;
  drift++;
  if (check) console.error(`schema/${path} differs from generation`);
  else {
    await Deno.mkdir(new URL(".", url), { recursive: true });
    await Deno.writeTextFile(url, text);
    console.log(`wrote schema/${path}`);
  }
}
if (check && drift > 0) {
  console.error(`${drift} schema file(s) drifted: run \`deno task schema:gen\``);
  Deno.exit(1);
}
console.log(`${files.size} schema files, ${drift} ${check ? "drifted" : "written"}`);
