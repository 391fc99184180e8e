/**
 * `inspect` for Deno: `deno task start [FILE|-] [--json]` (see `run.ts` for
 * the command itself). Only the Deno I/O lives here.
 *
 * @module
 */
import { type CliIO, readBounded, runCli } from "./run.ts";
import { escapeText } from "./escape.ts";
import { describeThrown } from "../_internal/describe.ts";

function message(e: unknown): string {
  if (e instanceof Deno.errors.NotFound) return "no such file";
  return e instanceof Error ? e.message : String(e);
}

const encoder = new TextEncoder();

/** Streams whose reader went away (`inspect … | head`): further writes are dropped. */
const closed = new WeakSet<object>();

function writeAllSync(target: { writeSync(p: Uint8Array): number }, text: string): void {
  if (closed.has(target)) return;
  const bytes = encoder.encode(text);
  let at = 0;
  try {
    while (at < bytes.byteLength) at += target.writeSync(bytes.subarray(at));
  } catch (e) {
    // A closed pipe is the reader's choice, not a failure: stop writing, keep the exit code.
    if (!(e instanceof Deno.errors.BrokenPipe)) throw e;
    closed.add(target);
  }
}

/** The Deno implementation of {@link CliIO}. */
export const denoIO: CliIO = {
  async readFile(path, max) {
    let file: Deno.FsFile;
    try {
      file = await Deno.open(path, { read: true });
    } catch (e) {
      return { ok: false, code: "unreadable", message: `cannot read ${path}: ${message(e)}` };
    }
    try {
      const info = await file.stat();
      if (info.isDirectory) {
        file.close();
        return { ok: false, code: "unreadable", message: `${path} is a directory, not a capture` };
      }
      // Pipes (`inspect <(curl …)`) have no size: the bounded read below refuses them past `max`.
      if (info.isFile && info.size > max) {
        file.close();
        return {
          ok: false,
          code: "too-large",
          message: `${path} is ${info.size} bytes, over the ${max}-byte bound`,
        };
      }
      return await readBounded(file.readable, max, path);
    } catch (e) {
      return { ok: false, code: "unreadable", message: `cannot read ${path}: ${message(e)}` };
    }
  },
  readStdin: (max) => readBounded(Deno.stdin.readable, max, "stdin"),
  write: (text) => writeAllSync(Deno.stdout, text),
  error: (text) => writeAllSync(Deno.stderr, text),
  get color() {
    try {
      return Deno.stdout.isTerminal() && Deno.env.get("NO_COLOR") === undefined;
    } catch {
      return false;
    }
  },
};

if (import.meta.main) {
  let code: number;
  try {
    code = await runCli(Deno.args, denoIO);
  } catch (e) {
    // Never an uncaught exception: Deno would exit 1, which means "violations".
    writeAllSync(Deno.stderr, `inspect: ${escapeText(describeThrown(e))}\n`);
    code = 2;
  }
  Deno.exit(code);
}
