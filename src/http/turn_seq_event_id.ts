/**
 * The event id scheme `<turnId>:<seq>`: {@link turnSeqEventId} allocates
 * such ids, {@link parseTurnSeqEventId} reads a `Last-Event-ID` back as the
 * `seq` it names. The stream response helpers resolve such a cursor without
 * reading the replay window; any other id is looked up in the window.
 *
 * @module
 */
import { HttpArgumentError } from "./errors.ts";

/**
 * The event id of `seq` in `turnId`: `<turnId>:<seq>`, e.g. `t1:42`. Unique
 * within a conversation when turn ids are (v1 asks eventIds to be unique
 * within the conversation).
 *
 * @throws {HttpArgumentError} `invalid-turn-id` when `turnId` is not a
 *   non-empty string, `invalid-seq` when `seq` is not a positive safe
 *   integer (a programmer's mistake)
 *
 * @example
 * ```ts
 * import { turnSeqEventId } from "@papercusp/chat-protocol/http";
 * turnSeqEventId("turn-1", 3); // "turn-1:3"
 * ```
 */
export function turnSeqEventId(turnId: string, seq: number): string {
  if (typeof turnId !== "string" || turnId.length === 0) {
    throw new HttpArgumentError("invalid-turn-id", "turnId must be a non-empty string");
  }
  if (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq < 1) {
    throw new HttpArgumentError("invalid-seq", "seq must be a positive safe integer");
  }
  return `${turnId}:${seq}`;
}

/** What {@link parseTurnSeqEventId} read. */
export type TurnSeqCursor =
  /** The id is `<turnId>:<seq>` of this turn. */
  | { readonly kind: "seq"; readonly seq: number }
  /** The id is `<other>:<seq>` with another (non-empty) turn id. */
  | { readonly kind: "other-turn"; readonly turnId: string; readonly seq: number }
  /** The id is not of this scheme. */
  | { readonly kind: "other" };

const DIGITS = /^[1-9][0-9]*$/;

/**
 * Read `eventId` as an id of the `<turnId>:<seq>` scheme
 * ({@link turnSeqEventId}) against the turn `turnId`: `seq` (a canonical
 * positive decimal, no sign, no leading zero, a safe integer) after the
 * last `:`. Never throws; a non-string is `other`.
 *
 * @example
 * ```ts
 * import { parseTurnSeqEventId } from "@papercusp/chat-protocol/http";
 * parseTurnSeqEventId("t1:7", "t1"); // { kind: "seq", seq: 7 }
 * parseTurnSeqEventId("t0:7", "t1"); // { kind: "other-turn", turnId: "t0", seq: 7 }
 * parseTurnSeqEventId("e7", "t1"); // { kind: "other" }
 * ```
 */
export function parseTurnSeqEventId(eventId: string, turnId: string): TurnSeqCursor {
  if (typeof eventId !== "string" || typeof turnId !== "string") return { kind: "other" };
  const colon = eventId.lastIndexOf(":");
  if (colon <= 0) return { kind: "other" };
  const digits = eventId.slice(colon + 1);
  if (digits.length > 16 || !DIGITS.test(digits)) return { kind: "other" };
  const seq = Number(digits);
  if (!Number.isSafeInteger(seq)) return { kind: "other" };
  const turn = eventId.slice(0, colon);
  return turn === turnId ? { kind: "seq", seq } : { kind: "other-turn", turnId: turn, seq };
}
