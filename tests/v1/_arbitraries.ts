/** Shared fast-check arbitraries for the v1 tests: valid envelopes and near-misses. */
import fc from "../_helpers/seed.ts";

export const TRICKY: unknown[] = [
  undefined,
  null,
  "",
  "x",
  0,
  -0,
  1,
  -1,
  0.5,
  1.5,
  2,
  NaN,
  Infinity,
  -Infinity,
  2 ** 53,
  true,
  false,
  [],
  {},
  ["x"],
  { a: 1 },
  "__proto__",
  "running",
  "submitted",
  "delta",
  // not wire ids: no SSE id line or header could carry them
  "e\n1",
  "a\u0000b",
  "k\ud800",
  // extension names and channels, good and bad
  "scout.products",
  "Scout.products",
  "scout",
  "scout..x",
  "transient",
  "navigate",
  "ext",
];

export const tricky = fc.constantFrom(...TRICKY);

const id = fc.constantFrom("a", "b", "c-1", "t1", "c1");
const text = fc.constantFrom("", "Hello", " world", "ünï", "x".repeat(40));
const card = fc.record({
  correlationId: fc.constantFrom("k1", "k2"),
  prompt: text,
  createdAt: fc.constantFrom(0, 1767225600000),
  presentation: fc.constant({ kind: "radio", options: [{ id: "a", label: "A" }] }),
}, { requiredKeys: ["correlationId", "prompt", "createdAt"] });
const block = fc.record({
  id,
  text,
  sources: fc.array(fc.record({ ref: id, label: text }, { requiredKeys: ["ref"] }), {
    maxLength: 2,
  }),
});

export const validEvent: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ type: fc.constant("session"), sessionId: id }),
  fc.record({ type: fc.constantFrom("delta", "reasoning"), text }),
  fc.record({ type: fc.constant("tool_call"), callId: id, name: id, input: fc.jsonValue() }, {
    requiredKeys: ["type", "callId", "name"],
  }),
  fc.record({
    type: fc.constant("tool_progress"),
    callId: id,
    message: text,
    progress: fc.constantFrom(0, 0.25, 1),
  }, { requiredKeys: ["type", "callId"] }),
  fc.record({
    type: fc.constant("tool_result"),
    callId: id,
    name: id,
    ok: fc.boolean(),
    summary: text,
    output: fc.jsonValue(),
    blocks: fc.uniqueArray(block, { maxLength: 2, selector: (b) => b.id }),
  }, { requiredKeys: ["type", "callId", "name", "ok"] }),
  fc.record({
    type: fc.constant("provenance"),
    engine: id,
    model: id,
    provider: text,
    accountRoute: fc.constantFrom(null, "r1"),
  }, { requiredKeys: ["type", "engine", "model"] }),
  fc.record({ type: fc.constant("card"), card }),
  fc.record({
    type: fc.constant("card_closed"),
    correlationId: id,
    resolution: fc.constantFrom("submitted", "declined", "cancelled", "expired", "interrupted"),
  }, { requiredKeys: ["type", "correlationId"] }),
  fc.record({ type: fc.constant("state"), version: fc.nat(), snapshot: fc.jsonValue() }),
  fc.record({
    type: fc.constant("done"),
    stopReason: text,
    usage: fc.record({
      totalTokens: fc.nat(),
      inputTokens: fc.nat(),
      outputTokens: fc.nat(),
      costUsd: fc.constantFrom(0, 0.01),
    }, { requiredKeys: [] }),
  }, { requiredKeys: ["type"] }),
  fc.oneof(
    fc.record({
      type: fc.constant("error"),
      message: text,
      code: id,
      retryable: fc.constant(false),
    }, {
      requiredKeys: ["type", "message", "retryable"],
    }),
    fc.record({
      type: fc.constant("error"),
      message: text,
      retryable: fc.constant(true),
      retryAfterMs: fc.constantFrom(0, 1500),
    }, { requiredKeys: ["type", "message", "retryable"] }),
  ),
  fc.record({ type: fc.constant("navigate"), href: text }),
  fc.record({
    type: fc.constant("turn_status"),
    status: fc.constantFrom("running", "cancelled", "interrupted", "needs-reconciliation"),
    reason: text,
  }, { requiredKeys: ["type", "status"] }),
  fc.record({
    type: fc.constant("ext"),
    name: fc.constantFrom("scout.products", "scout.broaden", "acme.cart.updated", "a1.b_2"),
    channel: fc.constantFrom("event", "state", "transient"),
    data: fc.jsonValue({ maxDepth: 3 }),
  }, { requiredKeys: ["type", "name", "data"] }),
  fc.record({ type: fc.constant("elided"), of: fc.constantFrom("navigate", "ext") }),
);

export const validEnvelope: fc.Arbitrary<Record<string, unknown>> = fc.record({
  schemaVersion: fc.constant(1),
  conversationId: id,
  turnId: id,
  eventId: id,
  seq: fc.integer({ min: 1, max: 1000 }),
  at: fc.constantFrom(0, 1767225600000),
  event: validEvent,
}, { requiredKeys: ["schemaVersion", "conversationId", "turnId", "eventId", "seq", "event"] });

const ENVELOPE_KEYS = [
  "schemaVersion",
  "conversationId",
  "turnId",
  "eventId",
  "seq",
  "at",
  "event",
  "extra",
];
const EVENT_KEYS = [
  "type",
  "sessionId",
  "text",
  "callId",
  "name",
  "input",
  "message",
  "progress",
  "ok",
  "summary",
  "output",
  "blocks",
  "engine",
  "model",
  "provider",
  "accountRoute",
  "card",
  "correlationId",
  "resolution",
  "version",
  "snapshot",
  "stopReason",
  "usage",
  "code",
  "retryable",
  "retryAfterMs",
  "href",
  "status",
  "reason",
  "channel",
  "data",
  "of",
];
const INNER_KEYS = [
  "correlationId",
  "prompt",
  "createdAt",
  "totalTokens",
  "costUsd",
  "id",
  "text",
  "sources",
  "ref",
  "label",
];

type Mutation = {
  where: "env" | "event" | "inner";
  key: string;
  value: unknown;
  del: boolean;
  pick?: number;
};

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    where: fc.constant("env" as const),
    key: fc.constantFrom(...ENVELOPE_KEYS),
    value: tricky,
    del: fc.boolean(),
  }),
  fc.record({
    where: fc.constant("event" as const),
    key: fc.constantFrom(...EVENT_KEYS),
    value: tricky,
    del: fc.boolean(),
  }),
  fc.record({
    where: fc.constant("inner" as const),
    key: fc.constantFrom(...INNER_KEYS),
    value: tricky,
    del: fc.boolean(),
    pick: fc.nat(6),
  }),
);

function innerTargets(ev: Record<string, unknown>): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const k of ["card", "usage"]) {
    const v = ev[k];
    if (v && typeof v === "object" && !Array.isArray(v)) out.push(v as Record<string, unknown>);
  }
  if (Array.isArray(ev.blocks)) {
    for (const b of ev.blocks) {
      if (b && typeof b === "object") {
        out.push(b);
        if (Array.isArray(b.sources)) {
          for (const s of b.sources) if (s && typeof s === "object") out.push(s);
        }
      }
    }
  }
  return out;
}

function apply(target: Record<string, unknown>, m: Mutation) {
  if (m.del) delete target[m.key];
  else target[m.key] = structuredClone(m.value); // never share (and later mutate) a TRICKY constant
}

/** Valid envelopes with 0–3 mutations (field replaced by a tricky value or deleted). */
export const nearEnvelope: fc.Arbitrary<unknown> = fc.tuple(
  validEnvelope,
  fc.array(mutation, { maxLength: 3 }),
)
  .map(([env, ms]) => {
    const e = structuredClone(env);
    for (const m of ms) {
      if (m.where === "env") apply(e, m);
      else {
        const ev = e.event;
        if (!ev || typeof ev !== "object" || Array.isArray(ev)) continue;
        if (m.where === "event") apply(ev as Record<string, unknown>, m);
        else {
          const targets = innerTargets(ev as Record<string, unknown>);
          if (targets.length > 0) apply(targets[(m.pick ?? 0) % targets.length], m);
        }
      }
    }
    return e;
  });
