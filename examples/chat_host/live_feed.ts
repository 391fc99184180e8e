/**
 * The live feed of the turns this process runs: each envelope the runner
 * appended to the replay log is also kept here, in memory, so the stream
 * responses follow a running turn without querying the database once per
 * reader per event (200 readers on one turn would otherwise read the log
 * 200 times per delta). What happened before this process started comes
 * from the log (the `./http` helpers replay the window first and fill any
 * gap from it).
 *
 * @module
 */
import type { ChatEventEnvelope } from "@papercusp/chat-protocol";

function isTerminal(e: ChatEventEnvelope): boolean {
  const ev = e.event;
  return ev.type === "done" || ev.type === "error" ||
    (ev.type === "turn_status" && ev.status === "cancelled");
}

class Turn {
  readonly frames: ChatEventEnvelope[] = [];
  ended = false;
  waiters = new Set<() => void>();
  wake(): void {
    const w = this.waiters;
    this.waiters = new Set();
    for (const f of w) f();
  }
}

/** In-memory feeds of the running turns, by turn id. */
export class LiveFeeds {
  readonly #turns = new Map<string, Turn>();
  readonly #keepMs: number;

  /** `keepMs`: how long an ended turn's feed is kept for late readers (then the log serves them). */
  constructor(keepMs = 30_000) {
    this.#keepMs = keepMs;
  }

  /** Start a feed for `turnId` (before its runner appends anything). */
  open(turnId: string): void {
    if (!this.#turns.has(turnId)) this.#turns.set(turnId, new Turn());
  }

  /** Whether this process feeds `turnId`. */
  has(turnId: string): boolean {
    return this.#turns.has(turnId);
  }

  /** An envelope the runner appended to the log. */
  publish(envelope: ChatEventEnvelope): void {
    const t = this.#turns.get(envelope.turnId);
    if (t === undefined) return;
    t.frames.push(envelope);
    if (isTerminal(envelope)) this.#end(envelope.turnId, t);
    t.wake();
  }

  /** The runner stopped without a terminal envelope (the host closes). */
  close(turnId: string): void {
    const t = this.#turns.get(turnId);
    if (t !== undefined) this.#end(turnId, t);
  }

  #end(turnId: string, t: Turn): void {
    if (t.ended) return;
    t.ended = true;
    t.wake();
    setTimeout(() => {
      if (this.#turns.get(turnId) === t) this.#turns.delete(turnId);
    }, this.#keepMs);
  }

  /**
   * The `live` of a `TurnSource`: the feed's envelopes after `afterSeq`,
   * then each new one, until the turn's terminal envelope, the end of the
   * feed, or `signal`.
   */
  async *follow(
    turnId: string,
    afterSeq: number,
    signal: AbortSignal,
  ): AsyncGenerator<ChatEventEnvelope> {
    const t = this.#turns.get(turnId);
    if (t === undefined) return;
    let i = 0;
    while (i < t.frames.length && t.frames[i].seq <= afterSeq) i++;
    while (!signal.aborted) {
      while (i < t.frames.length) {
        const e = t.frames[i++];
        yield e;
        if (isTerminal(e)) return;
      }
      if (t.ended) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          signal.removeEventListener("abort", done);
          t.waiters.delete(done);
          resolve();
        };
        t.waiters.add(done);
        signal.addEventListener("abort", done, { once: true });
      });
    }
  }
}
