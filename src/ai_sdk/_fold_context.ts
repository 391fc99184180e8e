/**
 * What the fold's part collaborators (text, tools) share: the part list,
 * the character budget and the orphan report.
 *
 * @module
 */
import type { PartList } from "./_part_list.ts";

/** The fold's shared services, as its collaborators see them. */
export interface FoldContext {
  /** The message's parts. */
  readonly parts: PartList;
  /** Ask the character budget for `chars` appended UTF-16 code units; `false` (reported) when spent. */
  spend(chars: number): boolean;
  /** Report a chunk for a part, call or approval that does not exist. */
  orphan(message: string): void;
  /** Report a chunk that is refused and skipped (`invalid-chunk`). */
  refuse(message: string): void;
}
