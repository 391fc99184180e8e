import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import { assertGolden, readFixture } from "../_helpers/golden.ts";
import {
  type ChatEventV1,
  ChatStateFolder,
  type ChatStateV1,
  createChatState,
  foldChatState,
  foldChatStateStrict,
  resumeChatState,
} from "../../mod.ts";
import { nearEnvelope, tricky, validEvent } from "./_arbitraries.ts";

const C = "c1", T = "t1";
let n = 0;
function env(
  seq: number,
  event: ChatEventV1 | Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  return {
    schemaVersion: 1,
    conversationId: C,
    turnId: T,
    eventId: `e${seq}-${n++}`,
    seq,
    event,
    ...extra,
  };
}
function code(r: { ok: boolean; error?: { code: string } }) {
  return r.ok ? "ok" : r.error!.code;
}
function ndjson(text: string): unknown[] {
  return text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
}

Deno.test("createChatState: the empty turn", () => {
  assert.deepEqual(createChatState("c", "t"), {
    schemaVersion: 1,
    conversationId: "c",
    turnId: "t",
    status: "running",
    lastSeq: 0,
    lastEventId: null,
    text: "",
    reasoning: "",
    tools: [],
    openCards: [],
    closedCards: [],
  });
  assert.deepEqual(new ChatStateFolder("c", "t").state(), createChatState("c", "t"));
});

Deno.test("ordering: gap (incl. first seq ≠ 1), duplicate, reordered", () => {
  const f = new ChatStateFolder(C, T);
  const first = f.push(env(2, { type: "delta", text: "x" }));
  assert.equal(code(first), "gap");
  assert.equal(!first.ok && first.error.expectedSeq, 1);
  const e1 = env(1, { type: "delta", text: "a" });
  assert.equal(code(f.push(e1)), "ok");
  assert.equal(code(f.push(e1)), "duplicate");
  assert.equal(code(f.push({ ...e1, seq: 0 })), "invalid-envelope");
  const e2 = env(2, { type: "delta", text: "b" });
  assert.equal(code(f.push(e2)), "ok");
  assert.equal(code(f.push(env(1, { type: "delta", text: "late" }))), "reordered");
  assert.equal(code(f.push(env(2, { type: "delta", text: "late" }))), "reordered");
  const g = f.push(env(5, { type: "delta", text: "c" }));
  assert.equal(code(g), "gap");
  assert.deepEqual(!g.ok && [g.error.seq, g.error.expectedSeq, g.error.eventType], [5, 3, "delta"]);
  assert.match(!g.ok ? g.error.message : "", /seq 3–4/);
  assert.equal(f.state().text, "ab");
  assert.equal(f.lastSeq, 2);
  // resync knowingly skips the gap
  assert.equal(code(f.resync(env(5, { type: "delta", text: "c" }))), "ok");
  assert.equal(f.state().text, "abc");
  assert.equal(f.state().lastSeq, 5);
});

Deno.test("identity: foreign conversation / turn; invalid envelopes", () => {
  const f = new ChatStateFolder(C, T);
  const fc1 = f.push(env(1, { type: "delta", text: "x" }, { conversationId: "other" }));
  assert.equal(code(fc1), "foreign-conversation");
  assert.deepEqual(!fc1.ok && [fc1.error.expected, fc1.error.received], [C, "other"]);
  assert.equal(
    code(f.push(env(1, { type: "delta", text: "x" }, { turnId: "t2" }))),
    "foreign-turn",
  );
  const bad = f.push(env(1, { type: "tool_call", callId: "", name: "n" }));
  assert.equal(code(bad), "invalid-envelope");
  assert.equal(!bad.ok && bad.error.seq, 1);
  assert.ok(!bad.ok && bad.error.issues!.some((i) => i.path === "event.callId"));
  assert.equal(code(f.push(env(1, { type: "token", content: "x" }))), "unknown-event-type");
  assert.equal(code(f.push({ type: "delta", text: "v0" })), "unsupported-version");
  assert.equal(code(f.push(null)), "invalid-envelope");
  assert.deepEqual(f.state(), createChatState(C, T));
});

Deno.test("tools: duplicate-call, unknown-call, finished-call, call-mismatch; progress and result fold", () => {
  const f = new ChatStateFolder(C, T);
  let s = 1;
  assert.equal(
    code(f.push(env(s, { type: "tool_progress", callId: "x", progress: 0.1 }))),
    "unknown-call",
  );
  assert.equal(
    code(f.push(env(s, { type: "tool_result", callId: "x", name: "n", ok: true }))),
    "unknown-call",
  );
  assert.equal(
    code(f.push(env(s++, { type: "tool_call", callId: "c1", name: "search", input: { q: 1 } }))),
    "ok",
  );
  assert.equal(
    code(f.push(env(s, { type: "tool_call", callId: "c1", name: "search" }))),
    "duplicate-call",
  );
  assert.equal(
    code(f.push(env(s++, { type: "tool_progress", callId: "c1", progress: 0.5, message: "half" }))),
    "ok",
  );
  assert.equal(
    code(f.push(env(s, { type: "tool_result", callId: "c1", name: "other", ok: true }))),
    "call-mismatch",
  );
  const blocks = [{ id: "b", text: "t", sources: [{ ref: "doc:1" }] }];
  assert.equal(
    code(
      f.push(
        env(s++, {
          type: "tool_result",
          callId: "c1",
          name: "search",
          ok: false,
          summary: "no",
          output: 3,
          blocks,
        }),
      ),
    ),
    "ok",
  );
  assert.equal(
    code(f.push(env(s, { type: "tool_progress", callId: "c1", progress: 1 }))),
    "finished-call",
  );
  assert.equal(
    code(f.push(env(s, { type: "tool_result", callId: "c1", name: "search", ok: true }))),
    "finished-call",
  );
  assert.equal(
    code(f.push(env(s, { type: "tool_call", callId: "c1", name: "search" }))),
    "duplicate-call",
  );
  assert.deepEqual(f.state().tools, [{
    callId: "c1",
    name: "search",
    input: { q: 1 },
    status: "error",
    progress: 0.5,
    progressMessage: "half",
    summary: "no",
    output: 3,
    blocks,
    startedSeq: 1,
    finishedSeq: 3,
  }]);
});

Deno.test("cards: awaiting-input, unknown-card, duplicate-card, last close → running", () => {
  const f = new ChatStateFolder(C, T);
  const card = (id: string) => ({
    type: "card",
    card: { correlationId: id, prompt: "?", createdAt: 1 },
  });
  assert.equal(code(f.push(env(1, { type: "card_closed", correlationId: "k0" }))), "unknown-card");
  assert.equal(code(f.push(env(1, card("k1")))), "ok");
  assert.equal(f.status, "awaiting-input");
  assert.equal(code(f.push(env(2, card("k1")))), "duplicate-card");
  assert.equal(code(f.push(env(2, card("k2")))), "ok");
  assert.equal(code(f.push(env(3, { type: "delta", text: "waiting" }))), "ok");
  assert.equal(f.status, "awaiting-input");
  assert.equal(code(f.push(env(4, { type: "done" }))), "illegal-transition");
  assert.equal(
    code(f.push(env(4, { type: "card_closed", correlationId: "k1", resolution: "declined" }))),
    "ok",
  );
  assert.equal(f.status, "awaiting-input");
  assert.equal(code(f.push(env(5, { type: "card_closed", correlationId: "k1" }))), "unknown-card");
  assert.deepEqual(f.state().openCards.map((c) => c.correlationId), ["k2"]);
  assert.equal(code(f.push(env(5, { type: "card_closed", correlationId: "k2" }))), "ok");
  assert.equal(f.status, "running");
  assert.deepEqual(f.state().closedCards, [{ correlationId: "k1", resolution: "declined" }, {
    correlationId: "k2",
  }]);
  // a closed (answered) card never re-prompts: re-opening its id is a stale frame
  const reopen = f.push(env(6, card("k1")));
  assert.deepEqual(!reopen.ok && [reopen.error.code, reopen.error.correlationId], [
    "duplicate-card",
    "k1",
  ]);
  assert.match(!reopen.ok ? reopen.error.message : "", /already closed/);
  assert.equal(f.status, "running");
  assert.equal(code(f.push(env(6, { type: "done", stopReason: "complete" }))), "ok");
  assert.equal(f.status, "completed");
  // the same after a resume from the saved state
  const g = new ChatStateFolder(C, T);
  g.push(env(1, card("k1")));
  g.push(env(2, { type: "card_closed", correlationId: "k1" }));
  const resumed = resumeChatState(g.state());
  assert.ok(resumed.ok);
  assert.equal(code(resumed.value.push(env(3, card("k1")))), "duplicate-card");
});

Deno.test("terminal states: cards close with a failed or cancelled turn; calls still running when a turn ends are marked unfinished", () => {
  const card = (id: string) => ({
    type: "card",
    card: { correlationId: id, prompt: "?", createdAt: 1 },
  });
  const start = () => {
    const f = new ChatStateFolder(C, T);
    for (
      const e of [
        { type: "tool_call", callId: "k1", name: "search" },
        { type: "tool_call", callId: "k2", name: "search" },
        { type: "tool_result", callId: "k1", name: "search", ok: true },
        card("q1"),
        card("q2"),
        { type: "card_closed", correlationId: "q1", resolution: "submitted" },
      ]
    ) assert.equal(code(f.push(env(f.lastSeq + 1, e))), "ok", JSON.stringify(e));
    return f;
  };
  for (
    const [end, status, resolution] of [
      [{ type: "turn_status", status: "cancelled", reason: "user" }, "cancelled", "cancelled"],
      [{ type: "error", message: "boom", retryable: false }, "failed", "interrupted"],
    ] as const
  ) {
    const f = start();
    assert.equal(f.status, "awaiting-input");
    assert.equal(code(f.push(env(7, end))), "ok");
    const s = f.state();
    assert.equal(s.status, status);
    // Before: q2 stayed open forever and k2 running; a later card_closed was refused.
    assert.deepEqual(s.openCards, []);
    assert.deepEqual(s.closedCards, [
      { correlationId: "q1", resolution: "submitted" },
      { correlationId: "q2", resolution },
    ]);
    assert.deepEqual(s.tools.map((t) => [t.callId, t.status, t.finishedSeq]), [
      ["k1", "ok", 3],
      ["k2", "unfinished", 7],
    ]);
    // nothing is left for a later event to close
    assert.equal(
      code(f.push(env(8, { type: "card_closed", correlationId: "q2" }))),
      "illegal-transition",
    );
    assert.equal(
      code(f.push(env(8, { type: "tool_result", callId: "k2", name: "search", ok: true }))),
      "illegal-transition",
    );
    // the state resumes as it is, also through JSON
    const resumed = resumeChatState(JSON.parse(JSON.stringify(s)));
    assert.ok(resumed.ok, JSON.stringify(resumed));
    assert.deepEqual(resumed.value.state(), s);
  }
  // an interrupted turn keeps its cards and running calls (it may resume), until it ends
  const g = start();
  assert.equal(code(g.push(env(7, { type: "turn_status", status: "interrupted" }))), "ok");
  assert.deepEqual(g.state().openCards.map((c) => c.correlationId), ["q2"]);
  assert.deepEqual(g.state().tools.map((t) => t.status), ["ok", "running"]);
  assert.equal(code(g.push(env(8, { type: "turn_status", status: "cancelled" }))), "ok");
  assert.deepEqual(g.state().tools.map((t) => [t.status, t.finishedSeq]), [["ok", 3], [
    "unfinished",
    8,
  ]]);
  assert.deepEqual(g.state().closedCards.at(-1), { correlationId: "q2", resolution: "cancelled" });
  // done while a call runs completes the turn and marks the call unfinished (a Scout turn has
  // no tool result at all: refusing `done` would leave it running forever)
  const h = new ChatStateFolder(C, T);
  h.push(env(1, { type: "tool_call", callId: "a", name: "n" }));
  h.push(env(2, { type: "tool_call", callId: "b", name: "n" }));
  h.push(env(3, { type: "tool_result", callId: "a", name: "n", ok: true }));
  assert.equal(code(h.push(env(4, { type: "done" }))), "ok");
  assert.equal(h.status, "completed");
  // Before: a completed turn with a running tool call.
  assert.deepEqual(h.state().tools.map((t) => [t.callId, t.status, t.finishedSeq]), [
    ["a", "ok", 3],
    ["b", "unfinished", 4],
  ]);
  assert.equal(
    code(h.push(env(5, { type: "tool_result", callId: "b", name: "n", ok: true }))),
    "illegal-transition",
  );
});

Deno.test("lifecycle: terminal refuses everything; paused accepts only turn_status/error", () => {
  for (
    const terminal of [
      { type: "done" },
      { type: "error", message: "m", retryable: true, retryAfterMs: 5 },
      { type: "turn_status", status: "cancelled", reason: "user" },
    ]
  ) {
    const f = new ChatStateFolder(C, T);
    assert.equal(code(f.push(env(1, terminal))), "ok");
    const before = f.state();
    for (
      const ev of [{ type: "delta", text: "x" }, { type: "turn_status", status: "running" }, {
        type: "done",
      }, {
        type: "error",
        message: "again",
        retryable: false,
      }]
    ) {
      const r = f.push(env(2, ev));
      assert.equal(code(r), "illegal-transition");
      assert.equal(!r.ok && r.error.status, before.status);
    }
    assert.deepEqual(f.state(), before);
  }
  const f = new ChatStateFolder(C, T);
  assert.equal(
    code(f.push(env(1, { type: "turn_status", status: "interrupted", reason: "host restart" }))),
    "ok",
  );
  assert.equal(f.state().statusReason, "host restart");
  for (
    const ev of [{ type: "delta", text: "x" }, { type: "state", version: 1, snapshot: 1 }, {
      type: "done",
    }]
  ) {
    assert.equal(code(f.push(env(2, ev))), "illegal-transition");
  }
  assert.equal(
    code(f.push(env(2, { type: "turn_status", status: "needs-reconciliation" }))),
    "illegal-transition",
  );
  assert.equal(code(f.push(env(2, { type: "turn_status", status: "running" }))), "ok");
  assert.equal(f.state().statusReason, undefined);
  assert.equal(code(f.push(env(3, { type: "turn_status", status: "needs-reconciliation" }))), "ok");
  assert.equal(
    code(f.push(env(4, { type: "tool_call", callId: "c", name: "n" }))),
    "illegal-transition",
  );
  assert.equal(
    code(f.push(env(4, { type: "error", message: "lost", retryable: false, code: "x" }))),
    "ok",
  );
  assert.deepEqual(f.state().error, { message: "lost", retryable: false, code: "x" });
  assert.equal(f.status, "failed");
});

Deno.test("refused events leave the state unchanged (property)", () => {
  fc.assert(
    fc.property(fc.array(nearEnvelope, { maxLength: 30 }), (values) => {
      const f = new ChatStateFolder("c1", "t1");
      for (const v of values) {
        const before = JSON.stringify(f.state());
        const r = f.push(v);
        if (!r.ok) assert.equal(JSON.stringify(f.state()), before);
      }
    }),
    { numRuns: 500 },
  );
});

Deno.test("state() is a JSON-serialisable snapshot, independent of the folder", () => {
  const f = new ChatStateFolder(C, T);
  f.push(env(1, { type: "tool_call", callId: "c", name: "n" }));
  const s = f.state();
  // shared parts are frozen: changing them throws instead of reaching the folder
  assert.throws(() => {
    (s.tools[0] as { status: string }).status = "ok";
  }, TypeError);
  assert.throws(() => (s.tools as unknown[]).push({}), TypeError);
  // the snapshot object is its own: any field, a collection too, can be replaced
  s.text = "mutated";
  s.tools = [{ callId: "z", name: "z", status: "ok", startedSeq: 9 }];
  assert.deepEqual(s.tools, [{ callId: "z", name: "z", status: "ok", startedSeq: 9 }]);
  assert.deepEqual(f.state().tools, [{ callId: "c", name: "n", status: "running", startedSeq: 1 }]);
  assert.equal(f.state().text, "");
  assert.deepEqual(JSON.parse(JSON.stringify(f.state())), f.state());
  assert.deepEqual(structuredClone(f.state()), f.state());
  assert.deepEqual({ ...f.state() }, f.state());
});

Deno.test("snapshots share structure and never change: each keeps the state of its moment", () => {
  const f = new ChatStateFolder(C, T);
  const envs: unknown[] = [];
  // each snapshot is left unread until the end; the expected JSON comes from a separate fold
  const snaps: { json: string; state: ReturnType<ChatStateFolder["state"]> }[] = [];
  const take = () => {
    const state = f.state();
    const json = JSON.stringify(foldChatState(envs, { conversationId: C, turnId: T }).state);
    snaps.push({ json, state });
  };
  let seq = 0;
  const push = (event: Record<string, unknown>) => {
    const e = env(++seq, event);
    envs.push(e);
    assert.ok(f.push(e).ok, JSON.stringify(event));
    take();
  };
  take();
  for (let i = 0; i < 70; i++) push({ type: "tool_call", callId: `k${i}`, name: "n" });
  push({ type: "delta", text: "a" });
  const a = f.state(), b = f.state();
  assert.equal(a.tools, b.tools, "no change in between: the same frozen array");
  assert.ok(Object.isFrozen(a.tools) && Object.isFrozen(a.tools[0]));
  for (let i = 0; i < 70; i += 3) {
    push({ type: "tool_progress", callId: `k${i}`, progress: 0.5 });
    push({ type: "tool_result", callId: `k${i}`, name: "n", ok: i % 2 === 0 });
  }
  push({ type: "card", card: { correlationId: "q1", prompt: "?", createdAt: 1 } });
  push({ type: "card", card: { correlationId: "q2", prompt: "?", createdAt: 1 } });
  push({ type: "card_closed", correlationId: "q1", resolution: "submitted" });
  push({ type: "delta", text: "b" });
  // unchanged tool calls are the same objects from one snapshot to the next
  const last = snaps.at(-1)!.state, before = snaps.at(-2)!.state;
  assert.equal(last.tools[1], before.tools[1]);
  assert.equal(last.tools, before.tools);
  assert.notEqual(last.text, before.text);
  // every snapshot, read only now, is the state of its moment
  for (const { json, state } of snaps) assert.equal(JSON.stringify(state), json);
  assert.deepEqual(last.openCards.map((c) => c.correlationId), ["q2"]);
  assert.deepEqual(last.closedCards, [{ correlationId: "q1", resolution: "submitted" }]);
  assert.equal(last.tools.length, 70);
  assert.equal(last.tools.filter((t) => t.status !== "running").length, 24);
});

Deno.test("golden: turn_basic folds cleanly", async () => {
  const values = ndjson(await readFixture("v1/turn_basic.ndjson"));
  const report = foldChatState(values);
  assert.equal(report.refusals.length, 0);
  assert.equal(report.applied, values.length);
  assert.equal(report.state!.status, "completed");
  assert.equal(
    report.state!.text,
    "Let me check the refund policy. Refunds are available within 30 days. I started the refund.",
  );
  await assertGolden("v1/turn_basic.fold.json", report);
  const strict = foldChatStateStrict(values);
  assert.ok(strict.ok);
  assert.deepEqual(strict.value, report.state);
});

Deno.test("golden: turn_problems reports every problem with its position", async () => {
  const values = ndjson(await readFixture("v1/turn_problems.ndjson"));
  const report = foldChatState(values);
  assert.deepEqual(report.refusals.map((r) => [r.index, r.error.code, r.error.seq]), [
    [3, "gap", 5],
    [4, "duplicate", 5],
    [5, "foreign-turn", 6],
    [6, "unknown-call", 6],
    [10, "illegal-transition", 9],
  ]);
  assert.equal(report.state!.status, "completed");
  assert.equal(report.state!.text, "Checking your order status now.");
  await assertGolden("v1/turn_problems.fold.json", report);
  const strict = foldChatStateStrict(values);
  assert.equal(strict.ok, false);
  assert.deepEqual(
    !strict.ok && [strict.error.code, strict.error.index, strict.error.expectedSeq],
    ["gap", 3, 4],
  );
  await assertGolden("v1/turn_problems.strict.json", strict);
});

Deno.test("resume: resumeChatState(state) continues where the saved state stopped", async () => {
  const values = ndjson(await readFixture("v1/turn_basic.ndjson"));
  const full = foldChatState(values).state!;
  const head = foldChatState(values.slice(0, 9)).state!;
  const saved = JSON.parse(JSON.stringify(head));
  const resumed = resumeChatState(saved);
  assert.ok(resumed.ok);
  for (const v of values.slice(9)) assert.ok(resumed.value.push(v).ok);
  assert.deepEqual(resumed.value.state(), full);
  // via foldChatState's `from`
  assert.deepEqual(foldChatState(values.slice(9), { from: saved }).state, full);
  // after a resume the last event is a duplicate, older ones are reordered
  const again = resumeChatState(saved);
  assert.ok(again.ok);
  assert.equal(code(again.value.push(values[8])), "duplicate");
  assert.equal(code(again.value.push(values[2])), "reordered");
  // a broken saved state is refused, not thrown
  for (
    const bad of [null, {}, { ...saved, status: "done" }, { ...saved, lastSeq: -1 }, {
      ...saved,
      tools: [{}],
    }]
  ) {
    const r = resumeChatState(bad);
    assert.equal(!r.ok && r.error.code, "invalid-state");
  }
  const rep = foldChatState(values, { from: { ...saved, text: 5 } });
  assert.deepEqual([rep.state, rep.refusals[0].index, rep.refusals[0].error.code], [
    null,
    -1,
    "invalid-state",
  ]);
});

Deno.test("resume: a tampered saved state is refused, naming the offending field itself", () => {
  const card = (id: string) => ({ correlationId: id, prompt: "?", createdAt: 1 });
  const s0 = { ...createChatState(C, T), lastSeq: 2, lastEventId: "e2" };
  const tool = { callId: "k", name: "n", status: "running", startedSeq: 1 };
  const cases: [unknown, string][] = [
    // structure the fold never produces: refusing beats silent loss or fabrication
    [
      { ...s0, status: "awaiting-input", openCards: [card("a"), card("a")] },
      "openCards.1.correlationId",
    ],
    [{ ...s0, openCards: [{ correlationId: "a" }] }, "openCards.0.prompt"],
    [{ ...s0, tools: [{ ...tool, startedSeq: undefined }] }, "tools.0.startedSeq"],
    [{ ...s0, tools: [{ ...tool, startedSeq: 3 }] }, "tools.0.startedSeq"],
    [{ ...s0, tools: [{ ...tool, callId: "" }] }, "tools.0.callId"],
    [{ ...s0, tools: [{ ...tool, status: "ok" }] }, "tools.0.finishedSeq"],
    [{ ...s0, tools: [{ ...tool, finishedSeq: 2 }] }, "tools.0.finishedSeq"],
    [{ ...s0, tools: [{ ...tool, progress: 2 }] }, "tools.0.progress"],
    [{ ...s0, tools: [{ ...tool, blocks: [{ id: "b" }] }] }, "tools.0.blocks.0.text"],
    [{ ...s0, tools: [tool, tool] }, "tools.1.callId"],
    [
      { ...s0, closedCards: [{ correlationId: "a", resolution: "bogus" }] },
      "closedCards.0.resolution",
    ],
    [
      { ...s0, closedCards: [{ correlationId: "a" }, { correlationId: "a" }] },
      "closedCards.1.correlationId",
    ],
    [{
      ...s0,
      status: "awaiting-input",
      openCards: [card("a")],
      closedCards: [{ correlationId: "a" }],
    }, "closedCards.0.correlationId"],
    [{ ...s0, sessionId: 5 }, "sessionId"],
    [{ ...s0, provenance: { engine: 1, model: null } }, "provenance.engine"],
    [{ ...s0, state: { version: -1, snapshot: null } }, "state.version"],
    [{ ...s0, statusReason: 5 }, "statusReason"],
    [{ ...s0, lastSeq: 0, lastEventId: "e9" }, "lastEventId"],
    [{ ...s0, lastEventId: null }, "lastEventId"],
    // a failed turn whose error has no explicit retry permission: a client would guess
    [{ ...s0, status: "failed", error: { message: "x" } }, "error.retryable"],
    [
      { ...s0, status: "failed", error: { message: "x", retryable: false, retryAfterMs: 5 } },
      "error.retryAfterMs",
    ],
    [{ ...s0, status: "failed" }, "error"],
    [{ ...s0, error: { message: "x", retryable: true } }, "error"],
    [{ ...s0, status: "completed" }, "done"],
    [{ ...s0, done: {} }, "done"],
    [{ ...s0, status: "completed", done: { usage: { costUsd: -1 } } }, "done.usage.costUsd"],
    // status vs open cards: running with a card open would let `done` complete it
    [{ ...s0, openCards: [card("a")] }, "status"],
    [{ ...s0, status: "completed", done: {}, openCards: [card("a")] }, "status"],
    [{ ...s0, status: "awaiting-input" }, "status"],
    // cards close with the turn and a finished turn has no running tool call
    [
      {
        ...s0,
        status: "failed",
        error: { message: "x", retryable: false },
        openCards: [card("a")],
      },
      "status",
    ],
    [{ ...s0, status: "cancelled", openCards: [card("a")] }, "status"],
    [{ ...s0, status: "completed", done: {}, tools: [tool] }, "tools.0.status"],
    [{ ...s0, status: "cancelled", tools: [tool] }, "tools.0.status"],
    [{ ...s0, tools: [{ ...tool, status: "unfinished", finishedSeq: 2 }] }, "tools.0.status"],
    [
      { ...s0, status: "cancelled", tools: [{ ...tool, status: "unfinished" }] },
      "tools.0.finishedSeq",
    ],
  ];
  for (const [bad, path] of cases) {
    const r = resumeChatState(bad as ChatStateV1);
    assert.deepEqual(
      !r.ok && [r.error.code, r.error.path],
      ["invalid-state", path],
      JSON.stringify(bad),
    );
  }
  // hostile objects are refused, not thrown
  const throwing = {
    ...s0,
    get tools() {
      throw new Error("boom");
    },
  };
  assert.equal(code(resumeChatState(throwing as unknown as ChatStateV1)), "invalid-state");
  // the states the fold can reach are accepted (running with a paused card, failed with one open…)
  const ok = [
    {
      ...s0,
      status: "failed",
      error: { message: "x", retryable: true, retryAfterMs: 5 },
      closedCards: [{ correlationId: "a", resolution: "interrupted" }],
      tools: [{ ...tool, status: "unfinished", finishedSeq: 2 }],
    },
    { ...s0, status: "interrupted", tools: [tool] },
    { ...s0, status: "interrupted", openCards: [card("a")] },
    { ...s0, status: "completed", done: { usage: { costUsd: 0.5 } } },
    { ...s0, tools: [{ ...tool, status: "error", finishedSeq: 2, progress: 1 }] },
  ];
  for (const good of ok) {
    assert.ok(resumeChatState(good as ChatStateV1).ok, JSON.stringify(good));
  }
});

Deno.test("property: every state the fold reaches resumes to the same folder (also through JSON)", () => {
  const seen = { open: 0, tools: 0, terminal: 0, paused: 0 };
  fc.assert(
    fc.property(fc.array(validEvent, { maxLength: 30 }), fc.nat({ max: 30 }), (events, cut) => {
      const folder = new ChatStateFolder(C, T);
      const feed = (f: ChatStateFolder, e: Record<string, unknown>) =>
        f.push(env(f.lastSeq + 1, e, { eventId: `x${f.lastSeq + 1}` }));
      for (const e of events.slice(0, cut)) feed(folder, e);
      const saved = folder.state();
      if (saved.openCards.length > 0) seen.open++;
      if (saved.tools.length > 0) seen.tools++;
      if (["completed", "failed", "cancelled"].includes(saved.status)) seen.terminal++;
      if (["interrupted", "needs-reconciliation"].includes(saved.status)) seen.paused++;
      const direct = resumeChatState(saved);
      const viaJson = resumeChatState(JSON.parse(JSON.stringify(saved)));
      assert.ok(direct.ok, JSON.stringify(direct));
      assert.ok(viaJson.ok, JSON.stringify(viaJson));
      assert.deepEqual(direct.value.state(), saved);
      // the resumed folder accepts and refuses exactly what the original does
      for (const e of events.slice(cut)) {
        const a = feed(folder, e), b = feed(direct.value, e);
        assert.equal(code(b), code(a));
      }
      assert.deepEqual(direct.value.state(), folder.state());
    }),
    { numRuns: 2_000 },
  );
  for (const [k, v] of Object.entries(seen)) assert.ok(v >= 20, `only ${v} runs reached ${k}`);
});

Deno.test("property: resumeChatState never throws on near-states", () => {
  const saved = { ...createChatState(C, T), lastSeq: 1, lastEventId: "e1" };
  const keys = Object.keys(saved).concat(["tools", "openCards", "done", "error", "provenance"]);
  fc.assert(
    fc.property(fc.constantFrom(...keys), fc.oneof(tricky, fc.jsonValue()), (key, value) => {
      const r = resumeChatState({ ...saved, [key]: value } as unknown as ChatStateV1);
      if (r.ok) JSON.stringify(r.value.state());
      else assert.equal(r.error.code, "invalid-state");
    }),
    { numRuns: 10_000 },
  );
});

Deno.test("hostile values: push, foldChatState and foldChatStateStrict refuse, never throw", () => {
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const hostile: unknown[] = [
    {
      schemaVersion: 1,
      get seq() {
        throw new Error("boom");
      },
    },
    {
      schemaVersion: 1,
      seq: 1,
      get eventId() {
        throw new Error("boom");
      },
    },
    revoked.proxy,
  ];
  for (const value of hostile) {
    const r = new ChatStateFolder(C, T).push(value);
    assert.equal(code(r), "invalid-envelope");
  }
  assert.deepEqual(foldChatState(hostile, { conversationId: C, turnId: T }).applied, 0);
  for (const notIterable of [null, undefined, 5, {}]) {
    const rep = foldChatState(notIterable as unknown as unknown[]);
    assert.deepEqual([rep.state, rep.refusals.map((r) => [r.index, r.error.code])], [null, [[
      -1,
      "invalid-envelope",
    ]]]);
    const strict = foldChatStateStrict(notIterable as unknown as unknown[]);
    assert.deepEqual(!strict.ok && [strict.error.code, strict.error.index], [
      "invalid-envelope",
      -1,
    ]);
  }
});

Deno.test("foldChatState: ids inferred from the first valid envelope, or given", () => {
  const a = env(1, { type: "delta", text: "x" });
  assert.equal(foldChatState([null, a]).state!.text, "x");
  assert.deepEqual(foldChatState([null]).state, null);
  assert.deepEqual(foldChatState([null]).refusals.map((r) => r.error.code), ["invalid-envelope"]);
  assert.equal(
    foldChatState([a], { conversationId: C, turnId: "other" }).refusals[0].error.code,
    "foreign-turn",
  );
  assert.equal(foldChatStateStrict([]).ok, false);
  assert.deepEqual(foldChatStateStrict([], { conversationId: "c", turnId: "t" }), {
    ok: true,
    value: createChatState("c", "t"),
  });
});

Deno.test("property: the folder never throws and never yields polluted objects (10k runs)", () => {
  const hostile = fc.oneof(
    nearEnvelope,
    nearEnvelope.map((v) =>
      JSON.parse(
        JSON.stringify(v ?? null).replace(
          /"event":\{(\}?)/,
          (_m, close) => `"event":{"__proto__":{"polluted":1}${close ? "}" : ","}`,
        ),
      )
    ),
    fc.jsonValue(),
  );
  fc.assert(
    fc.property(fc.array(hostile, { maxLength: 8 }), (values) => {
      const report = foldChatState(values, {
        conversationId: "c1",
        turnId: "t1",
      });
      const s = report.state!;
      assert.equal(Object.getPrototypeOf(s), Object.prototype);
      for (const t of s.tools) {
        assert.equal(Object.getPrototypeOf(t), Object.prototype);
        assert.ok(!Object.hasOwn(t, "__proto__"));
      }
      JSON.stringify(s);
    }),
    { numRuns: 10_000 },
  );
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});
