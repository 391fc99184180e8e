/**
 * Regenerates the real AI SDK captures in `fixtures/ai-sdk/`.
 *
 * Each scenario runs the real `streamText` of `ai@7.0.173` against
 * `MockLanguageModelV4` (from `ai/test`), serves it with
 * `toUIMessageStreamResponse()`, and stores:
 *
 * - `<name>.sse`: the raw SSE response body bytes, exactly as served;
 * - `<name>.expected.json`: the last `UIMessage` the real `readUIMessageStream`
 *   produces from that stream (JSON-normalised: `undefined` keys dropped).
 *
 * Generation is deterministic: fixed message id, fixed response ids, fixed
 * tool-call ids and approval ids (through `_internal.generateId`), no clocks in
 * the output. Re-running writes byte-identical files.
 *
 * Run: `deno task fixtures:update`
 * (= `deno run --allow-read --allow-write=fixtures --allow-env scripts/update_fixtures.ts`).
 *
 * @module
 */
import os from "node:os";
import type { UIMessage, UIMessageChunk } from "ai";

// `ai` pulls in @vercel/oidc (through its gateway), which calls os.hostname()
// while loading. The value only feeds a gateway user agent we never use, so
// without `--allow-sys=hostname` we answer it locally instead of failing.
if (Deno.permissions.querySync({ name: "sys", kind: "hostname" }).state !== "granted") {
  (os as unknown as { hostname: () => string }).hostname = () => "localhost";
}
const {
  jsonSchema,
  parseJsonEventStream,
  readUIMessageStream,
  streamText,
  tool,
  uiMessageChunkSchema,
} = await import("ai");
const { MockLanguageModelV4 } = await import("ai/test");

// deno-lint-ignore no-explicit-any
type StreamPart = any;

const OUT = new URL("../fixtures/ai-sdk/", import.meta.url);

const usage = {
  inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 10, text: 10, reasoning: undefined },
};

function finish(unified: "stop" | "tool-calls"): StreamPart {
  return { type: "finish", finishReason: { unified, raw: unified }, usage };
}

function streamOf(parts: StreamPart[]): ReadableStream<StreamPart> {
  return new ReadableStream({
    start(controller) {
      for (const p of parts) controller.enqueue(p);
      controller.close();
    },
  });
}

function meta(id: string): StreamPart {
  return { type: "response-metadata", id, modelId: "mock-model-id", timestamp: new Date(0) };
}

/** A model whose n-th doStream call plays the n-th script. */
function scriptedModel(scripts: StreamPart[][]): InstanceType<typeof MockLanguageModelV4> {
  let call = 0;
  return new MockLanguageModelV4({
    doStream: () => {
      const parts = scripts[Math.min(call, scripts.length - 1)];
      call++;
      return Promise.resolve({ stream: streamOf(parts) });
    },
  });
}

function idGenerator(prefix: string): () => string {
  let n = 0;
  return () => `${prefix}-${++n}`;
}

const weatherInput = jsonSchema<{ city: string }>({
  type: "object",
  properties: { city: { type: "string" } },
  required: ["city"],
  additionalProperties: false,
});

/** The opening of one model step: `stream-start` + response metadata `resp`. */
function stepStart(resp: string): StreamPart[] {
  return [{ type: "stream-start", warnings: [] }, meta(resp)];
}

/** One text part `id` streamed as `deltas`. */
function text(id: string, ...deltas: string[]): StreamPart[] {
  return [
    { type: "text-start", id },
    ...deltas.map((delta) => ({ type: "text-delta", id, delta })),
    { type: "text-end", id },
  ];
}

/** A complete tool call `call-1` of `toolName` with the JSON `input`. */
function toolCall(toolName: string, input: string): StreamPart {
  return { type: "tool-call", toolCallId: "call-1", toolName, input };
}

/** `streamText` over the scripted `steps` (one per model call) with fixed ids. */
// deno-lint-ignore no-explicit-any
function run(steps: StreamPart[][], prompt: string, extra: Record<string, unknown> = {}): any {
  return streamText({
    model: scriptedModel(steps),
    ...extra,
    prompt,
    _internal: { generateId: idGenerator("gen") },
  });
}

/** Two steps with the `weather` tool: `firstStep` calls it, then the model answers `answer`. */
function weatherRun(
  firstStep: StreamPart[],
  answer: StreamPart[],
  execute: (input: { city: string }) => Promise<{ city: string; tempC: number }>,
  prompt: string,
  // deno-lint-ignore no-explicit-any
): any {
  return run(
    [
      [...stepStart("resp-1"), ...firstStep, finish("tool-calls")],
      [...stepStart("resp-2"), ...answer, finish("stop")],
    ],
    prompt,
    {
      tools: {
        weather: tool({ description: "Current weather", inputSchema: weatherInput, execute }),
      },
      stopWhen: ({ steps }: { steps: unknown[] }) => steps.length >= 2,
    },
  );
}

interface Scenario {
  name: string;
  // deno-lint-ignore no-explicit-any
  run: () => any;
}

const scenarios: Scenario[] = [
  {
    name: "plain_text",
    run: () =>
      run(
        [[...stepStart("resp-1"), ...text("t1", "Hello", ", ", "world!"), finish("stop")]],
        "Say hello",
      ),
  },
  {
    name: "reasoning",
    run: () =>
      run([[
        ...stepStart("resp-1"),
        {
          type: "reasoning-start",
          id: "r1",
          providerMetadata: { anthropic: { signature: "sig-abc" } },
        },
        { type: "reasoning-delta", id: "r1", delta: "The user wants " },
        { type: "reasoning-delta", id: "r1", delta: "a number." },
        { type: "reasoning-end", id: "r1" },
        ...text("t1", "42"),
        finish("stop"),
      ]], "Think, then answer"),
  },
  {
    name: "tool_two_steps",
    run: () =>
      weatherRun(
        [
          ...text("t1", "Let me check."),
          { type: "tool-input-start", id: "call-1", toolName: "weather" },
          { type: "tool-input-delta", id: "call-1", delta: '{"city":' },
          { type: "tool-input-delta", id: "call-1", delta: '"Paris"}' },
          { type: "tool-input-end", id: "call-1" },
          toolCall("weather", '{"city":"Paris"}'),
        ],
        text("t2", "It is 18°C in Paris."),
        ({ city }) => Promise.resolve({ city, tempC: 18 }),
        "Weather in Paris?",
      ),
  },
  {
    name: "tool_error",
    run: () =>
      weatherRun(
        [toolCall("weather", '{"city":"Atlantis"}')],
        text("t1", "I could not find that city."),
        ({ city }) => Promise.reject(new Error(`unknown city: ${city}`)),
        "Weather in Atlantis?",
      ),
  },
  {
    name: "approval_request",
    run: () =>
      run(
        [[
          ...stepStart("resp-1"),
          ...text("t1", "I need your approval to delete it."),
          toolCall("deleteFile", '{"path":"/tmp/report.txt"}'),
          finish("tool-calls"),
        ]],
        "Delete /tmp/report.txt",
        {
          tools: {
            deleteFile: tool({
              description: "Delete a file",
              inputSchema: jsonSchema<{ path: string }>({
                type: "object",
                properties: { path: { type: "string" } },
                required: ["path"],
                additionalProperties: false,
              }),
              needsApproval: true,
              execute: () => Promise.resolve({ deleted: true }),
            }),
          },
        },
      ),
  },
  {
    // the provider fails mid-text: streamText sends error, finish-step and
    // finish (finishReason "error"); the text part is never ended
    name: "stream_error",
    run: () =>
      run(
        [[
          ...stepStart("resp-1"),
          { type: "text-start", id: "t1" },
          { type: "text-delta", id: "t1", delta: "Let me think" },
          { type: "error", error: new Error("provider overloaded") },
        ]],
        "Say something",
        { onError: () => {} }, // the error is the scenario: do not log it
      ),
  },
];

/** Parse an SSE body into UI message chunks with the real AI SDK parser. */
async function chunksOf(body: Uint8Array): Promise<UIMessageChunk[]> {
  const stream = parseJsonEventStream({
    stream: new Blob([body as BlobPart]).stream(),
    schema: uiMessageChunkSchema,
  });
  const out: UIMessageChunk[] = [];
  for await (const r of stream as unknown as AsyncIterable<{ success: boolean; value?: unknown }>) {
    if (!r.success) throw new Error("capture holds a chunk the AI SDK rejects");
    out.push(r.value as UIMessageChunk);
  }
  return out;
}

async function lastMessage(chunks: UIMessageChunk[]): Promise<UIMessage | undefined> {
  let last: UIMessage | undefined;
  const stream = new ReadableStream<UIMessageChunk>({
    start(c) {
      for (const ch of chunks) c.enqueue(ch);
      c.close();
    },
  });
  // an `error` chunk is reported, not fatal: the last message is what a UI shows
  for await (const m of readUIMessageStream({ stream, onError: () => {} })) last = m;
  return last;
}

await Deno.mkdir(OUT, { recursive: true });
for (const s of scenarios) {
  const result = s.run();
  const response: Response = result.toUIMessageStreamResponse({
    generateMessageId: () => `msg-${s.name}`,
    sendReasoning: true,
    onError: (e: unknown) => (e instanceof Error ? e.message : String(e)),
  });
  const body = new Uint8Array(await response.arrayBuffer());
  const chunks = await chunksOf(body);
  const message = await lastMessage(chunks);
  const expected = JSON.parse(JSON.stringify(message ?? null));
  await Deno.writeFile(new URL(`${s.name}.sse`, OUT), body);
  await Deno.writeTextFile(
    new URL(`${s.name}.expected.json`, OUT),
    JSON.stringify(expected, null, 2) + "\n",
  );
  console.log(`fixtures/ai-sdk/${s.name}.sse: ${body.length} bytes, ${chunks.length} chunks`);
}
