/**
 * Every public SSE function against hostile values in every argument
 * position, 10^4 runs each. Each may throw only what it documents: the
 * encoders `SseEncodeError`, the parser `SseLimitError`, and an
 * `SseArgumentError` for an argument of the wrong type (a programmer's mistake).
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import {
  encodeChatEnvelopeFrame,
  encodeSseComment,
  encodeSseFrame,
  SseArgumentError,
  SseDecoderStream,
  SseEncodeError,
  SseEncoderStream,
  sseHeartbeat,
  SseLimitError,
  SseParser,
  SseTextEncoderStream,
} from "../../sse.ts";
import { arg, attack, attackAsync } from "../_helpers/attack.ts";
import { HOSTILE_RUNS } from "../_helpers/hostile.ts";
import { validEnvelope } from "../v1/_arbitraries.ts";

const encodeError = (e: unknown) => e instanceof SseEncodeError;
/** A stream of exactly `chunk` (`ReadableStream.from` would await it: a revoked proxy trips that). */
const streamOf = (chunk: unknown) =>
  new ReadableStream({
    start(c) {
      c.enqueue(chunk);
      c.close();
    },
  });
/** What the parser documents: limits, and an SseArgumentError for an argument of the wrong type. */
const parserError = (e: unknown) => e instanceof SseLimitError || e instanceof SseArgumentError;

const frame = fc.record({
  id: fc.constantFrom("1", "a:2"),
  event: fc.constantFrom("delta", ""),
  data: fc.constantFrom("x", "two\nlines"),
  retry: fc.constantFrom(0, 3000),
}, { requiredKeys: ["data"] });
const chunk = fc.oneof(
  fc.constantFrom("data: x\n\n", "id: 1\nevent: e\ndata: y\n\n", ": c\n", "retry: 10\n"),
  fc.constantFrom(new TextEncoder().encode("data: é\n\n")),
);
const options = fc.record({
  onEvent: fc.constant(() => {}),
  onRetry: fc.constant(() => {}),
  onComment: fc.constant(() => {}),
  maxLineLength: fc.constantFrom(8, 1024),
  maxEventLength: fc.constantFrom(8, 1024),
  lastEventId: fc.constantFrom("", "7"),
}, { requiredKeys: ["onEvent"] });

Deno.test("SseParser.feed(null) and other non-chunks: an SseArgumentError (invalid-chunk), parser unchanged", () => {
  // Regression: feed(null) threw "Cannot read properties of null" from inside the decoder.
  const seen: string[] = [];
  const p = new SseParser({ onEvent: (m) => seen.push(m.data) });
  p.feed("data: a");
  for (const bad of [null, undefined, 5, {}, [1, 2], new Proxy(new Uint8Array(2), {})]) {
    assert.throws(
      () => p.feed(bad as never),
      (e) => e instanceof SseArgumentError && e instanceof TypeError && e.code === "invalid-chunk",
    );
  }
  p.feed("\n\n");
  assert.deepEqual(seen, ["a"]);
});

Deno.test("hostile: SseParser (options, feed, end)", () => {
  attack([arg(options), arg(chunk), arg(chunk)], (o, a, b) => {
    const p = new SseParser(o as never);
    try {
      p.feed(a as never);
      p.feed(b as never);
    } finally {
      p.end();
    }
    assert.equal(typeof p.lastEventId, "string");
  }, { allowed: parserError });
});

Deno.test("hostile: SseDecoderStream (options, chunks): the stream errors only with documented errors", async () => {
  await attackAsync([arg(options), arg(chunk)], async (o, c) => {
    const decoder = new SseDecoderStream(o as never);
    for await (const _ of streamOf(c).pipeThrough(decoder)) { /* drain */ }
  }, { allowed: parserError, runs: HOSTILE_RUNS });
});

Deno.test("hostile: encodeSseFrame / encodeSseComment / sseHeartbeat", () => {
  attack([arg(frame)], (f) => encodeSseFrame(f as never), {
    allowed: encodeError,
    check: (s) => assert.match(s as string, /\n\n$/),
  });
  attack([arg(fc.string())], (t) => encodeSseComment(t as string), { allowed: encodeError });
  assert.equal(sseHeartbeat(), ": heartbeat\n\n");
});

Deno.test("hostile: encodeChatEnvelopeFrame", () => {
  attack(
    [arg(validEnvelope), arg(fc.record({ retry: fc.nat() }))],
    (e, o) => encodeChatEnvelopeFrame(e as never, o as never),
    { allowed: encodeError },
  );
});

Deno.test("hostile: SseEncoderStream / SseTextEncoderStream error only with SseEncodeError", async () => {
  const item = fc.oneof(frame, fc.record({ comment: fc.constantFrom("", "keep-alive") }));
  await attackAsync([arg(item)], async (i) => {
    const text = new SseTextEncoderStream();
    for await (const _ of streamOf(i).pipeThrough(text)) { /* drain */ }
    const bytes = new SseEncoderStream();
    for await (const _ of streamOf(i).pipeThrough(bytes)) { /* drain */ }
  }, { allowed: encodeError, runs: HOSTILE_RUNS });
});
