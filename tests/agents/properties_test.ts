/**
 * Fold properties (fast-check): never throw on arbitrary JSON, no prototype
 * pollution, retired is final, no record lost across respawns, presence joins
 * the newest incarnation.
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import {
  agentGraph,
  agentRosterSnapshot,
  type BrokerEvent,
  type BrokerSession,
  buildSpawnTree,
  foldAgentGraph,
  foldAgentLifecycle,
  foldAgentRecords,
  foldRoster,
  layoutSpawnTree,
  nodeActivity,
  type RosterInput,
} from "../../agents.ts";
import { eventArb, historyArb, lifecycleArb, nameArb } from "./_arbitrary.ts";

const hostileRow = fc.constantFrom(
  JSON.parse(
    '{"msgId":"p","kind":"agent_spawned","from":"__proto__","text":"","at":1,"meta":{"target":"constructor","__proto__":"x","session_id":"toString"}}',
  ),
  JSON.parse(
    '{"msgId":"q","kind":"message","from":"constructor","text":"","at":2,"meta":{"target":"__proto__"}}',
  ),
  JSON.parse(
    '{"__proto__":{"polluted":1},"msgId":"r","kind":"agent_exited","from":"hasOwnProperty","text":"","at":3,"meta":{}}',
  ),
  JSON.parse(
    '{"msgId":"s","kind":"agent_retired","from":"human","text":"","at":4,"meta":{"target":"__proto__","__proto__":{"polluted":1}}}',
  ),
);
const anyRow = fc.oneof(
  { weight: 4, arbitrary: eventArb as fc.Arbitrary<unknown> },
  { weight: 1, arbitrary: fc.jsonValue() as fc.Arbitrary<unknown> },
  { weight: 1, arbitrary: hostileRow as fc.Arbitrary<unknown> },
);
const anySession = fc.oneof(
  fc.record({
    name: fc.oneof(nameArb, fc.constantFrom("__proto__", "constructor")),
    workingOn: fc.constantFrom("", "TP-1 x", "xy-2"),
    cwd: fc.string(),
    status: fc.constantFrom("working", "available", "blocked", "weird"),
    idleMs: fc.integer({ min: 0, max: 100 }),
    registeredAt: fc.integer({ min: 0, max: 100 }),
    observed: fc.jsonValue(),
    declared: fc.jsonValue(),
    tags: fc.jsonValue(),
    dnd: fc.jsonValue(),
  }, {
    requiredKeys: ["name", "workingOn", "cwd", "status", "idleMs", "registeredAt"],
  }) as fc.Arbitrary<unknown>,
  fc.jsonValue() as fc.Arbitrary<unknown>,
);

Deno.test("property: folds never throw on arbitrary JSON and never pollute prototypes", () => {
  fc.assert(
    fc.property(
      fc.oneof(fc.array(anyRow, { maxLength: 25 }), fc.jsonValue()),
      fc.oneof(fc.array(anySession, { maxLength: 4 }), fc.jsonValue()),
      fc.oneof(fc.integer(), fc.constant(null), fc.double()),
      fc.oneof(fc.integer({ min: -1, max: 30 }), fc.jsonValue()),
      fc.oneof(fc.constant(50), fc.double(), fc.integer()),
      (events, sessions, brokerUptimeMs, historyLimit, now) => {
        const input = {
          events,
          sessions,
          brokerUptimeMs,
          historyLimit,
          now,
        } as unknown as RosterInput;
        const snap = foldRoster(input);
        const graph = foldAgentGraph({
          events: events as BrokerEvent[],
          historyLimit: historyLimit as number,
          now,
          roster: snap.agents,
        });
        layoutSpawnTree(events as BrokerEvent[]);
        nodeActivity(events as BrokerEvent[]);
        buildSpawnTree(events as BrokerEvent[]);
        JSON.stringify(snap);
        JSON.stringify(graph);
        assert.equal(({} as Record<string, unknown>).polluted, undefined);
        assert.equal(Object.getPrototypeOf({}), Object.prototype);
        for (const a of snap.agents) assert.equal(typeof a.id, "string");
        // Whatever came in, the snapshots pass their own published schemas.
        const rosterCheck = agentRosterSnapshot.safeParse(snap);
        assert.ok(rosterCheck.success, JSON.stringify(rosterCheck.error?.issues?.[0]));
        const graphCheck = agentGraph.safeParse(graph);
        assert.ok(graphCheck.success, JSON.stringify(graphCheck.error?.issues?.[0]));
        const bare = foldAgentGraph({ events: events as BrokerEvent[], historyLimit: 1000, now });
        const bareCheck = agentGraph.safeParse(bare);
        assert.ok(bareCheck.success, JSON.stringify(bareCheck.error?.issues?.[0]));
        assert.ok(snap.diagnostics.malformedEvents <= (Array.isArray(events) ? events.length : 0));
      },
    ),
    { numRuns: 3000 },
  );
  // Whole-input garbage.
  for (const bad of [null, undefined, 3, "x", [], { events: {} }]) {
    assert.doesNotThrow(() => foldRoster(bad as unknown as RosterInput));
    assert.doesNotThrow(() =>
      foldAgentGraph(bad as unknown as Parameters<typeof foldAgentGraph>[0])
    );
  }
});

Deno.test("property: hostile names and meta keys stay plain data", () => {
  const events = [
    JSON.parse(
      '{"msgId":"p","kind":"agent_spawned","from":"constructor","text":"","at":1,"meta":{"target":"__proto__","__proto__":"x","cwd":"/c"}}',
    ),
    JSON.parse(
      '{"msgId":"q","kind":"agent_exited","from":"__proto__","text":"","at":2,"meta":{"cost_usd":"1"}}',
    ),
  ] as BrokerEvent[];
  const rec = foldAgentRecords(events).get("p")!;
  assert.equal(rec.name, "__proto__");
  assert.equal(rec.lifecycle, "exited");
  assert.equal(Object.getPrototypeOf(rec.meta), Object.prototype);
  assert.equal(
    Object.hasOwn(rec.meta, "__proto__"),
    true,
    "kept as an own data key, not a prototype",
  );
  const snap = foldRoster({ sessions: [], brokerUptimeMs: null, events, historyLimit: 10, now: 5 });
  assert.deepEqual(snap.agents.map((a) => [a.name, a.cwd, a.costUsd, a.spawnedBy]), [[
    "__proto__",
    "/c",
    1,
    "constructor",
  ]]);
  const tree = buildSpawnTree(events);
  assert.equal(tree.get("__proto__"), "constructor");
});

Deno.test("property: retired is final for every incarnation, in every prefix", () => {
  let runsWithRetirement = 0;
  fc.assert(
    fc.property(lifecycleArb, (events) => {
      const retired = new Set<string>();
      for (let i = 0; i <= events.length; i++) {
        const recs = foldAgentRecords(events.slice(0, i));
        for (const id of retired) {
          assert.equal(recs.get(id)?.lifecycle, "retired", `${id} revived at ${i}`);
        }
        for (const r of recs.values()) if (r.lifecycle === "retired") retired.add(r.agentId);
      }
      if (retired.size > 0) runsWithRetirement++;
      // And the roster never shows a retired incarnation as anything else.
      const snap = foldRoster({
        sessions: [],
        brokerUptimeMs: null,
        events,
        historyLimit: 1000,
        now: 0,
      });
      for (const a of snap.agents) {
        if (a.agentId && retired.has(a.agentId)) assert.equal(a.state, "retired");
      }
    }),
    { numRuns: 1000 },
  );
  assert.ok(runsWithRetirement > 100, `only ${runsWithRetirement} runs retired anything`);
});

Deno.test("property: no record lost across respawns; presence joins the newest incarnation", () => {
  let runsWithRespawn = 0;
  fc.assert(
    fc.property(
      fc.oneof(lifecycleArb, historyArb),
      fc.subarray(["w1", "w2", "a", "coord", "tpc"]),
      (events, liveNames) => {
        const sessions: BrokerSession[] = liveNames.map((name) => ({
          name,
          workingOn: "",
          cwd: "/",
          status: "working",
          idleMs: 0,
          registeredAt: 7,
        }));
        const fold = foldAgentLifecycle(events);
        // Every first-seen spawn row with a name has its own record.
        const expected = new Set<string>();
        for (const e of events) {
          if (e.kind !== "agent_spawned") continue;
          const name = (Object.hasOwn(e.meta, "target") ? e.meta.target : undefined) ??
            (Object.hasOwn(e.meta, "name") ? e.meta.name : undefined) ?? "";
          if (name !== "") expected.add(e.msgId);
        }
        assert.deepEqual(new Set(fold.records.keys()), expected);
        const snap = foldRoster({
          sessions,
          brokerUptimeMs: null,
          events,
          historyLimit: 1000,
          now: 100,
        });
        // Each record appears in exactly one roster row.
        const withId = snap.agents.filter((a) => a.agentId !== null).map((a) => a.agentId!);
        assert.deepEqual([...withId].sort(), [...expected].sort());
        for (const a of snap.agents) {
          if (a.stateSource !== "presence") continue;
          const newest = fold.newest.get(a.name);
          assert.equal(a.agentId, newest?.agentId ?? null, "presence joins the newest incarnation");
        }
        // Superseded incarnations are history rows pointing at their successor.
        if (snap.agents.some((a) => a.supersededBy !== null)) runsWithRespawn++;
        for (const a of snap.agents) {
          if (a.supersededBy === null) continue;
          assert.equal(a.stateSource, "history");
          assert.ok(fold.records.has(a.supersededBy));
          assert.equal(fold.records.get(a.supersededBy)!.name, a.name);
        }
      },
    ),
    { numRuns: 2000 },
  );
  assert.ok(runsWithRespawn > 300, `only ${runsWithRespawn} runs had a respawn`);
});
