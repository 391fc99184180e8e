/**
 * Opaque data (`tool_call.input`, `tool_result.output`, `state.snapshot`)
 * must be JSON data: the parser refuses anything else with the path, the
 * zod schema agrees, the chunk adapter reports it instead of emitting it,
 * and the v1 → AI SDK adapter reports a value that changed after parsing.
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import { parseChatEnvelope } from "../../mod.ts";
import { ChatEventEnvelopeSchema } from "../../schemas.ts";
import { uiMessageChunksToV1, V1ToUIMessageChunks } from "../../ai_sdk.ts";
import type { DroppedEvent } from "../../src/v1/dropped_event.ts";
import {
  jsonValueCopy,
  jsonValueProblem,
  MAX_JSON_DEPTH,
  MAX_JSON_NODES,
} from "../../src/_internal/json_value.ts";
import { deepArray, hostile, HOSTILE_RUNS } from "../_helpers/hostile.ts";

const cyclic = () => {
  const o: Record<string, unknown> = { a: 1 };
  o.self = o;
  return o;
};
const holey = () => {
  const a: unknown[] = [1];
  a.length = 3;
  return a;
};

const NOT_JSON: [string, () => unknown, string][] = [
  ["bigint", () => 10n, "event.input"],
  ["nested bigint", () => ({ a: [1, { b: 10n }] }), "event.input.a.1.b"],
  ["cycle", cyclic, "event.input.self"],
  ["symbol", () => Symbol("s"), "event.input"],
  ["function", () => () => 1, "event.input"],
  ["Map", () => new Map([["a", 1]]), "event.input"],
  ["Date", () => new Date(0), "event.input"],
  ["NaN", () => ({ n: NaN }), "event.input.n"],
  ["undefined field", () => ({ u: undefined }), "event.input.u"],
  ["hole", holey, "event.input.1"],
  ["too deep", () => deepArray(MAX_JSON_DEPTH + 5), "event.input"],
];

const call = (input: unknown) => ({
  schemaVersion: 1,
  conversationId: "c",
  turnId: "t",
  eventId: "e1",
  seq: 1,
  event: { type: "tool_call", callId: "k", name: "n", input },
});

Deno.test("parseChatEnvelope refuses input / output / snapshot that is not JSON data, with the path", () => {
  for (const [label, make, path] of NOT_JSON) {
    const r = parseChatEnvelope(call(make()));
    assert.ok(!r.ok && r.error.code === "invalid-envelope", label);
    const issue = r.error.issues[0];
    assert.ok(
      issue.path.startsWith(path.split(".").slice(0, 2).join(".")),
      `${label}: ${issue.path}`,
    );
    if (label !== "too deep") assert.equal(issue.path, path, label);
    assert.equal(issue.code, "not-json", label);
    assert.equal(ChatEventEnvelopeSchema.safeParse(call(make())).success, false, `zod: ${label}`);
  }
  const result = parseChatEnvelope({
    ...call(undefined),
    event: { type: "tool_result", callId: "k", name: "n", ok: true, output: { x: 10n } },
  });
  assert.ok(!result.ok && result.error.code === "invalid-envelope");
  assert.equal(result.error.issues[0].path, "event.output.x");
  const state = parseChatEnvelope({
    ...call(undefined),
    event: { type: "state", version: 1, snapshot: new Set() },
  });
  assert.ok(!state.ok && state.error.code === "invalid-envelope");
  assert.equal(state.error.issues[0].path, "event.snapshot");
  // JSON data passes, null prototypes and shared (acyclic) references included
  const shared = { s: 1 };
  const good = [null, 0, -0, "x", true, [], {}, Object.create(null), { a: [shared, shared] }];
  good.forEach((v, i) => {
    assert.ok(parseChatEnvelope(call(v)).ok, `good value ${i}`);
    assert.ok(ChatEventEnvelopeSchema.safeParse(call(v)).success, `good value ${i}`);
  });
});

Deno.test("jsonValueProblem is bounded: a wide value and a doubling DAG stop at MAX_JSON_NODES", () => {
  let dag: unknown = 1;
  for (let i = 0; i < 40; i++) dag = [dag, dag]; // 2^41 values when written out
  assert.match(jsonValueProblem(dag, "v")?.what ?? "", /more than/);
  const wide: unknown[] = [];
  wide.length = MAX_JSON_NODES + 1;
  assert.match(jsonValueProblem(wide, "v")?.what ?? "", /more than/);
});

/** Equal as JSON data: -0 is 0, a null prototype is a plain object. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === null || typeof a !== "object") return a === b;
  if (b === null || typeof b !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a), kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const ra = a as Record<string, unknown>, rb = b as Record<string, unknown>;
  return ka.every((k) => Object.hasOwn(rb, k) && sameJson(ra[k], rb[k]));
}

Deno.test("jsonValueProblem never throws; what it accepts, JSON round-trips unchanged", () => {
  fc.assert(
    fc.property(
      fc.oneof(hostile().map((h) => h.build), fc.jsonValue().map((j) => () => j)),
      (make) => {
        const v = make();
        const p = jsonValueProblem(v, "v");
        if (p === null) {
          const text = JSON.stringify(v);
          assert.equal(typeof text, "string");
          // the generator's deep arrays (20 000 levels) are past a recursive comparison
          let same: boolean | undefined;
          try {
            same = sameJson(JSON.parse(text), v);
          } catch (e) {
            if (!(e instanceof RangeError)) throw e;
          }
          assert.notEqual(same, false);
        } else assert.equal(typeof p.what, "string");
      },
    ),
    { numRuns: HOSTILE_RUNS },
  );
});

Deno.test("uiMessageChunksToV1 reports a tool input / output that is not JSON data instead of emitting it", () => {
  const ids = () => {
    let n = 0;
    return { conversationId: "c", turnId: "t", nextEventId: () => `e${++n}` };
  };
  const { envelopes, issues } = uiMessageChunksToV1([
    { type: "start" },
    { type: "tool-input-available", toolCallId: "k", toolName: "n", input: { big: 10n } },
    { type: "tool-output-available", toolCallId: "k", output: cyclic() },
    { type: "finish" },
  ], ids());
  assert.deepEqual(issues.map((i) => [i.index, i.code]), [[1, "not-json"], [2, "not-json"]]);
  assert.deepEqual(envelopes.map((e) => e.event), [
    { type: "tool_call", callId: "k", name: "n" },
    { type: "tool_result", callId: "k", name: "n", ok: true },
    { type: "done" },
  ]);
  for (const e of envelopes) assert.ok(parseChatEnvelope(e).ok);
});

Deno.test("V1ToUIMessageChunks reports not-json for data that changed after parsing", () => {
  let reads = 0;
  const input = {
    get a() {
      // JSON while the adapter's intake parses and folds it (two reads), a bigint afterwards
      return ++reads <= 2 ? 1 : 10n;
    },
  };
  const dropped: DroppedEvent[] = [];
  const adapter = new V1ToUIMessageChunks({ onDropped: (d) => dropped.push(d) });
  const r = adapter.push(call(input));
  assert.ok(r.ok);
  const chunk = r.value.find((c) => c.type === "tool-input-available");
  assert.deepEqual(chunk && "input" in chunk ? chunk.input : "missing", {});
  assert.deepEqual(dropped.map((d) => [d.code, d.field]), [["not-json", "input"]]);
});

Deno.test("jsonValueCopy: a plain copy read once (a value-changing getter cannot change it), __proto__ kept as data", () => {
  let reads = 0;
  const fickle = {
    get a() {
      return ++reads === 1 ? [1, { b: "x" }] : 10n;
    },
  };
  const r = jsonValueCopy(fickle, "v");
  assert.ok("copy" in r);
  assert.deepEqual(r.copy, { a: [1, { b: "x" }] });
  assert.equal(jsonValueProblem(r.copy, "v"), null);
  const proto = jsonValueCopy(JSON.parse('{"__proto__":{"polluted":1}}'), "v");
  assert.ok("copy" in proto);
  assert.equal(Object.getPrototypeOf(proto.copy), Object.prototype);
  assert.deepEqual(Object.keys(proto.copy as object), ["__proto__"]);
  assert.deepEqual(jsonValueCopy([1, 10n], "v"), { path: "v.1", what: "a bigint" });
  assert.deepEqual(jsonValueCopy("s", "v"), { copy: "s" });
});
