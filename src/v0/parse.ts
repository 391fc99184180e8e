/**
 * The v0 frame normaliser {@link parseChatEvent} (v0-wire spec §3).
 *
 * @module
 */
import type { OpenCardSnapshot } from "../cards/types.ts";
import { isChatEventType } from "./channels.ts";
import { isRecord, own } from "../_internal/guards.ts";
import type {
  ChatEvent,
  DoneEvent,
  ProvenanceEvent,
  ToolCallEvent,
  ToolResultEvent,
} from "./types.ts";

type Bag = Record<string, unknown>;

const EMPTY: Bag = Object.freeze(Object.create(null));

/**
 * Normalise one v0 frame: the SSE event name plus its already-JSON-parsed
 * `data:` payload → a {@link ChatEvent}, or `null` when the frame is not one
 * of the eleven events or lacks a required field. Never throws.
 *
 * Rules, in order (v0-wire spec §3):
 * 1. `eventName` not one of the eleven types → `null` (`heartbeat`, `token`,
 *    `tool_start`, consumer domain events…).
 * 2. `data` that is not a non-null, non-array object is treated as `{}`.
 * 3. A payload `type` that is a string and differs from `eventName` → `null`;
 *    a non-string `type` is ignored; the result always carries
 *    `type: eventName`.
 * 4. Per-event extraction; the result is built fresh (unknown keys dropped).
 *    `card.card` and `done.usage` are passed through by reference without deep
 *    validation. Only own properties of the payload are read; a payload
 *    that throws when read (a getter, a revoked proxy) gives `null`.
 *
 * | event | `null` when | output |
 * |---|---|---|
 * | session | `sessionId` not a string | `{type, sessionId}` |
 * | delta | `text` not a string | `{type, text}` |
 * | tool_call | `name` not a non-empty string | `{type, name}` + `input` if `!== undefined` + `callId` if string |
 * | tool_result | `name` not a non-empty string | `{type, name}` + `callId` if string + `ok` if boolean + `summary` if string |
 * | provenance | `engine` or `model` not a string | `{type, engine, model}` + `accountRoute` if string or exactly `null` |
 * | card | `card` not a non-array object, or its `correlationId`/`prompt` not strings | `{type, card}` (same card object) |
 * | card_closed | `correlationId` not a string | `{type, correlationId}` |
 * | state | never | `{type, version, snapshot}`; `version` = payload number (NaN/Infinity pass) else `0` |
 * | done | never | `{type}` + `stopReason` if string + `usage` if non-array object |
 * | error | never | `{type, message}`; message = payload string else `'stream error'` |
 * | navigate | `href` not a string | `{type, href}` |
 *
 * @param eventName the SSE `event:` name (the discriminant).
 * @param data the JSON-parsed `data:` payload (any value).
 * @returns a freshly built event, or `null`.
 *
 * @example
 * ```ts
 * import { parseChatEvent } from "@papercusp/chat-protocol/v0";
 * parseChatEvent("delta", { text: "Hi" }); // { type: "delta", text: "Hi" }
 * parseChatEvent("error", "oops"); // { type: "error", message: "stream error" }
 * parseChatEvent("token", { content: "x" }); // null (legacy name)
 * ```
 */
export function parseChatEvent(eventName: string, data: unknown): ChatEvent | null {
  if (typeof eventName !== "string" || !isChatEventType(eventName)) return null;
  try {
    return extract(eventName, data);
  } catch {
    // Only reachable through hostile objects (throwing getters, proxies): unreadable → null.
    return null;
  }
}

function extract(eventName: ChatEvent["type"], data: unknown): ChatEvent | null {
  const p: Bag = isRecord(data) ? data : EMPTY;
  const declared = own(p, "type");
  if (typeof declared === "string" && declared !== eventName) return null;

  switch (eventName) {
    case "session": {
      const sessionId = own(p, "sessionId");
      return typeof sessionId === "string" ? { type: "session", sessionId } : null;
    }
    case "delta": {
      const text = own(p, "text");
      return typeof text === "string" ? { type: "delta", text } : null;
    }
    case "tool_call": {
      const name = own(p, "name");
      if (typeof name !== "string" || name === "") return null;
      const out: ToolCallEvent = { type: "tool_call", name };
      const input = own(p, "input");
      if (input !== undefined) out.input = input;
      const callId = own(p, "callId");
      if (typeof callId === "string") out.callId = callId;
      return out;
    }
    case "tool_result": {
      const name = own(p, "name");
      if (typeof name !== "string" || name === "") return null;
      const out: ToolResultEvent = { type: "tool_result", name };
      const callId = own(p, "callId");
      if (typeof callId === "string") out.callId = callId;
      const okValue = own(p, "ok");
      if (typeof okValue === "boolean") out.ok = okValue;
      const summary = own(p, "summary");
      if (typeof summary === "string") out.summary = summary;
      return out;
    }
    case "provenance": {
      const engine = own(p, "engine");
      const model = own(p, "model");
      if (typeof engine !== "string" || typeof model !== "string") return null;
      const out: ProvenanceEvent = { type: "provenance", engine, model };
      const accountRoute = own(p, "accountRoute");
      if (typeof accountRoute === "string" || accountRoute === null) {
        out.accountRoute = accountRoute;
      }
      return out;
    }
    case "card": {
      const card = own(p, "card");
      if (!isRecord(card)) return null;
      if (
        typeof own(card, "correlationId") !== "string" || typeof own(card, "prompt") !== "string"
      ) {
        return null;
      }
      return { type: "card", card: card as unknown as OpenCardSnapshot };
    }
    case "card_closed": {
      const correlationId = own(p, "correlationId");
      return typeof correlationId === "string" ? { type: "card_closed", correlationId } : null;
    }
    case "state": {
      const version = own(p, "version");
      return {
        type: "state",
        version: typeof version === "number" ? version : 0,
        snapshot: own(p, "snapshot"),
      };
    }
    case "done": {
      const out: DoneEvent = { type: "done" };
      const stopReason = own(p, "stopReason");
      if (typeof stopReason === "string") out.stopReason = stopReason;
      const usage = own(p, "usage");
      if (isRecord(usage)) out.usage = usage as DoneEvent["usage"];
      return out;
    }
    case "error": {
      const message = own(p, "message");
      return { type: "error", message: typeof message === "string" ? message : "stream error" };
    }
    case "navigate": {
      const href = own(p, "href");
      return typeof href === "string" ? { type: "navigate", href } : null;
    }
  }
}
