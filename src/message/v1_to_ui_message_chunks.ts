/**
 * v1 envelopes → AI SDK UI message chunks (`ai@7` `UIMessageChunk`s): lets a
 * host serve `useChat` from this protocol. {@link V1ToUIMessageChunks} is the
 * incremental adapter, {@link v1ToUIMessageChunks} the one-shot form; neither
 * throws on bad input: a bad envelope is refused with a typed reason.
 *
 * @module
 */
import { err, ok, type Result } from "../result.ts";
import type {
  ChatEventV1,
  ChatUsage,
  EnvelopeAdmissionRefusal,
  ToolResultEventV1,
} from "../v1/types.ts";
import { convertEnvelopes, EnvelopeIntake } from "./_v1_intake.ts";
import { FINISH_REASONS } from "./_finish_reasons.ts";
import { readOptions } from "../_internal/fields.ts";
import type { UIMessageChunk } from "./chunks.ts";

/**
 * Refusal of one envelope by {@link V1ToUIMessageChunks} (or, from {@link v1ToUIMessageChunks},
 * a report about one): the shared {@link EnvelopeAdmissionRefusal} of every
 * v1 adapter, whose ordering codes mean what they mean in the v1 fold.
 */
export type V1EnvelopeRefusal = EnvelopeAdmissionRefusal;

/** Options of {@link V1ToUIMessageChunks}. */
export interface V1ToChunksOptions {
  /**
   * `messageId` of the `start` chunk (default: the first envelope's
   * `turnId`). Read once; a value that is not a string, or cannot be read,
   * is not used (the default applies).
   */
  messageId?: string;
}

/** `card.correlationId` if it reads (once) as a non-empty string. */
function readCardId(card: unknown): string | undefined {
  try {
    const id = (card as { correlationId?: unknown }).correlationId;
    return typeof id === "string" && id.length > 0 ? id : undefined;
  } catch {
    return undefined;
  }
}

function toolOutput(e: ToolResultEventV1): unknown {
  if (e.output !== undefined) return e.output;
  if (e.summary === undefined && e.blocks === undefined) return null;
  const o: Record<string, unknown> = {};
  if (e.summary !== undefined) o.summary = e.summary;
  if (e.blocks !== undefined) o.blocks = e.blocks;
  return o;
}

/**
 * v1 envelopes → AI SDK UI message chunks, incrementally.
 *
 * Mapping: the first envelope opens `start` + `start-step`; `delta` →
 * `text-start` / `text-delta` (`text-end` when something else follows);
 * `reasoning` → `reasoning-*` likewise; `tool_call` → `tool-input-available`
 * (a call without `input` gets `{}`: the AI SDK requires an input; a
 * `tool_result` whose call was never announced gets the same call first);
 * `tool_result` → `tool-output-available` (`output`, or `{summary, blocks}`,
 * or `null`) / `tool-output-error` (`errorText` = summary, or
 * `"tool failed"`); content after a tool result opens a new step
 * (`finish-step` + `start-step`); `tool_progress` → transient
 * `data-tool_progress`; `card` / `card_closed` → a `data-card` part keyed by
 * correlation id; `state` → a `data-state` part (id `state`); `session` /
 * `provenance` → `message-metadata`; `navigate` → transient `data-navigate`;
 * `turn_status` → transient `data-turn_status` (plus `abort` when
 * cancelled); `error` → `error` + `finish` (`finishReason: "error"`);
 * `done` → `finish-step` + `finish` (`finishReason` = `stopReason` when it is
 * an AI SDK reason, else `stop`; usage as `messageMetadata.usage`).
 *
 * Each envelope is validated with the v1 parser (`parseChatEnvelope`); an
 * invalid one, an envelope of another turn or conversation, a `seq` that is
 * not the next one (`duplicate`, `reordered`, `gap`: the v1 fold's ordering
 * rules; the first envelope must have `seq` 1), or anything new after a
 * terminal event is refused (nothing emitted).
 * {@link V1ToUIMessageChunks.resync} converts an envelope after a gap
 * knowingly.
 *
 * @example
 * ```ts
 * import { V1ToUIMessageChunks } from "@papercusp/chat-protocol/ai-sdk";
 * declare const envelopes: unknown[];
 * declare const writer: { write(chunk: unknown): void };
 * const adapter = new V1ToUIMessageChunks();
 * for (const envelope of envelopes) {
 *   const r = adapter.push(envelope);
 *   if (r.ok) for (const chunk of r.value) writer.write(chunk);
 * }
 * for (const chunk of adapter.end()) writer.write(chunk);
 * ```
 */
export class V1ToUIMessageChunks {
  #messageId: string | undefined;
  readonly #intake = new EnvelopeIntake("turn");
  #ended = false;
  #text: string | undefined;
  #reasoning: string | undefined;
  #n = 0;
  #afterResult = false;
  #tools = new Map<string, string>();
  #cards = new Map<string, unknown>();

  /** Create an adapter (see the class documentation for the mapping). */
  constructor(options: V1ToChunksOptions = {}) {
    const o = readOptions(options, ["messageId"] as const);
    if (o !== null && typeof o.messageId === "string") this.#messageId = o.messageId;
  }

  #close(out: UIMessageChunk[]): void {
    if (this.#text !== undefined) out.push({ type: "text-end", id: this.#text });
    if (this.#reasoning !== undefined) out.push({ type: "reasoning-end", id: this.#reasoning });
    this.#text = undefined;
    this.#reasoning = undefined;
  }

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

  /** Convert one envelope. Never throws. */
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
    const admitted = this.#intake.admit(envelope, this.#ended, resync);
    if (!admitted.ok) return admitted;
    const env = admitted.value;
    // a card is opaque data, kept by reference: read its correlation id once,
    // before anything changes (a getter may throw or answer differently now)
    let cardId: string | undefined;
    if (env.event.type === "card") {
      cardId = readCardId(env.event.card);
      if (cardId === undefined) {
        return err({
          code: "invalid-envelope",
          message: "the card's correlationId could not be read again as a non-empty string",
        });
      }
    }
    const out: UIMessageChunk[] = [];
    if (this.#intake.turnId === undefined) {
      out.push({ type: "start", messageId: this.#messageId ?? env.turnId }, { type: "start-step" });
    }
    this.#intake.accept(env);
    const e = env.event as ChatEventV1;
    switch (e.type) {
      case "delta":
        this.#stream("text", e.text, out);
        break;
      case "reasoning":
        this.#stream("reasoning", e.text, out);
        break;
      case "tool_call":
        this.#content(out);
        this.#close(out);
        this.#tools.set(e.callId, e.name);
        out.push({
          type: "tool-input-available",
          toolCallId: e.callId,
          toolName: e.name,
          input: e.input === undefined ? {} : e.input,
        });
        break;
      case "tool_result":
        this.#close(out);
        if (!this.#tools.has(e.callId)) {
          this.#tools.set(e.callId, e.name);
          out.push({
            type: "tool-input-available",
            toolCallId: e.callId,
            toolName: e.name,
            input: {},
          });
        }
        out.push(
          e.ok ? { type: "tool-output-available", toolCallId: e.callId, output: toolOutput(e) } : {
            type: "tool-output-error",
            toolCallId: e.callId,
            errorText: e.summary ?? "tool failed",
          },
        );
        this.#afterResult = true;
        break;
      case "tool_progress": {
        const data: Record<string, unknown> = { callId: e.callId };
        if (e.message !== undefined) data.message = e.message;
        if (e.progress !== undefined) data.progress = e.progress;
        out.push({ type: "data-tool_progress", id: e.callId, data, transient: true });
        break;
      }
      case "card":
        this.#cards.set(cardId as string, e.card);
        out.push({
          type: "data-card",
          id: cardId as string,
          data: { status: "open", card: e.card },
        });
        break;
      case "card_closed": {
        const data: Record<string, unknown> = { status: "closed" };
        const card = this.#cards.get(e.correlationId);
        if (card !== undefined) data.card = card;
        if (e.resolution !== undefined) data.resolution = e.resolution;
        out.push({ type: "data-card", id: e.correlationId, data });
        break;
      }
      case "state":
        out.push({
          type: "data-state",
          id: "state",
          data: { version: e.version, snapshot: e.snapshot },
        });
        break;
      case "session":
        out.push({ type: "message-metadata", messageMetadata: { sessionId: e.sessionId } });
        break;
      case "provenance": {
        const { type: _t, ...prov } = e;
        out.push({ type: "message-metadata", messageMetadata: { provenance: prov } });
        break;
      }
      case "navigate":
        out.push({ type: "data-navigate", data: { href: e.href }, transient: true });
        break;
      case "turn_status": {
        const data: Record<string, unknown> = { status: e.status };
        if (e.reason !== undefined) data.reason = e.reason;
        out.push({ type: "data-turn_status", data, transient: true });
        if (e.status === "cancelled") {
          this.#close(out);
          out.push(
            e.reason !== undefined ? { type: "abort", reason: e.reason } : { type: "abort" },
          );
          this.#ended = true;
        }
        break;
      }
      case "error":
        this.#close(out);
        out.push(
          { type: "error", errorText: e.message },
          { type: "finish-step" },
          { type: "finish", finishReason: "error" },
        );
        this.#ended = true;
        break;
      case "done": {
        this.#close(out);
        const reason = e.stopReason !== undefined && FINISH_REASONS.has(e.stopReason)
          ? e.stopReason as "stop"
          : "stop";
        const finish: UIMessageChunk = e.usage !== undefined
          ? {
            type: "finish",
            finishReason: reason,
            messageMetadata: { usage: e.usage as ChatUsage },
          }
          : { type: "finish", finishReason: reason };
        out.push({ type: "finish-step" }, finish);
        this.#ended = true;
        break;
      }
    }
    return ok(out);
  }

  /**
   * Close the stream: closes open text / reasoning parts. Returns no `finish`
   * when the turn did not end (a consumer then sees an unfinished message,
   * which is the truth).
   */
  end(): UIMessageChunk[] {
    const out: UIMessageChunk[] = [];
    if (!this.#ended) this.#close(out);
    return out;
  }
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
}

/**
 * Convert a whole v1 envelope stream to UI message chunks (see
 * {@link V1ToUIMessageChunks} for the mapping and the per-envelope
 * refusals), with the v1 whole-stream ordering policy (the same verdicts as
 * `foldChatState`): an envelope ahead of a missing `seq` is held (up to
 * 32); a late one within that window is converted in `seq` order and
 * reported `reordered`; a `seq` that never arrives is reported once as `gap`
 * at the first envelope after it, and the conversion goes on. Never throws:
 * a non-iterable `envelopes` is one
 * `invalid-envelope` refusal at index -1 (no chunks); an iterator that throws
 * ends the input with an `invalid-envelope` refusal at the index it could not
 * read, and the envelopes read before it are converted (open parts closed,
 * no `finish` invented).
 *
 * @example
 * ```ts
 * import { v1ToUIMessageChunks } from "@papercusp/chat-protocol/ai-sdk";
 * declare const envelopes: unknown[];
 * const { chunks } = v1ToUIMessageChunks(envelopes);
 * // serve: chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("") + "data: [DONE]\n\n"
 * ```
 */
export function v1ToUIMessageChunks(
  envelopes: Iterable<unknown>,
  options: V1ToChunksOptions = {},
): V1ToChunksResult {
  const { out, refused } = convertEnvelopes(envelopes, new V1ToUIMessageChunks(options));
  return { chunks: out, refused };
}
