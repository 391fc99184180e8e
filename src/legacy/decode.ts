/**
 * `decodeLegacyChatFrame`: reads one unversioned (legacy0) SSE frame in an
 * explicitly selected vocabulary, Scout or Papercup, into a typed result.
 *
 * @module
 */
import { ok, type Result } from "../result.ts";
import { refuse } from "../_internal/refusal.ts";
import { describeValue, quoteClipped } from "../_internal/describe.ts";
import { isRecord, own, ownString } from "../_internal/guards.ts";
import { readFields, readOptions } from "../_internal/fields.ts";
import type { OpenCardSnapshot } from "../cards/types.ts";
import { isChatEventType } from "../v0/channels.ts";
import { parseChatEvent } from "../v0/parse.ts";
import type {
  LegacyChatEvent,
  LegacyDecodedFrame,
  LegacyDialect,
  LegacyFrame,
  LegacyRefusal,
  LegacyUsage,
} from "./types.ts";

/** Default bound on a frame's `data` length: 1 MiB (1_048_576 UTF-16 code units). */
export const LEGACY_MAX_DATA_LENGTH = 1_048_576;

/** Options of {@link decodeLegacyChatFrame}. */
export interface LegacyDecodeOptions {
  /**
   * Longest accepted `data`, in UTF-16 code units (≈ bytes for ASCII JSON).
   * Longer data is refused with `oversized` before it is parsed. Default
   * {@link LEGACY_MAX_DATA_LENGTH} (1 MiB).
   */
  maxDataLength?: number;
}

/**
 * The Scout chat types no v0 event shares (legacy-scout spec §A.1): `token`
 * and `tool_start`. Not in the `./legacy` entry point: the CLI's dialect
 * detection reads it.
 */
export const SCOUT_ONLY_CHAT_TYPES: ReadonlySet<string> = new Set(["token", "tool_start"]);

/**
 * The chat types Scout shares with v0 (legacy-scout spec §A.1), by wire name.
 * Internal, like {@link SCOUT_ONLY_CHAT_TYPES}.
 */
export const SCOUT_SHARED_CHAT_TYPES: ReadonlySet<string> = new Set([
  "session",
  "card",
  "card_closed",
  "state",
  "done",
  "error",
  "navigate",
]);

/** Every chat type of Scout's legacy union; every other Scout `type` is a domain event. */
const SCOUT_CHAT_TYPES: ReadonlySet<string> = new Set([
  ...SCOUT_ONLY_CHAT_TYPES,
  ...SCOUT_SHARED_CHAT_TYPES,
]);

const DECIMAL_ID = /^[0-9]+$/;

/** The SSE message fields a frame is read from, each read once. */
const FRAME_KEYS = ["id", "event", "data"] as const;

type Payload = Record<string, unknown>;

function readFrame(
  frame: unknown,
): { id?: string; event?: string; data: string } | string {
  if (typeof frame !== "object" || frame === null) return "the frame is not an object";
  const fields = readFields(frame, FRAME_KEYS);
  if (fields === null) return "the frame's fields could not be read";
  const { id, event, data } = fields;
  if (typeof data !== "string") return "the frame has no string `data`";
  if (id !== undefined && typeof id !== "string") return "the frame's `id` is not a string";
  if (event !== undefined && typeof event !== "string") {
    return "the frame's `event` is not a string";
  }
  const out: { id?: string; event?: string; data: string } = { data };
  if (id !== undefined) out.id = id;
  if (event !== undefined && event !== "") out.event = event;
  return out;
}

function parseJson(data: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(data) };
  } catch {
    return undefined;
  }
}

function finiteNonNegative(v: unknown): v is number {
  return typeof v === "number" && Number.isFinite(v) && v >= 0;
}

/** Copy only well-formed usage numbers (tokens, USD); `undefined` when none. */
function readUsage(v: unknown): LegacyUsage | undefined {
  if (!isRecord(v)) return undefined;
  const out: LegacyUsage = {};
  for (const key of ["totalTokens", "inputTokens", "outputTokens", "costUsd"] as const) {
    const n = own(v, key);
    if (finiteNonNegative(n)) out[key] = n;
  }
  return out;
}

function isCard(v: unknown): v is OpenCardSnapshot {
  return isRecord(v) && typeof own(v, "correlationId") === "string" &&
    typeof own(v, "prompt") === "string";
}

type Decoded = Result<LegacyDecodedFrame, LegacyRefusal>;

function heartbeat(dialect: LegacyDialect, data: string): Decoded {
  const parsed = parseJson(data);
  const tsMs = parsed && isRecord(parsed.value) ? own(parsed.value, "tsMs") : undefined;
  return ok(
    typeof tsMs === "number" && Number.isFinite(tsMs)
      ? { kind: "heartbeat", dialect, tsMs }
      : { kind: "heartbeat", dialect },
  );
}

function decodeScout(id: string | undefined, p: Payload, type: string): Decoded {
  const base = id === undefined ? {} : { id };
  const chat = (event: LegacyChatEvent, extra?: { toolNameField: "tool" | "name" }): Decoded =>
    ok({ kind: "chat", dialect: "scout", ...base, wireType: type, ...extra, event });
  const bad = (why: string) => refuse("invalid-event", `Scout \`${type}\` frame ${why}`, { type });
  /** The event built from the required own string field `key`, or the refusal naming it. */
  const withString = (key: string, make: (v: string) => LegacyChatEvent): Decoded => {
    const v = ownString(p, key);
    return v === undefined ? bad(`needs a string \`${key}\``) : chat(make(v));
  };
  switch (type) {
    case "session":
      return withString("sessionId", (sessionId) => ({ type: "session", sessionId }));
    case "token":
      return withString("content", (content) => ({ type: "delta", text: content }));
    case "tool_start": {
      // scout-chat's reducer reads `tool`; scout-runtime emits `name` (+ `callId`).
      for (const field of ["tool", "name"]) {
        const v = own(p, field);
        if (v !== undefined && typeof v !== "string") {
          return bad(`has a \`${field}\` that is not a string (${typeof v})`);
        }
      }
      const tool = ownString(p, "tool");
      const name = ownString(p, "name");
      if (tool !== undefined && name !== undefined && tool !== name) {
        return bad(
          `names the tool twice, differently (\`tool\` ${quoteClipped(tool)}, \`name\` ${
            quoteClipped(name)
          })`,
        );
      }
      const toolName = tool ?? name;
      if (toolName === undefined || toolName === "") {
        return bad("needs a non-empty string `tool` (or `name`, as Scout's runtime sends it)");
      }
      const event: LegacyChatEvent = { type: "tool_call", name: toolName };
      const callId = own(p, "callId");
      if (callId !== undefined) {
        if (typeof callId !== "string" || callId === "") {
          return bad("has a `callId` that is not a non-empty string");
        }
        event.callId = callId;
      }
      if (Object.hasOwn(p, "input") && p.input !== undefined) event.input = p.input;
      return chat(event, { toolNameField: tool !== undefined ? "tool" : "name" });
    }
    case "card": {
      const card = own(p, "card");
      if (!isCard(card)) {
        return bad("needs a `card` object with string `correlationId` and `prompt`");
      }
      return chat({ type: "card", card });
    }
    case "card_closed":
      return withString(
        "correlationId",
        (correlationId) => ({ type: "card_closed", correlationId }),
      );
    case "state": {
      const version = own(p, "version");
      if (typeof version !== "number" || !Number.isSafeInteger(version) || version < 0) {
        return bad("needs a non-negative integer `version`");
      }
      return chat({ type: "state", version, snapshot: own(p, "snapshot") });
    }
    case "done": {
      const event: LegacyChatEvent = { type: "done" };
      const stopReason = ownString(p, "stopReason");
      if (stopReason !== undefined) event.stopReason = stopReason;
      const usage = readUsage(own(p, "usage"));
      if (usage !== undefined) event.usage = usage;
      return chat(event);
    }
    case "error":
      return withString("message", (message) => ({ type: "error", message }));
    case "navigate":
      return withString("href", (href) => ({ type: "navigate", href }));
  }
  return refuse("invalid-event", `Scout \`${type}\` is not a chat event`, { type });
}

/** Why a v0 payload was dropped by `parseChatEvent` (v0-wire spec §3), for the refusal message. */
function v0Requirement(name: string): string {
  switch (name) {
    case "session":
      return "a string `sessionId`";
    case "delta":
      return "a string `text`";
    case "tool_call":
    case "tool_result":
      return "a non-empty string `name`";
    case "provenance":
      return "string `engine` and `model`";
    case "card":
      return "a `card` object with string `correlationId` and `prompt`";
    case "card_closed":
      return "a string `correlationId`";
    case "navigate":
      return "a string `href`";
    default:
      return "the fields of its v0 shape";
  }
}

function decodePapercup(
  id: string | undefined,
  event: string | undefined,
  value: unknown,
): Decoded {
  const base = id === undefined ? {} : { id };
  if (event === undefined || event === "message") {
    return refuse(
      "missing-event-name",
      "Papercup frames are named v0 events, but this frame has no `event:` name",
    );
  }
  if (!isChatEventType(event)) {
    return ok({ kind: "domain", dialect: "papercup", ...base, type: event, data: value });
  }
  if (isRecord(value)) {
    const t = own(value, "type");
    if (typeof t === "string" && t !== event) {
      return refuse(
        "type-mismatch",
        `the \`event: ${quoteClipped(event)}\` frame's payload says \`type: ${quoteClipped(t)}\``,
        { type: event },
      );
    }
  }
  const parsed = parseChatEvent(event, value);
  if (parsed === null) {
    return refuse(
      "invalid-event",
      `Papercup \`${event}\` frame needs ${v0Requirement(event)} (v0 rules)`,
      { type: event },
    );
  }
  return ok({
    kind: "chat",
    dialect: "papercup",
    ...base,
    wireType: event,
    event: parsed as LegacyChatEvent,
  });
}

/**
 * Decode one legacy0 SSE frame in the vocabulary the host selected.
 *
 * **Scout** (`dialect: "scout"`, legacy-scout spec §B): the `event:` name is
 * ignored except `heartbeat` (as Scout's transport does); the discriminant is
 * `data.type`. A non-empty `id:` must be decimal digits (Scout's resume
 * cursor is `max(lastEventId, Number(id))`), else `invalid-id`; an empty
 * `id:` is kept as `""` (Scout's client ignores it).
 * - `token{content}` → `delta{text}`;
 * - `tool_start{tool}` → `tool_call{name}`; Scout's runtime sends
 *   `tool_start{name, callId}` instead: **both are accepted**
 *   (`toolNameField` says which; both present and different, or either
 *   present but not a string → refused); a `callId`, when present, must be
 *   a non-empty string and is kept (a numeric `callId` is refused, never
 *   converted); an `input`, when present, is kept as the call's input
 *   (Scout's documented wire has none; `encodeLegacyChatFrame` never writes
 *   one);
 * - `session`, `card`, `card_closed`, `state`, `done`
 *   (`usage{totalTokens?, costUsd?}`), `error{message}`, `navigate` keep
 *   their names;
 * - any other `type` (`products`, `broaden`, `highlight`, …) is a
 *   `{kind: "domain"}` frame for the host's own handler.
 *
 * **Papercup** (`dialect: "papercup"`, v0-wire spec §1–3): the `event:` name
 * is the discriminant and the payload is read by `parseChatEvent` with its v0
 * rules unchanged. Names outside the eleven v0 types (including the legacy
 * `token` / `tool_start`, which v0 never aliased) are `{kind: "domain"}`.
 *
 * Both: `event: heartbeat` → `{kind: "heartbeat"}` (no cursor). Never throws;
 * every problem is a typed {@link LegacyRefusal} (codes in
 * {@link LegacyRefusalCode}). The result never carries a `callId` the frame
 * did not carry.
 *
 * @param frame an SSE message `{id?, event?, data}` (e.g. from `SseParser`); any value is accepted and checked
 * @param dialect the vocabulary to read it in
 * @param options `maxDataLength` bound in UTF-16 code units (default 1 MiB; a bound that cannot be read → `invalid-frame`)
 *
 * @example
 * ```ts
 * import { decodeLegacyChatFrame } from "@papercusp/chat-protocol/legacy";
 * const r = decodeLegacyChatFrame({ id: "2", data: '{"type":"token","content":"Hi"}' }, "scout");
 * // r.ok && r.value.kind === "chat" → r.value.event is { type: "delta", text: "Hi" }
 * ```
 */
export function decodeLegacyChatFrame(
  frame: LegacyFrame | unknown,
  dialect: LegacyDialect,
  options?: LegacyDecodeOptions,
): Result<LegacyDecodedFrame, LegacyRefusal> {
  if (dialect !== "scout" && dialect !== "papercup") {
    return refuse("invalid-frame", `unknown legacy dialect ${describeValue(dialect)}`);
  }
  const f = readFrame(frame);
  if (typeof f === "string") return refuse("invalid-frame", f);
  const o = readOptions(options, ["maxDataLength"]);
  if (o === null) return refuse("invalid-frame", "the decode options could not be read");
  const max = o.maxDataLength;
  const bound = typeof max === "number" && max > 0 ? max : LEGACY_MAX_DATA_LENGTH;
  if (f.data.length > bound) {
    return refuse(
      "oversized",
      `the frame's data is ${f.data.length} UTF-16 code units long, over the bound ${bound}`,
    );
  }
  if (f.event === "heartbeat") return heartbeat(dialect, f.data);
  if (dialect === "scout" && f.id !== undefined && f.id !== "" && !DECIMAL_ID.test(f.id)) {
    return refuse(
      "invalid-id",
      `Scout frame ids are decimal numbers (the resume cursor); got ${quoteClipped(f.id)}`,
    );
  }
  if (f.data.trim() === "") return refuse("invalid-json", "the frame's data is empty");
  const parsed = parseJson(f.data);
  if (parsed === undefined) return refuse("invalid-json", "the frame's data is not valid JSON");
  if (dialect === "papercup") return decodePapercup(f.id, f.event, parsed.value);
  const value = parsed.value;
  if (!isRecord(value)) {
    return refuse("not-an-object", "a Scout frame's data must be a JSON object with a `type`");
  }
  const type = own(value, "type");
  if (typeof type !== "string" || type === "") {
    return refuse("missing-type", "a Scout frame's data needs a string `type`");
  }
  if (!SCOUT_CHAT_TYPES.has(type)) {
    return ok({
      kind: "domain",
      dialect: "scout",
      ...(f.id === undefined ? {} : { id: f.id }),
      type,
      data: value,
    });
  }
  return decodeScout(f.id, value, type);
}
