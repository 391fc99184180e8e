/**
 * Test helpers for the stream responses: a real HTTP server on 127.0.0.1
 * (port 0) around a `fetch`-style handler, envelope builders, a live feed
 * the test pushes into, and reading SSE bodies with the reference parser
 * (`eventsource-parser`).
 *
 * @module
 */
import { createParser, type EventSourceMessage } from "eventsource-parser";
import type { ChatEventEnvelope } from "../../mod.ts";

/** A running server: its base URL, and `close()` (waits until it stopped). */
export interface TestServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Serve `handler` on 127.0.0.1, a free port. */
export function serve(handler: (req: Request) => Response | Promise<Response>): TestServer {
  const ac = new AbortController();
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    signal: ac.signal,
    onListen: () => {},
  }, handler);
  const addr = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${addr.port}`,
    async close() {
      ac.abort();
      await server.finished;
    },
  };
}

/** The envelope of `event` at `seq` in turn `turnId` (eventId `<turnId>:<seq>`). */
export function env(
  seq: number,
  event: Record<string, unknown>,
  turnId = "t1",
  conversationId = "c1",
): ChatEventEnvelope {
  return {
    schemaVersion: 1,
    conversationId,
    turnId,
    eventId: `${turnId}:${seq}`,
    seq,
    event: event as never,
  };
}

/** A turn of `n` envelopes: deltas `d<seq>`, then `done` when `done`. */
export function turn(n: number, done = true, turnId = "t1"): ChatEventEnvelope[] {
  const out: ChatEventEnvelope[] = [];
  for (let s = 1; s <= n; s++) {
    out.push(
      env(s, s === n && done ? { type: "done" } : { type: "delta", text: `d${s} ` }, turnId),
    );
  }
  return out;
}

/** A live feed the test pushes envelopes into; records whether the reader stopped it. */
export class LiveFeed {
  #queue: unknown[] = [];
  #wait: (() => void) | null = null;
  #ended = false;
  /** `return()` was called by the reader. */
  stopped = false;
  /** How many times `feed()` was called. */
  subscriptions = 0;

  /** Push a value (or end the feed with `end()`). */
  push(...values: unknown[]): void {
    this.#queue.push(...values);
    this.#wake();
  }
  /** End the feed. */
  end(): void {
    this.#ended = true;
    this.#wake();
  }
  #wake() {
    const w = this.#wait;
    this.#wait = null;
    w?.();
  }
  /** The `live` function of a `TurnSource`. */
  readonly feed = (): AsyncIterable<unknown> => {
    this.subscriptions++;
    const next = async (): Promise<IteratorResult<unknown>> => {
      for (;;) {
        if (this.#queue.length > 0) return { done: false, value: this.#queue.shift() };
        if (this.#ended || this.stopped) return { done: true, value: undefined };
        await new Promise<void>((r) => this.#wait = r);
      }
    };
    const stop = (): Promise<IteratorResult<unknown>> => {
      this.stopped = true;
      this.#wake();
      return Promise.resolve({ done: true, value: undefined });
    };
    return { [Symbol.asyncIterator]: () => ({ next, return: stop }) };
  };
}

/** Every SSE message, comment and `retry` of a body (read to its end). */
export async function readSse(body: ReadableStream<Uint8Array> | null): Promise<{
  events: EventSourceMessage[];
  comments: string[];
  retries: number[];
  text: string;
}> {
  const events: EventSourceMessage[] = [];
  const comments: string[] = [];
  const retries: number[] = [];
  const parser = createParser({
    onEvent: (e) => events.push(e),
    onComment: (c) => comments.push(c),
    onRetry: (r) => retries.push(r),
  });
  let text = "";
  if (body !== null) {
    for await (const chunk of body.pipeThrough(new TextDecoderStream())) {
      text += chunk;
      parser.feed(chunk);
    }
  }
  return { events, comments, retries, text };
}

/** Compare `text` with `fixtures/<path>` (`-- --update` rewrites it). */
export async function assertTextGolden(path: string, text: string): Promise<void> {
  const url = new URL(`../../fixtures/${path}`, import.meta.url);
  if (Deno.args.includes("--update")) {
    await Deno.mkdir(new URL(".", url), { recursive: true });
    await Deno.writeTextFile(url, text);
    return;
  }
  const expected = await Deno.readTextFile(url);
  if (expected !== text) {
    throw new Error(
      `golden mismatch: fixtures/${path}\n--- expected\n${expected}\n--- actual\n${text}`,
    );
  }
}
