import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import {
  encodeChatEnvelopeFrame,
  SseDecoderStream,
  SseEncodeError,
  type SseMessage,
} from "../../sse.ts";
import { type ChatEventEnvelope, parseChatEnvelope, parseChatEnvelopeJson } from "../../mod.ts";
import { nearEnvelope, validEnvelope } from "../v1/_arbitraries.ts";

const env = (extra: Record<string, unknown> = {}) =>
  ({
    schemaVersion: 1,
    conversationId: "c1",
    turnId: "t1",
    eventId: "t1:1",
    seq: 1,
    event: { type: "delta", text: "Hi" },
    ...extra,
  }) as ChatEventEnvelope;

Deno.test("encodeChatEnvelopeFrame: id = eventId, event = type, data = the validated JSON envelope", () => {
  assert.equal(
    encodeChatEnvelopeFrame(env({ junk: 1 })),
    'id: t1:1\nevent: delta\ndata: {"schemaVersion":1,"conversationId":"c1","turnId":"t1","eventId":"t1:1","seq":1,"event":{"type":"delta","text":"Hi"}}\n\n',
  );
  assert.match(encodeChatEnvelopeFrame(env(), { retry: 2000 }), /\nretry: 2000\n\n$/);
});

Deno.test("encodeChatEnvelopeFrame: refuses what is not a valid, serialisable envelope", () => {
  const cases: [unknown, string][] = [
    [null, "invalid-frame"],
    [env({ seq: 0 }), "invalid-frame"],
    [env({ schemaVersion: 2 }), "invalid-frame"],
    // an id no SSE id line can carry is refused by the v1 parser, before any encoding
    [env({ eventId: "a\nb" }), "invalid-frame"],
    [env({ eventId: "e\ud800" }), "invalid-frame"],
    [env({ event: { type: "tool_call", callId: "k", name: "n", input: 1n } }), "invalid-data"],
    [env({ event: { type: "state", version: 1, snapshot: new Map() } }), "invalid-data"],
  ];
  for (const [value, code] of cases) {
    assert.throws(
      () => encodeChatEnvelopeFrame(value as ChatEventEnvelope),
      (e) => e instanceof SseEncodeError && e.code === code,
      String(code),
    );
  }
  assert.throws(
    () => encodeChatEnvelopeFrame(env(), { retry: -1 }),
    (e) => e instanceof SseEncodeError && e.code === "invalid-retry",
  );
});

Deno.test("property: envelope → SSE bytes → decoder → parseChatEnvelopeJson round-trips, cursor = eventId", async () => {
  const sseSafe = validEnvelope.filter((v) => !/[\r\n\0]/.test(String(v.eventId)));
  await fc.assert(
    fc.asyncProperty(fc.array(sseSafe, { minLength: 1, maxLength: 5 }), async (envs) => {
      const frames = envs.map((e) => encodeChatEnvelopeFrame(e as unknown as ChatEventEnvelope));
      const messages: SseMessage[] = [];
      const decoder = new SseDecoderStream();
      const bytes = new TextEncoder().encode(frames.join(""));
      for await (const m of ReadableStream.from([bytes]).pipeThrough(decoder)) messages.push(m);
      assert.equal(messages.length, envs.length);
      messages.forEach((m, i) => {
        const parsed = parseChatEnvelopeJson(m.data);
        assert.ok(parsed.ok);
        assert.equal(m.id, parsed.value.eventId);
        assert.equal(m.event, parsed.value.event.type);
        assert.equal(m.lastEventId, envs[i].eventId);
      });
      assert.equal(decoder.lastEventId, envs.at(-1)!.eventId);
    }),
    { numRuns: 500 },
  );
});

Deno.test("encode/decode agree: a `state` whose snapshot is undefined is refused by both, never encoded then refused", () => {
  // Regression: the encoder accepted `snapshot: undefined`, JSON dropped the key, and the
  // decoder (parseChatEnvelopeJson) refused the frame it had just produced.
  const state = env({ event: { type: "state", version: 1, snapshot: undefined } });
  assert.throws(
    () => encodeChatEnvelopeFrame(state),
    (e) => e instanceof SseEncodeError && e.code === "invalid-frame" && /snapshot/.test(e.message),
  );
  const nullState = env({ event: { type: "state", version: 1, snapshot: null } });
  const data = encodeChatEnvelopeFrame(nullState).split("\n")[2].slice("data: ".length);
  assert.ok(parseChatEnvelopeJson(data).ok);
});

Deno.test("property: whatever the encoder accepts, the decoder accepts (near-envelopes included); whatever the parser accepts, the encoder sends", () => {
  fc.assert(
    fc.property(fc.oneof(validEnvelope, nearEnvelope), (value) => {
      let frame: string;
      try {
        frame = encodeChatEnvelopeFrame(value as ChatEventEnvelope);
      } catch (e) {
        assert.ok(e instanceof SseEncodeError, String(e));
        // the parser is the gate: nothing it accepts fails at the encoder (ids included)
        assert.equal(parseChatEnvelope(value).ok, false, `${JSON.stringify(value)}: ${e}`);
        return;
      }
      const data = frame.split("\n").find((l) => l.startsWith("data: "))!.slice(6);
      const parsed = parseChatEnvelopeJson(data);
      assert.ok(parsed.ok, `${frame} → ${JSON.stringify(parsed)}`);
    }),
    { numRuns: 10_000 },
  );
});
