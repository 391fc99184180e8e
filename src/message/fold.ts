/**
 * `foldUIMessage`: fold an AI SDK UI message chunk stream (or a v1 envelope
 * stream) into a {@link UIMessage}, in linear time, without mutating its
 * input.
 *
 * On well-formed streams the result equals what `ai@7.0.173`'s
 * `readUIMessageStream` yields last (checked against real captures in
 * `fixtures/ai-sdk/`, compared as JSON: keys whose value is `undefined` are
 * simply absent here). Where the AI SDK fails or misbehaves, this fold:
 *
 * - reports a bad, unknown or orphan chunk as a {@link ChunkIssue} with its
 *   0-based index and keeps folding the rest (the AI SDK stops at the first
 *   failure);
 * - with `replay: true`, treats the stream as a replay of the persisted
 *   message from its start: parts the replay regenerates replace their
 *   persisted slots, so text is never duplicated;
 * - starts a fresh message when a `start` chunk names another message id
 *   (never adopts the previous turn's parts);
 * - resolves a tool call id reused in a later step to the current step's part
 *   (or the latest one), never overwriting the earlier step's part; approval
 *   responses resolve to the latest part carrying that approval id;
 * - bounds what it buffers: `maxParts` parts, `maxChars` appended UTF-16 code units
 *   and `maxIssues` reported issues.
 *
 * Chunk kinds without a part in this document (`custom`, `reasoning-file`,
 * `steering-message`) are reported as `unsupported-chunk` and skipped; a
 * `data-*` part keeps only `type`, `id` and `data`. A data chunk whose name
 * is not an identifier (`data-gate-ref`) is folded as the AI SDK folds it,
 * but such a part fails `ChatPartSchema` (see `DATA_PART_KEY_PATTERN`):
 * validate the folded message before storing it as a `ChatMessage`. Message metadata merges
 * deeply like the AI SDK's when both sides are plain objects; otherwise the
 * newer value replaces the older (the AI SDK spreads e.g. a string into an
 * object of characters). Nested values (`input`,
 * `output`, `data`, metadata objects) are shared with the input chunks, not
 * copied: treat both as immutable.
 *
 * @module
 */
import { parsePartialJson } from "./_partial_json.ts";
import { isIterable, isRecord, own } from "../_internal/guards.ts";
import { describeThrown, EnvelopeStream } from "./_v1_intake.ts";
import { checkUIMessageChunk, type ChunkIssue, type UIMessageChunk } from "./chunks.ts";
import type {
  ChatPart,
  DataPart,
  DynamicToolPart,
  ReasoningPart,
  TextPart,
  ToolPart,
  ToolPartFields,
  UIMessage,
} from "./parts.ts";
import type { ChatEventEnvelope } from "../v1/types.ts";
import { V1ToUIMessageChunks } from "./ai_sdk_stream.ts";

/** Options of {@link foldUIMessage}. */
export interface FoldOptions {
  /**
   * The persisted (last assistant) message to continue from. Never mutated.
   * A non-assistant message only lends its id, as in the AI SDK. It is
   * checked lightly: a value that is not a message (no string `id` / `role`,
   * no `parts` array) is ignored and a part without a string `type` is
   * dropped, each reported as an `invalid-chunk` issue with index -1.
   */
  message?: UIMessage;
  /**
   * `true` when the stream replays `message` from its beginning (a resumed
   * stream): regenerated parts replace their persisted slots instead of
   * being appended. Default `false` (the stream continues `message`).
   */
  replay?: boolean;
  /** Most parts the message may hold (default 100 000); more are refused as `limit`. */
  maxParts?: number;
  /**
   * Most UTF-16 code units (`string.length`, not bytes) text / reasoning /
   * tool-input deltas may append in total (default 64 Mi = 67 108 864); a
   * delta past it is refused as `limit`.
   */
  maxChars?: number;
  /** Most issues kept (default 1 000); the rest are only counted. */
  maxIssues?: number;
}

/** Finish reasons of the AI SDK `finish` chunk. */
export type FinishReason = NonNullable<Extract<UIMessageChunk, { type: "finish" }>["finishReason"]>;

/** Result of a fold. */
export interface FoldResult {
  /** The folded message (a fresh object graph of parts; nested values shared). */
  message: UIMessage;
  /** Problems, in stream order, each with its 0-based chunk index. */
  issues: ChunkIssue[];
  /** Issues beyond `maxIssues`, counted but not kept. */
  droppedIssues: number;
  /** `errorText` of every `error` chunk, in order. */
  errors: string[];
  /** The last `finishReason` seen, if any. */
  finishReason?: FinishReason;
  /** True when an `abort` chunk was seen. */
  aborted: boolean;
  /** Number of chunks consumed (for v1 input: envelopes). */
  count: number;
}

type AnyTool = ToolPart | DynamicToolPart;
type Mutable = Record<string, unknown>;

interface PartialCall {
  text: string;
  inputEncoding?: "json" | "text";
  toolName: string;
  dynamic?: boolean;
  title?: string;
  toolMetadata?: Record<string, unknown>;
}

interface ToolUpdate {
  toolCallId: string;
  toolName: string;
  state: ToolPartFields["state"];
  input?: unknown;
  output?: unknown;
  errorText?: string;
  rawInput?: unknown;
  inputEncoding?: "json" | "text";
  preliminary?: boolean;
  title?: string;
  toolMetadata?: Record<string, unknown>;
  providerExecuted?: boolean;
  providerMetadata?: unknown;
}

function set(obj: Mutable, key: string, value: unknown): void {
  if (value === undefined) delete obj[key];
  else obj[key] = value;
}

/** A record whose fields metadata merging descends into (not an array, Date or RegExp). */
function isMergeableRecord(v: unknown): v is Record<string, unknown> {
  return isRecord(v) && !(v instanceof Date) && !(v instanceof RegExp);
}

function define(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

function isTool(p: ChatPart): p is AnyTool {
  return p.type === "dynamic-tool" || p.type.startsWith("tool-");
}

function isV1Envelope(v: unknown): v is ChatEventEnvelope {
  return isRecord(v) && own(v, "schemaVersion") === 1 && Object.hasOwn(v, "event");
}

/**
 * Incremental fold: `push` chunks one by one, read `result()` at any time.
 * {@link foldUIMessage} is the one-shot form.
 *
 * @example
 * ```ts
 * import { UIMessageFold } from "@papercusp/chat-protocol/ai-sdk";
 * const fold = new UIMessageFold();
 * fold.push({ type: "start", messageId: "m1" });
 * fold.push({ type: "text-start", id: "t" });
 * fold.push({ type: "text-delta", id: "t", delta: "Hi" });
 * fold.result().message.parts; // [{ type: "text", text: "Hi", state: "streaming" }]
 * ```
 */
export class UIMessageFold {
  #id = "";
  #metadata: unknown = undefined;
  #parts: ChatPart[] = [];
  #activeText = new Map<string, TextPart>();
  #activeReasoning = new Map<string, ReasoningPart>();
  #partials = new Map<string, PartialCall>();
  /** Tool parts whose input still streams: materialised lazily (linear). */
  #streaming = new Map<AnyTool, PartialCall>();
  #stepTools = new Map<string, AnyTool>();
  #toolsById = new Map<string, AnyTool[]>();
  #approvals = new Map<string, AnyTool[]>();
  #dataParts = new Map<string, DataPart>();
  /** Metadata objects this fold created (merged into in place; others are copied once). */
  #owned = new WeakSet<object>();
  #replayCursor = -1;
  #replayEnd = 0;
  #chars = 0;
  #index = 0;
  #sourceIndex: number | undefined;
  #issues: ChunkIssue[] = [];
  #droppedIssues = 0;
  #errors: string[] = [];
  #finishReason: FinishReason | undefined;
  #aborted = false;
  readonly #maxParts: number;
  readonly #maxChars: number;
  readonly #maxIssues: number;

  /** Create an adapter (see the class documentation for the mapping). */
  constructor(options: FoldOptions = {}) {
    this.#maxParts = options.maxParts ?? 100_000;
    this.#maxChars = options.maxChars ?? 64 * 1024 * 1024;
    this.#maxIssues = options.maxIssues ?? 1_000;
    const m = options.message;
    if (m === undefined || m === null) return;
    // the persisted message usually comes from storage: check it (issues at index -1)
    this.#sourceIndex = -1;
    try {
      this.#adopt(m, options.replay === true);
    } catch {
      this.#reset("");
      this.#issue("invalid-chunk", "options.message could not be read; ignored");
    }
    this.#sourceIndex = undefined;
  }

  #adopt(m: UIMessage, replay: boolean): void {
    if (typeof m !== "object" || typeof m.id !== "string" || typeof m.role !== "string") {
      return this.#issue("invalid-chunk", "options.message is not a UIMessage; ignored");
    }
    if (m.role !== "assistant") {
      this.#id = m.id;
      return;
    }
    if (!Array.isArray(m.parts)) {
      return this.#issue("invalid-chunk", "options.message has no parts array; ignored");
    }
    this.#id = m.id;
    this.#metadata = m.metadata;
    // copy-on-entry: parts are shallow-copied once, so the input is never mutated
    const parts: ChatPart[] = [];
    for (let i = 0; i < m.parts.length; i++) {
      const p: unknown = m.parts[i];
      if (p === null || typeof p !== "object" || typeof (p as ChatPart).type !== "string") {
        this.#issue("invalid-chunk", `options.message part ${i} has no string type; dropped`);
      } else parts.push({ ...p } as ChatPart);
    }
    this.#parts = parts;
    if (replay) {
      this.#replayCursor = 0;
      this.#replayEnd = this.#parts.length;
    } else {
      this.#indexPersisted();
    }
  }

  #indexPersisted(): void {
    const parts = this.#parts;
    let lastStep = -1;
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i];
      if (p.type === "step-start") lastStep = i;
      if (isTool(p)) {
        this.#registerTool(p);
        if (p.approval !== undefined) this.#registerApproval(p.approval.id, p);
      } else if (p.type.startsWith("data-")) {
        const d = p as DataPart;
        if (d.id !== undefined) {
          const key = `${d.type}\u0000${d.id}`;
          if (!this.#dataParts.has(key)) this.#dataParts.set(key, d);
        }
      }
    }
    for (let i = lastStep + 1; i < parts.length; i++) {
      const p = parts[i];
      if (!isTool(p)) continue;
      if (!this.#stepTools.has(p.toolCallId)) this.#stepTools.set(p.toolCallId, p);
      if (p.state === "input-streaming") {
        this.#partials.set(p.toolCallId, {
          text: typeof p.rawInput === "string" ? p.rawInput : "",
          inputEncoding: p.inputEncoding,
          toolName: p.type === "dynamic-tool" ? p.toolName : p.type.slice(5),
          dynamic: p.type === "dynamic-tool",
          title: p.title,
          toolMetadata: p.toolMetadata,
        });
      }
    }
  }

  /**
   * Deep merge of message metadata, as the AI SDK's `mergeObjects` (prototype
   * keys skipped), in amortised linear time: objects this fold created are
   * merged into in place, objects shared with the input are copied once.
   */
  #merge(base: unknown, over: unknown): unknown {
    // as the AI SDK's updateMessageMetadata: a null / undefined update is no update
    if (over === undefined || over === null) return base;
    if (base === undefined) return over;
    if (!isMergeableRecord(base) || !isMergeableRecord(over)) return over;
    let out = base;
    if (!this.#owned.has(base)) {
      out = {};
      for (const k of Object.keys(base)) define(out, k, base[k]);
      this.#owned.add(out);
    }
    for (const k of Object.keys(over)) {
      if (k === "__proto__" || k === "constructor" || k === "prototype") continue;
      const v = over[k];
      if (v === undefined) continue;
      const b = Object.hasOwn(out, k) ? out[k] : undefined;
      define(out, k, isMergeableRecord(v) && isMergeableRecord(b) ? this.#merge(b, v) : v);
    }
    return out;
  }

  #issue(code: ChunkIssue["code"], message: string): void {
    if (this.#issues.length < this.#maxIssues) {
      this.#issues.push({ index: this.#sourceIndex ?? this.#index, code, message });
    } else this.#droppedIssues++;
  }

  #registerTool(p: AnyTool): void {
    const list = this.#toolsById.get(p.toolCallId);
    if (list === undefined) this.#toolsById.set(p.toolCallId, [p]);
    else list.push(p);
  }
  #registerApproval(id: string, p: AnyTool): void {
    const list = this.#approvals.get(id);
    if (list === undefined) this.#approvals.set(id, [p]);
    else if (list[list.length - 1] !== p) list.push(p);
  }

  /** Append (or, while replaying, re-place) a new part. False when refused. */
  #place(part: ChatPart): boolean {
    if (this.#replayCursor >= 0 && this.#replayCursor < this.#replayEnd) {
      const old = this.#parts[this.#replayCursor];
      const same = old.type === part.type &&
        (!isTool(part) || (isTool(old) && old.toolCallId === part.toolCallId));
      if (same) {
        this.#parts[this.#replayCursor++] = part;
        return true;
      }
      // the replay diverges from what was persisted: the stale tail is superseded
      this.#parts.length = this.#replayCursor;
      this.#replayEnd = this.#replayCursor;
    }
    if (this.#parts.length >= this.#maxParts) {
      this.#issue("limit", `message already holds ${this.#maxParts} parts`);
      return false;
    }
    this.#parts.push(part);
    return true;
  }

  #charsOk(n: number): boolean {
    if (this.#chars + n > this.#maxChars) {
      this.#issue("limit", `more than ${this.#maxChars} characters appended`);
      return false;
    }
    this.#chars += n;
    return true;
  }

  #findTool(toolCallId: string): AnyTool | undefined {
    const inStep = this.#stepTools.get(toolCallId);
    if (inStep !== undefined) return inStep;
    const list = this.#toolsById.get(toolCallId);
    return list === undefined ? undefined : list[list.length - 1];
  }

  /** Write the lazily parsed partial input of a streaming tool part. */
  #materialise(part: AnyTool): void {
    const pc = this.#streaming.get(part);
    if (pc === undefined) return;
    this.#streaming.delete(part);
    const m = part as unknown as Mutable;
    set(m, "input", pc.inputEncoding === "text" ? pc.text : parsePartialJson(pc.text));
    set(m, "rawInput", pc.text);
  }

  #updateTool(o: ToolUpdate, dynamic: boolean, existing?: AnyTool): void {
    let part = existing;
    if (part === undefined) {
      const cand = this.#stepTools.get(o.toolCallId);
      if (cand !== undefined && (cand.type === "dynamic-tool") === dynamic) part = cand;
    }
    const resultState = o.state === "output-available" || o.state === "output-error";
    if (part !== undefined) {
      // every update sets `input` / `rawInput` itself (callers that reuse the
      // part's input materialise it first), so a pending partial parse is dropped
      this.#streaming.delete(part);
      const m = part as unknown as Mutable;
      m.state = o.state;
      if (dynamic) m.toolName = o.toolName;
      else m.type = `tool-${o.toolName}`;
      set(m, "input", o.input);
      set(m, "output", o.output);
      set(m, "errorText", o.errorText);
      set(m, "rawInput", o.rawInput);
      set(m, "inputEncoding", o.inputEncoding);
      set(m, "preliminary", o.preliminary);
      if (o.title !== undefined) m.title = o.title;
      if (o.toolMetadata !== undefined) m.toolMetadata = o.toolMetadata;
      set(m, "providerExecuted", o.providerExecuted ?? m.providerExecuted);
      if (o.providerMetadata != null) {
        m[resultState ? "resultProviderMetadata" : "callProviderMetadata"] = o.providerMetadata;
      }
      return;
    }
    const m: Mutable = dynamic
      ? { type: "dynamic-tool", toolName: o.toolName, toolCallId: o.toolCallId, state: o.state }
      : { type: `tool-${o.toolName}`, toolCallId: o.toolCallId, state: o.state };
    set(m, "title", o.title);
    set(m, "toolMetadata", o.toolMetadata);
    set(m, "input", o.input);
    set(m, "inputEncoding", o.inputEncoding);
    set(m, "output", o.output);
    if (!dynamic) set(m, "rawInput", o.rawInput);
    set(m, "errorText", o.errorText);
    set(m, "providerExecuted", o.providerExecuted);
    set(m, "preliminary", o.preliminary);
    if (o.providerMetadata != null) {
      m[resultState ? "resultProviderMetadata" : "callProviderMetadata"] = o.providerMetadata;
    }
    const created = m as unknown as AnyTool;
    if (!this.#place(created)) return;
    this.#registerTool(created);
    if (!this.#stepTools.has(o.toolCallId)) this.#stepTools.set(o.toolCallId, created);
  }

  #reset(id: string): void {
    this.#id = id;
    this.#metadata = undefined;
    this.#parts = [];
    this.#activeText.clear();
    this.#activeReasoning.clear();
    this.#partials.clear();
    this.#streaming.clear();
    this.#stepTools.clear();
    this.#toolsById.clear();
    this.#approvals.clear();
    this.#dataParts.clear();
    this.#replayCursor = -1;
    this.#replayEnd = 0;
  }

  #resetStep(): void {
    this.#activeText.clear();
    this.#activeReasoning.clear();
    this.#partials.clear();
    this.#stepTools.clear();
    const parts = this.#parts;
    let cut = parts.length;
    while (cut > 0 && parts[cut - 1].type !== "step-start") cut--;
    for (let i = parts.length - 1; i >= cut; i--) {
      const p = parts[i];
      if (isTool(p)) {
        this.#streaming.delete(p);
        const list = this.#toolsById.get(p.toolCallId);
        if (list !== undefined && list[list.length - 1] === p) list.pop();
        if (p.approval !== undefined) {
          const al = this.#approvals.get(p.approval.id);
          if (al !== undefined && al[al.length - 1] === p) al.pop();
        }
      } else if (p.type.startsWith("data-")) {
        const d = p as DataPart;
        const key = `${d.type}\u0000${d.id}`;
        if (this.#dataParts.get(key) === d) this.#dataParts.delete(key);
      }
    }
    parts.length = cut;
    if (this.#replayEnd > cut) this.#replayEnd = cut;
    if (this.#replayCursor > cut) this.#replayCursor = cut;
  }

  /**
   * Apply one chunk. A value that is not a valid chunk, or a chunk that
   * refers to a part that does not exist, is reported as an issue and
   * skipped. Never throws. `sourceIndex` overrides the index reported in
   * issues (default: the count of chunks pushed before this one).
   */
  push(value: unknown, sourceIndex?: number): void {
    this.#sourceIndex = sourceIndex;
    try {
      const why = checkUIMessageChunk(value);
      if (why !== null) {
        const unsupported = why.endsWith("has no part in this document");
        this.#issue(unsupported ? "unsupported-chunk" : "invalid-chunk", why);
      } else this.#apply(value as UIMessageChunk);
    } catch (e) {
      // defensive: a getter or proxy in untrusted input
      this.#issue("invalid-chunk", `chunk could not be read: ${String(e).slice(0, 200)}`);
    }
    this.#index++;
  }

  #apply(c: UIMessageChunk): void {
    switch (c.type) {
      case "text-start": {
        const part: TextPart = { type: "text", text: "", state: "streaming" };
        if (c.providerMetadata != null) part.providerMetadata = c.providerMetadata;
        if (!this.#place(part)) return;
        this.#activeText.set(c.id, part);
        return;
      }
      case "text-delta":
      case "reasoning-delta": {
        const kind = c.type === "text-delta" ? "text" : "reasoning";
        const part = (kind === "text" ? this.#activeText : this.#activeReasoning).get(c.id);
        if (part === undefined) {
          return this.#issue("orphan-chunk", `${c.type} for unknown ${kind} part ${c.id}`);
        }
        if (!this.#charsOk(c.delta.length)) return;
        part.text += c.delta;
        if (c.providerMetadata != null) part.providerMetadata = c.providerMetadata;
        return;
      }
      case "text-end": {
        const part = this.#activeText.get(c.id);
        if (part === undefined) {
          return this.#issue("orphan-chunk", `text-end for unknown text part ${c.id}`);
        }
        part.state = "done";
        if (c.citations != null) part.citations = c.citations;
        if (c.providerMetadata != null) part.providerMetadata = c.providerMetadata;
        this.#activeText.delete(c.id);
        return;
      }
      case "reasoning-start": {
        const part: ReasoningPart = { type: "reasoning", id: c.id, text: "", state: "streaming" };
        if (c.providerMetadata != null) part.providerMetadata = c.providerMetadata;
        if (!this.#place(part)) return;
        this.#activeReasoning.set(c.id, part);
        return;
      }
      case "reasoning-end": {
        const part = this.#activeReasoning.get(c.id);
        if (part === undefined) {
          return this.#issue("orphan-chunk", `reasoning-end for unknown reasoning part ${c.id}`);
        }
        if (c.providerMetadata != null) part.providerMetadata = c.providerMetadata;
        part.state = "done";
        this.#activeReasoning.delete(c.id);
        return;
      }
      case "file": {
        const part: Mutable = { type: "file", mediaType: c.mediaType, url: c.url };
        if (c.providerMetadata != null) part.providerMetadata = c.providerMetadata;
        this.#place(part as unknown as ChatPart);
        return;
      }
      case "source-url": {
        const part: Mutable = { type: "source-url", sourceId: c.sourceId, url: c.url };
        set(part, "title", c.title);
        set(part, "providerMetadata", c.providerMetadata);
        this.#place(part as unknown as ChatPart);
        return;
      }
      case "source-document": {
        const part: Mutable = {
          type: "source-document",
          sourceId: c.sourceId,
          mediaType: c.mediaType,
          title: c.title,
        };
        set(part, "filename", c.filename);
        set(part, "providerMetadata", c.providerMetadata);
        this.#place(part as unknown as ChatPart);
        return;
      }
      case "tool-input-start": {
        const pc: PartialCall = {
          text: "",
          inputEncoding: c.inputEncoding,
          toolName: c.toolName,
          dynamic: c.dynamic,
          title: c.title,
          toolMetadata: c.toolMetadata,
        };
        this.#partials.set(c.toolCallId, pc);
        this.#updateTool({
          toolCallId: c.toolCallId,
          toolName: c.toolName,
          state: "input-streaming",
          inputEncoding: c.inputEncoding,
          providerExecuted: c.providerExecuted,
          title: c.title,
          toolMetadata: c.toolMetadata,
          providerMetadata: c.providerMetadata,
        }, c.dynamic === true);
        return;
      }
      case "tool-input-delta": {
        const pc = this.#partials.get(c.toolCallId);
        if (pc === undefined) {
          return this.#issue(
            "orphan-chunk",
            `tool-input-delta for unknown tool call ${c.toolCallId}`,
          );
        }
        if (!this.#charsOk(c.inputTextDelta.length)) return;
        pc.text += c.inputTextDelta;
        this.#updateTool(
          {
            toolCallId: c.toolCallId,
            toolName: pc.toolName,
            state: "input-streaming",
            inputEncoding: pc.inputEncoding,
            title: pc.title,
            toolMetadata: pc.toolMetadata,
          },
          pc.dynamic === true,
        );
        const part = this.#stepTools.get(c.toolCallId);
        if (part !== undefined && part.state === "input-streaming") this.#streaming.set(part, pc);
        return;
      }
      case "tool-input-available":
        this.#updateTool({
          toolCallId: c.toolCallId,
          toolName: c.toolName,
          state: "input-available",
          input: c.input,
          providerExecuted: c.providerExecuted,
          providerMetadata: c.providerMetadata,
          title: c.title,
          toolMetadata: c.toolMetadata,
        }, c.dynamic === true);
        return;
      case "tool-input-error": {
        const existing = this.#stepTools.get(c.toolCallId);
        const dynamic = existing !== undefined
          ? existing.type === "dynamic-tool"
          : c.dynamic === true;
        this.#updateTool({
          toolCallId: c.toolCallId,
          toolName: c.toolName,
          state: "output-error",
          input: c.input,
          errorText: c.errorText,
          providerExecuted: c.providerExecuted,
          providerMetadata: c.providerMetadata,
          toolMetadata: c.toolMetadata,
        }, dynamic);
        return;
      }
      case "tool-approval-request": {
        const part = this.#findTool(c.toolCallId);
        if (part === undefined) {
          return this.#issue(
            "orphan-chunk",
            `tool-approval-request for unknown tool call ${c.toolCallId}`,
          );
        }
        const approval: Mutable = { id: c.approvalId };
        if (c.approvalDescriptor != null) approval.descriptor = c.approvalDescriptor;
        if (Object.hasOwn(c, "inputSchemaInput")) approval.inputSchemaInput = c.inputSchemaInput;
        if (c.reason != null) approval.requestReason = c.reason;
        if (c.isAutomatic === true) approval.isAutomatic = true;
        if (c.signature != null) approval.signature = c.signature;
        part.state = "approval-requested";
        part.approval = approval as unknown as ToolPartFields["approval"];
        this.#registerApproval(c.approvalId, part);
        return;
      }
      case "tool-approval-response": {
        const list = this.#approvals.get(c.approvalId);
        const part = list === undefined ? undefined : list[list.length - 1];
        if (part === undefined) {
          return this.#issue(
            "orphan-chunk",
            `tool-approval-response for unknown approval ${c.approvalId}`,
          );
        }
        const approval: Mutable = { ...(part.approval ?? { id: c.approvalId }) };
        approval.id = c.approvalId;
        approval.approved = c.approved;
        if (c.reason != null) approval.reason = c.reason;
        part.state = "approval-responded";
        part.approval = approval as unknown as ToolPartFields["approval"];
        if (c.providerExecuted != null) part.providerExecuted = c.providerExecuted;
        if (c.providerMetadata != null) part.callProviderMetadata = c.providerMetadata;
        return;
      }
      case "tool-output-denied": {
        const part = this.#findTool(c.toolCallId);
        if (part === undefined) {
          return this.#issue(
            "orphan-chunk",
            `tool-output-denied for unknown tool call ${c.toolCallId}`,
          );
        }
        part.state = "output-denied";
        return;
      }
      case "tool-output-available":
      case "tool-output-error": {
        const part = this.#findTool(c.toolCallId);
        if (part === undefined) {
          return this.#issue("orphan-chunk", `${c.type} for unknown tool call ${c.toolCallId}`);
        }
        this.#materialise(part);
        const dynamic = part.type === "dynamic-tool";
        const ok = c.type === "tool-output-available";
        this.#updateTool(
          {
            toolCallId: c.toolCallId,
            toolName: dynamic ? (part as DynamicToolPart).toolName : part.type.slice(5),
            state: ok ? "output-available" : "output-error",
            input: part.input,
            output: ok ? c.output : undefined,
            errorText: ok ? undefined : c.errorText,
            rawInput: !ok && !dynamic ? part.rawInput : undefined,
            preliminary: ok ? c.preliminary : undefined,
            providerExecuted: c.providerExecuted,
            providerMetadata: c.providerMetadata,
            title: part.title,
            toolMetadata: c.toolMetadata ?? part.toolMetadata,
          },
          dynamic,
          part,
        );
        return;
      }
      case "start-step":
        if (this.#place({ type: "step-start" })) this.#stepTools = new Map();
        return;
      case "finish-step":
        return;
      case "reset-step":
        this.#resetStep();
        return;
      case "start":
        if (c.messageId !== undefined && c.messageId !== this.#id) this.#reset(c.messageId);
        this.#metadata = this.#merge(this.#metadata, c.messageMetadata);
        return;
      case "finish":
        if (c.finishReason != null) this.#finishReason = c.finishReason;
        this.#metadata = this.#merge(this.#metadata, c.messageMetadata);
        return;
      case "message-metadata":
        this.#metadata = this.#merge(this.#metadata, c.messageMetadata);
        return;
      case "error":
        if (this.#errors.length < this.#maxIssues) this.#errors.push(c.errorText);
        return;
      case "abort":
        this.#aborted = true;
        return;
      default: {
        // data-* (validated by checkUIMessageChunk)
        const d = c as { type: `data-${string}`; id?: string; data: unknown; transient?: boolean };
        if (d.transient === true) return;
        if (d.id !== undefined) {
          const key = `${d.type}\u0000${d.id}`;
          const existing = this.#dataParts.get(key);
          if (existing !== undefined) {
            existing.data = d.data;
            return;
          }
          const part: DataPart = { type: d.type, id: d.id, data: d.data };
          if (this.#place(part)) this.#dataParts.set(key, part);
          return;
        }
        this.#place({ type: d.type, data: d.data });
      }
    }
  }

  /**
   * The message so far (partial tool inputs parsed as the AI SDK shows them).
   * The returned parts (and merged metadata) are this fold's own objects:
   * later chunks keep updating them, so copy a result you keep while pushing.
   */
  result(): FoldResult {
    for (const part of [...this.#streaming.keys()]) {
      const pc = this.#streaming.get(part)!;
      this.#materialise(part);
      this.#streaming.set(part, pc); // keep streaming: later deltas still apply
    }
    const message: UIMessage = { id: this.#id, role: "assistant", parts: this.#parts.slice() };
    if (this.#metadata !== undefined) message.metadata = this.#metadata;
    const r: FoldResult = {
      message,
      issues: this.#issues.slice(),
      droppedIssues: this.#droppedIssues,
      errors: this.#errors.slice(),
      aborted: this.#aborted,
      count: this.#index,
    };
    if (this.#finishReason !== undefined) r.finishReason = this.#finishReason;
    return r;
  }
}

/**
 * Fold a UI message chunk stream, or a v1 envelope stream (detected from the
 * first item, converted with {@link V1ToUIMessageChunks}), into a
 * {@link UIMessage}. Linear in the input; never mutates it; never throws.
 * A non-iterable `input` is an `invalid-chunk` issue at index -1; an
 * iterator that throws ends the input there: the items read so far are
 * folded and the throw is an `invalid-chunk` issue at the index of the
 * item that could not be read.
 *
 * @example
 * ```ts
 * import { foldUIMessage } from "@papercusp/chat-protocol/ai-sdk";
 * const { message, issues } = foldUIMessage([
 *   { type: "start", messageId: "m1" },
 *   { type: "text-start", id: "t" },
 *   { type: "text-delta", id: "t", delta: "Hello" },
 *   { type: "text-end", id: "t" },
 *   { type: "finish" },
 * ]);
 * message.parts; // [{ type: "text", text: "Hello", state: "done" }]
 * issues; // []
 * ```
 */
export function foldUIMessage(input: Iterable<unknown>, options: FoldOptions = {}): FoldResult {
  const fold = new UIMessageFold(options ?? {});
  let v1: EnvelopeStream<UIMessageChunk> | undefined;
  let first = true;
  let envelopes = 0;
  let chunks = 0;
  const refused: ChunkIssue[] = [];
  if (!isIterable(input)) {
    // Untyped callers (JSON from storage) may pass anything: refuse, never throw.
    const r = fold.result();
    r.issues = [{
      index: -1,
      code: "invalid-chunk",
      message: "input is not an iterable of chunks",
    }];
    return r;
  }
  // a throwing iterator (a generator over a broken source, a revoked proxy)
  // ends the input: what was read so far is folded and the throw is an issue
  let readFailure: string | undefined;
  try {
    for (const item of input) {
      if (first) {
        first = false;
        if (isV1Envelope(item)) {
          v1 = new EnvelopeStream(new V1ToUIMessageChunks(), (items, index) => {
            for (const chunk of items) fold.push(chunk, index);
          });
        }
      }
      if (v1 === undefined) {
        chunks++;
        fold.push(item);
        continue;
      }
      v1.offer(item, envelopes++);
    }
  } catch (e) {
    readFailure = `reading the input threw: ${describeThrown(e)}; the rest of it is not folded`;
  }
  if (v1 !== undefined) {
    for (const r of v1.end(envelopes)) {
      refused.push({ index: r.index, code: "invalid-chunk", message: r.error.message });
    }
  }
  const r = fold.result();
  if (v1 !== undefined) {
    r.count = envelopes;
    r.issues = [...refused, ...r.issues].sort((a, b) => a.index - b.index);
  }
  if (readFailure !== undefined) {
    r.issues.push({
      index: v1 === undefined ? chunks : envelopes,
      code: "invalid-chunk",
      message: readFailure,
    });
  }
  return r;
}

/**
 * Convenience for tools such as `inspect`: fold an array of (untrusted) AI
 * SDK chunks with default options. Same result as {@link foldUIMessage}.
 *
 * @example
 * ```ts
 * import { detectAiSdkStream, foldUIMessageChunks } from "@papercusp/chat-protocol/ai-sdk";
 * const capture = detectAiSdkStream('data: {"type":"start","messageId":"m"}\n\ndata: [DONE]\n\n');
 * if (capture) foldUIMessageChunks(capture.chunks).message.id; // "m"
 * ```
 */
export function foldUIMessageChunks(chunks: readonly unknown[]): FoldResult {
  return foldUIMessage(chunks);
}

/**
 * Fold an async source (a `ReadableStream` or any async iterable) of chunks.
 * Same semantics as {@link foldUIMessage} for chunk streams. Never rejects
 * for bad chunks (they become issues); rejects only if the source itself
 * errors.
 *
 * @example
 * ```ts
 * import { foldUIMessageStream } from "@papercusp/chat-protocol/ai-sdk";
 * const { message } = await foldUIMessageStream(ReadableStream.from([{ type: "start", messageId: "m" }]));
 * ```
 */
export async function foldUIMessageStream(
  stream: AsyncIterable<unknown> | ReadableStream<unknown>,
  options: FoldOptions = {},
): Promise<FoldResult> {
  const fold = new UIMessageFold(options);
  for await (const item of stream as AsyncIterable<unknown>) fold.push(item);
  return fold.result();
}
