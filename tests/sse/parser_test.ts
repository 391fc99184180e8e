/**
 * Unit tests of the SSE decoder, one per rule of WHATWG HTML §9.2.6
 * "Interpreting an event stream", with exact expected values.
 *
 * @module
 */
import assert from "node:assert/strict";
import { SseArgumentError, type SseMessage, SseParser } from "../../sse.ts";
import { collect } from "./_helpers.ts";

const enc = new TextEncoder();
const msg = (
  data: string,
  extra: Partial<SseMessage> = {},
): SseMessage => ({ id: undefined, event: undefined, data, lastEventId: "", ...extra });

Deno.test("UTF-8: a multibyte character split across byte chunks decodes once", () => {
  const bytes = enc.encode("data: é€😀\n\n");
  // Split inside é (2 bytes), € (3 bytes) and 😀 (4 bytes).
  const chunks = [bytes.slice(0, 7), bytes.slice(7, 9), bytes.slice(9, 13), bytes.slice(13)];
  assert.deepEqual(collect(chunks).messages, [msg("é€😀")]);
  const oneByOne = [...bytes].map((b) => new Uint8Array([b]));
  assert.deepEqual(collect(oneByOne).messages, [msg("é€😀")]);
});

Deno.test("UTF-8: invalid bytes become U+FFFD", () => {
  const bytes = new Uint8Array([...enc.encode("data: a"), 0xff, 0xc3, ...enc.encode("\n\n")]);
  assert.deepEqual(collect([bytes]).messages, [msg("a\uFFFD\uFFFD")]);
});

Deno.test("BOM: one leading U+FEFF is stripped at stream start only", () => {
  assert.deepEqual(collect(["\uFEFFdata: x\n\n"]).messages, [msg("x")]);
  assert.deepEqual(collect([enc.encode("\uFEFFdata: x\n\n")]).messages, [msg("x")]);
  // BOM bytes split over chunks, and preceded by an empty chunk.
  const bom = enc.encode("\uFEFFdata: x\n\n");
  assert.deepEqual(collect([new Uint8Array(), bom.slice(0, 1), bom.slice(1)]).messages, [msg("x")]);
  // A second BOM is part of the first field name, which is then unknown.
  assert.deepEqual(collect(["\uFEFF\uFEFFdata: x\n\n"]).messages, []);
  // Not at the start: kept (here inside data), also across a chunk boundary.
  assert.deepEqual(collect(["data: \uFEFFx\n\n"]).messages, [msg("\uFEFFx")]);
  const mid = enc.encode("data: \uFEFFx\n\n");
  assert.deepEqual(collect([mid.slice(0, 6), mid.slice(6)]).messages, [msg("\uFEFFx")]);
  // A BOM after a first line is a field-name character.
  assert.deepEqual(collect([":c\n", "\uFEFFdata: x\n\n"]).messages, []);
});

Deno.test("line endings: LF, CR and CRLF are each one line end", () => {
  for (const eol of ["\n", "\r", "\r\n"]) {
    assert.deepEqual(
      collect([`data: a${eol}data: b${eol}${eol}data: c${eol}${eol}`]).messages,
      [msg("a\nb"), msg("c")],
      JSON.stringify(eol),
    );
  }
  // Mixed in one stream.
  assert.deepEqual(collect(["data: a\rdata: b\r\n\ndata: c\n\r"]).messages, [
    msg("a\nb"),
    msg("c"),
  ]);
});

Deno.test("line endings: CR at chunk end + LF at next chunk start is one line end", () => {
  // If the LF were a second line end, the blank line would dispatch "a" alone.
  assert.deepEqual(collect(["data: a\r", "\ndata: b\r", "\n\r", "\n"]).messages, [msg("a\nb")]);
  // Same with empty chunks in between and as bytes.
  assert.deepEqual(
    collect([enc.encode("data: a\r"), new Uint8Array(), "", enc.encode("\ndata: b\r\n\r\n")])
      .messages,
    [msg("a\nb")],
  );
  // CR then CR across chunks: two line ends (the second is a blank line).
  assert.deepEqual(collect(["data: a\r", "\rdata: b\n\n"]).messages, [msg("a"), msg("b")]);
});

Deno.test("a lone CR at the very end of the stream still ends the line", () => {
  assert.deepEqual(collect(["data: a\n\r"]).messages, [msg("a")]);
  assert.deepEqual(collect(["data: a\r\r"]).messages, [msg("a")]);
});

Deno.test("field without colon: whole line is the name, value is empty", () => {
  assert.deepEqual(collect(["data\ndata\n\n"]).messages, [msg("\n")]);
  assert.deepEqual(collect(["data\n\n"]).messages, [msg("")]);
  assert.deepEqual(collect(["event\ndata: x\n\n"]).messages, [msg("x")]);
  assert.deepEqual(collect(["id\ndata: x\n\n"]).messages, [msg("x", { id: "" })]);
});

Deno.test("exactly one leading space after the colon is removed", () => {
  assert.deepEqual(collect(["data:x\n\n"]).messages, [msg("x")]);
  assert.deepEqual(collect(["data: x\n\n"]).messages, [msg("x")]);
  assert.deepEqual(collect(["data:  x \n\n"]).messages, [msg(" x ")]);
  assert.deepEqual(collect(["data:\tx\n\n"]).messages, [msg("\tx")]);
  assert.deepEqual(collect(["event:  e\ndata\n\n"]).messages, [msg("", { event: " e" })]);
  assert.deepEqual(collect(["id:  7\ndata\n\n"]).messages, [
    msg("", { id: " 7", lastEventId: " 7" }),
  ]);
  // Only the first colon separates; the rest belongs to the value.
  assert.deepEqual(collect(["data: a: b:c\n\n"]).messages, [msg("a: b:c")]);
  assert.deepEqual(collect(["data::x\n\n"]).messages, [msg(":x")]);
});

Deno.test("multi-line data joined with LF; empty data lines count", () => {
  assert.deepEqual(collect(["data: a\ndata:\ndata: b\n\n"]).messages, [msg("a\n\nb")]);
  assert.deepEqual(collect(['data: {"a":\ndata: 1}\n\n']).messages, [msg('{"a":\n1}')]);
  assert.deepEqual(collect(["data:\n\n"]).messages, [msg("")]);
  assert.deepEqual(collect(["data:\ndata:\n\n"]).messages, [msg("\n")]);
});

Deno.test("comments: reported without ':' and one space, never dispatched", () => {
  const out = collect([":hello\n: world\n:  two\n:\ndata: x\n: mid\n\n"]);
  assert.deepEqual(out.comments, ["hello", "world", " two", "", "mid"]);
  assert.deepEqual(out.messages, [msg("x")]);
  // A comment alone dispatches nothing.
  assert.deepEqual(collect([": heartbeat\n\n"]).messages, []);
});

Deno.test("event type: set per block, empty value means absent, reset after dispatch", () => {
  assert.deepEqual(collect(["event: a\nevent: b\ndata: 1\n\ndata: 2\n\n"]).messages, [
    msg("1", { event: "b" }),
    msg("2"),
  ]);
  assert.deepEqual(collect(["event: a\nevent:\ndata: 1\n\n"]).messages, [msg("1")]);
  // A block without data resets the event type too.
  assert.deepEqual(collect(["event: a\n\ndata: 1\n\n"]).messages, [msg("1")]);
});

Deno.test("id containing NUL is ignored; other ids set the last event id", () => {
  assert.deepEqual(collect(["id: a\0b\ndata: x\n\n"]).messages, [msg("x")]);
  assert.deepEqual(collect(["id: 1\nid: 2\0\ndata: x\n\n"]).messages, [
    msg("x", { id: "1", lastEventId: "1" }),
  ]);
  // NUL elsewhere (data, event) is fine.
  assert.deepEqual(collect(["event: e\0\ndata: \0\n\n"]).messages, [msg("\0", { event: "e\0" })]);
});

Deno.test("last event id persists across events; `id` is per block", () => {
  const out = collect([
    "id: 1\ndata: a\n\n",
    "data: b\n\n",
    "id: 2\n\n", // no data: nothing dispatched, but the cursor moves
    "data: c\n\n",
    "id\ndata: d\n\n", // empty id resets the cursor
    "data: e\n\n",
  ]);
  assert.deepEqual(out.messages, [
    msg("a", { id: "1", lastEventId: "1" }),
    msg("b", { lastEventId: "1" }),
    msg("c", { lastEventId: "2" }),
    msg("d", { id: "", lastEventId: "" }),
    msg("e", { lastEventId: "" }),
  ]);
  assert.equal(out.lastEventId, "");
  // Initial value and getter.
  const resumed = collect(["data: x\n\nid: 9\n"], { lastEventId: "41" });
  assert.deepEqual(resumed.messages, [msg("x", { lastEventId: "41" })]);
  // "id: 9" sits in a block that never ended: it is not the cursor (WHATWG).
  assert.equal(resumed.lastEventId, "41");
});

Deno.test("the resume cursor never names an event that was not dispatched", () => {
  // A stream cut inside event 2 (after its id line): resuming with
  // Last-Event-ID 2 would make the server skip event 2, which the client
  // never received. WHATWG only moves the cursor at a blank line.
  const messages: SseMessage[] = [];
  const parser = new SseParser({ onEvent: (m) => messages.push(m) });
  parser.feed('id: 1\ndata: a\n\nid: 2\nevent: delta\ndata: {"partial');
  assert.equal(parser.lastEventId, "1"); // mid-block: still the last finished block's
  parser.end();
  assert.equal(parser.lastEventId, "1");
  assert.deepEqual(messages, [msg("a", { id: "1", lastEventId: "1" })]);
  // The id of the next stream's first event is its own, not the discarded one's.
  parser.feed("data: b\n\nid: 3\ndata: c\n\n");
  assert.deepEqual(messages.slice(1), [
    msg("b", { lastEventId: "1" }),
    msg("c", { id: "3", lastEventId: "3" }),
  ]);
  // The same with CR line ends, byte chunks and the fast LF path.
  for (const text of ["id: 1\r\rid: 2\rdata: x", "id: 1\n\nid: 2\ndata: x\n", "id: 1\n\nid: 2\n"]) {
    const p = new SseParser({ onEvent: () => {} });
    p.feed(new TextEncoder().encode(text));
    p.end();
    assert.equal(p.lastEventId, "1", JSON.stringify(text));
  }
});

Deno.test("lastEventId survives end() (reconnect), per-stream state does not", () => {
  const messages: SseMessage[] = [];
  const parser = new SseParser({ onEvent: (m) => messages.push(m) });
  parser.feed("id: 5\ndata: a\n\nevent: e\ndata: partial\n");
  parser.end(); // unterminated event discarded
  assert.equal(parser.lastEventId, "5");
  parser.feed("\uFEFFdata: b\n\n"); // a new stream: its BOM is stripped again
  assert.deepEqual(messages, [
    msg("a", { id: "5", lastEventId: "5" }),
    msg("b", { lastEventId: "5" }),
  ]);
});

Deno.test("retry: only ASCII digits are reported, as base-10 integers", () => {
  const out = collect([
    "retry: 1500\nretry:0\nretry: 007\nretry: -1\nretry: 1.5\nretry: 10 \nretry:\nretry: ١٢\nretry:  5\nretry\n",
  ]);
  assert.deepEqual(out.retries, [1500, 0, 7]);
  assert.deepEqual(out.messages, []);
});

Deno.test("empty data buffer: nothing is dispatched", () => {
  assert.deepEqual(collect(["\n\n\nid: 1\n\nevent: x\n\n: c\n\nbogus: 1\n\n"]).messages, []);
});

Deno.test("unknown fields and case variants are ignored", () => {
  assert.deepEqual(collect(["Data: x\nDATA: y\nbogus: z\ndata : w\ndata: v\n\n"]).messages, [
    msg("v"),
  ]);
});

Deno.test("an unterminated trailing event is not dispatched", () => {
  assert.deepEqual(collect(["data: a\n\ndata: b\n"]).messages, [msg("a")]);
  assert.deepEqual(collect(["data: a\n\ndata: b"]).messages, [msg("a")]);
  assert.deepEqual(collect(["data: a"]).messages, []);
});

Deno.test("__proto__ / constructor as field names or values are plain text", () => {
  const out = collect(["__proto__: x\nconstructor\nevent: __proto__\ndata: constructor\n\n"]);
  assert.deepEqual(out.messages, [msg("constructor", { event: "__proto__" })]);
  assert.equal(Object.getPrototypeOf(out.messages[0]), Object.prototype);
});

Deno.test("string and byte chunks can be mixed; a dangling UTF-8 prefix becomes U+FFFD", () => {
  const e = enc.encode("é");
  assert.deepEqual(collect([enc.encode("data: a"), "b", enc.encode("c\n\n")]).messages, [
    msg("abc"),
  ]);
  assert.deepEqual(collect([new Uint8Array([...enc.encode("data: "), e[0]]), "x\n\n"]).messages, [
    msg("\uFFFDx"),
  ]);
});

Deno.test("callbacks are optional and the constructor validates its options", () => {
  const messages: SseMessage[] = [];
  const parser = new SseParser({ onEvent: (m) => messages.push(m) });
  parser.feed("retry: 5\n: c\ndata: x\n\n");
  assert.deepEqual(messages, [msg("x")]);
  const code = (c: string) => (e: unknown) => e instanceof SseArgumentError && e.code === c;
  // @ts-expect-error: onEvent is required
  assert.throws(() => new SseParser({}), code("invalid-callback"));
  assert.throws(() => new SseParser({ onEvent() {}, maxLineLength: 0 }), code("invalid-limit"));
  assert.throws(
    () => new SseParser({ onEvent() {}, maxEventLength: Infinity }),
    code("invalid-limit"),
  );
  assert.throws(() => new SseParser({ onEvent() {}, maxEventLength: 1.5 }), code("invalid-limit"));
  assert.throws(
    () => new SseParser({ onEvent() {}, lastEventId: 5 as never }),
    code("invalid-last-event-id"),
  );
  assert.throws(
    () => new SseParser({ onEvent() {}, onRetry: 1 as never }),
    code("invalid-callback"),
  );
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  assert.throws(() => new SseParser(revoked.proxy as never), code("invalid-options"));
});
