/**
 * The conformance corpus gate: the checked-in corpus is what its definitions
 * generate, it is well formed, both testees (the TypeScript library and the
 * Python client) pass every case through the runner's protocol, every kill
 * case goes red under its rule's mutant, and every rule's README anchor
 * exists.
 */
import assert from "node:assert/strict";
import { generateCorpus, OUT } from "../../scripts/conformance_gen.ts";
import {
  checkCorpus,
  defaultTestees,
  judge,
  loadCases,
  loadRules,
  mutationCheck,
  perRule,
  runTestee,
  type Testee,
} from "../../conformance/runner.ts";

Deno.test("conformance/ is what scripts/conformance generate (run `deno task conformance:gen`)", async () => {
  const { files, problems } = await generateCorpus();
  assert.deepEqual(problems, []);
  const onDisk: string[] = [];
  const walk = (dir: URL, prefix: string) => {
    for (const e of Deno.readDirSync(dir)) {
      if (e.isDirectory) walk(new URL(`${e.name}/`, dir), `${prefix}${e.name}/`);
      else onDisk.push(prefix + e.name);
    }
  };
  walk(new URL("cases/", OUT), "cases/");
  onDisk.push("rules.json", "README.md");
  assert.deepEqual(onDisk.sort(), [...files.keys()].sort(), "case files added or removed");
  for (const [file, text] of files) {
    assert.equal(Deno.readTextFileSync(new URL(file, OUT)), text, `${file} drifted`);
  }
});

Deno.test("the corpus is well formed: ids, kinds, rules, a kill case per rule", () => {
  const cases = loadCases();
  const rules = loadRules();
  assert.deepEqual(checkCorpus(cases, rules), []);
  assert.ok(cases.length >= 600, `${cases.length} cases`);
  assert.ok(rules.length >= 150, `${rules.length} rules`);
});

for (const testee of defaultTestees()) {
  Deno.test(`the ${testee.name} testee passes every case`, async () => {
    const cases = loadCases();
    const results = judge(cases, await runTestee(testee, cases));
    const failed = results.filter((r) => !r.pass);
    const rules = perRule(results);
    console.log(
      `${testee.name}: ${
        results.length - failed.length
      } of ${results.length} cases pass, ${rules.size} rules covered`,
    );
    assert.deepEqual(
      failed.slice(0, 3).map((r) => ({ id: r.case.id, expect: r.case.expect, got: r.got })),
      [],
      `${failed.length} failing cases`,
    );
  });
}

Deno.test("mutation check: each rule switched off turns every one of its kill cases red", async () => {
  const ts: Testee = {
    name: "typescript --mutation",
    command: [
      Deno.execPath(),
      "run",
      "--quiet",
      "--allow-read",
      "conformance/ts/testee.ts",
      "--mutation",
    ],
  };
  const cases = loadCases();
  const { survivors, killed } = await mutationCheck(ts, cases);
  console.log(
    `mutation check: ${killed} of ${cases.length} kill cases red, ${survivors.size} rules with survivors`,
  );
  assert.deepEqual([...survivors], []);
  assert.equal(killed, cases.length);
});

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s-]/gu, "").replace(/\s/g, "-");
}

Deno.test("every rule's anchor is a heading of the page it names", () => {
  const anchors = new Map<string, Set<string>>();
  for (const file of new Set(loadRules().map((r) => r.anchor.split("#")[0]))) {
    const text = Deno.readTextFileSync(new URL(`../../${file}`, import.meta.url));
    const set = new Set<string>();
    for (const line of text.split("\n")) {
      const m = /^#{1,6}\s+(.*)$/.exec(line);
      if (m) set.add(slug(m[1]));
    }
    anchors.set(file, set);
  }
  const missing = loadRules().filter((r) => {
    const [file, anchor] = r.anchor.split("#");
    return !anchors.get(file)?.has(anchor);
  }).map((r) => `${r.id}: ${r.anchor}`);
  assert.deepEqual(missing, []);
  assert.equal(
    slug("## Turn recovery (`@papercusp/chat-protocol/recovery`)".slice(3)),
    "turn-recovery-papercuspchat-protocolrecovery",
  );
});
