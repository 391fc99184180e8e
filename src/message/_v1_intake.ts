/**
 * What the single-turn v1 adapters (`V1ToUIMessageChunks`, `V1ToAgUi`) and
 * `foldUIMessage` share on the way in: admitting one envelope
 * ({@link EnvelopeIntake}), and running a whole (untrusted) envelope stream
 * through an adapter without throwing ({@link EnvelopeStream},
 * {@link convertEnvelopes}). The ordering rules and their vocabulary are the
 * v1 fold's own (`../v1/_ordering.ts`), so every consumer of v1 envelopes
 * gives the same verdicts for the same stream.
 *
 * @module
 */
import type { Result } from "../result.ts";
import { isIterable, isText } from "../_internal/guards.ts";
import { describeThrown } from "../_internal/describe.ts";
import { refuse } from "../_internal/refusal.ts";
import type { ChatEventEnvelope, EnvelopeAdmissionRefusal } from "../v1/types.ts";
import { type EnvelopeRefusal, parseChatEnvelope } from "../v1/parse.ts";
import { Sequencer, TurnOrder } from "../v1/_ordering.ts";

/** The shared describer, re-exported for the message files that import it from here. */
export { describeThrown };

/** The adapters' refusal of a value the v1 parser refused. */
function invalid(error: EnvelopeRefusal): EnvelopeAdmissionRefusal {
  return { code: "invalid-envelope", message: error.message };
}

/**
 * The admission state of one single-turn adapter: the turn it is bound to
 * (by the first accepted envelope) and the ordering of what it accepted.
 */
export class EnvelopeIntake {
  readonly #order = new TurnOrder();
  readonly #unit: "run" | "turn";

  /** `unit` names the turn in the `after-terminal` message ("the run already ended"). */
  constructor(unit: "run" | "turn") {
    this.#unit = unit;
  }

  /** The turn's id, once an envelope was accepted. */
  get turnId(): string | undefined {
    return this.#order.turnId;
  }
  /** The turn's conversation id, once an envelope was accepted. */
  get conversationId(): string | undefined {
    return this.#order.conversationId;
  }

  /**
   * Parse `value` with the v1 parser, then refuse it when it belongs to
   * another turn or conversation, when its `seq` is not the next one
   * (`duplicate`, `reordered`, or `gap` unless `resync`), or when the turn
   * already `ended`. Changes nothing: call {@link accept} once applied.
   */
  admit(
    value: unknown,
    ended: boolean,
    resync: boolean,
  ): Result<ChatEventEnvelope, EnvelopeAdmissionRefusal> {
    const parsed = parseChatEnvelope(value);
    if (!parsed.ok) return { ok: false, error: invalid(parsed.error) };
    const ordering = this.#order.check(parsed.value, resync);
    if (ordering !== null) return { ok: false, error: ordering };
    if (ended) return refuse("after-terminal", `the ${this.#unit} already ended`);
    return parsed;
  }

  /** Record `env` (admitted by {@link admit}) as applied. */
  accept(env: ChatEventEnvelope): void {
    this.#order.applied(env);
  }
}

/** An incremental v1 adapter as {@link EnvelopeStream} drives it. */
export interface EnvelopeAdapter<T> {
  /** Convert the next envelope (refuses a `gap`). */
  push(envelope: unknown): Result<T[], EnvelopeAdmissionRefusal>;
  /** Convert an envelope after a reported `gap`, knowingly skipping the missing `seq`s. */
  resync(envelope: unknown): Result<T[], EnvelopeAdmissionRefusal>;
  /** End of input: what the adapter still has to emit. */
  end(): T[];
}

/** A refusal (or report) with the 0-based index of the envelope it is about. */
export interface IndexedAdmissionRefusal {
  /** 0-based index in the input; -1 for the input itself. */
  readonly index: number;
  /** The refusal. */
  readonly error: EnvelopeAdmissionRefusal;
}

/**
 * A whole envelope stream through one adapter, with the v1 whole-stream
 * ordering policy (`../v1/_ordering.ts`: a reorder window of 32 envelopes,
 * `reordered` for a late envelope applied in `seq` order, one `gap` per
 * hole never filled). Items are emitted through `emit` with the index of the
 * envelope they came from, in `seq` order.
 */
export class EnvelopeStream<T> {
  readonly #adapter: EnvelopeAdapter<T>;
  readonly #emit: (items: T[], index: number) => void;
  readonly #sequencer: Sequencer<EnvelopeAdmissionRefusal>;

  /** Drive `adapter`; `emit` receives the items each applied envelope produced. */
  constructor(adapter: EnvelopeAdapter<T>, emit: (items: T[], index: number) => void) {
    this.#adapter = adapter;
    this.#sequencer = new Sequencer<EnvelopeAdmissionRefusal>({
      apply(env, index, resync) {
        const r = resync ? adapter.resync(env) : adapter.push(env);
        if (!r.ok) return r.error;
        emit(r.value, index);
        return null;
      },
      invalid: (_value, error) => invalid(error),
    });
    this.#emit = emit;
  }

  /** Take the value at `index` of the input. */
  offer(value: unknown, index: number): void {
    this.#sequencer.offer(value, index);
  }

  /** Record a refusal about the input at `index` that is not the adapter's (e.g. the input failed). */
  report(index: number, error: EnvelopeAdmissionRefusal): void {
    this.#sequencer.report(index, error);
  }

  /**
   * The input ended (`index`: one past the last envelope): report and skip
   * the remaining holes, then emit what the adapter still has. Returns the
   * refusals and reports sorted by index: the first `MAX_REFUSALS` (1,000),
   * then, when more were found, one `refusals-omitted` entry counting them.
   */
  end(index: number): IndexedAdmissionRefusal[] {
    this.#sequencer.end();
    this.#emit(this.#adapter.end(), index);
    return this.#sequencer.listed();
  }
}

/**
 * Push every item of `envelopes` through `adapter` with {@link EnvelopeStream},
 * then `end()` it. Never throws: a non-iterable input, or a string (text is
 * not a stream of envelopes), is one `invalid-envelope` refusal at index -1;
 * an iterator that throws ends the input with an `invalid-envelope` refusal
 * at the index of the item that could not be read (what was read before is
 * converted). The refusal list is capped as {@link EnvelopeStream.end} says.
 */
export function convertEnvelopes<T>(
  envelopes: unknown,
  adapter: EnvelopeAdapter<T>,
): { out: T[]; refused: IndexedAdmissionRefusal[] } {
  const out: T[] = [];
  const text = isText(envelopes);
  if (text || !isIterable(envelopes)) {
    return {
      out,
      refused: [{
        index: -1,
        error: {
          code: "invalid-envelope",
          message: text
            ? "a string is not a stream of envelopes: parse it first (e.g. " +
              "parseChatEnvelopeJson on each NDJSON line, or an SSE decoder)"
            : "input is not an iterable of envelopes",
        },
      }],
    };
  }
  const stream = new EnvelopeStream(adapter, (items) => {
    for (const x of items) out.push(x);
  });
  let index = 0;
  try {
    for (const env of envelopes) stream.offer(env, index++);
  } catch (e) {
    stream.report(index, {
      code: "invalid-envelope",
      message: `reading the envelopes threw: ${describeThrown(e, 200)}; the rest is not converted`,
    });
  }
  return { out, refused: stream.end(index) };
}
