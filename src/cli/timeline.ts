/**
 * The capture in time: each frame's `at` (v1 envelopes) or `tsMs`
 * (heartbeats), offsets from the first moment, gaps over a threshold (a
 * stalled model, a blocked tool, a proxy buffering the stream), and frames
 * whose time runs backwards. The rows shown are bounded: a long capture
 * shows its start, its end, and the frames around its largest gaps, turn
 * starts and first problems.
 *
 * @module
 */
import { clipText } from "../_internal/describe.ts";
import type { FrameNote } from "./analysis.ts";
import type { CapturedFrame } from "./capture.ts";
import { parseData } from "./detect.ts";
import type {
  InspectProblem,
  InspectProblemGroup,
  InspectTimeGap,
  InspectTimeline,
  InspectTimelineRow,
} from "./report.ts";

/** Default gap threshold: 5 000 ms. */
export const DEFAULT_GAP_MS = 5_000;
/** Bounds of the timeline without `--all`. */
export const TIMELINE_LIMITS = {
  /** A capture with at most this many frames shows every frame. */
  allRows: 40,
  /** Most gaps listed. */
  gaps: 20,
  /** Longest raw (non-JSON) frame data kept in a row, UTF-16 code units (always). */
  rawData: 2_000,
} as const;

/** What {@link measureTimes} found. */
export interface TimeFacts {
  startAt?: number;
  endAt?: number;
  timed: number;
  /** Every gap over the threshold, in capture order, with its frame index. */
  gaps: (InspectTimeGap & { index: number })[];
  /** `time-backwards` warnings. */
  problems: InspectProblem[];
}

/**
 * Walk the frames' times once: the earliest and latest, the gaps over
 * `gapMs` between consecutive timed frames of one turn (frames of no turn
 * compare with the previous timed frame), and the frames whose time is
 * earlier than the previous one's.
 */
export function measureTimes(
  frames: readonly CapturedFrame[],
  notes: readonly FrameNote[],
  gapMs: number,
): TimeFacts {
  const facts: TimeFacts = { timed: 0, gaps: [], problems: [] };
  const lastOfTurn = new Map<number, { at: number; line: number }>();
  let last: { at: number; line: number } | undefined;
  for (let i = 0; i < notes.length; i++) {
    const at = notes[i].at;
    if (at === undefined) continue;
    facts.timed++;
    facts.startAt = facts.startAt === undefined ? at : Math.min(facts.startAt, at);
    facts.endAt = facts.endAt === undefined ? at : Math.max(facts.endAt, at);
    const turn = notes[i].turn;
    const prev = turn === -1 ? last : lastOfTurn.get(turn);
    const here = { at, line: frames[i].line };
    if (prev !== undefined) {
      const delta = at - prev.at;
      if (delta < 0) {
        const p: InspectProblem = {
          line: here.line,
          severity: "warning",
          code: "time-backwards",
          message: `this frame's time is ${formatMs(-delta)} earlier than the previous frame's ` +
            `(line ${prev.line}): the host's clock went back, or frames were written out of order`,
        };
        if (turn !== -1) p.turn = turn;
        facts.problems.push(p);
      } else if (delta > gapMs) {
        facts.gaps.push({
          index: i,
          line: here.line,
          previousLine: prev.line,
          gapMs: delta,
          offsetMs: 0,
        });
      }
    }
    last = here;
    if (turn !== -1) lastOfTurn.set(turn, here);
  }
  for (const g of facts.gaps) g.offsetMs = notes[g.index].at! - facts.startAt!;
  return facts;
}

/** A duration for a person: `850 ms`, `12.3 s`, `4 min 05 s`, `2 h 03 min`. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  const a = Math.abs(ms);
  const sign = ms < 0 ? "-" : "";
  if (a < 1_000) return `${sign}${Math.round(a)} ms`;
  if (a < 60_000) return `${sign}${(a / 1_000).toFixed(a < 10_000 ? 3 : 1)} s`;
  const s = Math.floor(a / 1_000);
  if (a < 3_600_000) return `${sign}${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
  const m = Math.floor(s / 60);
  return `${sign}${Math.floor(m / 60)} h ${String(m % 60).padStart(2, "0")} min`;
}

/** Index of the last frame that starts at or before `line` (-1: none). Frames are in line order. */
export function frameAt(frames: readonly CapturedFrame[], line: number): number {
  let lo = 0;
  let hi = frames.length - 1;
  if (hi < 0 || frames[0].line > line) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (frames[mid].line <= line) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Frame indices worth showing in a long capture. */
function interesting(
  frames: readonly CapturedFrame[],
  notes: readonly FrameNote[],
  facts: TimeFacts,
  groups: readonly InspectProblemGroup[],
): number[] {
  const n = frames.length;
  const keep = new Set<number>();
  for (let i = 0; i < Math.min(12, n); i++) keep.add(i);
  for (let i = Math.max(0, n - 8); i < n; i++) keep.add(i);
  const largest = [...facts.gaps].sort((a, b) => b.gapMs - a.gapMs).slice(0, 6);
  for (const g of largest) {
    keep.add(g.index);
    if (g.index > 0) keep.add(g.index - 1);
  }
  let turnStarts = 0;
  for (let i = 1; i < n && turnStarts < 6; i++) {
    if (notes[i].turn !== notes[i - 1].turn && notes[i].turn !== -1) {
      keep.add(i);
      turnStarts++;
    }
  }
  for (const g of groups.slice(0, 8)) {
    const i = g.firstLine === null ? -1 : frameAt(frames, g.firstLine);
    if (i >= 0) keep.add(i);
  }
  return [...keep].sort((a, b) => a - b);
}

/** Build one row (keys in the order of {@link InspectTimelineRow}). */
function row(
  frame: CapturedFrame,
  note: FrameNote,
  index: number,
  startAt: number | undefined,
  gapMs: number | undefined,
): InspectTimelineRow {
  const parsed = parseData(frame.data);
  const r: Partial<InspectTimelineRow> = { line: frame.line, index };
  if (note.turn !== -1) r.turn = note.turn;
  r.type = note.type;
  if (note.seq !== undefined) r.seq = note.seq;
  if (note.at !== undefined) {
    r.at = note.at;
    if (startAt !== undefined) r.offsetMs = note.at - startAt;
  }
  if (gapMs !== undefined) r.gapMs = gapMs;
  if (frame.id !== undefined) r.id = frame.id;
  if (frame.event !== undefined) r.event = frame.event;
  r.data = parsed !== undefined
    ? parsed.value
    : frame.data.length > TIMELINE_LIMITS.rawData
    ? `${clipText(frame.data, TIMELINE_LIMITS.rawData)}…`
    : frame.data;
  return r as InspectTimelineRow;
}

/**
 * The report's timeline: all rows for a short capture (or with `all`), else
 * the interesting ones; the gaps, largest first (bounded unless `all`).
 */
export function buildTimeline(
  frames: readonly CapturedFrame[],
  notes: readonly FrameNote[],
  facts: TimeFacts,
  groups: readonly InspectProblemGroup[],
  gapMs: number,
  all: boolean,
): InspectTimeline {
  const indices = all || frames.length <= TIMELINE_LIMITS.allRows
    ? frames.map((_, i) => i)
    : interesting(frames, notes, facts, groups);
  const gapAt = new Map(facts.gaps.map((g) => [g.index, g.gapMs]));
  const rows = indices.map((i) => row(frames[i], notes[i], i, facts.startAt, gapAt.get(i)));
  const sorted = [...facts.gaps].sort((a, b) => b.gapMs - a.gapMs);
  const timeline: InspectTimeline = {
    ...(facts.startAt !== undefined && facts.endAt !== undefined
      ? { startAt: facts.startAt, endAt: facts.endAt, durationMs: facts.endAt - facts.startAt }
      : {}),
    timedFrames: facts.timed,
    gapThresholdMs: gapMs,
    gapCount: facts.gaps.length,
    gaps: (all ? sorted : sorted.slice(0, TIMELINE_LIMITS.gaps)).map((g) => ({
      line: g.line,
      previousLine: g.previousLine,
      gapMs: g.gapMs,
      offsetMs: g.offsetMs,
    })),
    rows,
    rowsOmitted: frames.length - rows.length,
  };
  return timeline;
}
