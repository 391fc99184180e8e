/**
 * What every dialect's analysis yields, and the small pieces they share:
 * a note per frame (its turn, type and time) and the folded turns.
 *
 * @module
 */
import { isRecord, own, ownString } from "../_internal/guards.ts";
import type { CapturedFrame } from "./capture.ts";
import { parseData } from "./detect.ts";
import type { InspectProblem, InspectTurn } from "./report.ts";

/** What the analysis learnt about one frame, for the timeline and the per-turn summaries. */
export interface FrameNote {
  /** Index of the turn the frame belongs to; -1 for none. */
  turn: number;
  /** The frame's type label (event type, chunk type, `heartbeat`, `not JSON`, …). */
  type: string;
  /** The frame's time, epoch ms (v1 `at`, heartbeat `tsMs`). */
  at?: number;
  /** v1 `seq`. */
  seq?: number;
}

/** A folded turn before its summary is computed. */
export type TurnBody = Omit<InspectTurn, "summary">;

/** A folded turn and how many of its frames were accepted as events. */
export interface AnalyzedTurn {
  /** The folded turn. */
  body: TurnBody;
  /** Frames accepted as chat events (or chunks). */
  events: number;
}

/** What a dialect's analysis yields. `problems` in push order (sorted later, once). */
export interface Analysis {
  problems: InspectProblem[];
  turns: AnalyzedTurn[];
  /** One note per frame, index-aligned with the frames. */
  notes: FrameNote[];
  heartbeats: number;
  domainEvents: number;
}

/** A finite, non-negative number: a usable epoch-ms time. */
export function timeOf(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : undefined;
}

/** The note of a heartbeat frame: its `tsMs` (Papercusp SSE heartbeats carry one) is its time. */
export function heartbeatNote(frame: CapturedFrame, turn: number): FrameNote {
  const note: FrameNote = { turn, type: "heartbeat" };
  const parsed = parseData(frame.data);
  const at = isRecord(parsed?.value) ? timeOf(own(parsed.value, "tsMs")) : undefined;
  if (at !== undefined) note.at = at;
  return note;
}

/**
 * Add `frame`'s note to `notes`: a heartbeat gets its own (with its `tsMs`)
 * and `undefined` is returned; any other frame gets a fresh note of `type`
 * in `turn`, returned for the analysis to fill in.
 */
export function pushNote(
  notes: FrameNote[],
  frame: CapturedFrame,
  turn: number,
  type: string,
): FrameNote | undefined {
  if (frame.event === "heartbeat") {
    notes.push(heartbeatNote(frame, turn));
    return undefined;
  }
  const note: FrameNote = { turn, type };
  notes.push(note);
  return note;
}

/** The `type` of a parsed frame when it is a string, else `fallback`. */
export function typeLabel(value: unknown, fallback: string): string {
  return ownString(value, "type") ?? fallback;
}
