/**
 * The checked-in JSON Schema files (`schema/`) are exactly what
 * `deno task schema:gen` generates from the zod schemas: a changed zod
 * schema without regenerated files fails here.
 */
import assert from "node:assert/strict";
import { generateJsonSchemas, portablePattern } from "../../scripts/json_schema.ts";

const SCHEMA_DIR = new URL("../../schema/", import.meta.url);

Deno.test("schema/ matches generation from the zod schemas (run `deno task schema:gen`)", () => {
  const files = generateJsonSchemas();
  const drifted: string[] = [];
  for (const [path, text] of files) {
    let old = "";
    try {
      old = Deno.readTextFileSync(new URL(path, SCHEMA_DIR));
    } catch {
      drifted.push(`${path} (missing)`);
      continue;
    }
    if (old !== text) drifted.push(path);
  }
  const onDisk: string[] = [];
  const walk = (dir: URL, prefix: string) => {
    for (const e of Deno.readDirSync(dir)) {
      if (e.isDirectory) walk(new URL(`${e.name}/`, dir), `${prefix}${e.name}/`);
      else onDisk.push(prefix + e.name);
    }
  };
  walk(SCHEMA_DIR, "");
  for (const f of onDisk) if (!files.has(f)) drifted.push(`${f} (not generated: remove it)`);
  assert.deepEqual(drifted, [], `schema files drifted from the zod schemas: ${drifted.join(", ")}`);
  assert.equal(files.size, 15);
});

Deno.test("portablePattern: the ECMAScript and Python regex dialects read the result the same way", () => {
  assert.equal(portablePattern("^[a-f0-9]{64}$"), "^[a-f0-9]{64}(?![\\s\\S])");
  assert.equal(portablePattern("^\\d{4}$"), "^[0-9]{4}(?![\\s\\S])");
  assert.equal(portablePattern("^a\\$"), "^a\\$");
  assert.throws(() => portablePattern("^\\w+$"), /differs between/);
  assert.throws(() => portablePattern("^a$|^b$"), /not at its end/);
});
