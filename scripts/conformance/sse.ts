/**
 * Behavioural cases of the SSE decoder (WHATWG event-stream rules): text,
 * bytes or chunks in → messages, retries, comments, the last event id and
 * a limit error.
 *
 * @module
 */
import type { CaseDef, CaseGroup } from "./_def.ts";
import type { Json, JsonObject } from "../../conformance/ts/kinds.ts";

/** Base64 of `bytes` (numbers) or of the UTF-8 of a string. */
export function b64(bytes: number[] | string): string {
  const arr = typeof bytes === "string" ? [...new TextEncoder().encode(bytes)] : bytes;
  return btoa(String.fromCharCode(...arr));
}
const bytesOf = (s: string) => [...new TextEncoder().encode(s)];

const msg = (data: string, over: JsonObject = {}): JsonObject => ({
  id: null,
  event: null,
  data,
  lastEventId: "",
  ...over,
});

function sse(
  id: string,
  description: string,
  kill: string,
  input: JsonObject,
  want: JsonObject,
  rules?: string[],
): CaseDef {
  return { id: `sse.${id}`, kind: "sse", description, kill, rules, input, want };
}
const text = (t: string, extra: JsonObject = {}) => ({ text: t, ...extra });
const none = { messages: [] as Json[] };

const lines: CaseDef[] = [
  sse("lf", "LF line ends", "sse.data-join", text("data: a\ndata: b\n\n"), {
    messages: [msg("a\nb")],
  }, ["sse.line-endings"]),
  sse(
    "crlf",
    "CRLF line ends: one line end each, not two",
    "sse.line-endings",
    text("data: a\r\ndata: b\r\n\r\n"),
    { messages: [msg("a\nb")] },
  ),
  sse("cr", "lone CR line ends", "sse.line-endings", text("data: a\rdata: b\r\r"), {
    messages: [msg("a\nb")],
  }),
  sse(
    "mixed",
    "CR, LF and CRLF mixed in one stream",
    "sse.line-endings",
    text("data: 1\r\n\rdata: 2\n\r\ndata: 3\r\r"),
    { messages: [msg("1"), msg("2"), msg("3")] },
  ),
  sse(
    "crlf-split",
    "CR ending one chunk and LF starting the next are one line end",
    "sse.crlf-across-chunks",
    { chunks: ["data: a\r", "\ndata: b\n\n"] },
    { messages: [msg("a\nb")] },
  ),
  sse(
    "cr-then-lf-line",
    "a CR at a chunk end followed by a chunk starting with a field",
    "sse.line-endings",
    { chunks: ["data: a\r", "data: b\r\r"] },
    { messages: [msg("a\nb")] },
  ),
  sse("bom-text", "one leading BOM is removed", "sse.bom", text("\ufeffdata: x\n\n"), {
    messages: [msg("x")],
  }),
  sse("bom-bytes", "a UTF-8 BOM (EF BB BF) is removed", "sse.bom", {
    base64: b64([0xef, 0xbb, 0xbf, ...bytesOf("data: x\n\n")]),
  }, { messages: [msg("x")] }),
  sse(
    "bom-split",
    "a BOM split over two byte chunks is still removed",
    "sse.bom",
    { chunks: [{ base64: b64([0xef, 0xbb]) }, { base64: b64([0xbf, ...bytesOf("data: x\n\n")]) }] },
    { messages: [msg("x")] },
    ["sse.utf8"],
  ),
];

const fields: CaseDef[] = [
  sse(
    "space",
    "one space after the colon is removed",
    "sse.field-value-space",
    text("data: x\n\n"),
    { messages: [msg("x")] },
  ),
  sse(
    "no-space",
    "no space after the colon is fine",
    "sse.field-value-space",
    text("data:x\n\ndata:  y\n\n"),
    { messages: [msg("x"), msg(" y")] },
  ),
  sse(
    "colon-in-value",
    "only the first colon separates field and value",
    "sse.field-value-space",
    text("data: a:b: c\n\n"),
    { messages: [msg("a:b: c")] },
  ),
  sse(
    "trailing-space",
    "trailing spaces are kept",
    "sse.field-value-space",
    text("data: x  \n\n"),
    { messages: [msg("x  ")] },
  ),
  sse(
    "no-colon",
    "a bare data line is an empty data line",
    "sse.no-colon-field",
    text("data\n\n"),
    { messages: [msg("")] },
  ),
  sse(
    "no-colon-join",
    "bare data lines join as empty lines",
    "sse.no-colon-field",
    text("data\ndata: x\ndata\n\n"),
    { messages: [msg("\nx\n")] },
  ),
  sse(
    "multi-data",
    "data lines join with LF",
    "sse.data-join",
    text("data: a\ndata: b\ndata: c\n\n"),
    { messages: [msg("a\nb\nc")] },
  ),
  sse(
    "empty-data-lines",
    "empty data lines keep their LFs",
    "sse.data-join",
    text("data:\ndata:\n\n"),
    { messages: [msg("\n")] },
  ),
  sse(
    "event-name",
    "event names the next message only",
    "sse.event-name",
    text("event: delta\ndata: 1\n\ndata: 2\n\n"),
    { messages: [msg("1", { event: "delta" }), msg("2")] },
  ),
  sse(
    "event-empty",
    "an empty event value means none",
    "sse.event-name",
    text("event: a\ndata: x\n\nevent:\ndata: y\n\n"),
    { messages: [msg("x", { event: "a" }), msg("y")] },
  ),
  sse(
    "event-last-wins",
    "the last event line of a block wins",
    "sse.event-name",
    text("event: a\nevent: b\ndata: x\n\ndata: y\n\n"),
    { messages: [msg("x", { event: "b" }), msg("y")] },
  ),
  sse(
    "unknown-field",
    "unknown fields are ignored",
    "sse.event-name",
    text("foo: bar\nevent: e\ndata: x\n\ndata: y\n\n"),
    { messages: [msg("x", { event: "e" }), msg("y")] },
  ),
  sse(
    "field-case",
    "field names are case-sensitive: Data is unknown",
    "sse.no-colon-field",
    text("Data: x\ndata\n\n"),
    { messages: [msg("")] },
  ),
];

const dispatch: CaseDef[] = [
  sse(
    "blank-no-data",
    "a blank line without data dispatches nothing",
    "sse.dispatch-needs-data",
    text("event: e\n\ndata: x\n\n"),
    { messages: [msg("x")] },
  ),
  sse(
    "id-only",
    "an id-only block sets the last event id without an event",
    "sse.dispatch-needs-data",
    text("id: 5\n\n"),
    { ...none, lastEventId: "5" },
    ["sse.last-event-id"],
  ),
  sse(
    "many-blanks",
    "several blank lines dispatch once",
    "sse.dispatch-needs-data",
    text("data: a\n\n\n\nid: 1\n\n\ndata: b\n\n"),
    { messages: [msg("a"), msg("b", { lastEventId: "1" })] },
  ),
  sse(
    "unterminated",
    "an event without its blank line at the end is not dispatched",
    "sse.unterminated",
    text("data: a\n\ndata: b\n"),
    { messages: [msg("a")] },
  ),
  sse(
    "unterminated-no-newline",
    "a last line without a line end is not even a line",
    "sse.unterminated",
    text("data: a\n\ndata: b"),
    { messages: [msg("a")] },
  ),
  sse(
    "unterminated-id",
    "an id in an unterminated block does not count",
    "sse.unterminated",
    text("id: 1\ndata: a\n\nid: 2\ndata: b"),
    { messages: [msg("a", { id: "1", lastEventId: "1" })], lastEventId: "1" },
  ),
  sse(
    "comment",
    "comments are reported without one leading space",
    "sse.comments",
    text(": ping\n:pong\n:  two spaces\n\n"),
    { ...none, comments: ["ping", "pong", " two spaces"] },
  ),
  sse(
    "comment-in-event",
    "a comment inside an event does not break it",
    "sse.comments",
    text("data: a\n: keep-alive\ndata: b\n\n"),
    { messages: [msg("a\nb")], comments: ["keep-alive"] },
  ),
  sse("comment-empty", "a lone colon is an empty comment", "sse.comments", text(":\n\n"), {
    ...none,
    comments: [""],
  }),
];

const ids: CaseDef[] = [
  sse(
    "id",
    "id sets the message id and the last event id",
    "sse.last-event-id",
    text("id: 7\ndata: a\n\ndata: b\n\n"),
    {
      messages: [msg("a", { id: "7", lastEventId: "7" }), msg("b", { lastEventId: "7" })],
      lastEventId: "7",
    },
  ),
  sse(
    "id-reset",
    "an empty id resets the last event id",
    "sse.empty-id-resets",
    text("id: 7\ndata: a\n\nid\ndata: b\n\n"),
    {
      messages: [msg("a", { id: "7", lastEventId: "7" }), msg("b", { id: "", lastEventId: "" })],
      lastEventId: "",
    },
  ),
  sse(
    "id-reset-bare",
    "a bare id line is an empty id and resets too",
    "sse.empty-id-resets",
    text("id: 1\n\nid\n\ndata: x\n\n"),
    { messages: [msg("x")], lastEventId: "" },
  ),
  sse(
    "id-initial",
    "an initial last event id is reported until an id replaces it",
    "sse.last-event-id",
    text("data: a\n\nid: 9\ndata: b\n\n", { lastEventId: "42" }),
    {
      messages: [msg("a", { lastEventId: "42" }), msg("b", { id: "9", lastEventId: "9" })],
      lastEventId: "9",
    },
  ),
  sse("id-nul", "an id with NUL is ignored", "sse.id-nul", text("id: a\u0000b\ndata: x\n\n"), {
    messages: [msg("x")],
    lastEventId: "",
  }),
  sse(
    "id-nul-keeps-previous",
    "an id with NUL keeps the previous last event id",
    "sse.id-nul",
    text("id: 1\ndata: a\n\nid: 2\u0000\ndata: b\n\n"),
    { messages: [msg("a", { id: "1", lastEventId: "1" }), msg("b", { lastEventId: "1" })] },
  ),
  sse(
    "id-spaces",
    "an id keeps inner and trailing spaces",
    "sse.field-value-space",
    text("id:  a b \ndata: x\n\n"),
    { messages: [msg("x", { id: " a b ", lastEventId: " a b " })] },
  ),
  sse("retry", "retry with digits is reported", "sse.field-value-space", text("retry: 3000\n\n"), {
    ...none,
    retries: [3000],
  }, ["sse.retry-digits"]),
  sse(
    "retry-not-digits",
    "retry with anything but digits is ignored",
    "sse.retry-digits",
    text("retry: 3s\nretry: -5\nretry: 1.5\nretry:  10\nretry: 250\n\n"),
    { ...none, retries: [250] },
  ),
  sse("retry-zero", "retry 0 is digits", "sse.retry-digits", text("retry: 0\nretry: 0x10\n\n"), {
    ...none,
    retries: [0],
  }),
];

const limits: CaseDef[] = [
  sse(
    "line-too-long",
    "a line over maxLineLength is refused",
    "sse.limits",
    text("data: 0123456789\n\n", { maxLineLength: 10 }),
    { ...none, error: { code: "line-too-long", afterMessages: 0 } },
  ),
  sse(
    "line-at-limit",
    "a line of exactly maxLineLength is fine",
    "sse.line-endings",
    text("data: 0123\rdata: 4\r\r", { maxLineLength: 10 }),
    { messages: [msg("0123\n4")], error: null },
  ),
  sse(
    "event-too-large",
    "event data over maxEventLength is refused",
    "sse.limits",
    text("data: a\n\ndata: abc\ndata: de\n\n", { maxEventLength: 5 }),
    { messages: [msg("a")], error: { code: "event-too-large", afterMessages: 1 } },
  ),
  sse(
    "event-at-limit",
    "event data of exactly maxEventLength is fine",
    "sse.data-join",
    text("data: ab\ndata: cd\n\n", { maxEventLength: 5 }),
    { messages: [msg("ab\ncd")], error: null },
  ),
  sse(
    "limit-utf16",
    "limits count UTF-16 code units: one astral character is two",
    "sse.limits",
    text("data: 𝄞𝄞𝄞\n\n", { maxEventLength: 5 }),
    { ...none, error: { code: "event-too-large", afterMessages: 0 } },
  ),
  sse("line-split-chunks", "a long line arriving in chunks is still refused", "sse.limits", {
    chunks: ["data: 01234", "56789", "\n\n"],
    maxLineLength: 10,
  }, { ...none, error: { code: "line-too-long", afterMessages: 0 } }),
];

const utf8: CaseDef[] = [
  sse("utf8-split-2", "a two-byte character split over chunks", "sse.utf8", {
    chunks: [{ base64: b64([...bytesOf("data: "), 0xc3]) }, {
      base64: b64([0xa9, ...bytesOf("\n\n")]),
    }],
  }, { messages: [msg("é")] }),
  sse("utf8-split-4", "a four-byte character split over three chunks", "sse.utf8", {
    chunks: [{ base64: b64([...bytesOf("data: "), 0xf0, 0x9d]) }, { base64: b64([0x84]) }, {
      base64: b64([0x9e, ...bytesOf("\n\n")]),
    }],
  }, { messages: [msg("𝄞")] }),
  sse(
    "utf8-invalid-split",
    "an invalid byte becomes U+FFFD; the next character still decodes across chunks",
    "sse.utf8",
    {
      chunks: [{ base64: b64([...bytesOf("data: "), 0xff, 0xe2, 0x82]) }, {
        base64: b64([0xac, ...bytesOf("\n\n")]),
      }],
    },
    { messages: [msg("\ufffd€")] },
  ),
  sse("utf8-mixed-chunks", "text and byte chunks mix", "sse.utf8", {
    chunks: ["data: a", { base64: b64([0xc3]) }, { base64: b64([0xa9]) }, "b\n\n"],
  }, { messages: [msg("aéb")] }),
];

/** Every SSE case, grouped into files. */
export const SSE_GROUPS: CaseGroup[] = [
  { file: "sse/lines.json", cases: lines },
  { file: "sse/fields.json", cases: fields },
  { file: "sse/dispatch.json", cases: dispatch },
  { file: "sse/ids-retry.json", cases: ids },
  { file: "sse/limits.json", cases: limits },
  { file: "sse/utf8.json", cases: utf8 },
];
