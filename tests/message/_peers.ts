/**
 * Test helper: the real peers as oracles, in process. `ai@7.0.173`
 * (`readUIMessageStream`, `uiMessageChunkSchema`) and `@ag-ui/client@1.0.0`
 * (`HttpAgent` fed by `@ag-ui/encoder`'s SSE encoding, checked by
 * `verifyEvents`; `@ag-ui/core`'s `EventSchemas`).
 *
 * @module
 */
import { readUIMessageStream, type UIMessage, type UIMessageChunk, uiMessageChunkSchema } from "ai";
import { HttpAgent, verifyEvents } from "@ag-ui/client";
import { EventSchemas } from "@ag-ui/core/schemas";
import { EventEncoder } from "@ag-ui/encoder";

/** What the AI SDK's own fold made of a chunk stream. */
export interface AiFold {
  /** The last message `readUIMessageStream` produced (JSON-normalised), or `null`. */
  readonly message: UIMessage | null;
  /** Every error it reported, as text. */
  readonly errors: string[];
}

/** Run `chunks` through the real `readUIMessageStream`. */
export async function aiFold(chunks: readonly unknown[]): Promise<AiFold> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(c) {
      for (const ch of chunks) c.enqueue(ch as UIMessageChunk);
      c.close();
    },
  });
  let last: UIMessage | null = null;
  const errors: string[] = [];
  for await (
    const m of readUIMessageStream({ stream, onError: (e) => errors.push(String(e)) })
  ) last = m;
  return { message: last === null ? null : JSON.parse(JSON.stringify(last)), errors };
}

// deno-lint-ignore no-explicit-any
const chunkSchema = (uiMessageChunkSchema as any)();

/** The indexes of the chunks the AI SDK's `uiMessageChunkSchema` refuses (after a JSON round trip). */
export async function aiRefusedChunks(chunks: readonly unknown[]): Promise<number[]> {
  const bad: number[] = [];
  for (let i = 0; i < chunks.length; i++) {
    const v = await chunkSchema.validate(JSON.parse(JSON.stringify(chunks[i])));
    if (v.success !== true) bad.push(i);
  }
  return bad;
}

/** The indexes of the events `@ag-ui/core`'s `EventSchemas` refuses. */
export function agUiRefusedEvents(events: readonly unknown[]): number[] {
  const bad: number[] = [];
  events.forEach((e, i) => {
    if (!EventSchemas.safeParse(e).success) bad.push(i);
  });
  return bad;
}

/** AG-UI's own SSE encoding of `events` (`@ag-ui/encoder`). */
export function agUiSse(events: readonly unknown[]): string {
  const encoder = new EventEncoder();
  return events.map((e) => encoder.encodeSSE(e as never)).join("");
}

/**
 * Run an SSE body through a real `HttpAgent` (its SSE parser, event
 * schemas, `verifyEvents`); resolve with the events that came out and the
 * error, if any.
 */
export function agUiVerifyBody(
  body: string | Uint8Array,
): Promise<{ events: { type: string }[]; error?: string }> {
  const agent = new HttpAgent({
    url: "http://127.0.0.1:1/never",
    fetch: () =>
      Promise.resolve(
        new Response(body as BodyInit, { headers: { "content-type": "text/event-stream" } }),
      ),
  });
  const seen: { type: string }[] = [];
  return new Promise((resolve) => {
    agent.run({
      threadId: "conv-1",
      runId: "run",
      tools: [],
      context: [],
      forwardedProps: {},
      state: {},
      messages: [],
    }).pipe(verifyEvents(false)).subscribe({
      next: (e: { type: string }) => seen.push(e),
      error: (e: unknown) => resolve({ events: seen, error: String(e) }),
      complete: () => resolve({ events: seen }),
    });
  });
}

/** {@link agUiVerifyBody} of `events` encoded by `@ag-ui/encoder`. */
export function agUiVerify(
  events: readonly unknown[],
): Promise<{ events: { type: string }[]; error?: string }> {
  return agUiVerifyBody(agUiSse(events));
}
