/**
 * `inspect` for AI SDK UI message streams (`toUIMessageStreamResponse()`
 * bodies): every chunk validated with `checkUIMessageChunk`, each message
 * folded with `foldUIMessage` (both from the message module).
 *
 * Several messages in one capture (responses saved one after another): a
 * `start` chunk after `finish`, `abort` or `[DONE]` starts the next turn.
 * Any other frame after `[DONE]` is `after-done` (clients stop reading there).
 *
 * @module
 */
import { checkUIMessageChunk } from "../ai_sdk/chunks.ts";
import { foldUIMessage } from "../ai_sdk/fold.ts";
import { splitTurnText } from "../blocks/split_turn_text.ts";
import { isRecord, own } from "../_internal/guards.ts";
import type { CapturedFrame } from "./capture.ts";
import { invalidJsonProblem, parseData } from "./detect.ts";
import { extraFields } from "./analyze_v1.ts";
import { type Analysis, type AnalyzedTurn, type FrameNote, pushNote } from "./analysis.ts";
import type { InspectProblem, InspectTool } from "./report.ts";

/** Tool part fields with a named slot in {@link InspectTool}. */
const TOOL_PART_KEYS = new Set([
  "type",
  "toolCallId",
  "toolName",
  "state",
  "input",
  "output",
  "errorText",
]);

/** One message being read. */
interface MessageTurn {
  chunks: unknown[];
  lines: number[];
  finished: boolean;
  aborted: boolean;
  doneLine?: number;
}

/** Fold one message's chunks into a turn; its problems go to `problems`, tagged with `index`. */
function foldTurn(m: MessageTurn, index: number, problems: InspectProblem[]): AnalyzedTurn {
  const fold = foldUIMessage(m.chunks, { maxIssues: m.chunks.length + 1 });
  for (const issue of fold.issues) {
    problems.push({
      line: m.lines[issue.index] ?? null,
      turn: index,
      severity: "error",
      code: issue.code,
      message: issue.message,
    });
  }
  if (!m.finished && !fold.aborted) {
    problems.push({
      line: null,
      turn: index,
      severity: "warning",
      code: "no-finish",
      message: "the stream has no `finish` chunk: the turn did not end cleanly",
    });
  }
  if (m.doneLine === undefined) {
    problems.push({
      line: null,
      turn: index,
      severity: "warning",
      code: "no-done",
      message: "the stream does not end with `data: [DONE]`",
    });
  }
  let text = "";
  let reasoning = "";
  const segments: AnalyzedTurn["body"]["segments"] = [];
  const tools: InspectTool[] = [];
  const parts: unknown[] = [];
  for (const part of fold.message.parts) {
    if (part.type === "text") {
      text += part.text;
      segments.push(...splitTurnText(part.text)); // one part's blocks never span parts
    } else if (part.type === "reasoning") reasoning += part.text;
    else if (part.type === "dynamic-tool" || part.type.startsWith("tool-")) {
      const p = part as unknown as Record<string, unknown>;
      const tool: InspectTool = {
        callId: typeof p.toolCallId === "string" ? p.toolCallId : null,
        name: part.type === "dynamic-tool" ? String(p.toolName) : part.type.slice(5),
        status: String(p.state),
      };
      if (p.input !== undefined) tool.input = p.input;
      if (p.output !== undefined) tool.output = p.output;
      if (typeof p.errorText === "string") tool.errorText = p.errorText;
      const extra = extraFields(p, TOOL_PART_KEYS);
      if (extra !== undefined) tool.extra = extra;
      tools.push(tool);
    } else parts.push(part);
  }
  const status = fold.aborted
    ? "aborted"
    : fold.errors.length > 0
    ? "failed"
    : m.finished
    ? "completed"
    : "running";
  const body: AnalyzedTurn["body"] = {
    status,
    text,
    segments,
    tools,
    cards: [],
    errors: fold.errors.map((message) => ({ message })),
    domainEvents: [],
  };
  if (fold.message.id !== "") body.messageId = fold.message.id;
  if (fold.message.metadata !== undefined) body.metadata = fold.message.metadata;
  if (reasoning !== "") body.reasoning = reasoning;
  if (parts.length > 0) body.parts = parts;
  if (fold.finishReason !== undefined) body.stopReason = fold.finishReason;
  return { body, events: m.chunks.length };
}

function newMessage(): MessageTurn {
  return { chunks: [], lines: [], finished: false, aborted: false };
}

/** Analyse the frames of an AI SDK UI message stream. */
export function analyzeAiSdk(frames: readonly CapturedFrame[]): Analysis {
  const problems: InspectProblem[] = [];
  const notes: FrameNote[] = [];
  const messages: MessageTurn[] = [newMessage()];
  let m = messages[0];
  let heartbeats = 0;
  for (const f of frames) {
    const note = pushNote(notes, f, messages.length - 1, "[DONE]");
    if (note === undefined) {
      heartbeats++;
      continue;
    }
    if (f.data === "[DONE]") {
      if (m.doneLine === undefined) {
        m.doneLine = f.line;
        continue;
      }
    }
    const parsed = f.data === "[DONE]" ? undefined : parseData(f.data);
    const type = isRecord(parsed?.value) ? own(parsed.value, "type") : undefined;
    if (type === "start" && (m.finished || m.aborted || m.doneLine !== undefined)) {
      m = newMessage();
      messages.push(m);
      note.turn = messages.length - 1;
    }
    if (m.doneLine !== undefined) {
      note.type = typeof type === "string" ? type : f.data === "[DONE]" ? "[DONE]" : "after [DONE]";
      problems.push({
        line: f.line,
        turn: note.turn,
        severity: "error",
        code: "after-done",
        message:
          `frame after the [DONE] terminator (line ${m.doneLine}); clients stop reading there`,
      });
      continue;
    }
    if (parsed === undefined) {
      note.type = "not JSON";
      problems.push(invalidJsonProblem(f, "an AI SDK chunk is one JSON object per event"));
      continue;
    }
    note.type = typeof type === "string" ? type : "invalid";
    const why = checkUIMessageChunk(parsed.value);
    if (why !== null) {
      problems.push({ line: f.line, severity: "error", code: "invalid-chunk", message: why });
      continue;
    }
    if (type === "finish") m.finished = true;
    if (type === "abort") m.aborted = true;
    m.chunks.push(parsed.value);
    m.lines.push(f.line);
  }
  const turns = messages.map((msg, i) => foldTurn(msg, i, problems));
  return { problems, turns, notes, heartbeats, domainEvents: 0 };
}
