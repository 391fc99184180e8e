import assert from "node:assert/strict";

Deno.test("examples/recovery_example.ts runs and shows one email, one charge, a reconciliation and a cancel", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "examples/recovery_example.ts"],
    env: { NO_COLOR: "1", RUST_BACKTRACE: "0" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  assert.match(text, /abort hook: turn is 'cancelled' when aborting/);
  assert.match(text, /6\. reconciled: completed, turn running/);
  assert.match(text, /8\. final: cancelled/);
  assert.match(text, /emails sent: 1, charges attempted: 1/);
});
