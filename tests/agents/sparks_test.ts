/** Paths, sparks and glow: spec agents.md §6 and §8 worked examples, exact values. */
import assert from "node:assert/strict";
import {
  activityCategory,
  type BrokerEvent,
  GLOW_DURATION_MS,
  glowStrength,
  isPeerName,
  layoutSpawnTree,
  liveSparks,
  nodeActivity,
  pointAlongPolyline,
  SPARK_DURATION_MS,
  sparkRoutes,
  sparksSince,
  treePath,
} from "../../agents.ts";

const spawn = (from: string, target: string, at: number): BrokerEvent => ({
  msgId: `s${at}`,
  kind: "agent_spawned",
  from,
  text: "",
  at,
  meta: { target },
});
// root→a, root→b, a→a1; plus a separate tree lone→l1.
const layout = layoutSpawnTree([
  spawn("root", "a", 1),
  spawn("root", "b", 2),
  spawn("a", "a1", 3),
  spawn("lone", "l1", 4),
]);

Deno.test("treePath: spec examples, self, unknown, separate trees", () => {
  assert.deepEqual(treePath(layout, "a1", "b"), ["a1", "a", "root", "b"]);
  assert.deepEqual(treePath(layout, "root", "a"), ["root", "a"]);
  assert.deepEqual(treePath(layout, "b", "a1"), ["b", "root", "a", "a1"]);
  assert.deepEqual(treePath(layout, "a1", "root"), ["a1", "a", "root"]);
  assert.deepEqual(treePath(layout, "a", "a"), []);
  assert.deepEqual(treePath(layout, "a", "ghost"), []);
  assert.deepEqual(treePath(layout, "ghost", "a"), []);
  assert.deepEqual(treePath(layout, "a1", "l1"), ["a1", "l1"]);
});

Deno.test("treePath is loop-safe on a hand-made cyclic layout", () => {
  const cyclic = layoutSpawnTree([spawn("p", "q", 1)]);
  cyclic.byName.get("p")!.parent = "q"; // corrupt: p→q→p
  assert.deepEqual(treePath(cyclic, "p", "q"), ["p", "q"]);
});

Deno.test("pointAlongPolyline: spec example and edge cases", () => {
  const pts = [{ x: 0, y: 0 }, { x: 10, y: 0 }, { x: 10, y: 30 }];
  assert.deepEqual(pointAlongPolyline(pts, 0), { x: 0, y: 0 });
  assert.deepEqual(pointAlongPolyline(pts, 0.25), { x: 10, y: 0 });
  assert.deepEqual(pointAlongPolyline(pts, 0.5), { x: 10, y: 10 });
  assert.deepEqual(pointAlongPolyline(pts, 1), { x: 10, y: 30 });
  assert.deepEqual(pointAlongPolyline(pts, 0.125), { x: 5, y: 0 });
  assert.deepEqual(pointAlongPolyline(pts, -3), { x: 0, y: 0 });
  assert.deepEqual(pointAlongPolyline(pts, 7), { x: 10, y: 30 });
  assert.deepEqual(pointAlongPolyline(pts, NaN), { x: 0, y: 0 });
  assert.deepEqual(pointAlongPolyline([], 0.5), { x: 0, y: 0 });
  assert.deepEqual(pointAlongPolyline([{ x: 3, y: 4 }], 0.9), { x: 3, y: 4 });
  assert.deepEqual(pointAlongPolyline([{ x: 3, y: 4 }, { x: 3, y: 4 }], 0.9), { x: 3, y: 4 });
  // A zero-length middle segment is crossed, not stalled on.
  assert.deepEqual(
    pointAlongPolyline([{ x: 0, y: 0 }, { x: 10, y: 0 }, { x: 10, y: 0 }, { x: 20, y: 0 }], 0.75),
    { x: 15, y: 0 },
  );
});

Deno.test("sparkRoutes: one route per reachable recipient, points from the layout", () => {
  const routes = sparkRoutes(layout, {
    msgId: "m1",
    kind: "question",
    from: "a1",
    at: 10,
    recipients: ["b", "a1", "ghost", "root"],
  });
  assert.deepEqual(routes, [
    {
      from: "a1",
      to: "b",
      category: "question",
      points: [{ x: 398, y: 22 }, { x: 212, y: 22 }, { x: 26, y: 37 }, { x: 212, y: 52 }],
    },
    {
      from: "a1",
      to: "root",
      category: "question",
      points: [{ x: 398, y: 22 }, { x: 212, y: 22 }, { x: 26, y: 37 }],
    },
  ]);
});

Deno.test("sparksSince: strict since, ids msgId:to:index, startedAt = now; liveSparks window", () => {
  const entries = [
    { msgId: "old", kind: "message", from: "root", at: 100, recipients: ["a"] },
    { msgId: "m2", kind: "notice", from: "root", at: 101, recipients: ["ghost", "a", "b"] },
  ];
  const sparks = sparksSince(layout, entries, 100, 5000);
  assert.deepEqual(sparks.map((s) => [s.id, s.to, s.category, s.startedAt]), [
    ["m2:a:0", "a", "notice", 5000],
    ["m2:b:1", "b", "notice", 5000],
  ]);
  assert.equal(SPARK_DURATION_MS, 1100);
  assert.equal(liveSparks(sparks, 5000 + 1099).length, 2);
  assert.equal(liveSparks(sparks, 5000 + 1100).length, 0);
  assert.equal(liveSparks(sparks, 4000).length, 2);
});

Deno.test("glowStrength: 1 at the event, 0.5 at 3 s, 0 from 6 s, 1 in the future, 0 without", () => {
  assert.equal(GLOW_DURATION_MS, 6000);
  const a = { category: "message" as const, at: 10_000 };
  assert.equal(glowStrength(a, 10_000), 1);
  assert.equal(glowStrength(a, 13_000), 0.5);
  assert.equal(glowStrength(a, 16_000), 0);
  assert.equal(glowStrength(a, 99_000), 0);
  assert.equal(glowStrength(a, 9_000), 1);
  assert.equal(glowStrength(undefined, 10_000), 0);
  assert.equal(glowStrength(a, 11_500), 0.75);
});

Deno.test("activityCategory and isPeerName", () => {
  const cat = Object.fromEntries(
    [
      "message",
      "broadcast",
      "question",
      "approval_request",
      "notice",
      "answer",
      "resolution",
      "agent_spawned",
      "whatever",
    ].map((k) => [k, activityCategory(k)]),
  );
  assert.deepEqual(cat, {
    message: "message",
    broadcast: "message",
    question: "question",
    approval_request: "question",
    notice: "notice",
    answer: "notice",
    resolution: "notice",
    agent_spawned: "thinking",
    whatever: "thinking",
  });
  assert.deepEqual(
    ["w1", "", "a b", "a,b", "*", "?", "tab\there", "tpc-impl"].map(isPeerName),
    [true, false, false, false, false, false, false, true],
  );
});

Deno.test("nodeActivity: newest wins regardless of order, ties go to the later row, route_failed skipped", () => {
  const ev = (kind: string, from: string, target: string | undefined, at: number): BrokerEvent => ({
    msgId: `${kind}${at}`,
    kind,
    from,
    text: "",
    at,
    meta: target === undefined ? {} : { target },
  });
  const act = nodeActivity([
    ev("question", "a", "b", 50),
    ev("message", "a", "b", 20), // older, arrives later: ignored
    ev("notice", "c", "b", 50), // tie: the later row wins
    ev("route_failed", "a", "b", 99),
    ev("message", "d", "*", 60),
  ]);
  assert.deepEqual(Object.fromEntries(act), {
    a: { category: "question", at: 50 },
    b: { category: "notice", at: 50 },
    c: { category: "notice", at: 50 },
    d: { category: "message", at: 60 },
  });
});

Deno.test("sparks helpers refuse garbage quietly instead of throwing", () => {
  const junk = null as unknown as never;
  assert.deepEqual(treePath(junk, "a", "b"), []);
  assert.deepEqual(
    sparkRoutes(layout, { msgId: "m", kind: "message", from: "a", at: 1, recipients: junk }),
    [],
  );
  assert.deepEqual(sparksSince(layout, junk, 0, 1), []);
  assert.deepEqual(sparksSince(layout, [junk], 0, 1), []);
  assert.deepEqual(liveSparks(junk, 1), []);
  assert.deepEqual(pointAlongPolyline(junk, 0.5), { x: 0, y: 0 });
  assert.equal(glowStrength({ category: "message", at: "x" as unknown as number }, 5), 0);
  // Objects that throw on numeric/string coercion (no prototype) in time and id slots.
  const bare = Object.create(null) as never;
  assert.equal(glowStrength({ category: "message", at: 1 }, bare), 0);
  assert.deepEqual(liveSparks([], bare), []);
  assert.deepEqual(pointAlongPolyline([{ x: 0, y: 0 }, { x: 10, y: 0 }], bare), { x: 0, y: 0 });
  assert.deepEqual(sparksSince(layout, [], bare, 1), []);
  const entry = { msgId: "m", kind: "message", from: "a", at: 5, recipients: ["b"] };
  assert.equal(sparksSince(layout, [entry], 0, 1).length, 1, "the well-formed entry sparks");
  assert.deepEqual(
    sparksSince(layout, [{ ...entry, at: bare }, { ...entry, msgId: bare }], 0, 1),
    [],
  );
});
