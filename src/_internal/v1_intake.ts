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
import { isIterable, isText } from "./guards.ts";
import { describeThrown } from "./describe.ts";
import { refusal } from "./refusal.ts";
import type { ChatEventEnvelope, TurnStatus } from "../v1/types.ts";
import { type EnvelopeRefusal, parseChatEnvelope } from "../v1/parse.ts";
import { ChatStateFolder } from "../v1/fold.ts";
import { isTerminalTurnStatus } from "../v1/lifecycle.ts";
import { Sequencer } from "../v1/_ordering.ts";
import { MAX_STREAM_ITEMS } from "../v1/limits.ts";
import type { V1AdapterRefusal } from "../v1/v1_adapter_refusal.ts";

/** The shared describer, re-exported for the message files that import it from here. */
export { describeThrown };

/** The adapters' refusal of a value the v1 parser refused. */
function invalid(error: EnvelopeRefusal): V1AdapterRefusal {
  return { code: "invalid-envelope", message: error.message };
}

/** The fold's refusal codes that mean "the v1 parser refused it". */
const PARSE_CODES: ReadonlySet<string> = new Set([
  "invalid-envelope",
  "unsupported-version",
  "unknown-event-type",
]);

/**
 * The admission state of one single-turn adapter: a v1 fold
 * ({@link ChatStateFolder}) of what it accepted, so an adapter refuses
 * exactly what the fold refuses (ordering, lifecycle, tool and card
 * identity) and knows the turn's status. The fold binds to the turn of the
 * first envelope it applies.
 */
export class EnvelopeIntake {
  #folder: ChatStateFolder | null = null;
  readonly #unit: "run" | "turn";

  /** `unit` names the turn in the `after-terminal` message ("the run already ended"). */
  constructor(unit: "run" | "turn") {
    this.#unit = unit;
  }

  /** The turn's id, once an envelope was accepted. */
  get turnId(): string | undefined {
    return this.#folder?.turnId;
  }
  /** The turn's conversation id, once an envelope was accepted. */
  get conversationId(): string | undefined {
    return this.#folder?.conversationId;
  }
  /** The turn's status after what was accepted (`running` before anything). */
  get status(): TurnStatus {
    return this.#folder?.status ?? "running";
  }
  /** `seq` of the last accepted envelope (0 before any). */
  get lastSeq(): number {
    return this.#folder?.lastSeq ?? 0;
  }

  /** Parse `value` with the v1 parser (`invalid-envelope` when it refuses). Changes nothing. */
  parse(value: unknown): Result<ChatEventEnvelope, V1AdapterRefusal> {
    const parsed = parseChatEnvelope(value);
    return parsed.ok ? parsed : { ok: false, error: invalid(parsed.error) };
  }

  /**
   * Apply `env` (from {@link parse}) to the fold: `null` when accepted,
   * else the refusal (nothing changed). `resync` knowingly skips missing
   * `seq`s (a reported `gap`).
   */
  apply(env: ChatEventEnvelope, resync: boolean): V1AdapterRefusal | null {
    const folder = this.#folder ?? new ChatStateFolder(env.conversationId, env.turnId);
    const before = folder.status;
    const r = resync ? folder.resync(env) : folder.push(env);
    if (r.ok) {
      this.#folder = folder;
      return null;
    }
    const e = r.error;
    if (PARSE_CODES.has(e.code)) return { code: "invalid-envelope", message: e.message };
    if (e.code === "illegal-transition" && isTerminalTurnStatus(before)) {
      return refusal("after-terminal", `the ${this.#unit} already ended`, {
        seq: e.seq,
        eventId: e.eventId,
        eventType: e.eventType,
      });
    }
    const { issues: _issues, ...rest } = e;
    return rest as V1AdapterRefusal;
  }
}

/** An incremental v1 adapter as {@link EnvelopeStream} drives it. */
export interface EnvelopeAdapter<T> {
  /** Convert the next envelope (refuses a `gap`). */
  push(envelope: unknown): Result<T[], V1AdapterRefusal>;
  /** Convert an envelope after a reported `gap`, knowingly skipping the missing `seq`s. */
  resync(envelope: unknown): Result<T[], V1AdapterRefusal>;
  /** End of input: what the adapter still has to emit. */
  end(): T[];
}

/** A refusal (or report) with the 0-based index of the envelope it is about. */
export interface IndexedAdmissionRefusal {
  /** 0-based index in the input; -1 for the input itself. */
  readonly index: number;
  /** The refusal. */
  readonly error: V1AdapterRefusal;
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
  readonly #sequencer: Sequencer<V1AdapterRefusal>;

  /** Drive `adapter`; `emit` receives the items each applied envelope produced. */
  constructor(adapter: EnvelopeAdapter<T>, emit: (items: T[], index: number) => void) {
    this.#adapter = adapter;
    this.#sequencer = new Sequencer<V1AdapterRefusal>({
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
  report(index: number, error: V1AdapterRefusal): void {
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
  let truncated = false;
  try {
    for (const env of envelopes) {
      if (index === MAX_STREAM_ITEMS) {
        truncated = true; // listed last, whatever the cap on refusals left out
        break;
      }
      stream.offer(env, index++);
    }
  } catch (e) {
    stream.report(index, {
      code: "invalid-envelope",
      message: `reading the envelopes threw: ${describeThrown(e, 200)}; the rest is not converted`,
    });
  }
  const refused = stream.end(index);
  if (truncated) {
    refused.push({
      index,
      error: {
        code: "invalid-envelope",
        message: `more than ${MAX_STREAM_ITEMS} envelopes (MAX_STREAM_ITEMS): the rest is not read`,
      },
    });
  }
  return { out, refused };
}
