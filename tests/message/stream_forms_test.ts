/**
 * The adapters' `TransformStream` forms follow the live ordering policy
 * (push; a gap is reported at once, then resync; never wait), equal their
 * one-shot forms on in-order input, and feed the SSE encoders into a body the real
 * peers read (`readUIMessageStream` via our fold check, `@ag-ui` verifier).
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import {
  V1ToUIMessageChunks,
  v1ToUIMessageChunks,
  V1ToUIMessageChunksStream,
} from "../../ai_sdk.ts";
import { V1ToAgUi, v1ToAgUiEvents, V1ToAgUiStream } from "../../ag_ui.ts";
import type { DroppedEvent, Result } from "../../mod.ts";
import { AgUiEventSseStream, UIMessageChunkSseStream } from "../../http.ts";
import { agUiSse, agUiVerifyBody } from "./_peers.ts";
import { validTurn } from "./_valid_turns.ts";
import { envelope } from "./_envelopes.ts";

async function collect<T>(values: unknown[], stream: TransformStream<unknown, T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of ReadableStream.from(values).pipeThrough(stream)) out.push(x);
  return out;
}

/** The live policy by hand: push; a `gap` is reported, then resync; anything else refused is reported. */
function liveLoop<T>(
  adapter: {
    push(e: unknown): Result<T[]>;
    resync(e: unknown): Result<T[]>;
    end(): T[];
  },
  input: unknown[],
): { out: T[]; refused: unknown[] } {
  const out: T[] = [], refused: unknown[] = [];
  input.forEach((value, index) => {
    let r = adapter.push(value);
    if (!r.ok && r.error.code === "gap") {
      refused.push([index, "gap"]);
      r = adapter.resync(value);
    }
    if (r.ok) out.push(...r.value);
    else refused.push([index, r.error.code]);
  });
  out.push(...adapter.end());
  return { out, refused };
}

Deno.test("property: V1ToUIMessageChunksStream / V1ToAgUiStream follow the live policy (push, gap → resync) with shuffled, lost and foreign input, and equal the one-shot forms on in-order input", async () => {
  await fc.assert(
    fc.asyncProperty(
      validTurn,
      fc.array(fc.nat(), { maxLength: 4 }),
      async ({ envelopes }, noise) => {
        const input: unknown[] = [...envelopes];
        for (const n of noise) {
          const i = n % (input.length + 1);
          if (n % 3 === 0 && input.length > 1) input.splice(i % input.length, 1); // lose one
          else if (n % 3 === 1) input.splice(i, 0, { junk: n }); // not an envelope
          else if (input.length > 1) { // swap neighbours
            const j = i % (input.length - 1);
            [input[j], input[j + 1]] = [input[j + 1], input[j]];
          }
        }
        const refusedAi: unknown[] = [], droppedAi: DroppedEvent[] = [];
        const chunks = await collect(
          input,
          new V1ToUIMessageChunksStream({
            onRefused: (r) => refusedAi.push([r.index, r.error.code]),
            onDropped: (d) => droppedAi.push(d),
          }),
        );
        const droppedRef: DroppedEvent[] = [];
        const ai = liveLoop(
          new V1ToUIMessageChunks({ onDropped: (d) => droppedRef.push(d) }),
          input,
        );
        assert.deepEqual(chunks, ai.out);
        assert.deepEqual(refusedAi, ai.refused);
        assert.deepEqual(droppedAi, droppedRef);
        const refusedAg: unknown[] = [];
        const events = await collect(
          input,
          new V1ToAgUiStream({
            onRefused: (r) => refusedAg.push([r.index, r.error.code]),
          }),
        );
        const ag = liveLoop(new V1ToAgUi(), input);
        assert.deepEqual(events, ag.out);
        assert.deepEqual(refusedAg, ag.refused);
        if (noise.length === 0) {
          assert.deepEqual(chunks, v1ToUIMessageChunks(input).chunks);
          assert.deepEqual(events, v1ToAgUiEvents(input).events);
          assert.deepEqual(refusedAi, []);
        }
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("a live stream never waits: seq 1, 3, 4, 5 → every envelope's output at once, the gap reported at seq 3 at once", async () => {
  const text = (seq: number) => envelope(seq, { type: "delta", text: `t${seq} ` });
  for (
    const make of [
      (onRefused: (r: { index: number; error: { code: string } }) => void) =>
        new V1ToUIMessageChunksStream({ onRefused }),
      (onRefused: (r: { index: number; error: { code: string } }) => void) =>
        new V1ToAgUiStream({ onRefused }),
    ]
  ) {
    const refused: unknown[] = [];
    const ts = make((r) => refused.push([r.index, r.error.code]));
    const writer = ts.writable.getWriter();
    const reader = ts.readable.getReader();
    const texts: string[] = [];
    const readText = async () => {
      // read until this envelope's text arrives (a stalled stream never delivers it: the test times out)
      for (;;) {
        const { value } = await reader.read();
        const v = value as Record<string, unknown>;
        const t = v.delta ?? undefined;
        if (typeof t === "string") {
          texts.push(t);
          return;
        }
      }
    };
    for (const [i, seq] of [1, 3, 4, 5].entries()) {
      const written = writer.write(text(seq)); // resolves once read: the readable side has no queue
      await readText();
      await written;
      if (seq === 3) assert.deepEqual(refused, [[1, "gap"]], "the gap is reported at once");
      assert.equal(texts.length, i + 1);
    }
    assert.deepEqual(texts, ["t1 ", "t3 ", "t4 ", "t5 "]);
    // a late seq 2 is too late to apply in order: reported, not emitted
    const late = writer.write(text(2));
    const closed = writer.close();
    while (!(await reader.read()).done); // the turn's closing output
    await late;
    await closed;
    assert.deepEqual(refused, [[1, "gap"], [4, "reordered"]]);
  }
});

Deno.test("envelopes → V1ToAgUiStream → AgUiEventSseStream: @ag-ui/encoder's bytes, verified by HttpAgent; → chunks → UIMessageChunkSseStream ends with [DONE]", async () => {
  const turn = [
    envelope(1, { type: "delta", text: "Hi <report>" }),
    envelope(2, { type: "delta", text: '{"plans":[{"title":"P"}]}</report> there' }),
    envelope(3, { type: "done", stopReason: "end_turn" }),
  ];
  const agBytes = await new Response(
    ReadableStream.from<unknown>(turn).pipeThrough(new V1ToAgUiStream()).pipeThrough(
      new AgUiEventSseStream(),
    ),
  ).text();
  assert.equal(agBytes, agUiSse(v1ToAgUiEvents(turn).events));
  assert.equal((await agUiVerifyBody(agBytes)).error, undefined);
  const aiBytes = await new Response(
    ReadableStream.from<unknown>(turn).pipeThrough(new V1ToUIMessageChunksStream()).pipeThrough(
      new UIMessageChunkSseStream(),
    ),
  ).text();
  const expected =
    v1ToUIMessageChunks(turn).chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("") +
    "data: [DONE]\n\n";
  assert.equal(aiBytes, expected);
  // a chunk without JSON text is skipped and reported
  const problems: string[] = [];
  const odd = await new Response(
    ReadableStream.from<unknown>([{ type: "data-x", data: 1n }, { type: "start" }]).pipeThrough(
      new UIMessageChunkSseStream({ onProblem: (p) => problems.push(p.code) }),
    ),
  ).text();
  assert.equal(odd, 'data: {"type":"start"}\n\ndata: [DONE]\n\n');
  assert.deepEqual(problems, ["not-json"]);
});
