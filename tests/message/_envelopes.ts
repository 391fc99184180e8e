/**
 * Test helper: v1 envelopes of one turn (`conversationId` "c", `turnId` "t",
 * `eventId` `e<seq>`).
 *
 * @module
 */

/** The envelope of `event` at `seq`, with `extra` fields spread over it. */
export function envelope(
  seq: number,
  event: unknown,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    schemaVersion: 1,
    conversationId: "c",
    turnId: "t",
    eventId: `e${seq}`,
    seq,
    event,
    ...extra,
  };
}
