/**
 * Behavioural cases of the v1 fold: a frame stream (JSON values, NDJSON or
 * SSE text) pushed envelope by envelope into one turn's fold → the folded
 * `ChatStateV1` and the refusals (frame index and code).
 *
 * @module
 */
import type { CaseDef, CaseGroup } from "./_def.ts";
import type { Json, JsonObject } from "../../conformance/ts/kinds.ts";

const TURN = { conversationId: "c1", turnId: "t1" };

/** An event, or an event with envelope overrides (`seq`, `eventId`, ids, `at`, extra keys). */
type Step = JsonObject | [JsonObject, JsonObject];

/** Envelopes for `steps`: seq 1, 2, 3 … and eventId e1, e2, e3 … unless overridden. */
export function turn(steps: Step[]): JsonObject[] {
  return steps.map((s, i) => {
    const [event, over] = Array.isArray(s) ? s : [s, {}];
    return {
      schemaVersion: 1,
      conversationId: "c1",
      turnId: "t1",
      eventId: `e${i + 1}`,
      seq: i + 1,
      ...over,
      event,
    };
  });
}

const ev = (type: string, fields: JsonObject = {}): JsonObject => ({ type, ...fields });
const delta = (text: string) => ev("delta", { text });
const done = ev("done");
const card = (id: string, extra: JsonObject = {}) =>
  ev("card", {
    card: { correlationId: id, prompt: `Question ${id}?`, createdAt: 1767225600000, ...extra },
  });
const closed = (id: string, resolution?: string) =>
  ev(
    "card_closed",
    resolution === undefined ? { correlationId: id } : { correlationId: id, resolution },
  );
const call = (callId: string, name = "search", input?: Json) =>
  ev("tool_call", input === undefined ? { callId, name } : { callId, name, input });
const result = (callId: string, ok = true, fields: JsonObject = {}) =>
  ev("tool_result", { callId, name: "search", ok, ...fields });
const status = (s: string, reason?: string) =>
  ev("turn_status", reason === undefined ? { status: s } : { status: s, reason });
const error = (fields: JsonObject = {}) =>
  ev("error", { message: "boom", retryable: false, ...fields });

function fold(
  id: string,
  description: string,
  kill: string,
  input: JsonObject | Json[],
  want: JsonObject,
  rules?: string[],
): CaseDef {
  const i: JsonObject = Array.isArray(input)
    ? { turn: TURN, frames: input }
    : { turn: TURN, ...input };
  const w: JsonObject = { refusals: [], ...want };
  return { id: `fold.${id}`, kind: "fold", description, kill, rules, input: i, want: w };
}
const refused = (...r: [number, string][]) => r.map(([index, code]) => ({ index, code }));

const order: CaseDef[] = [
  fold(
    "order.in-order",
    "three deltas in seq order fold into one text",
    "v1.fold.text",
    turn([delta("Hel"), delta("lo"), delta("!")]),
    { state: { text: "Hello!", lastSeq: 3, lastEventId: "e3", status: "running" } },
  ),
  fold(
    "order.gap-one",
    "seq 1 then seq 3 is a gap at frame 1; seq 2 then applies",
    "v1.order.gap",
    turn([delta("a"), [delta("c"), { seq: 3, eventId: "e3" }], [delta("b"), {
      seq: 2,
      eventId: "e2",
    }]]),
    { refusals: refused([1, "gap"]), state: { text: "ab", lastSeq: 2 } },
  ),
  fold(
    "order.first-seq-two",
    "the first event must have seq 1",
    "v1.order.gap",
    turn([[delta("x"), { seq: 2 }]]),
    { refusals: refused([0, "gap"]), state: { lastSeq: 0, lastEventId: null, text: "" } },
  ),
  fold(
    "order.gap-many",
    "seq 1 then seq 10 skips 2–9",
    "v1.order.gap",
    turn([delta("a"), [delta("j"), { seq: 10 }], [delta("b"), { seq: 2 }]]),
    { refusals: refused([1, "gap"]), state: { text: "ab" } },
  ),
  fold(
    "order.gap-keeps-refusing",
    "after a gap nothing moves: the next frame with a later seq is a gap too",
    "v1.order.gap",
    turn([delta("a"), [delta("c"), { seq: 3 }], [delta("d"), { seq: 4 }]]),
    { refusals: refused([1, "gap"], [2, "gap"]), state: { text: "a", lastSeq: 1 } },
  ),
  fold("order.duplicate-resend", "the same envelope twice is a duplicate", "v1.order.duplicate", [
    ...turn([delta("a"), delta("b")]),
    ...turn([delta("b")]).map((e) => ({ ...e, seq: 2, eventId: "e2" })),
  ], { refusals: refused([2, "duplicate"]), state: { text: "ab" } }),
  fold(
    "order.duplicate-older",
    "an older envelope re-sent after newer ones is a duplicate",
    "v1.order.duplicate",
    [...turn([delta("a"), delta("b"), delta("c")]), turn([delta("a")])[0]],
    { refusals: refused([3, "duplicate"]), state: { text: "abc", lastSeq: 3 } },
  ),
  fold(
    "order.duplicate-done",
    "a re-sent done after done is a duplicate, not an illegal transition",
    "v1.order.duplicate",
    [...turn([delta("a"), done]), turn([delta("a"), done])[1]],
    { refusals: refused([2, "duplicate"]), state: { status: "completed" } },
  ),
  fold(
    "order.reordered-new-id",
    "seq 2 again with a new eventId is reordered",
    "v1.order.reordered",
    turn([delta("a"), delta("b"), [delta("x"), { seq: 2, eventId: "other" }]]),
    { refusals: refused([2, "reordered"]), state: { text: "ab" } },
  ),
  fold(
    "order.reordered-old",
    "seq 1 with a new eventId after seq 3 is reordered",
    "v1.order.reordered",
    turn([delta("a"), delta("b"), delta("c"), [delta("z"), { seq: 1, eventId: "late" }]]),
    { refusals: refused([3, "reordered"]), state: { text: "abc" } },
  ),
  fold(
    "order.swap",
    "1, 3, 2 pushed one by one: 3 is a gap, then 2 applies",
    "v1.order.gap",
    turn([delta("1"), [delta("3"), { seq: 3 }], [delta("2"), { seq: 2 }]]),
    { refusals: refused([1, "gap"]), state: { text: "12", lastSeq: 2 } },
  ),
  fold(
    "order.foreign-conversation",
    "an envelope of another conversation is refused",
    "v1.order.foreign-conversation",
    turn([delta("a"), [delta("x"), { conversationId: "c2" }], [delta("b"), { seq: 2 }]]),
    { refusals: refused([1, "foreign-conversation"]), state: { text: "ab", conversationId: "c1" } },
  ),
  fold(
    "order.foreign-conversation-first",
    "the conversation is checked before the turn",
    "v1.order.foreign-conversation",
    turn([[delta("x"), { conversationId: "c2", turnId: "t2" }]]),
    { refusals: refused([0, "foreign-conversation"]), state: { text: "" } },
  ),
  fold(
    "order.foreign-turn",
    "an envelope of another turn is refused",
    "v1.order.foreign-turn",
    turn([delta("a"), [delta("x"), { turnId: "t2" }], [delta("b"), { seq: 2 }]]),
    { refusals: refused([1, "foreign-turn"]), state: { text: "ab" } },
  ),
  fold(
    "order.foreign-turn-seq-one",
    "another turn's seq 1 is foreign, not a duplicate",
    "v1.order.foreign-turn",
    turn([delta("a"), [delta("a"), { turnId: "t2", seq: 1, eventId: "e1" }]]),
    { refusals: refused([1, "foreign-turn"]) },
  ),
  fold(
    "order.cursor-after-refusal",
    "a refused last frame leaves the cursor at the last applied one",
    "v1.fold.cursor",
    turn([delta("a"), delta("b"), [delta("x"), { seq: 7, eventId: "e7" }]]),
    { refusals: refused([2, "gap"]), state: { lastSeq: 2, lastEventId: "e2" } },
  ),
  fold(
    "order.cursor-after-foreign",
    "a foreign last frame leaves the cursor",
    "v1.fold.cursor",
    turn([delta("a"), [delta("x"), { turnId: "t9" }]]),
    { refusals: refused([1, "foreign-turn"]), state: { lastSeq: 1, lastEventId: "e1" } },
  ),
];

const frames: CaseDef[] = [
  fold(
    "frame.invalid-json",
    "a frame that is not JSON is refused and skipped",
    "v1.frame.invalid-json",
    {
      ndjson: [
        JSON.stringify(turn([delta("a")])[0]),
        "{not json",
        JSON.stringify(turn([delta("a"), delta("b")])[1]),
      ].join("\n"),
    },
    { refusals: refused([1, "invalid-json"]), state: { text: "ab" } },
  ),
  fold("frame.truncated-json", "a truncated line is invalid-json", "v1.frame.invalid-json", {
    ndjson: JSON.stringify(turn([delta("a")])[0]) + "\n" +
      JSON.stringify(turn([delta("a"), delta("b")])[1]).slice(0, 40) + "\n",
  }, { refusals: refused([1, "invalid-json"]), state: { text: "a" } }),
  fold(
    "frame.ndjson-crlf-blank",
    "NDJSON with CRLF line ends and blank lines: blank lines are not frames",
    "v1.fold.text",
    {
      ndjson: turn([delta("a"), delta("b")]).map((e) => JSON.stringify(e)).join("\r\n\r\n") +
        "\r\n",
    },
    { state: { text: "ab", lastSeq: 2 } },
  ),
  fold(
    "frame.number-one-point-zero",
    "schemaVersion and seq written 1.0 / 2.0 are the numbers 1 and 2",
    "v1.fold.text",
    {
      ndjson: turn([delta("a"), delta("b")]).map((e) =>
        JSON.stringify(e).replace('"schemaVersion":1', '"schemaVersion":1.0').replace(
          /"seq":(\d)/,
          '"seq":$1.0',
        )
      ).join("\n"),
    },
    { state: { text: "ab", lastSeq: 2 } },
    ["v1.envelope.schema-version", "v1.envelope.seq"],
  ),
  fold(
    "frame.unsupported-version",
    "a schemaVersion 2 frame is unsupported-version and skipped",
    "v1.envelope.schema-version",
    turn([delta("a"), [delta("b"), { schemaVersion: 2 }], [delta("c"), { seq: 2 }]]),
    { refusals: refused([1, "unsupported-version"]), state: { text: "ac" } },
  ),
  fold(
    "frame.v0-frame",
    "a v0 payload (no schemaVersion) is unsupported-version",
    "v1.envelope.schema-version",
    [turn([delta("a")])[0], { type: "delta", text: "v0" }],
    { refusals: refused([1, "unsupported-version"]), state: { text: "a" } },
  ),
  fold(
    "frame.unknown-type",
    "a Scout products event is unknown-event-type",
    "v1.envelope.event-type",
    turn([delta("a"), [ev("products", { items: [] }), { seq: 2 }]]),
    { refusals: refused([1, "unknown-event-type"]), state: { lastSeq: 1 } },
  ),
  fold(
    "frame.retry-rule",
    "an error with retryAfterMs but retryable false is invalid and the turn keeps running",
    "v1.event.retry-rule",
    turn([delta("a"), error({ retryAfterMs: 500 })]),
    { refusals: refused([1, "invalid-envelope"]), state: { status: "running" } },
  ),
  fold(
    "frame.retry-allowed",
    "an error with retryable true and retryAfterMs fails the turn with both kept",
    "v1.event.retry-rule",
    turn([error({ retryable: true, retryAfterMs: 0, code: "rate_limited" })]),
    {
      state: {
        status: "failed",
        error: { message: "boom", code: "rate_limited", retryable: true, retryAfterMs: 0 },
      },
    },
  ),
  fold(
    "frame.error-needs-retryable",
    "an error without retryable is invalid",
    "v1.event.error",
    turn([delta("a"), ev("error", { message: "m" })]),
    { refusals: refused([1, "invalid-envelope"]), state: { status: "running" } },
  ),
  fold(
    "frame.tool-call-needs-id",
    "a tool_call without callId is invalid",
    "v1.event.tool-call",
    turn([ev("tool_call", { name: "search" })]),
    { refusals: refused([0, "invalid-envelope"]), state: { tools: [] } },
  ),
  fold(
    "frame.bad-seq",
    "a frame with seq 0 is invalid, not a duplicate",
    "v1.envelope.seq",
    turn([delta("a"), [delta("b"), { seq: 0 }]]),
    { refusals: refused([1, "invalid-envelope"]) },
  ),
  fold(
    "frame.bad-id",
    "a frame with an empty eventId is invalid",
    "v1.envelope.ids",
    turn([[delta("a"), { eventId: "" }]]),
    { refusals: refused([0, "invalid-envelope"]) },
  ),
  fold("frame.not-object", "a frame that is a JSON array is invalid", "v1.envelope.object", [
    [1, 2],
    ...turn([delta("a")]),
  ], { refusals: refused([0, "invalid-envelope"]), state: { text: "a" } }),
  fold(
    "frame.unknown-keys-stripped",
    "unknown keys are stripped; opaque tool input is kept as is",
    "v1.envelope.unknown-keys",
    turn([[
      ev("tool_call", {
        callId: "k1",
        name: "search",
        input: { q: "x", extra: [1] },
        hint: "drop me",
      }),
      { trace: "t" },
    ]]),
    {
      state: {
        tools: [{
          callId: "k1",
          name: "search",
          status: "running",
          startedSeq: 1,
          input: { q: "x", extra: [1] },
        }],
      },
    },
  ),
  fold("frame.at-zero", "at 0 is accepted", "v1.envelope.at", turn([[delta("a"), { at: 0 }]]), {
    state: { text: "a" },
  }),
  fold(
    "frame.empty-delta",
    "an empty delta is applied (the cursor moves) and adds no text",
    "v1.event.text",
    turn([delta("a"), delta(""), delta("b")]),
    { state: { text: "ab", lastSeq: 3 } },
  ),
  fold(
    "frame.progress-bounds",
    "progress 1 is accepted",
    "v1.event.tool-progress",
    turn([call("k1"), ev("tool_progress", { callId: "k1", progress: 1 })]),
    { state: { tools: [{ callId: "k1", progress: 1 }] } },
  ),
];

const lifecycle: CaseDef[] = [
  fold(
    "lifecycle.done",
    "done completes a running turn",
    "v1.lifecycle.done-completes",
    turn([
      delta("Hi"),
      ev("done", { stopReason: "complete", usage: { totalTokens: 12, costUsd: 0.001 } }),
    ]),
    {
      state: {
        status: "completed",
        done: { stopReason: "complete", usage: { totalTokens: 12, costUsd: 0.001 } },
      },
    },
  ),
  fold(
    "lifecycle.done-empty",
    "a bare done completes with an empty done",
    "v1.lifecycle.done-completes",
    turn([done]),
    { state: { status: "completed", done: {} } },
  ),
  fold(
    "lifecycle.error",
    "error fails the turn and is kept",
    "v1.lifecycle.error-fails",
    turn([delta("a"), error({ code: "upstream" })]),
    { state: { status: "failed", error: { message: "boom", code: "upstream", retryable: false } } },
  ),
  fold(
    "lifecycle.error-while-awaiting",
    "error fails a turn that waits on a card",
    "v1.lifecycle.error-fails",
    turn([card("q1"), error()]),
    { state: { status: "failed" } },
  ),
  fold(
    "lifecycle.error-while-interrupted",
    "error is accepted while interrupted",
    "v1.lifecycle.error-fails",
    turn([status("interrupted"), error()]),
    { state: { status: "failed" } },
  ),
  fold(
    "lifecycle.after-done",
    "nothing is accepted after done",
    "v1.lifecycle.terminal",
    turn([done, delta("late")]),
    { refusals: refused([1, "illegal-transition"]), state: { status: "completed", text: "" } },
  ),
  fold(
    "lifecycle.done-after-done",
    "a second done with a new id is illegal",
    "v1.lifecycle.terminal",
    turn([done, done]),
    { refusals: refused([1, "illegal-transition"]), state: { lastSeq: 1 } },
  ),
  fold(
    "lifecycle.error-after-done",
    "an error after done is illegal",
    "v1.lifecycle.terminal",
    turn([done, error()]),
    { refusals: refused([1, "illegal-transition"]), state: { status: "completed" } },
  ),
  fold(
    "lifecycle.after-error",
    "nothing is accepted after error",
    "v1.lifecycle.terminal",
    turn([error(), status("running")]),
    { refusals: refused([1, "illegal-transition"]), state: { status: "failed" } },
  ),
  fold(
    "lifecycle.after-cancel",
    "cancelled is terminal: running again is illegal",
    "v1.lifecycle.terminal",
    turn([status("cancelled", "user stop"), status("running"), delta("x")]),
    {
      refusals: refused([1, "illegal-transition"], [2, "gap"]),
      state: { status: "cancelled", statusReason: "user stop" },
    },
  ),
  fold(
    "lifecycle.cancel",
    "turn_status cancelled cancels with its reason",
    "v1.lifecycle.turn-status",
    turn([delta("a"), status("cancelled", "user pressed stop")]),
    { state: { status: "cancelled", statusReason: "user pressed stop" } },
  ),
  fold(
    "lifecycle.interrupt-resume",
    "interrupted, then running again, then content",
    "v1.lifecycle.turn-status",
    turn([
      delta("a"),
      status("interrupted", "host restart"),
      status("running", "recovered"),
      delta("b"),
    ]),
    { state: { status: "running", statusReason: "recovered", text: "ab" } },
  ),
  fold(
    "lifecycle.reconcile",
    "needs-reconciliation, then running",
    "v1.lifecycle.turn-status",
    turn([call("k1"), status("needs-reconciliation", "lost ack")]),
    { state: { status: "needs-reconciliation", statusReason: "lost ack" } },
  ),
  fold(
    "lifecycle.paused-delta",
    "a delta while interrupted is illegal",
    "v1.lifecycle.paused",
    turn([status("interrupted"), delta("x")]),
    { refusals: refused([1, "illegal-transition"]), state: { status: "interrupted", text: "" } },
  ),
  fold(
    "lifecycle.paused-tool",
    "a tool_call while needs-reconciliation is illegal",
    "v1.lifecycle.paused",
    turn([status("needs-reconciliation"), call("k1")]),
    { refusals: refused([1, "illegal-transition"]), state: { tools: [] } },
  ),
  fold(
    "lifecycle.paused-done",
    "done while interrupted is illegal",
    "v1.lifecycle.paused",
    turn([status("interrupted"), done]),
    { refusals: refused([1, "illegal-transition"]), state: { status: "interrupted" } },
  ),
  fold(
    "lifecycle.paused-card",
    "a card while interrupted is illegal",
    "v1.lifecycle.paused",
    turn([status("interrupted"), card("q1")]),
    { refusals: refused([1, "illegal-transition"]), state: { openCards: [] } },
  ),
  fold(
    "lifecycle.interrupted-to-reconcile",
    "interrupted → needs-reconciliation is not a transition",
    "v1.lifecycle.transitions",
    turn([status("interrupted"), status("needs-reconciliation")]),
    { refusals: refused([1, "illegal-transition"]), state: { status: "interrupted" } },
  ),
  fold(
    "lifecycle.reconcile-to-interrupted",
    "needs-reconciliation → interrupted is a transition",
    "v1.lifecycle.turn-status",
    turn([status("needs-reconciliation"), status("interrupted")]),
    { state: { status: "interrupted" } },
  ),
  fold(
    "lifecycle.same-status-running",
    "turn_status running while running is an accepted no-op",
    "v1.lifecycle.same-status",
    turn([delta("a"), status("running", "heartbeat")]),
    { state: { status: "running", statusReason: "heartbeat", lastSeq: 2 } },
  ),
  fold(
    "lifecycle.same-status-interrupted",
    "interrupted twice is an accepted no-op",
    "v1.lifecycle.same-status",
    turn([status("interrupted"), status("interrupted", "still down")]),
    { state: { status: "interrupted", statusReason: "still down" } },
  ),
  fold(
    "lifecycle.card-awaits",
    "a card moves the turn to awaiting-input",
    "v1.lifecycle.card-awaits-input",
    turn([delta("Pick one"), card("q1")]),
    { state: { status: "awaiting-input", openCards: [{ correlationId: "q1" }] } },
  ),
  fold(
    "lifecycle.awaiting-content",
    "deltas and tools are accepted while awaiting input",
    "v1.lifecycle.card-awaits-input",
    turn([card("q1"), delta("while you think"), call("k1"), result("k1")]),
    { state: { status: "awaiting-input", text: "while you think" } },
  ),
  fold(
    "lifecycle.done-with-open-card",
    "done is refused while a card is open",
    "v1.lifecycle.no-complete-with-open-card",
    turn([card("q1"), done]),
    { refusals: refused([1, "illegal-transition"]), state: { status: "awaiting-input" } },
  ),
  fold(
    "lifecycle.close-resumes",
    "closing the only card resumes running",
    "v1.lifecycle.last-card-resumes",
    turn([card("q1"), closed("q1", "submitted")]),
    {
      state: { status: "running", closedCards: [{ correlationId: "q1", resolution: "submitted" }] },
    },
  ),
  fold(
    "lifecycle.close-then-done",
    "after the card is answered, done completes",
    "v1.lifecycle.done-completes",
    turn([card("q1"), closed("q1", "submitted"), done]),
    { state: { status: "completed" } },
  ),
  fold(
    "lifecycle.close-one-of-two",
    "closing one of two cards keeps awaiting-input",
    "v1.lifecycle.card-awaits-input",
    turn([card("q1"), card("q2"), closed("q1")]),
    { state: { status: "awaiting-input", openCards: [{ correlationId: "q2" }] } },
  ),
  fold(
    "lifecycle.close-last-of-two",
    "closing the second card resumes running",
    "v1.lifecycle.last-card-resumes",
    turn([card("q1"), card("q2"), closed("q2"), closed("q1", "declined")]),
    { state: { status: "running", openCards: [] } },
  ),
  fold(
    "lifecycle.resume-with-card",
    "turn_status running while a card is open resumes to awaiting-input",
    "v1.lifecycle.resume-with-open-cards",
    turn([card("q1"), status("interrupted"), status("running")]),
    { state: { status: "awaiting-input", openCards: [{ correlationId: "q1" }] } },
  ),
  fold(
    "lifecycle.cancel-with-card",
    "a turn waiting on a card can be cancelled",
    "v1.lifecycle.turn-status",
    turn([card("q1"), status("cancelled", "timeout")]),
    { state: { status: "cancelled" } },
  ),
];

const tools: CaseDef[] = [
  fold(
    "tools.call-progress-result",
    "a tool call, its progress and its result",
    "v1.fold.tool-result",
    turn([
      call("k1", "search", { q: "shoes" }),
      ev("tool_progress", { callId: "k1", progress: 0.5, message: "half" }),
      result("k1", true, {
        summary: "3 hits",
        output: { hits: 3 },
        blocks: [{ id: "b1", text: "Hit", sources: [{ ref: "doc:1", label: "Doc" }] }],
      }),
    ]),
    {
      state: {
        tools: [{
          callId: "k1",
          name: "search",
          input: { q: "shoes" },
          status: "ok",
          progress: 0.5,
          progressMessage: "half",
          summary: "3 hits",
          output: { hits: 3 },
          blocks: [{ id: "b1", text: "Hit", sources: [{ ref: "doc:1", label: "Doc" }] }],
          startedSeq: 1,
          finishedSeq: 3,
        }],
      },
    },
  ),
  fold(
    "tools.result-not-ok",
    "ok false marks the tool error; the turn survives",
    "v1.fold.tool-result",
    turn([call("k1"), result("k1", false, { summary: "timeout" }), delta("sorry")]),
    {
      state: {
        status: "running",
        tools: [{ callId: "k1", status: "error", summary: "timeout", finishedSeq: 2 }],
      },
    },
  ),
  fold(
    "tools.progress-last-wins",
    "the last progress wins",
    "v1.fold.tool-progress",
    turn([
      call("k1"),
      ev("tool_progress", { callId: "k1", progress: 0.2, message: "a" }),
      ev("tool_progress", { callId: "k1", progress: 0.9 }),
    ]),
    {
      state: { tools: [{ callId: "k1", status: "running", progress: 0.9, progressMessage: "a" }] },
    },
  ),
  fold(
    "tools.two-calls",
    "two calls keep their start order",
    "v1.fold.tool-result",
    turn([call("k1"), call("k2", "fetch"), { ...result("k2"), name: "fetch" }, result("k1")]),
    {
      state: {
        tools: [{ callId: "k1", status: "ok", startedSeq: 1, finishedSeq: 4 }, {
          callId: "k2",
          name: "fetch",
          status: "ok",
          startedSeq: 2,
          finishedSeq: 3,
        }],
      },
    },
  ),
  fold(
    "tools.duplicate-call",
    "a second tool_call with the same callId is refused",
    "v1.tools.duplicate-call",
    turn([call("k1"), call("k1")]),
    { refusals: refused([1, "duplicate-call"]), state: { tools: [{ callId: "k1" }], lastSeq: 1 } },
  ),
  fold(
    "tools.duplicate-after-result",
    "a callId is never reused, even after its result",
    "v1.tools.duplicate-call",
    turn([call("k1"), result("k1"), call("k1")]),
    { refusals: refused([2, "duplicate-call"]) },
  ),
  fold(
    "tools.unknown-result",
    "a result for a call never made is refused",
    "v1.tools.unknown-call",
    turn([result("ghost")]),
    { refusals: refused([0, "unknown-call"]), state: { tools: [] } },
  ),
  fold(
    "tools.unknown-progress",
    "progress for a call never made is refused",
    "v1.tools.unknown-call",
    turn([call("k1"), ev("tool_progress", { callId: "k2", progress: 0.1 })]),
    { refusals: refused([1, "unknown-call"]) },
  ),
  fold(
    "tools.finished-result",
    "a second result is refused",
    "v1.tools.finished-call",
    turn([call("k1"), result("k1"), result("k1", false)]),
    { refusals: refused([2, "finished-call"]), state: { tools: [{ status: "ok" }] } },
  ),
  fold(
    "tools.finished-progress",
    "progress after the result is refused",
    "v1.tools.finished-call",
    turn([call("k1"), result("k1"), ev("tool_progress", { callId: "k1", progress: 1 })]),
    { refusals: refused([2, "finished-call"]) },
  ),
  fold(
    "tools.mismatch",
    "a result naming another tool is refused",
    "v1.tools.call-mismatch",
    turn([call("k1", "search"), { ...result("k1"), name: "fetch" }]),
    { refusals: refused([1, "call-mismatch"]), state: { tools: [{ status: "running" }] } },
  ),
];

const cards: CaseDef[] = [
  fold(
    "cards.order",
    "open cards in open order, closed ones in close order with resolutions",
    "v1.fold.cards",
    turn([
      card("q1"),
      card("q2"),
      card("q3", { presentation: { kind: "radio", options: [{ id: "a", label: "A" }] } }),
      closed("q2", "submitted"),
      closed("q1", "expired"),
    ]),
    {
      state: {
        status: "awaiting-input",
        openCards: [{
          correlationId: "q3",
          presentation: { kind: "radio", options: [{ id: "a", label: "A" }] },
        }],
        closedCards: [{ correlationId: "q2", resolution: "submitted" }, {
          correlationId: "q1",
          resolution: "expired",
        }],
      },
    },
  ),
  fold(
    "cards.two-open",
    "two open cards listed in open order",
    "v1.fold.cards",
    turn([card("b"), card("a")]),
    { state: { openCards: [{ correlationId: "b" }, { correlationId: "a" }] } },
  ),
  fold(
    "cards.duplicate-open",
    "a card that is already open is refused",
    "v1.cards.duplicate-card",
    turn([card("q1"), card("q1")]),
    { refusals: refused([1, "duplicate-card"]), state: { openCards: [{ correlationId: "q1" }] } },
  ),
  fold(
    "cards.reopen-closed",
    "an answered card never re-prompts",
    "v1.cards.duplicate-card",
    turn([card("q1"), closed("q1", "submitted"), card("q1")]),
    { refusals: refused([2, "duplicate-card"]), state: { status: "running", openCards: [] } },
  ),
  fold(
    "cards.close-unknown",
    "closing a card never opened is refused",
    "v1.cards.unknown-card",
    turn([closed("nope")]),
    { refusals: refused([0, "unknown-card"]), state: { closedCards: [] } },
  ),
  fold(
    "cards.close-twice",
    "closing a card twice is refused",
    "v1.cards.unknown-card",
    turn([card("q1"), closed("q1"), closed("q1", "cancelled")]),
    { refusals: refused([2, "unknown-card"]), state: { closedCards: [{ correlationId: "q1" }] } },
  ),
  fold(
    "cards.product-kind",
    "a product card kind passes through the fold as is",
    "v1.event.card",
    turn([card("q1", { presentation: { kind: "rating", stars: 5 } })]),
    { state: { openCards: [{ correlationId: "q1", presentation: { kind: "rating", stars: 5 } }] } },
  ),
];

const content: CaseDef[] = [
  fold(
    "content.reasoning",
    "reasoning fragments concatenate apart from text",
    "v1.fold.reasoning",
    turn([ev("reasoning", { text: "think " }), ev("reasoning", { text: "more" }), delta("answer")]),
    { state: { reasoning: "think more", text: "answer" } },
  ),
  fold(
    "content.last-write",
    "the last session, provenance and state win",
    "v1.fold.last-write-wins",
    turn([
      ev("session", { sessionId: "s1" }),
      ev("provenance", { engine: "loop", model: "m1" }),
      ev("state", { version: 1, snapshot: { cart: [] } }),
      ev("session", { sessionId: "s2" }),
      ev("provenance", { engine: "codex", model: "m2", provider: "openai", accountRoute: null }),
      ev("state", { version: 2, snapshot: null }),
    ]),
    {
      state: {
        sessionId: "s2",
        provenance: { engine: "codex", model: "m2", provider: "openai", accountRoute: null },
        state: { version: 2, snapshot: null },
      },
    },
  ),
  fold(
    "content.navigate",
    "navigate is transient: it moves the cursor and nothing else (an empty href too)",
    "v1.event.navigate",
    turn([delta("a"), ev("navigate", { href: "" })]),
    { state: { text: "a", lastSeq: 2, lastEventId: "e2" } },
  ),
  fold(
    "content.unicode",
    "text keeps every character (astral, combining, NUL)",
    "v1.fold.text",
    turn([delta("𝄞"), delta("e\u0301"), delta("\u0000")]),
    { state: { text: "𝄞e\u0301\u0000" } },
  ),
  fold(
    "content.full-turn",
    "a whole turn: session, provenance, text, a tool, a card answered, done",
    "v1.lifecycle.done-completes",
    turn([
      ev("session", { sessionId: "s" }),
      ev("provenance", { engine: "loop", model: "m" }),
      delta("Let me look. "),
      call("k1", "search", { q: "x" }),
      result("k1", true, { summary: "ok" }),
      card("q1"),
      closed("q1", "submitted"),
      delta("Done."),
      ev("done", { stopReason: "complete" }),
    ]),
    { state: { status: "completed", text: "Let me look. Done.", lastSeq: 9 } },
  ),
];

/** v1 over SSE: each message's data is one envelope. */
function sse(envs: JsonObject[], sep = "\n"): string {
  return envs.map((e) =>
    `id: ${e.eventId}${sep}event: ${(e.event as JsonObject).type}${sep}data: ${
      JSON.stringify(e)
    }${sep}${sep}`
  ).join("");
}
const overSse: CaseDef[] = [
  fold("sse.frames", "v1 envelopes over SSE fold like NDJSON", "v1.fold.text", {
    sse: sse(turn([delta("a"), delta("b"), done])),
  }, { state: { text: "ab", status: "completed" } }),
  fold("sse.crlf", "SSE with CRLF line ends", "sse.line-endings", {
    sse: sse(turn([delta("a"), delta("b")]), "\r\n"),
  }, { state: { text: "ab" } }),
  fold("sse.cr", "SSE with CR line ends", "sse.line-endings", {
    sse: sse(turn([delta("a")]), "\r"),
  }, { state: { text: "a" } }),
  fold("sse.comments", "heartbeat comments between frames are not frames", "v1.fold.text", {
    sse: ": ping\n\n" + sse(turn([delta("a")])) + ":\n\n" +
      sse(turn([delta("a"), delta("b")]).slice(1)),
  }, { state: { text: "ab" } }),
  fold(
    "sse.unterminated",
    "a last frame without its blank line is not dispatched",
    "sse.unterminated",
    { sse: sse(turn([delta("a"), delta("b")])).slice(0, -1) },
    { state: { text: "a", lastSeq: 1 } },
  ),
  fold(
    "sse.split-data",
    "an envelope split between JSON tokens over two data lines is joined with LF (JSON allows it)",
    "v1.fold.text",
    {
      sse:
        `data: {"schemaVersion":1,"conversationId":"c1","turnId":"t1",\ndata: "eventId":"e1","seq":1,"event":{"type":"delta","text":"a"}}\n\n` +
        sse(turn([delta("a"), delta("b")]).slice(1)),
    },
    { state: { text: "ab" } },
    ["sse.data-join"],
  ),
  fold(
    "sse.split-string",
    "data lines split inside a JSON string are joined with LF, a raw LF in a string: invalid-json",
    "sse.data-join",
    {
      sse:
        `data: {"schemaVersion":1,"conversationId":"c1","turnId":"t1","eventId":"e1","seq":1,"event":{"type":"delta","text":"a\ndata: b"}}\n\n`,
    },
    { refusals: refused([0, "invalid-json"]), state: { text: "" } },
  ),
  fold(
    "sse.bad-data",
    "an SSE message whose data is not JSON is invalid-json",
    "v1.frame.invalid-json",
    { sse: "data: hello\n\n" + sse(turn([delta("a")])) },
    { refusals: refused([0, "invalid-json"]), state: { text: "a" } },
  ),
];

/** Every fold case, grouped into files. */
const wireIds: CaseDef[] = [
  ...([
    ["event-id-lf", "an eventId with a line feed", { eventId: "e\n1" }],
    ["event-id-cr", "an eventId with a carriage return", { eventId: "e\r1" }],
    ["turn-id-nul", "a turnId with a NUL", { turnId: "t\u00001" }],
    ["conversation-id-lone-high", "a conversationId with a lone high surrogate", {
      conversationId: "c\ud800",
    }],
    ["event-id-lone-low", "an eventId with a lone low surrogate", { eventId: "\udc00e" }],
  ] as [string, string, JsonObject][]).map(([id, what, over]) =>
    fold(
      `wire-ids.${id}`,
      `${what} cannot travel as an SSE id or header: invalid-envelope`,
      "v1.envelope.wire-ids",
      turn([[delta("x"), over], [delta("y"), { seq: 1 }]]),
      { refusals: refused([0, "invalid-envelope"]), state: { text: "y", lastSeq: 1 } },
    )
  ),
  ...([
    ["call-id", "a tool callId with a line feed", call("k\n1")],
    ["session-id", "a sessionId with a NUL", ev("session", { sessionId: "s\u0000" })],
    ["card-id", "a card correlationId with a lone surrogate", card("q\udbff")],
    ["closed-id", "a card_closed correlationId with a CR", closed("q\r")],
  ] as [string, string, JsonObject][]).map(([id, what, event]) =>
    fold(
      `wire-ids.${id}`,
      `${what} is refused at parse: invalid-envelope`,
      "v1.envelope.wire-ids",
      turn([event, [delta("y"), { seq: 1, eventId: "e2" }]]),
      { refusals: refused([0, "invalid-envelope"]), state: { text: "y", lastSeq: 1 } },
    )
  ),
  fold(
    "wire-ids.pair-and-tab",
    "a surrogate pair, a tab and other control characters are wire ids",
    "v1.envelope.wire-ids",
    turn([[call("k\t😀"), { eventId: "e\u00011\ud83d\ude00" }], result("k\t😀")]),
    { state: { lastEventId: "e2", tools: [{ callId: "k\t😀", status: "ok" }] } },
  ),
  fold(
    "blocks.unique-ids",
    "a tool result repeating a grounded block id is refused; the call keeps running",
    "v1.event.unique-block-ids",
    turn([
      call("k1"),
      result("k1", true, {
        blocks: [{ id: "b1", text: "a", sources: [] }, { id: "b1", text: "b", sources: [] }],
      }),
    ]),
    { refusals: refused([1, "invalid-envelope"]), state: { tools: [{ status: "running" }] } },
  ),
  fold(
    "blocks.unique-ids-distinct",
    "distinct grounded block ids in one result are accepted (ids may repeat across results)",
    "v1.event.unique-block-ids",
    turn([
      call("k1"),
      call("k2"),
      result("k1", true, {
        blocks: [{ id: "b1", text: "a", sources: [] }, { id: "b2", text: "b", sources: [] }],
      }),
      result("k2", true, { blocks: [{ id: "b1", text: "c", sources: [] }] }),
    ]),
    { state: { tools: [{ status: "ok" }, { status: "ok" }] } },
  ),
];

const terminal: CaseDef[] = [
  fold(
    "terminal.error-closes-cards",
    "error while awaiting input: the open cards close as interrupted, in open order",
    "v1.lifecycle.cards-close-with-turn",
    turn([card("q1"), card("q2"), error()]),
    {
      state: {
        status: "failed",
        openCards: [],
        closedCards: [
          { correlationId: "q1", resolution: "interrupted" },
          { correlationId: "q2", resolution: "interrupted" },
        ],
      },
    },
  ),
  fold(
    "terminal.cancel-closes-cards",
    "cancelled while awaiting input: the open card closes as cancelled",
    "v1.lifecycle.cards-close-with-turn",
    turn([card("q1"), closed("q1", "submitted"), card("q2"), status("cancelled")]),
    {
      state: {
        status: "cancelled",
        openCards: [],
        closedCards: [
          { correlationId: "q1", resolution: "submitted" },
          { correlationId: "q2", resolution: "cancelled" },
        ],
      },
    },
  ),
  fold(
    "terminal.closed-card-after-end",
    "a card closed with its turn takes no later card_closed (the turn is over)",
    "v1.lifecycle.cards-close-with-turn",
    turn([card("q1"), error(), closed("q1", "submitted")]),
    {
      refusals: refused([2, "illegal-transition"]),
      state: { closedCards: [{ correlationId: "q1", resolution: "interrupted" }] },
    },
  ),
  fold(
    "terminal.interrupted-keeps-cards",
    "an interrupted turn is not over: its cards stay open",
    "v1.fold.cards",
    turn([card("q1"), status("interrupted"), status("running"), closed("q1", "submitted")]),
    {
      state: {
        status: "running",
        closedCards: [{ correlationId: "q1", resolution: "submitted" }],
      },
    },
    ["v1.lifecycle.cards-close-with-turn"],
  ),
  fold(
    "terminal.done-unfinished-call",
    "done while a tool call runs: the call is unfinished, finished at done's seq",
    "v1.lifecycle.unfinished-calls",
    turn([call("k1"), call("k2"), result("k2"), done]),
    {
      state: {
        status: "completed",
        tools: [
          { callId: "k1", status: "unfinished", startedSeq: 1, finishedSeq: 4 },
          { callId: "k2", status: "ok", finishedSeq: 3 },
        ],
      },
    },
  ),
  fold(
    "terminal.error-unfinished-call",
    "error while a tool call runs: the call is unfinished",
    "v1.lifecycle.unfinished-calls",
    turn([call("k1"), error()]),
    { state: { status: "failed", tools: [{ status: "unfinished", finishedSeq: 2 }] } },
  ),
  fold(
    "terminal.cancel-unfinished-call",
    "cancelled while a tool call runs: the call is unfinished; its late result is refused",
    "v1.lifecycle.unfinished-calls",
    turn([call("k1"), status("cancelled"), result("k1")]),
    {
      refusals: refused([2, "illegal-transition"]),
      state: { status: "cancelled", tools: [{ status: "unfinished", finishedSeq: 2 }] },
    },
  ),
  fold(
    "terminal.interrupted-call-runs",
    "an interrupted turn is not over: its call keeps running",
    "v1.fold.tool-result",
    turn([call("k1"), status("interrupted"), status("running"), result("k1"), done]),
    { state: { status: "completed", tools: [{ status: "ok", finishedSeq: 4 }] } },
    ["v1.lifecycle.unfinished-calls"],
  ),
];

const ext = (name: string, data: Json, channel?: string) =>
  ev("ext", channel === undefined ? { name, data } : { name, channel, data });
/** `levels` nested arrays around 0: `[[0]]` is 2 levels. */
const nested = (levels: number): Json => {
  let v: Json = 0;
  for (let i = 0; i < levels; i++) v = [v];
  return v;
};

const extensions: CaseDef[] = [
  fold(
    "ext.channels",
    "state-channel data is kept per name (last write wins), event-channel data appended, transient data not kept",
    "v1.fold.extensions",
    turn([
      ext("scout.products", { ids: ["p1"] }, "state"),
      ext("scout.log", "searched"),
      ext("scout.highlight", { id: "p1" }, "transient"),
      ext("scout.products", { ids: ["p2"] }, "state"),
      ext("scout.log", "found", "event"),
      ext("scout.broaden", [], "state"),
    ]),
    {
      state: {
        lastSeq: 6,
        extensionState: {
          "scout.products": { data: { ids: ["p2"] }, seq: 4 },
          "scout.broaden": { data: [], seq: 6 },
        },
        extensionEvents: [
          { name: "scout.log", data: "searched", seq: 2 },
          { name: "scout.log", data: "found", seq: 5 },
        ],
      },
    },
  ),
  fold(
    "ext.transient-only",
    "a transient extension event moves the cursor and keeps nothing",
    "v1.fold.extensions",
    turn([ext("scout.highlight", { id: "p1" }, "transient"), ext("scout.log", null)]),
    {
      state: {
        lastSeq: 2,
        extensionEvents: [{ name: "scout.log", data: null, seq: 2 }],
      },
    },
  ),
  fold(
    "ext.ndjson",
    "extension events over NDJSON, with unknown keys stripped",
    "v1.fold.extensions",
    {
      ndjson: turn([ext("acme.cart.updated", { n: 2 }, "state"), delta("ok")]).map((e) =>
        JSON.stringify({ ...e, event: { ...(e.event as JsonObject), extra: 1 } })
      ).join("\n"),
    },
    { state: { text: "ok", extensionState: { "acme.cart.updated": { data: { n: 2 }, seq: 1 } } } },
    ["v1.envelope.unknown-keys"],
  ),
  fold(
    "ext.paused",
    "an interrupted turn takes no extension event (a content event)",
    "v1.lifecycle.paused",
    turn([status("interrupted"), ext("scout.log", 1)]),
    { refusals: refused([1, "illegal-transition"]), state: { status: "interrupted" } },
  ),
  fold(
    "ext.state-names-bound",
    "a turn keeps at most 128 state-channel extension names: the 129th is too-many-extensions; an existing name still updates",
    "v1.fold.extension-state-names",
    turn([
      ...Array.from({ length: 129 }, (_, i) => ext(`x.n${i}`, i, "state")),
    ]).concat(
      turn([ext("x.n0", "again", "state")]).map((e) => ({
        ...e,
        seq: 129,
        eventId: "e129b",
      })),
    ),
    { refusals: refused([128, "too-many-extensions"]), state: { lastSeq: 129 } },
  ),
  fold(
    "ext.depth-32",
    "extension data nested 32 levels deep is accepted",
    "v1.event.extension-data-bounds",
    turn([ext("a.b", nested(32))]),
    { state: { lastSeq: 1 } },
  ),
  fold(
    "ext.depth-33",
    "extension data nested 33 levels deep is refused",
    "v1.event.extension-data-bounds",
    turn([ext("a.b", nested(33)), [delta("x"), { seq: 1 }]]),
    { refusals: refused([0, "invalid-envelope"]), state: { lastSeq: 1, text: "x" } },
  ),
  fold(
    "ext.values-10000",
    "extension data of exactly 10,000 JSON values (an array of 9,999) is accepted",
    "v1.event.extension-data-bounds",
    turn([ext("a.b", Array.from({ length: 9_999 }, () => 0))]),
    { state: { lastSeq: 1 } },
  ),
  fold(
    "ext.values-10001",
    "extension data of 10,001 JSON values is refused",
    "v1.event.extension-data-bounds",
    turn([ext("a.b", { list: Array.from({ length: 9_999 }, () => null) }), [delta("x"), {
      seq: 1,
    }]]),
    { refusals: refused([0, "invalid-envelope"]), state: { lastSeq: 1, text: "x" } },
  ),
  fold(
    "elided.no-gap",
    "an elided event (a replayed navigate) takes its seq and changes nothing else",
    "v1.fold.elided",
    turn([delta("a"), ev("elided", { of: "navigate" }), ev("elided", { of: "ext" }), delta("b")]),
    { state: { text: "ab", lastSeq: 4, lastEventId: "e4" } },
  ),
];

export const FOLD_GROUPS: CaseGroup[] = [
  { file: "fold/order.json", cases: order },
  { file: "fold/frames.json", cases: frames },
  { file: "fold/lifecycle.json", cases: lifecycle },
  { file: "fold/tools.json", cases: tools },
  { file: "fold/cards.json", cases: cards },
  { file: "fold/content.json", cases: content },
  { file: "fold/sse.json", cases: overSse },
  { file: "fold/wire_ids.json", cases: wireIds },
  { file: "fold/terminal.json", cases: terminal },
  { file: "fold/extensions.json", cases: extensions },
];
