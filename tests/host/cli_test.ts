/**
 * The host's command line (`examples/chat_host/main.ts`) on a port that is
 * already in use: one line on stderr, exit code 1, and the data directory
 * left without a lock file (the store was never opened). And the page's
 * demo identity cookie, which outlives a browser restart, and the
 * runtime's opt-in to request signals that abort only on a disconnect.
 */
import assert from "node:assert/strict";
import { startHost, templateCopy } from "./_host_process.ts";
import { api, readEvents, startTurn, until } from "./_client.ts";

const MAIN = new URL("../../examples/chat_host/main.ts", import.meta.url).pathname;

Deno.test({
  name: "a busy port: one-line error, exit 1, no lock file left",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    // Any listener makes the port busy: a plain socket, not a second host (one
    // host start less; under load a host start takes 15 s).
    const busy = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (busy.addr as Deno.NetAddr).port;
    const dataDir = await templateCopy();
    try {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", MAIN, "--port", String(port), "--data", dataDir],
        stdout: "piped",
        stderr: "piped",
        stdin: "null",
        env: { RUST_BACKTRACE: "0", NO_COLOR: "1", DATABASE_URL: "" },
      }).output();
      const stderr = new TextDecoder().decode(out.stderr).trim().split("\n")
        .filter((l) => !l.startsWith("Warning")); // Deno's own notices, if any
      assert.equal(out.code, 1, stderr.join("\n"));
      assert.deepEqual(stderr, [
        `chat host: cannot listen on 127.0.0.1:${port}: the port is in use`,
      ]);
      const left = [...Deno.readDirSync(dataDir)].map((e) => e.name);
      assert.ok(!left.includes("papercusp.lock"), `lock file left: ${left.join(", ")}`);
    } finally {
      busy.close();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test({
  name: "the page's demo uid cookie lasts 30 days (Max-Age), HttpOnly, SameSite=Strict",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const host = await startHost({});
    try {
      const res = await fetch(host.url);
      await res.body?.cancel();
      const cookie = res.headers.get("set-cookie") ?? "";
      assert.match(cookie, /^uid=u-[0-9a-f-]{36}; /);
      const attrs = cookie.split("; ").slice(1);
      assert.deepEqual(attrs, ["Path=/", "Max-Age=2592000", "HttpOnly", "SameSite=Strict"]);
    } finally {
      await host.stop();
    }
  },
});

Deno.test({
  name:
    "the host runs without Deno's legacy request.signal abort (no deprecation warning); a disconnected SSE client still ends its stream",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const host = await startHost({ deltaMs: 1, effectMs: 20, args: ["--delta-chars", "40"] });
    try {
      const base = host.url;
      const { turnId } = await startTurn(base, "my lamp", "alice");
      // a reader that disconnects after 3 events, then whole successful responses
      const part = await readEvents(base, turnId, { maxEvents: 3 });
      assert.equal(part.envelopes.length, 3);
      assert.equal(part.ended, false);
      await until(
        async () => (await api(base, `/api/turns/${turnId}`)).body?.state?.openCards?.length === 1,
        "the card",
      );
      const answered = await api(
        base,
        `/api/turns/${turnId}/cards/${turnId}:approve-refund/answer`,
        {
          json: { answer: { action: "submit", value: { confirmed: true } } },
        },
      );
      assert.equal(answered.status, 200);
      const whole = await readEvents(base, turnId, { lastEventId: part.lastEventId! });
      assert.equal(whole.ended, true);
      assert.equal(whole.envelopes[0].seq, 4);
      const warned = host.stderrLines.filter((l) => /legacy|request\.signal/.test(l));
      assert.deepEqual(warned, []);
    } finally {
      await host.stop();
    }
  },
});
