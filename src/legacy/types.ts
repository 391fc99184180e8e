/**
 * Types of the legacy0 host adapter: unversioned frames already on the wire
 * (Scout's unnamed frames and Papercup's named v0 events), what decoding them
 * yields, and the typed refusals of decode, upgrade and encode.
 *
 * Sources: `legacy-scout.md` (Scout wire, §B) and `v0-wire.md` (§1–3).
 *
 * @module
 */
import type { OpenCardSnapshot } from "../cards/types.ts";
import type { Refusal } from "../result.ts";

/**
 * Which legacy vocabulary a frame is read in. The host selects it
 * explicitly; nothing here guesses it.
 *
 * - `scout`: Scout frames (`Papercusp/scout-chat` on `@papercusp/sse`):
 *   unnamed SSE events (no `event:` line), a numeric `id:`, and the
 *   discriminant inside the JSON `data` as `type` (`token`, `tool_start`,
 *   `session`, `card`, `card_closed`, `navigate`, `error`, `done`, `state`,
 *   plus Scout domain events such as `products` and `broaden`).
 * - `papercup`: Papercup's named v0 events (`event: delta` …), read with the
 *   v0 rules of `parseChatEvent`.
 */
export type LegacyDialect = "scout" | "papercup";

/**
 * One SSE frame as an SSE decoder dispatches it: the optional `id:` and
 * `event:` fields and the `data:` payload (lines joined by `\n`), all raw
 * strings. `data` is JSON text; it is parsed by the decoder, never evaluated.
 */
export interface LegacyFrame {
  /** The SSE `id:` field. Scout: a decimal number (its resume cursor). */
  id?: string;
  /** The SSE `event:` field. Absent or `message` for an unnamed event. */
  event?: string;
  /** The SSE `data:` payload: JSON text. */
  data: string;
}

/** Token and cost usage as the legacy `done` carries it (counts in tokens, cost in USD). */
export interface LegacyUsage {
  /** Total tokens of the turn. */
  totalTokens?: number;
  /** Input (prompt) tokens; Papercup only (Scout's `done` has no such field). */
  inputTokens?: number;
  /** Output (completion) tokens; Papercup only. */
  outputTokens?: number;
  /** Cost in US dollars. */
  costUsd?: number;
}

/**
 * A legacy chat event after decoding, normalized to the v0 names
 * (`token{content}` → `delta{text}`, `tool_start{tool|name}` →
 * `tool_call{name}`). Optional identity fields are kept only when the frame
 * carried them: nothing is invented.
 */
export type LegacyChatEvent =
  | { type: "session"; sessionId: string }
  | { type: "delta"; text: string }
  | { type: "tool_call"; name: string; callId?: string; input?: unknown }
  | { type: "tool_result"; name: string; callId?: string; ok?: boolean; summary?: string }
  | { type: "provenance"; engine: string; model: string; accountRoute?: string | null }
  | { type: "card"; card: OpenCardSnapshot }
  | { type: "card_closed"; correlationId: string }
  | { type: "state"; version: number; snapshot: unknown }
  | { type: "done"; stopReason?: string; usage?: LegacyUsage }
  | { type: "error"; message: string }
  | { type: "navigate"; href: string };

/** A decoded chat frame. */
export interface LegacyChatFrame {
  /** Discriminant: a chat event. */
  kind: "chat";
  /** The vocabulary the frame was read in. */
  dialect: LegacyDialect;
  /** The SSE `id:` as received (Scout: decimal digits), if any. */
  id?: string;
  /** The type name as it appeared on the wire, e.g. `token` or `delta`. */
  wireType: string;
  /**
   * For a Scout `tool_start`: which field named the tool. `tool` is the
   * reducer's field (scout-chat); `name` is what Scout's runtime
   * (`runScoutTurn`) emits. Both are accepted.
   */
  toolNameField?: "tool" | "name";
  /** The normalized event. */
  event: LegacyChatEvent;
}

/**
 * A consumer domain event (Scout `products`, `broaden`, `highlight`, …, or a
 * Papercup named event outside the v0 vocabulary). Passed through for the
 * host's own handler; it has no chat meaning and no v1 representation.
 */
export interface LegacyDomainFrame {
  /** Discriminant: a consumer domain event. */
  kind: "domain";
  /** The vocabulary the frame was read in. */
  dialect: LegacyDialect;
  /** The SSE `id:` as received, if any. */
  id?: string;
  /** The domain event's name (Scout: `data.type`; Papercup: the `event:` name). */
  type: string;
  /** The parsed JSON payload (a fresh-from-`JSON.parse` object, not validated). */
  data: unknown;
}

/** A keep-alive (`event: heartbeat`). Carries no chat meaning and no cursor. */
export interface LegacyHeartbeatFrame {
  /** Discriminant: a keep-alive. */
  kind: "heartbeat";
  /** The vocabulary the frame was read in. */
  dialect: LegacyDialect;
  /** `tsMs` (epoch milliseconds) when the payload carried a finite number. */
  tsMs?: number;
}

/** What {@link decodeLegacyChatFrame} yields for an accepted frame. */
export type LegacyDecodedFrame = LegacyChatFrame | LegacyDomainFrame | LegacyHeartbeatFrame;

/**
 * Refusal codes of the legacy adapter.
 *
 * Decode: `invalid-frame` (not `{data: string, id?: string, event?: string}`),
 * `oversized` (data longer than the bound), `invalid-json`, `not-an-object`
 * (JSON that is not an object), `missing-type` (Scout data without a string
 * `type`), `missing-event-name` (Papercup frame without an `event:` name),
 * `type-mismatch` (Papercup payload `type` disagrees with the name),
 * `invalid-id` (Scout `id:` not decimal digits), `invalid-event` (a chat type
 * whose required fields are missing or mistyped).
 *
 * Upgrade adds: `not-chat-event` (domain or heartbeat frame),
 * `missing-call-identity`, `unknown-result-status`,
 * `missing-retry-permission`, `invalid-context`, `invalid-allocation`.
 *
 * Encode: `unsupported-event`, `invalid-envelope`, `unencodable`.
 */
export type LegacyRefusalCode =
  | "invalid-frame"
  | "oversized"
  | "invalid-json"
  | "not-an-object"
  | "missing-type"
  | "missing-event-name"
  | "type-mismatch"
  | "invalid-id"
  | "invalid-event"
  | "not-chat-event"
  | "missing-call-identity"
  | "unknown-result-status"
  | "missing-retry-permission"
  | "invalid-context"
  | "invalid-allocation"
  | "unsupported-event"
  | "invalid-envelope"
  | "unencodable";

/** A typed refusal of the legacy adapter. `type` names the offending event type when known. */
export interface LegacyRefusal extends Refusal<LegacyRefusalCode> {
  /** The (wire) event type the refusal is about, when known. */
  readonly type?: string;
}
