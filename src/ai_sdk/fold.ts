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
 * - applies a chunk with a bad optional field (an unknown `finishReason` or
 *   `inputEncoding`, a `providerMetadata` entry that is not an object, …)
 *   without that field and reports it as `invalid-field` (the AI SDK's fold
 *   applies such a chunk as it is; its chunk schema refuses it);
 * - with `replay: true`, treats the stream as a replay of the persisted
 *   message from its start: parts the replay regenerates replace their
 *   persisted slots, so text is never duplicated;
 * - starts a fresh message when a `start` chunk names another message id
 *   (never adopts the previous turn's parts);
 * - resolves a tool call id reused in a later step to the current step's part
 *   (or the latest one), never overwriting the earlier step's part; approval
 *   responses resolve to the latest part carrying that approval id (one call
 *   id used by a static and a dynamic tool in one step makes one part of
 *   each kind, as in the AI SDK);
 * - bounds what it buffers: `maxParts` parts, `maxChars` appended UTF-16
 *   code units and `maxIssues` reported issues (a limit that is not a number
 *   ≥ 0 keeps its default and is reported as `invalid-option`, never lifts
 *   the bound).
 *
 * Chunk kinds without a part in this document (`custom`, `reasoning-file`,
 * `steering-message`) are reported as `unsupported-chunk` and skipped; a
 * `data-*` part keeps only `type`, `id` and `data`. A data chunk whose name
 * is not an identifier (`data-gate-ref`, `data-1x`, `data-a.b`: see
 * `DATA_PART_KEY_PATTERN`) is refused as `invalid-chunk` and skipped (the
 * AI SDK keeps it, but such a part fails the `dataPart` schema). A
 * `tool-output-available` / `tool-output-error` for a call whose approval
 * was answered `approved: false` is refused as `invalid-chunk` (a tool ran
 * after it was denied: report it to whoever runs the tools) and the part
 * keeps its denied approval; a `tool-output-denied` for a call whose
 * approval was not answered `approved: false` is refused the same way. Every message the fold returns passes
 * `UIMessageSchema`. Message
 * metadata merges deeply like the AI SDK's when both sides are plain
 * objects; otherwise the newer value replaces the older (the AI SDK spreads
 * e.g. a string into an object of characters). Partial tool inputs read as
 * the AI SDK shows them (one documented divergence: a JSON key holding an
 * escaped quote, which the AI SDK's reader loses track of).
 *
 * Each chunk is read once, field by field, into a fresh copy before it is
 * applied, so a hostile chunk (throwing or value-changing getters, proxies)
 * is refused or applied as read, never thrown on. Metadata records are
 * copied; other nested values (`input`, `output`, `data`) are shared with the
 * input chunks, not copied: treat both as immutable.
 *
 * @module
 */
import { isIterable, isRecord, isText, own } from "../_internal/guards.ts";
import { MAX_STREAM_ITEMS } from "../v1/limits.ts";
import { describeThrown } from "../_internal/describe.ts";
import { type ChunkProblemSlot, readChunk } from "./_chunk_reader.ts";
import { type DataChunk, DataParts } from "./_data_parts.ts";
import type { FoldContext } from "./_fold_context.ts";
import { readFoldOptions } from "./_fold_options.ts";
import { IssueLog } from "./_issue_log.ts";
import { MessageMetadata } from "./_message_metadata.ts";
import { PartList } from "./_part_list.ts";
import { readPersistedMessage } from "./_persisted_message.ts";
import { TextParts } from "./_text_parts.ts";
import { ToolParts } from "./_tool_parts.ts";
import type { ChunkIssue, UIMessageChunk } from "./chunks.ts";
import type { ChatPart, UIMessage } from "../message/parts.ts";
import { DATA_PART_KEY_PATTERN } from "../message/part_types.ts";
import { V1ToUIMessageChunks } from "./v1_to_ui_message_chunks.ts";
import { EnvelopeStream } from "../_internal/v1_intake.ts";
import type { V1AdapterRefusal } from "../v1/v1_adapter_refusal.ts";
import type { ChatOrderingCode } from "../v1/types.ts";

/** Options of {@link foldUIMessage}. Each is read once; none makes the fold throw. */
export interface FoldOptions {
  /**
   * The persisted (last assistant) message to continue from. Never mutated
   * (its parts and metadata are copied once). A non-assistant message only
   * lends its id, as in the AI SDK. It is checked lightly: a value that is
   * not a message (no string `id` / `role`, no `parts` array) or cannot be
   * read is ignored and a part without a string `type` is dropped, each
   * reported as an `invalid-chunk` issue with index -1.
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
  /** `errorText` of every `error` chunk, in order (at most `maxIssues`). */
  errors: string[];
  /** The last known `finishReason` seen, if any. */
  finishReason?: FinishReason;
  /** True when an `abort` chunk was seen. */
  aborted: boolean;
  /** Number of chunks consumed (for v1 input: envelopes). */
  count: number;
}

type Chunk<T extends UIMessageChunk["type"]> = Extract<UIMessageChunk, { type: T }>;

/** The part a `file` / `source-url` / `source-document` chunk makes. */
function referencePart(
  c: Chunk<"file"> | Chunk<"source-url"> | Chunk<"source-document">,
): ChatPart {
  const part: Record<string, unknown> = c.type === "file"
    ? { type: "file", mediaType: c.mediaType, url: c.url }
    : c.type === "source-url"
    ? { type: "source-url", sourceId: c.sourceId, url: c.url, title: c.title }
    : {
      type: "source-document",
      sourceId: c.sourceId,
      mediaType: c.mediaType,
      title: c.title,
      filename: c.filename,
    };
  part.providerMetadata = c.providerMetadata;
  for (const k of Object.keys(part)) if (part[k] === undefined) delete part[k];
  return part as unknown as ChatPart;
}

/** `true` for an index a caller may report issues at (-1 or a safe non-negative integer). */
function isIndex(v: unknown): v is number {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= -1;
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
  #index = 0;
  #at = 0;
  readonly #issues: IssueLog;
  readonly #maxChars: number;
  #chars = 0;
  readonly #metadata = new MessageMetadata();
  readonly #parts: PartList;
  readonly #text: TextParts;
  readonly #tools: ToolParts;
  readonly #data: DataParts;
  readonly #errors: string[] = [];
  readonly #maxErrors: number;
  #finishReason: FinishReason | undefined;
  #aborted = false;
  readonly #read: ChunkProblemSlot = { problem: null };

  /** Start a fold (see {@link FoldOptions}). Never throws, whatever `options` is. */
  constructor(options: FoldOptions = {}) {
    const settings = readFoldOptions(options);
    this.#issues = new IssueLog(settings.maxIssues);
    this.#maxErrors = settings.maxIssues;
    this.#maxChars = settings.maxChars;
    this.#parts = new PartList(settings.maxParts, (m) => this.#issue("limit", m));
    const ctx: FoldContext = {
      parts: this.#parts,
      spend: (n) => this.#spend(n),
      orphan: (m) => this.#issue("orphan-chunk", m),
      refuse: (m) => this.#issue("invalid-chunk", m),
    };
    this.#text = new TextParts(ctx);
    this.#tools = new ToolParts(ctx);
    this.#data = new DataParts(this.#parts);
    this.#at = -1; // problems with the options are reported at index -1
    for (const p of settings.problems) this.#issue("invalid-option", p);
    const persisted = readPersistedMessage(settings.message);
    for (const p of persisted.problems) this.#issue("invalid-chunk", p);
    this.#id = persisted.id;
    if (persisted.assistant) {
      if (!this.#metadata.reset(persisted.metadata)) {
        this.#issue("invalid-chunk", "options.message metadata could not be read; ignored");
      }
      this.#parts.reset(persisted.parts, settings.replay);
      if (!settings.replay) {
        this.#tools.adopt(persisted.parts);
        this.#data.adopt(persisted.parts);
      }
    }
  }

  #issue(code: ChunkIssue["code"], message: string): void {
    this.#issues.add(this.#at, code, message);
  }

  #spend(n: number): boolean {
    if (this.#chars + n > this.#maxChars) {
      this.#issue("limit", `more than ${this.#maxChars} characters appended`);
      return false;
    }
    this.#chars += n;
    return true;
  }

  #reset(id: string): void {
    this.#id = id;
    this.#metadata.reset();
    this.#parts.reset();
    this.#text.clear();
    this.#tools.clear();
    this.#data.clear();
  }

  /**
   * Apply one chunk. A value that is not a valid chunk, or a chunk that
   * refers to a part that does not exist, is reported as an issue and
   * skipped (a chunk with a bad optional field is applied without it). Never
   * throws. `sourceIndex` overrides the index reported in issues (default:
   * the count of chunks pushed before this one; ignored unless it is -1 or a
   * non-negative safe integer).
   */
  push(value: unknown, sourceIndex?: number): void {
    this.#at = isIndex(sourceIndex) ? sourceIndex : this.#index;
    const chunk = readChunk(value, this.#read);
    const problem = this.#read.problem;
    if (problem !== null) this.#issue(problem.code, problem.message);
    if (chunk !== null) {
      try {
        this.#apply(chunk);
      } catch (e) {
        // defensive: e.g. a string past the engine's maximum length (maxChars: Infinity)
        this.#issue("invalid-chunk", `chunk could not be applied: ${describeThrown(e, 200)}`);
      }
    }
    this.#index++;
  }

  #mergeMetadata(c: Chunk<"start" | "finish" | "message-metadata">): void {
    if (this.#metadata.merge(c.messageMetadata)) return;
    this.#issue(
      c.type === "message-metadata" ? "invalid-chunk" : "invalid-field",
      `${c.type} chunk's messageMetadata could not be read (or nests over 32 records deep, or holds over 10,000 values); ignored`,
    );
  }

  #apply(c: UIMessageChunk): void {
    switch (c.type) {
      case "text-start":
      case "reasoning-start":
        return this.#text.start(c);
      case "text-delta":
      case "reasoning-delta":
        return this.#text.delta(c);
      case "text-end":
      case "reasoning-end":
        return this.#text.end(c);
      case "file":
      case "source-url":
      case "source-document":
        this.#parts.place(referencePart(c));
        return;
      case "tool-input-start":
        return this.#tools.inputStart(c);
      case "tool-input-delta":
        return this.#tools.inputDelta(c);
      case "tool-input-available":
        return this.#tools.inputAvailable(c);
      case "tool-input-error":
        return this.#tools.inputError(c);
      case "tool-approval-request":
        return this.#tools.approvalRequest(c);
      case "tool-approval-response":
        return this.#tools.approvalResponse(c);
      case "tool-output-denied":
        return this.#tools.outputDenied(c);
      case "tool-output-available":
      case "tool-output-error":
        return this.#tools.output(c);
      case "start-step":
        if (this.#parts.place({ type: "step-start" })) this.#tools.newStep();
        return;
      case "finish-step":
        return;
      case "reset-step": {
        const removed = this.#parts.cutStep();
        this.#text.clear();
        this.#tools.resetStep(removed);
        this.#data.forget(removed);
        return;
      }
      case "start":
        if (c.messageId !== undefined && c.messageId !== this.#id) this.#reset(c.messageId);
        return this.#mergeMetadata(c);
      case "finish":
        if (c.finishReason !== undefined) this.#finishReason = c.finishReason;
        return this.#mergeMetadata(c);
      case "message-metadata":
        return this.#mergeMetadata(c);
      case "error":
        if (this.#errors.length < this.#maxErrors) this.#errors.push(c.errorText);
        return;
      case "abort":
        this.#aborted = true;
        return;
      default:
        // a part named otherwise would fail this document's own schema
        if (!DATA_PART_KEY_PATTERN.test(c.type)) {
          return this.#issue(
            "invalid-chunk",
            `data chunk ${
              JSON.stringify(c.type.slice(0, 64))
            }: the name after data- is not an identifier (DATA_PART_KEY_PATTERN); skipped`,
          );
        }
        return this.#data.apply(c as DataChunk);
    }
  }

  /**
   * The message so far (partial tool inputs parsed as the AI SDK shows them).
   * The returned parts (and merged metadata) are this fold's own objects:
   * later chunks keep updating them, so copy a result you keep while pushing.
   */
  result(): FoldResult {
    this.#tools.materialiseAll();
    const message: UIMessage = {
      id: this.#id,
      role: "assistant",
      parts: this.#parts.parts.slice(),
    };
    if (this.#metadata.value !== undefined) message.metadata = this.#metadata.value;
    const r: FoldResult = {
      message,
      issues: this.#issues.issues.slice(),
      droppedIssues: this.#issues.dropped,
      errors: this.#errors.slice(),
      aborted: this.#aborted,
      count: this.#index,
    };
    if (this.#finishReason !== undefined) r.finishReason = this.#finishReason;
    return r;
  }
}

/** The (empty) result of `fold` for an input that cannot be read, with an issue at index -1. */
function refusedInput(fold: UIMessageFold, message: string): FoldResult {
  const r = fold.result();
  r.issues.push({ index: -1, code: "invalid-chunk", message });
  r.issues.sort((a, b) => a.index - b.index);
  return r;
}

/** `true` when `v` looks like a v1 envelope (never throws: a hostile value is no envelope). */
function isV1Envelope(v: unknown): boolean {
  try {
    return isRecord(v) && own(v, "schemaVersion") === 1 && Object.hasOwn(v, "event");
  } catch {
    return false;
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
  const fold = new UIMessageFold(options);
  const text = isText(input);
  if (text || !isIterable(input)) {
    // Untyped callers (JSON from storage) may pass anything: refuse, never throw
    // (a string is refused whole, never read character by character)
    const r = fold.result();
    r.issues.push({
      index: -1,
      code: "invalid-chunk",
      message: text
        ? "a string is not a stream of chunks: decode it first (each SSE event's data is one JSON chunk)"
        : "input is not an iterable of chunks",
    });
    r.issues.sort((a, b) => a.index - b.index);
    return r;
  }
  let v1: EnvelopeStream<UIMessageChunk> | undefined;
  let first = true;
  let read = 0;
  const refused: ChunkIssue[] = [];
  // a throwing iterator (a generator over a broken source, a revoked proxy)
  // ends the input: what was read so far is folded and the throw is an issue
  let readFailure: string | undefined;
  let limitHit = false;
  try {
    for (const item of input) {
      if (read === MAX_STREAM_ITEMS) {
        limitHit = true;
        break;
      }
      const index = read++;
      if (first) {
        first = false;
        if (isV1Envelope(item)) {
          v1 = new EnvelopeStream(new V1ToUIMessageChunks(), (items, at) => {
            for (const chunk of items) fold.push(chunk, at);
          });
        }
      }
      if (v1 === undefined) {
        fold.push(item);
        continue;
      }
      v1.offer(item, index);
    }
  } catch (e) {
    readFailure = `reading the input threw: ${
      describeThrown(e, 200)
    }; the rest of it is not folded`;
  }
  if (v1 !== undefined) {
    for (const r of v1.end(read)) refused.push(envelopeIssue(r.index, r.error));
  }
  const r = fold.result();
  if (v1 !== undefined) {
    r.count = read;
    r.issues = [...refused, ...r.issues].sort((a, b) => a.index - b.index);
  }
  if (readFailure !== undefined) {
    r.issues.push({ index: read, code: "invalid-chunk", message: readFailure });
  }
  if (limitHit) {
    r.issues.push({
      index: read,
      code: "limit",
      message: `more than ${MAX_STREAM_ITEMS} chunks (MAX_STREAM_ITEMS): the rest is not read`,
    });
  }
  return r;
}

/** The v1 ordering verdicts, reported under their own codes. */
const ORDERING_CODES: ReadonlySet<string> = new Set<ChatOrderingCode>([
  "gap",
  "duplicate",
  "reordered",
  "foreign-conversation",
  "foreign-turn",
]);

/**
 * The issue for an envelope the v1 intake refused or reported: an ordering
 * verdict under its own code, any other refusal as `invalid-chunk`; the
 * envelope's position fields kept.
 */
function envelopeIssue(index: number, e: V1AdapterRefusal): ChunkIssue {
  return {
    index,
    code: ORDERING_CODES.has(e.code) ? e.code as ChatOrderingCode : "invalid-chunk",
    message: e.message,
    ...(e.seq === undefined ? {} : { seq: e.seq }),
    ...(e.eventId === undefined ? {} : { eventId: e.eventId }),
    ...(e.eventType === undefined ? {} : { eventType: e.eventType }),
    ...(e.expectedSeq === undefined ? {} : { expectedSeq: e.expectedSeq }),
    ...(e.expected === undefined ? {} : { expected: e.expected }),
    ...(e.received === undefined ? {} : { received: e.received }),
  };
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

/** The async iterator of `source`, or `undefined` when it has none (never throws). */
function asyncIteratorOf(source: unknown): AsyncIterator<unknown> | undefined {
  try {
    if (source === null || (typeof source !== "object" && typeof source !== "function")) {
      return undefined;
    }
    const f = (source as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator];
    if (typeof f !== "function") return undefined;
    const it = f.call(source);
    return it !== null && typeof it === "object" && typeof it.next === "function" ? it : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Fold an async source (a `ReadableStream` or any async iterable) of chunks.
 * Same semantics as {@link foldUIMessage} for chunk streams. Never rejects:
 * bad chunks become issues; a `source` that is not async iterable is an
 * `invalid-chunk` issue at index -1; a source that errors (a stream error, a
 * throwing iterator) ends the input there, and the error is an
 * `invalid-chunk` issue at the index of the chunk that could not be read.
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
  const it = asyncIteratorOf(stream);
  if (it === undefined) return refusedInput(fold, "input is not an async iterable");
  let read = 0;
  let failure: string | undefined;
  try {
    for (;;) {
      const step = await it.next();
      if (step.done === true) break;
      read++;
      fold.push(step.value);
    }
  } catch (e) {
    failure = `reading the stream failed: ${describeThrown(e, 200)}; the rest of it is not folded`;
  }
  const r = fold.result();
  if (failure !== undefined) {
    r.issues.push({ index: read, code: "invalid-chunk", message: failure });
  }
  return r;
}
