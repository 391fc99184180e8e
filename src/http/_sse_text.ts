/**
 * SSE text of the peers' streams: one JSON object per `data:`
 * line, as the AI SDK's `JsonToSseTransformStream` and `@ag-ui/encoder`'s
 * `encodeSSE` write it, and the AI SDK's closing `data: [DONE]`.
 *
 * @module
 */

/** The AI SDK UI message stream's last frame. */
export const DONE_FRAME = "data: [DONE]\n\n";

/** `data: <JSON>\n\n`, or `undefined` when `value` has no JSON text (a `BigInt`, a cycle, a throwing getter). */
export function jsonDataFrame(value: unknown): string | undefined {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return undefined;
  }
  return json === undefined ? undefined : `data: ${json}\n\n`;
}
