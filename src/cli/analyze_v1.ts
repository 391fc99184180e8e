/**
 * `inspect` for v1 envelope captures, and the shared step that folds v1
 * envelopes (native or upgraded from legacy frames) with `foldChatState`.
 *
 * @module
 */
import { foldChatState } from "../v1/mod.ts";
import type { ChatStateV1 } from "../v1/types.ts";
import { splitTurnText } from "../blocks/mod.ts";
import type { CapturedFrame } from "./capture.ts";
import { parseData } from "./detect.ts";
import type { InspectProblem, InspectTurn } from "./report.ts";

/** A value to fold and the line it came from. */
export interface LinedValue {
  line: number;
  value: unknown;
}

/** Project a folded {@link ChatStateV1} onto the report's turn shape. */
export function stateToTurn(state: ChatStateV1): InspectTurn {
  const turn: InspectTurn = {
    status: state.status,
    text: state.text,
    segments: splitTurnText(state.text),
    tools: state.tools.map((t) => {
      const tool: InspectTurn["tools"][number] = {
        callId: t.callId,
        name: t.name,
        status: t.status,
      };
      if (t.input !== undefined) tool.input = t.input;
      if (t.output !== undefined) tool.output = t.output;
      if (t.summary !== undefined) tool.summary = t.summary;
      return tool;
    }),
    cards: [
      ...state.closedCards.map((c) => {
        const card: InspectTurn["cards"][number] = {
          correlationId: c.correlationId,
          status: "closed",
        };
        if (c.resolution !== undefined) card.resolution = c.resolution;
        return card;
      }),
      ...state.openCards.map((c) => ({
        correlationId: c.correlationId,
        prompt: c.prompt,
        status: "open" as const,
      })),
    ],
    errors: state.error === undefined ? [] : [{ ...state.error }],
    domainEvents: [],
  };
  if (state.sessionId !== undefined) turn.sessionId = state.sessionId;
  if (state.provenance !== undefined) turn.provenance = state.provenance;
  if (state.reasoning !== "") turn.reasoning = state.reasoning;
  if (state.done?.stopReason !== undefined) turn.stopReason = state.done.stopReason;
  if (state.done?.usage !== undefined) turn.usage = state.done.usage;
  return turn;
}

/**
 * Fold lined envelopes with `foldChatState` (`resyncOnGap`, so one lost
 * event is reported once), turning every refusal into a problem on its line.
 * Closed cards keep the prompt they had when they opened.
 */
export function foldLined(
  items: readonly LinedValue[],
): { problems: InspectProblem[]; turn: InspectTurn | null; applied: number } {
  const report = foldChatState(items.map((i) => i.value), { resyncOnGap: true });
  const problems: InspectProblem[] = report.refusals.map((r) => ({
    line: items[r.index]?.line ?? null,
    severity: "error",
    code: r.error.code,
    message: r.error.message,
  }));
  if (report.state === null) return { problems, turn: null, applied: report.applied };
  const turn = stateToTurn(report.state);
  const prompts = new Map<string, string>();
  for (const i of items) {
    const v = i.value as {
      event?: { type?: unknown; card?: { correlationId?: unknown; prompt?: unknown } };
    };
    const card = v?.event?.type === "card" ? v.event.card : undefined;
    if (typeof card?.correlationId === "string" && typeof card.prompt === "string") {
      prompts.set(card.correlationId, card.prompt);
    }
  }
  for (const c of turn.cards) {
    if (c.prompt === undefined && prompts.has(c.correlationId)) {
      c.prompt = prompts.get(c.correlationId);
    }
  }
  if (turn.status === "running") {
    problems.push({
      line: null,
      severity: "warning",
      code: "no-terminal-event",
      message:
        "the capture ends without `done` or `error`: the turn is still running (or was cut off)",
    });
  }
  return { problems, turn, applied: report.applied };
}

/** Analyse a capture of v1 envelopes (SSE `data:` or NDJSON lines). */
export function analyzeV1(
  frames: readonly CapturedFrame[],
): { problems: InspectProblem[]; turn: InspectTurn | null; events: number; heartbeats: number } {
  const problems: InspectProblem[] = [];
  const items: LinedValue[] = [];
  let heartbeats = 0;
  for (const f of frames) {
    if (f.event === "heartbeat") {
      heartbeats++;
      continue;
    }
    const parsed = parseData(f.data);
    if (parsed === undefined) {
      problems.push({
        line: f.line,
        severity: "error",
        code: "invalid-json",
        message: "the data is not JSON (a v1 frame carries one JSON envelope)",
      });
      continue;
    }
    const v = parsed.value as { eventId?: unknown; event?: { type?: unknown } } | null;
    if (f.id !== undefined && typeof v?.eventId === "string" && f.id !== v.eventId) {
      problems.push({
        line: f.line,
        severity: "warning",
        code: "id-mismatch",
        message: `the SSE id "${f.id}" differs from the envelope's eventId "${v.eventId}": ` +
          "a client resuming with Last-Event-ID would send the wrong cursor",
      });
    }
    const type = v?.event?.type;
    if (
      f.event !== undefined && f.event !== "message" && typeof type === "string" && f.event !== type
    ) {
      problems.push({
        line: f.line,
        severity: "warning",
        code: "event-name-mismatch",
        message: `the SSE event name "${f.event}" differs from the envelope's event type "${type}"`,
      });
    }
    items.push({ line: f.line, value: parsed.value });
  }
  const folded = foldLined(items);
  const all = [...problems, ...folded.problems];
  all.sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity));
  return { problems: all, turn: folded.turn, events: folded.applied, heartbeats };
}
