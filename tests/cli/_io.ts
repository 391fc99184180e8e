/**
 * An in-memory {@link CliIO} for running `inspect` in process: stdin holds
 * the capture, files are never found, output is collected.
 *
 * @module
 */
import type { CliIO } from "../../src/cli/run.ts";

/** A CLI I/O whose stdin is `stdin` (text is UTF-8 encoded); `out()` / `err()` give what was written. */
export function memoryIO(stdin: string | Uint8Array): {
  io: CliIO;
  out: () => string;
  err: () => string;
} {
  const out: string[] = [];
  const err: string[] = [];
  const bytes = typeof stdin === "string" ? new TextEncoder().encode(stdin) : stdin;
  const io: CliIO = {
    readFile: () => Promise.resolve({ ok: false, code: "unreadable", message: "no files here" }),
    readStdin: () => Promise.resolve({ ok: true, bytes }),
    write: (s) => void out.push(s),
    error: (s) => void err.push(s),
    color: false,
  };
  return { io, out: () => out.join(""), err: () => err.join("") };
}
