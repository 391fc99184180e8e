/**
 * fast-check arbitraries for UI message chunks and v1 envelopes, with small
 * id pools (so chunks refer to each other) that include prototype keys.
 *
 * @module
 */
import fc from "../_helpers/seed.ts";

const ids = fc.constantFrom("a", "b", "c", "__proto__", "constructor", "toString");
const names = fc.constantFrom("weather", "calc", "get-x", "__proto__");
const json = fc.jsonValue({ maxDepth: 2 });
const text = fc.string({ maxLength: 8 });

/** A well-formed AI SDK UI message chunk (referentially random). */
export const validChunk: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ type: fc.constant("start"), messageId: fc.constantFrom("m1", "m2") }),
  fc.constant({ type: "start-step" }),
  fc.constant({ type: "finish-step" }),
  fc.constant({ type: "reset-step" }),
  fc.record({ type: fc.constant("text-start"), id: ids }),
  fc.record({ type: fc.constant("text-delta"), id: ids, delta: text }),
  fc.record({ type: fc.constant("text-end"), id: ids }),
  fc.record({ type: fc.constant("reasoning-start"), id: ids }),
  fc.record({ type: fc.constant("reasoning-delta"), id: ids, delta: text }),
  fc.record({ type: fc.constant("reasoning-end"), id: ids }),
  fc.record({ type: fc.constant("tool-input-start"), toolCallId: ids, toolName: names }),
  fc.record({
    type: fc.constant("tool-input-delta"),
    toolCallId: ids,
    inputTextDelta: fc.constantFrom('{"a":', '1,"b":[tr', '"x\\u00', "}", "]}", ""),
  }),
  fc.record({
    type: fc.constant("tool-input-available"),
    toolCallId: ids,
    toolName: names,
    input: json,
  }),
  fc.record({ type: fc.constant("tool-output-available"), toolCallId: ids, output: json }),
  fc.record({ type: fc.constant("tool-output-error"), toolCallId: ids, errorText: text }),
  fc.record({ type: fc.constant("tool-approval-request"), approvalId: ids, toolCallId: ids }),
  fc.record({
    type: fc.constant("tool-approval-response"),
    approvalId: ids,
    approved: fc.boolean(),
  }),
  fc.record({ type: fc.constant("tool-output-denied"), toolCallId: ids }),
  fc.record({ type: fc.constantFrom("data-x", "data-__proto__"), id: ids, data: json }),
  fc.record({ type: fc.constant("source-url"), sourceId: ids, url: text }),
  fc.record({ type: fc.constant("file"), url: text, mediaType: text }),
  fc.record({
    type: fc.constant("message-metadata"),
    messageMetadata: fc.dictionary(fc.constantFrom("a", "b", "__proto__"), json, { maxKeys: 2 }),
  }),
  fc.record({ type: fc.constant("error"), errorText: text }),
  fc.record({ type: fc.constant("finish"), finishReason: fc.constantFrom("stop", "tool-calls") }),
);

/** Anything a hostile peer might send as a chunk. */
export const anyChunk: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: validChunk },
  { weight: 1, arbitrary: fc.anything() },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '{"type":"text-delta","id":"a","delta":"x","__proto__":{"polluted":1}}',
      '{"__proto__":{"type":"start"}}',
      '{"type":"message-metadata","messageMetadata":{"__proto__":{"polluted":1}}}',
      '{"type":"tool-input-available","toolCallId":"constructor","toolName":"__proto__","input":{"__proto__":1}}',
    ).map((s) => JSON.parse(s)),
  },
);

const v1Event = fc.oneof(
  fc.record({ type: fc.constant("delta"), text }),
  fc.record({ type: fc.constant("reasoning"), text }),
  fc.record({ type: fc.constant("tool_call"), callId: ids, name: names, input: json }),
  fc.record({
    type: fc.constant("tool_result"),
    callId: ids,
    name: names,
    ok: fc.boolean(),
    output: json,
  }),
  fc.record({
    type: fc.constant("tool_progress"),
    callId: ids,
    progress: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
  fc.record({ type: fc.constant("state"), version: fc.nat(5), snapshot: json }),
  fc.record({ type: fc.constant("session"), sessionId: text }),
  fc.record({ type: fc.constant("navigate"), href: text }),
  fc.record({ type: fc.constantFrom("done") }),
  fc.record({ type: fc.constant("error"), message: text, retryable: fc.boolean() }),
  fc.record({
    type: fc.constant("turn_status"),
    status: fc.constantFrom("running", "cancelled", "interrupted"),
  }),
  fc.anything(),
);

/** A list of v1 envelopes of one turn (seq 1..n), sometimes with junk mixed in. */
export const v1Stream: fc.Arbitrary<unknown[]> = fc.array(
  fc.oneof({ weight: 8, arbitrary: v1Event }, { weight: 1, arbitrary: fc.constant("junk") }),
  { maxLength: 25 },
).map((events) =>
  events.map((event, i) =>
    event === "junk" ? { schemaVersion: 1, seq: "x" } : {
      schemaVersion: 1,
      conversationId: "c",
      turnId: "t",
      eventId: `e${i + 1}`,
      seq: i + 1,
      event,
    }
  )
);
