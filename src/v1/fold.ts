/**
 * The v1 fold: an envelope stream → {@link ChatStateV1}, refusing (typed)
 * gaps, duplicates, reordering, frames of a foreign conversation or turn,
 * illegal lifecycle transitions and tool/card identity errors.
 *
 * Linear in the number of events: text is kept as pieces and joined on
 * demand, tool calls and open cards are indexed by id.
 *
 * @module
 */
import { z } from "zod";
import { err, ok, type Refusal, type Result } from "../result.ts";
import type { OpenCardSnapshot } from "../cards/types.ts";
import { type EnvelopeIssue, parseChatEnvelope } from "./parse.ts";
import { isTurnStatus, nextTurnStatus } from "./lifecycle.ts";
import { isFiniteNonNeg, isNonEmpty, RESOLUTIONS, USAGE_KEYS } from "./_guards.ts";
import { isIterable, isRecord } from "../_internal/guards.ts";
import { GroundedBlockSchema } from "./schemas.ts";
import type {
  CardResolution,
  ChatEventEnvelope,
  ChatStateV1,
  ChatUsage,
  ProviderProvenance,
  ToolCallStateV1,
  TurnStatus,
} from "./types.ts";

/**
 * Codes of {@link ChatFoldRefusal}:
 *
 * | code | when |
 * |---|---|
 * | `invalid-envelope`, `unsupported-version`, `unknown-event-type` | the value is not a valid v1 envelope ({@link parseChatEnvelope}) |
 * | `foreign-conversation` / `foreign-turn` | ids differ from the folded turn's |
 * | `duplicate` | `seq ≤ lastSeq` and the `eventId` was already applied: a re-send (after a resume only `lastEventId` is known) |
 * | `reordered` | `seq ≤ lastSeq` with a new `eventId` |
 * | `gap` | `seq > lastSeq + 1` (the first event must have `seq` 1) |
 * | `illegal-transition` | the lifecycle forbids the event (see `nextTurnStatus`), e.g. anything after `done` |
 * | `duplicate-call` | `tool_call` reuses a `callId` already called in this turn |
 * | `unknown-call` | `tool_progress` / `tool_result` for a `callId` never called |
 * | `finished-call` | `tool_progress` / `tool_result` for a call that already has its result |
 * | `call-mismatch` | `tool_result.name` differs from the call's `name` |
 * | `duplicate-card` | `card` with a `correlationId` that is already open, or was closed in this turn (an answered card never re-prompts) |
 * | `unknown-card` | `card_closed` for a card that is not open (refused, not tolerated: it means a lost or foreign frame) |
 * | `invalid-state` | `foldChatState*` only: the `from` state is malformed (index -1) |
 */
export type ChatFoldRefusalCode =
  | "invalid-envelope"
  | "unsupported-version"
  | "unknown-event-type"
  | "foreign-conversation"
  | "foreign-turn"
  | "duplicate"
  | "reordered"
  | "gap"
  | "illegal-transition"
  | "duplicate-call"
  | "unknown-call"
  | "finished-call"
  | "call-mismatch"
  | "duplicate-card"
  | "unknown-card"
  | "invalid-state";

/**
 * A typed refusal of the fold. Besides `code` and `message`, it carries what
 * is known about the refused frame and the reason's specifics.
 */
export interface ChatFoldRefusal extends Refusal<ChatFoldRefusalCode> {
  /** `seq` of the refused envelope, when it was readable. */
  readonly seq?: number;
  /** `eventId` of the refused envelope, when it was readable. */
  readonly eventId?: string;
  /** `event.type` of the refused envelope, when it was readable. */
  readonly eventType?: string;
  /** `gap` / `reordered`: the `seq` the fold expected next. */
  readonly expectedSeq?: number;
  /** `foreign-*`: the id the fold expected. */
  readonly expected?: string;
  /** `foreign-*`, `unsupported-version`, `unknown-event-type`: what was received. */
  readonly received?: unknown;
  /** `illegal-transition`: the status the turn was in. */
  readonly status?: TurnStatus;
  /** Tool refusals: the `callId`. */
  readonly callId?: string;
  /** Card refusals: the `correlationId`. */
  readonly correlationId?: string;
  /** `invalid-envelope`: the validation problems. */
  readonly issues?: readonly EnvelopeIssue[];
}

/** Why {@link ChatStateFolder.from} refused a saved state. */
export interface InvalidStateRefusal extends Refusal<"invalid-state"> {
  /** The first offending field. */
  readonly path: string;
}

/**
 * A fresh {@link ChatStateV1} for a turn that has seen no event: status
 * `running`, `lastSeq` 0, `lastEventId` null, empty text and collections.
 */
export function createChatState(conversationId: string, turnId: string): ChatStateV1 {
  return {
    schemaVersion: 1,
    conversationId,
    turnId,
    status: "running",
    lastSeq: 0,
    lastEventId: null,
    text: "",
    reasoning: "",
    tools: [],
    openCards: [],
    closedCards: [],
  };
}

type Closed = { correlationId: string; resolution?: CardResolution };

function copyTool(t: ToolCallStateV1): ToolCallStateV1 {
  const c: ToolCallStateV1 = {
    callId: t.callId,
    name: t.name,
    status: t.status,
    startedSeq: t.startedSeq,
  };
  if (t.input !== undefined) c.input = t.input;
  if (t.progress !== undefined) c.progress = t.progress;
  if (t.progressMessage !== undefined) c.progressMessage = t.progressMessage;
  if (t.summary !== undefined) c.summary = t.summary;
  if (t.output !== undefined) c.output = t.output;
  if (t.blocks !== undefined) c.blocks = t.blocks;
  if (t.finishedSeq !== undefined) c.finishedSeq = t.finishedSeq;
  return c;
}

/** Position fields of a refusal (built only on the refusal path). */
function where(env: ChatEventEnvelope): { seq: number; eventId: string; eventType: string } {
  return { seq: env.seq, eventId: env.eventId, eventType: env.event.type };
}

/** The `foreign-conversation` / `foreign-turn` refusal for `env`. */
function foreign(
  env: ChatEventEnvelope,
  what: "conversation" | "turn",
  expected: string,
  received: string,
): Result<never, ChatFoldRefusal> {
  return err({
    code: what === "turn" ? "foreign-turn" : "foreign-conversation",
    message: `event ${env.seq} belongs to ${what} ${JSON.stringify(received)}, not ${
      JSON.stringify(expected)
    }`,
    ...where(env),
    expected,
    received,
  });
}

/** A fresh, validated tool call state, or the path suffix of its first bad field. */
function readSavedTool(v: unknown, lastSeq: number): ToolCallStateV1 | string {
  if (!isRecord(v)) return "";
  const { callId, name, status, startedSeq, finishedSeq } = v;
  if (!isNonEmpty(callId)) return ".callId";
  if (!isNonEmpty(name)) return ".name";
  if (status !== "running" && status !== "ok" && status !== "error") return ".status";
  const isSeq = (n: unknown) =>
    typeof n === "number" && Number.isSafeInteger(n) && n >= 1 && n <= lastSeq;
  if (!isSeq(startedSeq)) return ".startedSeq";
  const t: ToolCallStateV1 = { callId, name, status, startedSeq: startedSeq as number };
  if (status === "running" ? finishedSeq !== undefined : !isSeq(finishedSeq)) {
    return ".finishedSeq";
  }
  if (v.input !== undefined) t.input = v.input;
  if (v.progress !== undefined) {
    const p = v.progress;
    if (typeof p !== "number" || !(p >= 0 && p <= 1)) return ".progress";
    t.progress = p;
  }
  if (v.progressMessage !== undefined) {
    if (typeof v.progressMessage !== "string") return ".progressMessage";
    t.progressMessage = v.progressMessage;
  }
  if (v.summary !== undefined) {
    if (typeof v.summary !== "string") return ".summary";
    t.summary = v.summary;
  }
  if (v.output !== undefined) t.output = v.output;
  if (v.blocks !== undefined) {
    const b = z.array(GroundedBlockSchema).safeParse(v.blocks);
    if (!b.success) return ".blocks";
    t.blocks = b.data;
  }
  if (finishedSeq !== undefined) t.finishedSeq = finishedSeq as number;
  return t;
}

function readSavedProvenance(v: unknown): ProviderProvenance | null {
  if (!isRecord(v) || !isNonEmpty(v.engine) || !isNonEmpty(v.model)) return null;
  const p: ProviderProvenance = { engine: v.engine, model: v.model };
  if (v.provider !== undefined) {
    if (typeof v.provider !== "string") return null;
    p.provider = v.provider;
  }
  if (v.accountRoute !== undefined) {
    if (typeof v.accountRoute !== "string" && v.accountRoute !== null) return null;
    p.accountRoute = v.accountRoute;
  }
  return p;
}

function readSavedDone(v: unknown): { stopReason?: string; usage?: ChatUsage } | null {
  if (!isRecord(v)) return null;
  const d: { stopReason?: string; usage?: ChatUsage } = {};
  if (v.stopReason !== undefined) {
    if (typeof v.stopReason !== "string") return null;
    d.stopReason = v.stopReason;
  }
  if (v.usage !== undefined) {
    const u = v.usage;
    if (!isRecord(u)) return null;
    const usage: ChatUsage = {};
    for (const k of USAGE_KEYS) {
      if (u[k] === undefined) continue;
      if (!isFiniteNonNeg(u[k])) return null;
      usage[k] = u[k];
    }
    d.usage = usage;
  }
  return d;
}

function readSavedError(v: unknown): ChatStateV1["error"] | null {
  if (!isRecord(v) || typeof v.message !== "string" || typeof v.retryable !== "boolean") {
    return null;
  }
  const e: NonNullable<ChatStateV1["error"]> = { message: v.message, retryable: v.retryable };
  if (v.code !== undefined) {
    if (typeof v.code !== "string") return null;
    e.code = v.code;
  }
  if (v.retryAfterMs !== undefined) {
    if (!isFiniteNonNeg(v.retryAfterMs) || !v.retryable) return null;
    e.retryAfterMs = v.retryAfterMs;
  }
  return e;
}

/**
 * Incremental fold of one turn's envelopes into {@link ChatStateV1}.
 *
 * Each {@link push} validates the envelope, checks identity, ordering,
 * lifecycle and tool/card identity, then applies it. A refused envelope
 * leaves the state unchanged. Cost per event is O(1) amortized (plus the
 * size of the event); {@link state} costs O(text + tools + cards).
 *
 * @example
 * ```ts
 * import { ChatStateFolder } from "@papercusp/chat-protocol";
 * const folder = new ChatStateFolder("c1", "t1");
 * const base = { schemaVersion: 1, conversationId: "c1", turnId: "t1" } as const;
 * folder.push({ ...base, eventId: "e1", seq: 1, event: { type: "delta", text: "Hel" } });
 * folder.push({ ...base, eventId: "e2", seq: 2, event: { type: "delta", text: "lo" } });
 * const r = folder.push({ ...base, eventId: "e9", seq: 9, event: { type: "done" } });
 * // r.ok === false, r.error.code === "gap"; folder.state().text === "Hello"
 * ```
 */
export class ChatStateFolder {
  readonly #conversationId: string;
  readonly #turnId: string;
  #status: TurnStatus = "running";
  #lastSeq = 0;
  #lastEventId: string | null = null;
  /** eventIds of the applied events, in order (cheap to append). */
  #ids: string[] = [];
  /** Built from `#ids` on the first `seq ≤ lastSeq`, then kept up to date (see `#wasApplied`). */
  #seen: Set<string> | null = null;
  #sessionId: string | undefined;
  #text: string[] = [];
  #reasoning: string[] = [];
  #tools: ToolCallStateV1[] = [];
  #toolIndex = new Map<string, ToolCallStateV1>();
  #provenance: ProviderProvenance | undefined;
  #openCards = new Map<string, OpenCardSnapshot>();
  #closedCards: Closed[] = [];
  /** correlationIds of `#closedCards`, so a closed card is never opened again. */
  #closedIds = new Set<string>();
  #state: { version: number; snapshot: unknown } | undefined;
  #done: { stopReason?: string; usage?: ChatUsage } | undefined;
  #error: ChatStateV1["error"];
  #statusReason: string | undefined;

  /** Start folding the turn `turnId` of conversation `conversationId` (no event seen yet). */
  constructor(conversationId: string, turnId: string) {
    this.#conversationId = conversationId;
    this.#turnId = turnId;
  }

  /**
   * Resume from a saved {@link ChatStateV1} (e.g. persisted after
   * `state()`), validating it first. The next accepted `seq` is
   * `lastSeq + 1`. Only `lastEventId` is remembered of the applied event ids,
   * so a re-sent older event is reported as `reordered`, not `duplicate`.
   *
   * A saved state is refused (`invalid-state`, naming the first offending
   * field in `path`) unless it is one the fold could have produced:
   * - every field has its {@link ChatStateV1} type, with the same
   *   constraints as the events it folds (non-empty ids, `progress` 0..1,
   *   a boolean `error.retryable`, known card resolutions, finite usage…);
   *   an optional field that is present must be valid (never silently dropped);
   * - tool `callId`s are unique, and so are card `correlationId`s across
   *   `openCards` and `closedCards` together; `startedSeq` / `finishedSeq`
   *   are within `1..lastSeq`, and a tool has a `finishedSeq` exactly when it
   *   is no longer `running`;
   * - `lastEventId` is `null` exactly when `lastSeq` is 0;
   * - the status agrees with the rest: `awaiting-input` has open cards,
   *   `running` and `completed` have none; `done` is present exactly when
   *   `completed`, `error` exactly when `failed`.
   *
   * The folder keeps fresh copies of the saved state's structure (opaque
   * data such as tool `input`/`output`, cards and `state.snapshot` is kept
   * by reference, as in {@link ChatStateFolder.push}). Never throws.
   */
  static from(state: ChatStateV1): Result<ChatStateFolder, InvalidStateRefusal> {
    try {
      return ChatStateFolder.#fromUnsafe(state);
    } catch {
      // Only reachable through hostile objects (throwing getters, revoked proxies).
      return err({
        code: "invalid-state",
        message: "saved state: reading it threw",
        path: "",
      });
    }
  }

  static #fromUnsafe(state: ChatStateV1): Result<ChatStateFolder, InvalidStateRefusal> {
    const bad = (path: string, what: string) =>
      err({ code: "invalid-state" as const, message: `saved state: ${path} ${what}`, path });
    if (!isRecord(state)) return bad("", "must be an object");
    const s = state as unknown as Record<string, unknown>;
    if (s.schemaVersion !== 1) return bad("schemaVersion", "must be 1");
    if (!isNonEmpty(s.conversationId)) return bad("conversationId", "must be a non-empty string");
    if (!isNonEmpty(s.turnId)) return bad("turnId", "must be a non-empty string");
    if (!isTurnStatus(s.status)) return bad("status", "must be a turn status");
    const lastSeq = s.lastSeq;
    if (typeof lastSeq !== "number" || !Number.isSafeInteger(lastSeq) || lastSeq < 0) {
      return bad("lastSeq", "must be a non-negative integer");
    }
    if (lastSeq === 0 ? s.lastEventId !== null : !isNonEmpty(s.lastEventId)) {
      return bad(
        "lastEventId",
        lastSeq === 0 ? "must be null when lastSeq is 0" : "must be a non-empty string",
      );
    }
    if (typeof s.text !== "string") return bad("text", "must be a string");
    if (typeof s.reasoning !== "string") return bad("reasoning", "must be a string");
    if (!Array.isArray(s.tools)) return bad("tools", "must be an array");
    if (!Array.isArray(s.openCards)) return bad("openCards", "must be an array");
    if (!Array.isArray(s.closedCards)) return bad("closedCards", "must be an array");
    const status = s.status;
    const f = new ChatStateFolder(s.conversationId, s.turnId);
    f.#status = status;
    f.#lastSeq = lastSeq;
    f.#lastEventId = s.lastEventId as string | null;
    if (f.#lastEventId !== null) f.#ids.push(f.#lastEventId);
    if (s.text !== "") f.#text.push(s.text);
    if (s.reasoning !== "") f.#reasoning.push(s.reasoning);
    for (let i = 0; i < s.tools.length; i++) {
      const t = readSavedTool(s.tools[i], lastSeq);
      if (typeof t === "string") return bad(`tools.${i}${t}`, "is not a valid tool call state");
      if (f.#toolIndex.has(t.callId)) return bad(`tools.${i}.callId`, "is repeated");
      f.#tools.push(t);
      f.#toolIndex.set(t.callId, t);
    }
    for (let i = 0; i < s.openCards.length; i++) {
      const c = s.openCards[i];
      if (
        !isRecord(c) || !isNonEmpty(c.correlationId) || typeof c.prompt !== "string" ||
        typeof c.createdAt !== "number" || !Number.isFinite(c.createdAt)
      ) {
        return bad(`openCards.${i}`, "must be a card (correlationId, prompt, createdAt)");
      }
      if (f.#openCards.has(c.correlationId)) {
        return bad(`openCards.${i}.correlationId`, "is repeated");
      }
      f.#openCards.set(c.correlationId, c as unknown as OpenCardSnapshot);
    }
    for (let i = 0; i < s.closedCards.length; i++) {
      const c = s.closedCards[i];
      if (!isRecord(c) || !isNonEmpty(c.correlationId)) {
        return bad(`closedCards.${i}`, "must be a closed card");
      }
      const resolution = c.resolution;
      if (resolution !== undefined && !RESOLUTIONS.has(resolution as string)) {
        return bad(`closedCards.${i}.resolution`, "must be a card resolution");
      }
      if (f.#closedIds.has(c.correlationId)) {
        return bad(`closedCards.${i}.correlationId`, "is repeated (a card closes once)");
      }
      if (f.#openCards.has(c.correlationId)) {
        return bad(`closedCards.${i}.correlationId`, "is also an open card");
      }
      f.#closedIds.add(c.correlationId);
      f.#closedCards.push(
        resolution === undefined
          ? { correlationId: c.correlationId }
          : { correlationId: c.correlationId, resolution: resolution as CardResolution },
      );
    }
    if (s.sessionId !== undefined) {
      if (!isNonEmpty(s.sessionId)) return bad("sessionId", "must be a non-empty string");
      f.#sessionId = s.sessionId;
    }
    if (s.provenance !== undefined) {
      const p = readSavedProvenance(s.provenance);
      if (p === null) return bad("provenance", "must be a provider provenance");
      f.#provenance = p;
    }
    if (s.state !== undefined) {
      const st = s.state;
      if (
        !isRecord(st) || typeof st.version !== "number" || !Number.isSafeInteger(st.version) ||
        st.version < 0
      ) {
        return bad("state", "must be { version: non-negative integer, snapshot }");
      }
      f.#state = { version: st.version, snapshot: st.snapshot };
    }
    if (s.done !== undefined) {
      const d = readSavedDone(s.done);
      if (d === null) return bad("done", "must be { stopReason?: string, usage?: usage }");
      f.#done = d;
    }
    if (s.error !== undefined) {
      const e = readSavedError(s.error);
      if (e === null) {
        return bad("error", "must be { message, code?, retryable: boolean, retryAfterMs? }");
      }
      f.#error = e;
    }
    if (s.statusReason !== undefined) {
      if (typeof s.statusReason !== "string") return bad("statusReason", "must be a string");
      f.#statusReason = s.statusReason;
    }
    // The status must agree with what the fold would have produced.
    const open = f.#openCards.size;
    if (status === "awaiting-input" && open === 0) {
      return bad("status", "is awaiting-input but no card is open");
    }
    if ((status === "running" || status === "completed") && open > 0) {
      return bad("status", `is ${status} but cards are open`);
    }
    if ((status === "completed") !== (f.#done !== undefined)) {
      return bad("done", status === "completed" ? "is missing" : "is only allowed when completed");
    }
    if ((status === "failed") !== (f.#error !== undefined)) {
      return bad("error", status === "failed" ? "is missing" : "is only allowed when failed");
    }
    return ok(f);
  }

  /** The conversation this folder accepts. */
  get conversationId(): string {
    return this.#conversationId;
  }
  /** The turn this folder accepts. */
  get turnId(): string {
    return this.#turnId;
  }
  /** The current status. */
  get status(): TurnStatus {
    return this.#status;
  }
  /** `seq` of the last applied event (0 before any). */
  get lastSeq(): number {
    return this.#lastSeq;
  }

  /**
   * Validate and apply one envelope. Returns the validated (fresh, stripped)
   * envelope, or a {@link ChatFoldRefusal}; a refused envelope changes
   * nothing. Never throws.
   *
   * Checks, in order (the first failing one is reported):
   * 1. the contract ({@link parseChatEnvelope}): `invalid-envelope`,
   *    `unsupported-version`, `unknown-event-type`;
   * 2. identity: `foreign-conversation`, then `foreign-turn`;
   * 3. ordering: `duplicate` (seq ≤ lastSeq, eventId already applied),
   *    `reordered` (seq ≤ lastSeq, new eventId), `gap` (seq > lastSeq + 1).
   *    Ordering is keyed on `seq`: an eventId reused under a new, in-order
   *    `seq` is not detected here (unique ids are the host's allocation
   *    duty, see {@link ChatEventEnvelope});
   * 4. lifecycle (`nextTurnStatus`): `illegal-transition`, so a re-sent
   *    `done` is a `duplicate` but any new event after `done` is illegal;
   * 5. tool and card identity: `duplicate-call`, `unknown-call`,
   *    `finished-call`, `call-mismatch`, `duplicate-card`, `unknown-card`.
   */
  push(value: unknown): Result<ChatEventEnvelope, ChatFoldRefusal> {
    return this.#apply(value, false);
  }

  /**
   * Like {@link push} but accepts `seq > lastSeq + 1`, knowingly skipping the
   * missing events (every other check still applies). For tolerant
   * consumers (e.g. an inspector) that reported the `gap` from `push` and
   * want to go on.
   */
  resync(value: unknown): Result<ChatEventEnvelope, ChatFoldRefusal> {
    return this.#apply(value, true);
  }

  #apply(value: unknown, acceptGap: boolean): Result<ChatEventEnvelope, ChatFoldRefusal> {
    const parsed = parseChatEnvelope(value);
    if (!parsed.ok) {
      const e = parsed.error;
      const base: Record<string, unknown> = { code: e.code, message: e.message };
      if ("issues" in e) base.issues = e.issues;
      if ("received" in e) base.received = e.received;
      try {
        if (isRecord(value)) {
          const seq = value.seq, eventId = value.eventId;
          if (typeof seq === "number") base.seq = seq;
          if (typeof eventId === "string") base.eventId = eventId;
        }
      } catch {
        // A hostile value (throwing getter, revoked proxy): its position is unknown.
      }
      return err(base as unknown as ChatFoldRefusal);
    }
    const env = parsed.value;
    const { seq, eventId, event } = env;
    if (env.conversationId !== this.#conversationId) {
      return foreign(env, "conversation", this.#conversationId, env.conversationId);
    }
    if (env.turnId !== this.#turnId) return foreign(env, "turn", this.#turnId, env.turnId);
    const expectedSeq = this.#lastSeq + 1;
    if (seq < expectedSeq && this.#wasApplied(eventId)) {
      return err({
        code: "duplicate",
        message: `event ${JSON.stringify(eventId)} (seq ${seq}) was already applied`,
        ...where(env),
        expectedSeq,
      });
    }
    if (seq < expectedSeq) {
      return err({
        code: "reordered",
        message: `event seq ${seq} arrived after seq ${this.#lastSeq} (expected ${expectedSeq})`,
        ...where(env),
        expectedSeq,
      });
    }
    if (seq > expectedSeq && !acceptGap) {
      return err({
        code: "gap",
        message: `event seq ${seq} skips ${
          seq - expectedSeq === 1 ? `seq ${expectedSeq}` : `seq ${expectedSeq}–${seq - 1}`
        }`,
        ...where(env),
        expectedSeq,
      });
    }

    // Lifecycle first: after a terminal status nothing else matters.
    const open = this.#openCards;
    let openAfter = open.size;
    if (event.type === "card" && !open.has(event.card.correlationId)) openAfter++;
    if (event.type === "card_closed" && open.has(event.correlationId)) openAfter--;
    const next = nextTurnStatus(this.#status, event, openAfter);
    if (next === null) {
      return err({
        code: "illegal-transition",
        message: `${event.type}${
          event.type === "turn_status" ? `(${event.status})` : ""
        } is not allowed while the turn is ${this.#status}`,
        ...where(env),
        status: this.#status,
      });
    }

    // Tool and card identity.
    switch (event.type) {
      case "tool_call":
        if (this.#toolIndex.has(event.callId)) {
          return err({
            code: "duplicate-call",
            message: `tool call ${JSON.stringify(event.callId)} was already called in this turn`,
            ...where(env),
            callId: event.callId,
          });
        }
        break;
      case "tool_progress":
      case "tool_result": {
        const t = this.#toolIndex.get(event.callId);
        if (t === undefined) {
          return err({
            code: "unknown-call",
            message: `${event.type} for tool call ${
              JSON.stringify(event.callId)
            }, which was never called`,
            ...where(env),
            callId: event.callId,
          });
        }
        if (t.status !== "running") {
          return err({
            code: "finished-call",
            message: `${event.type} for tool call ${
              JSON.stringify(event.callId)
            }, which already has its result`,
            ...where(env),
            callId: event.callId,
          });
        }
        if (event.type === "tool_result" && event.name !== t.name) {
          return err({
            code: "call-mismatch",
            message: `tool_result names ${JSON.stringify(event.name)} but call ${
              JSON.stringify(event.callId)
            } is ${JSON.stringify(t.name)}`,
            ...where(env),
            callId: event.callId,
          });
        }
        break;
      }
      case "card":
        if (open.has(event.card.correlationId) || this.#closedIds.has(event.card.correlationId)) {
          return err({
            code: "duplicate-card",
            message: `card ${JSON.stringify(event.card.correlationId)} is already ${
              open.has(event.card.correlationId)
                ? "open"
                : "closed (an answered card never re-prompts)"
            }`,
            ...where(env),
            correlationId: event.card.correlationId,
          });
        }
        break;
      case "card_closed":
        if (!open.has(event.correlationId)) {
          return err({
            code: "unknown-card",
            message: `card_closed for card ${
              JSON.stringify(event.correlationId)
            }, which is not open`,
            ...where(env),
            correlationId: event.correlationId,
          });
        }
        break;
    }

    // Apply (nothing below can refuse).
    switch (event.type) {
      case "session":
        this.#sessionId = event.sessionId;
        break;
      case "delta":
        if (event.text !== "") this.#text.push(event.text);
        break;
      case "reasoning":
        if (event.text !== "") this.#reasoning.push(event.text);
        break;
      case "tool_call": {
        const t: ToolCallStateV1 = {
          callId: event.callId,
          name: event.name,
          status: "running",
          startedSeq: seq,
        };
        if (event.input !== undefined) t.input = event.input;
        this.#tools.push(t);
        this.#toolIndex.set(t.callId, t);
        break;
      }
      case "tool_progress": {
        const t = this.#toolIndex.get(event.callId)!;
        if (event.progress !== undefined) t.progress = event.progress;
        if (event.message !== undefined) t.progressMessage = event.message;
        break;
      }
      case "tool_result": {
        const t = this.#toolIndex.get(event.callId)!;
        t.status = event.ok ? "ok" : "error";
        if (event.summary !== undefined) t.summary = event.summary;
        if (event.output !== undefined) t.output = event.output;
        if (event.blocks !== undefined) t.blocks = event.blocks;
        t.finishedSeq = seq;
        break;
      }
      case "provenance": {
        const p: ProviderProvenance = { engine: event.engine, model: event.model };
        if (event.provider !== undefined) p.provider = event.provider;
        if (event.accountRoute !== undefined) p.accountRoute = event.accountRoute;
        this.#provenance = p;
        break;
      }
      case "card":
        open.set(event.card.correlationId, event.card);
        break;
      case "card_closed":
        open.delete(event.correlationId);
        this.#closedIds.add(event.correlationId);
        this.#closedCards.push(
          event.resolution === undefined
            ? { correlationId: event.correlationId }
            : { correlationId: event.correlationId, resolution: event.resolution },
        );
        break;
      case "state":
        this.#state = { version: event.version, snapshot: event.snapshot };
        break;
      case "done": {
        const d: { stopReason?: string; usage?: ChatUsage } = {};
        if (event.stopReason !== undefined) d.stopReason = event.stopReason;
        if (event.usage !== undefined) d.usage = event.usage;
        this.#done = d;
        break;
      }
      case "error": {
        const e: NonNullable<ChatStateV1["error"]> = {
          message: event.message,
          retryable: event.retryable,
        };
        if (event.code !== undefined) e.code = event.code;
        if (event.retryAfterMs !== undefined) e.retryAfterMs = event.retryAfterMs;
        this.#error = e;
        break;
      }
      case "turn_status":
        this.#statusReason = event.reason;
        break;
      case "navigate":
        break; // transient: no state
    }
    this.#status = next;
    this.#lastSeq = seq;
    this.#lastEventId = eventId;
    this.#ids.push(eventId);
    if (this.#seen !== null) this.#seen.add(eventId);
    return ok(env);
  }

  /**
   * Whether `eventId` was applied. The set of ids is built only when first
   * needed (a re-sent or reordered event), so an in-order stream never pays
   * for hashing every id: a hash set that outgrows the CPU caches was the one
   * part of the fold that grew faster than linearly.
   */
  #wasApplied(eventId: string): boolean {
    if (this.#seen === null) this.#seen = new Set(this.#ids);
    return this.#seen.has(eventId);
  }

  /**
   * A JSON-serialisable snapshot of the folded turn. Fresh arrays and tool
   * objects (mutating it does not affect the folder); opaque data (`input`,
   * `output`, `snapshot`, cards) is shared by reference.
   */
  state(): ChatStateV1 {
    if (this.#text.length > 1) this.#text = [this.#text.join("")];
    if (this.#reasoning.length > 1) this.#reasoning = [this.#reasoning.join("")];
    const s = createChatState(this.#conversationId, this.#turnId);
    s.status = this.#status;
    s.lastSeq = this.#lastSeq;
    s.lastEventId = this.#lastEventId;
    if (this.#sessionId !== undefined) s.sessionId = this.#sessionId;
    s.text = this.#text[0] ?? "";
    s.reasoning = this.#reasoning[0] ?? "";
    s.tools = this.#tools.map(copyTool);
    if (this.#provenance !== undefined) s.provenance = { ...this.#provenance };
    s.openCards = [...this.#openCards.values()];
    s.closedCards = this.#closedCards.map((c) => ({ ...c }));
    if (this.#state !== undefined) s.state = { ...this.#state };
    if (this.#done !== undefined) s.done = { ...this.#done };
    if (this.#error !== undefined) s.error = { ...this.#error };
    if (this.#statusReason !== undefined) s.statusReason = this.#statusReason;
    return s;
  }
}

/** A fold refusal with the position of the refused value in the input. */
export interface IndexedFoldRefusal {
  /** 0-based index of the refused value in the input sequence. */
  readonly index: number;
  /** The refusal. */
  readonly error: ChatFoldRefusal;
}

/** Options of {@link foldChatState} and {@link foldChatStateStrict}. */
export interface FoldChatStateOptions {
  /** Resume from this saved state (its ids are then the expected ones). */
  from?: ChatStateV1;
  /** Expected conversation id; default: the first valid envelope's. */
  conversationId?: string;
  /** Expected turn id; default: the first valid envelope's. */
  turnId?: string;
  /**
   * `foldChatState` only: after reporting a `gap`, apply the envelope anyway
   * (see {@link ChatStateFolder.resync}) so that one lost event does not make
   * every later one a gap. Default `false`.
   */
  resyncOnGap?: boolean;
}

/** What {@link foldChatState} returns. */
export interface FoldChatStateReport {
  /** The folded state; `null` when no valid envelope fixed the ids (and no `from`/ids were given). */
  readonly state: ChatStateV1 | null;
  /** Every refusal, in input order, with its index. Empty when the stream is clean. */
  readonly refusals: readonly IndexedFoldRefusal[];
  /** Number of envelopes applied. */
  readonly applied: number;
}

const NOT_ITERABLE = "the envelopes are not an iterable (e.g. an array)";

function makeFolder(
  options: FoldChatStateOptions | undefined,
): Result<ChatStateFolder | null, InvalidStateRefusal> {
  if (options?.from !== undefined) return ChatStateFolder.from(options.from);
  if (options?.conversationId !== undefined && options?.turnId !== undefined) {
    return ok(new ChatStateFolder(options.conversationId, options.turnId));
  }
  return ok(null);
}

function inferFolder(
  value: unknown,
  options: FoldChatStateOptions | undefined,
): ChatStateFolder | null {
  const p = parseChatEnvelope(value);
  if (!p.ok) return null;
  return new ChatStateFolder(
    options?.conversationId ?? p.value.conversationId,
    options?.turnId ?? p.value.turnId,
  );
}

/**
 * Fold a whole stream, collecting **every** refusal with its position: for
 * inspectors and CLIs. Refused envelopes are skipped (state unchanged);
 * with `resyncOnGap` a gap is reported once and the fold goes on. Never
 * throws on bad data (an invalid `from` state gives `state: null` and one
 * `invalid-state` refusal at index -1; `envelopes` that is not iterable, one
 * `invalid-envelope` refusal at index -1); an exception thrown by the
 * caller's own iterator propagates.
 *
 * @example
 * ```ts
 * import { foldChatState } from "@papercusp/chat-protocol";
 * const lines = ["{\"schemaVersion\":1,\"conversationId\":\"c\",\"turnId\":\"t\",\"eventId\":\"e1\",\"seq\":1,\"event\":{\"type\":\"done\"}}"];
 * const { state, refusals } = foldChatState(lines.map((l) => JSON.parse(l)), { resyncOnGap: true });
 * for (const r of refusals) console.log(`#${r.index}: ${r.error.code} ${r.error.message}`);
 * console.log(state?.status); // "completed"
 * ```
 */
export function foldChatState(
  envelopes: Iterable<unknown>,
  options?: FoldChatStateOptions,
): FoldChatStateReport {
  if (!isIterable(envelopes)) {
    return {
      state: null,
      refusals: [{ index: -1, error: { code: "invalid-envelope", message: NOT_ITERABLE } }],
      applied: 0,
    };
  }
  const made = makeFolder(options);
  if (!made.ok) {
    return {
      state: null,
      refusals: [{ index: -1, error: { code: "invalid-state", message: made.error.message } }],
      applied: 0,
    };
  }
  let folder = made.value;
  const refusals: IndexedFoldRefusal[] = [];
  let applied = 0;
  let index = 0;
  for (const value of envelopes) {
    if (folder === null) folder = inferFolder(value, options);
    const r = folder === null ? new ChatStateFolder("\0", "\0").push(value) : folder.push(value);
    if (r.ok) applied++;
    else {
      refusals.push({ index, error: r.error });
      if (r.error.code === "gap" && options?.resyncOnGap === true && folder !== null) {
        const again = folder.resync(value);
        if (again.ok) applied++;
        else refusals.push({ index, error: again.error });
      }
    }
    index++;
  }
  return { state: folder === null ? null : folder.state(), refusals, applied };
}

/**
 * Fold a whole stream strictly: the first refusal stops the fold and is
 * returned with its index. For consumers that must not render a turn with
 * problems. An empty stream with no `from`/ids is refused `invalid-envelope`
 * (index 0), `envelopes` that is not iterable too (index -1), an invalid
 * `from` state `invalid-state` (index -1).
 */
export function foldChatStateStrict(
  envelopes: Iterable<unknown>,
  options?: Omit<FoldChatStateOptions, "resyncOnGap">,
): Result<ChatStateV1, ChatFoldRefusal & { readonly index: number }> {
  if (!isIterable(envelopes)) {
    return err({ code: "invalid-envelope", message: NOT_ITERABLE, index: -1 });
  }
  const made = makeFolder(options);
  if (!made.ok) {
    return err({ code: "invalid-state", message: made.error.message, index: -1 });
  }
  let folder = made.value;
  let index = 0;
  for (const value of envelopes) {
    if (folder === null) folder = inferFolder(value, options);
    const r = folder === null ? new ChatStateFolder("\0", "\0").push(value) : folder.push(value);
    if (!r.ok) return err({ ...r.error, index });
    index++;
  }
  if (folder === null) {
    return err({ code: "invalid-envelope", message: "no envelope to fold", index: 0 });
  }
  return ok(folder.state());
}
