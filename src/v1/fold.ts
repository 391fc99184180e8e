/**
 * The v1 fold: an envelope stream → {@link ChatStateV1}, refusing (typed)
 * gaps, duplicates, reordering, frames of a foreign conversation or turn,
 * illegal lifecycle transitions and tool/card identity errors.
 *
 * This module is the public facade; the work is done by private
 * collaborators: the ordering checker (`_ordering.ts`, shared with the
 * message adapters), the engine (`_turn_fold.ts`), the table of event
 * handlers (`_fold_events.ts`) and the saved-state validator
 * (`_saved_state.ts`, built on the envelope parser's validators).
 *
 * Linear in the number of events, snapshots included: text grows by
 * concatenation, tool calls and cards live in persistent vectors indexed by
 * id, so a snapshot after every event costs O(1) each.
 *
 * @module
 */
import { ChatArgumentError } from "./errors.ts";
import { err, ok, type Refusal, type Result } from "../result.ts";
import { isIterable, isRecord, isText } from "../_internal/guards.ts";
import { MAX_STREAM_ITEMS } from "./limits.ts";
import { describeThrown, describeValue } from "../_internal/describe.ts";
import { readOptions } from "../_internal/fields.ts";
import { isWireId } from "../_internal/id.ts";
import { refusal } from "../_internal/refusal.ts";
import {
  type EnvelopeIssue,
  type EnvelopeRefusal,
  parseChatEnvelope,
  type ParseChatEnvelopeOptions,
} from "./parse.ts";
import type { ChatExtensionRegistry } from "./extensions.ts";
import { type IndexedVerdict, Sequencer } from "./_ordering.ts";
import { TurnFold } from "./_turn_fold.ts";
import { readSavedState } from "./_saved_state.ts";
import type { ChatEventEnvelope, ChatOrderingDetail, ChatStateV1, TurnStatus } from "./types.ts";

/**
 * Codes of {@link ChatFoldRefusal}:
 *
 * | code | when |
 * |---|---|
 * | `invalid-envelope`, `unsupported-version`, `unknown-event-type` | the value is not a valid v1 envelope ({@link parseChatEnvelope}) |
 * | `foreign-conversation` / `foreign-turn` | ids differ from the folded turn's |
 * | `duplicate` | `seq ≤ lastSeq` and the `eventId` was already applied: a re-send (after a resume only `lastEventId` is known) |
 * | `reordered` | the envelope arrived after one with a higher `seq`: refused when `seq ≤ lastSeq` (too late to apply in order); in `foldChatState*`, an envelope that arrives within the reorder window is applied in `seq` order and reported |
 * | `gap` | `seq` skips `seq`s that never arrived: `push` refuses `seq > lastSeq + 1` at once (the first event must have `seq` 1); `foldChatState*` report it once, then go on |
 * | `illegal-transition` | the lifecycle forbids the event (see `nextTurnStatus`), e.g. anything after `done` |
 * | `duplicate-call` | `tool_call` reuses a `callId` already called in this turn |
 * | `unknown-call` | `tool_progress` / `tool_result` for a `callId` never called |
 * | `finished-call` | `tool_progress` / `tool_result` for a call that already has its result |
 * | `call-mismatch` | `tool_result.name` differs from the call's `name` |
 * | `duplicate-card` | `card` with a `correlationId` that is already open, or was closed in this turn (an answered card never re-prompts) |
 * | `unknown-card` | `card_closed` for a card that is not open (refused, not tolerated: it means a lost or foreign frame) |
 * | `unknown-extension`, `invalid-extension` | with an extension registry (`extensions` option) only: it refused the `ext` event ({@link parseChatEnvelope}) |
 * | `too-many-extensions` | a state-channel `ext` event with a 129th distinct name in the turn (`MAX_EXTENSION_STATE_NAMES`) |
 * | `invalid-state` | `foldChatState*` only: the `from` state is malformed (index -1) |
 * | `invalid-options` | `foldChatState*` only: the options cannot be read (throwing getter, revoked proxy), or a given `conversationId` / `turnId` is not a wire id (index -1) |
 * | `refusals-omitted` | `foldChatState` only: the last entry of a list capped at `MAX_REFUSALS`; `omitted` counts the refusals left out, `index` is the first one's |
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
  | "unknown-extension"
  | "invalid-extension"
  | "too-many-extensions"
  | "invalid-state"
  | "invalid-options"
  | "refusals-omitted";

/**
 * A typed refusal of the fold. Besides `code` and `message`, it carries what
 * is known about the refused frame ({@link ChatOrderingDetail}: `seq`,
 * `eventId`, `eventType` when readable; `expectedSeq` for `gap` /
 * `reordered` / `duplicate`; `expected` / `received` for `foreign-*`, and
 * `received` for `unsupported-version` / `unknown-event-type`) and the
 * reason's specifics.
 */
export interface ChatFoldRefusal extends Refusal<ChatFoldRefusalCode>, ChatOrderingDetail {
  /** `illegal-transition`: the status the turn was in. */
  readonly status?: TurnStatus;
  /** Tool refusals: the `callId`. */
  readonly callId?: string;
  /** Card refusals: the `correlationId`. */
  readonly correlationId?: string;
  /** `invalid-envelope` / `invalid-extension`: the validation problems. */
  readonly issues?: readonly EnvelopeIssue[];
  /** `unknown-extension` / `invalid-extension` / `too-many-extensions`: the extension name. */
  readonly name?: string;
  /** `refusals-omitted`: how many refusals were found and not listed. */
  readonly omitted?: number;
}

/** Options of {@link ChatStateFolder} (and of {@link resumeChatState}). */
export interface ChatStateFolderOptions {
  /**
   * The host's extension registry (`createExtensionRegistry`): it judges the
   * `data` of every `ext` event before the fold applies it.
   */
  readonly extensions?: ChatExtensionRegistry;
}

/**
 * The parse options for a fold's options: `{ extensions }` when a registry
 * was given, else `undefined` (options that cannot be read count as none).
 */
function parseOptions(options: unknown): ParseChatEnvelopeOptions | undefined {
  const extensions = readOptions(options, ["extensions"])?.extensions;
  return extensions === undefined ? undefined : { extensions: extensions as ChatExtensionRegistry };
}

/** Why {@link resumeChatState} refused a saved state. */
export interface InvalidStateRefusal extends Refusal<"invalid-state"> {
  /** The first offending field, e.g. `tools.0.progress`; `""` for the value itself. */
  readonly path: string;
}

/**
 * A fresh {@link ChatStateV1} for a turn that has seen no event: status
 * `running`, `lastSeq` 0, `lastEventId` null, empty text and collections.
 *
 * @throws {ChatArgumentError} `invalid-id` when an id is not a wire id: non-empty, no CR, LF, NUL or lone surrogate (a programmer's mistake)
 */
export function createChatState(conversationId: string, turnId: string): ChatStateV1 {
  return new TurnFold(checkId("conversationId", conversationId), checkId("turnId", turnId))
    .snapshot();
}

/** `id`, or a {@link ChatArgumentError} naming the argument when it is not a wire id. */
function checkId(name: string, id: unknown): string {
  if (isWireId(id)) return id;
  throw new ChatArgumentError(
    "invalid-id",
    `${name} must be a non-empty string without CR, LF, NUL or a lone surrogate, got ${
      describeValue(id)
    }`,
  );
}

/**
 * The fold's refusal of a value the parser refused, with the position read
 * from the value when it can be read (never throws).
 */
function invalidRefusal(value: unknown, e: EnvelopeRefusal): ChatFoldRefusal {
  let seq: unknown, eventId: unknown;
  try {
    if (isRecord(value)) {
      seq = value.seq;
      eventId = value.eventId;
    }
  } catch {
    // A hostile value (throwing getter, revoked proxy): its position is unknown.
  }
  return refusal(e.code as ChatFoldRefusalCode, e.message, {
    issues: "issues" in e ? e.issues : undefined,
    received: "received" in e ? e.received : undefined,
    name: "name" in e ? e.name : undefined,
    seq: typeof seq === "number" ? seq : undefined,
    eventId: typeof eventId === "string" ? eventId : undefined,
  });
}

const READ_THREW = "saved state: reading it threw";

/** {@link readSavedState}, guarded: a hostile saved state is refused, never thrown. */
function resume(state: unknown): Result<TurnFold, InvalidStateRefusal> {
  try {
    return readSavedState(state);
  } catch {
    return err({ code: "invalid-state", message: READ_THREW, path: "" });
  }
}

/** A folder over `fold` (set by the class's static block: only it can reach `#fold`). */
let adopt: (fold: TurnFold, options: ChatStateFolderOptions | undefined) => ChatStateFolder;

/**
 * Incremental fold of one turn's envelopes into {@link ChatStateV1}.
 *
 * Each {@link push} validates the envelope, checks identity, ordering,
 * lifecycle and tool/card identity, then applies it. A refused envelope
 * leaves the state unchanged. `push` never waits for a missing `seq`: an
 * envelope ahead of the next one is a `gap` at once (a live client resumes
 * from `lastEventId`, or applies it knowingly with {@link resync}); the
 * whole-stream {@link foldChatState} holds such envelopes in a reorder
 * window instead. Cost per event is O(1) amortized (plus the size of the
 * event), and so is {@link state}: a UI may take a snapshot after every
 * event (see {@link ChatStateV1} for how snapshots share structure).
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
  #fold: TurnFold;
  /** What each pushed value is parsed with (`undefined`: no registry). */
  readonly #parse: ParseChatEnvelopeOptions | undefined;

  /**
   * Start folding the turn `turnId` of conversation `conversationId` (no
   * event seen yet). `options.extensions`: the host's extension registry,
   * consulted for every `ext` event (see {@link parseChatEnvelope}).
   *
   * @throws {ChatArgumentError} `invalid-id` when an id is not a wire id: non-empty, no CR, LF, NUL or lone surrogate (a programmer's mistake)
   */
  constructor(conversationId: string, turnId: string, options?: ChatStateFolderOptions) {
    this.#fold = new TurnFold(checkId("conversationId", conversationId), checkId("turnId", turnId));
    this.#parse = parseOptions(options);
  }

  static {
    adopt = (fold, options) => {
      const f = new ChatStateFolder(fold.conversationId!, fold.turnId!, options);
      f.#fold = fold;
      return f;
    };
  }

  /** The conversation this folder accepts. */
  get conversationId(): string {
    return this.#fold.conversationId as string;
  }
  /** The turn this folder accepts. */
  get turnId(): string {
    return this.#fold.turnId as string;
  }
  /** The current status. */
  get status(): TurnStatus {
    return this.#fold.status;
  }
  /** `seq` of the last applied event (0 before any). */
  get lastSeq(): number {
    return this.#fold.lastSeq;
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
   *
   * An event that ends the turn (`done`, `error`, `turn_status: cancelled`)
   * also marks the tool calls still running `unfinished`, and a failed or
   * cancelled turn closes the cards still open (resolution `interrupted` /
   * `cancelled`; see `TURN_TRANSITIONS`).
   */
  push(value: unknown): Result<ChatEventEnvelope, ChatFoldRefusal> {
    return this.#push(value, false);
  }

  /**
   * Like {@link push} but accepts `seq > lastSeq + 1`, knowingly skipping the
   * missing events (every other check still applies). For tolerant
   * consumers (e.g. an inspector) that reported the `gap` from `push` and
   * want to go on.
   */
  resync(value: unknown): Result<ChatEventEnvelope, ChatFoldRefusal> {
    return this.#push(value, true);
  }

  #push(value: unknown, resync: boolean): Result<ChatEventEnvelope, ChatFoldRefusal> {
    const parsed = parseChatEnvelope(value, this.#parse);
    if (!parsed.ok) return err(invalidRefusal(value, parsed.error));
    const refused = this.#fold.apply(parsed.value, resync);
    return refused === null ? parsed : err(refused);
  }

  /**
   * A JSON-serialisable snapshot of the folded turn, in O(1) amortized: call
   * it after every `push`, as a UI does, and the total stays linear in the
   * number of events.
   *
   * The snapshot never changes as the fold goes on; keep it as long as you
   * like. It shares structure with the other snapshots: `tools`,
   * `openCards`, `closedCards` and their tool / closed-card objects, and
   * `provenance`, `state`, `done`, `error` are frozen and shared (the same
   * array while it did not change, the same object for an unchanged tool
   * call: compare by reference to see what changed); a large collection that
   * changed is materialized when first read. Opaque data (`input`,
   * `output`, `snapshot`, cards) is shared by reference. The snapshot object
   * itself is fresh: assigning to its fields changes it alone.
   */
  state(): ChatStateV1 {
    return this.#fold.snapshot();
  }
}

/**
 * A folder that resumes from a saved {@link ChatStateV1} (e.g. persisted
 * after `state()`), validating it first. The next accepted `seq` is
 * `lastSeq + 1`. Only `lastEventId` is remembered of the applied event ids,
 * so a re-sent older event is reported as `reordered`, not `duplicate`.
 * `options` as for a new {@link ChatStateFolder} (the extension registry).
 *
 * (Before 0.3 this was `ChatStateFolder.from(state)`. It is a function of
 * its own so that a client that never resumes does not ship the saved-state
 * validator: 1.7 KB of the 10 KB gzipped parse + fold + SSE client.)
 *
 * A saved state is refused (`invalid-state`, naming the first offending
 * field in `path`, e.g. `tools.0.blocks.0.text`) unless it is one the fold
 * could have produced:
 * - every field has its {@link ChatStateV1} type, with the same
 *   constraints as the events it folds (the envelope parser's own
 *   validators: wire ids, `progress` 0..1, a boolean
 *   `error.retryable`, known card resolutions, finite usage…); an optional
 *   field that is present must be valid (never silently dropped);
 * - tool `callId`s are unique, and so are card `correlationId`s across
 *   `openCards` and `closedCards` together; `startedSeq` / `finishedSeq`
 *   are within `1..lastSeq`, and a tool has a `finishedSeq` exactly when it
 *   is no longer `running`;
 * - `lastEventId` is `null` exactly when `lastSeq` is 0;
 * - `extensionState` / `extensionEvents`, when present, are non-empty,
 *   name extension names, hold bounded JSON `data` and `seq`s in
 *   `1..lastSeq` (increasing in `extensionEvents`); at most 128 names;
 * - the status agrees with the rest: `awaiting-input` has open cards,
 *   `running`, `completed`, `failed` and `cancelled` have none; a
 *   finished turn (`completed`, `failed`, `cancelled`) has no `running`
 *   tool call, and only a finished turn has `unfinished` ones;
 *   `done` is present exactly when `completed`, `error` exactly when
 *   `failed`.
 *
 * The folder keeps fresh copies of the saved state's structure (opaque
 * data such as tool `input`/`output`, cards and `state.snapshot` is kept
 * by reference, as in {@link ChatStateFolder.push}). Never throws: a
 * hostile value (throwing getter, revoked proxy) is `invalid-state` with
 * path `""`.
 *
 * @example
 * ```ts
 * import { ChatStateFolder, resumeChatState } from "@papercusp/chat-protocol";
 * const folder = new ChatStateFolder("c1", "t1");
 * folder.push({
 *   schemaVersion: 1, conversationId: "c1", turnId: "t1", eventId: "e1", seq: 1,
 *   event: { type: "delta", text: "Hi" },
 * });
 * const saved = JSON.stringify(folder.state()); // e.g. into sessionStorage
 * const again = resumeChatState(JSON.parse(saved));
 * if (again.ok) again.value.lastSeq; // 1: the next event is seq 2
 * ```
 */
export function resumeChatState(
  state: ChatStateV1,
  options?: ChatStateFolderOptions,
): Result<ChatStateFolder, InvalidStateRefusal> {
  const r = resume(state);
  return r.ok ? ok(adopt(r.value, options)) : r;
}

/** A fold refusal with the position of the refused value in the input. */
export interface IndexedFoldRefusal {
  /** 0-based index of the refused value in the input sequence. */
  readonly index: number;
  /** The refusal. */
  readonly error: ChatFoldRefusal;
}

/** Options of {@link foldChatState} and {@link foldChatStateStrict}. */
export interface FoldChatStateOptions extends ChatStateFolderOptions {
  /** Resume from this saved state (its ids are then the expected ones; the ids below are ignored). */
  from?: ChatStateV1;
  /** Expected conversation id; default: the first valid envelope's. */
  conversationId?: string;
  /** Expected turn id; default: the first valid envelope's. */
  turnId?: string;
}

/** What {@link foldChatState} returns. */
export interface FoldChatStateReport {
  /** The folded state; `null` when no valid envelope fixed the ids (and no `from`/ids were given). */
  readonly state: ChatStateV1 | null;
  /**
   * The refusals, sorted by index (in the order decided within one index).
   * Most are refused envelopes (state unchanged); two are reports on
   * envelopes that were applied: `gap` (the fold then skipped the missing
   * `seq`s) and a `reordered` envelope that arrived within the reorder
   * window (applied in `seq` order). Empty when the stream is clean. At
   * most `MAX_REFUSALS` (1,000) are listed; when more were found, one
   * last `refusals-omitted` entry counts the rest (`omitted`) at the first
   * index left out.
   */
  readonly refusals: readonly IndexedFoldRefusal[];
  /** Number of envelopes applied. */
  readonly applied: number;
}

const NOT_ITERABLE = "the envelopes are not an iterable (e.g. an array)";
const TOO_MANY_ENVELOPES =
  `more than ${MAX_STREAM_ITEMS} envelopes (MAX_STREAM_ITEMS): the rest is not read`;
const TEXT = "a string is not a stream of envelopes: parse it first (e.g. " +
  "parseChatEnvelopeJson on each NDJSON line, or an SSE decoder)";

/** One run of the whole-stream fold (shared by the lenient and the strict form). */
interface Run {
  readonly state: ChatStateV1 | null;
  readonly verdicts: IndexedVerdict<ChatFoldRefusal>[];
  readonly applied: number;
}

function refusedRun(code: ChatFoldRefusalCode, message: string): Run {
  return { state: null, verdicts: [{ index: -1, error: { code, message } }], applied: 0 };
}

/**
 * Fold `envelopes` through the ordering {@link Sequencer}. `strict`: stop as
 * soon as a verdict is certain to be the first by index (no envelope is
 * held: a held one could still earn an earlier-indexed `gap`).
 */
function run(envelopes: unknown, options: unknown, strict: boolean): Run {
  if (isText(envelopes)) return refusedRun("invalid-envelope", TEXT);
  if (!isIterable(envelopes)) return refusedRun("invalid-envelope", NOT_ITERABLE);
  const o = readOptions(options, ["from", "conversationId", "turnId", "extensions"]);
  if (o === null) return refusedRun("invalid-options", "the fold options could not be read");
  let fold: TurnFold | null = null;
  let conversationId: string | undefined, turnId: string | undefined;
  if (o.from !== undefined) {
    const r = resume(o.from);
    if (!r.ok) return refusedRun("invalid-state", r.error.message);
    fold = r.value;
    conversationId = fold.conversationId;
    turnId = fold.turnId;
  } else {
    for (const key of ["conversationId", "turnId"] as const) {
      if (o[key] !== undefined && !isWireId(o[key])) {
        return refusedRun("invalid-options", `${key} must be a wire id when given`);
      }
    }
    conversationId = o.conversationId as string | undefined;
    turnId = o.turnId as string | undefined;
    if (conversationId !== undefined && turnId !== undefined) {
      fold = new TurnFold(conversationId, turnId);
    }
  }
  const consumer = {
    fold,
    apply(env: ChatEventEnvelope, _index: number, resync: boolean): ChatFoldRefusal | null {
      return (this.fold ??= new TurnFold(env.conversationId, env.turnId)).apply(env, resync);
    },
    invalid: invalidRefusal,
  };
  const seq = new Sequencer<ChatFoldRefusal>(consumer, {
    conversationId,
    turnId,
    lastSeq: fold?.lastSeq,
    parse: o.extensions === undefined
      ? undefined
      : { extensions: o.extensions as ChatExtensionRegistry },
  });
  let index = 0;
  let truncated = false;
  try {
    for (const value of envelopes as Iterable<unknown>) {
      if (index === MAX_STREAM_ITEMS) {
        truncated = true; // listed last, whatever the cap on refusals left out
        break;
      }
      seq.offer(value, index++);
      if (strict && seq.verdicts.length > 0 && seq.held === 0) break;
    }
  } catch (e) {
    seq.report(index, {
      code: "invalid-envelope",
      message: `reading the envelopes threw: ${describeThrown(e, 200)}; the rest is not folded`,
    });
  }
  seq.end();
  fold = consumer.fold;
  if (fold === null && seq.conversationId !== undefined && seq.turnId !== undefined) {
    fold = new TurnFold(seq.conversationId, seq.turnId); // ids known, nothing applied
  }
  const verdicts = seq.listed() as IndexedVerdict<ChatFoldRefusal>[];
  if (truncated) {
    verdicts.push({ index, error: { code: "invalid-envelope", message: TOO_MANY_ENVELOPES } });
  }
  return { state: fold === null ? null : fold.snapshot(), verdicts, applied: seq.applied };
}

/**
 * Fold a whole stream, collecting **every** refusal with its position: for
 * inspectors and CLIs. The ordering policy is the whole-stream one (see
 * `ChatFoldRefusalCode`): an envelope ahead of a missing `seq` is held in a
 * reorder window of 32 envelopes; a late arrival within it is applied in
 * `seq` order and reported `reordered`; a `seq` that never arrives (window
 * full, or end of input) is reported once as `gap` at the first envelope
 * after it, and the fold goes on after it. Other refused envelopes are
 * skipped (state unchanged).
 *
 * Never throws: `envelopes` that is not iterable, or a string (text is
 * not a stream of envelopes: parse it first), is one `invalid-envelope`
 * refusal at index -1; an iterator that throws ends the input with an
 * `invalid-envelope` refusal at the index it could not read (what was read
 * is folded); an invalid `from` state gives `state: null` and one
 * `invalid-state` refusal at index -1; unreadable options, or a given id
 * that is not a wire id, one `invalid-options` refusal at index -1.
 *
 * (Before 0.3 a gap was refused at every later envelope unless
 * `resyncOnGap: true` was given; that option is gone: a gap is reported once
 * and the fold always goes on.)
 *
 * @example
 * ```ts
 * import { foldChatState } from "@papercusp/chat-protocol";
 * const lines = ["{\"schemaVersion\":1,\"conversationId\":\"c\",\"turnId\":\"t\",\"eventId\":\"e1\",\"seq\":1,\"event\":{\"type\":\"done\"}}"];
 * const { state, refusals } = foldChatState(lines.map((l) => JSON.parse(l)));
 * for (const r of refusals) console.log(`#${r.index}: ${r.error.code} ${r.error.message}`);
 * console.log(state?.status); // "completed"
 * ```
 */
export function foldChatState(
  envelopes: Iterable<unknown>,
  options?: FoldChatStateOptions,
): FoldChatStateReport {
  const r = run(envelopes, options, false);
  return {
    state: r.state,
    refusals: r.verdicts as IndexedFoldRefusal[],
    applied: r.applied,
  };
}

/**
 * Fold a whole stream strictly: the first refusal by index fails the fold
 * and is returned with its index (the same verdicts as
 * {@link foldChatState}, including a `reordered` envelope that was applied
 * in order). For consumers that must not render a turn with problems. An
 * empty stream with no `from`/ids is refused `invalid-envelope` (index 0),
 * `envelopes` that is not iterable too (index -1), an invalid `from` state
 * `invalid-state` (index -1), unreadable options `invalid-options`
 * (index -1). Never throws.
 */
export function foldChatStateStrict(
  envelopes: Iterable<unknown>,
  options?: FoldChatStateOptions,
): Result<ChatStateV1, ChatFoldRefusal & { readonly index: number }> {
  const r = run(envelopes, options, true);
  if (r.verdicts.length > 0) {
    const first = r.verdicts[0];
    return err({ ...first.error, index: first.index } as ChatFoldRefusal & { index: number });
  }
  if (r.state === null) {
    return err({ code: "invalid-envelope", message: "no envelope to fold", index: 0 });
  }
  return ok(r.state);
}
