/**
 * Turn text as the v1 → peer adapters send it: through the streaming
 * `<report>` / `<ask>` scanner ({@link TurnTextScanner}), so blocks leave
 * the text and no client ever receives a partial tag, with a count of what
 * the scanner holds back (reported as `held-text` when an output ends
 * before the turn does).
 *
 * @module
 */
import { TurnTextScanner } from "../blocks/turn_text_scanner.ts";
import type { TurnTextSegment } from "../blocks/segments.ts";

/** The UTF-16 code units of the input a segment covers. */
function covered(seg: TurnTextSegment): number {
  return seg.kind === "text" ? seg.text.length : seg.raw.length;
}

/** One turn's text deltas → segments, with the held-back length. */
export class TurnText {
  #scanner = new TurnTextScanner();
  #held = 0;

  /** Code units pushed and not yet emitted in a segment. */
  get held(): number {
    return this.#held;
  }

  /** Feed the next delta; the segments that became final. */
  push(delta: string): TurnTextSegment[] {
    const segs = this.#scanner.push(delta);
    this.#held += delta.length;
    for (const s of segs) this.#held -= covered(s);
    return segs;
  }

  /** The turn ended: every remaining segment (an unclosed tag becomes `invalid`). */
  finish(): TurnTextSegment[] {
    this.#held = 0;
    return this.#scanner.end();
  }
}
