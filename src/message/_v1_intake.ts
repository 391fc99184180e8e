/**
 * Internal: what the single-turn v1 adapters (`V1ToUIMessageChunks`,
 * `V1ToAgUi`) share on the way in — admitting one envelope, and running
 * a whole (untrusted) envelope stream through an adapter without throwing.
 *
 * @module
 */
import { err, ok, type Result } from "../result.ts";
import { isIterable } from "../_internal/guards.ts";
import type { ChatEventEnvelope } from "../v1/types.ts";
import { parseChatEnvelope } from "../v1/parse.ts";

/** Why an adapter refused one envelope (same shape as the public adapter refusals). */
export interface EnvelopeAdmissionRefusal {
  readonly code: "invalid-envelope" | "out-of-order" | "after-terminal" | "other-turn";
  readonly message: string;
}

/** Where a single-turn adapter stands. `turnId` is unset until an envelope was accepted. */
export interface TurnPosition {
  readonly ended: boolean;
  readonly turnId: string | undefined;
  readonly conversationId: string | undefined;
  readonly lastSeq: number;
}

/**
 * Parse `envelope` with the v1 parser, then refuse it when the turn already
 * ended (`unit` names the turn in the message), when it belongs to another
 * turn or conversation, or when its `seq` does not increase. Changes nothing.
 */
export function admitEnvelope(
  envelope: unknown,
  at: TurnPosition,
  unit: "run" | "turn",
): Result<ChatEventEnvelope, EnvelopeAdmissionRefusal> {
  const parsed = parseChatEnvelope(envelope);
  if (!parsed.ok) return err({ code: "invalid-envelope", message: parsed.error.message });
  const env = parsed.value;
  if (at.ended) return err({ code: "after-terminal", message: `the ${unit} already ended` });
  if (
    at.turnId !== undefined &&
    (env.turnId !== at.turnId || env.conversationId !== at.conversationId)
  ) {
    return err({
      code: "other-turn",
      message: `envelope of turn ${JSON.stringify(env.turnId.slice(0, 64))} in conversation ${
        JSON.stringify(env.conversationId.slice(0, 64))
      }`,
    });
  }
  if (env.seq <= at.lastSeq) {
    return err({ code: "out-of-order", message: `seq ${env.seq} after ${at.lastSeq}` });
  }
  return ok(env);
}

/** An incremental v1 adapter as {@link convertEnvelopes} drives it. */
export interface EnvelopeAdapter<T> {
  push(envelope: unknown): Result<T[], EnvelopeAdmissionRefusal>;
  end(): T[];
}

/**
 * Push every item of `envelopes` through `adapter`, then `end()` it. Never
 * throws: a non-iterable input is one `invalid-envelope` refusal at index
 * -1; an iterator that throws ends the input with an `invalid-envelope`
 * refusal at the index of the item that could not be read (what was read
 * before is converted).
 */
export function convertEnvelopes<T>(
  envelopes: unknown,
  adapter: EnvelopeAdapter<T>,
): { out: T[]; refused: { index: number; error: EnvelopeAdmissionRefusal }[] } {
  const out: T[] = [];
  const refused: { index: number; error: EnvelopeAdmissionRefusal }[] = [];
  if (!isIterable(envelopes)) {
    refused.push({
      index: -1,
      error: { code: "invalid-envelope", message: "input is not an iterable of envelopes" },
    });
    return { out, refused };
  }
  let index = 0;
  try {
    for (const env of envelopes) {
      const r = adapter.push(env);
      if (r.ok) { for (const x of r.value) out.push(x); }
      else refused.push({ index, error: r.error });
      index++;
    }
  } catch (e) {
    refused.push({
      index,
      error: {
        code: "invalid-envelope",
        message: `reading the envelopes threw: ${describeThrown(e)}; the rest is not converted`,
      },
    });
  }
  for (const x of adapter.end()) out.push(x);
  return { out, refused };
}

/** `String(e)` cut to 200 characters; never throws (a value whose `toString` throws is described as unprintable). */
export function describeThrown(e: unknown): string {
  try {
    return String(e).slice(0, 200);
  } catch {
    return "an unprintable value";
  }
}
