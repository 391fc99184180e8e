/**
 * Text and reasoning parts of the fold: opened by `text-start` /
 * `reasoning-start`, appended to by deltas (within the character budget),
 * closed by the end chunk; a chunk for a stream id that is not open is an
 * orphan.
 *
 * @module
 */
import type { UIMessageChunk } from "./chunks.ts";
import type { ProviderMetadata, ReasoningPart, TextPart } from "../message/parts.ts";
import type { FoldContext } from "./_fold_context.ts";

type Chunk<T extends UIMessageChunk["type"]> = Extract<UIMessageChunk, { type: T }>;
type Kind = "text" | "reasoning";

/** The open text and reasoning parts, by stream id. */
export class TextParts {
  readonly #ctx: FoldContext;
  #open: Record<Kind, Map<string, TextPart | ReasoningPart>> = {
    text: new Map(),
    reasoning: new Map(),
  };

  /** Parts of the message `ctx` folds. */
  constructor(ctx: FoldContext) {
    this.#ctx = ctx;
  }

  /** Forget the open parts (a new message, or a reset step). */
  clear(): void {
    this.#open.text.clear();
    this.#open.reasoning.clear();
  }

  /** `text-start` / `reasoning-start`. */
  start(c: Chunk<"text-start"> | Chunk<"reasoning-start">): void {
    const part: TextPart | ReasoningPart = c.type === "text-start"
      ? { type: "text", text: "", state: "streaming" }
      : { type: "reasoning", id: c.id, text: "", state: "streaming" };
    if (c.providerMetadata != null) part.providerMetadata = c.providerMetadata;
    if (this.#ctx.parts.place(part)) this.#open[part.type].set(c.id, part);
  }

  /** `text-delta` / `reasoning-delta`. */
  delta(c: Chunk<"text-delta"> | Chunk<"reasoning-delta">): void {
    const kind: Kind = c.type === "text-delta" ? "text" : "reasoning";
    const part = this.#open[kind].get(c.id);
    if (part === undefined) return this.#ctx.orphan(`${c.type} for unknown ${kind} part ${c.id}`);
    if (!this.#ctx.spend(c.delta.length)) return;
    part.text += c.delta;
    if (c.providerMetadata != null) part.providerMetadata = c.providerMetadata;
  }

  /** `text-end` / `reasoning-end`. */
  end(c: Chunk<"text-end"> | Chunk<"reasoning-end">): void {
    const kind: Kind = c.type === "text-end" ? "text" : "reasoning";
    const part = this.#open[kind].get(c.id);
    if (part === undefined) return this.#ctx.orphan(`${c.type} for unknown ${kind} part ${c.id}`);
    part.state = "done";
    if (c.type === "text-end" && c.citations != null) (part as TextPart).citations = c.citations;
    if (c.providerMetadata != null) part.providerMetadata = c.providerMetadata as ProviderMetadata;
    this.#open[kind].delete(c.id);
  }
}
