import assert from "node:assert/strict";

Deno.test("examples/recovery_example.ts runs and shows one email, one charge, a reconciliation and a system cancel", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "examples/recovery_example.ts"],
    env: { NO_COLOR: "1", RUST_BACKTRACE: "0" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  assert.match(text, /1\. turn begun: running/);
  // The lost completion ack is read back (not an error), and worker-b reuses the result.
  assert.match(
    text,
    /2\. send-email with a lost completion ack: \{\s*status: "completed",[^}]*m-42[\s\S]*?reused: false/,
  );
  assert.match(text, /3\. retry from worker-b: \{[\s\S]*?reused: true\s*\} \(emails sent: 1\)/);
  assert.match(
    text,
    /4\. charge-card: \{[\s\S]*?reason: "dispatch-error"[\s\S]*?\| turn: needs-reconciliation/,
  );
  assert.match(
    text,
    /5\. model retry: \{[\s\S]*?action: "reconcile"[\s\S]*?reason: "outcome-unknown"[\s\S]*?\(charges attempted: 1\)/,
  );
  assert.match(text, /abort hook: turn is 'cancelled' when aborting/);
  assert.match(text, /7\. user cancel after revocation: unauthorized/);
  assert.match(text, /8\. system cancel: turn cancelled/);
  assert.match(text, /execution signal aborted: true/);
  assert.match(text, /charge-card: completed \(reconciled\)/);
  assert.match(text, /6\. reconciled: completed, turn running/);
  assert.match(text, /9\. final: cancelled/);
  assert.match(text, /emails sent: 1, charges attempted: 1/);
});
