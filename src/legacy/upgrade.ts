/**
 * `upgradeLegacyChatFrame`: turns one legacy0 frame into a v1
 * {@link ChatEventEnvelope}, with every id supplied by the host.
 *
 * @module
 */
import { err, ok, type Result } from "../result.ts";
import { refuse } from "../_internal/refusal.ts";
import { quoteClipped } from "../_internal/describe.ts";
import { isId, isWireId } from "../_internal/id.ts";
import { isRecord } from "../_internal/guards.ts";
import type {
  ChatChannel,
  ChatEventEnvelope,
  ChatEventV1,
  ChatJsonValue,
  ChatUsage,
} from "../v1/types.ts";
import { isExtensionName } from "../v1/extensions.ts";
import { parseChatEnvelope } from "../v1/parse.ts";
import { decodeLegacyChatFrame, type LegacyDecodeOptions } from "./decode.ts";
import type {
  LegacyChatFrame,
  LegacyDecodedFrame,
  LegacyDialect,
  LegacyDomainFrame,
  LegacyRefusal,
} from "./types.ts";

/**
 * A legacy tool frame as the host's {@link LegacyUpgradeContext.callIdFor}
 * mapping sees it.
 */
export interface LegacyToolFrame {
  /** `call` for `tool_start` / `tool_call`, `result` for `tool_result` (Papercup only). */
  kind: "call" | "result";
  /** The tool's catalog name. */
  name: string;
  /** The SSE `id:` of the frame, if any (Scout: decimal digits). */
  frameId?: string;
  /** The dialect the frame was read in. */
  dialect: LegacyDialect;
}

/**
 * What the host supplies to upgrade legacy frames of one turn. Nothing in
 * the adapter allocates an id: the host does.
 *
 * Use one context object per turn: the `index` passed to
 * {@link LegacyUpgradeContext.callIdFor} counts the tool frames upgraded with
 * this same object.
 */
export interface LegacyUpgradeContext {
  /** The vocabulary of the frames. */
  dialect: LegacyDialect;
  /** Host-allocated v1 wire id (non-empty, no CR, LF, NUL or lone surrogate). */
  conversationId: string;
  /** Host-allocated v1 wire id (non-empty, no CR, LF, NUL or lone surrogate). */
  turnId: string;
  /**
   * Allocate the next envelope's `eventId` (a v1 wire id) and `seq` (positive
   * integer, per turn, no gaps). Called only once a frame is accepted, so a
   * refused frame never consumes a `seq`. A throw, a malformed value, or a
   * `seq` not greater than the last one allocated through this same context
   * object (a duplicate or a step back) is refused as `invalid-allocation`.
   */
  allocate(): { eventId: string; seq: number };
  /**
   * The host's stable mapping for tool frames that carry no `callId` (Scout's
   * `tool_start{tool}`, Papercup's `tool_call`/`tool_result` without
   * `callId`). `index` is the 0-based ordinal of this frame among the frames
   * of the same `kind` upgraded with this context object (so the host can
   * pair the n-th result with the n-th call when its tools run one at a
   * time). Return `undefined` when there is no mapping: the frame is then
   * refused with `missing-call-identity`. It must return the same id for the
   * same frame on replay; the adapter never invents one.
   */
  callIdFor?(tool: LegacyToolFrame, index: number): string | undefined;
  /**
   * Retry permission for legacy `error` frames, which carry none. v1 errors
   * must say explicitly whether the client may retry; legacy frames cannot,
   * so the host decides. Absent → the `error` frame is refused with
   * `missing-retry-permission` (a client never guesses).
   */
  retryable?: boolean;
  /** With `retryable: true` only: the delay in milliseconds before a retry. */
  retryAfterMs?: number;
  /** Stable machine-readable code for upgraded errors, e.g. `legacy_error`. */
  errorCode?: string;
  /**
   * Epoch milliseconds to stamp as the envelope's `at` (optional). Anything
   * but a finite number ≥ 0 is refused as `invalid-context`.
   */
  at?: number;
  /** Decode options (the `data` length bound). */
  decode?: LegacyDecodeOptions;
  /**
   * Upgrade domain frames (Scout `products`, `broaden`, …; a Papercup
   * event outside v0) to v1 extension events instead of refusing them
   * (`not-chat-event`): a frame of type `T` becomes
   * `{ type: "ext", name: "<namespace>.T", data }` (`data`: the Scout
   * payload without its `type`, the Papercup payload as it is), on the
   * channel `channels[T]` when given (else `event`). A `T` that makes no
   * extension name (`Products`, `open-drawer`) stays `not-chat-event`;
   * data the v1 rules refuse (over 32 levels deep or 10,000 values) is
   * `invalid-event`. A `namespace` that is not one lowercase segment (or
   * dotted segments) is `invalid-context`.
   */
  extensions?: LegacyExtensionOptions;
}

/** How {@link LegacyUpgradeContext.extensions} upgrades domain frames. */
export interface LegacyExtensionOptions {
  /** The extension namespace, e.g. `scout` (so `products` → `scout.products`). */
  namespace: string;
  /** The channel of each domain type, e.g. `{ products: "state" }`; default `event`. */
  channels?: Readonly<Record<string, ChatChannel>>;
}

const toolCounters = new WeakMap<object, { call: number; result: number }>();
/** The last `seq` accepted from each context object's `allocate()`. */
const lastSeqs = new WeakMap<object, number>();

function nextIndex(ctx: object, kind: "call" | "result"): number {
  let c = toolCounters.get(ctx);
  if (c === undefined) {
    c = { call: 0, result: 0 };
    toolCounters.set(ctx, c);
  }
  return c[kind]++;
}

function resolveCallId(
  ctx: LegacyUpgradeContext,
  host: CheckedContext,
  frame: LegacyChatFrame,
  kind: "call" | "result",
  name: string,
  callId: string | undefined,
): string | LegacyRefusal {
  const index = nextIndex(ctx, kind);
  if (callId !== undefined && callId !== "") return callId;
  const wire = frame.wireType;
  const missing: LegacyRefusal = {
    code: "missing-call-identity",
    message:
      `the \`${wire}\` frame for tool ${quoteClipped(name)} has no callId and the host gave no ` +
      "stable mapping for it; a call id is never invented",
    type: wire,
  };
  const callIdFor = host.callIdFor;
  if (typeof callIdFor !== "function") return missing;
  let mapped: unknown;
  try {
    const tool: LegacyToolFrame = frame.id === undefined
      ? { kind, name, dialect: frame.dialect }
      : { kind, name, frameId: frame.id, dialect: frame.dialect };
    mapped = callIdFor.call(ctx, tool, index);
  } catch {
    return {
      code: "invalid-context",
      message: "the host's callIdFor mapping threw",
      type: wire,
    };
  }
  if (mapped === undefined) return missing;
  if (!isWireId(mapped)) {
    return {
      code: "invalid-context",
      message: "the host's callIdFor mapping returned something other than a v1 wire id " +
        "(a non-empty string without CR, LF, NUL or a lone surrogate)",
      type: wire,
    };
  }
  return mapped;
}

function toUsage(u: ChatUsage | undefined): ChatUsage | undefined {
  if (u === undefined) return undefined;
  const out: ChatUsage = {};
  for (const key of ["totalTokens", "inputTokens", "outputTokens", "costUsd"] as const) {
    const n = u[key];
    if (typeof n === "number" && Number.isFinite(n) && n >= 0) out[key] = n;
  }
  return out;
}

function toV1(
  frame: LegacyChatFrame,
  ctx: LegacyUpgradeContext,
  host: CheckedContext,
): { event: ChatEventV1 } | { refusal: LegacyRefusal } {
  const e = frame.event;
  const wire = frame.wireType;
  switch (e.type) {
    case "session":
      return { event: { type: "session", sessionId: e.sessionId } };
    case "delta":
      return { event: { type: "delta", text: e.text } };
    case "tool_call": {
      const callId = resolveCallId(ctx, host, frame, "call", e.name, e.callId);
      if (typeof callId !== "string") return { refusal: callId };
      const out: ChatEventV1 = { type: "tool_call", callId, name: e.name };
      if (e.input !== undefined) out.input = e.input;
      return { event: out };
    }
    case "tool_result": {
      const callId = resolveCallId(ctx, host, frame, "result", e.name, e.callId);
      if (typeof callId !== "string") return { refusal: callId };
      if (typeof e.ok !== "boolean") {
        return {
          refusal: {
            code: "unknown-result-status",
            message:
              `the \`tool_result\` for ${
                quoteClipped(e.name)
              } does not say whether the tool succeeded ` +
              "(`ok` is absent or not a boolean; v0 keeps only `true` or `false`, not e.g. " +
              'the string "true"); it is never assumed to be a success',
            type: wire,
          },
        };
      }
      const out: ChatEventV1 = { type: "tool_result", callId, name: e.name, ok: e.ok };
      if (e.summary !== undefined) out.summary = e.summary;
      return { event: out };
    }
    case "provenance": {
      if (e.engine === "" || e.model === "") {
        return {
          refusal: {
            code: "invalid-event",
            message: "a v1 `provenance` needs non-empty `engine` and `model`",
            type: wire,
          },
        };
      }
      const out: ChatEventV1 = { type: "provenance", engine: e.engine, model: e.model };
      if (e.accountRoute !== undefined) out.accountRoute = e.accountRoute;
      return { event: out };
    }
    case "card":
      return { event: { type: "card", card: e.card } };
    case "card_closed":
      return { event: { type: "card_closed", correlationId: e.correlationId } };
    case "state": {
      if (!Number.isSafeInteger(e.version) || e.version < 0) {
        return {
          refusal: {
            code: "invalid-event",
            message: "a v1 `state` needs a non-negative integer `version`",
            type: wire,
          },
        };
      }
      if (e.snapshot === undefined) {
        // a v0 `state` may lack its snapshot; a v1 one may not (JSON has no `undefined`)
        return {
          refusal: {
            code: "invalid-event",
            message: "a v1 `state` needs a `snapshot` (null for none); the frame has none",
            type: wire,
          },
        };
      }
      return { event: { type: "state", version: e.version, snapshot: e.snapshot } };
    }
    case "done": {
      const out: ChatEventV1 = { type: "done" };
      if (e.stopReason !== undefined) out.stopReason = e.stopReason;
      const usage = toUsage(e.usage);
      if (usage !== undefined) out.usage = usage;
      return { event: out };
    }
    case "error": {
      if (typeof host.retryable !== "boolean") {
        return {
          refusal: {
            code: "missing-retry-permission",
            message: "a legacy `error` carries no retry permission and the host gave no " +
              "`retryable` default; a client never guesses",
            type: wire,
          },
        };
      }
      const out: ChatEventV1 = { type: "error", message: e.message, retryable: host.retryable };
      if (isId(host.errorCode)) out.code = host.errorCode;
      const after = host.retryAfterMs;
      if (host.retryable && typeof after === "number" && Number.isFinite(after) && after >= 0) {
        out.retryAfterMs = after;
      }
      return { event: out };
    }
    case "navigate":
      return { event: { type: "navigate", href: e.href } };
  }
  return { refusal: { code: "invalid-event", message: "unknown legacy event" } };
}

/**
 * Upgrade one legacy0 frame (Scout or Papercup, see
 * {@link decodeLegacyChatFrame}) to a v1 {@link ChatEventEnvelope}.
 *
 * The host supplies everything v1 requires that legacy frames lack
 * ({@link LegacyUpgradeContext}): conversation and turn ids, event id and
 * `seq` allocation, the stable call-id mapping, and retry permission for
 * errors. Refusals (never thrown):
 * - every decode refusal, unchanged;
 * - `not-chat-event`: a heartbeat, or a domain frame (Scout `products`, …)
 *   unless `ctx.extensions` upgrades it to an `ext` event; the host
 *   handles those itself;
 * - `missing-call-identity`: a tool frame without `callId` and without a
 *   host mapping (never invented);
 * - `unknown-result-status`: a `tool_result` whose `ok` is absent or not a
 *   boolean, e.g. the string `"true"` (never fabricated as a success);
 * - `missing-retry-permission`: an `error` while `ctx.retryable` is not a
 *   boolean;
 * - `invalid-context`: bad ids, dialect or `at` from the host, a context
 *   field that cannot be read (a throwing getter), or a `callIdFor` that
 *   throws or returns anything but `undefined` or a non-empty string;
 * - `invalid-allocation`: `allocate()` threw, returned a malformed value, or
 *   a `seq` not greater than the last one it gave on this context;
 * - `invalid-event`: the upgraded event would break the v1 contract (checked
 *   with `parseChatEnvelope`, e.g. a legacy card without `createdAt`).
 *
 * Mapping: Scout `token{content}` → `delta{text}`; Scout `tool_start{tool}`
 * or `{name}` → `tool_call{callId, name}`; `done.usage` keeps only finite
 * non-negative counts; `card_closed` gets no `resolution` (legacy has none).
 * `allocate()` is called only for an accepted frame.
 *
 * @example
 * ```ts
 * import { upgradeLegacyChatFrame } from "@papercusp/chat-protocol/legacy";
 * let seq = 0;
 * const ctx = {
 *   dialect: "scout" as const,
 *   conversationId: "c1",
 *   turnId: "t1",
 *   allocate: () => ({ eventId: `t1:${++seq}`, seq }),
 * };
 * const r = upgradeLegacyChatFrame({ id: "2", data: '{"type":"token","content":"Hi"}' }, ctx);
 * // r.ok → r.value.event is { type: "delta", text: "Hi" }, r.value.seq === 1
 * ```
 */
export function upgradeLegacyChatFrame(
  frame: unknown,
  ctx: LegacyUpgradeContext,
): Result<ChatEventEnvelope, LegacyRefusal> {
  const host = checkContext(ctx);
  if ("code" in host) return err(host);
  if (host.dialect !== "scout" && host.dialect !== "papercup") {
    return refuse("invalid-context", 'the context\'s `dialect` must be "scout" or "papercup"');
  }
  const decoded = decodeLegacyChatFrame(frame, host.dialect, host.decode);
  if (!decoded.ok) return decoded;
  return upgradeChecked(decoded.value, ctx, host);
}

/**
 * Upgrade a frame already decoded by {@link decodeLegacyChatFrame}: for hosts
 * that decode once, route domain events and heartbeats themselves, and
 * upgrade only the chat frames. Same context, refusals and guarantees as
 * {@link upgradeLegacyChatFrame} (`ctx.dialect` and `ctx.decode` are not
 * used: the frame is already decoded). Never throws, even on a hand-made
 * `decoded` value: the result is checked against the v1 contract.
 *
 * @example
 * ```ts
 * import { decodeLegacyChatFrame, upgradeDecodedLegacyChatFrame } from "@papercusp/chat-protocol/legacy";
 * let seq = 0;
 * const ctx = {
 *   dialect: "scout" as const, conversationId: "c1", turnId: "t1",
 *   allocate: () => ({ eventId: `t1:${++seq}`, seq }),
 * };
 * const d = decodeLegacyChatFrame({ id: "5", data: '{"type":"products","products":[]}' }, "scout");
 * if (d.ok && d.value.kind === "chat") upgradeDecodedLegacyChatFrame(d.value, ctx);
 * // else: a domain event (Scout `products`) for the app's own handler
 * ```
 */
export function upgradeDecodedLegacyChatFrame(
  decoded: LegacyDecodedFrame,
  ctx: LegacyUpgradeContext,
): Result<ChatEventEnvelope, LegacyRefusal> {
  const host = checkContext(ctx);
  if ("code" in host) return err(host);
  try {
    return upgradeChecked(decoded, ctx, host);
  } catch {
    return refuse("invalid-frame", "the decoded frame is not a decodeLegacyChatFrame value");
  }
}

/** The host context's fields, each read exactly once (a throwing getter is refused, not thrown). */
interface CheckedContext {
  dialect: unknown;
  conversationId: string;
  turnId: string;
  allocate: () => unknown;
  callIdFor: unknown;
  retryable: unknown;
  retryAfterMs: unknown;
  errorCode: unknown;
  at: unknown;
  decode: LegacyDecodeOptions | undefined;
  /** `extensions`, read once: the namespace and a copy of the channel table. */
  extensions: { namespace: string; channels: ReadonlyMap<string, ChatChannel> } | undefined;
}

const CHANNELS: ReadonlySet<unknown> = new Set(["event", "state", "transient"]);

/** `ctx.extensions` read once, or a problem (a string). May throw (the caller guards). */
function readExtensionOptions(
  v: unknown,
): CheckedContext["extensions"] | string {
  if (v === undefined) return undefined;
  if (typeof v !== "object" || v === null) return "`extensions` must be an object";
  const { namespace, channels } = v as Record<string, unknown>;
  if (typeof namespace !== "string" || !isExtensionName(`${namespace}.x`)) {
    return "`extensions.namespace` must be lowercase extension name segments, e.g. scout";
  }
  const table = new Map<string, ChatChannel>();
  if (channels !== undefined) {
    if (typeof channels !== "object" || channels === null) {
      return "`extensions.channels` must be a record of channels by domain type";
    }
    for (const k of Object.keys(channels)) {
      const c = (channels as Record<string, unknown>)[k];
      if (!CHANNELS.has(c)) return "`extensions.channels` values must be event, state or transient";
      table.set(k, c as ChatChannel);
    }
  }
  return { namespace, channels: table };
}

/** The extension event of domain frame `d`, or why it has none. */
function domainEvent(
  d: LegacyDomainFrame,
  ext: NonNullable<CheckedContext["extensions"]>,
): ChatEventV1 | string {
  const name = `${ext.namespace}.${d.type}`;
  if (!isExtensionName(name)) {
    return `${quoteClipped(d.type)} makes no extension name (${quoteClipped(name)})`;
  }
  let data = d.data as ChatJsonValue;
  if (d.dialect === "scout" && isRecord(data)) {
    const { type: _type, ...rest } = data as Record<string, ChatJsonValue>;
    data = rest;
  }
  const channel = ext.channels.get(d.type);
  return channel === undefined ? { type: "ext", name, data } : { type: "ext", name, channel, data };
}

function checkContext(ctx: LegacyUpgradeContext): CheckedContext | LegacyRefusal {
  const bad = (message: string): LegacyRefusal => ({ code: "invalid-context", message });
  if (typeof ctx !== "object" || ctx === null) return bad("the upgrade context is not an object");
  let dialect: unknown, conversationId: unknown, turnId: unknown, allocate: unknown;
  let callIdFor: unknown, retryable: unknown, retryAfterMs: unknown, errorCode: unknown;
  let at: unknown, decode: unknown, extensions: CheckedContext["extensions"] | string;
  try {
    ({ dialect, conversationId, turnId, allocate, callIdFor, retryable, retryAfterMs, errorCode } =
      ctx);
    ({ at, decode } = ctx);
    // The decode bound is read here too, so a throwing getter inside it is a refusal.
    if (typeof decode === "object" && decode !== null) {
      const maxDataLength = (decode as LegacyDecodeOptions).maxDataLength;
      decode = maxDataLength === undefined ? {} : { maxDataLength };
    } else decode = undefined;
    extensions = readExtensionOptions(ctx.extensions);
  } catch {
    return bad("the upgrade context's fields could not be read");
  }
  if (!isWireId(conversationId) || !isWireId(turnId)) {
    return bad(
      "the host must supply `conversationId` and `turnId` that are v1 wire ids (non-empty, " +
        "no CR, LF, NUL or lone surrogate)",
    );
  }
  if (typeof allocate !== "function") return bad("the host must supply an `allocate()` function");
  if (typeof extensions === "string") return bad(extensions);
  if (at !== undefined && !(typeof at === "number" && Number.isFinite(at) && at >= 0)) {
    return bad("`at` must be epoch milliseconds (a finite number ≥ 0) when given");
  }
  return {
    dialect,
    conversationId,
    turnId,
    allocate: allocate as () => unknown,
    callIdFor,
    retryable,
    retryAfterMs,
    errorCode,
    at,
    decode: decode as LegacyDecodeOptions | undefined,
    extensions,
  };
}

function upgradeChecked(
  d: LegacyDecodedFrame,
  ctx: LegacyUpgradeContext,
  host: CheckedContext,
): Result<ChatEventEnvelope, LegacyRefusal> {
  const { conversationId, turnId, allocate } = host;
  if (d.kind === "heartbeat") {
    return refuse("not-chat-event", "a heartbeat carries no chat event", { type: "heartbeat" });
  }
  let event: ChatEventV1;
  if (d.kind === "domain") {
    const ext = host.extensions === undefined ? null : domainEvent(d, host.extensions);
    if (ext === null || typeof ext === "string") {
      return refuse(
        "not-chat-event",
        ext ??
          `${quoteClipped(d.type)} is a domain event with no v1 representation; the host ` +
            "handles it (or upgrades it to an extension event: the `extensions` option)",
        { type: d.type },
      );
    }
    event = ext;
  } else {
    const converted = toV1(d, ctx, host);
    if ("refusal" in converted) return err(converted.refusal);
    event = converted.event;
  }
  // The result must satisfy the v1 contract (e.g. a card's `createdAt`), which
  // legacy decoding does not check: validate before a seq is allocated.
  const probe = parseChatEnvelope({
    schemaVersion: 1,
    conversationId,
    turnId,
    eventId: "probe",
    seq: 1,
    event,
  });
  if (!probe.ok) {
    return refuse(
      "invalid-event",
      `the upgraded \`${event.type}\` is not a valid v1 event: ${probe.error.message}`,
      { type: d.kind === "domain" ? d.type : d.wireType },
    );
  }
  let eventId: unknown, seq: unknown;
  try {
    const id: unknown = (allocate as () => unknown).call(ctx);
    if (typeof id === "object" && id !== null) {
      ({ eventId, seq } = id as Record<string, unknown>);
    }
  } catch {
    return refuse(
      "invalid-allocation",
      "the host's allocate() threw (or its result could not be read)",
    );
  }
  if (!isWireId(eventId) || typeof seq !== "number" || !Number.isSafeInteger(seq) || seq < 1) {
    return refuse(
      "invalid-allocation",
      "allocate() must return an `eventId` that is a v1 wire id (non-empty, no CR, LF, NUL or " +
        "lone surrogate) and a positive integer `seq`",
    );
  }
  const lastSeq = lastSeqs.get(ctx);
  if (lastSeq !== undefined && seq <= lastSeq) {
    return refuse(
      "invalid-allocation",
      `allocate() returned seq ${seq} after seq ${lastSeq} on this context: a turn's seq only ` +
        "grows (a duplicate or a step back would be refused by every v1 fold)",
    );
  }
  lastSeqs.set(ctx, seq);
  const envelope: ChatEventEnvelope = {
    schemaVersion: 1,
    conversationId,
    turnId,
    eventId,
    seq,
    event,
  };
  if (typeof host.at === "number") envelope.at = host.at;
  return ok(envelope);
}
