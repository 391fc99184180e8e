/**
 * A `Last-Event-ID` → the `seq` to resume after, for the v1 SSE response:
 * the host's own resolver when given; else an id of the `<turnId>:<seq>`
 * scheme read directly; else the id looked up among the retained frames.
 *
 * @module
 */
import { err, ok, type Result } from "../result.ts";
import { describeThrown, quoteClipped } from "../_internal/describe.ts";
import { readFields } from "../_internal/fields.ts";
import { parseTurnSeqEventId } from "./turn_seq_event_id.ts";
import { type StreamRefusal, streamRefusal } from "./stream_refusal.ts";
import { type CheckedSource, fromReplayError } from "./_frame_pump.ts";
import { replayAfter } from "../recovery/replay.ts";
import type { CursorResolver } from "./cursor_resolver.ts";

/** An id ending in a number that is not a canonical positive seq (`:0`, `:-1`, `:1.5`, `:007`). */
const NOT_A_SEQ = /:(?:-?[0-9]+(?:\.[0-9]+)?)$/;

const isSeq = (n: unknown): n is number =>
  typeof n === "number" && Number.isSafeInteger(n) && n >= 0;

/** Resolve `lastEventId` (`null`: from the start) to the `seq` to resume after. */
export async function resolveCursor(
  lastEventId: string | null,
  source: CheckedSource,
  resolver: CursorResolver | undefined,
  maxFrames: number | undefined,
): Promise<Result<number, StreamRefusal>> {
  if (lastEventId === null) return ok(0);
  const quoted = quoteClipped(lastEventId, 64);
  if (resolver !== undefined) {
    let seq: unknown;
    try {
      seq = await resolver(lastEventId, {
        conversationId: source.conversationId,
        turnId: source.turnId,
      });
    } catch (e) {
      return err(streamRefusal(
        "invalid-cursor",
        `resolving the Last-Event-ID ${quoted} failed: ${describeThrown(e, 200)}`,
      ));
    }
    if (seq === null) {
      return err(streamRefusal("unknown-cursor", `${quoted} names no event of this turn`));
    }
    if (!isSeq(seq)) {
      return err(streamRefusal("invalid-cursor", `${quoted} did not resolve to a seq`));
    }
    return ok(seq);
  }
  const scheme = parseTurnSeqEventId(lastEventId, source.turnId);
  if (scheme.kind === "seq") return ok(scheme.seq);
  if (source.window !== undefined) {
    const found = await lookUp(lastEventId, source, maxFrames);
    if (!found.ok || found.value !== null) return found as Result<number, StreamRefusal>;
  }
  if (scheme.kind === "other-turn") {
    return err(streamRefusal("foreign-cursor", `${quoted} names an event of another turn`));
  }
  if (NOT_A_SEQ.test(lastEventId) && lastEventId.startsWith(`${source.turnId}:`)) {
    // `<turnId>:0`, `:-1`, `:1.5`, `:007`: this turn's scheme, but no seq an event can have
    return err(streamRefusal("invalid-cursor", `${quoted} cannot name an event (no such seq)`));
  }
  return err(streamRefusal("unknown-cursor", `${quoted} names no retained event of this turn`));
}

/** The `seq` of the retained frame whose `eventId` is `id`, `null` when none. */
async function lookUp(
  id: string,
  source: CheckedSource,
  maxFrames: number | undefined,
): Promise<Result<number | null, StreamRefusal>> {
  let low: unknown;
  try {
    const b = await source.window!.bounds(source.turnId);
    low = readFields(b, ["lowestRetainedSeq"])?.lowestRetainedSeq;
  } catch (e) {
    return err(streamRefusal("replay-unavailable", `bounds failed: ${describeThrown(e, 200)}`));
  }
  if (!isSeq(low) || low < 1) {
    return err(streamRefusal("invalid-window", "the window's bounds are malformed"));
  }
  const r = await replayAfter(source.window!, {
    conversationId: source.conversationId,
    turnId: source.turnId,
    afterSeq: low - 1,
    maxFrames,
    profile: source.profile,
  });
  if (!r.ok) {
    // retention moved between the two reads: the id is not retained now
    if (r.error.code === "stale-cursor") return ok(null);
    return err(fromReplayError(r.error));
  }
  for (const f of r.value.frames) if (f.eventId === id) return ok(f.seq);
  return ok(null);
}
