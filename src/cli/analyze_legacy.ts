/**
 * `inspect` for legacy0 captures (Scout frames, Papercup named v0 events):
 * every frame decoded with `decodeLegacyChatFrame`, chat frames upgraded with
 * `upgradeDecodedLegacyChatFrame` (inspect acting as the host), then folded as v1.
 *
 * Inspect as the host: conversation/turn ids are `inspect`; a tool call
 * without `callId` gets `frame:<id>` derived from its SSE id (stable across
 * replays, as a host mapping must be) and a warning; a Papercup
 * `tool_result` without `callId` is paired with the only running call of
 * the same name (warning), else refused; legacy errors are shown as
 * `retryable: false` (warning), because legacy carries no retry permission.
 *
 * @module
 */
import { decodeLegacyChatFrame } from "../legacy/decode.ts";
import { type LegacyDialect } from "../legacy/types.ts";
import { type LegacyToolFrame, upgradeDecodedLegacyChatFrame } from "../legacy/upgrade.ts";
import { SCOUT_ONLY_CHAT_TYPES } from "../legacy/decode.ts";
import type { CapturedFrame } from "./capture.ts";
import { LinedFold } from "./analyze_v1.ts";
import { jsonError } from "./detect.ts";
import type { InspectDomainEvent, InspectProblem, InspectTurn } from "./report.ts";

/** What the legacy analysis yields. */
export interface LegacyAnalysis {
  problems: InspectProblem[];
  turn: InspectTurn | null;
  events: number;
  heartbeats: number;
  domainEvents: InspectDomainEvent[];
}

/** Analyse legacy frames in `dialect`. */
export function analyzeLegacy(
  frames: readonly CapturedFrame[],
  dialect: LegacyDialect,
): LegacyAnalysis {
  const problems: InspectProblem[] = [];
  const domainEvents: InspectDomainEvent[] = [];
  const fold = new LinedFold();
  let heartbeats = 0;
  let seq = 0;
  let lastId: number | undefined;
  let terminalLine: number | undefined;
  let terminalType = "";
  /** callId → name of calls still running, for pairing results without callId. */
  const running = new Map<string, string>();
  let currentLine = 0;

  const callIdFor = (tool: LegacyToolFrame): string | undefined => {
    if (tool.kind === "call") {
      if (tool.frameId === undefined) return undefined;
      const id = `frame:${tool.frameId}`;
      problems.push({
        line: currentLine,
        severity: "warning",
        code: "derived-call-id",
        message: `the tool call "${tool.name}" has no callId; inspect derived "${id}" from the ` +
          "frame id, as a host's stable mapping would (the adapter itself never invents one)",
      });
      return id;
    }
    const same = [...running].filter(([, name]) => name === tool.name);
    if (same.length !== 1) return undefined;
    problems.push({
      line: currentLine,
      severity: "warning",
      code: "paired-by-name",
      message: `the tool result "${tool.name}" has no callId; inspect paired it with the only ` +
        `running call of that name (${same[0][0]})`,
    });
    return same[0][0];
  };
  const ctx = {
    dialect,
    conversationId: "inspect",
    turnId: "inspect",
    retryable: false,
    allocate: () => {
      seq++;
      return { eventId: `inspect:${seq}`, seq };
    },
    callIdFor,
  };

  for (const f of frames) {
    currentLine = f.line;
    const decoded = decodeLegacyChatFrame(f, dialect);
    if (!decoded.ok) {
      const why = decoded.error.code === "invalid-json" && f.data.trim() !== ""
        ? ` (${jsonError(f.data)})`
        : "";
      problems.push({
        line: f.line,
        severity: "error",
        code: decoded.error.code,
        message: decoded.error.message + why,
      });
      continue;
    }
    const d = decoded.value;
    if (d.kind === "heartbeat") {
      heartbeats++;
      continue;
    }
    const afterTerminal = terminalLine !== undefined;
    if (afterTerminal) {
      problems.push({
        line: f.line,
        severity: "error",
        code: "after-terminal",
        message: `frame after the terminal \`${terminalType}\` on line ${terminalLine}: ` +
          (dialect === "scout"
            ? "Scout's client stops reading at the first terminal frame and never sees it"
            : "nothing may follow the end of a turn"),
      });
    }
    if (dialect === "scout") {
      if (d.id === undefined || d.id === "") {
        problems.push({
          line: f.line,
          severity: "warning",
          code: "missing-id",
          message: "Scout frame without an id: a client that reconnects cannot resume past it",
        });
      } else {
        const n = Number(d.id); // as Scout's client reads it
        if (!Number.isSafeInteger(n)) {
          problems.push({
            line: f.line,
            severity: "warning",
            code: "id-precision",
            message: `id ${d.id.length > 40 ? `${d.id.slice(0, 40)}…` : d.id} is over ` +
              "2^53 - 1: Scout's client reads ids with Number(), which rounds it, so its " +
              "resume cursor is not exact",
          });
        }
        if (lastId !== undefined && n <= lastId) {
          problems.push({
            line: f.line,
            severity: "error",
            code: "non-monotonic-id",
            message: `id ${d.id} is not greater than the previous id ${lastId}: Scout's resume ` +
              "cursor is the highest id seen, so a replay would skip or repeat frames",
          });
        }
        lastId = lastId === undefined ? n : Math.max(lastId, n);
      }
    }
    if (d.kind === "domain") {
      domainEvents.push({ line: f.line, type: d.type });
      if (dialect === "papercup" && SCOUT_ONLY_CHAT_TYPES.has(d.type)) {
        problems.push({
          line: f.line,
          severity: "warning",
          code: "scout-name",
          message:
            `\`${d.type}\` is Scout's legacy vocabulary, not a v0 event; v0 readers ignore it`,
        });
      }
      continue;
    }
    if (d.event.type === "done" || d.event.type === "error") {
      if (terminalLine === undefined) {
        terminalLine = f.line;
        terminalType = d.wireType;
      }
    }
    if (d.event.type === "error") {
      problems.push({
        line: f.line,
        severity: "warning",
        code: "no-retry-permission",
        message: "legacy errors carry no retry permission; inspect shows it as not retryable",
      });
    }
    const up = upgradeDecodedLegacyChatFrame(d, ctx);
    if (!up.ok) {
      problems.push({
        line: f.line,
        severity: "error",
        code: up.error.code,
        message: up.error.message,
      });
      continue;
    }
    const ev = up.value.event;
    if (ev.type === "tool_call") running.set(ev.callId, ev.name);
    if (ev.type === "tool_result") running.delete(ev.callId);
    // What follows the terminal frame is validated but not folded: clients never see it.
    if (!afterTerminal) fold.push(f.line, up.value);
  }
  const turn = fold.turn();
  problems.push(...fold.problems);
  if (turn !== null) turn.domainEvents = domainEvents;
  return { problems, turn, events: fold.applied, heartbeats, domainEvents };
}
