/**
 * {@link CursorResolver}: a host's own mapping of a `Last-Event-ID` to the
 * `seq` it names, for `v1SseResponse`.
 *
 * @module
 */

/**
 * The host's own cursor resolution: the `seq` a `Last-Event-ID` names in
 * the turn, or `null` when it names no event of the turn (refused
 * `unknown-cursor`). May be async; a throw or a value that is not a
 * non-negative safe integer (or `null`) is refused `invalid-cursor`.
 */
export type CursorResolver = (
  lastEventId: string,
  turn: { readonly conversationId: string; readonly turnId: string },
) => number | null | Promise<number | null>;
