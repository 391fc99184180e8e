/**
 * The one v1 ordering checker: identity (conversation, turn) and `seq`
 * order of a turn's envelopes, with one vocabulary and one gap policy, used
 * by every consumer of v1 envelopes: `ChatStateFolder` / `foldChatState`,
 * the AI SDK and AG-UI adapters and `foldUIMessage`.
 *
 * Vocabulary (the `code` of an {@link OrderingRefusal}):
 *
 * | code | meaning |
 * |---|---|
 * | `foreign-conversation` / `foreign-turn` | the envelope belongs to another conversation / turn |
 * | `duplicate` | `seq` at or below the last applied one, and its `eventId` was applied: a re-send |
 * | `reordered` | the envelope arrived after one with a higher `seq` of its turn |
 * | `gap` | `seq` skips one or more `seq`s that never arrived |
 *
 * Two policies, chosen by the input, never by the consumer:
 * - **Live input** (one envelope at a time, the next one not known yet):
 *   {@link TurnOrder}, the incremental check of one envelope against what
 *   was applied. It never waits: `seq` ahead of the next expected one is a
 *   `gap` at once (the caller may resynchronise knowingly), `seq` at or
 *   below the last applied one is a `duplicate` or `reordered` (refused:
 *   too late to apply in order). `ChatStateFolder.push`, the adapters'
 *   `push`, their `TransformStream` forms (`V1ToUIMessageChunksStream`,
 *   `V1ToAgUiStream`: a `gap` is reported at once, then the envelope is
 *   applied with `resync`) and the `./http` stream responses built on the
 *   adapters use it.
 * - **Complete input** (a whole array or iterable, as `foldChatState`,
 *   `v1ToUIMessageChunks`, `v1ToAgUiEvents` and `foldUIMessage` take it):
 *   {@link Sequencer}, the same rules over the whole stream, with a bounded
 *   reorder window of {@link REORDER_WINDOW} envelopes. An envelope ahead of
 *   the next expected `seq` is held (not applied yet). When the missing
 *   `seq` arrives, it and the held envelopes that follow are applied in
 *   `seq` order, and every envelope that arrived after a higher `seq` is
 *   reported once as `reordered` (nothing is lost: 1, 3, 2 reports
 *   `reordered` for seq 2, never `gap`). When the window overflows, or the
 *   stream ends, while a `seq` is still missing, that hole is reported once
 *   as `gap` (at the first envelope after it) and the fold goes on after it
 *   (1, 5, 6 reports one `gap`, at seq 5, and applies 5 and 6). Memory:
 *   at most {@link REORDER_WINDOW} held envelopes, plus the `eventId`s
 *   applied so far (to tell a `duplicate` from a `reordered` one).
 *
 * @module
 */
import type { Refusal } from "../result.ts";
import { refusal } from "../_internal/refusal.ts";
import { quoteClipped } from "../_internal/describe.ts";
import { parseChatEnvelope } from "./parse.ts";
import type { EnvelopeRefusal, ParseChatEnvelopeOptions } from "./parse.ts";
import type { ChatEventEnvelope, ChatOrderingCode, ChatOrderingDetail } from "./types.ts";
import { MAX_REFUSALS } from "./limits.ts";

/** The ordering and identity verdicts (see the module doc). */
export type OrderingCode = ChatOrderingCode;

/** One ordering or identity verdict, with the position of the envelope it is about. */
export interface OrderingRefusal extends Refusal<ChatOrderingCode>, ChatOrderingDetail {
  /** `seq` of the envelope. */
  readonly seq: number;
  /** `eventId` of the envelope. */
  readonly eventId: string;
  /** `event.type` of the envelope. */
  readonly eventType: string;
}

/**
 * How many envelopes ahead of a missing `seq` a whole-stream consumer holds
 * before it reports the `gap` and goes on (bounds the memory a stream with
 * a lost event can make it use).
 */
export const REORDER_WINDOW = 32;

const ID_QUOTE = 64;

/** The position fields every verdict on an envelope carries. */
export function positionOf(
  env: ChatEventEnvelope,
): { seq: number; eventId: string; eventType: string } {
  return { seq: env.seq, eventId: env.eventId, eventType: env.event.type };
}

function verdict(
  code: OrderingCode,
  message: string,
  env: ChatEventEnvelope,
  extra?: { expectedSeq?: number; expected?: string; received?: string },
): OrderingRefusal {
  return refusal(code, message, { ...positionOf(env), ...extra });
}

/** The `foreign-conversation` / `foreign-turn` verdict for `env`, or `null` when it is of this turn. */
export function foreignTo(
  env: ChatEventEnvelope,
  conversationId: string,
  turnId: string,
): OrderingRefusal | null {
  const conversation = env.conversationId !== conversationId;
  if (!conversation && env.turnId === turnId) return null;
  const what = conversation ? "conversation" : "turn";
  const expected = conversation ? conversationId : turnId;
  const received = conversation ? env.conversationId : env.turnId;
  return verdict(
    conversation ? "foreign-conversation" : "foreign-turn",
    `event ${env.seq} belongs to ${what} ${quoteClipped(received, ID_QUOTE)}, not ${
      quoteClipped(expected, ID_QUOTE)
    }`,
    env,
    { expected, received },
  );
}

/** The `gap` verdict: `env` skips the `seq`s from `expectedSeq` to `env.seq - 1`. */
export function gapBefore(env: ChatEventEnvelope, expectedSeq: number): OrderingRefusal {
  const missing = env.seq - expectedSeq === 1
    ? `seq ${expectedSeq}`
    : `seq ${expectedSeq}–${env.seq - 1}`;
  return verdict("gap", `event seq ${env.seq} skips ${missing}`, env, { expectedSeq });
}

/**
 * The strict, incremental ordering state of one turn: what was applied
 * (`lastSeq`, `lastEventId`, the applied `eventId`s) and whose turn it is
 * (bound by the constructor, or by the first applied envelope).
 */
export class TurnOrder {
  #conversationId: string | undefined;
  #turnId: string | undefined;
  #lastSeq: number;
  #lastEventId: string | null;
  /** eventIds of the applied events, in order (cheap to append). */
  #ids: string[] = [];
  /** Built from `#ids` on the first `seq ≤ lastSeq`, then kept up to date. */
  #seen: Set<string> | null = null;

  /**
   * Ids unset: bound by the first applied envelope. `lastSeq` /
   * `lastEventId`: resume after a saved state (only `lastEventId` is then
   * known of the applied ids).
   */
  constructor(
    conversationId?: string,
    turnId?: string,
    lastSeq = 0,
    lastEventId: string | null = null,
  ) {
    this.#conversationId = conversationId;
    this.#turnId = turnId;
    this.#lastSeq = lastSeq;
    this.#lastEventId = lastEventId;
    if (lastEventId !== null) this.#ids.push(lastEventId);
  }

  /** The turn's conversation (undefined until bound). */
  get conversationId(): string | undefined {
    return this.#conversationId;
  }
  /** The turn (undefined until bound). */
  get turnId(): string | undefined {
    return this.#turnId;
  }
  /** `seq` of the last applied envelope (0 before any). */
  get lastSeq(): number {
    return this.#lastSeq;
  }
  /** `eventId` of the last applied envelope (`null` before any). */
  get lastEventId(): string | null {
    return this.#lastEventId;
  }

  /**
   * The verdict on applying `env` now, or `null` when it may be applied:
   * `foreign-*` (when the turn is bound), `duplicate` / `reordered`
   * (`seq ≤ lastSeq`), `gap` (`seq > lastSeq + 1`, unless `resync`: the
   * caller knowingly skips the missing `seq`s). Changes nothing.
   */
  check(env: ChatEventEnvelope, resync: boolean): OrderingRefusal | null {
    const seq = env.seq;
    if (
      seq === this.#lastSeq + 1 && env.turnId === this.#turnId &&
      env.conversationId === this.#conversationId
    ) return null; // the common case: the next envelope of this (bound) turn
    if (this.#conversationId !== undefined) {
      const f = foreignTo(env, this.#conversationId, this.#turnId as string);
      if (f !== null) return f;
    }
    const expectedSeq = this.#lastSeq + 1;
    if (seq < expectedSeq) {
      if (this.#wasApplied(env.eventId)) {
        return verdict(
          "duplicate",
          `event ${quoteClipped(env.eventId, ID_QUOTE)} (seq ${seq}) was already applied`,
          env,
          { expectedSeq },
        );
      }
      return verdict(
        "reordered",
        `event seq ${seq} arrived after seq ${this.#lastSeq} (expected ${expectedSeq})`,
        env,
        { expectedSeq },
      );
    }
    if (seq > expectedSeq && !resync) return gapBefore(env, expectedSeq);
    return null;
  }

  /** Record `env` as applied (binding the turn on the first one). */
  applied(env: ChatEventEnvelope): void {
    if (this.#conversationId === undefined) {
      this.#conversationId = env.conversationId;
      this.#turnId = env.turnId;
    }
    this.#lastSeq = env.seq;
    this.#lastEventId = env.eventId;
    this.#ids.push(env.eventId);
    if (this.#seen !== null) this.#seen.add(env.eventId);
  }

  /**
   * Whether `eventId` was applied. The set of ids is built only when first
   * needed (a re-sent or reordered event), so an in-order stream never pays
   * for hashing every id.
   */
  #wasApplied(eventId: string): boolean {
    if (this.#seen === null) this.#seen = new Set(this.#ids);
    return this.#seen.has(eventId);
  }
}

/** What a {@link Sequencer} drives: one consumer of a turn's envelopes. */
export interface SequencedConsumer<R extends Refusal> {
  /**
   * Apply `env` (parsed, of this turn) now; `resync` when the sequencer
   * reported a `gap` before it and knowingly skips the missing `seq`s.
   * `null` when applied, else the refusal (nothing changed).
   */
  apply(env: ChatEventEnvelope, index: number, resync: boolean): R | null;
  /** The consumer's refusal of a value the v1 parser refused. */
  invalid(value: unknown, error: EnvelopeRefusal): R;
}

interface Held {
  readonly env: ChatEventEnvelope;
  readonly index: number;
  /** The highest `seq` held when this one arrived, when higher than its own (it arrived late). */
  readonly after: number | undefined;
}

/** A verdict with the 0-based index of the envelope it is about. */
export interface IndexedVerdict<R> {
  /** 0-based index of the envelope in the input. */
  readonly index: number;
  /** The verdict. */
  readonly error: R | OrderingRefusal;
}

/** The `refusals-omitted` entry that closes a capped refusal list. */
export interface OmittedRefusal extends Refusal<"refusals-omitted"> {
  /** How many refusals were found and not listed. */
  readonly omitted: number;
}

/**
 * The whole-stream ordering policy (see the module doc): parses each value,
 * refuses envelopes of another conversation or turn, holds envelopes ahead
 * of a missing `seq` (at most `window` of them), and hands the consumer
 * every envelope in `seq` order. Verdicts are collected in `verdicts`, in
 * the order they are decided (a `gap` is decided after the envelopes that
 * followed it were read: sort by `index` for input order), at most
 * {@link MAX_REFUSALS}; the rest are only counted ({@link listed} closes
 * the list with a `refusals-omitted` entry).
 */
export class Sequencer<R extends Refusal> {
  /** The verdicts so far (at most {@link MAX_REFUSALS}), in the order decided. */
  readonly verdicts: IndexedVerdict<R>[] = [];
  /** Verdicts found beyond {@link MAX_REFUSALS}: counted, not kept. */
  omitted = 0;
  /** The lowest input index among the omitted verdicts. */
  #firstOmitted = Infinity;
  /** Envelopes the consumer applied. */
  applied = 0;
  readonly #consumer: SequencedConsumer<R>;
  readonly #window: number;
  #conversationId: string | undefined;
  #turnId: string | undefined;
  #next: number;
  /** Held envelopes, sorted by `seq`, then arrival. */
  #held: Held[] = [];

  /** When set, every verdict goes here as it is decided instead of into {@link verdicts}. */
  readonly #sink: ((index: number, error: R | OrderingRefusal) => void) | undefined;
  /** What each value is parsed with (the host's extension registry). */
  readonly #parse: ParseChatEnvelopeOptions | undefined;

  /**
   * `conversationId` / `turnId`: the turn's ids (each defaults to the first
   * envelope's that parses); `lastSeq`: what the consumer already applied;
   * `window`: how many envelopes to hold (default {@link REORDER_WINDOW});
   * `sink`: receive every verdict as it is decided (none is kept or capped);
   * `parse`: the options each value is parsed with.
   */
  constructor(
    consumer: SequencedConsumer<R>,
    options: {
      conversationId?: string;
      turnId?: string;
      lastSeq?: number;
      window?: number;
      sink?: (index: number, error: R | OrderingRefusal) => void;
      parse?: ParseChatEnvelopeOptions;
    } = {},
  ) {
    this.#consumer = consumer;
    this.#sink = options.sink;
    this.#parse = options.parse;
    this.#window = options.window ?? REORDER_WINDOW;
    this.#conversationId = options.conversationId;
    this.#turnId = options.turnId;
    this.#next = (options.lastSeq ?? 0) + 1;
  }

  /** The turn's conversation (from the options or the first envelope that parsed). */
  get conversationId(): string | undefined {
    return this.#conversationId;
  }
  /** The turn (from the options or the first envelope that parsed). */
  get turnId(): string | undefined {
    return this.#turnId;
  }
  /** How many envelopes are held waiting for a missing `seq`. */
  get held(): number {
    return this.#held.length;
  }

  /** Take the value at `index` of the input. */
  offer(value: unknown, index: number): void {
    const parsed = parseChatEnvelope(value, this.#parse);
    if (!parsed.ok) {
      this.report(index, this.#consumer.invalid(value, parsed.error));
      return;
    }
    const env = parsed.value;
    if (
      this.#held.length === 0 && env.seq === this.#next && env.turnId === this.#turnId &&
      env.conversationId === this.#conversationId
    ) {
      // the common case: the next envelope of the turn, nothing held
      const r = this.#consumer.apply(env, index, false);
      if (r === null) {
        this.applied++;
        this.#next++;
      } else this.report(index, r);
    } else this.#offerOther(env, index);
  }

  /** Everything but the common case: bind the turn, refuse foreign ones, hold or apply. */
  #offerOther(env: ChatEventEnvelope, index: number): void {
    this.#conversationId ??= env.conversationId;
    this.#turnId ??= env.turnId;
    const foreign = foreignTo(env, this.#conversationId, this.#turnId);
    if (foreign !== null) {
      this.report(index, foreign);
      return;
    }
    const held = this.#held;
    const top = held.length === 0 ? 0 : held[held.length - 1].env.seq;
    const after = top > env.seq ? top : undefined;
    if (env.seq > this.#next) {
      let i = held.length;
      while (i > 0 && held[i - 1].env.seq > env.seq) i--;
      held.splice(i, 0, { env, index, after });
      while (held.length > this.#window) this.#skipGap();
      return;
    }
    this.#apply(env, index, after, false);
    this.#drain();
  }

  /** The input ended: every remaining hole is a `gap`; the held envelopes are applied. */
  end(): void {
    while (this.#held.length > 0) this.#skipGap();
  }

  /** Record a verdict about the input at `index` (kept while fewer than {@link MAX_REFUSALS}). */
  report(index: number, error: R | OrderingRefusal): void {
    if (this.#sink !== undefined) this.#sink(index, error);
    else if (this.verdicts.length < MAX_REFUSALS) this.verdicts.push({ index, error });
    else {
      this.omitted++;
      if (index < this.#firstOmitted) this.#firstOmitted = index;
    }
  }

  /**
   * The kept verdicts sorted by index, followed, when some were omitted, by
   * one `refusals-omitted` entry at the first omitted index.
   */
  listed(): IndexedVerdict<R | OmittedRefusal>[] {
    const out: IndexedVerdict<R | OmittedRefusal>[] = this.verdicts.length > 1
      ? this.verdicts.slice().sort((a, b) => a.index - b.index)
      : this.verdicts.slice();
    if (this.omitted > 0) {
      out.push({
        index: this.#firstOmitted,
        error: {
          code: "refusals-omitted",
          message: `${this.omitted} more refusal(s) found and not listed (a list keeps the ` +
            `first ${MAX_REFUSALS}); the first one left out is at index ${this.#firstOmitted}`,
          omitted: this.omitted,
        },
      });
    }
    return out;
  }

  #apply(env: ChatEventEnvelope, index: number, after: number | undefined, resync: boolean): void {
    const r = this.#consumer.apply(env, index, resync);
    if (r !== null) {
      this.report(index, r);
      return;
    }
    this.applied++;
    this.#next = env.seq + 1;
    if (after !== undefined) {
      this.report(
        index,
        verdict(
          "reordered",
          `event seq ${env.seq} arrived after seq ${after}; applied in seq order`,
          env,
        ),
      );
    }
  }

  #drain(): void {
    const held = this.#held;
    while (held.length > 0 && held[0].env.seq <= this.#next) {
      const h = held.shift()!;
      this.#apply(h.env, h.index, h.after, false);
    }
  }

  /** Report the hole before the first held envelope as a `gap`, apply it knowingly, go on. */
  #skipGap(): void {
    const h = this.#held.shift()!;
    this.report(h.index, gapBefore(h.env, this.#next));
    this.#apply(h.env, h.index, h.after, true);
    this.#drain();
  }
}
