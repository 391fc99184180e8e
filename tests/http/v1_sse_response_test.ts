/**
 * `v1SseResponse` over real HTTP (`Deno.serve` on 127.0.0.1, `fetch`):
 * headers, the exact bytes, ids as cursors and `retry:`, resumption after
 * `Last-Event-ID` from a replay window (every refusal a 4xx with its typed
 * code), the live feed joined to the replay without a gap or a duplicate,
 * `wake`, heartbeats, and abort (no timer or subscription left behind:
 * Deno's test sanitizers check every test).
 */
import assert from "node:assert/strict";
import { MemoryReplayWindow } from "../../recovery.ts";
import { type ChatEventEnvelope, parseChatEnvelopeJson } from "../../mod.ts";
import { ChatEnvelopeSseStream, SSE_HEADERS, turnSeqEventId, v1SseResponse } from "../../http.ts";
import { assertTextGolden, env, LiveFeed, readSse, serve, turn } from "./_server.ts";

const read = (p: string) =>
  JSON.parse(Deno.readTextFileSync(new URL(`../../fixtures/${p}`, import.meta.url)));

function windowOf(envs: readonly ChatEventEnvelope[]): MemoryReplayWindow {
  const w = new MemoryReplayWindow();
  for (const e of envs) assert.ok(w.append(e));
  return w;
}

/** The envelopes an SSE body carried (each `data:` parsed as v1). */
function envelopesOf(events: { data: string }[]): ChatEventEnvelope[] {
  return events.map((e) => {
    const r = parseChatEnvelopeJson(e.data);
    assert.ok(r.ok, e.data);
    return r.value;
  });
}

Deno.test("headers, retry, ids = eventIds, golden bytes; what the reference SSE parser reads back is the window", async () => {
  const envs = read("message/v1_turn_full.json") as ChatEventEnvelope[];
  const window = windowOf(envs);
  const server = serve((req) =>
    v1SseResponse(req, { conversationId: "conv-1", turnId: "turn-full", window }, {
      heartbeatMs: 0,
    })
  );
  try {
    const res = await fetch(server.url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/event-stream");
    assert.equal(res.headers.get("cache-control"), "no-cache");
    assert.equal(res.headers.get("x-accel-buffering"), "no");
    assert.equal(res.headers.get("connection"), "keep-alive"); // HTTP/1.1 here
    const { events, retries, text } = await readSse(res.body);
    await assertTextGolden("http/v1_turn_full.sse", text);
    assert.deepEqual(retries, [1000]);
    assert.deepEqual(events.map((e) => e.id), envs.map((e) => e.eventId));
    assert.deepEqual(events.map((e) => e.event), envs.map((e) => e.event.type));
    assert.deepEqual(envelopesOf(events), JSON.parse(JSON.stringify(envs)));
  } finally {
    await server.close();
  }
});

Deno.test("Last-Event-ID: the frames after it, exactly; from the header, the query parameter, or any id scheme", async () => {
  const envs = turn(8);
  const window = windowOf(envs);
  const other = new MemoryReplayWindow();
  const custom = turn(5).map((e) => ({ ...e, eventId: `ev-${e.seq}` }));
  for (const e of custom) other.append(e);
  const server = serve((req) => {
    const url = new URL(req.url);
    return url.pathname === "/custom"
      ? v1SseResponse(req, { conversationId: "c1", turnId: "t1", window: other }, {
        heartbeatMs: 0,
      })
      : v1SseResponse(req, { conversationId: "c1", turnId: "t1", window }, { heartbeatMs: 0 });
  });
  try {
    for (let k = 0; k <= 8; k++) {
      const headers: Record<string, string> = k === 0
        ? {}
        : { "last-event-id": turnSeqEventId("t1", k) };
      const { events } = await readSse((await fetch(server.url, { headers })).body);
      assert.deepEqual(events.map((e) => e.id), envs.slice(k).map((e) => e.eventId), `after ${k}`);
    }
    const q = await readSse((await fetch(`${server.url}/?lastEventId=t1:6`)).body);
    assert.deepEqual(q.events.map((e) => e.id), ["t1:7", "t1:8"]);
    // the header wins over the query parameter
    const both = await readSse(
      (await fetch(`${server.url}/?lastEventId=t1:2`, { headers: { "last-event-id": "t1:7" } }))
        .body,
    );
    assert.deepEqual(both.events.map((e) => e.id), ["t1:8"]);
    // another id scheme: looked up among the retained frames
    const c = await readSse(
      (await fetch(`${server.url}/custom`, { headers: { "last-event-id": "ev-3" } })).body,
    );
    assert.deepEqual(c.events.map((e) => e.id), ["ev-4", "ev-5"]);
  } finally {
    await server.close();
  }
});

Deno.test("bad Last-Event-ID values: a clear 4xx with the typed refusal code, never a crash", async () => {
  const window = windowOf(turn(20));
  window.trimBefore("t1", 6); // retained: 6..20
  const server = serve((req) => v1SseResponse(req, { conversationId: "c1", turnId: "t1", window }));
  try {
    const cases: [string, number, string][] = [
      ["t0:3", 400, "foreign-cursor"],
      ["t1:2", 410, "stale-cursor"],
      ["t1:21", 409, "cursor-beyond-latest"],
      ["t1:999999999999", 409, "cursor-beyond-latest"],
      ["garbage", 404, "unknown-cursor"],
      ["t1:-1", 400, "invalid-cursor"],
      ["t1:0", 400, "invalid-cursor"],
      ["t1:1.5", 400, "invalid-cursor"],
      ["t1:007", 400, "invalid-cursor"],
      ["t1:abc", 404, "unknown-cursor"],
      ["x".repeat(2000), 431, "cursor-too-long"],
    ];
    for (const [id, status, code] of cases) {
      const res = await fetch(server.url, { headers: { "last-event-id": id } });
      assert.equal(res.status, status, id.slice(0, 20));
      assert.equal(res.headers.get("content-type"), "application/json");
      const body = await res.json();
      assert.equal(body.error.code, code, id.slice(0, 20));
      assert.equal(typeof body.error.message, "string");
    }
    // 32 KiB over HTTP reaches the handler (Deno's server itself answers a plain 400 to
    // headers of about 64 KiB and more); 1 MiB is refused the same way by the handler
    const big = await fetch(server.url, { headers: { "last-event-id": "z".repeat(1 << 15) } });
    assert.equal(big.status, 431);
    assert.equal((await big.json()).error.code, "cursor-too-long");
    const huge = await v1SseResponse(
      new Request(server.url, { headers: { "last-event-id": "z".repeat(1 << 20) } }),
      { conversationId: "c1", turnId: "t1", window },
    );
    assert.equal(huge.status, 431);
    assert.equal((await huge.json()).error.code, "cursor-too-long");
  } finally {
    await server.close();
  }
});

Deno.test("live feed: subscribed before the replay; overlap skipped, a hole filled from the window, in order, once", async () => {
  const envs = turn(10);
  const window = windowOf(envs.slice(0, 4));
  const live = new LiveFeed();
  const res = await v1SseResponse(new Request("http://x/"), {
    conversationId: "c1",
    turnId: "t1",
    window,
    live: live.feed,
  }, { heartbeatMs: 0 });
  assert.equal(live.subscriptions, 1);
  const reading = readSse(res.body);
  // the feed repeats what was replayed, then jumps ahead: 7 before 5 and 6 reached it
  live.push(envs[2], envs[3]);
  for (const e of envs.slice(4, 6)) window.append(e); // 5, 6 only in the window
  live.push(envs[6]);
  window.append(envs[6]);
  live.push(
    envs[7],
    envs[7],
    { not: "an envelope" },
    env(9, { type: "delta", text: "x" }, "other"),
  );
  live.push(envs[8], envs[9]); // 10 is `done`: the stream ends
  const { events } = await reading;
  assert.deepEqual(events.map((e) => e.id), envs.map((e) => e.eventId));
  assert.equal(live.stopped, true, "the feed was told to stop");
});

Deno.test("wake: the window is read again each time wake resolves; the stream ends with the turn", async () => {
  const envs = turn(6);
  const window = windowOf(envs.slice(0, 2));
  let wakeUp: (() => void) | null = null;
  const woken: number[] = [];
  const res = await v1SseResponse(new Request("http://x/"), {
    conversationId: "c1",
    turnId: "t1",
    window,
    wake: () => new Promise((r) => wakeUp = () => r(woken.push(1))),
  }, { heartbeatMs: 0 });
  const reading = readSse(res.body);
  const step = async (from: number, to: number) => {
    while (wakeUp === null) await new Promise((r) => setTimeout(r, 1));
    for (const e of envs.slice(from, to)) window.append(e);
    const w = wakeUp;
    wakeUp = null;
    w();
  };
  await step(2, 4);
  await step(4, 4); // a wake with nothing new
  await step(4, 6);
  const { events } = await reading;
  assert.deepEqual(events.map((e) => e.id), envs.map((e) => e.eventId));
  assert.equal(woken.length, 3);
});

Deno.test("heartbeats are comments every heartbeatMs while idle; abort closes the stream and stops them", async () => {
  const live = new LiveFeed();
  const ac = new AbortController();
  const res = await v1SseResponse(
    new Request("http://x/", { signal: ac.signal }),
    { conversationId: "c1", turnId: "t1", live: live.feed },
    { heartbeatMs: 5, retryMs: null },
  );
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes(": heartbeat\n\n: heartbeat\n\n")) {
    const r = await reader.read();
    assert.ok(!r.done);
    text += r.value;
  }
  assert.ok(!text.includes("retry:"), "retryMs: null sends none");
  live.push(env(1, { type: "delta", text: "hi" }));
  while (!text.includes("id: t1:1")) text += (await reader.read()).value;
  ac.abort();
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
  }
  assert.equal(live.stopped, true);
  // the sanitizers of this test fail if a heartbeat interval were still running
});

Deno.test("a client that disconnects over real HTTP ends the server's stream (feed stopped, no timer left)", async () => {
  const live = new LiveFeed();
  let served: Promise<void> | null = null;
  const server = serve((req) => {
    const p = v1SseResponse(req, { conversationId: "c1", turnId: "t1", live: live.feed }, {
      heartbeatMs: 10,
    });
    served = p.then(() => {});
    return p;
  });
  try {
    const ac = new AbortController();
    const res = await fetch(server.url, { signal: ac.signal });
    const reader = res.body!.getReader();
    await reader.read();
    ac.abort();
    await reader.cancel().catch(() => {});
    await served;
    // A give-up bound only (30 s): the loop ends as soon as the feed stopped.
    for (let i = 0; i < 6_000 && !live.stopped; i++) await new Promise((r) => setTimeout(r, 5));
    assert.equal(live.stopped, true);
  } finally {
    await server.close();
  }
});

Deno.test("many readers: 40 clients, each resuming at random points, get every event exactly once", async () => {
  const envs = turn(60);
  const window = windowOf(envs);
  const server = serve((req) =>
    v1SseResponse(req, { conversationId: "c1", turnId: "t1", window }, { heartbeatMs: 0 })
  );
  try {
    let seed = 7;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    await Promise.all(Array.from({ length: 40 }, async () => {
      const got: string[] = [];
      let last: string | null = null;
      for (let hop = 0; hop < 5; hop++) {
        const res = await fetch(server.url, {
          headers: last === null ? {} : { "last-event-id": last },
        });
        const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
        // read a random number of bytes' worth of frames, then drop the connection
        const stopAfter = hop === 4 ? Infinity : rnd(20);
        let buf = "";
        let frames = 0;
        for (;;) {
          const r = await reader.read();
          if (r.done) break;
          buf += r.value;
          let i;
          while ((i = buf.indexOf("\n\n")) >= 0) {
            const block = buf.slice(0, i);
            buf = buf.slice(i + 2);
            const id = /^id: (.*)$/m.exec(block)?.[1];
            if (id !== undefined) {
              got.push(id);
              last = id;
              frames++;
            }
          }
          if (frames >= stopAfter) break;
        }
        await reader.cancel().catch(() => {});
        if (last === "t1:60") break;
      }
      assert.deepEqual(got, envs.map((e) => e.eventId));
    }));
  } finally {
    await server.close();
  }
});

Deno.test("refusals before streaming: a source without window or feed, an unreadable one, a failing window", async () => {
  const bad = await v1SseResponse(new Request("http://x/"), { conversationId: "c1", turnId: "t1" });
  assert.equal(bad.status, 500);
  assert.equal((await bad.json()).error.code, "invalid-request");
  const failing = await v1SseResponse(new Request("http://x/"), {
    conversationId: "c1",
    turnId: "t1",
    window: {
      bounds: () => {
        throw new Error("db down");
      },
      readAfter: () => [],
    },
  });
  assert.equal(failing.status, 503);
  assert.equal((await failing.json()).error.code, "replay-unavailable");
});

Deno.test("ChatEnvelopeSseStream: envelopes → the same frames; a bad one is skipped and reported", async () => {
  const envs = turn(3);
  const problems: string[] = [];
  const body = ReadableStream.from<unknown>([envs[0], { junk: true }, envs[1], envs[2]])
    .pipeThrough(
      new ChatEnvelopeSseStream({ retryMs: 500, onProblem: (p) => problems.push(p.code) }),
    );
  const { events, retries } = await readSse(body);
  assert.deepEqual(retries, [500]);
  assert.deepEqual(events.map((e) => e.id), ["t1:1", "t1:2", "t1:3"]);
  assert.deepEqual(problems, ["invalid-frame"]);
  assert.equal(SSE_HEADERS["content-type"], "text/event-stream");
});
