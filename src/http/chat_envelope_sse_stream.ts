/**
 * {@link ChatEnvelopeSseStream}: v1 envelopes → the bytes of a v1 SSE
 * response, as a `TransformStream`.
 *
 * @module
 */
import { chatEnvelopeFrame } from "../sse/envelope.ts";
import { readOptions } from "../_internal/fields.ts";
import { clipText } from "../_internal/describe.ts";
import type { StreamProblem } from "./stream_problem.ts";

/** Options of {@link ChatEnvelopeSseStream}. */
export interface ChatEnvelopeSseStreamOptions {
  /** Write `retry: <ms>` first (a non-negative safe integer; default none). */
  readonly retryMs?: number;
  /** Called for each envelope that cannot be sent (it is skipped). */
  readonly onProblem?: (problem: StreamProblem) => void;
}

/**
 * A `TransformStream` of v1 envelopes to SSE bytes (UTF-8): each envelope
 * as `encodeChatEnvelopeFrame` writes it (`id:` = `eventId`, `event:` =
 * its type, `data:` = the validated JSON envelope), after an optional
 * `retry:`. A value that is not a valid v1 envelope, or whose data is not
 * JSON, is skipped and reported to `onProblem` (`invalid-frame`,
 * `not-json`); the stream never errors on bad input. Pipe it into a
 * `Response` with the `SSE_HEADERS`.
 *
 * @example
 * ```ts
 * import { ChatEnvelopeSseStream, SSE_HEADERS } from "@papercusp/chat-protocol/http";
 * declare const envelopes: ReadableStream<unknown>;
 * const res = new Response(envelopes.pipeThrough(new ChatEnvelopeSseStream({ retryMs: 1000 })), {
 *   headers: SSE_HEADERS,
 * });
 * ```
 */
export class ChatEnvelopeSseStream extends TransformStream<unknown, Uint8Array> {
  /** Create the stream (see {@link ChatEnvelopeSseStreamOptions}). */
  constructor(options: ChatEnvelopeSseStreamOptions = {}) {
    const o = readOptions(options, ["retryMs", "onProblem"]);
    const retry = typeof o?.retryMs === "number" && Number.isSafeInteger(o.retryMs) &&
        o.retryMs >= 0
      ? o.retryMs
      : undefined;
    const onProblem = typeof o?.onProblem === "function"
      ? o.onProblem as (p: StreamProblem) => void
      : undefined;
    const encoder = new TextEncoder();
    super({
      start(controller) {
        if (retry !== undefined) controller.enqueue(encoder.encode(`retry: ${retry}\n\n`));
      },
      transform(value, controller) {
        const frame = chatEnvelopeFrame(value);
        if (!frame.ok) {
          try {
            onProblem?.({
              code: frame.error.code === "invalid-data" ? "not-json" : "invalid-frame",
              message: `an envelope cannot be sent: ${clipText(frame.error.message, 200)}`,
            });
          } catch {
            // the host's callback failing must not break the stream
          }
          return;
        }
        controller.enqueue(encoder.encode(frame.value));
      },
    });
  }
}
