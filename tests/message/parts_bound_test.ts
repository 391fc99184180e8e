/**
 * The readers of untrusted messages read `parts` once and bound it:
 * `parseChatMessage` / `parseInboundChatMessage` snapshot the array (its
 * `length` read once: no fabricated `null` part), refuse more than
 * `MAX_MESSAGE_PARTS` parts (`too-many-parts`) before reading any, and stop
 * checking at the 20th issue; `readHitlAnswers` has the same bound. The
 * v1 parser snapshots `blocks` the same way (`foldChatState` never yields
 * a state its own schema refuses). Judged by counting the elements read,
 * never by time. The property prints its seed; FC_SEED replays one.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  chatMessage,
  MAX_HITL_ANSWER_PARTS,
  MAX_MESSAGE_PARTS,
  parseChatMessage,
  parseInboundChatMessage,
  readHitlAnswers,
} from "../../message.ts";
import { ChatStateV1Schema } from "../../schemas.ts";
import { foldChatState } from "../../mod.ts";

function seedOf(): number {
  const s = Number(Deno.env.get("FC_SEED") ?? NaN);
  const seed = Number.isSafeInteger(s) ? s : Math.floor(Math.random() * 2 ** 31);
  console.log("seed", seed);
  return seed;
}

/** `items` behind a proxy whose `length` answers `lengths[k]` on its k-th read (then the last). */
function fickleArray(lengths: readonly number[], items: unknown[] = []): unknown[] {
  let reads = 0;
  return new Proxy(items, {
    get(t, k, r) {
      if (k === "length") return lengths[Math.min(reads++, lengths.length - 1)];
      return Reflect.get(t, k, r);
    },
  });
}

/** An array claiming `length` elements that counts the elements read (`reads.n`). */
function countingArray(
  length: number,
  element: () => unknown,
): { a: unknown[]; reads: { n: number } } {
  const reads = { n: 0 };
  const a = new Proxy([] as unknown[], {
    get(t, k, r) {
      if (k === "length") return length;
      if (typeof k === "string" && /^\d+$/.test(k)) {
        reads.n++;
        return element();
      }
      return Reflect.get(t, k, r);
    },
  });
  return { a, reads };
}

const message = (parts: unknown) => ({
  id: "m1",
  threadId: "th1",
  authorId: "u1",
  role: "user",
  createdAt: "2026-01-01T00:00:00Z",
  parts,
});

const PARSERS = [
  ["parseChatMessage", parseChatMessage],
  ["parseInboundChatMessage", parseInboundChatMessage],
] as const;

Deno.test("a parts array whose length answers 1, then 0, is never answered ok with a null part", () => {
  for (const [name, parse] of PARSERS) {
    for (const lengths of [[1, 0], [2, 0], [3, 1]]) {
      const r = parse(message(fickleArray(lengths)));
      if (r.ok) assert.ok(chatMessage.safeParse(r.value).success, `${name} ${lengths}`);
      assert.equal(r.ok, false, `${name} ${lengths}: the holes were never parts`);
    }
  }
});

Deno.test("property: whatever parts' length answers, an ok message passes its own schema", () => {
  const part = fc.constantFrom<unknown>(
    { type: "text", text: "hi" },
    { type: "step-start" },
    { type: "x" },
  );
  fc.assert(
    fc.property(
      fc.array(fc.nat({ max: 4 }), { minLength: 1, maxLength: 4 }),
      fc.array(part, { maxLength: 4 }),
      (lengths, items) => {
        for (const [name, parse] of PARSERS) {
          const r = parse(message(fickleArray(lengths, [...items])));
          if (r.ok) {
            assert.ok(chatMessage.safeParse(r.value).success, name);
            assert.ok(r.value.parts.every((p) => p !== null && p !== undefined), name);
          }
        }
      },
    ),
    { numRuns: 2_000, seed: seedOf() },
  );
});

Deno.test("more than MAX_MESSAGE_PARTS parts: too-many-parts, before any part is read", () => {
  assert.equal(MAX_MESSAGE_PARTS, 10_000);
  assert.equal(MAX_HITL_ANSWER_PARTS, MAX_MESSAGE_PARTS, "one limit across the readers");
  for (const [name, parse] of PARSERS) {
    for (const n of [MAX_MESSAGE_PARTS + 1, 524_288, 2 ** 32 - 1]) {
      const { a, reads } = countingArray(n, () => ({ type: "x" }));
      const r = parse(message(a));
      assert.ok(!r.ok, name);
      assert.equal(r.error.code, "too-many-parts", `${name} ${n}`);
      assert.equal(reads.n, 0, `${name} ${n}: no part read`);
      const h = readHitlAnswers(message(a));
      assert.ok(!h.ok && h.error.code === "too-many-parts");
    }
  }
  // a real 1 MiB body of 524 k invalid parts
  const body = JSON.parse(JSON.stringify(message(Array.from({ length: 524_288 }, () => 0))));
  for (const [, parse] of PARSERS) {
    const r = parse(body);
    assert.ok(!r.ok && r.error.code === "too-many-parts");
  }
});

Deno.test("at the bound: valid parts pass; invalid ones stop being read at the 20th issue", () => {
  const valid = Array.from({ length: MAX_MESSAGE_PARTS }, () => ({ type: "text", text: "a" }));
  for (const [name, parse] of PARSERS) {
    const r = parse(message(valid));
    assert.ok(r.ok, name);
    assert.equal(r.value.parts.length, MAX_MESSAGE_PARTS);
    const { a, reads } = countingArray(MAX_MESSAGE_PARTS, () => ({ type: "x" }));
    const bad = parse(message(a));
    assert.ok(!bad.ok && bad.error.code === "invalid-message", name);
    assert.equal(bad.error.issues.length, 20);
    assert.equal(reads.n, 20, `${name}: one part read per issue, then stop`);
  }
});

Deno.test("foldChatState: blocks whose length answers 2, then 0, are refused, never [null, null]", () => {
  const base = { schemaVersion: 1, conversationId: "c1", turnId: "t1" };
  for (const lengths of [[2, 0], [1, 0], [0, 2]]) {
    const r = foldChatState([
      {
        ...base,
        eventId: "e1",
        seq: 1,
        event: { type: "tool_call", callId: "k", name: "n", input: {} },
      },
      {
        ...base,
        eventId: "e2",
        seq: 2,
        event: {
          type: "tool_result",
          callId: "k",
          name: "n",
          ok: true,
          blocks: fickleArray(lengths),
        },
      },
    ]);
    const parsed = ChatStateV1Schema.safeParse(r.state);
    assert.ok(parsed.success, `${lengths}: ${JSON.stringify(r.state?.tools)}`);
  }
});
