/**
 * AI SDK UI message chunks (`ai@7` `UIMessageChunk`s) → v1 envelopes with
 * host-allocated ids: lets a host record an AI SDK producer as a v1 turn.
 * {@link UIMessageChunksToV1} is the incremental adapter,
 * {@link uiMessageChunksToV1} the one-shot form; neither throws on bad
 * input: every problem is a typed {@link ChunkIssue}.
 *
 * @module
 */
import type { ChatEventEnvelope, ChatEventV1, ToolResultEventV1 } from "../v1/types.ts";
import { describeThrown, quoteClipped } from "../_internal/describe.ts";
import { isIterable, isText } from "../_internal/guards.ts";
import { MAX_STREAM_ITEMS } from "../v1/limits.ts";
import { isWireId } from "../_internal/id.ts";
import { jsonValueCopy } from "../_internal/json_value.ts";
import { type ChunkProblemSlot, readChunk } from "./_chunk_reader.ts";
import { IssueLog } from "./_issue_log.ts";
import type { ChunkIssue, UIMessageChunk } from "./chunks.ts";

/** Host-supplied identity for envelopes made from chunks. */
export interface V1IdAllocator {
  /** Host-allocated conversation id (a v1 wire id; checked; read once, for the first envelope). */
  conversationId: string;
  /** Host-allocated turn id (a v1 wire id; checked; read once, for the first envelope). */
  turnId: string;
  /**
   * Returns a fresh event id (a v1 wire id), unique within the conversation.
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

/** Most issues an adapter keeps (the rest are counted in `droppedIssues`). */
const MAX_ISSUES = 1_000;

/** What a host value read gives: the value, or why it is unusable. */
type HostRead<T> = { readonly ok: true; readonly value: T } | {
  readonly ok: false;
  readonly why: string;
};

function hostFailure(why: string): HostRead<never> {
  return { ok: false, why };
}

type Tool = { name: string; called: boolean; resulted: boolean };

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
 * first result, so the envelopes stay a valid v1 turn; a tool chunk with an
 * empty `toolCallId` or `toolName` (legal in the AI SDK, not in v1) is
 * reported as `invalid-chunk` and converted to nothing; a tool input or
 * output that is not JSON data (a `bigint`, a cycle, a `Map`, a `Date`, …)
 * is reported as `not-json` and its event is sent without it; `error` → `error`
 * (`retryable: false`: a UI chunk carries no retry permission, so none is
 * granted; the `finish` the AI SDK sends after it is expected and ignored);
 * `finish` → `done` (`stopReason` = `finishReason`); `abort` →
 * `turn_status cancelled`. Structural chunks (`start`, steps, `*-start` /
 * `*-end`, `tool-input-start` / `-delta`) map to nothing. Chunks with no v1
 * event (sources, files, data, metadata, approvals, preliminary outputs) are
 * listed in `issues` as `unsupported-chunk`, never dropped silently. A chunk
 * with a bad optional field is converted without it (`invalid-field`).
 * After a terminal event nothing more is emitted. Every envelope emitted
 * passes `parseChatEnvelope`.
 *
 * Host ids are checked, not trusted: when `nextEventId()` returns anything
 * but a v1 wire id (a non-empty string without CR, LF, NUL or a lone
 * surrogate) or an id it already returned to this adapter (or throws,
 * whatever it throws), when `conversationId` / `turnId` is not a wire id (or
 * reading it throws; both are read once, for the first envelope, so every
 * envelope of the turn carries the same ids), or when `options.now()` throws or
 * returns anything but a finite, non-negative number, the chunk being
 * converted yields no envelope at all (`seq` is not advanced, so the emitted
 * stream stays gapless), an `invalid-event-id` issue is recorded, and the
 * adapter stops: every later chunk is reported as `invalid-event-id` and
 * converted to nothing. The adapter keeps the set of ids it handed out (one
 * string per envelope emitted) to detect a repeat.
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
  #tools = new Map<string, Tool>();
  #eventIds = new Set<string>();
  #turnIds: HostRead<{ conversationId: string; turnId: string }> | undefined;
  #stopped = false;
  readonly #read: ChunkProblemSlot = { problem: null };
  readonly #log = new IssueLog(MAX_ISSUES);
  /** Problems found, each with its chunk index (at most 1 000 kept; see {@link droppedIssues}). */
  readonly issues: ChunkIssue[] = this.#log.issues;

  /** Create an adapter (see the class documentation for the mapping). */
  constructor(readonly ids: V1IdAllocator, readonly options: ChunksToV1Options = {}) {}

  /** Issues found beyond the 1 000 kept in {@link issues}. */
  get droppedIssues(): number {
    return this.#log.dropped;
  }

  #issue(index: number, code: ChunkIssue["code"], message: string): void {
    this.#log.add(index, code, message);
  }

  /**
   * Convert one (untrusted) chunk. Never throws. Returns `[]` (and records
   * an `invalid-event-id` issue) once the host's id allocator has failed.
   */
  push(value: unknown): ChatEventEnvelope[] {
    const index = this.#index++;
    if (this.#stopped) {
      this.#issue(
        index,
        "invalid-event-id",
        "chunk not converted: the event id allocator failed earlier",
      );
      return [];
    }
    const chunk = readChunk(value, this.#read);
    const problem = this.#read.problem;
    if (problem !== null) this.#issue(index, problem.code, problem.message);
    if (chunk === null) return [];
    const events = this.#events(chunk, index);
    const out: ChatEventEnvelope[] = [];
    for (const event of events) {
      const env = this.#envelope(event);
      if (!env.ok) {
        // nothing of this chunk is emitted, and seq stays where it was: the stream stays gapless
        this.#seq -= out.length;
        this.#stopped = true;
        this.#issue(index, "invalid-event-id", `${env.why}; nothing more is converted`);
        return [];
      }
      out.push(env.value);
    }
    return out;
  }

  /** Wrap `event` in an envelope with the host's ids and the next `seq`. */
  #envelope(event: ChatEventV1): HostRead<ChatEventEnvelope> {
    // every host-supplied value is read and checked before `seq` moves
    // the turn's ids are read once, for the first envelope: every envelope gets the same
    this.#turnIds ??= this.#readTurnIds();
    const ids = this.#turnIds;
    if (!ids.ok) return ids;
    const at = this.#clock();
    if (!at.ok) return at;
    const eventId = this.#nextEventId();
    if (!eventId.ok) return eventId;
    const env: ChatEventEnvelope = {
      schemaVersion: 1,
      conversationId: ids.value.conversationId,
      turnId: ids.value.turnId,
      eventId: eventId.value,
      seq: ++this.#seq,
      event,
    };
    if (at.value !== undefined) env.at = at.value;
    return { ok: true, value: env };
  }

  /** The host's `conversationId` and `turnId`, each read once and checked. */
  #readTurnIds(): HostRead<{ conversationId: string; turnId: string }> {
    const conversationId = this.#hostId("conversationId");
    if (!conversationId.ok) return conversationId;
    const turnId = this.#hostId("turnId");
    if (!turnId.ok) return turnId;
    return { ok: true, value: { conversationId: conversationId.value, turnId: turnId.value } };
  }

  #hostId(key: "conversationId" | "turnId"): HostRead<string> {
    let v: unknown;
    try {
      v = this.ids[key];
    } catch (e) {
      return hostFailure(`reading ${key} threw: ${describeThrown(e, 200)}`);
    }
    if (!isWireId(v)) {
      return hostFailure(
        `${key} is not a v1 wire id (a non-empty string without CR, LF, NUL or a lone surrogate)`,
      );
    }
    return { ok: true, value: v };
  }

  #clock(): HostRead<number | undefined> {
    let at: unknown;
    try {
      const now = this.options?.now;
      if (now === undefined) return { ok: true, value: undefined };
      at = now();
    } catch (e) {
      return hostFailure(`now() threw: ${describeThrown(e, 200)}`);
    }
    if (typeof at !== "number" || !Number.isFinite(at) || at < 0) {
      return hostFailure("now() did not return a finite, non-negative epoch-ms number");
    }
    return { ok: true, value: at };
  }

  #nextEventId(): HostRead<string> {
    let id: unknown;
    try {
      id = this.ids.nextEventId();
    } catch (e) {
      return hostFailure(`nextEventId() threw: ${describeThrown(e, 200)}`);
    }
    if (typeof id !== "string") {
      return hostFailure(`nextEventId() returned a ${id === null ? "null" : typeof id}`);
    }
    if (!isWireId(id)) {
      return hostFailure(
        "nextEventId() returned no v1 wire id (a non-empty string without CR, LF, NUL or a lone surrogate)",
      );
    }
    if (this.#eventIds.has(id)) {
      return hostFailure(`nextEventId() returned ${quoteClipped(id, 100)} a second time`);
    }
    this.#eventIds.add(id);
    return { ok: true, value: id };
  }

  /**
   * A tool chunk whose ids v1 cannot carry (a call id that is not a v1 wire
   * id, an empty tool name): reported, `true`.
   */
  #badToolIds(index: number, c: { type: string; toolCallId: string; toolName?: string }): boolean {
    const missing = !isWireId(c.toolCallId)
      ? "toolCallId"
      : c.toolName !== undefined && c.toolName.length === 0
      ? "toolName"
      : undefined;
    if (missing === undefined) return false;
    this.#issue(
      index,
      "invalid-chunk",
      missing === "toolName"
        ? `${c.type} has an empty toolName (v1 needs a non-empty one)`
        : `${c.type} has a toolCallId v1 cannot carry (a call id is a non-empty string ` +
          "without CR, LF, NUL or a lone surrogate)",
    );
    return true;
  }

  /**
   * What of `value` (a tool chunk's `input` / `output`) goes into the v1
   * event: a fresh copy read once (so the envelope stays valid v1 whatever
   * its getters do later); `undefined` when absent, and when it is not JSON
   * data (reported `not-json`; the event is sent without it).
   */
  #json(index: number, type: string, field: string, value: unknown): unknown {
    if (value === undefined) return undefined;
    const r = jsonValueCopy(value, field);
    if ("copy" in r) return r.copy;
    this.#issue(
      index,
      "not-json",
      `${type} has ${r.what} at ${r.path}, which is not JSON data: the v1 event is sent without its ${field}`,
    );
    return undefined;
  }

  /** A chunk that would reuse a call id: v1 call ids are unique per turn. */
  #reused(index: number, type: string, callId: string): ChatEventV1[] {
    this.#issue(
      index,
      "unsupported-chunk",
      `${type} reuses tool call ${quoteClipped(callId, 64)} (v1 call ids are unique per turn)`,
    );
    return [];
  }

  /** The v1 events `c` maps to (reporting what it cannot map); updates the tool state. */
  #events(c: UIMessageChunk, index: number): ChatEventV1[] {
    if (this.#ended) {
      // the AI SDK closes an errored stream with finish-step + finish (finishReason "error")
      const closing = c.type === "finish-step" || (c.type === "finish" && this.#endedByError);
      if (!closing) this.#issue(index, "orphan-chunk", `${c.type} after the turn ended`);
      return [];
    }
    switch (c.type) {
      case "text-delta":
        return c.delta.length > 0 ? [{ type: "delta", text: c.delta }] : [];
      case "reasoning-delta":
        return c.delta.length > 0 ? [{ type: "reasoning", text: c.delta }] : [];
      case "tool-input-start": {
        if (this.#tools.get(c.toolCallId)?.called) {
          return this.#reused(index, c.type, c.toolCallId);
        }
        this.#tools.set(c.toolCallId, { name: c.toolName, called: false, resulted: false });
        return [];
      }
      case "tool-input-available": {
        if (this.#badToolIds(index, c)) return [];
        if (this.#tools.get(c.toolCallId)?.called) {
          this.#issue(
            index,
            "orphan-chunk",
            `tool call ${quoteClipped(c.toolCallId, 64)} announced twice`,
          );
          return [];
        }
        this.#tools.set(c.toolCallId, { name: c.toolName, called: true, resulted: false });
        const call: ChatEventV1 = { type: "tool_call", callId: c.toolCallId, name: c.toolName };
        const input = this.#json(index, c.type, "input", c.input);
        if (input !== undefined) call.input = input;
        return [call];
      }
      case "tool-input-error": {
        const t = this.#tools.get(c.toolCallId);
        if (t?.resulted) return this.#reused(index, c.type, c.toolCallId);
        const name = t?.called ? t.name : c.toolName;
        if (this.#badToolIds(index, { type: c.type, toolCallId: c.toolCallId, toolName: name })) {
          return [];
        }
        const out: ChatEventV1[] = [];
        if (!t?.called) {
          const call: ChatEventV1 = { type: "tool_call", callId: c.toolCallId, name };
          const input = this.#json(index, c.type, "input", c.input);
          if (input !== undefined) call.input = input;
          out.push(call);
        }
        this.#tools.set(c.toolCallId, { name, called: true, resulted: true });
        out.push({
          type: "tool_result",
          callId: c.toolCallId,
          name,
          ok: false,
          summary: c.errorText,
        });
        return out;
      }
      case "tool-output-available":
      case "tool-output-error":
      case "tool-output-denied":
        return this.#result(c, index);
      case "error":
        this.#ended = true;
        this.#endedByError = true;
        return [{ type: "error", message: c.errorText, retryable: false }];
      case "finish": {
        this.#ended = true;
        const done: ChatEventV1 = { type: "done" };
        if (c.finishReason !== undefined) done.stopReason = c.finishReason;
        return [done];
      }
      case "abort": {
        this.#ended = true;
        const cancelled: ChatEventV1 = { type: "turn_status", status: "cancelled" };
        if (c.reason !== undefined) cancelled.reason = c.reason;
        return [cancelled];
      }
      case "start":
      case "start-step":
      case "finish-step":
      case "text-start":
      case "text-end":
      case "reasoning-start":
      case "reasoning-end":
      case "tool-input-delta":
        return [];
      default:
        this.#issue(index, "unsupported-chunk", `${c.type} has no v1 event`);
        return [];
    }
  }

  #result(
    c: Extract<
      UIMessageChunk,
      { type: "tool-output-available" | "tool-output-error" | "tool-output-denied" }
    >,
    index: number,
  ): ChatEventV1[] {
    const t = this.#tools.get(c.toolCallId);
    if (t === undefined || !t.called) {
      this.#issue(
        index,
        "orphan-chunk",
        `${c.type} for unknown tool call ${quoteClipped(c.toolCallId, 64)}`,
      );
      return [];
    }
    if (t.resulted) return this.#reused(index, c.type, c.toolCallId);
    if (c.type === "tool-output-available" && c.preliminary === true) {
      this.#issue(index, "unsupported-chunk", "preliminary tool output has no v1 event");
      return [];
    }
    t.resulted = true;
    if (c.type === "tool-output-available") {
      const ev: ToolResultEventV1 = {
        type: "tool_result",
        callId: c.toolCallId,
        name: t.name,
        ok: true,
      };
      const output = this.#json(index, c.type, "output", c.output);
      if (output !== undefined) ev.output = output;
      return [ev];
    }
    return [{
      type: "tool_result",
      callId: c.toolCallId,
      name: t.name,
      ok: false,
      summary: c.type === "tool-output-error" ? c.errorText : "denied",
    }];
  }
}

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
 *
 * @example
 * ```ts
 * import { uiMessageChunksToV1 } from "@papercusp/chat-protocol/ai-sdk";
 * let n = 0;
 * const { envelopes } = uiMessageChunksToV1(
 *   [{ type: "text-delta", id: "t", delta: "Hi" }, { type: "finish" }],
 *   { conversationId: "c1", turnId: "t1", nextEventId: () => `e${++n}` },
 * );
 * envelopes.map((e) => e.event.type); // ["delta", "done"]
 * ```
 */
export function uiMessageChunksToV1(
  chunks: Iterable<unknown>,
  ids: V1IdAllocator,
  options: ChunksToV1Options = {},
): ChunksToV1Result {
  const a = new UIMessageChunksToV1(ids, options);
  const envelopes: ChatEventEnvelope[] = [];
  let read = 0;
  let failure: string | undefined;
  let limitHit = false;
  if (isText(chunks)) {
    // refused whole, never read character by character
    failure =
      "a string is not a stream of chunks: decode it first (each SSE event's data is one JSON chunk)";
  } else if (!isIterable(chunks)) failure = "input is not an iterable of chunks";
  else {
    try {
      for (const c of chunks) {
        if (read === MAX_STREAM_ITEMS) {
          limitHit = true;
          break;
        }
        for (const e of a.push(c)) envelopes.push(e);
        read++;
      }
    } catch (e) {
      failure = `reading the chunks threw: ${describeThrown(e, 200)}; the rest is not converted`;
    }
  }
  const issues = a.issues.slice();
  if (failure !== undefined) issues.push({ index: read, code: "invalid-chunk", message: failure });
  if (limitHit) {
    issues.push({
      index: read,
      code: "limit",
      message: `more than ${MAX_STREAM_ITEMS} chunks (MAX_STREAM_ITEMS): the rest is not read`,
    });
  }
  return { envelopes, issues };
}
