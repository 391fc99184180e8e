/**
 * `inspect` for Node: the npm package's `bin` (`chat-protocol-inspect`).
 * Same command as `deno task start` (see `run.ts`); only the Node I/O lives
 * here.
 *
 * @module
 */
import { open } from "node:fs/promises";
import process from "node:process";
import { type CliIO, readBounded, runCli } from "./run.ts";
import { escapeText } from "./escape.ts";
import { describeThrown } from "../_internal/describe.ts";

function message(e: unknown): string {
  const code = (e as { code?: unknown })?.code;
  if (code === "ENOENT") return "no such file";
  return e instanceof Error ? e.message : String(e);
}

/** The Node implementation of {@link CliIO}. */
export const nodeIO: CliIO = {
  async readFile(path, max) {
    let handle;
    try {
      handle = await open(path, "r");
    } catch (e) {
      return { ok: false, code: "unreadable", message: `cannot read ${path}: ${message(e)}` };
    }
    try {
      const info = await handle.stat();
      if (info.isDirectory()) {
        return { ok: false, code: "unreadable", message: `${path} is a directory, not a capture` };
      }
      // Pipes (`inspect <(curl …)`) have no size: the bounded read below refuses them past `max`.
      if (info.isFile() && info.size > max) {
        return {
          ok: false,
          code: "too-large",
          message: `${path} is ${info.size} bytes, over the ${max}-byte bound`,
        };
      }
      return await readBounded(handle.createReadStream(), max, path);
    } catch (e) {
      return { ok: false, code: "unreadable", message: `cannot read ${path}: ${message(e)}` };
    } finally {
      await handle.close().catch(() => {});
    }
  },
  readStdin: (max) => readBounded(process.stdin, max, "stdin"),
  write: (text) => void process.stdout.write(text),
  error: (text) => void process.stderr.write(text),
  color: process.stdout.isTTY === true && process.env.NO_COLOR === undefined,
};

// `chat-protocol-inspect … | head`: a reader that goes away is not a failure; drop the rest
// of the output quietly (the exit code stays the report's).
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (e: { code?: unknown }) => {
    if (e?.code !== "EPIPE") throw e;
  });
}

runCli(process.argv.slice(2), nodeIO).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`inspect: ${escapeText(describeThrown(e))}\n`);
    process.exitCode = 2;
  },
);
