/**
 * SSE encoder: exact wire frames (golden), refusals, and the
 * encoder → decoder round trip as a property.
 *
 * @module
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import {
  encodeSseComment,
  encodeSseFrame,
  SSE_HEARTBEAT,
  SseDecoderStream,
  SseEncodeError,
  SseEncoderStream,
  type SseFrameInput,
  sseHeartbeat,
  type SseMessage,
  type SseStreamInput,
  SseTextEncoderStream,
} from "../../sse.ts";
import { assertGolden } from "../_helpers/golden.ts";
import { collect, splitAt } from "./_helpers.ts";

const GOLDEN_FRAMES: SseFrameInput[] = [
  { data: "" },
  { data: "hello" },
  { id: "1", data: '{"type":"session","sessionId":"s-7"}' },
  { id: "42", event: "delta", data: '{"text":"hi"}', retry: 3000 },
  { event: "heartbeat", data: '{"tsMs":1767225600000}' },
  { data: "two\nlines" },
  { data: "crlf\r\nand\rcr" },
  { data: " leading space" },
  { data: "trailing newline\n" },
  { id: "", event: "", data: "x" },
  { id: " spaced id", data: ": not a comment" },
  { data: "é😀\0" },
];

Deno.test("encodeSseFrame: golden wire frames", async () => {
  await assertGolden(
    "sse/frames.json",
    GOLDEN_FRAMES.map((frame) => ({ frame, wire: encodeSseFrame(frame) })),
  );
});

Deno.test("encodeSseFrame: field order id → event → data → retry, blank line at the end", () => {
  assert.equal(
    encodeSseFrame({ retry: 10, data: "d", event: "e", id: "i" }),
    "id: i\nevent: e\ndata: d\nretry: 10\n\n",
  );
  assert.equal(encodeSseFrame({ data: "a\r\nb\rc\nd" }), "data: a\ndata: b\ndata: c\ndata: d\n\n");
  assert.equal(encodeSseFrame({ data: "" }), "data:\n\n");
  assert.equal(encodeSseFrame({ data: "\n" }), "data:\ndata:\n\n");
  assert.equal(encodeSseFrame({ data: "x", event: "" }), "data: x\n\n");
  assert.equal(encodeSseFrame({ data: "x", event: "message" }), "event: message\ndata: x\n\n");
  assert.equal(encodeSseFrame({ data: "x", id: "" }), "id:\ndata: x\n\n");
  assert.equal(encodeSseFrame({ data: "x", retry: 0 }), "data: x\nretry: 0\n\n");
});

Deno.test("encodeSseFrame: refuses what the format cannot carry with SseEncodeError", () => {
  const cases: [unknown, string][] = [
    [null, "invalid-frame"],
    ["data: x", "invalid-frame"],
    [{ data: "x", id: "a\nb" }, "invalid-id"],
    [{ data: "x", id: "a\rb" }, "invalid-id"],
    [{ data: "x", id: "a\0b" }, "invalid-id"],
    [{ data: "x", id: 7 }, "invalid-id"],
    [{ data: "x", event: "a\nb" }, "invalid-event"],
    [{ data: "x", event: "a\rb" }, "invalid-event"],
    [{ data: "x", event: 1 }, "invalid-event"],
    // A lone surrogate reaches the client as U+FFFD: the cursor would not match.
    [{ data: "x", id: "e-\ud800" }, "invalid-id"],
    [{ data: "x", id: "\udc00e" }, "invalid-id"],
    [{ data: "x", id: "\udc00\ud800" }, "invalid-id"],
    [{ data: "x", event: "delta\ud83d" }, "invalid-event"],
    [{}, "invalid-data"],
    [{ data: 5 }, "invalid-data"],
    [{ data: "x", retry: -1 }, "invalid-retry"],
    [{ data: "x", retry: 1.5 }, "invalid-retry"],
    [{ data: "x", retry: NaN }, "invalid-retry"],
    [{ data: "x", retry: 2 ** 53 }, "invalid-retry"],
    [{ data: "x", retry: "5" }, "invalid-retry"],
  ];
  for (const [frame, code] of cases) {
    assert.throws(
      () => encodeSseFrame(frame as SseFrameInput),
      (e) => e instanceof SseEncodeError && e instanceof TypeError && e.code === code,
      JSON.stringify(frame),
    );
  }
  // Surrogate pairs are fine.
  assert.equal(
    encodeSseFrame({ id: "😀", event: "😀", data: "x" }),
    "id: 😀\nevent: 😀\ndata: x\n\n",
  );
  // NUL is fine in event and data.
  assert.equal(encodeSseFrame({ event: "a\0", data: "\0" }), "event: a\0\ndata: \0\n\n");
});

Deno.test("encodeSseComment / sseHeartbeat", () => {
  assert.equal(encodeSseComment("keep-alive"), ": keep-alive\n\n");
  assert.equal(encodeSseComment(), ":\n\n");
  assert.equal(encodeSseComment("a\r\nb\n"), ": a\n: b\n:\n\n");
  assert.equal(encodeSseComment(" x"), ":  x\n\n");
  assert.equal(sseHeartbeat(), ": heartbeat\n\n");
  assert.equal(SSE_HEARTBEAT, sseHeartbeat());
  assert.throws(
    () => encodeSseComment(1 as unknown as string),
    (e) => e instanceof SseEncodeError && e.code === "invalid-comment",
  );
  const out = collect([encodeSseComment("a\nb"), sseHeartbeat(), encodeSseFrame({ data: "x" })]);
  assert.deepEqual(out.comments, ["a", "b", "heartbeat"]);
  assert.deepEqual(out.messages.map((m) => m.data), ["x"]);
});

Deno.test("encodeSseFrame never throws anything but SseEncodeError", () => {
  const anyField = fc.oneof(fc.anything(), fc.string(), fc.integer(), fc.constant(undefined));
  fc.assert(
    fc.property(
      fc.record({ id: anyField, event: anyField, data: anyField, retry: anyField }, {
        requiredKeys: [],
      }),
      (frame) => {
        try {
          const wire = encodeSseFrame(frame as SseFrameInput);
          assert.ok(wire.endsWith("\n\n"));
        } catch (e) {
          assert.ok(e instanceof SseEncodeError, String(e));
        }
      },
    ),
    { numRuns: 2_000 },
  );
});

// ---- round trip ----------------------------------------------------------

/** Strings over all code points (lone surrogates included), biased towards SSE syntax. */
const text = (unit: "binary" | "grapheme") =>
  fc.oneof(
    fc.string({ unit, maxLength: 20 }),
    fc.array(fc.constantFrom("\r", "\n", "\r\n", " ", ":", "\0", "\uFEFF", "data: ", "é", "x"), {
      maxLength: 8,
    }).map((a) => a.join("")),
  );
const noBreaks = (s: string) => !/[\r\n]/.test(s);
const frameArb = (unit: "binary" | "grapheme") =>
  fc.record({
    id: fc.option(text(unit).filter((s) => noBreaks(s) && !s.includes("\0")), {
      nil: undefined,
    }),
    event: fc.option(text(unit).filter(noBreaks), { nil: undefined }),
    data: text(unit),
    retry: fc.option(fc.nat(), { nil: undefined }),
  });

/** What decoding the encoded frames must give back. */
function expected(frames: SseFrameInput[]): { messages: SseMessage[]; retries: number[] } {
  let lastEventId = "";
  const messages: SseMessage[] = [];
  const retries: number[] = [];
  for (const f of frames) {
    if (f.id !== undefined) lastEventId = f.id;
    messages.push({
      id: f.id,
      event: f.event === "" ? undefined : f.event,
      // Documented normalisation: CRLF and CR in data come back as LF.
      data: f.data.replace(/\r\n?/g, "\n"),
      lastEventId,
    });
    if (f.retry !== undefined) retries.push(f.retry);
  }
  return { messages, retries };
}

Deno.test("round trip: encode → split anywhere → decode gives every frame back", () => {
  fc.assert(
    fc.property(fc.array(frameArb("binary"), { maxLength: 6 }), fc.array(fc.nat()), (
      frames,
      cuts,
    ) => {
      const wire = frames.map(encodeSseFrame).join("");
      const out = collect(splitAt(wire, cuts));
      assert.deepEqual({ messages: out.messages, retries: out.retries }, expected(frames));
      assert.deepEqual(out.comments, []);
    }),
    { numRuns: 5_000 },
  );
});

async function readAll<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream) out.push(item);
  return out;
}

Deno.test("round trip through SseEncoderStream (bytes) and SseDecoderStream", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(frameArb("grapheme"), { maxLength: 5 }), async (frames) => {
      const items: SseStreamInput[] = frames.flatMap((f) => [f, { comment: "hb" }]);
      const comments: string[] = [];
      const retries: number[] = [];
      const decoder = new SseDecoderStream({
        onComment: (c) => comments.push(c),
        onRetry: (r) => retries.push(r),
      });
      const messages = await readAll(
        ReadableStream.from(items).pipeThrough(new SseEncoderStream()).pipeThrough(decoder),
      );
      const want = expected(frames);
      assert.deepEqual(messages, want.messages);
      assert.deepEqual(retries, want.retries);
      assert.deepEqual(comments, frames.map(() => "hb"));
      assert.equal(decoder.lastEventId, want.messages.at(-1)?.lastEventId ?? "");
    }),
    { numRuns: 500 },
  );
});

Deno.test("SseTextEncoderStream emits one string per item; bad items error the stream", async () => {
  const out = await readAll(
    ReadableStream.from<SseStreamInput>([{ id: "1", data: "a" }, { comment: "c" }])
      .pipeThrough(new SseTextEncoderStream()),
  );
  assert.deepEqual(out, ["id: 1\ndata: a\n\n", ": c\n\n"]);
  // An item with both data and comment is a frame.
  const both = await readAll(
    ReadableStream.from<SseStreamInput>([{ data: "d", comment: "c" } as SseFrameInput])
      .pipeThrough(new SseTextEncoderStream()),
  );
  assert.deepEqual(both, ["data: d\n\n"]);
  await assert.rejects(
    () =>
      readAll(
        ReadableStream.from<SseStreamInput>([{ id: "a\nb", data: "x" }]).pipeThrough(
          new SseEncoderStream(),
        ),
      ),
    (e) => e instanceof SseEncodeError && e.code === "invalid-id",
  );
});

Deno.test("encoder streams refuse non-object items", async () => {
  await assert.rejects(
    () =>
      readAll(
        ReadableStream.from([null as unknown as SseStreamInput]).pipeThrough(
          new SseTextEncoderStream(),
        ),
      ),
    (e) => e instanceof SseEncodeError && e.code === "invalid-frame",
  );
});
