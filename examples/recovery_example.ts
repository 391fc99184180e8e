/**
 * A turn with two tool effects, a lost acknowledgement, a reconciliation and
 * a server-side cancel after the user's authority was revoked, over the
 * in-memory reference host.
 *
 *   deno run examples/recovery_example.ts
 *
 * Swap MemoryRecoveryHost for your own seams (store with admitDispatch,
 * authority, abort hook) to run the same flow against your database.
 */
import { MemoryRecoveryHost, type StoreOp, TurnRecovery } from "../recovery.ts";

// Fault injection: the next call of an operation commits, then its ack is lost.
const loseNext = new Set<StoreOp>();
const host = new MemoryRecoveryHost({
  store: { fault: (op) => (loseNext.delete(op) ? "ack-lost" : "none") },
  onAbort: (turnId, reason) =>
    console.log(
      `  abort hook: turn is '${host.store.peekTurn(turnId)?.status}' when aborting (${reason})`,
    ),
});
await host.grant("alice", "turn-1");
// The host's own service identity: it may cancel and expire turns (never run effects).
await host.grant("reaper", "*", "system");

const worker = new TurnRecovery({ ...host.seams(), workerId: "worker-a" });
const begun = await worker.beginTurn({
  conversationId: "conv-1",
  turnId: "turn-1",
  principal: "alice",
  // Host-allocated effect ids: a model-supplied id is refused (unknown-effect).
  effectIds: ["send-email", "charge-card"],
});
console.log("1. turn begun:", begun.ok ? begun.value.status : begun.error.code);

// Effect 1: the email is sent, but the ack of the completion write is lost.
let emailsSent = 0;
const sendEmail = () => {
  emailsSent++;
  loseNext.add("casEffect"); // the next effect write is this completion
  return Promise.resolve({ messageId: "m-42" });
};
const r1 = await worker.runEffect({
  turnId: "turn-1",
  effectId: "send-email",
  principal: "alice",
  dispatch: sendEmail,
});
console.log("2. send-email with a lost completion ack:", r1.ok ? r1.value : r1.error);

// A fresh worker (another process) retries the same effect: reused, not resent.
const workerB = new TurnRecovery({ ...host.seams(), workerId: "worker-b" });
const r1b = await workerB.runEffect({
  turnId: "turn-1",
  effectId: "send-email",
  principal: "alice",
  dispatch: sendEmail,
});
console.log(
  "3. retry from worker-b:",
  r1b.ok ? r1b.value : r1b.error,
  `(emails sent: ${emailsSent})`,
);

// Effect 2: the payment gateway times out; the outcome is unknown.
let charges = 0;
const charge = () => {
  charges++;
  return Promise.reject(new Error("gateway timeout"));
};
const r2 = await worker.runEffect({
  turnId: "turn-1",
  effectId: "charge-card",
  principal: "alice",
  dispatch: charge,
});
console.log(
  "4. charge-card:",
  r2.ok ? r2.value : r2.error,
  `| turn: ${host.store.peekTurn("turn-1")?.status}`,
);

// The answer says what to do: `action: "reconcile"` (verify now) or `"wait"` (until `retryAt`).
// The model retries: refused without a redispatch.
const r2b = await workerB.runEffect({
  turnId: "turn-1",
  effectId: "charge-card",
  principal: "alice",
  dispatch: charge,
});
console.log("5. model retry:", r2b.ok ? r2b.value : r2b.error, `(charges attempted: ${charges})`);

// The host looks the charge up in its payment provider's idempotency log and reconciles.
const rec = await worker.reconcile({
  turnId: "turn-1",
  effectId: "charge-card",
  principal: "alice",
  outcome: { ok: true, value: { chargeId: "ch_9", amountCents: 1200 } },
});
console.log(
  "6. reconciled:",
  rec.ok ? `${rec.value.record.state}, turn ${rec.value.turnStatus}` : rec.error.code,
);

// The user's account is closed: their authority is revoked, so they can no longer cancel…
await host.revoke("alice", "turn-1");
const denied = await workerB.cancel({ turnId: "turn-1", principal: "alice" });
console.log("7. user cancel after revocation:", denied.ok ? "ok" : denied.error.code);
// …but the host cancels with its own system authority: the cancel commits, then the abort hook runs.
const c = await workerB.cancel({
  turnId: "turn-1",
  principal: "reaper",
  actor: "system",
  reason: "account closed",
});
console.log(
  "8. system cancel:",
  c.ok ? `turn ${c.value.turn.status}, in flight: [${c.value.inFlight}]` : c.error.code,
);
console.log(`   execution signal aborted: ${host.executions.signalFor("turn-1").aborted}`);

const snap = await worker.inspect("turn-1");
if (snap.ok) {
  console.log("9. final:", snap.value.turn.status);
  for (const e of snap.value.effects) {
    console.log(
      `   ${e?.effectId}: ${e?.state}${e?.reconciled ? " (reconciled)" : ""} ${
        JSON.stringify(e?.outcome)
      }`,
    );
  }
}
console.log(`   emails sent: ${emailsSent}, charges attempted: ${charges}`);
