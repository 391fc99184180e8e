/**
 * AG-UI as an adapter target: v1 envelopes → AG-UI protocol events
 * (`@ag-ui/core@1.0.0` event shapes, checked in tests against
 * `@ag-ui/core`'s `EventSchemas` and `@ag-ui/client`'s `verifyEvents`).
 *
 * The event types are declared structurally here so the library needs no
 * AG-UI runtime dependency.
 *
 * @module
 */
import { ok, type Result } from "../result.ts";
import type {
  ChatEventEnvelope,
  ChatEventV1,
  ChatUsage,
  ToolResultEventV1,
  TurnStatus,
} from "../v1/types.ts";
import type { TurnTextSegment } from "../blocks/segments.ts";
import { readOptions } from "../_internal/fields.ts";
import { EnvelopeIntake } from "../_internal/v1_intake.ts";
import { type AdapterSettings, convertWhole, liveTransformer } from "../_internal/adapter_forms.ts";
import { type CardFacts, readCardFacts } from "../_internal/card_facts.ts";
import { TurnText } from "../_internal/turn_text.ts";
import type { V1AdapterRefusal } from "../v1/v1_adapter_refusal.ts";
import type { DroppedEvent, DropReason } from "../v1/dropped_event.ts";

/** Fields every AG-UI event may carry (`@ag-ui/core` `BaseEvent`). */
export interface AgUiEventBase {
  /** Epoch milliseconds (an integer): the envelope's `at`. */
  timestamp?: number;
  /** Open metadata (JSON values by key); here: v1 facts the event has no field for. */
  metadata?: Record<string, unknown>;
}

/** One interrupt of an AG-UI `RUN_FINISHED` interrupt outcome (`@ag-ui/core` `Interrupt`). */
export interface AgUiInterrupt {
  /** Unique within the run; a resume entry answers it by this id (here: the card's correlation id). */
  id: string;
  /** An open string: `approval` for an approval card, `input` for any other card. */
  reason: string;
  /** The card's prompt. */
  message?: string;
  /** The tool call an approval gates. */
  toolCallId?: string;
  /** JSON Schema of the answer (the card's `dataSchemaJson`). */
  responseSchema?: Record<string, unknown>;
  /** ISO 8601 expiry (`createdAt + timeoutMs`). */
  expiresAt?: string;
  /** `{ card }`: the whole card snapshot. */
  metadata?: Record<string, unknown>;
}

/** Token counts of a run (`@ag-ui/core` `TokenUsage`; non-negative integers). */
export interface AgUiTokenUsage {
  /** Provider, from the turn's provenance. */
  provider?: string;
  /** Model, from the turn's provenance. */
  model?: string;
  /** Input tokens. */
  inputTokens?: number;
  /** Output tokens. */
  outputTokens?: number;
  /** Total tokens. */
  totalTokens?: number;
}

/** An AG-UI event as produced here: `type` plus the fields of that event. */
export type AgUiEvent =
  & AgUiEventBase
  & (
    | { type: "RUN_STARTED"; threadId: string; runId: string }
    | {
      type: "RUN_FINISHED";
      threadId: string;
      runId: string;
      result?: unknown;
      outcome?:
        | { type: "success" }
        | { type: "cancelled" }
        | { type: "interrupt"; interrupts: AgUiInterrupt[] };
      usage?: AgUiTokenUsage[];
    }
    | { type: "RUN_ERROR"; message: string; code?: string }
    | { type: "TEXT_MESSAGE_START"; messageId: string; role: "assistant" }
    | { type: "TEXT_MESSAGE_CONTENT"; messageId: string; delta: string }
    | { type: "TEXT_MESSAGE_END"; messageId: string }
    | { type: "REASONING_START"; messageId: string }
    | { type: "REASONING_MESSAGE_START"; messageId: string; role: "reasoning" }
    | { type: "REASONING_MESSAGE_CONTENT"; messageId: string; delta: string }
    | { type: "REASONING_MESSAGE_END"; messageId: string }
    | { type: "REASONING_END"; messageId: string }
    | {
      type: "TOOL_CALL_START";
      toolCallId: string;
      toolCallName: string;
      parentMessageId?: string;
    }
    | { type: "TOOL_CALL_ARGS"; toolCallId: string; delta: string }
    | { type: "TOOL_CALL_END"; toolCallId: string }
    | {
      type: "TOOL_CALL_RESULT";
      messageId: string;
      toolCallId: string;
      content: string;
      role: "tool";
    }
    | { type: "STATE_SNAPSHOT"; snapshot: unknown }
    | { type: "CUSTOM"; name: string; value: unknown }
  );

/**
 * Refusal of one envelope by {@link V1ToAgUi} (or, from {@link v1ToAgUiEvents},
 * a report about one): the shared {@link V1AdapterRefusal} of the v1
 * adapters, whose codes mean what they mean in the v1 fold.
 */
export type AgUiRefusal = V1AdapterRefusal;

/** Options of {@link V1ToAgUi}. */
export interface V1ToAgUiOptions {
  /**
   * The run id of `RUN_STARTED` / `RUN_FINISHED` (default: the turn id). A
   * run that continues a turn after an interrupt has the id the client sent
   * in its `RunAgentInput`.
   */
  runId?: string;
  /**
   * Continue a turn a previous run delivered up to this `seq` (the run
   * resuming from an interrupt): envelopes with `seq ≤ resumeAfterSeq` are
   * applied (the adapter state is rebuilt) but produce no events; the first
   * later envelope opens the run (`RUN_STARTED`). Default 0. A value that is
   * not a non-negative safe integer is not used.
   */
  resumeAfterSeq?: number;
  /** Called with every {@link DroppedEvent} (what AG-UI cannot carry), as it happens. */
  onDropped?: (dropped: DroppedEvent) => void;
}

/** An open card as the adapter tracks it. */
interface OpenCard {
  readonly facts: CardFacts;
  readonly card: unknown;
  /** `seq` of the `card` event. */
  readonly seq: number;
  /** The approval gates this running tool call. */
  readonly toolCallId: string | undefined;
}

const isNonNegInt = (n: unknown): n is number =>
  typeof n === "number" && Number.isSafeInteger(n) && n >= 0;

/** JSON text of `v`, or `undefined` when it has none (a `BigInt`, a cycle, a throwing getter, `undefined`). */
function jsonText(v: unknown): string | undefined {
  try {
    return JSON.stringify(v);
  } catch {
    return undefined;
  }
}

const isCount = (n: unknown): n is number =>
  typeof n === "number" && Number.isSafeInteger(n) && n >= 0;

/**
 * v1 envelopes → AG-UI events, incrementally. One v1 turn is one AG-UI run
 * (`threadId` = conversation id, `runId` = turn id unless given).
 *
 * Every envelope is checked with the v1 fold's own rules (parser, identity,
 * ordering, lifecycle, tool and card identity: {@link V1AdapterRefusal});
 * a refused envelope emits nothing and changes nothing. Every event made
 * from an envelope with an integer `at` carries it as `timestamp`. Mapping:
 *
 * | v1 | AG-UI events |
 * |---|---|
 * | first envelope | `RUN_STARTED` |
 * | `delta` | turn text through the `<report>` / `<ask>` scanner: text → `TEXT_MESSAGE_START` / `_CONTENT` (`_END` when something else follows; empty text sends nothing); a valid block → `CUSTOM` `report` / `ask` (`{ block }`); an unreadable tag → `CUSTOM` `invalid_block` (`{ tag, reason, raw }`). A partial tag is held back, never sent |
 * | `reasoning` | `REASONING_START` + `REASONING_MESSAGE_START` / `_CONTENT` (ends likewise) |
 * | `tool_call` | `TOOL_CALL_START` + `TOOL_CALL_ARGS` (the JSON input) + `TOOL_CALL_END` |
 * | `tool_result` | `TOOL_CALL_RESULT`: `content` = the JSON output (or the summary), or `{"ok":false,"summary":…}` for a failure; `metadata: { ok, summary, blocks, output }` (grounded blocks with their opaque source refs) |
 * | `state` | `STATE_SNAPSHOT` (`metadata: { version }`) |
 * | `tool_progress`, `card`, `card_closed`, `session`, `provenance`, `navigate`, `turn_status` (not `cancelled`), `ext`, `elided` | `CUSTOM` named after the v1 event type, `value` = the event's fields (`ext`: `{ name, channel, data }`) |
 * | `done` | `RUN_FINISHED`, outcome `success`, `result: { stopReason, usage }`, `usage` (AG-UI `TokenUsage`, integer counts, with the provenance's provider and model), `metadata: { stopReason }` |
 * | `error` | `RUN_ERROR` (`message`, `code`, `metadata: { retryable, retryAfterMs }`) |
 * | `turn_status: cancelled` | `RUN_FINISHED`, outcome `cancelled` (`metadata: { reason }`) |
 *
 * {@link end} closes an unfinished turn in AG-UI's vocabulary: waiting for
 * input → `RUN_FINISHED` with the `interrupt` outcome, one interrupt per
 * card opened in this run and still open (`id` = correlation id, `reason`
 * `approval` or `input`, `message` = prompt, `toolCallId` of a gated call,
 * `responseSchema`, `expiresAt`, `metadata: { card }`); the client resumes
 * with a new run whose `resume` entries answer them (see
 * `agUiResumeToCardResponses`). `interrupted` / `needs-reconciliation` →
 * `RUN_ERROR` with that `code` (`metadata: { status, recoverable: true }`):
 * the run ended without completing, and the host may recover the turn in
 * a later run. Still running → no run end is invented.
 *
 * An approval card gates a tool call when its `callId` key names a running
 * call of the turn. Not carried (reported through `onDropped`): a tool
 * input or output JSON cannot carry (`not-json`: the args are left out, the
 * content is `null`), an `at` that is not an integer (`no-peer-field`),
 * held-back text at the end of an unfinished turn (`held-text`). The
 * envelope's `eventId` and `seq` are not carried.
 * {@link V1ToAgUi.resync} converts an envelope after a gap knowingly.
 *
 * @example
 * ```ts
 * import { V1ToAgUi } from "@papercusp/chat-protocol/ag-ui";
 * declare const envelopes: unknown[];
 * declare function send(event: unknown): void;
 * const toAgUi = new V1ToAgUi({ onDropped: (d) => console.warn(d.code, d.message) });
 * for (const envelope of envelopes) {
 *   const r = toAgUi.push(envelope);
 *   if (r.ok) for (const event of r.value) send(event);
 * }
 * for (const event of toAgUi.end()) send(event);
 * ```
 */
export class V1ToAgUi {
  #threadId = "";
  #runId: string | undefined;
  readonly #resumeAfter: number;
  readonly #onDropped: ((d: DroppedEvent) => void) | undefined;
  readonly #intake = new EnvelopeIntake("run");
  #started = false;
  #ended = false;
  #text: string | undefined;
  #lastText: string | undefined;
  #reasoning: string | undefined;
  #n = 0;
  readonly #tools = new Set<string>();
  readonly #cards = new Map<string, OpenCard>();
  readonly #turnText = new TurnText();
  #provenance: { provider?: string; model?: string } | undefined;
  #statusReason: string | undefined;
  #env: ChatEventEnvelope | undefined;
  #lastEnv: ChatEventEnvelope | undefined;

  /** Create an adapter (see the class documentation for the mapping). */
  constructor(options: V1ToAgUiOptions = {}) {
    const o = readOptions(options, ["runId", "resumeAfterSeq", "onDropped"] as const);
    if (o !== null && typeof o.runId === "string") this.#runId = o.runId;
    this.#resumeAfter = o !== null && isNonNegInt(o.resumeAfterSeq) ? o.resumeAfterSeq : 0;
    this.#onDropped = o !== null && typeof o.onDropped === "function"
      ? o.onDropped as (d: DroppedEvent) => void
      : undefined;
  }

  /** The turn's v1 status after what was converted (`running` before anything). */
  get status(): TurnStatus {
    return this.#intake.status;
  }

  /** `seq` of the last converted envelope (0 before any). */
  get lastSeq(): number {
    return this.#intake.lastSeq;
  }

  #drop(code: DropReason, field: string, message: string, env = this.#env): void {
    if (this.#onDropped === undefined || env === undefined) return;
    try {
      this.#onDropped({
        code,
        message,
        seq: env.seq,
        eventId: env.eventId,
        eventType: env.event.type,
        field,
      });
    } catch {
      // the host's callback failing must not break the conversion
    }
  }

  #close(out: AgUiEvent[]): void {
    if (this.#text !== undefined) out.push({ type: "TEXT_MESSAGE_END", messageId: this.#text });
    if (this.#reasoning !== undefined) {
      out.push(
        { type: "REASONING_MESSAGE_END", messageId: this.#reasoning },
        { type: "REASONING_END", messageId: this.#reasoning },
      );
    }
    this.#text = undefined;
    this.#reasoning = undefined;
  }

  /**
   * Convert one envelope, with the live ordering policy (the v1 fold's
   * `TurnOrder`, as `ChatStateFolder.push`): it never waits, so a `seq`
   * ahead of the next expected one is refused as `gap` at once (nothing
   * changes; {@link resync} applies it knowingly), and one at or below the
   * last applied `seq` is `duplicate` or `reordered`. Never throws.
   */
  push(envelope: unknown): Result<AgUiEvent[], AgUiRefusal> {
    return this.#convert(envelope, false);
  }

  /**
   * Like {@link push} but accepts an envelope whose `seq` skips missing ones
   * (every other check still applies): for a consumer that reported the
   * `gap` from `push` and goes on. Never throws.
   */
  resync(envelope: unknown): Result<AgUiEvent[], AgUiRefusal> {
    return this.#convert(envelope, true);
  }

  #convert(envelope: unknown, resync: boolean): Result<AgUiEvent[], AgUiRefusal> {
    const parsed = this.#intake.parse(envelope);
    if (!parsed.ok) return parsed;
    const env = parsed.value;
    let facts: CardFacts | null = null;
    if (env.event.type === "card") {
      facts = readCardFacts(env.event.card);
      if (facts === null) {
        return {
          ok: false,
          error: {
            code: "invalid-envelope",
            message: "the card's correlationId could not be read again as a non-empty string",
          },
        };
      }
    }
    const first = this.#intake.lastSeq === 0;
    const refused = this.#intake.apply(env, resync);
    if (refused !== null) return { ok: false, error: refused };
    const muted = env.seq <= this.#resumeAfter;
    const out: AgUiEvent[] = [];
    if (!muted && !this.#started) {
      this.#started = true;
      this.#threadId = env.conversationId;
      this.#runId ??= env.turnId;
      if (!first) {
        this.#text = undefined;
        this.#reasoning = undefined;
      }
      out.push({ type: "RUN_STARTED", threadId: this.#threadId, runId: this.#runId });
    }
    this.#env = muted ? undefined : env;
    this.#apply(env, facts, out);
    this.#env = undefined;
    this.#lastEnv = env;
    if (muted) return ok([]);
    const at = env.at;
    if (at !== undefined) {
      if (Number.isSafeInteger(at)) { for (const e of out) e.timestamp = at; }
      else {this.#drop(
          "no-peer-field",
          "at",
          `at ${at} is not an integer: AG-UI timestamps are`,
          env,
        );}
    }
    return ok(out);
  }

  #apply(env: ChatEventEnvelope, facts: CardFacts | null, out: AgUiEvent[]): void {
    const e = env.event as ChatEventV1;
    switch (e.type) {
      case "delta":
        this.#segments(this.#turnText.push(e.text), out);
        return;
      case "reasoning": {
        if (e.text.length === 0) return;
        if (this.#text !== undefined) this.#close(out);
        if (this.#reasoning === undefined) {
          this.#reasoning = `${env.turnId}:reasoning:${++this.#n}`;
          out.push(
            { type: "REASONING_START", messageId: this.#reasoning },
            { type: "REASONING_MESSAGE_START", messageId: this.#reasoning, role: "reasoning" },
          );
        }
        out.push({ type: "REASONING_MESSAGE_CONTENT", messageId: this.#reasoning, delta: e.text });
        return;
      }
      case "tool_call":
        this.#close(out);
        this.#tools.add(e.callId);
        this.#startTool(e.callId, e.name, e.input, out);
        return;
      case "tool_result":
        this.#close(out);
        this.#tools.delete(e.callId);
        this.#toolResult(env.turnId, e, out);
        return;
      case "state":
        out.push({
          type: "STATE_SNAPSHOT",
          snapshot: e.snapshot,
          metadata: { version: e.version },
        });
        return;
      case "provenance":
        this.#provenance = { provider: e.provider, model: e.model };
        this.#custom(e, out);
        return;
      case "card": {
        const f = facts as CardFacts;
        const gated = f.approval && f.callId !== undefined && this.#tools.has(f.callId)
          ? f.callId
          : undefined;
        this.#cards.set(f.id, { facts: f, card: e.card, seq: env.seq, toolCallId: gated });
        this.#custom(e, out);
        return;
      }
      case "card_closed":
        this.#cards.delete(e.correlationId);
        this.#custom(e, out);
        return;
      case "done": {
        this.#finishText(out);
        const result: Record<string, unknown> = {};
        if (e.stopReason !== undefined) result.stopReason = e.stopReason;
        if (e.usage !== undefined) result.usage = e.usage;
        const ev: AgUiEvent = {
          type: "RUN_FINISHED",
          threadId: this.#threadId,
          runId: this.#runId!,
          result,
          outcome: { type: "success" },
        };
        const usage = this.#usage(e.usage);
        if (usage !== undefined) ev.usage = [usage];
        if (e.stopReason !== undefined) ev.metadata = { stopReason: e.stopReason };
        out.push(ev);
        this.#ended = true;
        return;
      }
      case "error": {
        this.#finishText(out);
        const ev: AgUiEvent = { type: "RUN_ERROR", message: e.message };
        if (e.code !== undefined) ev.code = e.code;
        const metadata: Record<string, unknown> = { retryable: e.retryable };
        if (e.retryAfterMs !== undefined) metadata.retryAfterMs = e.retryAfterMs;
        ev.metadata = metadata;
        out.push(ev);
        this.#ended = true;
        return;
      }
      case "turn_status":
        this.#statusReason = e.reason;
        if (e.status === "cancelled") {
          this.#finishText(out);
          const ev: AgUiEvent = {
            type: "RUN_FINISHED",
            threadId: this.#threadId,
            runId: this.#runId!,
            outcome: { type: "cancelled" },
          };
          if (e.reason !== undefined) ev.metadata = { reason: e.reason };
          out.push(ev);
          this.#ended = true;
          return;
        }
        this.#custom(e, out);
        return;
      default:
        this.#custom(e, out);
    }
  }

  /** A `CUSTOM` event named after the v1 event type, `value` = its other fields. */
  #custom(e: ChatEventV1, out: AgUiEvent[]): void {
    const { type, ...value } = e as unknown as { type: string } & Record<string, unknown>;
    out.push({ type: "CUSTOM", name: type, value });
  }

  #usage(usage: ChatUsage | undefined): AgUiTokenUsage | undefined {
    if (usage === undefined) return undefined;
    const u: AgUiTokenUsage = {};
    if (typeof this.#provenance?.provider === "string") u.provider = this.#provenance.provider;
    if (typeof this.#provenance?.model === "string") u.model = this.#provenance.model;
    let any = false;
    for (const k of ["inputTokens", "outputTokens", "totalTokens"] as const) {
      if (isCount(usage[k])) {
        u[k] = usage[k];
        any = true;
      }
    }
    return any ? u : undefined;
  }

  #segments(segs: TurnTextSegment[], out: AgUiEvent[]): void {
    for (const s of segs) {
      if (s.kind === "text") {
        if (s.text.length === 0) continue;
        if (this.#reasoning !== undefined) this.#close(out);
        if (this.#text === undefined) {
          this.#text = `${this.#env?.turnId ?? this.#runId}:text:${++this.#n}`;
          this.#lastText = this.#text;
          out.push({ type: "TEXT_MESSAGE_START", messageId: this.#text, role: "assistant" });
        }
        out.push({ type: "TEXT_MESSAGE_CONTENT", messageId: this.#text, delta: s.text });
        continue;
      }
      this.#close(out);
      out.push(
        s.kind === "invalid"
          ? {
            type: "CUSTOM",
            name: "invalid_block",
            value: { tag: s.tag, reason: s.reason, raw: s.raw },
          }
          : { type: "CUSTOM", name: s.kind, value: { block: s.block } },
      );
    }
  }

  /** The turn ended: what the scanner still holds, then close the messages. */
  #finishText(out: AgUiEvent[]): void {
    this.#segments(this.#turnText.finish(), out);
    this.#close(out);
  }

  #toolResult(turnId: string, e: ToolResultEventV1, out: AgUiEvent[]): void {
    let content: string | undefined;
    if (e.ok) content = jsonText(e.output !== undefined ? e.output : (e.summary ?? null));
    else content = jsonText({ ok: false, summary: e.summary ?? "tool failed" });
    if (content === undefined) {
      this.#drop(
        "not-json",
        "output",
        `the output of call ${e.callId} cannot be serialized as JSON: the result content is null`,
      );
      content = "null";
    }
    const metadata: Record<string, unknown> = { ok: e.ok };
    if (e.summary !== undefined) metadata.summary = e.summary;
    if (e.blocks !== undefined) metadata.blocks = e.blocks;
    if (!e.ok && e.output !== undefined) metadata.output = e.output;
    out.push({
      type: "TOOL_CALL_RESULT",
      messageId: `${turnId}:tool:${e.callId}`,
      toolCallId: e.callId,
      content,
      role: "tool",
      metadata,
    });
  }

  #startTool(callId: string, name: string, input: unknown, out: AgUiEvent[]): void {
    const start: AgUiEvent = { type: "TOOL_CALL_START", toolCallId: callId, toolCallName: name };
    if (this.#lastText !== undefined) start.parentMessageId = this.#lastText;
    out.push(start);
    if (input !== undefined) {
      const args = jsonText(input);
      if (args === undefined) {
        this.#drop(
          "not-json",
          "input",
          `the input of call ${callId} cannot be serialized as JSON: no TOOL_CALL_ARGS is sent`,
        );
      } else out.push({ type: "TOOL_CALL_ARGS", toolCallId: callId, delta: args });
    }
    out.push({ type: "TOOL_CALL_END", toolCallId: callId });
  }

  /** The interrupts of a run that ends waiting for input (see {@link end}). */
  #interrupts(): AgUiInterrupt[] {
    const open = [...this.#cards.values()];
    const mine = open.filter((c) => c.seq > this.#resumeAfter);
    return (mine.length > 0 ? mine : open).map(({ facts, card, toolCallId }) => {
      const i: AgUiInterrupt = {
        id: facts.id,
        reason: facts.approval ? "approval" : "input",
        message: facts.prompt,
        metadata: { card },
      };
      if (toolCallId !== undefined) i.toolCallId = toolCallId;
      if (facts.dataSchemaJson !== undefined) i.responseSchema = facts.dataSchemaJson;
      if (facts.expiresAt !== undefined) {
        const d = new Date(facts.expiresAt);
        if (Number.isFinite(d.getTime())) i.expiresAt = d.toISOString();
      }
      return i;
    });
  }

  /**
   * End of input: closes open text / reasoning messages and ends an
   * unfinished turn's run in AG-UI's vocabulary (see the class
   * documentation): waiting for input → `RUN_FINISHED` with the
   * `interrupt` outcome; `interrupted` / `needs-reconciliation` →
   * `RUN_ERROR` with that code; still running → no run end is invented.
   * Text the scanner still holds (a possible partial tag) is not sent but
   * reported as `held-text`. Returns `[]` once the run ended, and when
   * nothing was emitted yet.
   */
  end(): AgUiEvent[] {
    const out: AgUiEvent[] = [];
    if (this.#ended || !this.#started) return out;
    this.#close(out);
    const held = this.#turnText.held;
    if (held > 0) {
      this.#drop(
        "held-text",
        "text",
        `${held} characters of turn text are held back (a possible <report>/<ask> tag or an open block) because the turn has not ended`,
        this.#lastEnv,
      );
    }
    const status = this.#intake.status;
    if (status === "awaiting-input" && this.#cards.size > 0) {
      out.push({
        type: "RUN_FINISHED",
        threadId: this.#threadId,
        runId: this.#runId!,
        outcome: { type: "interrupt", interrupts: this.#interrupts() },
      });
    } else if (status === "interrupted" || status === "needs-reconciliation") {
      const metadata: Record<string, unknown> = { status, recoverable: true };
      if (this.#statusReason !== undefined) metadata.statusReason = this.#statusReason;
      out.push({
        type: "RUN_ERROR",
        message: this.#statusReason ?? `the turn is ${status}`,
        code: status,
        metadata,
      });
    } else return out;
    this.#ended = true;
    return out;
  }
}

/** Result of {@link v1ToAgUiEvents}. */
export interface V1ToAgUiResult {
  /** The AG-UI events, in order. */
  events: AgUiEvent[];
  /** Refusals and ordering reports (`gap`, `reordered`) by 0-based index, sorted. */
  refused: { index: number; error: AgUiRefusal }[];
  /** What AG-UI could not carry, in the order found (see {@link DroppedEvent}). */
  dropped: DroppedEvent[];
}

/**
 * Convert a complete v1 envelope stream to AG-UI events (mapping and
 * per-envelope refusals on {@link V1ToAgUi}). Ordering follows
 * `foldChatState` (a window of 32 envelopes: a late one is applied in order
 * and reported `reordered`, a hole never filled is one `gap`); a live
 * stream goes through {@link V1ToAgUiStream}, which never waits. Never
 * throws: input that is not iterable is one `invalid-envelope` refusal at
 * index -1; an iterator that throws is one at the index it failed at, after
 * what it gave was converted and the run ended ({@link V1ToAgUi.end}).
 *
 * @example
 * ```ts
 * import { v1ToAgUiEvents } from "@papercusp/chat-protocol/ag-ui";
 * declare const envelopes: unknown[];
 * const { events, refused, dropped } = v1ToAgUiEvents(envelopes);
 * ```
 */
export function v1ToAgUiEvents(
  envelopes: Iterable<unknown>,
  options: V1ToAgUiOptions = {},
): V1ToAgUiResult {
  const { out, refused, dropped } = convertWhole(envelopes, options, "runId", makeV1ToAgUi);
  return { events: out, refused, dropped };
}

/** The adapter the one-shot and stream forms drive. */
const makeV1ToAgUi = (s: AdapterSettings) =>
  new V1ToAgUi({ runId: s.id, resumeAfterSeq: s.resumeAfterSeq, onDropped: s.onDropped });

/** Options of {@link V1ToAgUiStream}. */
export interface V1ToAgUiStreamOptions extends V1ToAgUiOptions {
  /**
   * Called with every refused envelope and its 0-based index in the stream,
   * at once: a `gap` (reported, then the envelope is applied knowingly, so
   * the stream goes on), a late or re-sent envelope (`reordered`,
   * `duplicate`: skipped), and every other refusal.
   */
  onRefused?: (refusal: { index: number; error: AgUiRefusal }) => void;
}

/**
 * {@link V1ToAgUi} as a `TransformStream`: v1 envelopes in, AG-UI events
 * out, with the live ordering policy of {@link V1ToAgUi.push} (it never
 * waits): each in-order envelope's events are emitted at once; a `seq`
 * ahead of the next expected one is reported as `gap` at once and applied
 * knowingly ({@link V1ToAgUi.resync}); a late or re-sent envelope
 * (`reordered`, `duplicate`) is reported and skipped. (The one-shot
 * {@link v1ToAgUiEvents} over a complete input holds up to 32 envelopes to
 * reorder instead.) Refusals go to `onRefused`, what AG-UI cannot carry to `onDropped`;
 * neither is ever thrown, and the stream never errors on bad input. When
 * the input ends, the run is ended as {@link V1ToAgUi.end} ends it.
 *
 * @example
 * ```ts
 * import { V1ToAgUiStream } from "@papercusp/chat-protocol/ag-ui";
 * declare const envelopes: ReadableStream<unknown>;
 * const events = envelopes.pipeThrough(new V1ToAgUiStream({ runId: "run-2" }));
 * ```
 */
export class V1ToAgUiStream extends TransformStream<unknown, AgUiEvent> {
  /** Create the stream (see {@link V1ToAgUiStreamOptions}). */
  constructor(options: V1ToAgUiStreamOptions = {}) {
    super(liveTransformer(options, "runId", makeV1ToAgUi));
  }
}
