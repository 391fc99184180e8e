/**
 * {@link encodeChatEnvelopeFrame}: one v1 {@link ChatEventEnvelope} → one SSE
 * frame, with the envelope's `eventId` as the SSE `id:` (the client's
 * `Last-Event-ID` cursor), its `event.type` as the SSE `event:` and the JSON
 * envelope as `data:`.
 *
 * @module
 */
import { parseChatEnvelope } from "../v1/parse.ts";
import { isNotJsonRefusal } from "../_internal/json_value.ts";
import type { ChatEventEnvelope } from "../v1/types.ts";
import { SseEncodeError } from "./errors.ts";
import { encodeSseFrame } from "./encoder.ts";
import { readOptions } from "../_internal/fields.ts";
import { describeThrown } from "../_internal/describe.ts";
import { err, ok, type Result } from "../result.ts";

/** Options of {@link encodeChatEnvelopeFrame}. */
export interface EncodeChatEnvelopeFrameOptions {
  /** Also write `retry:` (reconnection time in milliseconds, a non-negative safe integer). */
  readonly retry?: number;
}

/**
 * Encode a v1 envelope as an SSE frame:
 * `id: <eventId>` / `event: <event.type>` / `data: <JSON of the envelope>`.
 *
 * The envelope is validated first ({@link parseChatEnvelope}) and the
 * validated copy is written, so unknown keys are dropped and what goes on the
 * wire is exactly what a client's `parseChatEnvelopeJson(message.data)`
 * accepts. `data` is one line (JSON text never contains a raw CR or LF), and
 * `JSON.stringify` escapes lone surrogates, so any envelope round-trips.
 *
 * @param envelope the envelope to send
 * @param options `retry` to include
 * @returns the frame text, ending with a blank line
 * @throws {SseEncodeError} `invalid-frame` when the value is not a valid v1
 *   envelope (the message names the first problem; this includes an
 *   `eventId` that cannot be an SSE id, with CR, LF, NUL or a lone surrogate:
 *   the v1 parser refuses it as it refuses every id the wire cannot carry),
 *   `invalid-data` when opaque data (`input`, `output`, `snapshot`, a card)
 *   is not JSON data (a `BigInt`, a cycle, a `Map`; the parser's `not-json`
 *   issue), `invalid-retry` (not a
 *   non-negative safe integer, or the options cannot be read)
 *
 * @example
 * ```ts
 * import { encodeChatEnvelopeFrame } from "@papercusp/chat-protocol/sse";
 * encodeChatEnvelopeFrame({
 *   schemaVersion: 1, conversationId: "c1", turnId: "t1", eventId: "t1:1", seq: 1,
 *   event: { type: "delta", text: "Hi" },
 * });
 * // 'id: t1:1\nevent: delta\ndata: {"schemaVersion":1,…,"event":{"type":"delta","text":"Hi"}}\n\n'
 * ```
 */
export function encodeChatEnvelopeFrame(
  envelope: ChatEventEnvelope,
  options?: EncodeChatEnvelopeFrameOptions,
): string {
  const fields = chatEnvelopeFields(envelope);
  if (!fields.ok) throw new SseEncodeError(fields.error.code, fields.error.message);
  const o = readOptions(options, ["retry"]);
  if (o === null) throw new SseEncodeError("invalid-retry", "the options could not be read");
  return encodeSseFrame({ ...fields.value, retry: o.retry as number | undefined });
}

/** Why an envelope cannot be sent (the matching {@link SseEncodeError} codes). */
export interface ChatEnvelopeFrameRefusal {
  /** `invalid-data`: opaque data is not JSON data; `invalid-frame`: not a valid v1 envelope. */
  readonly code: "invalid-data" | "invalid-frame";
  /** What is wrong (not stable). */
  readonly message: string;
}

/**
 * {@link encodeChatEnvelopeFrame} (without `retry`) for an untrusted value,
 * as a Result: the frame, or why the value cannot be sent. Never throws.
 */
export function chatEnvelopeFrame(envelope: unknown): Result<string, ChatEnvelopeFrameRefusal> {
  const fields = chatEnvelopeFields(envelope);
  // The parsed envelope's eventId and event type are valid SSE fields (the
  // v1 parser refuses every id the wire cannot carry), so this cannot throw.
  return fields.ok ? ok(encodeSseFrame(fields.value)) : fields;
}

/** The SSE `id`, `event` and `data` of a valid envelope, or why it has none. */
function chatEnvelopeFields(
  envelope: unknown,
): Result<{ id: string; event: string; data: string }, ChatEnvelopeFrameRefusal> {
  const parsed = parseChatEnvelope(envelope);
  if (!parsed.ok) {
    const e = parsed.error;
    return err({
      code: isNotJsonRefusal(e) ? "invalid-data" : "invalid-frame",
      message: e.message,
    });
  }
  const env = parsed.value;
  let data: string;
  try {
    data = JSON.stringify(env);
  } catch (e) {
    return err({
      code: "invalid-data",
      message: `the envelope is not JSON-serialisable (${describeThrown(e, 200)})`,
    });
  }
  return ok({ id: env.eventId, event: env.event.type, data });
}
