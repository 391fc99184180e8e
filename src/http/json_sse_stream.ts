/**
 * The peers' own SSE encodings as `TransformStream`s: AI SDK UI message
 * chunks ({@link UIMessageChunkSseStream}: `data: <JSON>` per chunk, then
 * `data: [DONE]`, as the AI SDK's `JsonToSseTransformStream` writes them)
 * and AG-UI events ({@link AgUiEventSseStream}: `data: <JSON>` per event,
 * as `@ag-ui/encoder`'s `encodeSSE` writes them).
 *
 * @module
 */
import { readOptions } from "../_internal/fields.ts";
import type { StreamProblem } from "./stream_problem.ts";
import { DONE_FRAME, jsonDataFrame } from "./_sse_text.ts";

/** Options of the JSON SSE encoder streams. */
export interface JsonSseStreamOptions {
  /** Called for each item that cannot be serialized as JSON (it is skipped: `not-json`). */
  readonly onProblem?: (problem: StreamProblem) => void;
}

function jsonTransformer(
  options: unknown,
  closing: string | undefined,
): Transformer<unknown, Uint8Array> {
  const o = readOptions(options, ["onProblem"]);
  const onProblem = typeof o?.onProblem === "function"
    ? o.onProblem as (p: StreamProblem) => void
    : undefined;
  const encoder = new TextEncoder();
  return {
    transform(value, controller) {
      const frame = jsonDataFrame(value);
      if (frame !== undefined) {
        controller.enqueue(encoder.encode(frame));
        return;
      }
      try {
        onProblem?.({ code: "not-json", message: "an item cannot be serialized as JSON" });
      } catch {
        // the host's callback failing must not break the stream
      }
    },
    flush(controller) {
      if (closing !== undefined) controller.enqueue(encoder.encode(closing));
    },
  };
}

/**
 * AI SDK UI message chunks → the bytes of a UI message stream response:
 * `data: <chunk JSON>\n\n` per chunk and `data: [DONE]\n\n` when the input
 * ends. A chunk without JSON text is skipped and reported (`not-json`);
 * the stream never errors on bad input. Serve it with the
 * `UI_MESSAGE_STREAM_HEADERS_V1`.
 *
 * @example
 * ```ts
 * import { V1ToUIMessageChunksStream } from "@papercusp/chat-protocol/ai-sdk";
 * import { UI_MESSAGE_STREAM_HEADERS_V1, UIMessageChunkSseStream } from "@papercusp/chat-protocol/http";
 * declare const envelopes: ReadableStream<unknown>;
 * const body = envelopes.pipeThrough(new V1ToUIMessageChunksStream()).pipeThrough(new UIMessageChunkSseStream());
 * const res = new Response(body, { headers: UI_MESSAGE_STREAM_HEADERS_V1 });
 * ```
 */
export class UIMessageChunkSseStream extends TransformStream<unknown, Uint8Array> {
  /** Create the stream (see {@link JsonSseStreamOptions}). */
  constructor(options: JsonSseStreamOptions = {}) {
    super(jsonTransformer(options, DONE_FRAME));
  }
}

/**
 * AG-UI events → SSE bytes: `data: <event JSON>\n\n` per event (the bytes
 * `@ag-ui/encoder`'s `encodeSSE` writes for the events `V1ToAgUi` makes).
 * An event without JSON text is skipped and reported (`not-json`); the
 * stream never errors on bad input. Serve it with the `SSE_HEADERS`.
 *
 * @example
 * ```ts
 * import { V1ToAgUiStream } from "@papercusp/chat-protocol/ag-ui";
 * import { AgUiEventSseStream, SSE_HEADERS } from "@papercusp/chat-protocol/http";
 * declare const envelopes: ReadableStream<unknown>;
 * const body = envelopes.pipeThrough(new V1ToAgUiStream()).pipeThrough(new AgUiEventSseStream());
 * const res = new Response(body, { headers: SSE_HEADERS });
 * ```
 */
export class AgUiEventSseStream extends TransformStream<unknown, Uint8Array> {
  /** Create the stream (see {@link JsonSseStreamOptions}). */
  constructor(options: JsonSseStreamOptions = {}) {
    super(jsonTransformer(options, undefined));
  }
}
