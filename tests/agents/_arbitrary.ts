/**
 * fast-check arbitraries for broker histories: a small name pool so respawns,
 * retirements, cycles and multicasts happen often.
 *
 * @module
 */
import fc from "../_helpers/seed.ts";
import type { BrokerEvent } from "../../agents.ts";

const NAMES = ["human", "coord", "w1", "w2", "w3", "a", "b", "x y", "*", "", "tpc", "tpc-impl"];
const KINDS = [
  "agent_spawned",
  "agent_spawned",
  "agent_spawned",
  "agent_attached",
  "agent_detached",
  "agent_exited",
  "agent_retired",
  "agent_resumed",
  "message",
  "question",
  "answer",
  "notice",
  "broadcast",
  "resolution",
  "approval_request",
  "route_failed",
  "brand_new_kind",
];

/** A name, mostly peers, sometimes not (`x y`, `*`, ``). */
export const nameArb: fc.Arbitrary<string> = fc.constantFrom(...NAMES);

/** One structurally valid broker row. */
export const eventArb: fc.Arbitrary<BrokerEvent> = fc.record({
  msgId: fc.constantFrom("m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", ""),
  kind: fc.constantFrom(...KINDS),
  from: nameArb,
  text: fc.constantFrom("", "TP-1 do it\nmore", "brief"),
  at: fc.integer({ min: 0, max: 50 }),
  meta: fc.record(
    {
      target: nameArb,
      name: nameArb,
      audience: fc.constantFrom("a,b", " w1 , w2", "coord"),
      cost_usd: fc.constantFrom("1.5", "", "abc", "2"),
      failed: fc.constantFrom("true", "false"),
      session_id: fc.constantFrom("s1", "s2", ""),
      origin: fc.constantFrom("adopted", "cli"),
    },
    { requiredKeys: [] },
  ),
});

/** Histories with unique-ish agent ids: spawn rows get their index as msgId. */
export const historyArb: fc.Arbitrary<BrokerEvent[]> = fc.array(eventArb, { maxLength: 40 }).map((
  events,
) => events.map((e, i) => e.kind === "agent_spawned" ? { ...e, msgId: `sp${i}` } : e));

/** Lifecycle-heavy histories over three names: spawns, respawns, retirements, late rows. */
export const lifecycleArb: fc.Arbitrary<BrokerEvent[]> = fc.array(
  fc.tuple(
    fc.constantFrom(
      "agent_spawned",
      "agent_spawned",
      "agent_retired",
      "agent_attached",
      "agent_detached",
      "agent_exited",
      "agent_resumed",
      "message",
    ),
    fc.constantFrom("w1", "w2", "w3"),
    fc.constantFrom("1.5", "x", ""),
  ),
  { minLength: 4, maxLength: 30, size: "medium" },
).map((rows) =>
  rows.map(([kind, name, cost], i): BrokerEvent => {
    switch (kind) {
      case "agent_spawned":
        return {
          msgId: `sp${i}`,
          kind,
          from: "coord",
          text: "",
          at: i,
          meta: { target: name, session_id: `s${i}` },
        };
      case "agent_retired":
      case "agent_resumed":
        return { msgId: `r${i}`, kind, from: "human", text: "", at: i, meta: { target: name } };
      default:
        return { msgId: `e${i}`, kind, from: name, text: "", at: i, meta: { cost_usd: cost } };
    }
  })
);
