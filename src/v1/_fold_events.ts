/**
 * The v1 fold's one table of event handlers: for each event type, what it
 * does to the open-card count (for the lifecycle), the tool/card identity
 * rules it must pass, and how it changes the folded turn. Adding an event
 * type is one entry here (the mapped type makes a missing one a type error).
 *
 * @module
 */
import { quoteClipped } from "../_internal/describe.ts";
import type { ChatFoldRefusalCode } from "./fold.ts";
import type { TurnFold } from "./_turn_fold.ts";
import { MAX_EXTENSION_STATE_NAMES } from "./limits.ts";
import { validatedCardId } from "./_validate.ts";
import type {
  ChatEventV1,
  ChatEventV1Type,
  ChatUsage,
  ProviderProvenance,
  ToolCallStateV1,
} from "./types.ts";

/** A handler's refusal: the fold adds the envelope's position. */
export interface HandlerRefusal {
  /** The refusal code. */
  readonly code: ChatFoldRefusalCode;
  /** What is wrong. */
  readonly message: string;
  /** Tool refusals: the `callId`. */
  readonly callId?: string;
  /** Card refusals: the `correlationId`. */
  readonly correlationId?: string;
}

/** What one event type does in the fold. */
export interface Handler<E extends ChatEventV1 = ChatEventV1> {
  /** Open cards after the event's own effect on cards (`null`: unchanged). */
  readonly cardsAfter: ((f: TurnFold, e: E) => number) | null;
  /** The tool/card identity rule this event breaks (`null` from it when none; the field `null` when it has none). */
  readonly refuse: ((f: TurnFold, e: E) => HandlerRefusal | null) | null;
  /** Apply the event (only called when nothing refused it). */
  readonly apply: (f: TurnFold, e: E, seq: number) => void;
}

type Handlers = { readonly [K in ChatEventV1Type]: Handler<Extract<ChatEventV1, { type: K }>> };

/**
 * A handler with every field present, in one order: all handlers share one
 * object shape, so the fold's reads of `cardsAfter` / `refuse` / `apply`
 * stay monomorphic (measured: mixed shapes cost ~10% of the fold).
 */
function handler<E extends ChatEventV1>(
  h: {
    cardsAfter?: (f: TurnFold, e: E) => number;
    refuse?: (f: TurnFold, e: E) => HandlerRefusal | null;
    apply: (f: TurnFold, e: E, seq: number) => void;
  },
): Handler<E> {
  return { cardsAfter: h.cardsAfter ?? null, refuse: h.refuse ?? null, apply: h.apply };
}

const q = (id: string) => quoteClipped(id, 64);

/** The running call `callId`, or why a progress/result event cannot apply to it. */
function runningCall(
  f: TurnFold,
  type: "tool_progress" | "tool_result",
  callId: string,
): ToolCallStateV1 | HandlerRefusal {
  const t = f.tool(callId);
  if (t === undefined) {
    return {
      code: "unknown-call",
      message: `${type} for tool call ${q(callId)}, which was never called`,
      callId,
    };
  }
  if (t.status !== "running") {
    return {
      code: "finished-call",
      message: `${type} for tool call ${q(callId)}, which already has its result`,
      callId,
    };
  }
  return t;
}

function isRefusal(x: ToolCallStateV1 | HandlerRefusal): x is HandlerRefusal {
  return "code" in x;
}

/** The handler of every v1 event type. */
export const HANDLERS: Handlers = {
  session: handler({
    apply: (f, e) => {
      f.sessionId = e.sessionId;
    },
  }),
  delta: handler({
    apply: (f, e) => {
      f.text += e.text;
    },
  }),
  reasoning: handler({
    apply: (f, e) => {
      f.reasoning += e.text;
    },
  }),
  tool_call: handler({
    refuse: (f, e) =>
      f.toolIndex.has(e.callId)
        ? {
          code: "duplicate-call",
          message: `tool call ${q(e.callId)} was already called in this turn`,
          callId: e.callId,
        }
        : null,
    apply: (f, e, seq) => {
      const t: ToolCallStateV1 = {
        callId: e.callId,
        name: e.name,
        status: "running",
        startedSeq: seq,
      };
      if (e.input !== undefined) t.input = e.input;
      f.addTool(t);
    },
  }),
  tool_progress: handler({
    refuse: (f, e) => {
      const t = runningCall(f, e.type, e.callId);
      return isRefusal(t) ? t : null;
    },
    apply: (f, e) => {
      const t = { ...f.tool(e.callId)! };
      if (e.progress !== undefined) t.progress = e.progress;
      if (e.message !== undefined) t.progressMessage = e.message;
      f.setTool(t);
    },
  }),
  tool_result: handler({
    refuse: (f, e) => {
      const t = runningCall(f, e.type, e.callId);
      if (isRefusal(t)) return t;
      if (e.name === t.name) return null;
      return {
        code: "call-mismatch",
        message: `tool_result names ${q(e.name)} but call ${q(e.callId)} is ${q(t.name)}`,
        callId: e.callId,
      };
    },
    apply: (f, e, seq) => {
      const t = { ...f.tool(e.callId)! };
      t.status = e.ok ? "ok" : "error";
      if (e.summary !== undefined) t.summary = e.summary;
      if (e.output !== undefined) t.output = e.output;
      if (e.blocks !== undefined) t.blocks = e.blocks;
      t.finishedSeq = seq;
      f.setTool(t);
    },
  }),
  provenance: handler({
    apply: (f, e) => {
      const p: ProviderProvenance = { engine: e.engine, model: e.model };
      if (e.provider !== undefined) p.provider = e.provider;
      if (e.accountRoute !== undefined) p.accountRoute = e.accountRoute;
      f.provenance = Object.freeze(p);
    },
  }),
  card: handler({
    // the id the parser validated, never the card's field read again
    cardsAfter: (f, e) => f.openIndex.size + (f.openIndex.has(validatedCardId(e.card)) ? 0 : 1),
    refuse: (f, e) => {
      const id = validatedCardId(e.card);
      const open = f.openIndex.has(id);
      if (!open && !f.closedIds.has(id)) return null;
      return {
        code: "duplicate-card",
        message: `card ${q(id)} is already ${
          open ? "open" : "closed (an answered card never re-prompts)"
        }`,
        correlationId: id,
      };
    },
    apply: (f, e) => {
      f.openCard(validatedCardId(e.card), e.card);
    },
  }),
  card_closed: handler({
    cardsAfter: (f, e) => f.openIndex.size - (f.openIndex.has(e.correlationId) ? 1 : 0),
    refuse: (f, e) =>
      f.openIndex.has(e.correlationId) ? null : {
        code: "unknown-card",
        message: `card_closed for card ${q(e.correlationId)}, which is not open`,
        correlationId: e.correlationId,
      },
    apply: (f, e) => {
      f.closeCard(e.correlationId, e.resolution);
    },
  }),
  state: handler({
    apply: (f, e) => {
      f.state = Object.freeze({ version: e.version, snapshot: e.snapshot });
    },
  }),
  done: handler({
    apply: (f, e) => {
      const d: { stopReason?: string; usage?: ChatUsage } = {};
      if (e.stopReason !== undefined) d.stopReason = e.stopReason;
      if (e.usage !== undefined) d.usage = Object.freeze({ ...e.usage });
      f.done = Object.freeze(d);
    },
  }),
  error: handler({
    apply: (f, e) => {
      const x: { message: string; code?: string; retryable: boolean; retryAfterMs?: number } = {
        message: e.message,
        retryable: e.retryable,
      };
      if (e.code !== undefined) x.code = e.code;
      if (e.retryAfterMs !== undefined) x.retryAfterMs = e.retryAfterMs;
      f.error = Object.freeze(x);
    },
  }),
  navigate: handler({
    apply: () => {}, // transient: no state
  }),
  turn_status: handler({
    apply: (f, e) => {
      f.statusReason = e.reason;
    },
  }),
  ext: handler({
    refuse: (f, e) =>
      e.channel === "state" && !f.extensionState.has(e.name) &&
        f.extensionState.size >= MAX_EXTENSION_STATE_NAMES
        ? {
          code: "too-many-extensions",
          message: `extension ${q(e.name)} would be state-channel name ${
            MAX_EXTENSION_STATE_NAMES + 1
          } of this turn (at most ${MAX_EXTENSION_STATE_NAMES} are kept)`,
        }
        : null,
    apply: (f, e, seq) => {
      if (e.channel === "state") f.setExtensionState(e.name, Object.freeze({ data: e.data, seq }));
      else if (e.channel !== "transient") {
        f.extensionEvents.push(Object.freeze({ name: e.name, data: e.data, seq }));
      }
    },
  }),
  elided: handler({
    apply: () => {}, // stands for a transient event: no state
  }),
};

const BY_TYPE: ReadonlyMap<string, Handler> = new Map(
  Object.entries(HANDLERS) as [string, Handler][],
);

/**
 * The handler of `type`, from a `Map` (as fast as a `switch` over the
 * sixteen types, measured, and smaller; a keyed read of `HANDLERS[type]` is
 * a megamorphic lookup that cost ~8% of the fold). The mapped type of
 * {@link HANDLERS} keeps the table complete.
 */
export function handlerOf(type: ChatEventV1Type): Handler {
  return BY_TYPE.get(type)!;
}
