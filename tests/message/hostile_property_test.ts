/**
 * "Never throws", one property per public function of the message area:
 * hostile values (`tests/_helpers/hostile.ts`: proxies, revoked proxies,
 * throwing / value-changing getters, null prototypes, throwing `toString`,
 * deep nesting) in every argument position, mixed with well-shaped values
 * corrupted anywhere inside (`hostileLike`), {@link HOSTILE_RUNS} runs each.
 *
 * Functions documented as never throwing must return; the typed builders
 * (documented to throw for a programmer's mistake) may throw a
 * `MessageArgumentError` and nothing else. Where an output has an invariant,
 * it is checked too.
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import { parseChatEnvelope } from "../../src/v1/parse.ts";
import {
  capDeliveryStatus,
  createDataPart,
  deliveryFromSendResult,
  endorseAgentMessage,
  fromHitlGate,
  fromMessagingInbound,
  fromUIMessage,
  isDataPartType,
  isToolPart,
  isToolPartType,
  markHumanEndorsed,
  parseChatMessage,
  parseHitlGate,
  parseInboundChatMessage,
  toHitlAnswer,
  toMessagingOutbound,
  toolNameOf,
  toUIMessage,
} from "../../message.ts";
import {
  checkUIMessageChunk,
  detectAiSdkStream,
  foldUIMessage,
  foldUIMessageChunks,
  foldUIMessageStream,
  isUIMessageChunk,
  UIMessageChunksToV1,
  uiMessageChunksToV1,
  UIMessageFold,
  V1ToUIMessageChunks,
  v1ToUIMessageChunks,
} from "../../ai_sdk.ts";
import { V1ToAgUi, v1ToAgUiEvents } from "../../ag_ui.ts";
import { MessageArgumentError } from "../../src/message/errors.ts";
import { type Hostile, hostile, HOSTILE_RUNS, hostileLike } from "../_helpers/hostile.ts";
import { v1Stream, validChunk } from "./_arbitraries.ts";

/** Hostile or corrupted-but-well-shaped values of `shape`, as recipes. */
const arg = <T>(shape: fc.Arbitrary<T>): fc.Arbitrary<Hostile> =>
  fc.oneof({ weight: 1, arbitrary: hostile() }, { weight: 3, arbitrary: hostileLike(shape) });

const text = fc.string({ maxLength: 12 });
const iso = fc.constantFrom("2026-01-01T00:00:00.000Z", "2026-11-30T01:00:00+02:00", "yesterday");
const part = fc.oneof(
  fc.record({ type: fc.constant("text"), text }),
  fc.record({
    type: fc.constantFrom("tool-gate", "tool-x"),
    toolCallId: text,
    state: fc.constantFrom(
      "input-available",
      "output-available",
      "output-denied",
      "approval-requested",
    ),
    input: fc.jsonValue({ maxDepth: 1 }),
    output: fc.jsonValue({ maxDepth: 1 }),
    approval: fc.record({ id: text, approved: fc.boolean(), reason: text }, {
      requiredKeys: ["id"],
    }),
  }, { requiredKeys: ["type", "toolCallId", "state"] }),
  fc.record({
    type: fc.constantFrom("data-x", "step-start", "file", "reasoning"),
    data: fc.jsonValue({ maxDepth: 1 }),
  }),
);
const chatMessageShape = fc.record({
  id: text,
  threadId: text,
  authorId: text,
  role: fc.constantFrom("user", "assistant", "system"),
  createdAt: iso,
  parts: fc.array(part, { maxLength: 4 }),
  metadata: fc.dictionary(text, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
  provenance: fc.constantFrom({ authored: "agent" }, { authored: "human" }, {
    authored: "agent",
    endorsedBy: "human",
    attestedBy: "u",
  }),
}, { requiredKeys: ["id", "threadId", "authorId", "role", "createdAt", "parts"] });
const gateShape = fc.record({
  id: text,
  prompt: text,
  status: fc.constantFrom("pending", "resolved", "cancelled", "expired", "gone"),
  createdAt: iso,
  payload: fc.jsonValue({ maxDepth: 1 }),
  reason: text,
  schema: fc.constant({ type: "object" }),
  expiresAt: iso,
}, { requiredKeys: ["id", "prompt", "status", "createdAt"] });
const gateContext = fc.record({ threadId: text, authorId: text });
const chunks = fc.array(validChunk, { maxLength: 12 });
const options = fc.record({
  maxParts: fc.oneof(fc.nat(8), fc.constant(NaN)),
  maxChars: fc.oneof(fc.nat(40), fc.constant(NaN)),
  maxIssues: fc.nat(5),
  replay: fc.boolean(),
  messageId: text,
}, { requiredKeys: [] });
const allocator = fc.record({ conversationId: text, turnId: text });

/** A fresh value of recipe `h`. */
function build(h: Hostile): unknown {
  return h.build();
}

/** The first items of `list` when it is an array, else `[list]` (never throws). */
function firstItems(list: unknown): unknown[] {
  try {
    return Array.isArray(list) ? list.slice(0, 5) : [list];
  } catch {
    return [list];
  }
}

/** `f(...args)` returns, or throws a MessageArgumentError when `typed`; the result (if any). */
function call(f: (...args: unknown[]) => unknown, args: Hostile[], typed = false): unknown {
  const built = args.map(build);
  try {
    return f(...built);
  } catch (e) {
    if (typed && e instanceof MessageArgumentError) return undefined;
    throw new Error(`threw ${String(e)} on ${args.map((a) => a.label).join(" | ")}`);
  }
}

/** One property: `n` argument generators, `HOSTILE_RUNS` runs. */
function property(shapes: fc.Arbitrary<Hostile>[], check: (args: Hostile[]) => void): void {
  fc.assert(fc.property(fc.tuple(...shapes), (args) => check(args)), { numRuns: HOSTILE_RUNS });
  const probe = {} as Record<string, unknown>;
  assert.equal(probe.polluted, undefined);
  assert.equal(Object.hasOwn(Object.prototype, "type"), false);
}

const isResult = (r: unknown) => typeof (r as { ok?: unknown }).ok === "boolean";

Deno.test("isDataPartType / isToolPartType / isToolPart answer a boolean for anything", () => {
  property([arg(fc.constantFrom("data-x", "tool-x", "data-a-b"))], ([v]) => {
    for (const f of [isDataPartType, isToolPartType, isToolPart] as ((x: unknown) => unknown)[]) {
      assert.equal(typeof call(f, [v]), "boolean");
    }
  });
});

Deno.test("createDataPart refuses or builds, never throws", () => {
  property([arg(fc.constantFrom("x", "gate_ref", "a-b")), arg(fc.jsonValue()), arg(text)], (a) => {
    assert.ok(isResult(call(createDataPart as never, a)));
  });
});

Deno.test("toolNameOf throws only MessageArgumentError", () => {
  property(
    [arg(fc.record({ type: fc.constantFrom("tool-x", "dynamic-tool"), toolName: text }))],
    (a) => {
      const r = call(toolNameOf as never, a, true);
      assert.ok(r === undefined || typeof r === "string");
    },
  );
});

Deno.test("capDeliveryStatus never throws", () => {
  const status = fc.constantFrom("pending", "accepted", "delivered", "read", "held", "x");
  property([arg(status), arg(status)], (a) => void call(capDeliveryStatus as never, a));
});

Deno.test("parseChatMessage / parseInboundChatMessage return a Result for anything", () => {
  property([arg(chatMessageShape)], (a) => {
    assert.ok(isResult(call(parseChatMessage as never, a)));
    assert.ok(isResult(call(parseInboundChatMessage as never, a)));
  });
});

Deno.test("endorseAgentMessage returns a Result; markHumanEndorsed throws only MessageArgumentError", () => {
  property([arg(chatMessageShape), arg(fc.constantFrom("user:alice", ""))], (a) => {
    assert.ok(isResult(call(endorseAgentMessage as never, a)));
    call(markHumanEndorsed as never, a, true);
  });
});

Deno.test("toUIMessage / fromUIMessage throw only MessageArgumentError", () => {
  property([arg(chatMessageShape), arg(chatMessageShape)], (a) => {
    call(toUIMessage as never, [a[0]], true);
    call(fromUIMessage as never, a, true);
  });
});

Deno.test("checkUIMessageChunk / isUIMessageChunk never throw", () => {
  property([arg(validChunk)], (a) => {
    const why = call(checkUIMessageChunk as never, a);
    assert.ok(why === null || typeof why === "string");
    assert.equal(typeof call(isUIMessageChunk as never, a), "boolean");
  });
});

Deno.test("detectAiSdkStream never throws", () => {
  const sse = chunks.map((cs) => cs.map((c) => `data: ${JSON.stringify(c)}\n\n`).join(""));
  property([arg(sse), arg(fc.record({ maxChars: fc.oneof(fc.nat(), fc.constant(NaN)) }))], (a) => {
    const r = call(detectAiSdkStream as never, a) as { chunks: unknown[] } | null;
    if (r !== null) assert.ok(r.chunks.every((c) => checkUIMessageChunk(c) === null));
  });
});

Deno.test("UIMessageFold (constructor, push, result) never throws", () => {
  property([arg(options), arg(validChunk), arg(validChunk), arg(fc.nat(5))], ([o, c1, c2, i]) => {
    const fold = call((x) => new UIMessageFold(x as never), [o]) as UIMessageFold;
    call((x, y) => fold.push(x, y as number), [c1, i]);
    call((x) => fold.push(x), [c2]);
    const r = fold.result();
    assert.equal(r.message.role, "assistant");
    assert.equal(r.count, 2);
  });
});

Deno.test("foldUIMessage / foldUIMessageChunks never throw", () => {
  property([arg(chunks), arg(options)], (a) => {
    const r = call(foldUIMessage as never, a) as { message: { role: string } };
    assert.equal(r.message.role, "assistant");
    call(foldUIMessageChunks as never, [a[0]]);
  });
  property([arg(v1Stream)], (a) => void call(foldUIMessage as never, a));
});

Deno.test("foldUIMessageStream never rejects", async () => {
  await fc.assert(
    fc.asyncProperty(arg(chunks), fc.boolean(), arg(options), async (src, wrap, o) => {
      const built = build(src);
      const stream = wrap
        ? (async function* () {
          yield* built as unknown[];
        })()
        : built;
      const r = await foldUIMessageStream(stream as never, build(o) as never);
      assert.equal(r.message.role, "assistant");
    }),
    { numRuns: HOSTILE_RUNS },
  );
});

Deno.test("V1ToUIMessageChunks / v1ToUIMessageChunks never throw; every chunk is valid", () => {
  property([arg(v1Stream), arg(options)], ([envs, o]) => {
    const r = call(v1ToUIMessageChunks as never, [envs, o]) as { chunks: unknown[] };
    assert.ok(r.chunks.every((c) => checkUIMessageChunk(c) === null));
    const a = call((x) => new V1ToUIMessageChunks(x as never), [o]) as V1ToUIMessageChunks;
    for (const e of firstItems(build(envs))) assert.ok(isResult(a.push(e)));
    a.end();
  });
});

Deno.test("UIMessageChunksToV1 / uiMessageChunksToV1 never throw; envelopes are valid v1, seq gapless", () => {
  property([arg(chunks), arg(allocator), arg(fc.constant({}))], ([cs, ids, o]) => {
    let n = 0;
    const withIds = () => {
      const v = build(ids);
      try {
        if (v !== null && typeof v === "object" && !Array.isArray(v)) {
          Object.defineProperty(v, "nextEventId", { value: () => `e${++n}` });
        }
      } catch { /* a hostile allocator stays as it is */ }
      return v;
    };
    const one = { build: withIds, label: ids.label };
    const r = call(uiMessageChunksToV1 as never, [cs, one, o]) as {
      envelopes: { seq: number }[];
    };
    r.envelopes.forEach((e, i) => {
      assert.equal(e.seq, i + 1);
      // (opaque data such as a tool input is kept by reference: it may be hostile itself)
      if (!parseChatEnvelope(e).ok) assert.fail(`envelope ${i + 1} is not valid v1`);
    });
    const a = call((x, y) => new UIMessageChunksToV1(x as never, y as never), [
      one,
      o,
    ]) as UIMessageChunksToV1;
    for (const c of firstItems(build(cs))) a.push(c);
  });
});

Deno.test("V1ToAgUi / v1ToAgUiEvents never throw", () => {
  property([arg(v1Stream)], ([envs]) => {
    call(v1ToAgUiEvents as never, [envs]);
    const a = new V1ToAgUi();
    for (const e of firstItems(build(envs))) assert.ok(isResult(a.push(e)));
    a.end();
  });
});

Deno.test("messaging adapter functions throw only MessageArgumentError", () => {
  const inbound = fc.record({ status: fc.constant("accepted"), handle: text, guid: text, text });
  const context = fc.record({ threadId: text, authorId: text, createdAt: iso });
  const result = fc.oneof(
    fc.record({ ok: fc.constant(true), messageGuid: text }),
    fc.record({ ok: fc.constant(false), error: fc.record({ kind: text }) }),
  );
  property([arg(inbound), arg(context), arg(chatMessageShape), arg(text), arg(result)], (a) => {
    call(fromMessagingInbound as never, [a[0], a[1]], true);
    call(toMessagingOutbound as never, [a[2], a[3]], true);
    call(deliveryFromSendResult as never, [a[4], a[3], a[3]], true);
  });
});

Deno.test("parseHitlGate returns a Result; fromHitlGate throws only MessageArgumentError; toHitlAnswer never throws", () => {
  property([arg(gateShape), arg(gateContext), arg(chatMessageShape)], (a) => {
    assert.ok(isResult(call(parseHitlGate as never, [a[0], a[1]])));
    call(fromHitlGate as never, [a[0], a[1]], true);
    call(toHitlAnswer as never, [a[2]]);
  });
});
