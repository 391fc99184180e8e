/**
 * A request aborted before or while the turn opens releases the live feed,
 * over real HTTP (`Deno.serve` on 127.0.0.1, `fetch`), for all three
 * responses: the client disconnects while the handler awaits (its own work
 * before calling the response function, or the window read while the turn
 * opens), the server observes the abort (`request.signal`), the handler
 * goes on, and once each response was built no subscription of the live
 * feed is left open (`return()` / `cancel()` called and its signal
 * aborted). Judged by barriers on what the server observed, never by time.
 */
import assert from "node:assert/strict";
import { MemoryReplayWindow, type ReplayWindowSeam } from "../../recovery.ts";
import {
  agUiResponse,
  type TurnSource,
  uiMessageStreamResponse,
  v1SseResponse,
} from "../../http.ts";
import { env, serve } from "./_server.ts";

/** Live feeds that count their open subscriptions (iterators and streams alternate). */
class CountingLive {
  opened = 0;
  /** Subscriptions whose `return()` / `cancel()` was called. */
  stopped = 0;
  /** Subscriptions whose signal aborted. */
  aborted = 0;
  readonly live = (_afterSeq: number, signal: AbortSignal) => {
    const n = this.opened++;
    let stopped = false;
    const stop = () => {
      if (!stopped) this.stopped++;
      stopped = true;
    };
    if (signal.aborted) this.aborted++;
    else signal.addEventListener("abort", () => this.aborted++, { once: true });
    // the feed is opened eagerly (the TurnSource doc asks it): buffering starts now
    if (n % 2 === 0) {
      return new ReadableStream<unknown>({ cancel: stop });
    }
    let wake: (() => void) | null = null;
    return {
      [Symbol.asyncIterator]: () => ({
        next: () =>
          stopped
            ? Promise.resolve({ done: true as const, value: undefined })
            : new Promise<IteratorResult<unknown>>((r) =>
              wake = () => r({ done: true, value: undefined })
            ),
        return: () => {
          stop();
          wake?.();
          return Promise.resolve({ done: true as const, value: undefined });
        },
      }),
    };
  };
}

/** A promise and its resolver. */
function deferred<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => resolve = r);
  return { promise, resolve };
}

/** Resolves when `signal` aborts (at once when it has). */
function abortedOf(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((r) => signal.addEventListener("abort", () => r(), { once: true }));
}

/** A window whose `bounds` first waits for `gate` (the turn is opening meanwhile). */
function gatedWindow(gate: () => Promise<void>): ReplayWindowSeam {
  const w = new MemoryReplayWindow();
  w.append(env(1, { type: "delta", text: "hi" }));
  return {
    async bounds(turnId) {
      await gate();
      return w.bounds(turnId);
    },
    readAfter: (turnId, afterSeq) => w.readAfter(turnId, afterSeq),
  };
}

type Respond = (req: Request, source: TurnSource) => Promise<Response>;

const RESPONSES: readonly [string, Respond][] = [
  ["v1SseResponse", (req, s) => v1SseResponse(req, s, { heartbeatMs: 0 })],
  ["uiMessageStreamResponse", (req, s) => uiMessageStreamResponse(req, s, { heartbeatMs: 0 })],
  ["agUiResponse", (req, s) => agUiResponse(req, s, { heartbeatMs: 0, runId: "r1" })],
];

const CLIENTS = 12;

for (const [name, respond] of RESPONSES) {
  for (const phase of ["before", "while"] as const) {
    Deno.test(`${name}: ${CLIENTS} clients that disconnect ${phase} the turn opens leave no live subscription open`, async () => {
      const feeds = new CountingLive();
      const entered: { resolve: () => void }[] = [];
      const built: Promise<Response>[] = [];
      const enteredAll = deferred();
      const builtAll = deferred();
      const server = serve(async (req) => {
        const observed = abortedOf(req.signal);
        const arrived = deferred();
        entered.push(arrived);
        if (entered.length === CLIENTS) enteredAll.resolve();
        const source: TurnSource = {
          conversationId: "c1",
          turnId: "t1",
          live: feeds.live,
          ...(phase === "while" ? { window: gatedWindow(() => observed) } : {}),
        };
        // "before": the host's own work (auth, a lookup) outlasts the client
        if (phase === "before") await observed;
        const p = respond(req, source);
        built.push(p);
        if (built.length === CLIENTS) builtAll.resolve();
        return await p;
      });
      const clients = Array.from({ length: CLIENTS }, () => new AbortController());
      const fetches = clients.map((ac) =>
        fetch(server.url, { signal: ac.signal }).then(
          (res) => res.body?.cancel().catch(() => {}),
          () => {}, // aborted: what the test does
        )
      );
      try {
        await enteredAll.promise;
        for (const ac of clients) ac.abort();
        await Promise.all(fetches);
        // every handler saw its abort and built its response
        await builtAll.promise;
        await Promise.all(built);
        assert.equal(feeds.opened, CLIENTS, "every handler subscribed to the live feed");
        assert.equal(feeds.stopped, CLIENTS, "return() / cancel() of every subscription");
        assert.equal(feeds.aborted, CLIENTS, "the signal of every subscription aborted");
      } finally {
        await server.close();
      }
    });
  }
}
