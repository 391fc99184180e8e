/**
 * "Never throws" for every InteractionResolver entry point against the
 * shared hostile generator: hostile values in every argument position (and
 * in every field of well-shaped inputs), ≥ 10^4 runs each.
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import { hostile, HOSTILE_RUNS, hostileLike } from "../_helpers/hostile.ts";
import { ME, SCHEMA_1, setup } from "./_fixtures.ts";

const system = { kind: "system", actorId: "reaper", tenantId: ME.tenantId };
const caller = hostileLike(fc.constantFrom(ME, system, { ...ME, principalId: "x" }));
const id = fc.oneof(
  hostile(),
  fc.constantFrom("c", "missing", "").map((v) => ({ build: () => v })),
);
const options = hostileLike(
  fc.record({ reason: fc.string({ maxLength: 4 }), submissionId: fc.string({ maxLength: 4 }) }),
);
const input = hostileLike(fc.record({
  id: fc.constantFrom("c", "n"),
  caller: fc.constantFrom(ME, system),
  response: fc.constantFrom(
    { action: "submit", correlationId: "c", value: { optionId: "a" } },
    { action: "decline", correlationId: "c" },
  ),
  result: fc.constantFrom({ action: "accept", content: { optionId: "b" } }, { action: "cancel" }),
  submissionId: fc.string({ maxLength: 4 }),
  card: fc.constant({ prompt: "?" }),
  authority: fc.constant(ME),
  schema: fc.constant(SCHEMA_1),
}));
const any = fc.oneof(hostile(), input);

type Call = (
  w: ReturnType<ReturnType<typeof setup>["worker"]>,
  a: unknown,
  b: unknown,
  c: unknown,
) => Promise<{ ok: boolean }>;
const METHODS: Record<string, [fc.Arbitrary<{ build(): unknown }>[], Call]> = {
  open: [[any], (w, a) => w.open(a as never)],
  answer: [[any], (w, a) => w.answer(a as never)],
  resolveElicitation: [[any], (w, a) => w.resolveElicitation(a as never)],
  cancel: [[id, caller, options], (w, a, b, c) => w.cancel(a as never, b as never, c as never)],
  expire: [[id, caller, options], (w, a, b, c) => w.expire(a as never, b as never, c as never)],
  changeSchema: [
    [id, caller, any],
    (w, a, b, c) => w.changeSchema(a as never, b as never, c as never),
  ],
  updateMetadata: [
    [id, caller, any],
    (w, a, b, c) => w.updateMetadata(a as never, b as never, c as never),
  ],
  read: [[id, caller], (w, a, b) => w.read(a as never, b as never)],
};

for (const [name, [arbs, call]] of Object.entries(METHODS)) {
  Deno.test(`InteractionResolver.${name} never throws or rejects on hostile arguments (${HOSTILE_RUNS} runs)`, async () => {
    const { store, worker } = setup();
    const w = worker();
    await w.open({ id: "c", card: { prompt: "?" }, authority: ME, schema: SCHEMA_1 });
    await store.grantSystem(system);
    const triple = fc.tuple(
      arbs[0],
      arbs[1] ?? fc.constant({ build: () => undefined }),
      arbs[2] ?? fc.constant({ build: () => undefined }),
    );
    await fc.assert(
      fc.asyncProperty(triple, async ([a, b, c]) => {
        const r = await call(w, a.build(), b.build(), c.build());
        assert.equal(typeof r.ok, "boolean");
      }),
      { numRuns: HOSTILE_RUNS, seed: 21 },
    );
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(store.peek("c")?.authority.principalId, ME.principalId);
  });
}
