/**
 * `inspect` for v1 envelope captures, and the shared step that folds v1
 * envelopes (native or upgraded from legacy frames) with the v1
 * `ChatStateFolder`. A capture may hold several turns (of one or several
 * conversations): each conversation/turn id pair is folded on its own.
 *
 * @module
 */
import { type ChatFoldRefusal, type ChatFoldRefusalCode, ChatStateFolder } from "../v1/fold.ts";
import { Sequencer } from "../v1/_ordering.ts";
import { TURN_END_CARD_RESOLUTION } from "../v1/lifecycle.ts";
import { DEFAULT_MAX_ENVELOPE_BYTES } from "../v1/parse.ts";
import type { ChatEventEnvelope, ChatStateV1 } from "../v1/types.ts";
import { splitTurnText } from "../blocks/split_turn_text.ts";
import { isRecord, own, ownString, utf8ByteLength } from "../_internal/guards.ts";
import { quoteClipped } from "../_internal/describe.ts";
import { isWireId } from "../_internal/id.ts";
import type { CapturedFrame } from "./capture.ts";
import { invalidJsonProblem, parseData } from "./detect.ts";
import {
  type Analysis,
  type AnalyzedTurn,
  type FrameNote,
  pushNote,
  timeOf,
  type TurnBody,
} from "./analysis.ts";
import type { InspectCard, InspectNavigation, InspectProblem, InspectTool } from "./report.ts";

/** Fields of {@link ChatStateV1} that {@link stateToTurn} maps to a named slot. */
const STATE_KEYS = new Set([
  "schemaVersion",
  "conversationId",
  "turnId",
  "status",
  "lastSeq",
  "lastEventId",
  "sessionId",
  "text",
  "reasoning",
  "tools",
  "provenance",
  "openCards",
  "closedCards",
  "state",
  "done",
  "error",
  "statusReason",
]);

/** Fields of a folded tool call that have a named slot in {@link InspectTool}. */
const TOOL_KEYS = new Set([
  "callId",
  "name",
  "status",
  "input",
  "output",
  "summary",
  "progress",
  "progressMessage",
  "blocks",
  "startedSeq",
  "finishedSeq",
]);

/** Own enumerable fields of `obj` whose names are not in `known` (`undefined` when there are none). */
export function extraFields(
  obj: object,
  known: ReadonlySet<string>,
): Record<string, unknown> | undefined {
  let extra: Record<string, unknown> | undefined;
  for (const key of Object.keys(obj)) {
    if (known.has(key)) continue;
    const v = (obj as Record<string, unknown>)[key];
    if (v === undefined) continue;
    (extra ??= {})[key] = v;
  }
  return extra;
}

/**
 * Project a folded {@link ChatStateV1} onto the report's turn shape, every
 * field included: what has no named slot goes to `extra` (a newer fold's
 * fields still show).
 */
export function stateToTurn(state: ChatStateV1): TurnBody {
  const turn: TurnBody = {
    conversationId: state.conversationId,
    turnId: state.turnId,
    status: state.status,
    lastSeq: state.lastSeq,
    lastEventId: state.lastEventId,
    text: state.text,
    segments: splitTurnText(state.text),
    tools: state.tools.map((t) => {
      const tool: InspectTool = { callId: t.callId, name: t.name, status: t.status };
      if (t.input !== undefined) tool.input = t.input;
      if (t.output !== undefined) tool.output = t.output;
      if (t.summary !== undefined) tool.summary = t.summary;
      if (t.progress !== undefined) tool.progress = t.progress;
      if (t.progressMessage !== undefined) tool.progressMessage = t.progressMessage;
      if (t.blocks !== undefined) tool.blocks = t.blocks;
      tool.startedSeq = t.startedSeq;
      if (t.finishedSeq !== undefined) tool.finishedSeq = t.finishedSeq;
      const extra = extraFields(t, TOOL_KEYS);
      if (extra !== undefined) tool.extra = extra;
      return tool;
    }),
    cards: [
      ...state.closedCards.map((c) => {
        const card: InspectCard = { correlationId: c.correlationId, status: "closed" };
        if (c.resolution !== undefined) card.resolution = c.resolution;
        return card;
      }),
      ...state.openCards.map((c): InspectCard => ({
        correlationId: c.correlationId,
        prompt: c.prompt,
        status: "open",
        card: c,
      })),
    ],
    errors: state.error === undefined ? [] : [{ ...state.error }],
    domainEvents: [],
  };
  if (state.statusReason !== undefined) turn.statusReason = state.statusReason;
  if (state.sessionId !== undefined) turn.sessionId = state.sessionId;
  if (state.provenance !== undefined) turn.provenance = state.provenance;
  if (state.reasoning !== "") turn.reasoning = state.reasoning;
  if (state.state !== undefined) turn.state = state.state;
  if (state.done?.stopReason !== undefined) turn.stopReason = state.done.stopReason;
  if (state.done?.usage !== undefined) turn.usage = state.done.usage;
  const extra = extraFields(state, STATE_KEYS) ?? {};
  const doneExtra = state.done === undefined
    ? undefined
    : extraFields(state.done, new Set(["stopReason", "usage"]));
  if (doneExtra !== undefined) extra.done = doneExtra;
  if (Object.keys(extra).length > 0) turn.extra = extra;
  return turn;
}

/**
 * Fold of one turn's lined envelopes with the v1 `ChatStateFolder`, under
 * the whole-stream ordering policy every v1 consumer shares (`foldChatState`,
 * the adapters): a reorder window of 32 envelopes, so a swap (1, 3, 2) is
 * one `reordered` and applied in `seq` order, and a lost event is one `gap`,
 * after which the fold goes on. Every refusal becomes a problem on its line
 * (a `gap` is decided up to 32 envelopes later, or at {@link finish}).
 * Envelopes are not kept beyond the window: memory stays proportional to
 * the folded state, not to the capture.
 */
export class LinedFold {
  readonly #folder: ChatStateFolder;
  readonly #sequencer: Sequencer<ChatFoldRefusal>;
  /** The line of each offered value, by offer index. */
  readonly #lines: number[] = [];
  /** The turn index the problems are tagged with (-1: none), by offer index. */
  readonly #turns: number[] = [];
  #problems: InspectProblem[] = [];
  /** Open-card snapshots by correlation id, so a closed card still shows what it asked. */
  readonly #cards = new Map<string, Record<string, unknown>>();
  /** Cards open and tool calls running, in order: what the end of the turn closes or marks. */
  readonly #open = new Set<string>();
  readonly #running = new Set<string>();
  readonly #navigations: InspectNavigation[] = [];
  #finished = false;
  /** Envelopes applied. */
  applied = 0;

  /** Appended to an `unfinished-call` warning (e.g. why a dialect never reports results). */
  readonly #unfinishedNote: string;

  /** A fold of the turn `turnId` of `conversationId`. */
  constructor(conversationId: string, turnId: string, unfinishedNote = "") {
    this.#unfinishedNote = unfinishedNote;
    const folder = new ChatStateFolder(conversationId, turnId);
    this.#folder = folder;
    this.#sequencer = new Sequencer<ChatFoldRefusal>({
      apply: (env, index, resync) => {
        const r = resync ? folder.resync(env) : folder.push(env);
        if (!r.ok) return r.error;
        this.#applied(env, index);
        return null;
      },
      invalid: (_value, e) => ({ code: e.code as ChatFoldRefusalCode, message: e.message }),
    }, {
      conversationId,
      turnId,
      sink: (index, error) => {
        const p: InspectProblem = {
          line: this.#lines[index],
          severity: "error",
          code: error.code,
          message: error.message,
        };
        const turn = this.#turns[index];
        if (turn >= 0) p.turn = turn;
        this.#problems.push(p);
      },
    });
  }

  /** Fold one envelope that starts on `line`; refusals go to `problems`, tagged with `turn` (-1: none). */
  push(line: number, value: unknown, problems: InspectProblem[], turn: number): void {
    const index = this.#lines.length;
    this.#lines.push(line);
    this.#turns.push(turn);
    this.#problems = problems;
    this.#sequencer.offer(value, index);
  }

  #applied(env: ChatEventEnvelope, index: number): void {
    this.applied++;
    const line = this.#lines[index];
    const ev = env.event;
    if (ev.type === "card") {
      this.#cards.set(ev.card.correlationId, ev.card as unknown as Record<string, unknown>);
      this.#open.add(ev.card.correlationId);
    } else if (ev.type === "card_closed") this.#open.delete(ev.correlationId);
    else if (ev.type === "tool_call") this.#running.add(ev.callId);
    else if (ev.type === "tool_result") this.#running.delete(ev.callId);
    else if (ev.type === "navigate") this.#navigations.push({ line, href: ev.href });
    const status = this.#folder.status;
    if (status !== "completed" && status !== "failed" && status !== "cancelled") return;
    // The turn ended with cards open or calls running: the fold closed / marked them.
    const warn = (code: string, message: string) => {
      const p: InspectProblem = { line, severity: "warning", code, message };
      if (this.#turns[index] >= 0) p.turn = this.#turns[index];
      this.#problems.push(p);
    };
    const ended = status === "cancelled" ? "was cancelled" : status;
    for (const id of this.#open) {
      warn(
        "card-closed-by-turn",
        `card ${quoteClipped(id)} was still open when the turn ${ended}: it closes with the ` +
          `turn (resolution ${TURN_END_CARD_RESOLUTION[status as "failed"]})`,
      );
    }
    for (const callId of this.#running) {
      warn(
        "unfinished-call",
        `tool call ${quoteClipped(callId)} had no result when the turn ${ended}: it is marked ` +
          `unfinished${this.#unfinishedNote}`,
      );
    }
    this.#open.clear();
    this.#running.clear();
  }

  /**
   * End of the capture: report the holes still open as `gap` (into the
   * problems list of the last {@link push}) and apply what was held.
   */
  finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#sequencer.end();
  }

  /** The folded turn ({@link finish}ed first). */
  turn(): TurnBody {
    this.finish();
    const turn = stateToTurn(this.#folder.state());
    for (const c of turn.cards) {
      const snapshot = this.#cards.get(c.correlationId);
      if (snapshot === undefined || c.status === "open") continue;
      const prompt = own(snapshot, "prompt");
      if (typeof prompt === "string") c.prompt = prompt;
      c.card = snapshot;
    }
    if (this.#navigations.length > 0) turn.navigations = [...this.#navigations];
    return turn;
  }
}

/** The `no-terminal-event` warning for a turn that is still running at the end of the capture. */
export function noTerminalProblem(turn: number): InspectProblem {
  return {
    line: null,
    turn,
    severity: "warning",
    code: "no-terminal-event",
    message:
      "the capture ends without `done` or `error`: the turn is still running (or was cut off)",
  };
}

/** Own conversation and turn ids of a value that are v1 wire ids, if it has both. */
function turnKey(value: unknown): { conversationId: string; turnId: string } | undefined {
  const conversationId = ownString(value, "conversationId");
  const turnId = ownString(value, "turnId");
  if (!isWireId(conversationId) || !isWireId(turnId)) return undefined;
  return { conversationId, turnId };
}

/** Analyse a capture of v1 envelopes (SSE `data:`, NDJSON lines or array elements). */
export function analyzeV1(frames: readonly CapturedFrame[]): Analysis {
  const problems: InspectProblem[] = [];
  const notes: FrameNote[] = [];
  const folds: LinedFold[] = [];
  const byKey = new Map<string, number>();
  // Refusals of envelopes that name no turn (the ids are what is wrong) before any turn began:
  // every value it gets fails the v1 parser, so its ids never match one.
  const orphan = new LinedFold("(no turn)", "(no turn)");
  let current = -1;
  let heartbeats = 0;
  for (const f of frames) {
    const note = pushNote(notes, f, current, "not JSON");
    if (note === undefined) {
      heartbeats++;
      continue;
    }
    // The bound every consumer using parseChatEnvelopeJson applies by default (SSE lines
    // are already capped at 1 MiB by the SSE parser; NDJSON lines are not).
    if (f.data.length > DEFAULT_MAX_ENVELOPE_BYTES / 3) {
      const bytes = utf8ByteLength(f.data);
      if (bytes > DEFAULT_MAX_ENVELOPE_BYTES) {
        note.type = "too large";
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
    const v = parsed.value;
    const key = turnKey(v);
    let turn = current;
    if (key !== undefined) {
      const k = `${key.conversationId}\u0000${key.turnId}`;
      const known = byKey.get(k);
      if (known === undefined) {
        turn = folds.length;
        byKey.set(k, turn);
        folds.push(new LinedFold(key.conversationId, key.turnId));
      } else {
        turn = known;
        if (current !== -1 && current !== known) {
          problems.push({
            line: f.line,
            turn,
            severity: "warning",
            code: "interleaved-turn",
            message: `turn ${quoteClipped(key.turnId)} resumes after frames of another turn ` +
              "began: one stream carries one turn at a time",
          });
        }
      }
      current = turn;
    }
    note.turn = turn;
    const event = isRecord(v) ? own(v, "event") : undefined;
    const type = isRecord(event) ? own(event, "type") : undefined;
    note.type = typeof type === "string" ? type : "invalid";
    const at = isRecord(v) ? timeOf(own(v, "at")) : undefined;
    if (at !== undefined) note.at = at;
    const seq = isRecord(v) ? own(v, "seq") : undefined;
    if (typeof seq === "number") note.seq = seq;
    const eventId = isRecord(v) ? own(v, "eventId") : undefined;
    if (f.id !== undefined && typeof eventId === "string" && f.id !== eventId) {
      problems.push({
        line: f.line,
        severity: "warning",
        code: "id-mismatch",
        message: `the SSE id ${quoteClipped(f.id)} differs from the envelope's eventId ` +
          `${quoteClipped(eventId)}: a client resuming with Last-Event-ID would send the wrong ` +
          "cursor",
      });
    }
    if (
      f.event !== undefined && f.event !== "message" && typeof type === "string" && f.event !== type
    ) {
      problems.push({
        line: f.line,
        severity: "warning",
        code: "event-name-mismatch",
        message: `the SSE event name ${quoteClipped(f.event)} differs from the envelope's ` +
          `event type ${quoteClipped(type)}`,
      });
    }
    (turn === -1 ? orphan : folds[turn]).push(f.line, v, problems, turn);
  }
  const turns: AnalyzedTurn[] = folds.map((fold, i) => {
    const body = fold.turn();
    // A turn none of whose envelopes was accepted has no lifecycle to judge.
    if (body.status === "running" && fold.applied > 0) problems.push(noTerminalProblem(i));
    return { body, events: fold.applied };
  });
  return { problems, turns, notes, heartbeats, domainEvents: 0 };
}
