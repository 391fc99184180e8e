/**
 * `inspect` for AI SDK UI message streams (`toUIMessageStreamResponse()`
 * bodies): every chunk validated with `checkUIMessageChunk`, the message
 * folded with `foldUIMessage` (both from the message module).
 *
 * @module
 */
import { checkUIMessageChunk } from "../message/chunks.ts";
import { foldUIMessage } from "../message/fold.ts";
import { splitTurnText } from "../blocks/split_turn_text.ts";
import { isRecord } from "../_internal/guards.ts";
import type { CapturedFrame } from "./capture.ts";
import { invalidJsonProblem, parseData } from "./detect.ts";
import type { InspectProblem, InspectTool, InspectTurn } from "./report.ts";

/** What the AI SDK analysis yields. */
export interface AiSdkAnalysis {
  problems: InspectProblem[];
  turn: InspectTurn;
  events: number;
  heartbeats: number;
}

type Obj = Record<string, unknown>;

/** Analyse the frames of an AI SDK UI message stream. */
export function analyzeAiSdk(frames: readonly CapturedFrame[]): AiSdkAnalysis {
  const problems: InspectProblem[] = [];
  const chunks: unknown[] = [];
  const lines: number[] = [];
  let doneLine: number | undefined;
  let heartbeats = 0;
  let finished = false;
  for (const f of frames) {
    if (f.event === "heartbeat") {
      heartbeats++;
      continue;
    }
    if (doneLine !== undefined) {
      problems.push({
        line: f.line,
        severity: "error",
        code: "after-done",
        message: `frame after the [DONE] terminator (line ${doneLine}); clients stop reading there`,
      });
      continue;
    }
    if (f.data === "[DONE]") {
      doneLine = f.line;
      continue;
    }
    const parsed = parseData(f.data);
    if (parsed === undefined) {
      problems.push(invalidJsonProblem(f, "an AI SDK chunk is one JSON object per event"));
      continue;
    }
    const why = checkUIMessageChunk(parsed.value);
    if (why !== null) {
      problems.push({ line: f.line, severity: "error", code: "invalid-chunk", message: why });
      continue;
    }
    if (isRecord(parsed.value) && parsed.value.type === "finish") finished = true;
    chunks.push(parsed.value);
    lines.push(f.line);
  }
  const fold = foldUIMessage(chunks);
  for (const issue of fold.issues) {
    problems.push({
      line: lines[issue.index] ?? null,
      severity: "error",
      code: issue.code,
      message: issue.message,
    });
  }
  if (fold.droppedIssues > 0) {
    problems.push({
      line: null,
      severity: "error",
      code: "more-issues",
      message: `${fold.droppedIssues} more fold issue(s) not listed`,
    });
  }
  if (!finished && !fold.aborted) {
    problems.push({
      line: null,
      severity: "warning",
      code: "no-finish",
      message: "the stream has no `finish` chunk: the turn did not end cleanly",
    });
  }
  if (doneLine === undefined) {
    problems.push({
      line: null,
      severity: "warning",
      code: "no-done",
      message: "the stream does not end with `data: [DONE]`",
    });
  }

  let text = "";
  let reasoning = "";
  const segments: InspectTurn["segments"] = [];
  const tools: InspectTool[] = [];
  for (const part of fold.message.parts) {
    if (part.type === "text") {
      text += part.text;
      segments.push(...splitTurnText(part.text)); // one part's blocks never span parts
    } else if (part.type === "reasoning") reasoning += part.text;
    else if (part.type === "dynamic-tool" || part.type.startsWith("tool-")) {
      const p = part as unknown as Obj;
      const tool: InspectTool = {
        callId: typeof p.toolCallId === "string" ? p.toolCallId : null,
        name: part.type === "dynamic-tool" ? String(p.toolName) : part.type.slice(5),
        status: String(p.state),
      };
      if (p.input !== undefined) tool.input = p.input;
      if (p.output !== undefined) tool.output = p.output;
      if (typeof p.errorText === "string") tool.errorText = p.errorText;
      tools.push(tool);
    }
  }
  const status = fold.aborted
    ? "aborted"
    : fold.errors.length > 0
    ? "failed"
    : finished
    ? "completed"
    : "running";
  const turn: InspectTurn = {
    status,
    text,
    segments,
    tools,
    cards: [],
    errors: fold.errors.map((message) => ({ message })),
    domainEvents: [],
  };
  if (reasoning !== "") turn.reasoning = reasoning;
  if (fold.finishReason !== undefined) turn.stopReason = fold.finishReason;
  return { problems, turn, events: chunks.length, heartbeats };
}
