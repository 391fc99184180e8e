/**
 * A claim token is an owner's proof of ownership: no answer, refusal or
 * snapshot shows another owner's token in any text (`inspect()` redacts it to
 * `REDACTED_CLAIM_TOKEN`). Before, `runEffect`'s `owner-lost` detail printed
 * it in full: "admitted by w1#…, whose lease ended".
 */
import assert from "node:assert/strict";
import { DEFAULT_LEASE_MS, TurnRecovery } from "../../recovery.ts";
import { code, deferred, runAsAlice, setup, testClock, value } from "./_helpers.ts";

Deno.test("redaction: an owner-lost answer names no claim token (nor does anything else the taker sees)", async () => {
  const clock = testClock();
  const { host, worker } = await setup({}, ["e1"], { now: clock.now, renewEveryMs: 0 });
  const started = deferred<void>();
  const work = deferred<string>();
  const running = runAsAlice(worker, () => {
    started.resolve();
    return work.promise;
  });
  await started.promise;
  const token = host.store.peekEffect("t1", "e1")?.claimToken;
  assert.ok(typeof token === "string" && token.length > 0, "the owner holds a token");
  clock.advance(DEFAULT_LEASE_MS); // the owner stalls past its lease
  const other = new TurnRecovery({ ...host.seams(), now: clock.now, workerId: "w2" });
  const lost = value(await runAsAlice(other, () => 0));
  assert.ok(
    lost.status === "needs-reconciliation" && lost.action === "reconcile" &&
      lost.reason === "owner-lost",
  );
  assert.ok(lost.detail !== undefined && lost.detail.length > 0, "the detail still explains");
  const seen: unknown[] = [lost, await other.inspect("t1")];
  const rec = await other.reconcile({
    turnId: "t1",
    effectId: "e1",
    principal: "alice",
    outcome: { ok: true, value: "guess" },
  });
  seen.push(rec, await runAsAlice(other, () => 0));
  work.resolve("real");
  const late = await running;
  assert.equal(code(late), "checkpoint-write-failed");
  for (const [i, answer] of seen.entries()) {
    const text = JSON.stringify(answer);
    assert.ok(!text.includes(token), `answer ${i} shows the owner's token: ${text}`);
  }
});
