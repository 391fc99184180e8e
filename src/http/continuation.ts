/**
 * {@link Continuation}: where an AI SDK or AG-UI response continues a turn
 * a previous response of the same client paused (waiting for an answer),
 * and how it is found among the turn's frames.
 *
 * @module
 */
import type { ChatEventEnvelope } from "../v1/types.ts";
import { readFields, readItems } from "../_internal/fields.ts";
import { type StreamRefusal, streamRefusal } from "./stream_refusal.ts";

/**
 * Where a response continues a turn. The response replays the turn from
 * its first event to rebuild the adapter's state, and sends only what
 * comes after this point, as a continuation of the same message (AI SDK:
 * a fresh `start` with the same `messageId`) or a new run (AG-UI:
 * `RUN_STARTED` with the client's `runId`).
 *
 * - `{ afterSeq }`: after this `seq`;
 * - `{ cardIds }`: after the last `card` event that opened one of these
 *   cards: the point where the previous response paused for them (the
 *   AI SDK approval ids of `toHitlAnswers`, the AG-UI interrupt ids of
 *   `parseAgUiResume`). A card no retained frame opened is refused
 *   `unknown-resume-card` (409).
 */
export type Continuation =
  | { readonly afterSeq: number }
  | { readonly cardIds: readonly string[] };

/**
 * The `seq` a continuation starts after, found in `frames` (the turn from
 * its first event); `0` when `continuation` is `undefined`. Never throws:
 * an unreadable continuation is refused `invalid-request`.
 */
export function continuationSeq(
  continuation: unknown,
  frames: readonly ChatEventEnvelope[],
): number | StreamRefusal {
  if (continuation === undefined || continuation === null) return 0;
  const c = readFields(continuation, ["afterSeq", "cardIds"]);
  if (c === null) return streamRefusal("invalid-request", "the continuation could not be read");
  if (c.afterSeq !== undefined) {
    const n = c.afterSeq;
    if (typeof n === "number" && Number.isSafeInteger(n) && n >= 0) return n;
    return streamRefusal("invalid-request", "continuation.afterSeq must be a non-negative integer");
  }
  const ids = readItems(c.cardIds);
  if (ids === null || ids.length === 0 || !ids.every((x) => typeof x === "string")) {
    return streamRefusal(
      "invalid-request",
      "continuation.cardIds must be a non-empty array of strings",
    );
  }
  const wanted = new Set(ids as string[]);
  let seq = 0;
  for (const f of frames) {
    const e = f.event;
    if (e.type !== "card") continue;
    let id: unknown;
    try {
      id = (e.card as { correlationId?: unknown }).correlationId;
    } catch {
      continue;
    }
    if (typeof id === "string" && wanted.delete(id)) seq = Math.max(seq, f.seq);
  }
  if (wanted.size > 0) {
    const [first] = wanted;
    return streamRefusal(
      "unknown-resume-card",
      `no retained card event opened ${JSON.stringify(first.slice(0, 64))}`,
    );
  }
  return seq;
}
