/**
 * Web Streams encoders for servers: frames in, `text/event-stream` bytes
 * ({@link SseEncoderStream}) or text ({@link SseTextEncoderStream}) out.
 *
 * @module
 */
import { SseEncodeError } from "./errors.ts";
import { encodeSseComment, encodeSseFrame, type SseFrameInput } from "./encoder.ts";

/** A comment (keep-alive) to write into an encoder stream. */
export interface SseCommentInput {
  /** Comment text; every line becomes a `: line` comment line. */
  readonly comment: string;
}

/**
 * What the encoder streams accept: an event ({@link SseFrameInput}) or a
 * comment ({@link SseCommentInput}, recognised by an own `comment` property
 * and no `data`).
 */
export type SseStreamInput = SseFrameInput | SseCommentInput;

function encodeItem(item: SseStreamInput): string {
  if (item === null || typeof item !== "object") {
    throw new SseEncodeError("invalid-frame", "SSE stream item must be an object");
  }
  let isComment: boolean;
  let comment: unknown;
  try {
    isComment = Object.hasOwn(item, "comment") && !Object.hasOwn(item, "data");
    if (isComment) comment = (item as SseCommentInput).comment;
  } catch {
    // a revoked proxy or a throwing `comment` getter
    throw new SseEncodeError("invalid-frame", "the SSE stream item could not be read");
  }
  return isComment ? encodeSseComment(comment as string) : encodeSseFrame(item as SseFrameInput);
}

/**
 * Encode frames and comments to UTF-8 `text/event-stream` bytes, e.g. for a
 * `Response` body. An invalid item errors the stream with
 * {@link SseEncodeError}.
 *
 * @example
 * ```ts
 * import { SseEncoderStream } from "@papercusp/chat-protocol/sse";
 * const { readable, writable } = new SseEncoderStream();
 * const writer = writable.getWriter();
 * writer.write({ id: "1", event: "delta", data: JSON.stringify({ text: "hi" }) });
 * writer.write({ comment: "heartbeat" });
 * writer.close();
 * const response = new Response(readable, {
 *   headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
 * });
 * ```
 */
export class SseEncoderStream extends TransformStream<SseStreamInput, Uint8Array> {
  /** Create the stream. */
  constructor() {
    const encoder = new TextEncoder();
    super({
      transform(item, controller) {
        controller.enqueue(encoder.encode(encodeItem(item)));
      },
    });
  }
}

/**
 * Like {@link SseEncoderStream} but emits strings (one per item), for hosts
 * that do their own encoding.
 *
 * @example
 * ```ts
 * import { SseTextEncoderStream } from "@papercusp/chat-protocol/sse";
 * const text = ReadableStream.from([{ data: "a" }]).pipeThrough(new SseTextEncoderStream());
 * ```
 */
export class SseTextEncoderStream extends TransformStream<SseStreamInput, string> {
  /** Create the stream. */
  constructor() {
    super({
      transform(item, controller) {
        controller.enqueue(encodeItem(item));
      },
    });
  }
}
