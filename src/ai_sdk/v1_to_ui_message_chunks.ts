/**
 * v1 envelopes → AI SDK UI message chunks (`ai@7` `UIMessageChunk`s): lets a
 * host serve `useChat` from this protocol. {@link V1ToUIMessageChunks} is the
 * incremental adapter, {@link v1ToUIMessageChunks} the one-shot form; neither
 * throws on bad input: a bad envelope is refused with a typed reason, and
 * what the AI SDK cannot carry is reported ({@link DroppedEvent}), never
 * dropped silently.
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
import { EnvelopeIntake } from "../_internal/v1_intake.ts";
import { type AdapterSettings, convertWhole, liveTransformer } from "../_internal/adapter_forms.ts";
import { finishReasonOf } from "./_finish_reasons.ts";
import { readOptions } from "../_internal/fields.ts";
import { jsonValueProblem } from "../_internal/json_value.ts";
import { type CardFacts, readCardFacts } from "../_internal/card_facts.ts";
import { TurnText } from "../_internal/turn_text.ts";
import { GATE_TOOL_NAME } from "../message/gate_part.ts";
import type { UIMessageChunk } from "./chunks.ts";
import type { V1AdapterRefusal } from "../v1/v1_adapter_refusal.ts";
import type { DroppedEvent, DropReason } from "../v1/dropped_event.ts";

/**
 * Refusal of one envelope by {@link V1ToUIMessageChunks} (or, from
 * {@link v1ToUIMessageChunks}, a report about one): the shared
 * {@link V1AdapterRefusal} of the v1 adapters, whose codes mean what they
 * mean in the v1 fold.
 */
export type V1EnvelopeRefusal = V1AdapterRefusal;

/** Options of {@link V1ToUIMessageChunks}. */
export interface V1ToChunksOptions {
  /**
   * `messageId` of the `start` chunk (default: the turn id). Read once; a
   * value that is not a string, or cannot be read, is not used (the default
   * applies).
   */
  messageId?: string;
  /**
   * Continue a message a previous response already delivered up to this
   * `seq`: envelopes with `seq ≤ resumeAfterSeq` are applied (the adapter
   * state is rebuilt, so text parts, tool calls and blocks continue
   * correctly) but produce no chunks; the first later envelope opens a
   * fresh `start` (same `messageId`) + `start-step`. Default 0 (emit
   * everything). A value that is not a non-negative safe integer is not
   * used.
   */
  resumeAfterSeq?: number;
  /** Called with every {@link DroppedEvent} (what the AI SDK stream cannot carry), as it happens. */
  onDropped?: (dropped: DroppedEvent) => void;
}

/** A tool call as the adapter tracks it. */
interface ToolEntry {
  /** The approval card gating it, while one is open or after one closed. */
  approvalId?: string;
  /** Its approval was answered with `approved: false`. */
  denied?: boolean;
  /** It has its result. */
  finished?: boolean;
}

/** An open card as the adapter tracks it. */
interface CardEntry {
  readonly facts: CardFacts;
  readonly card: unknown;
  /** `tool`: an approval gating `facts.callId`; `gate`: an approval part of its own; `card`: a question. */
  readonly kind: "tool" | "gate" | "card";
}

const isNonNegInt = (n: unknown): n is number =>
  typeof n === "number" && Number.isSafeInteger(n) && n >= 0;

/**
 * v1 envelopes → AI SDK UI message chunks, incrementally.
 *
 * Every envelope is checked with the v1 fold's own rules (parser, identity,
 * ordering, lifecycle, tool and card identity: {@link V1AdapterRefusal});
 * a refused envelope emits nothing and changes nothing. Mapping:
 *
 * | v1 | AI SDK chunks |
 * |---|---|
 * | first envelope | `start` (`messageId`, `messageMetadata: {conversationId, turnId}`) + `start-step` |
 * | `delta` | turn text through the `<report>` / `<ask>` scanner: text → `text-start` / `text-delta` (`text-end` when something else follows); a valid block → `data-report` / `data-ask` (`{ block }`); an unreadable tag → `data-invalid_block` (`{ tag, reason, raw }`). A partial tag is held back, never sent |
 * | `reasoning` | `reasoning-start` / `-delta` / `-end` |
 * | `tool_call` | `tool-input-available` (an absent `input` is sent as `{}`: the AI SDK requires one) |
 * | `tool_progress` | transient `data-tool_progress` |
 * | `tool_result` ok | `tool-output-available`: `output` (or the `summary`, or `null`), `toolMetadata: { summary, blocks }` (grounded blocks with their opaque source refs) |
 * | `tool_result` failed | `tool-output-error`: `errorText` = `summary` (or `tool failed`), `toolMetadata: { blocks, output }`; after a denied approval: `tool-output-denied` |
 * | `card` (approval, `callId` of a running call) | `tool-approval-request` (`approvalId` = correlation id, `approvalDescriptor` = the card) |
 * | `card` (approval, no gated call) | a `gate` tool part: `tool-input-available` (`toolCallId` = correlation id, `input: { prompt }`) + `tool-approval-request` |
 * | `card` (question) | `data-card` (`{ status: "open", card }`, id = correlation id) |
 * | `card_closed` | approvals: `tool-approval-response` (`approved` = resolution `submitted`; else `reason` = the resolution), a gate part then `tool-output-available` (`null`) or `tool-output-denied`; questions: `data-card` (`status: "closed"`, `resolution`) |
 * | `state` | `data-state` (id `state`) |
 * | `session` / `provenance` | `message-metadata` (`sessionId` / `provenance`) |
 * | `navigate` | transient `data-navigate` |
 * | `ext` | `data-<name>` with each `.` of the name written `__` (`scout.products` → `data-scout__products`), `data` = the event's data: channel `state` with `id` = the name (the AI SDK replaces the part: last write wins), `transient` transient, `event` (or none) appended |
 * | `elided` | transient `data-elided` (`{ of }`) |
 * | `turn_status` | transient `data-turn_status` + `message-metadata` (`status`, `statusReason`); `cancelled`: then `abort` (`reason`), the AI SDK's end of an aborted stream |
 * | `error` | `message-metadata` (`status: "failed"`, `error: { message, code, retryable, retryAfterMs }`) before `error` (a `Chat` stops reading at `error`), then `finish-step` + `finish` (`error`) |
 * | `done` | `finish-step` + `finish`: `finishReason` = the AI SDK reason for `stopReason` (`end_turn` → `stop`, `max_tokens` → `length`, `tool_use` → `tool-calls`, an unknown one → `other`, absent → `stop`), `messageMetadata: { status: "completed", stopReason, usage }` |
 *
 * Status changes also send `message-metadata` `{ status }` (the v1
 * {@link TurnStatus}), so a client reads `cancelled`, `interrupted` or
 * `needs-reconciliation` from the message's metadata. {@link end} closes
 * an unfinished turn in the AI SDK's vocabulary: waiting for input →
 * `finish` (`tool-calls` while an approval is pending, else `other`; the
 * approval part stays `approval-requested`, never a finished turn with a
 * running tool); `interrupted` → `finish` (`interrupted`);
 * `needs-reconciliation` → `finish` (`other`); still running → no `finish`
 * (the message is unfinished, which is the truth).
 *
 * Not carried: the envelope framing (`eventId`, `seq`, `at`; resumption
 * replays the turn instead), and each {@link DroppedEvent} (held-back
 * text at the end of an unfinished turn, a denied call's result content, an
 * approval closed without a resolution, a tool input or output that is not
 * JSON data: `not-json`, the input sent as `{}`, the output as `null`),
 * reported through `onDropped`. The v1 parser already refuses an envelope
 * whose input or output is not JSON data; `not-json` is for a value that
 * changed after parsing (opaque data is kept by reference).
 * {@link V1ToUIMessageChunks.resync} converts an envelope after a gap
 * knowingly.
 *
 * @example
 * ```ts
 * import { V1ToUIMessageChunks } from "@papercusp/chat-protocol/ai-sdk";
 * declare const envelopes: unknown[];
 * declare const writer: { write(chunk: unknown): void };
 * const adapter = new V1ToUIMessageChunks({ onDropped: (d) => console.warn(d.code, d.message) });
 * for (const envelope of envelopes) {
 *   const r = adapter.push(envelope);
 *   if (r.ok) for (const chunk of r.value) writer.write(chunk);
 * }
 * for (const chunk of adapter.end()) writer.write(chunk);
 * ```
 */
export class V1ToUIMessageChunks {
  #messageId: string | undefined;
  readonly #resumeAfter: number;
  readonly #onDropped: ((d: DroppedEvent) => void) | undefined;
  readonly #intake = new EnvelopeIntake("turn");
  #started = false;
  #ended = false;
  #text: string | undefined;
  #reasoning: string | undefined;
  #n = 0;
  #afterResult = false;
  readonly #tools = new Map<string, ToolEntry>();
  readonly #cards = new Map<string, CardEntry>();
  readonly #turnText = new TurnText();
  /** The envelope being converted (for drop reports; unset while muted). */
  #env: ChatEventEnvelope | undefined;
  /** The last envelope converted (for a drop report at the end). */
  #lastEnv: ChatEventEnvelope | undefined;
  /** The event being converted already sent the new status as metadata. */
  #statusSent = false;

  /** Create an adapter (see the class documentation for the mapping). */
  constructor(options: V1ToChunksOptions = {}) {
    const o = readOptions(options, ["messageId", "resumeAfterSeq", "onDropped"] as const);
    if (o !== null && typeof o.messageId === "string") this.#messageId = o.messageId;
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
    const d: DroppedEvent = {
      code,
      message,
      seq: env.seq,
      eventId: env.eventId,
      eventType: env.event.type,
      field,
    };
    try {
      this.#onDropped(d);
    } catch {
      // the host's callback failing must not break the conversion
    }
  }

  #close(out: UIMessageChunk[]): void {
    if (this.#text !== undefined) out.push({ type: "text-end", id: this.#text });
    if (this.#reasoning !== undefined) out.push({ type: "reasoning-end", id: this.#reasoning });
    this.#text = undefined;
    this.#reasoning = undefined;
  }

  /** New content after a tool result opens a new step. */
  #content(out: UIMessageChunk[]): void {
    if (this.#afterResult) {
      this.#close(out);
      out.push({ type: "finish-step" }, { type: "start-step" });
      this.#afterResult = false;
    }
  }

  /** Append `delta` to the open `kind` part (opening one, and closing a part of the other kind, first). */
  #stream(kind: "text" | "reasoning", delta: string, out: UIMessageChunk[]): void {
    this.#content(out);
    if ((kind === "text" ? this.#reasoning : this.#text) !== undefined) this.#close(out);
    let id = kind === "text" ? this.#text : this.#reasoning;
    if (id === undefined) {
      id = `${kind}-${++this.#n}`;
      if (kind === "text") this.#text = id;
      else this.#reasoning = id;
      out.push({ type: `${kind}-start`, id });
    }
    out.push({ type: `${kind}-delta`, id, delta });
  }

  /** Turn text segments → text parts and block data parts. */
  #segments(segs: TurnTextSegment[], out: UIMessageChunk[]): void {
    for (const s of segs) {
      if (s.kind === "text") {
        if (s.text !== "") this.#stream("text", s.text, out);
        continue;
      }
      this.#content(out);
      this.#close(out);
      const id = `${s.kind === "invalid" ? "invalid_block" : s.kind}-${++this.#n}`;
      if (s.kind === "invalid") {
        out.push({
          type: "data-invalid_block",
          id,
          data: { tag: s.tag, reason: s.reason, raw: s.raw },
        });
      } else out.push({ type: `data-${s.kind}`, id, data: { block: s.block } });
    }
  }

  /**
   * Convert one envelope, with the live ordering policy (the v1 fold's
   * `TurnOrder`, as `ChatStateFolder.push`): it never waits, so a `seq`
   * ahead of the next expected one is refused as `gap` at once (nothing
   * changes; {@link resync} applies it knowingly), and one at or below the
   * last applied `seq` is `duplicate` or `reordered`. Never throws.
   */
  push(envelope: unknown): Result<UIMessageChunk[], V1EnvelopeRefusal> {
    return this.#convert(envelope, false);
  }

  /**
   * Like {@link push} but accepts an envelope whose `seq` skips missing ones
   * (every other check still applies): for a consumer that reported the
   * `gap` from `push` and goes on. Never throws.
   */
  resync(envelope: unknown): Result<UIMessageChunk[], V1EnvelopeRefusal> {
    return this.#convert(envelope, true);
  }

  #convert(envelope: unknown, resync: boolean): Result<UIMessageChunk[], V1EnvelopeRefusal> {
    const parsed = this.#intake.parse(envelope);
    if (!parsed.ok) return parsed;
    const env = parsed.value;
    // a card is opaque data, kept by reference: read what is used once,
    // before anything changes (a getter may throw or answer differently now)
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
    const before = this.#intake.status;
    const first = this.#intake.lastSeq === 0;
    const refused = this.#intake.apply(env, resync);
    if (refused !== null) return { ok: false, error: refused };
    const muted = env.seq <= this.#resumeAfter;
    const out: UIMessageChunk[] = [];
    if (!muted && !this.#started) {
      this.#started = true;
      if (!first) {
        // a continuation: the previous response closed its parts and step
        this.#text = undefined;
        this.#reasoning = undefined;
        this.#afterResult = false;
      }
      out.push({
        type: "start",
        messageId: this.#messageId ?? env.turnId,
        messageMetadata: { conversationId: env.conversationId, turnId: env.turnId },
      }, { type: "start-step" });
    }
    this.#env = muted ? undefined : env;
    this.#statusSent = false;
    this.#apply(env.event as ChatEventV1, facts, out);
    const after = this.#intake.status;
    if (after !== before && !this.#statusSent) {
      out.push({ type: "message-metadata", messageMetadata: { status: after } });
    }
    this.#env = undefined;
    this.#lastEnv = env;
    return ok(muted ? [] : out);
  }

  #apply(e: ChatEventV1, facts: CardFacts | null, out: UIMessageChunk[]): void {
    switch (e.type) {
      case "delta":
        this.#segments(this.#turnText.push(e.text), out);
        return;
      case "reasoning":
        this.#stream("reasoning", e.text, out);
        return;
      case "tool_call":
        this.#content(out);
        this.#close(out);
        this.#tools.set(e.callId, {});
        out.push({
          type: "tool-input-available",
          toolCallId: e.callId,
          toolName: e.name,
          input: this.#jsonOr(e.input, "input", e.callId, {}),
        });
        return;
      case "tool_result":
        this.#close(out);
        this.#toolResult(e, out);
        this.#afterResult = true;
        return;
      case "tool_progress": {
        const data: Record<string, unknown> = { callId: e.callId };
        if (e.message !== undefined) data.message = e.message;
        if (e.progress !== undefined) data.progress = e.progress;
        out.push({ type: "data-tool_progress", id: e.callId, data, transient: true });
        return;
      }
      case "card":
        this.#openCard(facts as CardFacts, e.card, out);
        return;
      case "card_closed":
        this.#closeCard(e.correlationId, e.resolution, out);
        return;
      case "state":
        out.push({
          type: "data-state",
          id: "state",
          data: { version: e.version, snapshot: e.snapshot },
        });
        return;
      case "session":
        out.push({ type: "message-metadata", messageMetadata: { sessionId: e.sessionId } });
        return;
      case "provenance": {
        const { type: _t, ...prov } = e;
        out.push({ type: "message-metadata", messageMetadata: { provenance: prov } });
        return;
      }
      case "navigate":
        out.push({ type: "data-navigate", data: { href: e.href }, transient: true });
        return;
      case "ext": {
        // `.` is written `__`: a data part type the AI SDK's UIDataTypes can key (no v1 name has `__`)
        const type = `data-${e.name.replaceAll(".", "__")}` as const;
        if (e.channel === "state") out.push({ type, id: e.name, data: e.data });
        else if (e.channel === "transient") out.push({ type, data: e.data, transient: true });
        else out.push({ type, data: e.data });
        return;
      }
      case "elided":
        out.push({ type: "data-elided", data: { of: e.of }, transient: true });
        return;
      case "turn_status": {
        const data: Record<string, unknown> = { status: e.status };
        if (e.reason !== undefined) data.reason = e.reason;
        out.push({ type: "data-turn_status", data, transient: true });
        const meta: Record<string, unknown> = { status: this.#intake.status };
        if (e.reason !== undefined) meta.statusReason = e.reason;
        this.#statusSent = true;
        if (e.status === "cancelled") {
          this.#finishText(out);
          out.push({ type: "message-metadata", messageMetadata: meta });
          out.push(
            e.reason !== undefined ? { type: "abort", reason: e.reason } : { type: "abort" },
          );
          this.#ended = true;
        } else out.push({ type: "message-metadata", messageMetadata: meta });
        return;
      }
      case "error": {
        this.#finishText(out);
        this.#statusSent = true;
        const error: Record<string, unknown> = { message: e.message, retryable: e.retryable };
        if (e.code !== undefined) error.code = e.code;
        if (e.retryAfterMs !== undefined) error.retryAfterMs = e.retryAfterMs;
        out.push(
          { type: "message-metadata", messageMetadata: { status: "failed", error } },
          { type: "error", errorText: e.message },
          { type: "finish-step" },
          { type: "finish", finishReason: "error" },
        );
        this.#ended = true;
        return;
      }
      case "done": {
        this.#finishText(out);
        this.#statusSent = true;
        const meta: Record<string, unknown> = { status: "completed" };
        if (e.stopReason !== undefined) meta.stopReason = e.stopReason;
        if (e.usage !== undefined) meta.usage = e.usage as ChatUsage;
        out.push({ type: "finish-step" }, {
          type: "finish",
          finishReason: finishReasonOf(e.stopReason) as "stop",
          messageMetadata: meta,
        });
        this.#ended = true;
        return;
      }
    }
  }

  /** The turn ended: what the scanner still holds, then close the parts. */
  #finishText(out: UIMessageChunk[]): void {
    this.#segments(this.#turnText.finish(), out);
    this.#close(out);
  }

  /**
   * `value` when it is JSON data; `fallback` when it is absent, and when it
   * is not JSON data (reported `not-json` for `field`; the parser refuses
   * such data, so only a value that changed after parsing gets here).
   */
  #jsonOr<F>(value: unknown, field: string, callId: string, fallback: F): unknown {
    if (value === undefined) return fallback;
    const bad = jsonValueProblem(value, field);
    if (bad === null) return value;
    this.#drop(
      "not-json",
      field,
      `the ${field} of call ${callId} has ${bad.what} at ${bad.path}, which is not JSON data: ${
        fallback === undefined ? "it is left out" : `${JSON.stringify(fallback)} is sent instead`
      }`,
    );
    return fallback;
  }

  #toolResult(e: ToolResultEventV1, out: UIMessageChunk[]): void {
    const tool = this.#tools.get(e.callId);
    if (tool !== undefined) tool.finished = true;
    if (!e.ok && tool?.denied === true) {
      // the AI SDK's output-denied state carries no output
      for (const field of ["summary", "output", "blocks"] as const) {
        if (e[field] !== undefined) {
          this.#drop(
            "no-peer-field",
            field,
            `the result of denied call ${e.callId} is sent as tool-output-denied, which has no ${field}`,
          );
        }
      }
      out.push({ type: "tool-output-denied", toolCallId: e.callId });
      return;
    }
    const meta: Record<string, unknown> = {};
    if (e.summary !== undefined) meta.summary = e.summary;
    if (e.blocks !== undefined) meta.blocks = e.blocks;
    if (e.ok) {
      const chunk: UIMessageChunk = {
        type: "tool-output-available",
        toolCallId: e.callId,
        output: this.#jsonOr(outputOf(e), "output", e.callId, null),
      };
      if (e.summary !== undefined || e.blocks !== undefined) chunk.toolMetadata = meta;
      out.push(chunk);
      return;
    }
    if (e.output !== undefined) {
      const output = this.#jsonOr(e.output, "output", e.callId, undefined);
      if (output !== undefined) meta.output = output;
    }
    const chunk: UIMessageChunk = {
      type: "tool-output-error",
      toolCallId: e.callId,
      errorText: e.summary ?? "tool failed",
    };
    if (e.blocks !== undefined || e.output !== undefined) {
      delete meta.summary; // it is the errorText
      chunk.toolMetadata = meta;
    }
    out.push(chunk);
  }

  #openCard(facts: CardFacts, card: unknown, out: UIMessageChunk[]): void {
    const gated = facts.approval && facts.callId !== undefined
      ? this.#tools.get(facts.callId)
      : undefined;
    if (gated !== undefined && gated.approvalId === undefined && gated.finished !== true) {
      gated.approvalId = facts.id;
      this.#cards.set(facts.id, { facts, card, kind: "tool" });
      out.push({
        type: "tool-approval-request",
        approvalId: facts.id,
        toolCallId: facts.callId!,
        approvalDescriptor: card,
      });
      return;
    }
    if (facts.approval) {
      this.#content(out);
      this.#close(out);
      this.#cards.set(facts.id, { facts, card, kind: "gate" });
      out.push({
        type: "tool-input-available",
        toolCallId: facts.id,
        toolName: GATE_TOOL_NAME,
        input: { prompt: facts.prompt },
      }, {
        type: "tool-approval-request",
        approvalId: facts.id,
        toolCallId: facts.id,
        approvalDescriptor: card,
      });
      return;
    }
    this.#cards.set(facts.id, { facts, card, kind: "card" });
    out.push({ type: "data-card", id: facts.id, data: { status: "open", card } });
  }

  #closeCard(id: string, resolution: string | undefined, out: UIMessageChunk[]): void {
    const entry = this.#cards.get(id);
    this.#cards.delete(id);
    if (entry === undefined || entry.kind === "card") {
      const data: Record<string, unknown> = { status: "closed" };
      if (entry !== undefined) data.card = entry.card;
      if (resolution !== undefined) data.resolution = resolution;
      out.push({ type: "data-card", id, data });
      return;
    }
    const toolCallId = entry.kind === "tool" ? entry.facts.callId! : id;
    if (resolution === undefined) {
      this.#drop(
        "unknown-outcome",
        "resolution",
        `approval ${id} closed without a resolution: whether it was approved is unknown, so no approval answer is sent`,
      );
      return;
    }
    const approved = resolution === "submitted";
    out.push(
      approved
        ? { type: "tool-approval-response", approvalId: id, approved }
        : { type: "tool-approval-response", approvalId: id, approved, reason: resolution },
    );
    if (entry.kind === "tool") {
      const tool = this.#tools.get(toolCallId);
      if (tool !== undefined && !approved) tool.denied = true;
      return;
    }
    out.push(
      approved
        ? { type: "tool-output-available", toolCallId, output: null }
        : { type: "tool-output-denied", toolCallId },
    );
    this.#afterResult = true;
  }

  /**
   * Close the stream: closes open text / reasoning parts and ends an
   * unfinished turn in the AI SDK's vocabulary (see the class
   * documentation): waiting for input → `finish` (`tool-calls` while an
   * approval is pending, else `other`), `interrupted` → `finish`
   * (`interrupted`), `needs-reconciliation` → `finish` (`other`), each
   * with `messageMetadata: { status }`; still running → no `finish`. Text
   * the scanner still holds (a possible partial tag) is not sent but
   * reported as `held-text`. Returns `[]` once the turn ended, and when
   * nothing was emitted yet (a continuation that had nothing new).
   */
  end(): UIMessageChunk[] {
    const out: UIMessageChunk[] = [];
    if (this.#ended || !this.#started) return out;
    this.#close(out);
    const status = this.#intake.status;
    const held = this.#turnText.held;
    if (held > 0) {
      this.#drop(
        "held-text",
        "text",
        `${held} characters of turn text are held back (a possible <report>/<ask> tag or an open block) because the turn has not ended`,
        this.#lastEnv,
      );
    }
    if (status === "running") return out;
    let reason: "tool-calls" | "interrupted" | "other" = "other";
    if (status === "interrupted") reason = "interrupted";
    else if (status === "awaiting-input") {
      for (const c of this.#cards.values()) if (c.kind !== "card") reason = "tool-calls";
    }
    out.push({ type: "finish-step" }, {
      type: "finish",
      finishReason: reason,
      messageMetadata: { status },
    });
    return out;
  }
}

function outputOf(e: ToolResultEventV1): unknown {
  if (e.output !== undefined) return e.output;
  return e.summary ?? null;
}

/** Result of {@link v1ToUIMessageChunks}. */
export interface V1ToChunksResult {
  /** The UI message chunks, in order. */
  chunks: UIMessageChunk[];
  /**
   * Refused envelopes, and the ordering reports on applied ones (`gap`,
   * `reordered`), with their 0-based index, sorted by index.
   */
  refused: { index: number; error: V1EnvelopeRefusal }[];
  /** What the AI SDK stream could not carry, in the order found (see {@link DroppedEvent}). */
  dropped: DroppedEvent[];
}

/**
 * Convert a complete v1 envelope stream to UI message chunks (see
 * {@link V1ToUIMessageChunks} for the mapping and the per-envelope
 * refusals), with the whole-stream ordering policy of `foldChatState`: an
 * envelope ahead of a missing `seq` is held (up to 32); a late one within
 * that window is converted in `seq` order and reported `reordered`; a `seq`
 * that never arrives is reported once as `gap` at the first envelope after
 * it, and the conversion goes on. That window is for a complete input; a
 * live stream ({@link V1ToUIMessageChunksStream}, the push form) never
 * waits. Never throws: a non-iterable `envelopes` is one `invalid-envelope`
 * refusal at index -1 (no chunks); an iterator that throws ends the input
 * with an `invalid-envelope` refusal at the index it could not read, and
 * the envelopes read before it are converted (open parts closed, the turn's
 * status carried as in {@link V1ToUIMessageChunks.end}).
 *
 * @example
 * ```ts
 * import { v1ToUIMessageChunks } from "@papercusp/chat-protocol/ai-sdk";
 * declare const envelopes: unknown[];
 * const { chunks, refused, dropped } = v1ToUIMessageChunks(envelopes);
 * // serve: chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("") + "data: [DONE]\n\n"
 * ```
 */
export function v1ToUIMessageChunks(
  envelopes: Iterable<unknown>,
  options: V1ToChunksOptions = {},
): V1ToChunksResult {
  const { out, refused, dropped } = convertWhole(envelopes, options, "messageId", makeV1ToChunks);
  return { chunks: out, refused, dropped };
}

/** The adapter the one-shot and stream forms drive. */
const makeV1ToChunks = (s: AdapterSettings) =>
  new V1ToUIMessageChunks({
    messageId: s.id,
    resumeAfterSeq: s.resumeAfterSeq,
    onDropped: s.onDropped,
  });

/** Options of {@link V1ToUIMessageChunksStream}. */
export interface V1ToChunksStreamOptions extends V1ToChunksOptions {
  /**
   * Called with every refused envelope and its 0-based index in the stream,
   * at once: a `gap` (reported, then the envelope is applied knowingly, so
   * the stream goes on), a late or re-sent envelope (`reordered`,
   * `duplicate`: skipped), and every other refusal.
   */
  onRefused?: (refusal: { index: number; error: V1EnvelopeRefusal }) => void;
}

/**
 * {@link V1ToUIMessageChunks} as a `TransformStream`: v1 envelopes in, AI
 * SDK UI message chunks out, with the live ordering policy of
 * {@link V1ToUIMessageChunks.push} (it never waits): each in-order
 * envelope's chunks are emitted at once; a `seq` ahead of the next expected
 * one is reported as `gap` at once and applied knowingly
 * ({@link V1ToUIMessageChunks.resync}); a late or re-sent envelope
 * (`reordered`, `duplicate`) is reported and skipped. (The one-shot
 * {@link v1ToUIMessageChunks} over a complete input holds up to 32
 * envelopes to reorder instead.) Refusals go to `onRefused`,
 * what the AI SDK cannot carry to `onDropped`; neither is ever thrown, and
 * the stream never errors on bad input. When the input ends, the turn is
 * closed as {@link V1ToUIMessageChunks.end} closes it.
 *
 * @example
 * ```ts
 * import { V1ToUIMessageChunksStream } from "@papercusp/chat-protocol/ai-sdk";
 * declare const envelopes: ReadableStream<unknown>;
 * const chunks = envelopes.pipeThrough(
 *   new V1ToUIMessageChunksStream({ onRefused: (r) => console.warn(r.index, r.error.code) }),
 * );
 * ```
 */
export class V1ToUIMessageChunksStream extends TransformStream<unknown, UIMessageChunk> {
  /** Create the stream (see {@link V1ToChunksStreamOptions}). */
  constructor(options: V1ToChunksStreamOptions = {}) {
    super(liveTransformer(options, "messageId", makeV1ToChunks));
  }
}
