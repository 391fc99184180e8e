import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import {
  checkReplayCursor,
  connectionReplayOnlyProfile,
  MemoryReplayWindow,
  type RecoveryProfile,
  replayAfter,
  type ReplayWindowSeam,
  requireCapability,
  turnRecoveryProfile,
  validateReplay,
} from "../../recovery.ts";
import type { ChatEventEnvelope } from "../../src/v1/types.ts";

function env(seq: number, over: Partial<ChatEventEnvelope> = {}): ChatEventEnvelope {
  return {
    schemaVersion: 1,
    conversationId: "c",
    turnId: "t",
    eventId: `ev${seq}`,
    seq,
    event: { type: "delta", text: `x${seq}` },
    ...over,
  };
}

function windowOf(n: number, retain?: number): MemoryReplayWindow {
  const w = new MemoryReplayWindow({ retain });
  for (let i = 1; i <= n; i++) assert.ok(w.append(env(i)));
  return w;
}

const req = (afterSeq: number) => ({ conversationId: "c", turnId: "t", afterSeq });

Deno.test("replay: returns exactly the retained suffix after the cursor", async () => {
  const w = windowOf(5);
  for (let c = 0; c <= 5; c++) {
    const r = await replayAfter(w, req(c));
    assert.ok(r.ok);
    assert.deepEqual(
      r.value.frames.map((f) => f.seq),
      Array.from({ length: 5 - c }, (_, i) => c + 1 + i),
    );
    assert.equal(r.value.lastSeq, 5);
  }
});

Deno.test("replay: empty windows (no events yet, and everything trimmed)", async () => {
  const empty = new MemoryReplayWindow();
  assert.deepEqual(empty.bounds("t"), { lowestRetainedSeq: 1, latestSeq: 0 });
  const r0 = await replayAfter(empty, req(0));
  assert.ok(r0.ok && r0.value.frames.length === 0 && r0.value.lastSeq === 0);
  assert.equal((await replayAfter(empty, req(1))).ok, false);
  const trimmed = windowOf(4);
  trimmed.trimBefore("t", 5);
  assert.deepEqual(trimmed.bounds("t"), { lowestRetainedSeq: 5, latestSeq: 4 });
  const r4 = await replayAfter(trimmed, req(4));
  assert.ok(r4.ok && r4.value.frames.length === 0);
  const r3 = await replayAfter(trimmed, req(3));
  assert.ok(!r3.ok && r3.error.code === "stale-cursor");
});

Deno.test("replay: stale cursor (below the retained lower bound) and cursor beyond latest are distinct typed errors", async () => {
  const w = windowOf(10, 4); // retains 7..10
  assert.deepEqual(w.bounds("t"), { lowestRetainedSeq: 7, latestSeq: 10 });
  const stale = await replayAfter(w, req(5));
  assert.ok(!stale.ok);
  assert.deepEqual(
    { code: stale.error.code, afterSeq: stale.error.afterSeq, low: stale.error.lowestRetainedSeq },
    { code: "stale-cursor", afterSeq: 5, low: 7 },
  );
  const edge = await replayAfter(w, req(6));
  assert.ok(edge.ok && edge.value.frames.length === 4);
  const beyond = await replayAfter(w, req(11));
  assert.ok(!beyond.ok);
  assert.deepEqual({ code: beyond.error.code, latest: beyond.error.latestSeq }, {
    code: "cursor-beyond-latest",
    latest: 10,
  });
  for (const bad of [-1, 1.5, Number.NaN, "3" as unknown as number]) {
    const r = await replayAfter(w, req(bad));
    assert.ok(!r.ok && r.error.code === "invalid-cursor");
  }
});

Deno.test("replay: gaps, reordered/duplicate and foreign frames are rejected with their own codes", () => {
  const bounds = { lowestRetainedSeq: 1, latestSeq: 4 };
  const check = (frames: ChatEventEnvelope[], afterSeq = 1) =>
    validateReplay({ conversationId: "c", turnId: "t", afterSeq, bounds, frames });
  const codeOf = (r: ReturnType<typeof check>) => (r.ok ? "ok" : r.error.code);
  assert.equal(codeOf(check([env(2), env(3), env(4)])), "ok");
  assert.equal(codeOf(check([env(2), env(4)])), "gap");
  assert.equal(codeOf(check([env(3), env(4)])), "gap");
  assert.equal(codeOf(check([env(2), env(3)])), "gap"); // ends before latest
  assert.equal(codeOf(check([env(2), env(2), env(3)])), "reordered");
  assert.equal(codeOf(check([env(2), env(4), env(3)])), "gap");
  assert.equal(codeOf(check([env(1), env(2), env(3), env(4)])), "reordered"); // includes the cursor frame
  assert.equal(codeOf(check([env(2), env(3, { eventId: "ev2" }), env(4)])), "reordered");
  assert.equal(codeOf(check([env(2), env(3, { turnId: "other" }), env(4)])), "foreign-frame");
  assert.equal(codeOf(check([env(2, { conversationId: "x" }), env(3), env(4)])), "foreign-frame");
  assert.equal(codeOf(check([env(2, { schemaVersion: 2 as 1 }), env(3), env(4)])), "foreign-frame");
  assert.equal(codeOf(check([null as never, env(3), env(4)])), "foreign-frame");
  assert.equal(
    codeOf(check([{ ...env(2), event: { text: "no type" } } as never, env(3), env(4)])),
    "foreign-frame",
  );
  // Frames appended after the bounds were read are accepted when contiguous.
  assert.equal(codeOf(check([env(2), env(3), env(4), env(5)])), "ok");
  assert.equal(codeOf(check([env(2), env(3), env(4)], 0)), "gap"); // frame 1 missing
  const r = validateReplay({
    conversationId: "c",
    turnId: "t",
    afterSeq: 0,
    bounds,
    frames: [env(1), env(2), env(3), env(4)],
    maxFrames: 3,
  });
  assert.ok(!r.ok && r.error.code === "window-too-large");
  assert.equal(
    checkReplayCursor(0, { lowestRetainedSeq: 0, latestSeq: 0 })?.code,
    "invalid-window",
  );
  assert.equal(
    checkReplayCursor(0, { lowestRetainedSeq: 9, latestSeq: 3 })?.code,
    "invalid-window",
  );
});

Deno.test("replay: seam failures and oversized windows are typed, and the suffix is not read for bad cursors", async () => {
  let reads = 0;
  const seam: ReplayWindowSeam = {
    bounds: () => ({ lowestRetainedSeq: 1, latestSeq: 50_000 }),
    readAfter: () => {
      reads++;
      return [];
    },
  };
  const big = await replayAfter(seam, req(0));
  assert.ok(!big.ok && big.error.code === "window-too-large");
  const beyond = await replayAfter(seam, req(60_000));
  assert.ok(!beyond.ok && beyond.error.code === "cursor-beyond-latest");
  assert.equal(reads, 0);
  const broken: ReplayWindowSeam = {
    bounds: () => {
      throw new Error("down");
    },
    readAfter: () => [],
  };
  const down = await replayAfter(broken, req(0));
  assert.ok(!down.ok && down.error.code === "replay-unavailable");
});

Deno.test("profiles: connection replay only advertises replay and explicitly refuses restart recovery", async () => {
  assert.deepEqual({ ...connectionReplayOnlyProfile.capabilities }, {
    connectionReplay: true,
    persistedHistory: false,
    persistedDecisions: false,
    completedToolCheckpoints: false,
    interruptedTurnRecovery: false,
  });
  assert.equal(requireCapability(connectionReplayOnlyProfile, "connectionReplay"), null);
  assert.deepEqual(requireCapability(connectionReplayOnlyProfile, "interruptedTurnRecovery"), {
    code: "capability-not-offered",
    message: "profile 'connection-replay-only' does not offer interruptedTurnRecovery",
    capability: "interruptedTurnRecovery",
    profile: "connection-replay-only",
  });
  assert.equal(requireCapability(turnRecoveryProfile, "interruptedTurnRecovery"), null);
  const ok = await replayAfter(windowOf(2), { ...req(0), profile: connectionReplayOnlyProfile });
  assert.ok(ok.ok);
  const none: RecoveryProfile = {
    name: "none",
    capabilities: { ...connectionReplayOnlyProfile.capabilities, connectionReplay: false },
  };
  const refused = await replayAfter(windowOf(2), { ...req(0), profile: none });
  assert.ok(!refused.ok && refused.error.code === "capability-not-offered");
});

/** A window that (wrongly) includes the cursor's own frame. */
class OffByOneWindow extends MemoryReplayWindow {
  override readAfter(turnId: string, afterSeq: number): readonly ChatEventEnvelope[] {
    return super.readAfter(turnId, Math.max(0, afterSeq - 1));
  }
}

const scheduleArb = fc.record({
  retain: fc.integer({ min: 1, max: 24 }),
  steps: fc.array(
    fc.record({ produce: fc.integer({ min: 0, max: 8 }), live: fc.integer({ min: 0, max: 8 }) }),
    { maxLength: 6 },
  ),
});

/**
 * One reconnect schedule: the producer appends, the client receives a prefix
 * live, drops, reconnects with its last seq. Every seq must be delivered
 * exactly once and in order, except ranges the library reported as stale
 * (typed) and the client then skipped by resynchronising.
 */
function replayProperty(makeWindow: (retain: number) => MemoryReplayWindow) {
  return fc.asyncProperty(scheduleArb, async ({ retain, steps }) => {
    const w = makeWindow(retain);
    let latest = 0;
    let lastSeq = 0;
    const got: number[] = [];
    const skipped: number[] = [];
    const reconnect = async () => {
      const r = await replayAfter(w, req(lastSeq));
      if (r.ok) {
        for (const f of r.value.frames) got.push(f.seq);
        lastSeq = r.value.lastSeq;
        return;
      }
      if (r.error.code !== "stale-cursor") {
        throw new Error(`replay refused: ${r.error.code} ${r.error.message}`);
      }
      const low = w.bounds("t").lowestRetainedSeq;
      if (lastSeq >= low - 1) throw new Error("stale-cursor for a retained cursor");
      for (let s = lastSeq + 1; s < low; s++) skipped.push(s);
      lastSeq = low - 1; // resync from history, then replay the retained part
      await reconnect();
    };
    for (const { produce, live } of steps) {
      const start = latest;
      for (let i = 0; i < produce; i++) w.append(env(++latest));
      // Live frames arrive only while connected, contiguously after lastSeq.
      const upTo = Math.min(latest, start + live);
      if (lastSeq === start) {
        for (let s = start + 1; s <= upTo; s++) got.push(s);
        lastSeq = Math.max(lastSeq, upTo);
      }
      await reconnect();
    }
    await reconnect();
    const all = [...got, ...skipped].sort((a, b) => a - b);
    if (new Set(got).size !== got.length) throw new Error("duplicate frame delivered");
    for (let i = 1; i < got.length; i++) if (got[i] <= got[i - 1]) throw new Error("out of order");
    if (all.length !== latest || all.some((s, i) => s !== i + 1)) throw new Error("frame dropped");
  });
}

Deno.test("replay property: 100000 random reconnect schedules, 0 duplicates, 0 drops", async () => {
  await fc.assert(replayProperty((retain) => new MemoryReplayWindow({ retain })), {
    numRuns: 100_000,
    seed: 7,
  });
});

Deno.test("replay property catches a window whose cursor is off by one", async () => {
  const r = await fc.check(replayProperty((retain) => new OffByOneWindow({ retain })), {
    numRuns: 1000,
    seed: 7,
  });
  assert.equal(r.failed, true);
  assert.match(String((r.errorInstance as Error).message), /reordered/);
});

Deno.test("replay: arbitrary inputs never throw (property)", async () => {
  const w = windowOf(3);
  await fc.assert(
    fc.asyncProperty(fc.anything(), fc.anything(), fc.anything(), async (a, b, c) => {
      const r1 = await replayAfter(w, a as never);
      const r2 = await replayAfter(a as never, {
        conversationId: "c",
        turnId: "t",
        afterSeq: b as number,
      });
      const r3 = validateReplay({
        conversationId: "c",
        turnId: "t",
        afterSeq: 0,
        bounds: b as never,
        frames: c as never,
      });
      const r4 = validateReplay(a as never);
      const r5 = checkReplayCursor(b as number, c as never);
      for (const r of [r1, r2, r3, r4]) assert.equal(typeof r.ok, "boolean");
      assert.ok(r5 === null || typeof r5.code === "string");
    }),
    { numRuns: 10_000, seed: 11 },
  );
});

Deno.test("replay: retention moving between bounds and readAfter is a stale cursor, not a gap", async () => {
  const w = windowOf(10);
  const seam: ReplayWindowSeam = {
    bounds: (t) => w.bounds(t),
    readAfter: (t, a) => {
      w.trimBefore(t, 8); // retention runs between the two reads
      return w.readAfter(t, a);
    },
  };
  const r = await replayAfter(seam, req(3));
  assert.ok(!r.ok);
  assert.deepEqual(
    { code: r.error.code, low: r.error.lowestRetainedSeq, after: r.error.afterSeq },
    { code: "stale-cursor", low: 8, after: 3 },
  );
  // A real gap (the window still claims to retain the cursor) stays a gap.
  const holey: ReplayWindowSeam = {
    bounds: () => ({ lowestRetainedSeq: 1, latestSeq: 4 }),
    readAfter: () => [env(1), env(3), env(4)],
  };
  const g = await replayAfter(holey, req(0));
  assert.ok(!g.ok && g.error.code === "gap");
});

Deno.test("replay: the batch is a private copy; unreadable seam answers are typed refusals", async () => {
  const internal = [env(1), env(2), env(3)];
  const aliasing: ReplayWindowSeam = {
    bounds: () => ({ lowestRetainedSeq: 1, latestSeq: 3 }),
    readAfter: () => internal, // hands out its own buffer
  };
  const r = await replayAfter(aliasing, req(0));
  internal.splice(0, 2); // the host trims its buffer afterwards
  assert.ok(r.ok);
  assert.deepEqual(r.value.frames.map((f) => f.seq), [1, 2, 3]);
  const throwingBounds: ReplayWindowSeam = {
    bounds: () => ({
      get lowestRetainedSeq(): number {
        throw new Error("getter");
      },
      latestSeq: 3,
    }),
    readAfter: () => [],
  };
  const b = await replayAfter(throwingBounds, req(0));
  assert.ok(!b.ok && b.error.code === "invalid-window");
  const arr = [env(1)];
  Object.defineProperty(arr, 1, {
    get() {
      throw new Error("element");
    },
    enumerable: true,
  });
  const throwingFrames: ReplayWindowSeam = {
    bounds: () => ({ lowestRetainedSeq: 1, latestSeq: 2 }),
    readAfter: () => arr,
  };
  const f = await replayAfter(throwingFrames, req(0));
  assert.ok(!f.ok && f.error.code === "invalid-window");
});

Deno.test("replay: bounds are read once; a getter answering differently later cannot throw or leak into the batch", async () => {
  /** Bounds whose getters answer `first` on the first read and garbage (or a throw) afterwards. */
  const fickle = (
    first: { lowestRetainedSeq: number; latestSeq: number },
    later: () => unknown,
  ) => {
    const reads = { low: 0, latest: 0 };
    const bounds = {
      get lowestRetainedSeq(): number {
        return (reads.low++ === 0 ? first.lowestRetainedSeq : later()) as number;
      },
      get latestSeq(): number {
        return (reads.latest++ === 0 ? first.latestSeq : later()) as number;
      },
    };
    return { bounds, reads };
  };
  const throwing = fickle({ lowestRetainedSeq: 1, latestSeq: 2 }, () => {
    throw new Error("second read");
  });
  const seam: ReplayWindowSeam = {
    bounds: () => throwing.bounds,
    readAfter: () => [env(1), env(2)],
  };
  const r = await replayAfter(seam, req(0));
  assert.ok(r.ok);
  assert.deepEqual(r.value.frames.map((f) => f.seq), [1, 2]);
  assert.equal(r.value.lowestRetainedSeq, 1);
  assert.deepEqual(throwing.reads, { low: 1, latest: 1 });
  const lying = fickle({ lowestRetainedSeq: 1, latestSeq: 3 }, () => "999");
  const v = validateReplay({ ...req(0), bounds: lying.bounds, frames: [env(1), env(2)] });
  assert.ok(!v.ok && v.error.code === "gap" && v.error.latestSeq === 3);
  const lying2 = fickle({ lowestRetainedSeq: 1, latestSeq: 2 }, () => "999");
  const v2 = validateReplay({ ...req(0), bounds: lying2.bounds, frames: [env(1), env(2)] });
  assert.ok(v2.ok && v2.value.lowestRetainedSeq === 1);
});

Deno.test("replay: a request whose getters throw is a typed refusal, never a rejection", async () => {
  const boom = (): never => {
    throw new Error("getter");
  };
  const hostile = new Proxy({}, { get: boom, has: boom, ownKeys: boom });
  const r = await replayAfter(windowOf(2), hostile as never);
  assert.ok(!r.ok && r.error.code === "invalid-request");
  const v = validateReplay(hostile as never);
  assert.ok(!v.ok && v.error.code === "invalid-cursor");
});

Deno.test("MemoryReplayWindow: non-integer trims are ignored and garbage appends refused", async () => {
  const w = windowOf(3);
  for (const bad of [Number.NaN, 2.5, Infinity, "2" as unknown as number]) {
    w.trimBefore("t", bad);
    assert.deepEqual(w.bounds("t"), { lowestRetainedSeq: 1, latestSeq: 3 });
  }
  const r = await replayAfter(w, req(1));
  assert.ok(r.ok && r.value.frames.length === 2);
  assert.equal(w.append(null as never), false);
  assert.equal(w.append({ seq: 4 } as never), false);
  assert.equal(w.append(env(4)), true);
});

Deno.test("replay: a seam throwing an unprintable value is replay-unavailable", async () => {
  const seam: ReplayWindowSeam = {
    bounds: () => {
      throw Object.create(null);
    },
    readAfter: () => [],
  };
  const r = await replayAfter(seam, req(0));
  assert.ok(!r.ok);
  assert.deepEqual(r.error, {
    code: "replay-unavailable",
    message: "bounds failed: an unprintable value",
  });
});

Deno.test("profiles: a malformed profile offers nothing and never throws", async () => {
  for (const bad of [{}, { name: "x" }, { name: 5, capabilities: null }, 5]) {
    const refusal = requireCapability(bad as never, "connectionReplay");
    assert.equal(refusal?.code, "capability-not-offered");
    const r = await replayAfter(windowOf(2), { ...req(0), profile: bad as never });
    assert.ok(!r.ok && r.error.code === "capability-not-offered");
  }
});

Deno.test("requireCapability: a symbol, an object whose toString throws, or an unknown name is invalid-capability, never a throw", () => {
  const weird: unknown[] = [
    Symbol("s"),
    {
      toString() {
        throw new Error("no");
      },
    },
    Object.create(null),
    "__proto__",
    "toString",
    42,
  ];
  for (const c of weird) {
    const r = requireCapability(turnRecoveryProfile, c as never);
    assert.equal(r?.code, "invalid-capability");
    assert.equal(typeof r?.capability, "string");
  }
  // an inherited name is not offered by a profile whose capabilities record lacks it
  const bare = { name: "bare", capabilities: Object.create({ connectionReplay: true }) };
  assert.equal(
    requireCapability(bare as never, "connectionReplay")?.code,
    "capability-not-offered",
  );
});
