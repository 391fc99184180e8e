/**
 * `inspect`: validate and fold a chat stream capture.
 *
 * ```
 * deno task start [FILE|-] [--json] [--dialect=v1|v0|scout|ai-sdk]
 * deno task start agents <sessions.json> <history.json>
 * ```
 *
 * I/O only: the logic lives in `inspect.ts` (pure, tested). Exit codes: 0
 * clean, 1 contract violations, 2 unreadable input or bad usage.
 *
 * @module
 */
import { INSPECT_MAX_BYTES, inspectBytes, unreadableReport } from "./inspect.ts";
import type { InspectReport } from "./report.ts";
import { renderReport } from "./render.ts";
import { runAgentsCommand } from "./agents_command.ts";

/** The capture used when no file is given: a real `ai@7` UI message stream. */
const BUNDLED = new URL("../../fixtures/ai-sdk/tool_two_steps.sse", import.meta.url);

const HELP = `inspect: validate a chat stream capture and show the folded turn

Usage:
  inspect [FILE|-] [--json] [--dialect=NAME]
  inspect agents <sessions.json> <history.json>
  inspect --help

FILE is an SSE (text/event-stream) or NDJSON capture of one turn; "-" reads
stdin. With no FILE, a bundled real capture (an ai@7 UI message stream made
by streamText + toUIMessageStreamResponse) is inspected.

The dialect is detected: v1 envelopes, v0 named events (Papercup), Scout
legacy frames (token / tool_start inside unnamed events), or an AI SDK UI
message stream. --dialect=v1|v0|scout|ai-sdk forces one.

Output: every problem with its line number, the folded turn (text with
<report>/<ask> blocks, tool calls and results, cards, errors, final status)
and a summary. --json prints the report as JSON instead
(schema "papercusp.inspect/1": source, format, dialect, dialectReason,
exitCode, problems[{line, severity, code, message}], turn, summary).

Legacy frames are upgraded to v1 with inspect acting as the host: a tool
call without callId gets "frame:<id>" from its SSE id, and legacy errors are
shown as not retryable (each flagged as a warning).

Exit codes: 0 clean, 1 contract violations, 2 unreadable input (missing file,
binary data, over ${INSPECT_MAX_BYTES} bytes, an SSE line or event over
1 MiB) or bad usage.

inspect agents --help describes the agents command.
`;

const DIALECTS = new Set(["v1", "v0", "scout", "ai-sdk"]);

async function readBounded(
  readable: ReadableStream<Uint8Array>,
  max: number,
): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of readable) {
    total += chunk.byteLength;
    if (total > max) return null;
    chunks.push(chunk);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

async function readInput(path: string | URL, source: string): Promise<InspectReport | Uint8Array> {
  if (path === "-") {
    const bytes = await readBounded(Deno.stdin.readable, INSPECT_MAX_BYTES);
    return bytes ??
      unreadableReport(source, `stdin is over the ${INSPECT_MAX_BYTES}-byte bound`, "too-large");
  }
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (e) {
    const why = e instanceof Deno.errors.NotFound
      ? "no such file"
      : e instanceof Error
      ? e.message
      : String(e);
    return unreadableReport(source, `cannot read ${path}: ${why}`, "unreadable");
  }
  try {
    const info = await file.stat();
    if (!info.isFile) {
      return unreadableReport(source, `${path} is not a regular file`, "unreadable");
    }
    if (info.size > INSPECT_MAX_BYTES) {
      return unreadableReport(
        source,
        `${path} is ${info.size} bytes, over the ${INSPECT_MAX_BYTES}-byte bound`,
        "too-large",
      );
    }
    const bytes = await readBounded(file.readable, INSPECT_MAX_BYTES);
    return bytes ??
      unreadableReport(source, `${path} is over the ${INSPECT_MAX_BYTES}-byte bound`, "too-large");
  } catch (e) {
    return unreadableReport(
      source,
      `cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}

function useColor(): boolean {
  try {
    return Deno.stdout.isTerminal() && Deno.env.get("NO_COLOR") === undefined;
  } catch {
    return false;
  }
}

async function runAgents(args: string[]): Promise<number> {
  const enc = new TextEncoder();
  const io = {
    stdout: (s: string) => void Deno.stdout.writeSync(enc.encode(s)),
    stderr: (s: string) => void Deno.stderr.writeSync(enc.encode(s)),
    // Same input bound as captures: a broker snapshot over 64 MiB is refused.
    readTextFile: async (p: string): Promise<string> => {
      const info = await Deno.stat(p);
      if (info.size > INSPECT_MAX_BYTES) {
        throw new Error(`${info.size} bytes, over the ${INSPECT_MAX_BYTES}-byte bound`);
      }
      return await Deno.readTextFile(p);
    },
  };
  return await runAgentsCommand(args, io);
}

async function writeAll(bytes: Uint8Array): Promise<void> {
  let at = 0;
  while (at < bytes.byteLength) at += await Deno.stdout.write(bytes.subarray(at));
}

/** Run the CLI with `args`; returns the exit code. */
export async function main(args: string[]): Promise<number> {
  if (args[0] === "agents") return await runAgents(args.slice(1));
  let json = false;
  let dialect: string | undefined;
  const files: string[] = [];
  for (const a of args) {
    if (a === "--help" || a === "-h") {
      console.log(HELP);
      return 0;
    } else if (a === "--json") json = true;
    else if (a.startsWith("--dialect=")) dialect = a.slice("--dialect=".length);
    else if (a.startsWith("--")) {
      console.error(`inspect: unknown option ${a}\n\n${HELP}`);
      return 2;
    } else files.push(a);
  }
  if (files.length > 1) {
    console.error(`inspect: one capture at a time (got ${files.length})\n\n${HELP}`);
    return 2;
  }
  if (dialect !== undefined && !DIALECTS.has(dialect)) {
    console.error(`inspect: --dialect must be one of v1, v0, scout, ai-sdk (got ${dialect})`);
    return 2;
  }
  const path: string | URL = files[0] ?? BUNDLED;
  const source = files[0] ?? "fixtures/ai-sdk/tool_two_steps.sse (bundled)";
  const input = await readInput(path, source);
  const report = input instanceof Uint8Array
    ? inspectBytes(input, {
      source,
      ...(dialect === undefined ? {} : { dialect: dialect as "v1" | "v0" | "scout" | "ai-sdk" }),
    })
    : input;
  const text = json
    ? JSON.stringify(report, null, 2) + "\n"
    : renderReport(report, { color: useColor() });
  await writeAll(new TextEncoder().encode(text));
  return report.exitCode;
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
