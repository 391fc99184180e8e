/**
 * The `inspect` command line, independent of the runtime: argument parsing,
 * help, dispatch to `inspect agents`, reading through an injected
 * {@link CliIO}, and printing. `main.ts` (Deno) and `bin.ts` (Node, the npm
 * `bin`) only supply the I/O.
 *
 * @module
 */
import {
  INSPECT_MAX_BYTES,
  inspectBytes,
  type InspectOptions,
  unreadableReport,
} from "./inspect.ts";
import { type InspectReport, usageErrorReport } from "./report.ts";
import { renderReport } from "./render.ts";
import { escapeText } from "./escape.ts";
import { stringifyJson } from "./json_text.ts";
import { describeThrown } from "../_internal/describe.ts";
import { type AgentsCommandIO, runAgentsCommand } from "./agents_command.ts";
import { BUNDLED_CAPTURE, BUNDLED_CAPTURE_NAME } from "./bundled_capture.ts";

/** What a file read returns: the bytes, or why there are none. */
export type ReadOutcome =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; code: "unreadable" | "too-large"; message: string };

/** The outside world, as the CLI needs it. */
export interface CliIO {
  /** Read a whole file, refusing more than `maxBytes` bytes (`too-large`) without reading them all. */
  readFile(path: string, maxBytes: number): Promise<ReadOutcome>;
  /** Read all of stdin, refusing more than `maxBytes` bytes. */
  readStdin(maxBytes: number): Promise<ReadOutcome>;
  /** Write to stdout, in order. */
  write(text: string): void;
  /** Write to stderr. */
  error(text: string): void;
  /** Whether to colour the human output (a terminal without `NO_COLOR`). */
  color: boolean;
}

/**
 * Read `chunks` (a Deno `ReadableStream` or a Node stream) into one byte
 * array, refusing with `too-large` once more than `max` bytes arrived (the
 * rest is never buffered; leaving the loop cancels the stream). String
 * chunks count as their UTF-8 bytes. `what` names the source in messages.
 * Runtime-neutral: shared by `main.ts` (Deno) and `bin.ts` (Node).
 */
export async function readBounded(
  chunks: AsyncIterable<Uint8Array | string>,
  max: number,
  what: string,
): Promise<ReadOutcome> {
  const parts: Uint8Array[] = [];
  const encoder = new TextEncoder();
  let total = 0;
  for await (const chunk of chunks) {
    const bytes = typeof chunk === "string" ? encoder.encode(chunk) : chunk;
    total += bytes.byteLength;
    if (total > max) {
      return { ok: false, code: "too-large", message: `${what} is over the ${max}-byte bound` };
    }
    parts.push(bytes);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of parts) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return { ok: true, bytes };
}

/** The usage text. */
export const HELP = `inspect: validate a chat stream capture and show its turns

Usage:
  inspect [FILE|-] [--json] [--strict] [--all] [--dialect=NAME] [--gap-ms=N]
  inspect agents <sessions.json> <history.json> [options]
  inspect --help

FILE is a capture: SSE (text/event-stream), NDJSON (one frame per line), or a
JSON array of frames (envelopes or chunks, "[DONE]" strings, or SSE records
{"event","id","data"}); "-" reads stdin. With no FILE, a bundled real capture
(an ai@7 UI message stream made by streamText + toUIMessageStreamResponse) is
inspected. A leading "--" (as in \`deno task start -- --help\`) is ignored; a
later "--" ends the options.

The dialect is detected: v1 envelopes, v0 named events (Papercup), Scout
legacy frames (token / tool_start inside unnamed events), or an AI SDK UI
message stream. --dialect=v1|v0|scout|ai-sdk (or --dialect v1, …) forces one.
A capture may hold several turns (v1: per conversation/turn id; legacy: a
new turn at each "session" after a terminal frame; AI SDK: a new message at
each "start" after "finish"/[DONE]): each is folded and summarised on its own.

Output: problems grouped by code (count, first lines, a few examples), hints
for near-miss captures (a broken JSON array, pretty-printed JSON, a HAR file,
…), a timeline (each frame's fields and time: v1 "at" or heartbeat "tsMs",
offsets, gaps over --gap-ms=N milliseconds, default 5000, flagged), and each
folded turn (text with <report>/<ask> blocks, tools, cards, errors with code
and retry delay, status and reason, every other folded field), then a
summary. Control, bidi and invisible characters from the capture are shown
escaped (\\u001b, \\u202e). The output is bounded; --all shows every problem,
frame, line of text and tool. --json prints the report as JSON instead
(schema "papercusp.inspect/2": source, format, dialect, dialectReason,
strict, exitCode, hints, problemGroups, problems, problemsOmitted, turns,
timeline, summary); on bad usage it prints {"schema", "error": {"code":
"usage", "message"}, "exitCode": 2} instead.

Legacy frames are upgraded to v1 with inspect acting as the host: a tool
call without callId gets "frame:<id>" from its SSE id, and legacy errors are
shown as not retryable (each flagged as a warning).

Exit codes: 0 clean, 1 contract violations, 2 unreadable input (missing
file, a directory, over ${INSPECT_MAX_BYTES} bytes, binary data, no frame at all:
empty or comments only) or bad usage. Warnings (e.g. a capture cut off
mid-turn) do not change the exit code; with --strict they are violations.
A stray control character, bytes that are not UTF-8 or an SSE line over
1 MiB are problems on their lines; the rest of the capture is still read.

inspect agents --help describes the agents command.
`;

const DIALECTS = new Set(["v1", "v0", "scout", "ai-sdk"]);

/**
 * Run `inspect` with `args` (without the program name). Returns the exit
 * code: 0 clean, 1 contract violations, 2 unreadable input or bad usage.
 */
export async function runCli(args: string[], io: CliIO): Promise<number> {
  // `deno task start -- --help` (and `npm run x -- …` habits) pass a literal
  // leading `--` through: accept and ignore it.
  if (args[0] === "--") args = args.slice(1);
  if (args[0] === "agents") {
    const agentsIo: AgentsCommandIO = {
      stdout: (s) => io.write(s),
      stderr: (s) => io.error(s),
      readTextOutcome: async (p) => {
        const r = await io.readFile(p, INSPECT_MAX_BYTES);
        return r.ok
          ? { ok: true, text: new TextDecoder().decode(r.bytes) }
          : { ok: false, message: r.message };
      },
    };
    return await runAgentsCommand(args.slice(1), agentsIo);
  }
  // Known before the options are read, so a usage error can answer in JSON too.
  const end = args.indexOf("--");
  let json = (end === -1 ? args : args.slice(0, end)).includes("--json");
  const usage = (message: string, help = false): number => {
    if (json) {
      io.write(stringifyJson(usageErrorReport(message)) + "\n");
      io.error(`inspect: ${message}\n`);
    } else io.error(`inspect: ${message}\n${help ? `\n${HELP}` : ""}`);
    return 2;
  };
  let strict = false;
  let all = false;
  let gapMs: number | undefined;
  let dialect: string | undefined;
  const files: string[] = [];
  let optionsEnded = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (optionsEnded) files.push(a);
    else if (a === "--") optionsEnded = true; // what follows is a FILE, even `--json`
    else if (a === "--help" || a === "-h") {
      io.write(HELP);
      return 0;
    } else if (a === "--json") json = true;
    else if (a === "--strict") strict = true;
    else if (a === "--all") all = true;
    else if (a === "--gap-ms" || a.startsWith("--gap-ms=")) {
      const value = a === "--gap-ms" ? args[++i] : a.slice("--gap-ms=".length);
      const n = value !== undefined && /^[0-9]{1,12}$/.test(value) ? Number(value) : NaN;
      if (!Number.isSafeInteger(n)) {
        return usage(
          `--gap-ms needs a whole number of milliseconds (got ${
            value === undefined ? "nothing" : escapeText(value)
          })`,
        );
      }
      gapMs = n;
    } else if (a.startsWith("--dialect=")) dialect = a.slice("--dialect=".length);
    else if (a === "--dialect") {
      if (i + 1 >= args.length) {
        return usage("--dialect needs a value: v1, v0, scout or ai-sdk");
      }
      dialect = args[++i];
    } else if (a.startsWith("--")) {
      return usage(`unknown option ${escapeText(a)}`, true);
    } else files.push(a);
  }
  if (files.length > 1) {
    return usage(`one capture at a time (got ${files.length})`, true);
  }
  if (dialect !== undefined && !DIALECTS.has(dialect)) {
    return usage(`--dialect must be one of v1, v0, scout, ai-sdk (got ${escapeText(dialect)})`);
  }
  const file = files[0];
  const source = file ?? `${BUNDLED_CAPTURE_NAME} (bundled)`;
  let input: ReadOutcome;
  if (file === undefined) input = { ok: true, bytes: new TextEncoder().encode(BUNDLED_CAPTURE) };
  else if (file === "-") input = await io.readStdin(INSPECT_MAX_BYTES);
  else input = await io.readFile(file, INSPECT_MAX_BYTES);
  const options: InspectOptions = { source, strict, all };
  if (gapMs !== undefined) options.gapMs = gapMs;
  if (dialect !== undefined) options.dialect = dialect as "v1" | "v0" | "scout" | "ai-sdk";
  let report: InspectReport = input.ok
    ? inspectBytes(input.bytes, options)
    : unreadableReport(source, input.message, input.code, options);
  let text: string;
  try {
    text = json ? stringifyJson(report) + "\n" : renderReport(report, { color: io.color, all });
  } catch (e) {
    // A bug in the renderer must not become an uncaught exception (exit 1 would mean
    // "violations"): report it as an internal error, exit 2.
    report = unreadableReport(
      source,
      `inspect failed to print its report (a bug in inspect, please report it): ${
        describeThrown(e, 300)
      }`,
      "internal-error",
      options,
    );
    text = json ? stringifyJson(report) + "\n" : renderReport(report, { color: io.color });
  }
  io.write(text);
  return report.exitCode;
}
