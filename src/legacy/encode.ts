/**
 * `encodeLegacyChatFrame`: renders a v1 envelope as a legacy0 frame for
 * consumers that still read the Scout or Papercup vocabulary.
 *
 * @module
 */
import { ok, type Result } from "../result.ts";
import { isNotJsonRefusal } from "../_internal/json_value.ts";
import { refuse } from "../_internal/refusal.ts";
import { describeValue } from "../_internal/describe.ts";
import { isRecord, own } from "../_internal/guards.ts";
import type { ChatEventEnvelope } from "../v1/types.ts";
import { parseChatEnvelope } from "../v1/parse.ts";
import type { LegacyFrame, LegacyRefusal } from "./types.ts";

/** The legacy vocabulary to encode into. */
export type LegacyVocabulary = "scout" | "papercup";

type Obj = Record<string, unknown>;

/** Copy `keys` that are defined on `src` into `dst` (own properties only). */
function copy(dst: Obj, src: Obj, keys: readonly string[]): Obj {
  for (const k of keys) {
    const v = own(src, k);
    if (v !== undefined) dst[k] = v;
  }
  return dst;
}

/**
 * v1 events both vocabularies spell as in v0 (same `type`, same fields): the
 * fields each copies.
 */
const SAME_IN_BOTH: ReadonlyMap<string, readonly string[]> = new Map([
  ["session", ["sessionId"]],
  ["card", ["card"]],
  ["card_closed", ["correlationId"]],
  ["state", ["version", "snapshot"]],
  ["navigate", ["href"]],
  ["error", ["message"]],
]);

/** Legacy payload for the Scout vocabulary, or the reason it has none. */
function scoutPayload(e: Obj, type: string): Obj | string {
  switch (type) {
    case "delta":
      return { type: "token", content: own(e, "text") };
    case "tool_call":
      // The reducer reads `tool`; `callId` is what Scout's runtime sends alongside.
      return copy({ type: "tool_start", tool: own(e, "name") }, e, ["callId"]);
    case "done": {
      const out: Obj = { type };
      const usage = own(e, "usage");
      if (isRecord(usage)) {
        const u = copy({}, usage, ["totalTokens", "costUsd"]);
        if (Object.keys(u).length > 0) out.usage = u;
      }
      return out;
    }
    case "tool_result":
      return "Scout's vocabulary has no tool result";
    case "provenance":
      return "Scout's vocabulary has no provenance";
    case "reasoning":
      return "Scout's vocabulary has no reasoning text";
    case "tool_progress":
      return "Scout's vocabulary has no tool progress";
    case "turn_status":
      return "Scout's vocabulary has no turn status (cancelled / interrupted / reconciliation)";
    case "ext":
    case "elided":
      return "Scout's vocabulary has no extension events (its domain frames are the app's own)";
  }
  return `\`${type}\` is not a v1 event`;
}

/** Legacy payload for the Papercup (v0 named events) vocabulary, or the reason it has none. */
function papercupPayload(e: Obj, type: string): Obj | string {
  switch (type) {
    case "delta":
      return copy({ type }, e, ["text"]);
    case "tool_call":
      return copy({ type }, e, ["name", "input", "callId"]);
    case "tool_result":
      return copy({ type }, e, ["name", "callId", "ok", "summary"]);
    case "provenance":
      return copy({ type }, e, ["engine", "model", "accountRoute"]);
    case "done":
      return copy({ type }, e, ["stopReason", "usage"]);
    case "reasoning":
      return "v0 has no reasoning event";
    case "tool_progress":
      return "v0 has no tool progress event";
    case "turn_status":
      return "v0 has no turn status event (cancelled / interrupted / reconciliation)";
    case "ext":
    case "elided":
      return "v0 has no extension events";
  }
  return `\`${type}\` is not a v1 event`;
}

/**
 * Encode a v1 envelope as a legacy0 frame `{id?, event?, data}` (pass it to
 * an SSE encoder to put it on the wire).
 *
 * - `scout`: unnamed frame (no `event`), `id` = the envelope's `seq` in
 *   decimal (Scout's cursor is numeric and monotonic per turn stream: a
 *   resuming host maps `Last-Event-ID` back to `seq` within the turn),
 *   `data` = `{type, …}` with `delta` → `token{content}` and `tool_call` →
 *   `tool_start{tool, callId}`.
 * - `papercup`: named frame (`event` = the v0 name), `id` = the envelope's
 *   `eventId`, `data` = the v0 object with `type`.
 *
 * What legacy cannot say is dropped, by design: tool `input` (Scout), card
 * `resolution`, error `retryable`/`retryAfterMs`/`code`, `done.stopReason`
 * and input/output token counts (Scout), `provenance.provider`,
 * `tool_result.output`/`blocks` (Papercup).
 *
 * Refusals (never thrown): `unsupported-event` for v1 features with no legacy
 * representation (`reasoning`, `tool_progress`, `turn_status`, the extension
 * event `ext` and its replay stand-in `elided`; for Scout also `tool_result`
 * and `provenance`): the host chooses the fallback;
 * `invalid-envelope` when the input is not a valid v1 envelope (checked with
 * `parseChatEnvelope`, so a malformed event never becomes a malformed frame);
 * `unencodable` when the payload is not JSON data (a cycle, a BigInt, a
 * `Map`: the parser's `not-json` issue) or not JSON-serialisable.
 *
 * @example
 * ```ts
 * import { encodeLegacyChatFrame } from "@papercusp/chat-protocol/legacy";
 * const r = encodeLegacyChatFrame({
 *   schemaVersion: 1, conversationId: "c", turnId: "t", eventId: "t:3", seq: 3,
 *   event: { type: "delta", text: "Hi" },
 * }, "scout");
 * // r.ok → { id: "3", data: '{"type":"token","content":"Hi"}' }
 * ```
 */
export function encodeLegacyChatFrame(
  envelope: ChatEventEnvelope,
  vocabulary: LegacyVocabulary,
): Result<LegacyFrame, LegacyRefusal> {
  if (vocabulary !== "scout" && vocabulary !== "papercup") {
    return refuse(
      "invalid-envelope",
      `unknown legacy vocabulary ${describeValue(vocabulary)}`,
    );
  }
  if (!isRecord(envelope)) return refuse("invalid-envelope", "the envelope is not an object");
  const checked = parseChatEnvelope(envelope);
  if (!checked.ok) {
    const e = checked.error;
    return refuse(isNotJsonRefusal(e) ? "unencodable" : "invalid-envelope", e.message);
  }
  const env = checked.value as unknown as Obj;
  const event = own(env, "event");
  if (!isRecord(event)) return refuse("invalid-envelope", "the envelope has no `event` object");
  const type = own(event, "type");
  if (typeof type !== "string") return refuse("invalid-envelope", "the event has no string `type`");
  const same = SAME_IN_BOTH.get(type);
  const payload = same !== undefined
    ? copy({ type }, event, same)
    : vocabulary === "scout"
    ? scoutPayload(event, type)
    : papercupPayload(event, type);
  if (typeof payload === "string") return refuse("unsupported-event", payload, { type });
  let data: string;
  try {
    data = JSON.stringify(payload);
  } catch {
    return refuse("unencodable", `the \`${type}\` payload is not JSON-serialisable`, { type });
  }
  if (vocabulary === "scout") {
    const seq = own(env, "seq");
    if (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq < 1) {
      return refuse("invalid-envelope", "the envelope's `seq` is not a positive integer");
    }
    return ok({ id: String(seq), data });
  }
  const eventId = own(env, "eventId");
  if (typeof eventId !== "string" || eventId === "" || /[\0\r\n]/.test(eventId)) {
    return refuse(
      "invalid-envelope",
      "the envelope's `eventId` must be a non-empty string without NUL, CR or LF",
    );
  }
  return ok({ id: eventId, event: type, data });
}
