/**
 * The adapters' `TransformStream` forms equal their one-shot forms (same
 * chunks / events, same refusals in the same order, same drops), whatever
 * way the input is split, and feed the SSE encoders into a body the real
 * peers read (`readUIMessageStream` via our fold check, `@ag-ui` verifier).
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { v1ToUIMessageChunks, V1ToUIMessageChunksStream } from "../../ai_sdk.ts";
import { v1ToAgUiEvents, V1ToAgUiStream } from "../../ag_ui.ts";
import { AgUiEventSseStream, UIMessageChunkSseStream } from "../../http.ts";
import type { DroppedEvent } from "../../ai_sdk.ts";
import { agUiSse, agUiVerifyBody } from "./_peers.ts";
import { validTurn } from "./_valid_turns.ts";
import { envelope } from "./_envelopes.ts";

async function collect<T>(values: unknown[], stream: TransformStream<unknown, T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of ReadableStream.from(values).pipeThrough(stream)) out.push(x);
  return out;
}

Deno.test("property: V1ToUIMessageChunksStream / V1ToAgUiStream equal v1ToUIMessageChunks / v1ToAgUiEvents (with shuffled, lost and foreign input)", async () => {
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
        const oneShot = v1ToUIMessageChunks(input);
        assert.deepEqual(chunks, oneShot.chunks);
        assert.deepEqual(
          [...refusedAi].sort((a, b) => (a as number[])[0] - (b as number[])[0]),
          oneShot.refused.map((r) => [r.index, r.error.code]),
        );
        assert.deepEqual(droppedAi, oneShot.dropped);
        const refusedAg: unknown[] = [];
        const events = await collect(
          input,
          new V1ToAgUiStream({
            onRefused: (r) => refusedAg.push([r.index, r.error.code]),
          }),
        );
        const agOne = v1ToAgUiEvents(input);
        assert.deepEqual(events, agOne.events);
        assert.deepEqual(
          [...refusedAg].sort((a, b) => (a as number[])[0] - (b as number[])[0]),
          agOne.refused.map((r) => [r.index, r.error.code]),
        );
      },
    ),
    { numRuns: 300 },
  );
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
