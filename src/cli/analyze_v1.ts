/**
 * `inspect` for v1 envelope captures, and the shared step that folds v1
 * envelopes (native or upgraded from legacy frames) with `foldChatState`.
 *
 * @module
 */
import { ChatStateFolder } from "../v1/fold.ts";
import { DEFAULT_MAX_ENVELOPE_BYTES, parseChatEnvelope, utf8ByteLength } from "../v1/parse.ts";
import type { ChatStateV1 } from "../v1/types.ts";
import { splitTurnText } from "../blocks/split_turn_text.ts";
import type { CapturedFrame } from "./capture.ts";
import { invalidJsonProblem, parseData } from "./detect.ts";
import type { InspectProblem, InspectTurn } from "./report.ts";

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
 * Incremental fold of lined envelopes with the v1 `ChatStateFolder`, the
 * way `foldChatState` does it with `resyncOnGap` (one lost event is reported
 * once, then the fold goes on), turning every refusal into a problem on its
 * line. Envelopes are not kept: memory stays proportional to the folded
 * state, not to the capture.
 */
export class LinedFold {
  #folder: ChatStateFolder | null = null;
  #prompts = new Map<string, string>();
  /** Fold refusals as problems, in push order. */
  readonly problems: InspectProblem[] = [];
  /** Envelopes applied. */
  applied = 0;

  /** Fold one envelope that starts on `line`. */
  push(line: number, value: unknown): void {
    if (this.#folder === null) {
      const p = parseChatEnvelope(value);
      if (p.ok) this.#folder = new ChatStateFolder(p.value.conversationId, p.value.turnId);
    }
    const folder = this.#folder ?? new ChatStateFolder("\0", "\0");
    let r = folder.push(value);
    if (!r.ok) {
      this.#problem(line, r.error.code, r.error.message);
      if (r.error.code === "gap" && this.#folder !== null) {
        r = folder.resync(value);
        if (!r.ok) this.#problem(line, r.error.code, r.error.message);
      }
    }
    if (!r.ok) return;
    this.applied++;
    const ev = r.value.event;
    if (ev.type === "card") this.#prompts.set(ev.card.correlationId, ev.card.prompt);
  }

  #problem(line: number, code: string, message: string): void {
    this.problems.push({ line, severity: "error", code, message });
  }

  /** The folded turn (`null` when no envelope fixed the turn's ids). */
  turn(): InspectTurn | null {
    if (this.#folder === null) return null;
    const turn = stateToTurn(this.#folder.state());
    for (const c of turn.cards) {
      if (c.prompt === undefined && this.#prompts.has(c.correlationId)) {
        c.prompt = this.#prompts.get(c.correlationId);
      }
    }
    if (turn.status === "running") {
      this.problems.push({
        line: null,
        severity: "warning",
        code: "no-terminal-event",
        message:
          "the capture ends without `done` or `error`: the turn is still running (or was cut off)",
      });
    }
    return turn;
  }
}

/** Analyse a capture of v1 envelopes (SSE `data:` or NDJSON lines). */
export function analyzeV1(
  frames: readonly CapturedFrame[],
): { problems: InspectProblem[]; turn: InspectTurn | null; events: number; heartbeats: number } {
  const problems: InspectProblem[] = [];
  const fold = new LinedFold();
  let heartbeats = 0;
  for (const f of frames) {
    if (f.event === "heartbeat") {
      heartbeats++;
      continue;
    }
    // The bound every consumer using parseChatEnvelopeJson applies by default (SSE lines
    // are already capped at 1 MiB by the SSE parser; NDJSON lines are not).
    if (f.data.length > DEFAULT_MAX_ENVELOPE_BYTES / 3) {
      const bytes = utf8ByteLength(f.data);
      if (bytes > DEFAULT_MAX_ENVELOPE_BYTES) {
        problems.push({
          line: f.line,
          severity: "error",
          code: "too-large",
          message: `the envelope is ${bytes} bytes, over the ${DEFAULT_MAX_ENVELOPE_BYTES}-byte ` +
            "bound of parseChatEnvelopeJson: consumers refuse it",
        });
        continue;
      }
    }
    const parsed = parseData(f.data);
    if (parsed === undefined) {
      problems.push(invalidJsonProblem(f, "a v1 frame carries one JSON envelope"));
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
    fold.push(f.line, parsed.value);
  }
  const turn = fold.turn();
  return { problems: [...problems, ...fold.problems], turn, events: fold.applied, heartbeats };
}
