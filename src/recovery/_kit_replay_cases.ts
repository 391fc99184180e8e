/**
 * Replay-window conformance cases: exact suffixes after each cursor, empty
 * windows, cursors beyond the latest event and below the retained window.
 *
 * @module
 */
import type { ChatEventEnvelope } from "../v1/types.ts";
import { expect } from "./_kit_env.ts";
import { replayAfter } from "./replay.ts";
import type { AddCase } from "./_kit_env.ts";
import type { ConformanceHost } from "./testing.ts";

function frame(t: string, seq: number): ChatEventEnvelope {
  return {
    schemaVersion: 1,
    conversationId: `c-${t}`,
    turnId: t,
    eventId: `${t}:${seq}`,
    seq,
    event: { type: "delta", text: String(seq) },
  };
}

/** Replay of turn `t` from the host's window after `afterSeq`. */
const replayOf = (rp: NonNullable<ConformanceHost["replay"]>, t: string) => (afterSeq: number) =>
  replayAfter(rp.seam, { conversationId: `c-${t}`, turnId: t, afterSeq });

/** Register the replay cases. */
export function replayCases(add: AddCase): void {
  add(
    "replay: exact suffix after each cursor, empty window, cursor beyond latest",
    "replay",
    async (env, t) => {
      const rp = env.need(env.host.replay, "replay", "replay");
      const q = replayOf(rp, t);
      const empty = await q(0);
      expect(
        empty.ok && empty.value.frames.length === 0,
        "an empty window must replay nothing for cursor 0",
      );
      const none = await q(1);
      expect(
        !none.ok && none.error.code === "cursor-beyond-latest",
        "cursor 1 on an empty window is beyond latest",
      );
      for (let s = 1; s <= 5; s++) await env.call(rp.append(frame(t, s)), "replay.append()");
      for (let c = 0; c <= 5; c++) {
        const r = await q(c);
        expect(
          r.ok && r.value.frames.length === 5 - c &&
            r.value.frames.every((f, i) => f.seq === c + 1 + i),
          `replay after ${c} must return exactly seq ${c + 1}..5`,
        );
      }
      const beyond = await q(6);
      expect(
        !beyond.ok && beyond.error.code === "cursor-beyond-latest",
        "cursor 6 must be beyond latest",
      );
    },
  );

  add("replay: a cursor below the retained lower bound is stale", "replay-trim", async (env, t) => {
    const rp = env.need(env.host.replay, "replay", "replay");
    const trim = env.need(rp.trimBefore, "replay.trimBefore()", "replay-trim");
    for (let s = 1; s <= 6; s++) await env.call(rp.append(frame(t, s)), "replay.append()");
    await env.call(trim.call(rp, t, 4), "replay.trimBefore()");
    const q = replayOf(rp, t);
    const stale = await q(2);
    expect(
      !stale.ok && stale.error.code === "stale-cursor",
      "cursor 2 with frames from 4 retained must be stale",
    );
    const edge = await q(3);
    expect(
      edge.ok && edge.value.frames.length === 3,
      "cursor 3 with frames from 4 retained must replay 4..6",
    );
  });
}
