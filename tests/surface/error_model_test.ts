/**
 * The error model (CONTRIBUTING, "Error model"), pinned over the library
 * source: no built-in error is constructed in `src/` (a programmer's
 * mistake throws the area's exported typed class, an injected fault the
 * kit's own class) and no function throws inside its own `try` (an
 * exception is never control flow). The scan is tests/_helpers/throw_scan.ts;
 * the behavioural tests below pin the sites it used to report.
 *
 * @module
 */
import assert from "node:assert/strict";
import { scanTree } from "../_helpers/throw_scan.ts";
import { BlockArgumentError, TurnTextScannerStream } from "../../blocks.ts";
import {
  InteractionArgumentError,
  type InteractionRecordV1,
  MemoryInteractionStore,
} from "../../interactions.ts";
import { MemoryCancelDelivery, RecoveryArgumentError } from "../../recovery.ts";
import { toMessagingOutbound } from "../../message.ts";
import { MessageArgumentError } from "../../message.ts";
import { chatEnvelopeFrame } from "../../src/sse/envelope.ts";
import { ME, SCHEMA_1, setup } from "../interactions/_fixtures.ts";

const ROOT = new URL("../../", import.meta.url);

/**
 * Findings tolerated, as `file:line kind` with a one-line reason each.
 * Empty: every site was fixed.
 */
const ALLOWED: ReadonlyMap<string, string> = new Map();

Deno.test("error model: src/ constructs no built-in error and throws inside no try of its own", () => {
  const findings = scanTree(ROOT, "src/")
    .filter((f) => !ALLOWED.has(`${f.file}:${f.line} ${f.kind}`))
    .map((f) => `${f.file}:${f.line} ${f.kind}: ${f.text}`);
  assert.deepEqual(findings, []);
});

function assertCoded(
  e: unknown,
  cls: abstract new (...a: never[]) => Error & { code: string },
  code: string,
): void {
  assert.ok(e instanceof cls, `expected ${cls.name}, got ${String(e)}`);
  assert.equal((e as { code: string }).code, code);
  assert.equal((e as Error).name, cls.name);
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  assert.fail("expected a rejection");
}

const revoked = <T extends object>(target: T): T => {
  const { proxy, revoke } = Proxy.revocable(target, {});
  revoke();
  return proxy;
};

Deno.test("blocks: a non-string chunk errors TurnTextScannerStream with BlockArgumentError", async () => {
  const bytes = ReadableStream.from([new Uint8Array([104, 105])]) as unknown as ReadableStream<
    string
  >;
  const e = await rejection(Array.fromAsync(bytes.pipeThrough(new TurnTextScannerStream())));
  assertCoded(e, BlockArgumentError, "invalid-chunk");
  assert.ok(e instanceof TypeError, "still a TypeError subclass");
});

Deno.test("interactions: a callback's unstorable decision rejects with InteractionArgumentError; nothing is written", async () => {
  const { store, worker } = setup();
  const opened = await worker().open({
    id: "c",
    card: { prompt: "?" },
    authority: ME,
    schema: SCHEMA_1,
  });
  assert.ok(opened.ok);
  const req = {
    id: "c",
    caller: ME,
    action: "answer" as const,
    expectedRevision: 1,
    expectedSchema: SCHEMA_1,
  };
  const write = (next: (cur: InteractionRecordV1) => InteractionRecordV1, transition: unknown) =>
    store.transact(req, (cur) => ({
      kind: "write",
      next: next(cur),
      transition: transition as never,
      result: null,
    }));
  assertCoded(
    await rejection(write((cur) => ({ ...cur, revision: cur.revision + 2 }), null)),
    InteractionArgumentError,
    "invalid-next-record",
  );
  assertCoded(
    await rejection(
      write((cur) => ({ ...cur, revision: cur.revision + 1 }), { interactionId: "another" }),
    ),
    InteractionArgumentError,
    "foreign-transition",
  );
  const read = await store.read("c", ME);
  assert.ok(read.ok && read.record.revision === 1, "nothing was written");
  assert.equal(store.transitions("c").length, 0);
  assert.ok(store instanceof MemoryInteractionStore);
});

Deno.test("recovery: MemoryCancelDelivery.publish of an unreadable notice rejects with RecoveryArgumentError", async () => {
  const bus = new MemoryCancelDelivery();
  const seen: unknown[] = [];
  bus.subscribe((n) => seen.push(n));
  const notice = { turnId: "t1", revision: 2, status: "cancelled", reason: "" } as const;
  assertCoded(
    await rejection(bus.publish(revoked(notice))),
    RecoveryArgumentError,
    "invalid-notice",
  );
  await bus.publish(notice);
  assert.deepEqual(seen, [notice], "only the readable notice was delivered");
});

Deno.test("message: toMessagingOutbound still refuses unreadable parts with MessageArgumentError", () => {
  const m = (parts: unknown) =>
    ({
      id: "m",
      threadId: "t",
      authorId: "a",
      role: "assistant",
      createdAt: "2026-01-01T00:00:00.000Z",
      parts,
    }) as never;
  for (const parts of [5, [{ type: 5 }], [{ type: "text", text: 1 }], revoked([])]) {
    let thrown: unknown;
    try {
      toMessagingOutbound(m(parts), "+1");
    } catch (e) {
      thrown = e;
    }
    assertCoded(thrown, MessageArgumentError, "invalid-argument");
  }
  assert.deepEqual(
    toMessagingOutbound(
      m([{ type: "text", text: "a" }, { type: "card" }, { type: "text", text: "b" }]),
      "+1",
    ),
    { send: { handle: "+1", text: "a\n\nb" }, dropped: ["card"] },
  );
});

Deno.test("sse: chatEnvelopeFrame answers a refusal for an envelope that cannot be sent, never throws", () => {
  const env = {
    schemaVersion: 1,
    conversationId: "c1",
    turnId: "t1",
    eventId: "t1:1",
    seq: 1,
    event: { type: "delta", text: "Hi" },
  };
  const sent = chatEnvelopeFrame(env);
  assert.ok(sent.ok && sent.value.startsWith("id: t1:1\nevent: delta\ndata: {"));
  const bad = chatEnvelopeFrame({ ...env, seq: -1 });
  assert.ok(!bad.ok && bad.error.code === "invalid-frame");
  const notJson = chatEnvelopeFrame({
    ...env,
    event: { type: "tool_call", callId: "k", name: "n", input: { n: 1n } },
  });
  assert.ok(!notJson.ok && notJson.error.code === "invalid-data", JSON.stringify(notJson));
  assert.ok(!chatEnvelopeFrame(revoked({})).ok);
});
