/**
 * The one error class the blocks area throws: {@link BlockArgumentError},
 * for a programmer's mistake only.
 *
 * @module
 */
import { initCodedError } from "../_internal/coded_error.ts";

/**
 * Reason codes of {@link BlockArgumentError}:
 * - `invalid-chunk`: a `TurnTextScannerStream` was written a chunk
 *   that is not a string (e.g. bytes piped in without a `TextDecoderStream`).
 */
export type BlockArgumentErrorCode = "invalid-chunk";

/**
 * What a `TurnTextScannerStream` errors with when it is written a
 * chunk that is not a string: a programmer's mistake. Model text is
 * untrusted input and never causes it (a malformed block is an `invalid`
 * segment). A `TypeError` subclass; match on {@link BlockArgumentError.code}.
 *
 * @example
 * ```ts
 * import { BlockArgumentError, TurnTextScannerStream } from "@papercusp/chat-protocol/blocks";
 * const bytes = ReadableStream.from([new Uint8Array([104, 105])]) as unknown as ReadableStream<string>;
 * try {
 *   for await (const _ of bytes.pipeThrough(new TurnTextScannerStream()));
 * } catch (e) {
 *   if (e instanceof BlockArgumentError) console.log(e.code); // "invalid-chunk"
 * }
 * ```
 */
export class BlockArgumentError extends TypeError {
  /** Stable machine-readable reason. */
  declare readonly code: BlockArgumentErrorCode;
  /** Create the error: a stable `code` and one sentence (`message`, not stable). */
  constructor(code: BlockArgumentErrorCode, message: string) {
    super(message);
    initCodedError(this, "BlockArgumentError", code);
  }
}
