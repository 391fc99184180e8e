/**
 * `inspect` for legacy0 captures (Scout frames, Papercup named v0 events):
 * every frame decoded with `decodeLegacyChatFrame`, chat frames upgraded with
 * `upgradeDecodedLegacyChatFrame` (inspect acting as the host), then folded as v1.
 *
 * Inspect as the host: a tool call without `callId` gets `frame:<id>`
 * derived from its SSE id (stable across replays, as a host mapping must
 * be) and a warning; a Papercup `tool_result` without `callId` is paired
 * with the only running call of the same name (warning), else refused;
 * legacy errors are shown as `retryable: false` (warning), because legacy
 * carries no retry permission. The conversation/turn ids and seqs inspect
 * allocates for the fold are its own, so the report does not show them.
 *
 * Several turns in one capture: a legacy stream is one turn per response,
 * and each response starts with `session`; a `session` frame after a
 * terminal frame starts the next turn (any other frame after the terminal
 * one is `after-terminal`: Scout's client stopped reading).
 *
 * @module
 */
import { decodeLegacyChatFrame, SCOUT_ONLY_CHAT_TYPES } from "../legacy/decode.ts";
import { type LegacyToolFrame, upgradeDecodedLegacyChatFrame } from "../legacy/upgrade.ts";
import type { LegacyDialect } from "../legacy/types.ts";
import { clipText } from "../_internal/describe.ts";
import type { CapturedFrame } from "./capture.ts";
import { LinedFold, noTerminalProblem } from "./analyze_v1.ts";
import { jsonError } from "./detect.ts";
import type { Analysis, AnalyzedTurn, FrameNote } from "./analysis.ts";
import type { InspectDomainEvent, InspectProblem } from "./report.ts";

/** One legacy turn being read. */
interface LegacyTurn {
  fold: LinedFold;
  domainEvents: InspectDomainEvent[];
  seq: number;
  lastId?: number;
  terminalLine?: number;
  terminalType: string;
  /** callId → name of calls still running, for pairing results without callId. */
  running: Map<string, string>;
}

function newTurn(dialect: LegacyDialect): LegacyTurn {
  return {
    fold: new LinedFold(
      "inspect",
      "inspect",
      dialect === "scout" ? " (Scout's vocabulary has no tool result event)" : "",
    ),
    domainEvents: [],
    seq: 0,
    terminalType: "",
    running: new Map(),
  };
}

/** Analyse legacy frames in `dialect`. */
export function analyzeLegacy(frames: readonly CapturedFrame[], dialect: LegacyDialect): Analysis {
  const problems: InspectProblem[] = [];
  const notes: FrameNote[] = [];
  const turns: LegacyTurn[] = [newTurn(dialect)];
  let t = turns[0];
  let heartbeats = 0;
  let domainEvents = 0;
  let currentLine = 0;
  const problem = (severity: "error" | "warning", code: string, message: string) =>
    problems.push({ line: currentLine, turn: turns.length - 1, severity, code, message });

  const callIdFor = (tool: LegacyToolFrame): string | undefined => {
    if (tool.kind === "call") {
      if (tool.frameId === undefined) return undefined;
      const id = `frame:${tool.frameId}`;
      problem(
        "warning",
        "derived-call-id",
        `the tool call "${tool.name}" has no callId; inspect derived "${id}" from the ` +
          "frame id, as a host's stable mapping would (the adapter itself never invents one)",
      );
      return id;
    }
    const same = [...t.running].filter(([, name]) => name === tool.name);
    if (same.length !== 1) return undefined;
    problem(
      "warning",
      "paired-by-name",
      `the tool result "${tool.name}" has no callId; inspect paired it with the only ` +
        `running call of that name (${same[0][0]})`,
    );
    return same[0][0];
  };
  // One upgrade context per turn: the adapter checks that a context's seqs only grow.
  const context = () => ({
    dialect,
    conversationId: "inspect",
    turnId: "inspect",
    retryable: false,
    allocate: () => {
      t.seq++;
      return { eventId: `inspect:${t.seq}`, seq: t.seq };
    },
    callIdFor,
  });
  let ctx = context();

  for (const f of frames) {
    currentLine = f.line;
    const note: FrameNote = { turn: turns.length - 1, type: f.event ?? "frame" };
    notes.push(note);
    const decoded = decodeLegacyChatFrame(f, dialect);
    if (!decoded.ok) {
      const why = decoded.error.code === "invalid-json" && f.data.trim() !== ""
        ? ` (${jsonError(f.data)})`
        : "";
      if (decoded.error.code === "invalid-json") note.type = "not JSON";
      problem("error", decoded.error.code, decoded.error.message + why);
      continue;
    }
    const d = decoded.value;
    if (d.kind === "heartbeat") {
      heartbeats++;
      note.type = "heartbeat";
      if (d.tsMs !== undefined && d.tsMs >= 0) note.at = d.tsMs;
      continue;
    }
    note.type = d.kind === "domain" ? d.type : d.wireType;
    if (
      d.kind === "chat" && d.event.type === "session" && t.terminalLine !== undefined
    ) {
      t = newTurn(dialect);
      turns.push(t);
      ctx = context();
      note.turn = turns.length - 1;
    }
    const afterTerminal = t.terminalLine !== undefined;
    if (afterTerminal) {
      problem(
        "error",
        "after-terminal",
        `frame after the terminal \`${t.terminalType}\` on line ${t.terminalLine}: ` +
          (dialect === "scout"
            ? "Scout's client stops reading at the first terminal frame and never sees it"
            : "nothing may follow the end of a turn (a next turn starts with `session`)"),
      );
    }
    if (dialect === "scout") {
      if (d.id === undefined || d.id === "") {
        problem(
          "warning",
          "missing-id",
          "Scout frame without an id: a client that reconnects cannot resume past it",
        );
      } else {
        const n = Number(d.id); // as Scout's client reads it
        if (!Number.isSafeInteger(n)) {
          problem(
            "warning",
            "id-precision",
            `id ${d.id.length > 40 ? `${clipText(d.id, 40)}…` : d.id} is over ` +
              "2^53 - 1: Scout's client reads ids with Number(), which rounds it, so its " +
              "resume cursor is not exact",
          );
        }
        if (t.lastId !== undefined && n <= t.lastId) {
          problem(
            "error",
            "non-monotonic-id",
            `id ${d.id} is not greater than the previous id ${t.lastId}: Scout's resume ` +
              "cursor is the highest id seen, so a replay would skip or repeat frames",
          );
        }
        t.lastId = t.lastId === undefined ? n : Math.max(t.lastId, n);
      }
    }
    if (d.kind === "domain") {
      domainEvents++;
      t.domainEvents.push({ line: f.line, type: d.type });
      if (dialect === "papercup" && SCOUT_ONLY_CHAT_TYPES.has(d.type)) {
        problem(
          "warning",
          "scout-name",
          `\`${d.type}\` is Scout's legacy vocabulary, not a v0 event; v0 readers ignore it`,
        );
      }
      continue;
    }
    if (d.event.type === "done" || d.event.type === "error") {
      if (t.terminalLine === undefined) {
        t.terminalLine = f.line;
        t.terminalType = d.wireType;
      }
    }
    if (d.event.type === "error") {
      problem(
        "warning",
        "no-retry-permission",
        "legacy errors carry no retry permission; inspect shows it as not retryable",
      );
    }
    const up = upgradeDecodedLegacyChatFrame(d, ctx);
    if (!up.ok) {
      problem("error", up.error.code, up.error.message);
      continue;
    }
    const ev = up.value.event;
    if (ev.type === "tool_call") t.running.set(ev.callId, ev.name);
    if (ev.type === "tool_result") t.running.delete(ev.callId);
    // What follows the terminal frame is validated but not folded: clients never see it.
    if (!afterTerminal) t.fold.push(f.line, up.value, problems, turns.length - 1);
  }
  const analyzed: AnalyzedTurn[] = turns.map((turn, i) => {
    const body = turn.fold.turn();
    // The ids and the cursor are inspect's own allocation, not the capture's.
    delete body.conversationId;
    delete body.turnId;
    delete body.lastSeq;
    delete body.lastEventId;
    for (const tool of body.tools) {
      delete tool.startedSeq;
      delete tool.finishedSeq;
    }
    body.domainEvents = turn.domainEvents;
    if (body.status === "running") problems.push(noTerminalProblem(i));
    return { body, events: turn.fold.applied };
  });
  // Nothing was folded or passed through (every frame refused): there is no turn to show. Only
  // the first turn can be empty: a later one starts at an accepted `session` frame.
  if (turns.length === 1 && turns[0].fold.applied === 0 && turns[0].domainEvents.length === 0) {
    for (const p of problems) delete p.turn;
    for (const n of notes) n.turn = -1;
    return {
      problems: problems.filter((p) => p.code !== "no-terminal-event"),
      turns: [],
      notes,
      heartbeats,
      domainEvents,
    };
  }
  return { problems, turns: analyzed, notes, heartbeats, domainEvents };
}
