/**
 * Reference {@link ReplayWindowSeam}: an in-memory buffer of v1 envelopes
 * per turn, with trimming to model retention. It keeps every frame unless
 * `retain` is set, and one buffer per appended turn: a reference for tests,
 * not a production window.
 *
 * @module
 */
import { isRecord } from "../_internal/guards.ts";
import type { ChatEventEnvelope } from "../v1/types.ts";
import type { ReplayBounds, ReplayWindowSeam } from "./replay.ts";

interface TurnBuffer {
  frames: ChatEventEnvelope[];
  /** seq of frames[0] (or latest + 1 when empty). */
  low: number;
  latest: number;
}

/**
 * In-memory retained window. {@link MemoryReplayWindow.append} requires
 * contiguous `seq` per turn; `retain` (frames per turn, default unbounded)
 * drops the oldest frames as new ones arrive.
 */
export class MemoryReplayWindow implements ReplayWindowSeam {
  readonly #turns = new Map<string, TurnBuffer>();
  readonly #retain: number;

  /** `retain`: most frames kept per turn (positive integer; default `Infinity`). */
  constructor(options: { readonly retain?: number } = {}) {
    const r = options.retain;
    this.#retain = typeof r === "number" && r >= 1 ? Math.floor(r) : Infinity;
  }

  #buf(turnId: string): TurnBuffer {
    let b = this.#turns.get(turnId);
    if (!b) {
      b = { frames: [], low: 1, latest: 0 };
      this.#turns.set(turnId, b);
    }
    return b;
  }

  /**
   * Append the next envelope of its turn. Returns `false` (and stores
   * nothing) unless `envelope.seq === latest + 1`.
   */
  append(envelope: ChatEventEnvelope): boolean {
    if (!isRecord(envelope)) return false;
    if (typeof envelope.turnId !== "string") return false;
    const b = this.#buf(envelope.turnId);
    if (envelope.seq !== b.latest + 1) return false;
    b.frames.push(envelope);
    b.latest = envelope.seq;
    if (b.frames.length > this.#retain) {
      this.trimBefore(envelope.turnId, b.latest - this.#retain + 1);
    }
    return true;
  }

  /**
   * Drop retained frames with `seq < seq` (retention moving forward). A `seq`
   * that is not a safe integer is ignored (the window is left unchanged).
   */
  trimBefore(turnId: string, seq: number): void {
    const b = this.#turns.get(turnId);
    if (!b || !Number.isSafeInteger(seq)) return; // an unknown turn has nothing to trim
    const target = Math.min(seq, b.latest + 1);
    if (target <= b.low) return;
    b.frames.splice(0, target - b.low);
    b.low = target;
  }

  /** Current bounds of `turnId` (`{1, 0}` for an unknown turn). */
  bounds(turnId: string): ReplayBounds {
    const b = this.#turns.get(turnId);
    return b
      ? { lowestRetainedSeq: b.low, latestSeq: b.latest }
      : { lowestRetainedSeq: 1, latestSeq: 0 };
  }

  /** Retained frames with `seq > afterSeq`, in order. */
  readAfter(turnId: string, afterSeq: number): readonly ChatEventEnvelope[] {
    const b = this.#turns.get(turnId);
    if (!b) return [];
    const start = Math.max(0, afterSeq - b.low + 1);
    return b.frames.slice(start);
  }
}
