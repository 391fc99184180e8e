// scripts/ci.ts reads the test counts from deno test's closing summary.
import assert from "node:assert/strict";
import { testCounts } from "../../scripts/ci.ts";

Deno.test("ci: the test counts come from deno test's last summary line, coloured or not", () => {
  assert.deepEqual(
    testCounts("running 3 tests\nok | 3 passed | 0 failed (1s)\n"),
    { passed: 3, failed: 0 },
  );
  assert.deepEqual(
    testCounts(
      "ok | 1 passed | 0 failed (1s)\n\x1b[31mFAILED\x1b[0m | 1212 passed | 2 failed | 4 ignored (44m)\n",
    ),
    { passed: 1212, failed: 2 },
  );
  assert.equal(testCounts("error: Module not found\n"), null);
});
