/**
 * Connection replay (`replayAfter`): the host's retained window (its bounds
 * and the frames it answers with) and a cursor → the frames to resend, or
 * the refusal code (and the offending frame's index in the answer).
 *
 * The seam answers `bounds` on the first read and `boundsAfter` (default:
 * `bounds`) on later reads; `frames` is what it returns for the cursor.
 *
 * @module
 */
import type { CaseDef, CaseGroup } from "./_def.ts";
import type { Json, JsonObject } from "../../conformance/ts/kinds.ts";
import { turn } from "./fold.ts";

const delta = (text: string) => ({ type: "delta", text });
/** Envelopes with seq `from` … `to`, eventId e<seq>. */
function seqs(from: number, to: number): JsonObject[] {
  const all = turn(Array.from({ length: to }, (_, i) => delta(String(i + 1))));
  return all.slice(from - 1);
}
const ids = (from: number, to: number) => seqs(from, to).map((e) => e.eventId as string);

function replay(
  id: string,
  description: string,
  kill: string,
  afterSeq: Json,
  bounds: JsonObject,
  frames: Json,
  want: JsonObject,
  extra: JsonObject = {},
): CaseDef {
  const { request: reqExtra, ...rest } = extra as { request?: JsonObject };
  return {
    id: `replay.${id}`,
    kind: "replay",
    description,
    kill,
    input: {
      request: { conversationId: "c1", turnId: "t1", afterSeq, ...reqExtra },
      bounds,
      frames,
      ...rest,
    },
    want,
  };
}
const b = (lowestRetainedSeq: number, latestSeq: number) => ({ lowestRetainedSeq, latestSeq });
const no = (code: string, index?: number): JsonObject =>
  index === undefined ? { ok: false, code } : { ok: false, code, index };

const transientTurn = turn([
  delta("a"),
  { type: "navigate", href: "/p/1" },
  { type: "ext", name: "scout.highlight", channel: "transient", data: { id: "p1" } },
  { type: "ext", name: "scout.products", channel: "state", data: [] },
  { type: "ext", name: "scout.log", data: 1 },
  { type: "elided", of: "navigate" },
  { type: "done" },
]);

const cases: CaseDef[] = [
  replay(
    "transient-elided",
    "navigate and a transient ext are re-sent as elided (same eventId and seq); state, event and elided frames as they are",
    "replay.transient-elided",
    1,
    b(1, 7),
    transientTurn.slice(1),
    {
      ok: true,
      eventIds: ["e2", "e3", "e4", "e5", "e6", "e7"],
      eventTypes: ["elided", "elided", "ext", "ext", "elided", "done"],
      lastSeq: 7,
    },
  ),
  replay(
    "transient-elided-navigate-only",
    "a resume right before a navigate gets an elided in its place, then the rest",
    "replay.transient-elided",
    0,
    b(1, 3),
    turn([{ type: "navigate", href: "/x" }, delta("b"), { type: "done" }]),
    { ok: true, eventTypes: ["elided", "delta", "done"], lastSeq: 3 },
  ),
  replay(
    "from-start",
    "cursor 0 replays everything",
    "replay.exact-suffix",
    0,
    b(1, 3),
    seqs(1, 3),
    { ok: true, eventIds: ids(1, 3), lastSeq: 3, lowestRetainedSeq: 1 },
  ),
  replay("suffix", "cursor 2 replays 3 … 5", "replay.exact-suffix", 2, b(1, 5), seqs(3, 5), {
    ok: true,
    eventIds: ids(3, 5),
    lastSeq: 5,
  }),
  replay(
    "up-to-date",
    "a cursor at the latest seq replays nothing",
    "replay.exact-suffix",
    4,
    b(1, 4),
    [],
    { ok: true, eventIds: [], lastSeq: 4 },
  ),
  replay(
    "window-edge",
    "a cursor just below the retained window is fine",
    "replay.exact-suffix",
    9,
    b(10, 12),
    seqs(10, 12),
    { ok: true, eventIds: ids(10, 12), lowestRetainedSeq: 10 },
  ),
  replay(
    "appended-meanwhile",
    "frames appended after the bounds were read are accepted when contiguous",
    "replay.exact-suffix",
    1,
    b(1, 2),
    seqs(2, 4),
    { ok: true, eventIds: ids(2, 4), lastSeq: 4 },
  ),
  replay(
    "empty-window",
    "an empty turn: cursor 0, nothing to send",
    "replay.invalid-window",
    0,
    b(1, 0),
    [],
    { ok: true, eventIds: [], lastSeq: 0 },
  ),
  replay(
    "stale",
    "a cursor below the retained window is stale",
    "replay.stale-cursor",
    3,
    b(5, 9),
    seqs(5, 9),
    no("stale-cursor"),
  ),
  replay(
    "stale-zero",
    "cursor 0 after retention dropped seq 1 is stale",
    "replay.stale-cursor",
    0,
    b(2, 3),
    seqs(2, 3),
    no("stale-cursor"),
  ),
  replay(
    "beyond",
    "a cursor after the latest seq was never issued",
    "replay.cursor-beyond-latest",
    6,
    b(1, 5),
    [],
    no("cursor-beyond-latest"),
  ),
  replay(
    "beyond-empty",
    "any cursor above 0 on an empty turn is beyond the latest",
    "replay.cursor-beyond-latest",
    1,
    b(1, 0),
    [],
    no("cursor-beyond-latest"),
  ),
  replay(
    "cursor-negative",
    "a negative cursor is invalid",
    "replay.invalid-cursor",
    -1,
    b(1, 3),
    [],
    no("invalid-cursor"),
  ),
  replay(
    "cursor-fraction",
    "a fractional cursor is invalid",
    "replay.invalid-cursor",
    1.5,
    b(1, 3),
    [],
    no("invalid-cursor"),
  ),
  replay(
    "cursor-string",
    "a string cursor is invalid (map Last-Event-ID to a seq first)",
    "replay.invalid-cursor",
    "e2",
    b(1, 3),
    [],
    no("invalid-cursor"),
  ),
  replay(
    "gap-inside",
    "a missing seq inside the suffix is a gap at its frame",
    "replay.gap",
    0,
    b(1, 4),
    [...seqs(1, 2), ...seqs(4, 4)],
    no("gap", 2),
  ),
  replay(
    "gap-first",
    "a suffix starting after cursor + 1 is a gap at frame 0",
    "replay.gap",
    0,
    b(1, 3),
    seqs(2, 3),
    no("gap", 0),
  ),
  replay(
    "gap-short",
    "a suffix ending before the latest seq is a gap",
    "replay.gap",
    0,
    b(1, 5),
    seqs(1, 3),
    no("gap"),
  ),
  replay("reordered-repeat", "a seq repeated is reordered", "replay.reordered", 0, b(1, 2), [
    seqs(1, 1)[0],
    seqs(1, 1)[0],
    seqs(2, 2)[0],
  ], no("reordered", 1)),
  replay(
    "reordered-old",
    "a frame at or below the cursor is reordered",
    "replay.reordered",
    2,
    b(1, 3),
    [seqs(2, 2)[0], seqs(3, 3)[0]],
    no("reordered", 0),
  ),
  replay(
    "reordered-event-id",
    "a repeated eventId is reordered even with the right seq",
    "replay.reordered",
    0,
    b(1, 2),
    [seqs(1, 1)[0], { ...seqs(2, 2)[0], eventId: "e1" }],
    no("reordered", 1),
  ),
  replay("foreign-turn", "a frame of another turn is foreign", "replay.foreign-frame", 0, b(1, 2), [
    seqs(1, 1)[0],
    { ...seqs(2, 2)[0], turnId: "t2" },
  ], no("foreign-frame", 1)),
  replay(
    "foreign-conversation",
    "a frame of another conversation is foreign",
    "replay.foreign-frame",
    0,
    b(1, 1),
    [{ ...seqs(1, 1)[0], conversationId: "c2" }],
    no("foreign-frame", 0),
  ),
  replay(
    "foreign-not-envelope",
    "something that is not a v1 envelope is foreign",
    "replay.foreign-frame",
    0,
    b(1, 1),
    [{ type: "delta", text: "v0" }],
    no("foreign-frame", 0),
  ),
  replay(
    "foreign-version",
    "an envelope of another schema version is foreign",
    "replay.foreign-frame",
    0,
    b(1, 1),
    [{ ...seqs(1, 1)[0], schemaVersion: 2 }],
    no("foreign-frame", 0),
  ),
  replay(
    "too-large",
    "more frames than maxFrames is refused before reading",
    "replay.window-too-large",
    0,
    b(1, 5),
    seqs(1, 5),
    no("window-too-large"),
    { request: { maxFrames: 4 } },
  ),
  replay(
    "max-frames-exact",
    "exactly maxFrames frames is fine",
    "replay.window-too-large",
    0,
    b(1, 4),
    seqs(1, 4),
    { ok: true, eventIds: ids(1, 4) },
    { request: { maxFrames: 4 } },
  ),
  replay(
    "invalid-window",
    "a lowest retained seq of 0 is an invalid window",
    "replay.invalid-window",
    0,
    b(0, 3),
    seqs(1, 3),
    no("invalid-window"),
  ),
  replay(
    "invalid-window-order",
    "a lowest retained seq above latest + 1 is an invalid window",
    "replay.invalid-window",
    0,
    b(5, 3),
    [],
    no("invalid-window"),
  ),
  replay(
    "stale-after-gap",
    "a gap found after retention moved past the cursor is stale-cursor",
    "replay.stale-after-gap",
    1,
    b(1, 4),
    seqs(3, 4),
    no("stale-cursor"),
    { boundsAfter: b(3, 4) },
  ),
  replay(
    "gap-bounds-unmoved",
    "a gap with the window unmoved stays a gap",
    "replay.gap",
    1,
    b(1, 4),
    seqs(3, 4),
    no("gap", 0),
    { boundsAfter: b(1, 4) },
  ),
];

/** The replay cases. */
export const REPLAY_GROUPS: CaseGroup[] = [{ file: "replay.json", cases }];
