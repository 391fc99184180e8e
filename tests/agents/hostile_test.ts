/**
 * Every public agents function against hostile values in every argument
 * position, 10^4 runs each, and the two reported failures: `foldRoster` on
 * identical `/api/sessions` rows (cubic, with ids growing without bound) and
 * `pointAlongPolyline` on an array with holes (threw).
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import {
  activityCategory,
  buildSpawnTree,
  foldAgentGraph,
  foldAgentLifecycle,
  foldAgentRecords,
  foldRoster,
  glowStrength,
  historyWindowOf,
  isPeerName,
  layoutSpawnTree,
  liveSparks,
  nodeActivity,
  parseBrokerHistory,
  parseBrokerSessions,
  pointAlongPolyline,
  seatOf,
  sparkRoutes,
  sparksSince,
  treePath,
} from "../../agents.ts";
import { arg, attack } from "../_helpers/attack.ts";
import { eventArb, historyArb, nameArb } from "./_arbitrary.ts";
import { session } from "./_helpers.ts";

const sessionArb = nameArb.map((name) => session(name));
const rosterInput = fc.record({
  sessions: fc.array(sessionArb, { maxLength: 3 }),
  brokerUptimeMs: fc.constantFrom(100, 20_000),
  events: historyArb,
  historyLimit: fc.constantFrom(10, 1000),
  now: fc.constant(100),
  seatPrefixes: fc.constant([{ seat: "titan", prefix: "tpc" }]),
});
const graphInput = fc.record({
  events: historyArb,
  historyLimit: fc.constantFrom(10, 1000),
  now: fc.constant(100),
});
const point = fc.record({ x: fc.integer(), y: fc.integer() });
const layoutArb = historyArb.map((h) => layoutSpawnTree(h));
const spark = fc.record({
  msgId: fc.constantFrom("m1", "m2"),
  kind: fc.constantFrom("message", "question"),
  from: nameArb,
  recipients: fc.array(nameArb, { maxLength: 2 }),
  at: fc.integer({ min: 0, max: 50 }),
});
const number = (r: unknown) => assert.ok(Number.isFinite(r as number));

Deno.test("foldRoster: identical /api/sessions rows get unique, bounded ids (was cubic, ids ~k chars long)", () => {
  // Regression: each repeat appended `#n` to the previous candidate, so row k took O(k)
  // tries on an O(k)-long id: 1,000 rows gave ids of 3,926 characters (4,000 rows: 46 s).
  const sessions = Array.from(
    { length: 1000 },
    () => session("tpc", { observed: { claudeSessionId: "s-1" } }),
  );
  const r = foldRoster({ sessions, brokerUptimeMs: 1, events: [], historyLimit: 10, now: 0 });
  const ids = r.agents.map((a) => a.id);
  assert.equal(new Set(ids).size, 1000);
  assert.deepEqual(ids.slice(0, 4), ["s-1", "s-1#tpc", "s-1#tpc#2", "s-1#tpc#3"]);
  assert.equal(ids.at(-1), "s-1#tpc#999");
  assert.ok(Math.max(...ids.map((i) => i.length)) <= 12);
});

Deno.test("pointAlongPolyline: holes read as (0, 0); never throws", () => {
  // Regression: `every` and `map` skip holes, so a hole reached the arithmetic as undefined.
  const holes: { x: number; y: number }[] = [{ x: 0, y: 0 }, , { x: 10, y: 0 }] as never;
  assert.deepEqual(pointAlongPolyline(holes, 1), { x: 10, y: 0 });
  assert.deepEqual(pointAlongPolyline([, , ,] as never, 0.5), { x: 0, y: 0 });
  const sparse: unknown[] = [{ x: 4, y: 4 }];
  sparse.length = 2 ** 32 - 1; // huge and empty: bounded, not a hang
  assert.ok(Number.isFinite(pointAlongPolyline(sparse as never, 0.5).x));
});

Deno.test("hostile: foldRoster / foldAgentGraph / historyWindowOf / seatOf", () => {
  attack([arg(rosterInput)], (i) => foldRoster(i as never), {
    check: (r) => assert.ok(Array.isArray((r as { agents: unknown }).agents)),
  });
  attack([arg(graphInput)], (i) => foldAgentGraph(i as never), {
    check: (r) => assert.ok(Array.isArray((r as { nodes: unknown }).nodes)),
  });
  attack([arg(historyArb), arg(fc.nat())], (e, l) => historyWindowOf(e as never, l as number));
  attack(
    [arg(nameArb), arg(fc.constant([{ seat: "titan", prefix: "tpc" }]))],
    (n, p) => seatOf(n as string, p as never),
    { check: (r) => assert.ok(r === null || typeof r === "string") },
  );
});

Deno.test("hostile: lifecycle, spawn tree and layout helpers", () => {
  for (
    const fn of [
      foldAgentLifecycle,
      foldAgentRecords,
      buildSpawnTree,
      nodeActivity,
      layoutSpawnTree,
    ] as ((x: unknown) => unknown)[]
  ) {
    attack([arg(historyArb)], (e) => fn(e));
  }
  attack([arg(nameArb)], (n) => isPeerName(n as string), {
    check: (r) => assert.equal(typeof r, "boolean"),
  });
  attack([arg(eventArb.map((e) => e.kind))], (k) => activityCategory(k as string), {
    check: (r) => assert.equal(typeof r, "string"),
  });
  attack([arg(fc.jsonValue())], (j) => parseBrokerHistory(j));
  attack([arg(fc.jsonValue())], (j) => parseBrokerSessions(j));
});

Deno.test("hostile: sparks (pointAlongPolyline, sparkRoutes, sparksSince, liveSparks, treePath, glowStrength)", () => {
  attack([arg(fc.array(point, { maxLength: 5 })), arg(fc.double())], (p, t) => {
    const r = pointAlongPolyline(p as never, t as number);
    number(r.x);
    number(r.y);
  });
  attack([arg(layoutArb), arg(spark)], (l, e) => sparkRoutes(l as never, e as never));
  attack(
    [arg(layoutArb), arg(fc.array(spark, { maxLength: 3 })), arg(fc.nat()), arg(fc.nat())],
    (l, e, s, n) => sparksSince(l as never, e as never, s as number, n as number),
  );
  attack([arg(fc.array(spark)), arg(fc.nat())], (s, n) => liveSparks(s as never, n as number));
  attack(
    [arg(layoutArb), arg(nameArb), arg(nameArb)],
    (l, a, b) => treePath(l as never, a as string, b as string),
  );
  attack(
    [arg(fc.record({ at: fc.nat(), category: fc.constant("message") })), arg(fc.nat())],
    (a, n) => glowStrength(a as never, n as number),
    { check: number },
  );
});
