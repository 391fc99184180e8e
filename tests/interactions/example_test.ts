import assert from "node:assert/strict";

Deno.test("examples/interactions_example.ts runs: one winner, one typed duplicate", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      new URL("../../examples/interactions_example.ts", import.meta.url).pathname,
    ],
    env: { RUST_BACKTRACE: "0", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  assert.match(stdout, /worker A: won, stored \{"optionId":"approve"\}/);
  assert.match(
    stdout,
    /worker B: refused "duplicate"; the stored answer is \{"optionId":"approve"\}/,
  );
  assert.match(stdout, /winners: 1, transitions stored: 1/);
  assert.match(stdout, /after revocation, alice's answer: unauthorized/);
  assert.match(stdout, /host expired it: status expired, transition expired/);
});
