/**
 * {@link SseDecoderStream}: a Web Streams `TransformStream` from
 * `text/event-stream` bytes or text to {@link SseMessage}s.
 *
 * @module
 */
import { type SseDecodeOptions, type SseMessage, SseParser } from "./parser.ts";
import { readOptions } from "../_internal/fields.ts";
import { DECODE_OPTION_KEYS } from "./_options.ts";
import { SseArgumentError } from "./errors.ts";

/** Options of {@link SseDecoderStream}: limits, initial last event ID, `retry` and comment callbacks. */
export type SseDecoderStreamOptions = SseDecodeOptions;

/**
 * Decode a `text/event-stream` body into messages, following WHATWG HTML
 * §9.2.6 "Interpreting an event stream" (see {@link SseParser} for the rules
 * and for the meaning of each {@link SseMessage} field).
 *
 * Input chunks may be UTF-8 bytes (`Uint8Array`, e.g. `response.body`) or
 * strings, split anywhere. `retry` values and comments are reported through
 * the `onRetry` / `onComment` options. An unterminated event at the end of
 * the stream is discarded. When a line or an event exceeds its bound
 * (`maxLineLength` / `maxEventLength`, UTF-16 code units, default 1 MiB)
 * the stream errors with {@link SseLimitError}.
 *
 * @example
 * ```ts
 * import { SseDecoderStream } from "@papercusp/chat-protocol/sse";
 * const body = new Response("id: 7\nevent: delta\ndata: {\"text\":\"hi\"}\n\n").body!;
 * const decoder = new SseDecoderStream({ onComment: (c) => console.log("comment", c) });
 * for await (const message of body.pipeThrough(decoder)) {
 *   console.log(message.event, JSON.parse(message.data), message.lastEventId); // delta {text:"hi"} "7"
 * }
 * console.log(decoder.lastEventId); // "7": send as Last-Event-ID when resuming
 * ```
 */
export class SseDecoderStream extends TransformStream<string | Uint8Array, SseMessage> {
  readonly #parser: SseParser;

  /**
   * Create the stream. A chunk that is neither a string nor a `Uint8Array`
   * errors the stream with an {@link SseArgumentError} (`invalid-chunk`, see
   * {@link SseParser.feed}).
   *
   * @param options limits, initial last event ID and callbacks
   * @throws {SseArgumentError} if an option has the wrong type or the
   *   options cannot be read (codes as for {@link SseParser})
   */
  constructor(options: SseDecoderStreamOptions = {}) {
    let controller!: TransformStreamDefaultController<SseMessage>;
    const o = readOptions(options, DECODE_OPTION_KEYS);
    if (o === null) {
      throw new SseArgumentError("invalid-options", "SseDecoderStream's options could not be read");
    }
    const parser = new SseParser({
      ...(o as SseDecodeOptions),
      onEvent: (message) => controller.enqueue(message),
    });
    super({
      start(c) {
        controller = c;
      },
      transform(chunk) {
        parser.feed(chunk);
      },
      flush() {
        parser.end();
      },
    });
    this.#parser = parser;
  }

  /**
   * The stream's last event ID so far (see {@link SseParser.lastEventId}).
   * A whole chunk is parsed at once, so while you are still handling one
   * message this may already name a later one that is queued behind it: to
   * persist a resume cursor per handled message, use that message's
   * {@link SseMessage.lastEventId}.
   */
  get lastEventId(): string {
    return this.#parser.lastEventId;
  }
}
