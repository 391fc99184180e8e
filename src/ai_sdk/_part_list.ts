/**
 * The folded message's parts in order, bounded by `maxParts`, with the replay
 * cursor: while a stream replays the persisted message from its start, a new
 * part takes the persisted slot it regenerates (same type, same tool call
 * id) instead of being appended; the first part that differs supersedes the
 * stale persisted tail.
 *
 * @module
 */
import type { ChatPart } from "../message/parts.ts";
import { isToolLike } from "./_tool_parts.ts";

/** The parts of the message being folded. */
export class PartList {
  /** The parts, in order (this fold's own objects). */
  parts: ChatPart[] = [];
  #cursor = -1;
  #end = 0;
  readonly #max: number;
  readonly #onLimit: (message: string) => void;

  /** At most `max` parts; `onLimit` hears about each part refused for it. */
  constructor(max: number, onLimit: (message: string) => void) {
    this.#max = max;
    this.#onLimit = onLimit;
  }

  /** Start over with `parts` (already copied); `replay`: the stream regenerates them from the start. */
  reset(parts: ChatPart[] = [], replay = false): void {
    this.parts = parts;
    this.#cursor = replay ? 0 : -1;
    this.#end = replay ? parts.length : 0;
  }

  /** Append `part` (or, while replaying, put it in its persisted slot). `false` when refused. */
  place(part: ChatPart): boolean {
    if (this.#cursor >= 0 && this.#cursor < this.#end) {
      const old = this.parts[this.#cursor];
      const same = old.type === part.type &&
        (!isToolLike(part) || (isToolLike(old) && old.toolCallId === part.toolCallId));
      if (same) {
        this.parts[this.#cursor++] = part;
        return true;
      }
      // the replay diverges from what was persisted: the stale tail is superseded
      this.parts.length = this.#cursor;
      this.#end = this.#cursor;
    }
    if (this.parts.length >= this.#max) {
      this.#onLimit(`message already holds ${this.#max} parts`);
      return false;
    }
    this.parts.push(part);
    return true;
  }

  /** Remove and return the parts after the last `step-start` (for `reset-step`), last first. */
  cutStep(): ChatPart[] {
    const parts = this.parts;
    let cut = parts.length;
    while (cut > 0 && parts[cut - 1].type !== "step-start") cut--;
    const removed = parts.slice(cut).reverse();
    parts.length = cut;
    if (this.#end > cut) this.#end = cut;
    if (this.#cursor > cut) this.#cursor = cut;
    return removed;
  }
}
