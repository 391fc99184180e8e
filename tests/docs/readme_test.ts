/**
 * The README's quick starts (and `postgres/README.md`'s examples) run
 * verbatim: every ```ts block is written to a file of its own inside the
 * repository (so the workspace maps `@papercusp/chat-protocol…` to this tree
 * and `postgres`, `zod`, … to the locked npm packages), run with Deno in a
 * fresh temporary directory, and judged by its exit code and its output.
 * `deno task check` type-checks the same blocks (`deno check --doc-only`).
 * The PostgreSQL quick start runs against the test server (`DATABASE_URL`,
 * or the throwaway cluster `postgres/tests/_helpers/db.ts` starts).
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { databaseUrl, REPO_ROOT } from "../../postgres/tests/_helpers/db.ts";

interface Block {
  readonly file: string;
  readonly line: number;
  readonly section: string;
  readonly code: string;
}

/** Every ```ts block of a Markdown file, with the heading it sits under. */
export function tsBlocks(file: string): Block[] {
  const lines = Deno.readTextFileSync(join(REPO_ROOT, file)).split("\n");
  const blocks: Block[] = [];
  let section = "";
  for (let i = 0; i < lines.length; i++) {
    const heading = /^#{1,6}\s+(.*)$/.exec(lines[i]);
    if (heading) section = heading[1];
    if (lines[i] !== "```ts") continue;
    const start = i + 1;
    while (i + 1 < lines.length && lines[i + 1] !== "```") i++;
    blocks.push({ file, line: start, section, code: lines.slice(start, i + 1).join("\n") });
    i++;
  }
  return blocks;
}

async function runBlock(block: Block, env: Record<string, string> = {}): Promise<string> {
  const dir = join(REPO_ROOT, "test-artifacts", "readme");
  await Deno.mkdir(dir, { recursive: true });
  const name = `${block.file.replace(/\W/g, "_")}_${block.line}.ts`;
  const path = join(dir, name);
  await Deno.writeTextFile(path, block.code + "\n");
  const cwd = await Deno.makeTempDir({ prefix: "readme_" });
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", "--quiet", "--config", join(REPO_ROOT, "deno.json"), path],
      cwd,
      clearEnv: true,
      env: { RUST_BACKTRACE: "0", NO_COLOR: "1", PATH: Deno.env.get("PATH") ?? "", ...env },
      stdin: "null",
    }).output();
    const stdout = new TextDecoder().decode(out.stdout);
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, `${block.file}:${block.line} (${block.section}) failed:\n${stderr}`);
    return stdout;
  } finally {
    await Deno.remove(cwd, { recursive: true });
    await Deno.remove(path).catch(() => {});
  }
}

const readme = tsBlocks("README.md");
const quickStart = (title: string): Block => {
  const found = readme.filter((b) => b.section === `Quick start: ${title}`);
  assert.equal(found.length, 1, `one ts block under "Quick start: ${title}"`);
  return found[0];
};

Deno.test("README: every ts block is a quick start, and each is tested below", () => {
  assert.deepEqual(readme.map((b) => b.section), [
    "Quick start: exactly-once tool calls on Postgres",
    "Quick start: render cards and blocks in a browser",
    "Quick start: serve useChat",
  ]);
});

Deno.test("README quick start: exactly-once tool calls on Postgres (the real server)", async () => {
  const out = await runBlock(quickStart("exactly-once tool calls on Postgres"), {
    DATABASE_URL: await databaseUrl(),
  });
  assert.deepEqual(out.trim().split("\n"), [
    "dispatch-error: reconciled",
    '{"ok":true,"value":{"refundId":"rf-1"}} true 1',
  ]);
});

Deno.test("README quick start: render cards and blocks (no partial tag is ever shown)", async () => {
  const out = await runBlock(quickStart("render cards and blocks in a browser"));
  const frames = out.trimEnd().split("\n");
  assert.deepEqual(frames, [
    "The plan: ",
    "The plan: <section><p>Refund</p></section>",
    "The plan: <section><p>Refund</p></section><form><p>Go?</p><button>Yes</button><button>No</button></form>",
  ]);
  for (const html of frames) assert.doesNotMatch(html, /&#60;|<rep|report>/);
});

Deno.test("README quick start: serve useChat (wake follows the turn to finish)", async () => {
  const out = await runBlock(quickStart("serve useChat"));
  assert.equal(
    out.trim(),
    "start start-step text-start text-delta text-delta text-end finish-step finish [DONE]",
  );
});

Deno.test("postgres/README.md: every ts block runs (PGlite, and the server for Setup)", async () => {
  const blocks = tsBlocks("postgres/README.md");
  assert.ok(blocks.length >= 5, `${blocks.length} blocks`);
  const env = { DATABASE_URL: await databaseUrl() };
  const printed = new Map<string, string[]>();
  for (const block of blocks) {
    const out = (await runBlock(block, env)).trim();
    if (out !== "") printed.set(block.section, out.split("\n"));
  }
  // The blocks that print say what they promise: a turn's effect ran, its frame was stored.
  assert.deepEqual(Object.fromEntries(printed), {
    "The stores": ["completed", "true"],
    "`PostgresReplayLog`: the replay window": ["1"],
  });
});

Deno.test("npm READMEs (docs/npm/*.md): every ts block runs and prints what it says", async () => {
  const env = { DATABASE_URL: await databaseUrl() };
  const printed: string[] = [];
  for (const file of ["docs/npm/chat-protocol.md", "docs/npm/chat-protocol-postgres.md"]) {
    for (const block of tsBlocks(file)) printed.push((await runBlock(block, env)).trim());
  }
  assert.deepEqual(printed, ["completed Hi", "completed"]);
});
