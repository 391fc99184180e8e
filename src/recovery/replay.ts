/**
 * Connection replay over the host's retained event window: validate the
 * cursor against the window's bounds, then return exactly the retained
 * suffix after it, refusing gaps, reordered or foreign frames with typed
 * errors. Works without {@link TurnRecovery}: a replay-only host needs just
 * the {@link ReplayWindowSeam} (see `connectionReplayOnlyProfile`).
 *
 * @module
 */
import { isRecord } from "../_internal/guards.ts";
import { err, ok, type Refusal, type Result } from "../result.ts";
import { describeThrown } from "../_internal/describe.ts";
import { fields } from "./_request.ts";
import type { ChatEventEnvelope } from "../v1/types.ts";
import { type RecoveryProfile, requireCapability } from "./profile.ts";

/**
 * Bounds of the retained window of one turn.
 *
 * `seq` numbers are the envelope's per-turn `seq` (1, 2, 3, …). When nothing
 * is retained, `lowestRetainedSeq === latestSeq + 1` (with `latestSeq` 0 when
 * the turn has no events yet).
 */
export interface ReplayBounds {
  /** Lowest `seq` still retained (≥ 1). */
  readonly lowestRetainedSeq: number;
  /** Highest `seq` ever appended (0 when none). */
  readonly latestSeq: number;
}

/**
 * The host's existing transport buffer or persistence, read-only.
 * Both methods may throw; {@link replayAfter} turns that into
 * `replay-unavailable`.
 */
export interface ReplayWindowSeam {
  /** Current bounds, including when the window is empty. */
  bounds(turnId: string): Promise<ReplayBounds> | ReplayBounds;
  /**
   * Every retained envelope with `seq > afterSeq`, in `seq` order (the
   * complete suffix, not a page). Frames appended after `bounds` was read
   * may be included.
   */
  readAfter(
    turnId: string,
    afterSeq: number,
  ): Promise<readonly ChatEventEnvelope[]> | readonly ChatEventEnvelope[];
}

/** Codes of {@link ReplayError}. */
export type ReplayErrorCode =
  /** The request is not `{ conversationId, turnId, afterSeq }` with string ids. */
  | "invalid-request"
  /** The cursor is not a non-negative safe integer. */
  | "invalid-cursor"
  /** The cursor is below the retained window: frames after it were dropped by retention. */
  | "stale-cursor"
  /** The cursor is after the latest event: it was never issued for this turn. */
  | "cursor-beyond-latest"
  /** A frame is missing (a `seq` was skipped or the suffix ends early). */
  | "gap"
  /** A frame's `seq` is not after the previous one (duplicate, rewind or reorder). */
  | "reordered"
  /** A frame is not a v1 envelope of this conversation and turn. */
  | "foreign-frame"
  /** The seam's bounds or answer are malformed. */
  | "invalid-window"
  /** More frames than `maxFrames` would have to be buffered. */
  | "window-too-large"
  /** The seam threw. */
  | "replay-unavailable"
  /** The profile does not offer `connectionReplay`. */
  | "capability-not-offered";

/** A typed replay refusal with the positions involved. */
export interface ReplayError extends Refusal<ReplayErrorCode> {
  /** The cursor (`afterSeq`) asked for. */
  readonly afterSeq?: number;
  /** `seq` the next frame had to carry. */
  readonly expectedSeq?: number;
  /** `seq` the offending frame carried. */
  readonly gotSeq?: number;
  /** Index of the offending frame in the seam's answer. */
  readonly index?: number;
  /** Lowest retained `seq` (with `stale-cursor`). */
  readonly lowestRetainedSeq?: number;
  /** Latest `seq` (with `cursor-beyond-latest` and `gap`). */
  readonly latestSeq?: number;
}

/** A validated replay: the frames to resend, in order. */
export interface ReplayBatch {
  /** Envelopes with `seq` cursor + 1, cursor + 2, …, in order. */
  readonly frames: readonly ChatEventEnvelope[];
  /** `seq` of the last frame, or the cursor when nothing is to resend. */
  readonly lastSeq: number;
  /** Lowest retained `seq` when the window was read. */
  readonly lowestRetainedSeq: number;
}

/** Default bound on frames one replay may buffer. */
export const DEFAULT_MAX_REPLAY_FRAMES = 10_000;

function maxFramesOf(n: unknown): number {
  return typeof n === "number" && Number.isSafeInteger(n) && n >= 0 ? n : DEFAULT_MAX_REPLAY_FRAMES;
}

function isSeq(n: unknown): n is number {
  return typeof n === "number" && Number.isSafeInteger(n) && n >= 0;
}

/**
 * Check a cursor against bounds (pure). `null` when valid, else the refusal:
 * `invalid-cursor`, `invalid-window`, `cursor-beyond-latest`, `stale-cursor`.
 * A cursor `c` is valid iff `lowestRetainedSeq - 1 <= c <= latestSeq`.
 */
export function checkReplayCursor(afterSeq: number, bounds: ReplayBounds): ReplayError | null {
  const checked = checkCursor(afterSeq, bounds);
  return "code" in checked ? checked : null;
}

/**
 * {@link checkReplayCursor}, answering a valid cursor with a plain copy of
 * the bounds: each bound is read exactly once, so a getter cannot answer
 * differently (or throw) on a later read.
 */
function checkCursor(afterSeq: number, bounds: ReplayBounds): ReplayBounds | ReplayError {
  if (!isSeq(afterSeq)) {
    return { code: "invalid-cursor", message: "cursor must be a non-negative integer seq" };
  }
  if (!isRecord(bounds)) {
    return { code: "invalid-window", message: "window bounds are malformed" };
  }
  let low: unknown;
  let latest: unknown;
  try {
    low = bounds.lowestRetainedSeq;
    latest = bounds.latestSeq;
  } catch {
    return { code: "invalid-window", message: "window bounds could not be read" };
  }
  if (!isSeq(low) || !isSeq(latest) || low < 1 || low > latest + 1) {
    return { code: "invalid-window", message: "window bounds are malformed" };
  }
  if (afterSeq > latest) {
    return {
      code: "cursor-beyond-latest",
      message: `cursor ${afterSeq} is after the latest event ${latest}`,
      afterSeq,
      latestSeq: latest,
    };
  }
  if (afterSeq < low - 1) {
    return {
      code: "stale-cursor",
      message: `cursor ${afterSeq} is below the retained window (from ${low})`,
      afterSeq,
      lowestRetainedSeq: low,
    };
  }
  return { lowestRetainedSeq: low, latestSeq: latest };
}

/**
 * Validate a seam's answer (pure): `frames` must be exactly the contiguous
 * envelopes `afterSeq + 1, afterSeq + 2, …` of this conversation and turn,
 * reaching at least `bounds.latestSeq` (later frames appended meanwhile are
 * accepted when contiguous). Refuses with the first violation found.
 */
export function validateReplay(input: {
  readonly conversationId: string;
  readonly turnId: string;
  readonly afterSeq: number;
  readonly bounds: ReplayBounds;
  readonly frames: readonly ChatEventEnvelope[];
  readonly maxFrames?: number;
}): Result<ReplayBatch, ReplayError> {
  const { conversationId, turnId, afterSeq, bounds, frames, maxFrames: max } = fields(input, [
    "conversationId",
    "turnId",
    "afterSeq",
    "bounds",
    "frames",
    "maxFrames",
  ]) as typeof input;
  const maxFrames = maxFramesOf(max);
  const checked = checkCursor(afterSeq, bounds);
  if ("code" in checked) return err(checked);
  try {
    return validateFrames(conversationId, turnId, afterSeq, checked, frames, maxFrames);
  } catch {
    // A getter or proxy in the seam's answer threw: refuse, never propagate.
    return err({
      code: "invalid-window",
      message: "the seam's frames could not be read",
      afterSeq,
    });
  }
}

function validateFrames(
  conversationId: string,
  turnId: string,
  afterSeq: number,
  bounds: ReplayBounds,
  answer: readonly ChatEventEnvelope[],
  maxFrames: number,
): Result<ReplayBatch, ReplayError> {
  if (!Array.isArray(answer)) {
    return err({ code: "invalid-window", message: "the seam did not return an array" });
  }
  if (answer.length > maxFrames) {
    return err({ code: "window-too-large", message: `more than ${maxFrames} frames`, afterSeq });
  }
  // Validate and return a private copy: the seam may hand out (and later
  // mutate, e.g. trim) its own buffer.
  const frames: ChatEventEnvelope[] = Array.prototype.slice.call(answer);
  const ids = new Set<string>();
  for (let i = 0; i < frames.length; i++) {
    const f: unknown = frames[i];
    const expectedSeq = afterSeq + 1 + i;
    if (
      !isRecord(f) || f.schemaVersion !== 1 ||
      f.conversationId !== conversationId || f.turnId !== turnId ||
      typeof f.eventId !== "string" || f.eventId.length === 0 || !isSeq(f.seq) || f.seq < 1 ||
      !isRecord(f.event) || typeof f.event.type !== "string"
    ) {
      return err({
        code: "foreign-frame",
        message: `frame ${i} is not a v1 envelope of this turn`,
        index: i,
        expectedSeq,
        afterSeq,
      });
    }
    const seq = f.seq as number;
    if (seq < expectedSeq || ids.has(f.eventId)) {
      return err({
        code: "reordered",
        message: `frame ${i} has seq ${seq}, expected ${expectedSeq}`,
        index: i,
        expectedSeq,
        gotSeq: seq,
        afterSeq,
      });
    }
    if (seq > expectedSeq) {
      return err({
        code: "gap",
        message: `frames ${expectedSeq}..${seq - 1} are missing`,
        index: i,
        expectedSeq,
        gotSeq: seq,
        afterSeq,
      });
    }
    ids.add(f.eventId);
  }
  const lastSeq = afterSeq + frames.length;
  if (lastSeq < bounds.latestSeq) {
    return err({
      code: "gap",
      message: `suffix ends at ${lastSeq}, latest is ${bounds.latestSeq}`,
      expectedSeq: lastSeq + 1,
      afterSeq,
      latestSeq: bounds.latestSeq,
    });
  }
  return ok({ frames, lastSeq, lowestRetainedSeq: bounds.lowestRetainedSeq });
}

/**
 * Replay a turn after `afterSeq` (the `seq` of the client's last received
 * frame; the host maps `Last-Event-ID` to it, 0 = from the start): read the
 * bounds, check the cursor, read the suffix, validate it. When the suffix
 * has a gap, the bounds are read once more: a cursor that retention passed
 * in the meantime is reported as `stale-cursor`. The suffix is read
 * only after the cursor is known valid, and at most `maxFrames` (default
 * {@link DEFAULT_MAX_REPLAY_FRAMES}) are accepted.
 *
 * @example
 * ```ts
 * import { MemoryReplayWindow, replayAfter } from "@papercusp/chat-protocol/recovery";
 * const w = new MemoryReplayWindow();
 * w.append({ schemaVersion: 1, conversationId: "c", turnId: "t", eventId: "e1", seq: 1, event: { type: "delta", text: "hi" } });
 * const r = await replayAfter(w, { conversationId: "c", turnId: "t", afterSeq: 0 });
 * // r.ok && r.value.frames.length === 1
 * ```
 */
export async function replayAfter(
  seam: ReplayWindowSeam,
  request: {
    readonly conversationId: string;
    readonly turnId: string;
    readonly afterSeq: number;
    readonly maxFrames?: number;
    /** When given, must offer `connectionReplay`. */
    readonly profile?: RecoveryProfile;
  },
): Promise<Result<ReplayBatch, ReplayError>> {
  const { conversationId, turnId, afterSeq, profile, maxFrames: max } = fields(request, [
    "conversationId",
    "turnId",
    "afterSeq",
    "profile",
    "maxFrames",
  ]) as typeof request;
  const maxFrames = maxFramesOf(max);
  if (typeof conversationId !== "string" || typeof turnId !== "string") {
    return err({ code: "invalid-request", message: "conversationId and turnId must be strings" });
  }
  if (profile) {
    const refusal = requireCapability(profile, "connectionReplay");
    if (refusal) return err({ code: "capability-not-offered", message: refusal.message });
  }
  let answer: ReplayBounds;
  try {
    answer = await seam.bounds(turnId);
  } catch (e) {
    return err({ code: "replay-unavailable", message: `bounds failed: ${describeThrown(e)}` });
  }
  const bounds = checkCursor(afterSeq, answer);
  if ("code" in bounds) return err(bounds);
  if (bounds.latestSeq - afterSeq > maxFrames) {
    return err({
      code: "window-too-large",
      message: `${bounds.latestSeq - afterSeq} frames exceed ${maxFrames}`,
      afterSeq,
    });
  }
  let frames: readonly ChatEventEnvelope[];
  try {
    frames = await seam.readAfter(turnId, afterSeq);
  } catch (e) {
    return err({ code: "replay-unavailable", message: `readAfter failed: ${describeThrown(e)}` });
  }
  const checked = validateReplay({ conversationId, turnId, afterSeq, bounds, frames, maxFrames });
  if (!checked.ok && checked.error.code === "gap") {
    // Retention may have moved between `bounds` and `readAfter`: if the
    // cursor is now below the window, that is a stale cursor, not a gap.
    try {
      const now = await seam.bounds(turnId);
      const stale = checkReplayCursor(afterSeq, now);
      if (stale?.code === "stale-cursor") return err(stale);
    } catch {
      // keep the gap
    }
  }
  return checked;
}
