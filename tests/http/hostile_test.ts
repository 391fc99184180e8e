/**
 * "Never throws", one property per new public function of `./http` and of
 * the adapters' additions (`./ai-sdk`, `./ag-ui`, `./message`): hostile
 * values (`tests/_helpers/hostile.ts`) in every argument position, mixed
 * with well-shaped values corrupted anywhere inside (`hostileLike`),
 * {@link HOSTILE_RUNS} runs each. The response helpers must resolve to a
 * `Response` (never reject), whose body can be read or cancelled; Deno's
 * sanitizers fail the test if a heartbeat timer survived a response.
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import {
  AgUiEventSseStream,
  agUiResponse,
  ChatEnvelopeSseStream,
  parseTurnSeqEventId,
  readLastEventId,
  streamRefusal,
  streamRefusalResponse,
  turnSeqEventId,
  UIMessageChunkSseStream,
  uiMessageStreamResponse,
  v1SseResponse,
} from "../../http.ts";
import { V1ToUIMessageChunks, V1ToUIMessageChunksStream } from "../../ai_sdk.ts";
import { parseAgUiResume, V1ToAgUi, V1ToAgUiStream } from "../../ag_ui.ts";
import { type Hostile, hostile, HOSTILE_RUNS, hostileLike } from "../_helpers/hostile.ts";
import { validTurn } from "../message/_valid_turns.ts";

const arg = <T>(shape: fc.Arbitrary<T>): fc.Arbitrary<Hostile> =>
  fc.oneof({ weight: 1, arbitrary: hostile() }, { weight: 3, arbitrary: hostileLike(shape) });

const turnFrames = validTurn.map((t) => t.envelopes);
const options = fc.record({
  heartbeatMs: fc.constantFrom(0, 1, -1, NaN, 1e12),
  maxFrames: fc.constantFrom(3, 10_000, 10_000, 10_000, -1),
  retryMs: fc.constantFrom(0, 10, -5, 1.5, null),
  maxLastEventIdLength: fc.constantFrom(0, 4, 1024),
  lastEventIdParam: fc.constantFrom("lastEventId", "since", null),
  messageId: fc.constantFrom("m", ""),
  runId: fc.constantFrom("r", ""),
  endAtInput: fc.boolean(),
  continuation: fc.oneof(
    fc.record({ afterSeq: fc.constantFrom(0, 2, 99, -1) }),
    fc.record({ cardIds: fc.array(fc.constantFrom("card-1", "card-2", "x"), { maxLength: 3 }) }),
  ),
  headers: fc.constantFrom({ "x-a": "1" }, { "bad header": "x" }),
}, { requiredKeys: [] });

/** Read (or give up on) a response body within a few milliseconds. */
async function drain(res: Response): Promise<void> {
  assert.ok(res instanceof Response);
  if (res.body === null) return;
  const reader = res.body.getReader();
  const stop = setTimeout(() => reader.cancel().catch(() => {}), 20);
  try {
    for (let i = 0; i < 10_000; i++) {
      const r = await reader.read();
      if (r.done) break;
    }
  } finally {
    clearTimeout(stop);
    await reader.cancel().catch(() => {});
  }
}

/** A source from (possibly corrupted) frames: a window, sometimes a live feed of them too. */
function sourceOf(frames: unknown, live: boolean, shape: number): unknown {
  const window = {
    bounds: () => ({ lowestRetainedSeq: 1, latestSeq: Array.isArray(frames) ? frames.length : 0 }),
    readAfter: (_t: string, after: number) => Array.isArray(frames) ? frames.slice(after) : frames,
  };
  return {
    conversationId: shape === 0 ? 1 : "c",
    turnId: "t",
    window: shape === 1 ? undefined : window,
    live: live ? () => ReadableStream.from(Array.isArray(frames) ? frames : [frames]) : undefined,
  };
}

function requestOf(id: unknown): unknown {
  if (typeof id !== "string") return id;
  try {
    return new Request("http://x/", { headers: { "last-event-id": id.slice(0, 2000) } });
  } catch {
    const ascii = id.slice(0, 2000).replace(/[^\x21-\x7e]/g, "_");
    return new Request(`http://x/?lastEventId=${encodeURIComponent(ascii)}`);
  }
}

/** The items of a (possibly hostile) list, or the value itself as one item. */
function itemsOf(x: unknown): unknown[] {
  try {
    return Array.isArray(x) ? [...x] : [x];
  } catch {
    return [x];
  }
}

for (
  const [name, respond] of [
    ["v1SseResponse", v1SseResponse],
    ["uiMessageStreamResponse", uiMessageStreamResponse],
    ["agUiResponse", agUiResponse],
  ] as const
) {
  Deno.test(`${name} never throws or rejects: hostile request, source and options`, async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        arg(fc.constantFrom("t:1", "t:3", "x:1", "", "e2")),
        arg(turnFrames),
        fc.boolean(),
        fc.constantFrom(0, 1, 2, 2, 2, 2, 2, 3),
        fc.oneof({ weight: 1, arbitrary: hostile() }, {
          weight: 6,
          arbitrary: hostileLike(options),
        }),
        async (req, frames, live, shape, opts) => {
          const source = shape === 3 ? frames.build() : sourceOf(frames.build(), live, shape);
          const res = await respond(
            requestOf(req.build()) as never,
            source as never,
            opts.build() as never,
          );
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          await drain(res);
        },
      ),
      { numRuns: HOSTILE_RUNS },
    );
    // the property reaches streaming responses, not only refusals
    assert.ok((statuses.get(200) ?? 0) > HOSTILE_RUNS / 10, JSON.stringify([...statuses]));
  });
}

Deno.test("readLastEventId, parseTurnSeqEventId, streamRefusal, streamRefusalResponse never throw", () => {
  fc.assert(
    fc.property(
      hostile(),
      arg(fc.record({ maxLength: fc.nat(), queryParam: fc.string() })),
      (r, o) => {
        const x = readLastEventId(r.build() as never, o.build() as never);
        assert.equal(typeof x.ok, "boolean");
      },
    ),
    { numRuns: HOSTILE_RUNS },
  );
  fc.assert(
    fc.property(arg(fc.string()), arg(fc.string()), (id, turn) => {
      const c = parseTurnSeqEventId(id.build() as never, turn.build() as never);
      assert.ok(["seq", "other-turn", "other"].includes(c.kind));
    }),
    { numRuns: HOSTILE_RUNS },
  );
  fc.assert(
    fc.property(
      arg(fc.constantFrom("stale-cursor", "gap", "__proto__")),
      arg(fc.string()),
      arg(fc.record({ afterSeq: fc.integer() })),
      (code, message, extra) => {
        const r = streamRefusal(
          code.build() as never,
          message.build() as never,
          extra.build() as never,
        );
        assert.equal(typeof r.status, "number");
        const res = streamRefusalResponse(r);
        assert.ok(res.status >= 400 && res.status <= 599);
      },
    ),
    { numRuns: HOSTILE_RUNS },
  );
  fc.assert(
    fc.property(
      arg(fc.record({ code: fc.string(), message: fc.string(), status: fc.integer() })),
      (r) => {
        const res = streamRefusalResponse(r.build() as never);
        assert.ok(res.status >= 400 && res.status <= 599);
      },
    ),
    { numRuns: HOSTILE_RUNS },
  );
});

Deno.test("turnSeqEventId throws only TypeError (its documented contract)", () => {
  fc.assert(
    fc.property(arg(fc.string()), arg(fc.integer()), (t, s) => {
      try {
        const id = turnSeqEventId(t.build() as never, s.build() as never);
        assert.equal(typeof id, "string");
      } catch (e) {
        assert.ok(e instanceof TypeError, String(e));
      }
    }),
    { numRuns: HOSTILE_RUNS },
  );
});

/** Write every value into `stream`, read what comes out; the stream must not error. */
async function through(
  stream: TransformStream<unknown, unknown>,
  values: unknown[],
): Promise<void> {
  const input = new ReadableStream<unknown>({
    start(c) {
      for (const v of values) c.enqueue(v);
      c.close();
    },
  });
  const out = input.pipeThrough(stream);
  try {
    for await (const _ of out) { /* drain */ }
  } catch (e) {
    let why = "?";
    try {
      why = e instanceof Error ? e.stack ?? e.message : typeof e;
    } catch { /* a hostile reason */ }
    throw new Error(`${stream.constructor.name} errored: ${why}`);
  }
}

Deno.test("the TransformStream forms never error on hostile input or options", async () => {
  const make = [
    (o: unknown) => new ChatEnvelopeSseStream(o as never),
    (o: unknown) => new UIMessageChunkSseStream(o as never),
    (o: unknown) => new AgUiEventSseStream(o as never),
    (o: unknown) => new V1ToUIMessageChunksStream(o as never),
    (o: unknown) => new V1ToAgUiStream(o as never),
  ];
  await fc.assert(
    fc.asyncProperty(
      fc.nat({ max: make.length - 1 }),
      arg(fc.record({ retryMs: fc.integer(), runId: fc.string(), resumeAfterSeq: fc.integer() })),
      fc.array(arg(turnFrames), { maxLength: 3 }),
      async (k, o, values) => {
        const frames: unknown[] = [];
        for (const v of values) for (const x of itemsOf(v.build())) frames.push(x);
        await through(make[k](o.build()), frames);
      },
    ),
    { numRuns: HOSTILE_RUNS },
  );
});

Deno.test("adapter options (resumeAfterSeq, onDropped, runId) and push never throw", () => {
  fc.assert(
    fc.property(
      arg(fc.record({
        resumeAfterSeq: fc.integer({ min: -1, max: 30 }),
        runId: fc.string(),
        messageId: fc.string(),
      })),
      arg(turnFrames),
      fc.boolean(),
      (o, frames, throwing) => {
        const opts = o.build() as Record<string, unknown> | null;
        let withCb: unknown = opts;
        try {
          if (typeof opts === "object" && opts !== null) {
            withCb = {
              ...opts,
              onDropped: () => {
                if (throwing) throw new Error("callback");
              },
            };
          }
        } catch {
          withCb = opts;
        }
        const a = new V1ToUIMessageChunks(withCb as never);
        const b = new V1ToAgUi(withCb as never);
        for (const env of itemsOf(frames.build())) {
          assert.equal(typeof a.push(env).ok, "boolean");
          assert.equal(typeof b.resync(env).ok, "boolean");
        }
        assert.ok(Array.isArray(a.end()) && Array.isArray(b.end()));
      },
    ),
    { numRuns: HOSTILE_RUNS },
  );
});

Deno.test("parseAgUiResume never throws", () => {
  const entry = fc.record({
    interruptId: fc.constantFrom("card-1", "", "k"),
    status: fc.constantFrom("resolved", "cancelled", "other"),
    payload: fc.oneof(
      fc.constant(undefined),
      fc.jsonValue({ maxDepth: 2 }),
      fc.record({ approved: fc.boolean() }),
    ),
  });
  fc.assert(
    fc.property(
      arg(
        fc.record({
          threadId: fc.string(),
          runId: fc.string(),
          resume: fc.array(entry, { maxLength: 4 }),
        }),
      ),
      (input) => {
        const r = parseAgUiResume(input.build());
        assert.equal(typeof r.ok, "boolean");
      },
    ),
    { numRuns: HOSTILE_RUNS },
  );
});
