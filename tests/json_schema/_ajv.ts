/**
 * The checked-in JSON Schemas (`schema/`) loaded into ajv 8's draft 2020-12
 * validator, in strict mode: validators by file name.
 */
import { Ajv2020 } from "ajv/dist/2020";
import { DOCUMENTS, SCHEMA_ID_BASE } from "../../scripts/json_schema.ts";

/** A compiled validator: the verdict on one JSON document. */
export type Verdict = (doc: unknown) => boolean;

const SCHEMA_DIR = new URL("../../schema/", import.meta.url);

/**
 * Load every checked-in schema file (each document and the bundle) and
 * compile one validator per file, plus one per document root inside the
 * bundle (keyed `bundle#<Name>`). `strictRequired` is off (it flags
 * `required` of keys declared in another branch, which the retry and
 * tool-state rules do on purpose); `format` is an annotation (the patterns
 * carry the rules).
 */
export function loadValidators(): Map<string, Verdict> {
  const ajv = new Ajv2020({
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    validateFormats: false,
  });
  const files = [...DOCUMENTS.map((d) => d.file), "bundle.schema.json"];
  for (const f of files) ajv.addSchema(JSON.parse(Deno.readTextFileSync(new URL(f, SCHEMA_DIR))));
  const out = new Map<string, Verdict>();
  for (const f of files) {
    const v = ajv.getSchema(SCHEMA_ID_BASE + f);
    if (v === undefined) throw new Error(`schema ${f} did not compile`);
    out.set(f, (doc) => v(doc) as boolean);
  }
  for (const d of DOCUMENTS) {
    const v = ajv.getSchema(`${SCHEMA_ID_BASE}bundle.schema.json#/$defs/${d.root}`);
    if (v === undefined) throw new Error(`bundle definition ${d.root} did not compile`);
    out.set(`bundle#${d.root}`, (doc) => v(doc) as boolean);
  }
  return out;
}
