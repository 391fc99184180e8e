/**
 * The fold's persistent vector (`src/v1/_pvec.ts`): against a plain array
 * model, every view shows the items of its moment, however many writes
 * follow and whenever it is read.
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import { PersistentVector } from "../../src/v1/_pvec.ts";

type Op = { kind: "push" } | { kind: "set"; at: number } | { kind: "view" } | {
  kind: "read";
  at: number;
};

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ kind: "push" as const }) },
  { weight: 3, arbitrary: fc.nat().map((at) => ({ kind: "set" as const, at })) },
  { weight: 2, arbitrary: fc.constant({ kind: "view" as const }) },
  { weight: 1, arbitrary: fc.nat().map((at) => ({ kind: "read" as const, at })) },
);

Deno.test("property: views are immutable versions of the vector (model-based, up to ~40k items)", () => {
  fc.assert(
    fc.property(
      fc.array(op, { maxLength: 300 }),
      fc.constantFrom(1, 40, 1500),
      (ops, scale) => {
        const v = new PersistentVector<number | undefined>();
        const model: (number | undefined)[] = [];
        const views: { view: ReturnType<typeof v.view>; expected: number[] }[] = [];
        let next = 0;
        for (const o of ops) {
          if (o.kind === "push") {
            // push `scale` items at once, so the trie grows past 32, 1,024 and 32,768
            for (let i = 0; i < scale; i++) {
              v.push(next);
              model.push(next++);
            }
          } else if (o.kind === "set" && model.length > 0) {
            const at = o.at % model.length;
            const value = o.at % 5 === 0 ? undefined : next++; // undefined is a hole
            v.set(at, value);
            model[at] = value;
          } else if (o.kind === "view") {
            views.push({
              view: v.view(),
              expected: model.filter((x): x is number => x !== undefined),
            });
          } else if (o.kind === "read" && views.length > 0) {
            const { view, expected } = views[o.at % views.length];
            assert.deepEqual(view.items(), expected);
          }
          assert.equal(v.size, model.length);
        }
        for (let i = 0; i < model.length; i += Math.max(1, Math.floor(model.length / 50))) {
          assert.equal(v.get(i), model[i]);
        }
        for (const { view, expected } of views) {
          assert.deepEqual(view.items(), expected);
          assert.ok(Object.isFrozen(view.items()));
          assert.equal(view.items(), view.items(), "materialized once");
        }
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("a view taken with no write since the last one is the same view", () => {
  const v = new PersistentVector<number>();
  v.push(1);
  const a = v.view();
  assert.equal(v.view(), a);
  v.push(2);
  assert.notEqual(v.view(), a);
  assert.deepEqual(a.items(), [1]);
  assert.deepEqual(v.view().items(), [1, 2]);
  // small views are ready at once; large ones wait to be read
  assert.deepEqual(v.view().ready(), [1, 2]);
  for (let i = 0; i < 100; i++) v.push(i);
  assert.equal(v.view().ready(), undefined);
  const big = v.view();
  big.items();
  assert.equal(big.ready(), big.items());
});
