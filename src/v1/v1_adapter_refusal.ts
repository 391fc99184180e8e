/**
 * {@link V1AdapterRefusal}: why a single-turn v1 adapter (v1 → AI SDK UI
 * message chunks, v1 → AG-UI events) refused one envelope, with the v1
 * fold's own vocabulary.
 *
 * @module
 */
import type { Refusal } from "../result.ts";
import type { ChatFoldRefusalCode } from "./fold.ts";
import type { ChatOrderingDetail, TurnStatus } from "./types.ts";

/**
 * The codes of {@link V1AdapterRefusal}: every code of the v1 fold's
 * `ChatFoldRefusal` about an envelope (the adapters apply the fold's own
 * rules, so an adapter's `push` refuses exactly what
 * `ChatStateFolder.push` refuses), with two differences:
 *
 * - the parser's codes (`unsupported-version`, `unknown-event-type`) are
 *   reported as `invalid-envelope`;
 * - `after-terminal` replaces the fold's `illegal-transition` for a new
 *   envelope after the turn ended (`done`, `error`, `turn_status:
 *   cancelled`); a re-sent terminal envelope is a `duplicate`.
 *
 * | code | meaning |
 * |---|---|
 * | `invalid-envelope` | the v1 parser refused the value |
 * | `foreign-conversation` / `foreign-turn` | it belongs to another conversation / turn |
 * | `duplicate` / `reordered` / `gap` | the v1 ordering verdicts (`seq`) |
 * | `after-terminal` | a new envelope after the turn ended |
 * | `illegal-transition` | the lifecycle forbids the event in the turn's status (e.g. `done` while a card is open) |
 * | `duplicate-call` / `unknown-call` / `finished-call` / `call-mismatch` | tool call identity |
 * | `duplicate-card` / `unknown-card` | card identity |
 */
export type V1AdapterRefusalCode =
  | Exclude<
    ChatFoldRefusalCode,
    "unsupported-version" | "unknown-event-type" | "invalid-state" | "invalid-options"
  >
  | "after-terminal";

/**
 * A refusal of one envelope by a v1 adapter, or (from a whole-stream
 * conversion) a report about one. Carries what is known about the envelope
 * ({@link ChatOrderingDetail}: `seq`, `eventId`, `eventType`, and
 * `expectedSeq` / `expected` / `received` for ordering verdicts) and, like
 * the fold's refusal, `status` (`illegal-transition`), `callId` (tool
 * refusals) or `correlationId` (card refusals).
 */
export interface V1AdapterRefusal extends Refusal<V1AdapterRefusalCode>, ChatOrderingDetail {
  /** `illegal-transition`: the status the turn was in. */
  readonly status?: TurnStatus;
  /** Tool refusals: the `callId`. */
  readonly callId?: string;
  /** Card refusals: the `correlationId`. */
  readonly correlationId?: string;
}
