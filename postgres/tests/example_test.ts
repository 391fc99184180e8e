/**
 * `postgres/examples/chat_host.ts` runs from a fresh checkout: on PGlite in
 * memory (zero setup), on a PGlite directory, and on the real server
 * (`DATABASE_URL`; twice, as a rerun on one database works in a fresh
 * conversation), printing what its README section promises.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { databaseUrl, REPO_ROOT } from "./_helpers/db.ts";

const EXAMPLE = new URL("../examples/chat_host.ts", import.meta.url).pathname;

async function runExample(args: string[], env: Record<string, string>): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--quiet", EXAMPLE, ...args],
    cwd: REPO_ROOT,
    clearEnv: true,
    env: { RUST_BACKTRACE: "0", NO_COLOR: "1", PATH: Deno.env.get("PATH") ?? "", ...env },
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, text + new TextDecoder().decode(out.stderr));
  return text;
}

function assertStory(text: string, database: string): void {
  assert.deepEqual(text.trim().split("\n").map((l) => l.replace(/ \S+@2$/, " <id>@2")), [
    `database: ${database}`,
    "migrate: schema version 3",
    'effect send-email: {"ok":true,"value":{"messageId":"msg-1"}}',
    "effect send-email again: reused, e-mails sent: 1",
    "replay after seq 1: 2",
    "card: committed; second answer: duplicate",
    "outbox: answered <id>@2",
    "cancel: turn cancelled; charge-card: turn-not-running",
    "done",
  ]);
}

Deno.test("example chat_host.ts: PGlite in memory, zero setup", async () => {
  assertStory(await runExample([], {}), "PGlite in memory");
});

Deno.test("example chat_host.ts: PGlite on a directory, run twice", async () => {
  const base = await Deno.makeTempDir({ prefix: "example_" });
  try {
    const dir = join(base, "chat");
    for (let i = 0; i < 2; i++) {
      assertStory(await runExample(["--dir", dir], {}), `PGlite in ${dir}`);
    }
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("example chat_host.ts: the real server (DATABASE_URL), run twice on one database", async () => {
  const env = { DATABASE_URL: await databaseUrl() };
  for (let i = 0; i < 2; i++) assertStory(await runExample([], env), "server");
});
