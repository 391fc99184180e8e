/**
 * Bounds of the SSE decoder: `maxLineLength` / `maxEventLength` (UTF-16 code
 * units, default 1 MiB) raise {@link SseLimitError} and never let the
 * buffer grow past them.
 *
 * @module
 */
import assert from "node:assert/strict";
import {
  SSE_DEFAULT_MAX_LENGTH,
  SseDecoderStream,
  SseLimitError,
  type SseMessage,
  SseParser,
} from "../../sse.ts";
import { collect } from "./_helpers.ts";

const MiB = 1_048_576;

/**
 * Feed a 2 MiB line (plus terminator) in `size`-unit chunks; return how many
 * units had been fed when the parser threw, and the error.
 */
function feedGiantLine(size: number, asBytes: boolean): { fed: number; error: unknown } {
  const parser = new SseParser({ onEvent: () => {} });
  const text = "data: " + "x".repeat(2 * MiB) + "\n\n";
  const bytes = asBytes ? new TextEncoder().encode(text) : undefined;
  let fed = 0;
  try {
    for (let i = 0; i < text.length; i += size) {
      fed = Math.min(text.length, i + size);
      parser.feed(bytes ? bytes.subarray(i, i + size) : text.slice(i, i + size));
    }
  } catch (error) {
    return { fed, error };
  }
  return { fed, error: undefined };
}

Deno.test("a 2 MiB line errors with line-too-long as soon as 1 MiB is exceeded, any chunking", () => {
  assert.equal(SSE_DEFAULT_MAX_LENGTH, MiB);
  for (const size of [1, 7, 1024, 16_384, 65_536]) {
    for (const asBytes of [false, true]) {
      const { fed, error } = feedGiantLine(size, asBytes);
      assert.ok(error instanceof SseLimitError, `size ${size}: ${String(error)}`);
      assert.equal(error.code, "line-too-long");
      assert.equal(error.limit, MiB);
      // Bounded: it stops within one chunk of the limit, long before the 2 MiB end.
      assert.ok(fed <= MiB + 1 + size, `size ${size}: fed ${fed}`);
      assert.ok(fed > MiB, `size ${size}: fed ${fed}`);
    }
  }
});

Deno.test("a 2 MiB line in one chunk also errors (the result does not depend on chunking)", () => {
  const { error } = feedGiantLine(3 * MiB, false);
  assert.ok(error instanceof SseLimitError && error.code === "line-too-long");
});

Deno.test("line limit: exactly maxLineLength passes, one more unit fails", () => {
  const line = "data: " + "y".repeat(94); // 100 code units
  assert.deepEqual(
    collect([line + "\n\n"], { maxLineLength: 100 }).messages.map((m) => m.data.length),
    [94],
  );
  for (const chunks of [[line + "z\n\n"], [...(line + "z\n\n")], [line, "z", "\n\n"]]) {
    assert.throws(
      () => collect(chunks, { maxLineLength: 100 }),
      (e) => e instanceof SseLimitError && e.code === "line-too-long" && e.limit === 100,
    );
  }
  // Counted in UTF-16 code units: "😀" is 2 units.
  assert.throws(() => collect(["data:" + "😀".repeat(48) + "\n"], { maxLineLength: 100 }));
  assert.doesNotThrow(() => collect(["data:" + "😀".repeat(47) + "\n"], { maxLineLength: 100 }));
  // The terminator does not count, nor does a BOM.
  assert.doesNotThrow(() => collect(["\uFEFF" + line + "\r\n"], { maxLineLength: 100 }));
  // An unterminated final line over the limit fails too.
  assert.throws(() => collect([line + "z"], { maxLineLength: 100 }), SseLimitError);
});

Deno.test("event limit: data joined with LF is bounded by maxEventLength", () => {
  // 10 lines of 9 units + 9 LFs = 99 units.
  const ok = "data: 123456789\n".repeat(10) + "\n";
  assert.equal(collect([ok], { maxEventLength: 99 }).messages[0].data.length, 99);
  assert.throws(
    () => collect([ok], { maxEventLength: 98 }),
    (e) => e instanceof SseLimitError && e.code === "event-too-large" && e.limit === 98,
  );
  // Many small data lines in tiny chunks: the default 1 MiB bound applies.
  const parser = new SseParser({ onEvent: () => {} });
  const line = "data: " + "x".repeat(1023) + "\n"; // 1024 units of data per line with the LF
  let fed = 0;
  assert.throws(() => {
    for (;;) {
      parser.feed(line);
      fed += 1024;
    }
  }, (e) => e instanceof SseLimitError && e.code === "event-too-large");
  assert.ok(fed <= MiB && fed >= MiB - 1024, `fed ${fed}`);
});

Deno.test("after a limit error the parser refuses chunks until end(), then works again", () => {
  const messages: SseMessage[] = [];
  const parser = new SseParser({ onEvent: (m) => messages.push(m), maxLineLength: 10 });
  parser.feed("id: 1\n");
  let first: unknown;
  try {
    parser.feed("data: 0123456789\n\n");
  } catch (e) {
    first = e;
  }
  assert.ok(first instanceof SseLimitError);
  assert.throws(() => parser.feed("data: ok\n\n"), (e) => e === first);
  parser.end();
  parser.feed("data: ok\n\n");
  // id 1 belonged to the refused event, which was never dispatched: not a cursor.
  assert.deepEqual(messages, [{ id: undefined, event: undefined, data: "ok", lastEventId: "" }]);
  assert.equal(parser.lastEventId, "");
});

Deno.test("SseDecoderStream errors with SseLimitError", async () => {
  const body = ReadableStream.from(["data: a\n\n", "data: " + "x".repeat(50), "x".repeat(50)]);
  const reader = body.pipeThrough(new SseDecoderStream({ maxLineLength: 64 })).getReader();
  assert.deepEqual(await reader.read(), {
    done: false,
    value: { id: undefined, event: undefined, data: "a", lastEventId: "" },
  });
  await assert.rejects(
    () => reader.read(),
    (e) => e instanceof SseLimitError && e.code === "line-too-long",
  );
});

Deno.test("every path that can see an oversized line or event enforces the bound", () => {
  const isLimit = (code: string) => (e: unknown) => e instanceof SseLimitError && e.code === code;
  const x60 = "x".repeat(60);
  const opts = { maxLineLength: 100, maxEventLength: 10 };
  // A partial line completed by the next chunk (LF and CR endings).
  assert.throws(() => collect(["data:" + x60, x60 + "\n"], opts), isLimit("line-too-long"));
  assert.throws(() => collect([":" + x60, x60 + "\r"], opts), isLimit("line-too-long"));
  // A whole long line inside a chunk containing CR.
  assert.throws(() => collect([":" + x60 + x60 + "\r\n"], opts), isLimit("line-too-long"));
  // One data line directly followed by the blank line (fast dispatch path).
  assert.throws(() => collect(["data: 01234567890\n\n"], opts), isLimit("event-too-large"));
  // The first of several data lines, in LF and CR streams.
  assert.throws(
    () => collect(["data: 01234567890\ndata: x\n\n"], opts),
    isLimit("event-too-large"),
  );
  assert.throws(
    () => collect(["data: 01234567890\rdata: x\r\r"], opts),
    isLimit("event-too-large"),
  );
  // Exactly at the bound on each path: accepted.
  assert.deepEqual(collect(["data: 0123456789\n\n"], opts).messages.map((m) => m.data), [
    "0123456789",
  ]);
  assert.deepEqual(collect(["data: 01234\rdata: 5678\r\r"], opts).messages.map((m) => m.data), [
    "01234\n5678",
  ]);
});
