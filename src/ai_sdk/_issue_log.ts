/**
 * The bounded list of {@link ChunkIssue}s a fold or a chunk adapter reports:
 * at most `max` kept, the rest only counted.
 *
 * @module
 */
import type { ChunkIssue } from "./chunks.ts";

/** Issues in report order, bounded. */
export class IssueLog {
  /** The kept issues. */
  readonly issues: ChunkIssue[] = [];
  /** Issues reported beyond `max`, counted but not kept. */
  dropped = 0;
  readonly #max: number;

  /** Keep at most `max` issues. */
  constructor(max: number) {
    this.#max = max;
  }

  /** Report one issue at chunk `index`. */
  add(index: number, code: ChunkIssue["code"], message: string): void {
    if (this.issues.length < this.#max) this.issues.push({ index, code, message });
    else this.dropped++;
  }
}
