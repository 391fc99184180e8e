/**
 * The Python client agrees with the TypeScript library beyond the corpus: on
 * thousands of generated inputs of every case kind (valid, re-sent,
 * reordered, foreign and broken frames; SSE bytes split anywhere, with stray
 * and truncated UTF-8; tagged text; card answers; legacy frames; replay
 * windows; documents for every JSON Schema), the Python testee's outcome
 * equals the library's. Seeded, so a failure reproduces.
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import { type CaseKind, type JsonObject, runCase } from "../../conformance/ts/kinds.ts";
import { type ConformanceCase, runTestee, sameJson } from "../../conformance/runner.ts";
import * as gen from "./_generators.ts";

const SEED = 20261201;
const PLAN: [CaseKind, fc.Arbitrary<JsonObject>, number][] = [
  ["fold", gen.foldInput, 2500],
  ["sse", gen.sseInput, 2500],
  ["blocks", gen.blocksInput, 1500],
  ["card-answer", gen.cardAnswerInput, 1500],
  ["legacy", gen.legacyInput, 800],
  ["replay", gen.replayInput, 800],
  ["capabilities", gen.capabilitiesInput, 400],
  ["version", gen.versionInput, 300],
  ["schema", gen.schemaInput, 3000],
];

Deno.test("the Python client's outcomes equal the library's on generated inputs of every kind", async () => {
  const cases: ConformanceCase[] = [];
  for (const [kind, arb, n] of PLAN) {
    fc.sample(arb, { numRuns: n, seed: SEED }).forEach((input, i) => {
      cases.push({
        id: `${kind}.${i}`,
        kind,
        description: "generated",
        kill: "-",
        input,
        expect: null,
      });
    });
  }
  const expected = new Map<string, unknown>();
  for (const c of cases) expected.set(c.id, await runCase(c.kind as CaseKind, c.input));
  const python = await runTestee({
    name: "python",
    command: ["python3", "conformance/python/testee.py"],
  }, cases);
  const mismatches: string[] = [];
  const perKind = new Map<string, number>();
  for (const c of cases) {
    perKind.set(c.kind, (perKind.get(c.kind) ?? 0) + 1);
    const got = python.get(c.id);
    if (!sameJson(got, expected.get(c.id))) {
      mismatches.push(
        `${c.id}: input ${JSON.stringify(c.input).slice(0, 600)}\n  library ${
          JSON.stringify(expected.get(c.id)).slice(0, 600)
        }\n  python  ${JSON.stringify(got).slice(0, 600)}`,
      );
    }
  }
  console.log(
    `differential: ${cases.length} generated cases (${
      [...perKind].map(([k, n]) => `${k} ${n}`).join(", ")
    }), ${mismatches.length} mismatches`,
  );
  assert.deepEqual(mismatches.slice(0, 5), [], `${mismatches.length} mismatches`);
});
