/**
 * Adapters between the v1 envelope stream and the AI SDK UI message stream
 * (`ai@7` `UIMessageChunk`s), both ways.
 *
 * v1 → chunks lets a host serve `useChat` from this protocol; chunks → v1
 * lets a host record an AI SDK producer as v1 envelopes with ids it
 * allocates. Both are incremental classes plus one-shot functions; neither
 * throws on bad input: a bad item is refused with a typed reason.
 *
 * @module
 */
import { ok, type Result } from "../result.ts";
import type {
  ChatEventEnvelope,
  ChatEventV1,
  ChatUsage,
  EnvelopeAdmissionRefusal,
  ToolResultEventV1,
} from "../v1/types.ts";
import { convertEnvelopes, describeThrown, EnvelopeIntake } from "./_v1_intake.ts";
import { FINISH_REASONS } from "./_finish_reasons.ts";
import { checkUIMessageChunk, type ChunkIssue, type UIMessageChunk } from "./chunks.ts";

/**
 * Refusal of one envelope by {@link V1ToUIMessageChunks} (or, from {@link v1ToUIMessageChunks},
 * a report about one): the shared {@link EnvelopeAdmissionRefusal} of every
 * v1 adapter, whose ordering codes mean what they mean in the v1 fold.
 */
export type V1EnvelopeRefusal = EnvelopeAdmissionRefusal;

/** Options of {@link V1ToUIMessageChunks}. */
export interface V1ToChunksOptions {
  /** `messageId` of the `start` chunk (default: the first envelope's `turnId`). */
  messageId?: string;
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
    this.#messageId = options.messageId;
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
        this.#cards.set(e.card.correlationId, e.card);
        out.push({
          type: "data-card",
          id: e.card.correlationId,
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
 * at the first envelope after it, and the conversion goes on. Never throws: a non-iterable `envelopes` is one
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
  const { out, refused } = convertEnvelopes(envelopes, new V1ToUIMessageChunks(options ?? {}));
  return { chunks: out, refused };
}

/** Host-supplied identity for envelopes made from chunks. */
export interface V1IdAllocator {
  /** Host-allocated conversation id (non-empty; checked, read for each envelope). */
  conversationId: string;
  /** Host-allocated turn id (non-empty; checked, read for each envelope). */
  turnId: string;
  /**
   * Returns a fresh, non-empty event id, unique within the conversation.
   * Checked: a non-string, an empty string, an id already returned to this
   * adapter, or a throw is refused (see {@link UIMessageChunksToV1}).
   */
  nextEventId(): string;
}

/** Options of {@link UIMessageChunksToV1}. */
export interface ChunksToV1Options {
  /**
   * Set `at` (epoch ms) on each envelope from this clock; omitted by
   * default. Checked like the host's ids: a throw or a value that is not a
   * finite, non-negative number stops the adapter (`invalid-event-id`).
   */
  now?: () => number;
}

/**
 * AI SDK UI message chunks → v1 envelopes with host-allocated ids and `seq`
 * from 1 without gaps.
 *
 * Mapping: `text-delta` → `delta`; `reasoning-delta` → `reasoning`;
 * `tool-input-available` → `tool_call`; `tool-output-available` (final, not
 * `preliminary`) → `tool_result ok`; `tool-output-error` /
 * `tool-input-error` → `tool_result` with `ok: false` and `summary` =
 * `errorText` (a `tool_call` first when none was sent); `tool-output-denied`
 * → `tool_result ok: false`, summary `denied`; a call id the AI SDK reuses
 * in a later step (legal there, not in v1, where call ids are unique per
 * turn) is reported as `unsupported-chunk` for each of its chunks after the
 * first result, so the envelopes stay a valid v1 turn; `error` → `error`
 * (`retryable: false`: a UI chunk carries no retry permission, so none is
 * granted; the `finish` the AI SDK sends after it is expected and ignored);
 * `finish` → `done` (`stopReason` = `finishReason`);
 * `abort` → `turn_status cancelled`. Structural chunks (`start`, steps,
 * `*-start` / `*-end`, `tool-input-start` / `-delta`) map to nothing.
 * Chunks with no v1 event (sources, files, data, metadata, approvals,
 * preliminary outputs) are listed in `issues` as `unsupported-chunk`, never
 * dropped silently. After a terminal event nothing more is emitted.
 *
 * Host ids are checked, not trusted: when `nextEventId()` returns a
 * non-string, an empty string or an id it already returned to this adapter
 * (or throws), when `conversationId` / `turnId` is not a non-empty string,
 * or when `options.now()` throws or returns anything but a finite,
 * non-negative number, the chunk being converted yields no envelope at all
 * (`seq` is not advanced, so the emitted stream stays gapless), an
 * `invalid-event-id` issue is recorded, and the adapter stops: every later
 * chunk is reported as `invalid-event-id` and converted to nothing. The
 * adapter keeps the set of ids it handed out (one string per envelope
 * emitted) to detect a repeat.
 *
 * @example
 * ```ts
 * import { uiMessageChunksToV1 } from "@papercusp/chat-protocol/ai-sdk";
 * declare const chunks: unknown[];
 * let n = 0;
 * const { envelopes, issues } = uiMessageChunksToV1(chunks, {
 *   conversationId: "c1", turnId: "t1", nextEventId: () => `e${++n}`,
 * });
 * ```
 */
export class UIMessageChunksToV1 {
  #seq = 0;
  #ended = false;
  #endedByError = false;
  #index = 0;
  #tools = new Map<string, { name: string; called: boolean; resulted: boolean }>();
  #eventIds = new Set<string>();
  #idFailed = false;
  /** Problems found, each with its chunk index (at most 1 000 kept). */
  readonly issues: ChunkIssue[] = [];

  /** Create an adapter (see the class documentation for the mapping). */
  constructor(readonly ids: V1IdAllocator, readonly options: ChunksToV1Options = {}) {}

  #env(event: ChatEventV1): ChatEventEnvelope {
    // every host-supplied value is read and checked before `seq` moves
    const conversationId = this.#hostId("conversationId");
    const turnId = this.#hostId("turnId");
    const at = this.#clock();
    const env: ChatEventEnvelope = {
      schemaVersion: 1,
      conversationId,
      turnId,
      eventId: this.#nextEventId(),
      seq: ++this.#seq,
      event,
    };
    if (at !== undefined) env.at = at;
    return env;
  }

  #hostId(key: "conversationId" | "turnId"): string {
    let v: unknown;
    try {
      v = this.ids[key];
    } catch (e) {
      throw new EventIdFailure(`reading ${key} threw: ${String(e).slice(0, 200)}`);
    }
    if (typeof v !== "string" || v.length === 0) {
      throw new EventIdFailure(`${key} is not a non-empty string`);
    }
    return v;
  }

  #clock(): number | undefined {
    let at: unknown;
    try {
      const now = this.options.now;
      if (now === undefined) return undefined;
      at = now();
    } catch (e) {
      throw new EventIdFailure(`now() threw: ${String(e).slice(0, 200)}`);
    }
    if (typeof at !== "number" || !Number.isFinite(at) || at < 0) {
      throw new EventIdFailure("now() did not return a finite, non-negative epoch-ms number");
    }
    return at;
  }

  #nextEventId(): string {
    let id: unknown;
    try {
      id = this.ids.nextEventId();
    } catch (e) {
      throw new EventIdFailure(`nextEventId() threw: ${String(e).slice(0, 200)}`);
    }
    if (typeof id !== "string") {
      throw new EventIdFailure(`nextEventId() returned a ${id === null ? "null" : typeof id}`);
    }
    if (id.length === 0) throw new EventIdFailure("nextEventId() returned an empty string");
    if (this.#eventIds.has(id)) {
      throw new EventIdFailure(
        `nextEventId() returned ${JSON.stringify(id.slice(0, 100))} a second time`,
      );
    }
    this.#eventIds.add(id);
    return id;
  }

  #issue(code: ChunkIssue["code"], message: string): void {
    if (this.issues.length < 1_000) this.issues.push({ index: this.#index, code, message });
  }

  /** A chunk that would reuse a call id: v1 call ids are unique per turn. */
  #reused(type: string, callId: string): void {
    this.#issue(
      "unsupported-chunk",
      `${type} reuses tool call ${callId} (v1 call ids are unique per turn)`,
    );
  }

  /**
   * Convert one (untrusted) chunk. Never throws. Returns `[]` (and records
   * an `invalid-event-id` issue) once the host's id allocator has failed.
   */
  push(value: unknown): ChatEventEnvelope[] {
    let out: ChatEventEnvelope[] = [];
    if (this.#idFailed) {
      this.#issue("invalid-event-id", "chunk not converted: the event id allocator failed earlier");
      this.#index++;
      return out;
    }
    const seq = this.#seq;
    try {
      this.#apply(value, out);
    } catch (e) {
      if (e instanceof EventIdFailure) {
        out = [];
        this.#seq = seq;
        this.#idFailed = true;
        this.#issue("invalid-event-id", `${e.message}; nothing more is converted`);
      } else {
        this.#issue("invalid-chunk", `chunk could not be read: ${String(e).slice(0, 200)}`);
      }
    }
    this.#index++;
    return out;
  }

  #apply(value: unknown, out: ChatEventEnvelope[]): void {
    const why = checkUIMessageChunk(value);
    if (why !== null) {
      this.#issue(
        why.endsWith("has no part in this document") ? "unsupported-chunk" : "invalid-chunk",
        why,
      );
      return;
    }
    const c = value as UIMessageChunk;
    if (this.#ended) {
      // the AI SDK closes an errored stream with finish-step + finish (finishReason "error")
      const closing = c.type === "finish-step" || (c.type === "finish" && this.#endedByError);
      if (!closing) this.#issue("orphan-chunk", `${c.type} after the turn ended`);
      return;
    }
    switch (c.type) {
      case "text-delta":
        if (c.delta.length > 0) out.push(this.#env({ type: "delta", text: c.delta }));
        return;
      case "reasoning-delta":
        if (c.delta.length > 0) out.push(this.#env({ type: "reasoning", text: c.delta }));
        return;
      case "tool-input-start": {
        const t = this.#tools.get(c.toolCallId);
        if (t?.called) return this.#reused(c.type, c.toolCallId);
        this.#tools.set(c.toolCallId, { name: c.toolName, called: false, resulted: false });
        return;
      }
      case "tool-input-available": {
        const t = this.#tools.get(c.toolCallId);
        if (t?.called) {
          return this.#issue("orphan-chunk", `tool call ${c.toolCallId} announced twice`);
        }
        this.#tools.set(c.toolCallId, { name: c.toolName, called: true, resulted: false });
        const ev: ChatEventV1 = { type: "tool_call", callId: c.toolCallId, name: c.toolName };
        if (c.input !== undefined) ev.input = c.input;
        out.push(this.#env(ev));
        return;
      }
      case "tool-input-error": {
        const t = this.#tools.get(c.toolCallId);
        if (t?.resulted) return this.#reused(c.type, c.toolCallId);
        if (!t?.called) {
          const ev: ChatEventV1 = { type: "tool_call", callId: c.toolCallId, name: c.toolName };
          if (c.input !== undefined) ev.input = c.input;
          out.push(this.#env(ev));
        }
        const name = t?.called ? t.name : c.toolName;
        this.#tools.set(c.toolCallId, { name, called: true, resulted: true });
        out.push(this.#env({
          type: "tool_result",
          callId: c.toolCallId,
          name,
          ok: false,
          summary: c.errorText,
        }));
        return;
      }
      case "tool-output-available":
      case "tool-output-error":
      case "tool-output-denied": {
        const t = this.#tools.get(c.toolCallId);
        if (t === undefined || !t.called) {
          return this.#issue("orphan-chunk", `${c.type} for unknown tool call ${c.toolCallId}`);
        }
        if (t.resulted) return this.#reused(c.type, c.toolCallId);
        if (c.type !== "tool-output-available" || c.preliminary !== true) t.resulted = true;
        if (c.type === "tool-output-available") {
          if (c.preliminary === true) {
            return this.#issue("unsupported-chunk", "preliminary tool output has no v1 event");
          }
          const ev: ToolResultEventV1 = {
            type: "tool_result",
            callId: c.toolCallId,
            name: t.name,
            ok: true,
          };
          if (c.output !== undefined) ev.output = c.output;
          out.push(this.#env(ev));
        } else {
          out.push(this.#env({
            type: "tool_result",
            callId: c.toolCallId,
            name: t.name,
            ok: false,
            summary: c.type === "tool-output-error" ? c.errorText : "denied",
          }));
        }
        return;
      }
      case "error":
        out.push(this.#env({ type: "error", message: c.errorText, retryable: false }));
        this.#ended = true;
        this.#endedByError = true;
        return;
      case "finish": {
        const ev: ChatEventV1 = { type: "done" };
        if (c.finishReason !== undefined) ev.stopReason = c.finishReason;
        out.push(this.#env(ev));
        this.#ended = true;
        return;
      }
      case "abort": {
        const ev: ChatEventV1 = { type: "turn_status", status: "cancelled" };
        if (c.reason !== undefined) ev.reason = c.reason;
        out.push(this.#env(ev));
        this.#ended = true;
        return;
      }
      case "start":
      case "start-step":
      case "finish-step":
      case "text-start":
      case "text-end":
      case "reasoning-start":
      case "reasoning-end":
      case "tool-input-delta":
        return;
      default:
        this.#issue("unsupported-chunk", `${c.type} has no v1 event`);
    }
  }
}

/** The host's id allocator broke its contract (internal to {@link UIMessageChunksToV1}). */
class EventIdFailure extends Error {}

/** Result of {@link uiMessageChunksToV1}. */
export interface ChunksToV1Result {
  /** The v1 envelopes, `seq` 1, 2, 3, … */
  envelopes: ChatEventEnvelope[];
  /** Problems found, each with its chunk index (at most 1 000 kept). */
  issues: ChunkIssue[];
}

/**
 * Convert a whole chunk stream (see {@link UIMessageChunksToV1} for the
 * mapping). Never throws: when `chunks` is not iterable or its iterator
 * throws, the chunks read so far are converted and an `invalid-chunk` issue
 * is added at the index of the chunk that could not be read.
 */
export function uiMessageChunksToV1(
  chunks: Iterable<unknown>,
  ids: V1IdAllocator,
  options: ChunksToV1Options = {},
): ChunksToV1Result {
  const a = new UIMessageChunksToV1(ids, options ?? {});
  const envelopes: ChatEventEnvelope[] = [];
  let read = 0;
  let failure: string | undefined;
  try {
    for (const c of chunks) {
      for (const e of a.push(c)) envelopes.push(e);
      read++;
    }
  } catch (e) {
    failure = `reading the chunks threw: ${describeThrown(e)}; the rest is not converted`;
  }
  const issues = a.issues.slice();
  if (failure !== undefined) issues.push({ index: read, code: "invalid-chunk", message: failure });
  return { envelopes, issues };
}
