/**
 * Work bounded by the input's real content, not by what it claims: the
 * whole-stream folds and converters read at most MAX_STREAM_ITEMS items
 * (a sparse array of length 2^32 − 1, or a proxy claiming it, is read that
 * far and reported), refuse a string whole instead of reading it character
 * by character, and `foldUIMessage` reads message metadata at most 32
 * records deep and 10,000 values (an endlessly deep proxy is refused) and a
 * persisted message of at most 100,000 parts. Judged by counting the
 * reads (proxy `get` traps) and by the bounded outcome, never by time.
 */
import assert from "node:assert/strict";
import { foldChatState, MAX_STREAM_ITEMS } from "../../mod.ts";
import { foldUIMessage, uiMessageChunksToV1, v1ToUIMessageChunks } from "../../ai_sdk.ts";
import { v1ToAgUiEvents } from "../../ag_ui.ts";

/** An array claiming 2^32 − 1 elements (all holes) that counts the elements read. */
function hugeArray(): { a: unknown[]; reads: { n: number } } {
  const reads = { n: 0 };
  const target: unknown[] = [];
  target.length = 2 ** 32 - 1;
  const a = new Proxy(target, {
    get(t, k, r) {
      if (typeof k === "string" && /^\d+$/.test(k)) {
        // past the bound: end the run (the code under test reports the throw)
        // so that reading too far fails the test instead of hanging it
        if (++reads.n > MAX_STREAM_ITEMS + 1) throw new Error("read past MAX_STREAM_ITEMS");
      }
      return Reflect.get(t, k, r);
    },
  });
  return { a, reads };
}

const ids = {
  conversationId: "c1",
  turnId: "t1",
  nextEventId: (() => {
    let n = 0;
    return () => `e${++n}`;
  })(),
};

/** The five whole-stream readers, each answering the index and code of its last report. */
const READERS: [string, (input: unknown) => { index: number; code: string } | undefined][] = [
  ["foldChatState", (x) => {
    const r = foldChatState(x as unknown[]).refusals.at(-1);
    return r && { index: r.index, code: r.error.code };
  }],
  ["v1ToUIMessageChunks", (x) => {
    const r = v1ToUIMessageChunks(x as unknown[]).refused.at(-1);
    return r && { index: r.index, code: r.error.code };
  }],
  ["v1ToAgUiEvents", (x) => {
    const r = v1ToAgUiEvents(x as unknown[]).refused.at(-1);
    return r && { index: r.index, code: r.error.code };
  }],
  ["foldUIMessage", (x) => {
    const r = foldUIMessage(x as unknown[]).issues.at(-1);
    return r && { index: r.index, code: r.code };
  }],
  ["uiMessageChunksToV1", (x) => {
    const r = uiMessageChunksToV1(x as unknown[], ids).issues.at(-1);
    return r && { index: r.index, code: r.code };
  }],
];

for (const [name, read] of READERS) {
  Deno.test(`${name}: a sparse array of length 2^32 − 1 is read MAX_STREAM_ITEMS far, then reported`, () => {
    const { a, reads } = hugeArray();
    const last = read(a);
    assert.ok(reads.n <= MAX_STREAM_ITEMS + 1, `${name} read ${reads.n} elements`);
    assert.ok(reads.n >= MAX_STREAM_ITEMS, `${name} read what it may`);
    assert.equal(last?.index, MAX_STREAM_ITEMS, JSON.stringify(last));
    assert.ok(last?.code === "invalid-envelope" || last?.code === "limit", last?.code);
  });
}

Deno.test("foldUIMessage / uiMessageChunksToV1 refuse a string whole (one issue), never one per character", () => {
  for (const s of ["x".repeat(100_000), new String("abc")]) {
    const f = foldUIMessage(s as unknown as unknown[]);
    assert.deepEqual(f.issues.map((i) => [i.index, i.code]), [[-1, "invalid-chunk"]]);
    assert.equal(f.count, 0);
    const c = uiMessageChunksToV1(s as unknown as unknown[], ids);
    assert.deepEqual(c.issues.map((i) => [i.index, i.code]), [[0, "invalid-chunk"]]);
    assert.deepEqual(c.envelopes, []);
  }
});

Deno.test("foldUIMessage: an endlessly deep messageMetadata proxy is refused after a bounded number of reads", () => {
  let gets = 0;
  const endless = (): object =>
    new Proxy({}, {
      ownKeys: () => ["a"],
      getOwnPropertyDescriptor: () => ({ value: undefined, enumerable: true, configurable: true }),
      get: () => {
        if (++gets > 1_000) throw new Error("read past the bound"); // fail, never hang
        return endless();
      },
    });
  const wide = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i]));
  for (const metadata of [endless(), wide]) {
    gets = 0;
    const r = foldUIMessage([
      { type: "start", messageId: "m1", messageMetadata: { ok: 1 } },
      { type: "message-metadata", messageMetadata: metadata },
    ]);
    assert.ok(gets <= 64, `${gets} reads`);
    assert.deepEqual(r.issues.map((i) => [i.index, i.code]), [[1, "invalid-chunk"]]);
    assert.deepEqual(r.message.metadata, { ok: 1 }, "the refused update changed nothing");
  }
  // at the bound: 32 levels merge
  let deep: Record<string, unknown> = { leaf: true };
  for (let i = 1; i < 32; i++) deep = { a: deep };
  assert.deepEqual(foldUIMessage([{ type: "message-metadata", messageMetadata: deep }]).issues, []);
});

Deno.test("foldUIMessage: a persisted message claiming 2^32 − 1 parts is ignored before any part is read", () => {
  const { a, reads } = hugeArray();
  const r = foldUIMessage([], { message: { id: "m1", role: "assistant", parts: a as never } });
  assert.equal(reads.n, 0);
  assert.deepEqual(r.issues.map((i) => [i.index, i.code]), [[-1, "invalid-chunk"]]);
});
