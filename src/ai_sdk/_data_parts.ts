/**
 * Data parts of the fold: a `data-*` chunk with an `id` upserts the part of
 * that type and id (a later chunk replaces its `data`); without an `id` it
 * appends a part; a `transient` chunk makes no part.
 *
 * @module
 */
import type { ChatPart, DataPart } from "../message/parts.ts";
import type { PartList } from "./_part_list.ts";

/** A `data-*` chunk as the chunk reader returns it. */
export interface DataChunk {
  /** `data-<name>`. */
  type: `data-${string}`;
  /** Upsert key. */
  id?: string;
  /** Application data. */
  data: unknown;
  /** `true`: no part is made. */
  transient?: boolean;
}

function keyOf(type: string, id: string): string {
  return `${type}\u0000${id}`;
}

/** The data parts with an id, by type and id. */
export class DataParts {
  readonly #parts: PartList;
  #byKey = new Map<string, DataPart>();

  /** Data parts placed into `parts`. */
  constructor(parts: PartList) {
    this.#parts = parts;
  }

  /** Forget every data part (a new message starts). */
  clear(): void {
    this.#byKey.clear();
  }

  /** Index the persisted message's (copied) parts: the first of each type and id is upserted. */
  adopt(parts: readonly ChatPart[]): void {
    for (const p of parts) {
      if (!p.type.startsWith("data-")) continue;
      const d = p as DataPart;
      if (d.id === undefined) continue;
      const key = keyOf(d.type, d.id);
      if (!this.#byKey.has(key)) this.#byKey.set(key, d);
    }
  }

  /** The current step was reset: `removed` parts are gone. */
  forget(removed: readonly ChatPart[]): void {
    for (const p of removed) {
      if (!p.type.startsWith("data-")) continue;
      const d = p as DataPart;
      const key = keyOf(d.type, d.id as string);
      if (this.#byKey.get(key) === d) this.#byKey.delete(key);
    }
  }

  /** Apply one `data-*` chunk. */
  apply(c: DataChunk): void {
    if (c.transient === true) return;
    if (c.id === undefined) {
      this.#parts.place({ type: c.type, data: c.data });
      return;
    }
    const key = keyOf(c.type, c.id);
    const existing = this.#byKey.get(key);
    if (existing !== undefined) {
      existing.data = c.data;
      return;
    }
    const part: DataPart = { type: c.type, id: c.id, data: c.data };
    if (this.#parts.place(part)) this.#byKey.set(key, part);
  }
}
