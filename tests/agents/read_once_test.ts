/**
 * "Never throws" for the broker readers when zod formats an issue from a
 * field it cannot read (a revoked proxy, a throwing proxy, a throwing
 * getter: tests/_helpers/hostile.ts): the row is malformed, reported, never
 * thrown. The property prints its seed; set FC_SEED to replay one.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { parseBrokerHistory, parseBrokerSessions } from "../../agents.ts";
import { hostile, HOSTILE_RUNS, revokedProxy } from "../_helpers/hostile.ts";

const EVENT_KEYS = ["msgId", "kind", "from", "text", "at", "meta"] as const;
const SESSION_KEYS = ["name", "workingOn", "cwd", "status", "idleMs", "registeredAt"] as const;

function seedOf(): number {
  const s = Number(Deno.env.get("FC_SEED") ?? NaN);
  const seed = Number.isSafeInteger(s) ? s : Math.floor(Math.random() * 2 ** 31);
  console.log("seed", seed);
  return seed;
}

Deno.test("parseBrokerHistory / parseBrokerSessions: a revoked-proxy field is a malformed row", () => {
  for (const key of EVENT_KEYS) {
    const row: Record<string, unknown> = {
      msgId: "x",
      kind: "k",
      from: "a",
      text: "",
      at: 1,
      meta: {},
    };
    row[key] = revokedProxy();
    const r = parseBrokerHistory({ items: [row] });
    assert.ok(r.ok, key);
    assert.equal(r.value.malformed, 1, key);
    assert.equal(r.value.issues.length, 1, key);
  }
  for (const key of SESSION_KEYS) {
    const r = parseBrokerSessions({ sessions: [{ [key]: revokedProxy() }] });
    assert.ok(r.ok, key);
    assert.equal(r.value.malformed, 1, key);
  }
});

Deno.test("property: a hostile value in any field of a broker row never makes the readers throw", () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...EVENT_KEYS),
      fc.constantFrom(...SESSION_KEYS),
      hostile(),
      (eventKey, sessionKey, bad) => {
        const row: Record<string, unknown> = {
          msgId: "x",
          kind: "k",
          from: "a",
          text: "",
          at: 1,
          meta: {},
        };
        row[eventKey] = bad.build();
        const h = parseBrokerHistory({ items: [row, row] });
        assert.ok(h.ok);
        assert.equal(h.value.events.length + h.value.malformed, 2);
        const s = parseBrokerSessions({ sessions: [{ [sessionKey]: bad.build() }] });
        assert.ok(s.ok);
        assert.equal(s.value.sessions.length + s.value.malformed, 1);
      },
    ),
    { numRuns: HOSTILE_RUNS, seed: seedOf() },
  );
});
