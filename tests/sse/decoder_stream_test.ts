/**
 * SseDecoderStream on real Web Streams: byte and text bodies, callbacks,
 * last event id, and the Scout example stream from the legacy spec.
 *
 * @module
 */
import assert from "node:assert/strict";
import { SseArgumentError, SseDecoderStream, type SseMessage } from "../../sse.ts";

async function readAll<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream) out.push(item);
  return out;
}

// Legacy spec B.2 example stream (data, not prose), plus a heartbeat frame.
const SCOUT = 'id: 1\ndata: {"type":"session","sessionId":"s-7"}\n\n' +
  'event: heartbeat\ndata: {"tsMs":1767225600000}\n\n' +
  'id: 2\ndata: {"type":"token","content":"Hi"}\n\n' +
  'id: 3\ndata: {"type":"done"}\n\n';

const SCOUT_MESSAGES: SseMessage[] = [
  { id: "1", event: undefined, data: '{"type":"session","sessionId":"s-7"}', lastEventId: "1" },
  { id: undefined, event: "heartbeat", data: '{"tsMs":1767225600000}', lastEventId: "1" },
  { id: "2", event: undefined, data: '{"type":"token","content":"Hi"}', lastEventId: "2" },
  { id: "3", event: undefined, data: '{"type":"done"}', lastEventId: "3" },
];

Deno.test("decodes a Response body (bytes) into messages", async () => {
  const decoder = new SseDecoderStream();
  const body = new Response(SCOUT).body!;
  assert.deepEqual(await readAll(body.pipeThrough(decoder)), SCOUT_MESSAGES);
  assert.equal(decoder.lastEventId, "3");
});

Deno.test("decodes text chunks split at every position", async () => {
  for (let cut = 0; cut <= SCOUT.length; cut++) {
    const chunks = [SCOUT.slice(0, cut), SCOUT.slice(cut)];
    assert.deepEqual(
      await readAll(ReadableStream.from(chunks).pipeThrough(new SseDecoderStream())),
      SCOUT_MESSAGES,
    );
  }
});

Deno.test("onRetry / onComment / initial lastEventId; unterminated tail dropped", async () => {
  const retries: number[] = [];
  const comments: string[] = [];
  const decoder = new SseDecoderStream({
    onRetry: (r) => retries.push(r),
    onComment: (c) => comments.push(c),
    lastEventId: "7",
  });
  const out = await readAll(
    ReadableStream.from([": heartbeat\n\nretry: 2500\ndata: a\n\n", "id: 8\ndata: tail"])
      .pipeThrough(decoder),
  );
  assert.deepEqual(out, [{ id: undefined, event: undefined, data: "a", lastEventId: "7" }]);
  assert.deepEqual(retries, [2500]);
  assert.deepEqual(comments, ["heartbeat"]);
  // "id: 8" belongs to the discarded tail: resuming after 8 would lose it.
  assert.equal(decoder.lastEventId, "7");
});

Deno.test("invalid options throw at construction", () => {
  assert.throws(
    () => new SseDecoderStream({ maxLineLength: -1 }),
    (e) => e instanceof SseArgumentError && e.code === "invalid-limit",
  );
});
