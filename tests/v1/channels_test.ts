/**
 * The v1 channel table and the replay rule: every v1 event type is on one
 * channel (v0 names keep their v0 channel); a replay re-sends every frame
 * after the cursor, transient ones as `elided`, so the resumed fold has no
 * gap, reaches the same state, and nothing transient fires twice.
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import {
  CHAT_EVENT_V1_CHANNELS,
  CHAT_EVENT_V1_TYPES,
  chatEventChannel,
  type ChatEventEnvelope,
  ChatStateFolder,
  foldChatState,
  parseChatEnvelope,
  replayEnvelope,
} from "../../mod.ts";
import { EVENT_CHANNEL_TYPES, STATE_CHANNEL_TYPES, TRANSIENT_CHANNEL_TYPES } from "../../v0.ts";
import { MemoryReplayWindow, replayAfter } from "../../recovery.ts";
import { validEvent } from "./_arbitraries.ts";

Deno.test("CHAT_EVENT_V1_CHANNELS: one channel per v1 type; the v0 names keep their v0 channel", () => {
  assert.deepEqual(Object.keys(CHAT_EVENT_V1_CHANNELS).sort(), [...CHAT_EVENT_V1_TYPES].sort());
  assert.ok(Object.isFrozen(CHAT_EVENT_V1_CHANNELS));
  for (const t of EVENT_CHANNEL_TYPES) assert.equal(CHAT_EVENT_V1_CHANNELS[t], "event", t);
  for (const t of STATE_CHANNEL_TYPES) assert.equal(CHAT_EVENT_V1_CHANNELS[t], "state", t);
  for (const t of TRANSIENT_CHANNEL_TYPES) assert.equal(CHAT_EVENT_V1_CHANNELS[t], "transient", t);
  // the v1 additions (issue 14: they belonged to no channel)
  assert.deepEqual(
    ["reasoning", "tool_progress", "turn_status", "ext", "elided"].map((t) =>
      CHAT_EVENT_V1_CHANNELS[t as keyof typeof CHAT_EVENT_V1_CHANNELS]
    ),
    ["event", "state", "event", "event", "transient"],
  );
});

Deno.test("chatEventChannel: an ext event's own channel decides (default event)", () => {
  const ext = (channel?: string) => ({ type: "ext", name: "a.b", channel, data: 1 }) as never;
  assert.equal(chatEventChannel(ext()), "event");
  assert.equal(chatEventChannel(ext("event")), "event");
  assert.equal(chatEventChannel(ext("state")), "state");
  assert.equal(chatEventChannel(ext("transient")), "transient");
  assert.equal(chatEventChannel({ type: "navigate", href: "/" }), "transient");
  assert.equal(chatEventChannel({ type: "toString" } as never), "event");
  assert.equal(chatEventChannel(null as never), "event");
});

const base = { schemaVersion: 1, conversationId: "c1", turnId: "t1" } as const;

Deno.test("replayEnvelope: transient frames become elided in place (same ids, seq, at); others are re-sent as they are", () => {
  const nav = { ...base, eventId: "e3", seq: 3, at: 7, event: { type: "navigate", href: "/p/1" } };
  const elided = replayEnvelope(nav as ChatEventEnvelope);
  assert.deepEqual(elided, {
    ...base,
    eventId: "e3",
    seq: 3,
    at: 7,
    event: { type: "elided", of: "navigate" },
  });
  assert.deepEqual(Object.keys(elided), [
    "schemaVersion",
    "conversationId",
    "turnId",
    "eventId",
    "seq",
    "at",
    "event",
  ]);
  assert.ok(parseChatEnvelope(elided).ok);
  const hint = {
    ...base,
    eventId: "e4",
    seq: 4,
    event: { type: "ext", name: "scout.highlight", channel: "transient", data: { id: "p1" } },
  } as ChatEventEnvelope;
  assert.deepEqual(replayEnvelope(hint).event, { type: "elided", of: "ext" });
  assert.ok(!("at" in replayEnvelope(hint)));
  for (
    const event of [
      { type: "delta", text: "x" },
      { type: "card_closed", correlationId: "k" },
      { type: "tool_progress", callId: "k", progress: 0.5 },
      { type: "ext", name: "scout.products", channel: "state", data: [] },
      { type: "elided", of: "navigate" },
    ]
  ) {
    const e = { ...base, eventId: "e1", seq: 1, event } as ChatEventEnvelope;
    assert.equal(replayEnvelope(e), e, event.type);
  }
  assert.equal(replayEnvelope(null as never), null);
});

/** A valid turn made of arbitrary events: only those the fold accepts, renumbered. */
function turn(events: Record<string, unknown>[]): ChatEventEnvelope[] {
  const f = new ChatStateFolder("c1", "t1");
  const out: ChatEventEnvelope[] = [];
  for (const event of events) {
    const seq = f.lastSeq + 1;
    const r = f.push({ ...base, eventId: `e${seq}`, seq, event });
    if (r.ok) out.push(r.value);
  }
  return out;
}

Deno.test("property: a resume after any cursor, replayed through replayEnvelope, folds gap-free to the same state and never re-sends a transient payload", () => {
  const navigateOrHint = fc.constantFrom(
    { type: "navigate", href: "/p/1" },
    { type: "ext", name: "scout.highlight", channel: "transient", data: { id: "p1" } },
  );
  let transientsAfterCursor = 0;
  fc.assert(
    fc.property(
      fc.array(fc.oneof(validEvent, navigateOrHint), { maxLength: 40 }),
      fc.nat(),
      (events, cut) => {
        const envs = turn(events);
        const cursor = envs.length === 0 ? 0 : cut % (envs.length + 1);
        const whole = foldChatState(envs, { conversationId: "c1", turnId: "t1" }).state!;
        // the client got the frames up to the cursor, then resumes
        const client = foldChatState(envs.slice(0, cursor), { conversationId: "c1", turnId: "t1" });
        const replay = envs.slice(cursor).map(replayEnvelope);
        for (const r of replay) {
          assert.notEqual(r.event.type, "navigate");
          assert.ok(!(r.event.type === "ext" && r.event.channel === "transient"));
        }
        transientsAfterCursor += replay.filter((r) => r.event.type === "elided").length;
        const resumed = foldChatState(replay, { from: client.state! });
        assert.deepEqual(resumed.refusals, [], "no gap, nothing refused");
        assert.deepEqual(resumed.state, whole);
      },
    ),
    { numRuns: 1_000 },
  );
  assert.ok(transientsAfterCursor > 100, `${transientsAfterCursor} transient frames elided`);
});

Deno.test("replayAfter (./recovery) + replayEnvelope: the retained suffix without navigate, no gap", async () => {
  const window = new MemoryReplayWindow();
  const envs = turn([
    { type: "delta", text: "Hi" },
    { type: "navigate", href: "/p/1" },
    { type: "card", card: { correlationId: "q1", prompt: "?", createdAt: 1 } },
    { type: "card_closed", correlationId: "q1", resolution: "submitted" },
    { type: "done" },
  ]);
  for (const e of envs) assert.ok(window.append(e));
  const r = await replayAfter(window, { conversationId: "c1", turnId: "t1", afterSeq: 1 });
  assert.ok(r.ok);
  const frames = r.value.frames.map(replayEnvelope);
  assert.deepEqual(frames.map((f) => [f.seq, f.event.type]), [
    [2, "elided"],
    [3, "card"],
    [4, "card_closed"],
    [5, "done"],
  ]);
  const client = new ChatStateFolder("c1", "t1");
  assert.ok(client.push(envs[0]).ok);
  for (const f of frames) assert.ok(client.push(f).ok, JSON.stringify(f));
  assert.equal(client.state().status, "completed");
  assert.deepEqual(client.state().closedCards, [{ correlationId: "q1", resolution: "submitted" }]);
});
