/**
 * v1 → AI SDK and v1 → AG-UI are lossless or loud: blocks leave the text
 * and travel as structured parts (no partial tag ever), retry permission,
 * error code and delay, grounded blocks, stop reasons and the cancelled /
 * interrupted / needs-reconciliation statuses reach the client in the
 * peer's own vocabulary, an approval is an AI SDK tool approval and an
 * AG-UI interrupt, and what a peer cannot carry is reported. Checked with
 * the real peers (`readUIMessageStream`, `uiMessageChunkSchema`,
 * `@ag-ui/core`'s schemas and `@ag-ui/client`'s verifier).
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import { foldChatState } from "../../mod.ts";
import { uiMessage as UIMessageSchema } from "../../message.ts";
import { foldUIMessage, V1ToUIMessageChunks, v1ToUIMessageChunks } from "../../ai_sdk.ts";
import { type AgUiEvent, V1ToAgUi, v1ToAgUiEvents } from "../../ag_ui.ts";
import { normalizeSegments, splitTurnText, type TurnTextSegment } from "../../blocks.ts";
import { assertGolden } from "../_helpers/golden.ts";
import { agUiRefusedEvents, agUiVerify, aiFold, aiRefusedChunks } from "./_peers.ts";
import { validTurn } from "./_valid_turns.ts";
import { envelope } from "./_envelopes.ts";

const read = (p: string) =>
  JSON.parse(Deno.readTextFileSync(new URL(`../../fixtures/${p}`, import.meta.url)));
const TURNS = [
  "v1_turn_full",
  "v1_turn_awaiting",
  "v1_turn_interrupted",
  "v1_turn_reconcile",
  "v1_turn_denied",
  "v1_turn_error",
];

// deno-lint-ignore no-explicit-any
type Any = any;

Deno.test("goldens: v1 turns → AI SDK chunks and AG-UI events, accepted by the real peers", async () => {
  for (const t of TURNS) {
    const envs = read(`message/${t}.json`);
    assert.deepEqual(foldChatState(envs).refusals, [], `${t} is a valid v1 turn`);
    const ai = v1ToUIMessageChunks(envs);
    const ag = v1ToAgUiEvents(envs);
    assert.deepEqual(ai.refused, [], t);
    assert.deepEqual(ag.refused, [], t);
    await assertGolden(`lossless/${t}.ui_chunks.json`, { chunks: ai.chunks, dropped: ai.dropped });
    await assertGolden(`lossless/${t}.ag_ui.json`, { events: ag.events, dropped: ag.dropped });
    assert.deepEqual(await aiRefusedChunks(ai.chunks), [], `${t}: uiMessageChunkSchema`);
    const folded = await aiFold(ai.chunks);
    assert.deepEqual(
      folded.errors,
      t === "v1_turn_error" ? ["Error: provider overloaded"] : [],
      t,
    );
    // our own fold agrees with the AI SDK's on every new chunk kind
    assert.deepEqual(
      JSON.parse(JSON.stringify(foldUIMessage(ai.chunks).message)),
      folded.message,
      t,
    );
    assert.deepEqual(agUiRefusedEvents(ag.events), [], `${t}: EventSchemas`);
    const verified = await agUiVerify(ag.events);
    assert.equal(verified.error, undefined, `${t}: ${verified.error}`);
    assert.deepEqual(verified.events.map((e) => e.type), ag.events.map((e) => e.type), t);
  }
});

/** The AI SDK message of a fixture, as the real readUIMessageStream folds it. */
async function aiMessage(t: string) {
  const { chunks } = v1ToUIMessageChunks(read(`message/${t}.json`));
  const { message } = await aiFold(chunks);
  return { chunks, message: message as Any };
}

Deno.test("blocks leave the text and travel as data-report / data-ask parts (AI SDK) and CUSTOM events (AG-UI)", async () => {
  const { chunks, message } = await aiMessage("v1_turn_full");
  const texts = message.parts.filter((p: Any) => p.type === "text").map((p: Any) => p.text);
  assert.deepEqual(texts, ["Here is the plan. ", " Next: ", " Thanks.", "Deployed."]);
  const report = message.parts.find((p: Any) => p.type === "data-report");
  assert.deepEqual(report.data.block.plans[0].items[0], {
    text: "adapters",
    status: "wip",
    ref: "wi:core#13",
  });
  const ask = message.parts.find((p: Any) => p.type === "data-ask");
  assert.equal(ask.data.block.question, "Deploy now?");
  // in order: text, report, text, ask, text
  assert.deepEqual(
    message.parts.filter((p: Any) => p.type === "text" || p.type.startsWith("data-")).map((
      p: Any,
    ) => p.type),
    ["text", "data-report", "text", "data-ask", "text", "text"],
  );
  for (const c of chunks) {
    if (c.type === "text-delta") assert.doesNotMatch(c.delta, /<\/?(ask|report)/i);
  }
  const { events } = v1ToAgUiEvents(read("message/v1_turn_full.json"));
  const customs = events.filter((e) => e.type === "CUSTOM").map((e: Any) => e.name);
  assert.deepEqual(customs.filter((n) => n === "report" || n === "ask"), ["report", "ask"]);
  const agText = events.filter((e) => e.type === "TEXT_MESSAGE_CONTENT").map((e: Any) => e.delta)
    .join("");
  assert.equal(agText, "Here is the plan.  Next:  Thanks.Deployed.");
});

Deno.test("grounded blocks and the summary of a tool result travel with it (toolMetadata / metadata)", async () => {
  const { message } = await aiMessage("v1_turn_full");
  const search = message.parts.find((p: Any) => p.type === "tool-search");
  assert.equal(search.state, "output-available");
  assert.deepEqual(search.output, { hits: 2 });
  assert.deepEqual(search.toolMetadata, {
    summary: "2 hits",
    blocks: [
      {
        id: "b1",
        text: "v1 ships adapters",
        sources: [{ ref: "doc:notes#p1", label: "Release notes" }],
      },
      { id: "b2", text: "ungrounded", sources: [] },
    ],
  });
  const { events } = v1ToAgUiEvents(read("message/v1_turn_full.json"));
  const result = events.find((e: Any) =>
    e.type === "TOOL_CALL_RESULT" && e.toolCallId === "call-search"
  ) as Any;
  assert.equal(result.content, '{"hits":2}');
  assert.deepEqual(result.metadata.blocks[0].sources, [{
    ref: "doc:notes#p1",
    label: "Release notes",
  }]);
});

Deno.test("errors keep retry permission, code and delay; the metadata precedes the error chunk", async () => {
  const { chunks, message } = await aiMessage("v1_turn_error");
  const at = chunks.findIndex((c) => c.type === "error");
  assert.deepEqual(chunks[at - 1], {
    type: "message-metadata",
    messageMetadata: {
      status: "failed",
      error: {
        message: "provider overloaded",
        retryable: true,
        code: "overloaded",
        retryAfterMs: 1000,
      },
    },
  });
  assert.deepEqual(message.metadata.error, {
    message: "provider overloaded",
    retryable: true,
    code: "overloaded",
    retryAfterMs: 1000,
  });
  assert.deepEqual(chunks.at(-1), { type: "finish", finishReason: "error" });
});

Deno.test("stop reasons: the AI SDK's own finish reason where one exists, the v1 value in metadata", () => {
  const cases: [string | undefined, string][] = [
    [undefined, "stop"],
    ["stop", "stop"],
    ["end_turn", "stop"],
    ["max_tokens", "length"],
    ["tool_use", "tool-calls"],
    ["length", "length"],
    ["content-filter", "content-filter"],
    ["max_steps", "other"],
    ["budget-exhausted", "other"],
  ];
  for (const [stopReason, finishReason] of cases) {
    const done = stopReason === undefined ? { type: "done" } : { type: "done", stopReason };
    const { chunks } = v1ToUIMessageChunks([envelope(1, done)]);
    const finish = chunks.at(-1) as Any;
    assert.equal(finish.finishReason, finishReason, String(stopReason));
    assert.equal(finish.messageMetadata.stopReason, stopReason);
    assert.equal(finish.messageMetadata.status, "completed");
  }
});

Deno.test("cancelled / interrupted / needs-reconciliation reach the client in the peer's vocabulary", async () => {
  const cancelled = v1ToUIMessageChunks(read("message/v1_turn_cancelled.json")).chunks;
  assert.deepEqual(cancelled.slice(-2), [
    {
      type: "message-metadata",
      messageMetadata: { status: "cancelled", statusReason: "user stop" },
    },
    { type: "abort", reason: "user stop" },
  ]);
  assert.ok(!cancelled.some((c) => c.type === "finish"), "a cancelled turn is not a normal finish");

  const interrupted = await aiMessage("v1_turn_interrupted");
  assert.deepEqual(interrupted.chunks.at(-1), {
    type: "finish",
    finishReason: "interrupted",
    messageMetadata: { status: "interrupted" },
  });
  assert.equal(interrupted.message.metadata.statusReason, "host restarted");
  const reconcile = await aiMessage("v1_turn_reconcile");
  assert.deepEqual(reconcile.chunks.at(-1), {
    type: "finish",
    finishReason: "other",
    messageMetadata: { status: "needs-reconciliation" },
  });

  const agInt = v1ToAgUiEvents(read("message/v1_turn_interrupted.json")).events.at(-1) as Any;
  assert.deepEqual({ type: agInt.type, code: agInt.code, message: agInt.message }, {
    type: "RUN_ERROR",
    code: "interrupted",
    message: "host restarted",
  });
  assert.deepEqual(agInt.metadata, {
    status: "interrupted",
    recoverable: true,
    statusReason: "host restarted",
  });
  const agRec = v1ToAgUiEvents(read("message/v1_turn_reconcile.json")).events.at(-1) as Any;
  assert.equal(agRec.code, "needs-reconciliation");
  const agCancel = v1ToAgUiEvents(read("message/v1_turn_cancelled.json")).events.at(-1) as Any;
  assert.deepEqual(agCancel.outcome, { type: "cancelled" });
});

Deno.test("an approval card is an AI SDK tool approval; waiting on it is never a finished turn with a running tool", async () => {
  const waiting = await aiMessage("v1_turn_awaiting");
  const del = waiting.message.parts.find((p: Any) => p.type === "tool-deleteFile");
  assert.equal(del.state, "approval-requested");
  assert.equal(del.approval.id, "card-del");
  assert.equal(del.approval.descriptor.prompt, "Delete /tmp/x?");
  assert.deepEqual(waiting.chunks.at(-1), {
    type: "finish",
    finishReason: "tool-calls",
    messageMetadata: { status: "awaiting-input" },
  });
  const question = waiting.message.parts.find((p: Any) => p.type === "data-card");
  assert.equal(question.data.status, "open");
  // the partial "<as" is never shown
  const shown = waiting.message.parts.filter((p: Any) => p.type === "text").map((p: Any) => p.text)
    .join("");
  assert.equal(shown, "I need approval. ");

  const full = await aiMessage("v1_turn_full");
  const deploy = full.message.parts.find((p: Any) => p.type === "tool-deploy");
  assert.equal(deploy.state, "output-available");
  assert.equal(deploy.approval.id, "card-approve");
  assert.equal(deploy.approval.approved, true);
  // approval-responded is the state in between
  const upTo = full.chunks.findIndex((c) => c.type === "tool-approval-response");
  const mid = (await aiFold(full.chunks.slice(0, upTo + 1))).message as Any;
  assert.equal(mid.parts.find((p: Any) => p.type === "tool-deploy").state, "approval-responded");

  const denied = await aiMessage("v1_turn_denied");
  const rm = denied.message.parts.find((p: Any) => p.type === "tool-rm");
  assert.equal(rm.state, "output-denied");
  assert.deepEqual(rm.approval.approved, false);
  assert.deepEqual(rm.approval.reason, "declined");
  assert.equal(rm.approval.descriptor.prompt, "Remove /?"); // the card travels as the descriptor
  const gate = denied.message.parts.find((p: Any) => p.type === "tool-gate");
  assert.equal(gate.state, "output-denied");
  assert.deepEqual([gate.approval.id, gate.approval.approved, gate.approval.reason], [
    "gate-1",
    false,
    "expired",
  ]);
});

Deno.test("an approval card is an AG-UI interrupt: the run ends with the interrupt outcome", async () => {
  const { events } = v1ToAgUiEvents(read("message/v1_turn_awaiting.json"));
  const last = events.at(-1) as Any;
  assert.equal(last.type, "RUN_FINISHED");
  assert.deepEqual(last.outcome.interrupts.map((i: Any) => [i.id, i.reason, i.toolCallId]), [
    ["card-del", "approval", "call-del"],
    ["card-q", "input", undefined],
  ]);
  assert.deepEqual(last.outcome.interrupts[0].responseSchema, {
    type: "object",
    properties: { confirmed: { type: "boolean" } },
  });
  assert.equal(last.outcome.interrupts[0].message, "Delete /tmp/x?");
  assert.equal((await agUiVerify(events)).error, undefined);
});

Deno.test("done while a card is open is refused by both adapters, as by the fold (never a completed turn waiting on input)", () => {
  const envs = [
    envelope(1, { type: "tool_call", callId: "c1", name: "rm" }),
    envelope(2, {
      type: "card",
      card: {
        correlationId: "k",
        prompt: "ok?",
        createdAt: 1,
        approval: { title: "t", question: "q", body: [] },
        callId: "c1",
      },
    }),
    envelope(3, { type: "done" }),
  ];
  const fold = foldChatState(envs).refusals.map((r) => [r.index, r.error.code]);
  assert.deepEqual(fold, [[2, "illegal-transition"]]);
  assert.deepEqual(v1ToUIMessageChunks(envs).refused.map((r) => [r.index, r.error.code]), fold);
  assert.deepEqual(v1ToAgUiEvents(envs).refused.map((r) => [r.index, r.error.code]), fold);
  const a = new V1ToUIMessageChunks();
  for (const e of envs.slice(0, 2)) assert.ok(a.push(e).ok);
  const r = a.push(envs[2]);
  assert.ok(!r.ok && r.error.code === "illegal-transition" && r.error.status === "awaiting-input");
  // a new envelope after the end is `after-terminal`, as before
  const b = new V1ToAgUi();
  assert.ok(b.push(envelope(1, { type: "done" })).ok);
  const after = b.push(envelope(2, { type: "delta", text: "x" }));
  assert.ok(!after.ok && after.error.code === "after-terminal");
});

Deno.test("what a peer cannot carry is reported, never dropped silently", () => {
  const denied = v1ToUIMessageChunks(read("message/v1_turn_denied.json"));
  assert.deepEqual(denied.dropped.map((d) => [d.code, d.seq, d.eventType, d.field]), [
    ["no-peer-field", 4, "tool_result", "summary"],
  ]);
  const waiting = v1ToUIMessageChunks(read("message/v1_turn_awaiting.json"));
  assert.deepEqual(waiting.dropped.map((d) => [d.code, d.seq, d.field]), [[
    "held-text",
    4,
    "text",
  ]]);
  const agWaiting = v1ToAgUiEvents(read("message/v1_turn_awaiting.json"));
  assert.deepEqual(agWaiting.dropped.map((d) => [d.code, d.field]), [["held-text", "text"]]);
  // input / output that is not JSON data: the parser refuses the envelope (a not-json issue)
  const seen: unknown[] = [];
  const ag = v1ToAgUiEvents([
    envelope(1, { type: "tool_call", callId: "c0", name: "x", input: { big: 10n } }),
    envelope(1, { type: "delta", text: "x" }, { at: 1.5 }),
  ], { onDropped: (d) => seen.push(d.field) });
  assert.deepEqual(ag.refused.map((r) => [r.index, r.error.code]), [[0, "invalid-envelope"]]);
  assert.deepEqual(ag.dropped.map((d) => [d.code, d.field]), [["no-peer-field", "at"]]);
  assert.deepEqual(seen, ["at"]);
  // a value that turns non-JSON after parsing is dropped and reported as not-json
  const fickle = () => {
    let reads = 0;
    return {
      get big() {
        return ++reads <= 2 ? 1 : 10n; // JSON for the intake's parse and fold, then a bigint
      },
    };
  };
  const live: unknown[] = [];
  const adapter = new V1ToAgUi({ onDropped: (d) => live.push([d.code, d.field]) });
  adapter.push(envelope(1, { type: "tool_call", callId: "c1", name: "x", input: fickle() }));
  adapter.push(
    envelope(2, { type: "tool_result", callId: "c1", name: "x", ok: true, output: fickle() }),
  );
  assert.deepEqual(live, [["not-json", "input"], ["not-json", "output"]]);
  const noResolution = v1ToUIMessageChunks([
    envelope(1, { type: "tool_call", callId: "c1", name: "x" }),
    envelope(2, {
      type: "card",
      card: {
        correlationId: "k",
        prompt: "ok?",
        createdAt: 1,
        approval: { title: "t", question: "q", body: [] },
        callId: "c1",
      },
    }),
    envelope(3, { type: "card_closed", correlationId: "k" }),
  ]);
  assert.deepEqual(noResolution.dropped.map((d) => [d.code, d.seq]), [["unknown-outcome", 3]]);
});

/** Merge adjacent text segments (drop empty ones) for comparison. */
function merged(segs: readonly TurnTextSegment[]): TurnTextSegment[] {
  return normalizeSegments(segs.filter((s) => s.kind !== "text" || s.text !== ""));
}

/** The segments a client gets from the chunks: text parts and block data parts, in order. */
function chunkSegments(chunks: readonly Any[]): TurnTextSegment[] {
  const out: TurnTextSegment[] = [];
  for (const c of chunks) {
    if (c.type === "text-delta") out.push({ kind: "text", text: c.delta });
    else if (c.type === "data-report" || c.type === "data-ask") {
      out.push({ kind: c.type.slice(5), block: c.data.block } as Any);
    } else if (c.type === "data-invalid_block") out.push({ kind: "invalid", ...c.data });
  }
  return out;
}

function agSegments(events: readonly AgUiEvent[]): TurnTextSegment[] {
  const out: TurnTextSegment[] = [];
  for (const e of events as Any[]) {
    if (e.type === "TEXT_MESSAGE_CONTENT") out.push({ kind: "text", text: e.delta });
    else if (e.type === "CUSTOM" && (e.name === "report" || e.name === "ask")) {
      out.push({ kind: e.name, block: e.value.block } as Any);
    } else if (e.type === "CUSTOM" && e.name === "invalid_block") {
      out.push({ kind: "invalid", ...e.value });
    }
  }
  return out;
}

/** `sofar` is a prefix of `final`: equal but for a last text that `final`'s text there starts with. */
function assertSegPrefix(sofar: unknown[], final: unknown[]): void {
  const n = sofar.length;
  if (n === 0) return;
  assert.ok(n <= final.length, `more segments than the turn has: ${JSON.stringify(sofar)}`);
  assert.deepEqual(sofar.slice(0, n - 1), final.slice(0, n - 1));
  const last = sofar[n - 1] as Any, want = final[n - 1] as Any;
  if (last.kind === "text" && want.kind === "text") {
    assert.ok(want.text.startsWith(last.text), `${JSON.stringify(last.text)} is not final text`);
  } else assert.deepEqual(last, want);
}

const OPEN_TAG = /<(ask|report)>/i;

/** Text segments without `raw` (valid blocks compare by block). */
function comparable(segs: TurnTextSegment[]): unknown[] {
  return segs.map((s) =>
    (s.kind === "report" || s.kind === "ask") ? { kind: s.kind, block: s.block } : s
  );
}

Deno.test("property: any valid v1 turn converts; ai accepts every chunk, AG-UI verifies every run, no partial tag at any chunk boundary, text + blocks are the turn's", async () => {
  let runs = 0;
  await fc.assert(
    fc.asyncProperty(validTurn, async ({ envelopes, ending }) => {
      runs++;
      assert.deepEqual(foldChatState(envelopes).refusals, [], "the generator makes valid turns");
      const state = foldChatState(envelopes).state!;
      const ai = v1ToUIMessageChunks(envelopes);
      const ag = v1ToAgUiEvents(envelopes);
      assert.deepEqual(ai.refused, []);
      assert.deepEqual(ag.refused, []);
      assert.deepEqual(await aiRefusedChunks(ai.chunks), []);
      const folded = await aiFold(ai.chunks);
      assert.deepEqual(folded.errors, ending === "error" ? ["Error: boom"] : []);
      // our fold agrees with the AI SDK's (a final empty metadata update makes
      // readUIMessageStream emit the message after structural chunks too)
      const flushed = [...ai.chunks, { type: "message-metadata", messageMetadata: {} }];
      // where the AI SDK's message fails the document's schema (a tool
      // output while its approval is pending), ours refuses the chunk and
      // passes it instead
      const ours = JSON.parse(JSON.stringify(foldUIMessage(flushed).message));
      const theirs = (await aiFold(flushed)).message;
      if (UIMessageSchema.safeParse(theirs).success) assert.deepEqual(ours, theirs);
      else assert.ok(UIMessageSchema.safeParse(ours).success, JSON.stringify(ours));
      assert.deepEqual(agUiRefusedEvents(ag.events), []);
      const v = await agUiVerify(ag.events);
      assert.equal(v.error, undefined, v.error);
      // nothing a client receives is ever reinterpreted: at every chunk
      // boundary, the text and blocks so far are a prefix of the turn's
      // final segments (a partial tag shown as text would not be); and no
      // opening tag is ever in the text
      const final = comparable(merged(splitTurnText(state.text)));
      const aiInc = new V1ToUIMessageChunks();
      const agInc = new V1ToAgUi();
      const aiSoFar: Any[] = [], agSoFar: AgUiEvent[] = [];
      let text = "", agText = "";
      for (const env of envelopes) {
        const a = aiInc.push(env), g = agInc.push(env);
        assert.ok(a.ok && g.ok);
        for (const c of a.value as Any[]) {
          aiSoFar.push(c);
          if (c.type === "text-delta") text += c.delta;
          assertSegPrefix(comparable(merged(chunkSegments(aiSoFar))), final);
        }
        for (const e of g.value as Any[]) {
          agSoFar.push(e);
          if (e.type === "TEXT_MESSAGE_CONTENT") agText += e.delta;
          assertSegPrefix(comparable(merged(agSegments(agSoFar))), final);
        }
      }
      assert.doesNotMatch(text, OPEN_TAG);
      assert.doesNotMatch(agText, OPEN_TAG);
      // text + blocks: exactly the turn text's segments once it ended; a
      // prefix of them (held text reported) while it runs
      const expected = comparable(merged(splitTurnText(state.text)));
      const fromAi = comparable(merged(chunkSegments(ai.chunks)));
      const fromAg = comparable(merged(agSegments(ag.events)));
      assert.deepEqual(fromAg, fromAi);
      if (ending !== "open") assert.deepEqual(fromAi, expected);
      else {
        const held = ai.dropped.filter((d) => d.code === "held-text");
        assert.ok(held.length <= 1);
        if (held.length === 0) assert.deepEqual(fromAi, expected);
      }
    }),
    { numRuns: 1_000 },
  );
  assert.equal(runs, 1_000);
});

Deno.test("extension events reach both peers: AI SDK data-<name> parts by channel, AG-UI CUSTOM ext; elided as itself", async () => {
  const envs = [
    envelope(1, { type: "ext", name: "scout.products", channel: "state", data: { ids: ["p1"] } }),
    envelope(2, { type: "ext", name: "scout.log", data: "searched" }),
    envelope(3, { type: "ext", name: "scout.hint", channel: "transient", data: { id: "p1" } }),
    envelope(4, { type: "ext", name: "scout.products", channel: "state", data: { ids: ["p2"] } }),
    envelope(5, { type: "ext", name: "scout.log", channel: "event", data: "found" }),
    envelope(6, { type: "elided", of: "navigate" }),
    envelope(7, { type: "done" }),
  ];
  assert.deepEqual(foldChatState(envs).refusals, []);
  const ai = v1ToUIMessageChunks(envs);
  assert.deepEqual([ai.refused, ai.dropped], [[], []]);
  const data = ai.chunks.filter((c) => c.type.startsWith("data-"));
  assert.deepEqual(data, [
    { type: "data-scout__products", id: "scout.products", data: { ids: ["p1"] } },
    { type: "data-scout__log", data: "searched" },
    { type: "data-scout__hint", data: { id: "p1" }, transient: true },
    { type: "data-scout__products", id: "scout.products", data: { ids: ["p2"] } },
    { type: "data-scout__log", data: "found" },
    { type: "data-elided", data: { of: "navigate" }, transient: true },
  ]);
  assert.deepEqual(await aiRefusedChunks(ai.chunks), []);
  // the AI SDK's own fold: the state-channel part is replaced (last write wins), events append
  const { message } = await aiFold(ai.chunks);
  assert.deepEqual(
    (message as Any).parts.filter((p: Any) => p.type.startsWith("data-")),
    [
      { type: "data-scout__products", id: "scout.products", data: { ids: ["p2"] } },
      { type: "data-scout__log", data: "searched" },
      { type: "data-scout__log", data: "found" },
    ],
  );
  const ag = v1ToAgUiEvents(envs);
  assert.deepEqual([ag.refused, ag.dropped], [[], []]);
  assert.deepEqual(
    ag.events.filter((e) => e.type === "CUSTOM"),
    [
      { type: "CUSTOM", name: "ext", value: envs[0].event },
      { type: "CUSTOM", name: "ext", value: envs[1].event },
      { type: "CUSTOM", name: "ext", value: envs[2].event },
      { type: "CUSTOM", name: "ext", value: envs[3].event },
      { type: "CUSTOM", name: "ext", value: envs[4].event },
      { type: "CUSTOM", name: "elided", value: { of: "navigate" } },
    ].map((e) => {
      const { type: _t, ...value } = e.value as Record<string, unknown>;
      return { ...e, value };
    }),
  );
  assert.deepEqual(agUiRefusedEvents(ag.events), []);
  const verified = await agUiVerify(ag.events);
  assert.equal(verified.error, undefined);
});
