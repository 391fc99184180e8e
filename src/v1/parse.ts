/**
 * Validation of v1 envelopes: {@link parseChatEnvelope} (a value) and
 * {@link parseChatEnvelopeJson} (JSON text, size-bounded).
 *
 * The hot path is a hand-written validator that agrees with
 * {@link ChatEventEnvelopeSchema} on every input (a fast-check property test
 * holds them together); zod runs only on refusal, to describe the problems.
 *
 * Like zod, it reads fields with plain property access (measured: an
 * `Object.hasOwn` guard per field costs ~5× the whole validation). Input keys
 * such as `__proto__` or `constructor` are never read and never copied: the
 * output is built from the contract's field names only, on fresh object
 * literals.
 *
 * Unknown keys are stripped: the result is a fresh envelope and a fresh event
 * holding only the contract's keys (blocks, sources and usage are rebuilt the
 * same way). Opaque data is kept by reference: `tool_call.input`,
 * `tool_result.output`, `state.snapshot` and the `card` object (validated
 * structurally, every key kept). Treat them as data: never merge them into
 * other objects with `Object.assign` or spread without your own checks.
 *
 * @module
 */
import { isFiniteNonNeg, isNonEmpty, RESOLUTIONS, USAGE_KEYS } from "./_guards.ts";
import { isRecord, utf8ByteLength as sharedUtf8ByteLength } from "../_internal/guards.ts";
import { err, ok, type Refusal, type Result } from "../result.ts";
import type { OpenCardSnapshot } from "../cards/types.ts";
import { ChatEventEnvelopeSchema } from "./schemas.ts";
import type {
  CardResolution,
  ChatEventEnvelope,
  ChatEventV1,
  ChatEventV1Type,
  ChatUsage,
  GroundedBlock,
  SourceRef,
} from "./types.ts";

/** The v1 event `type` strings, in declaration order. */
export const CHAT_EVENT_V1_TYPES: readonly ChatEventV1Type[] = Object.freeze(
  [
    "session",
    "delta",
    "reasoning",
    "tool_call",
    "tool_progress",
    "tool_result",
    "provenance",
    "card",
    "card_closed",
    "state",
    "done",
    "error",
    "navigate",
    "turn_status",
  ] as const,
);

const V1_TYPES: ReadonlySet<string> = new Set<string>(CHAT_EVENT_V1_TYPES);

/** `true` iff `s` is one of the fourteen v1 event types (Set-backed: `toString` → `false`). */
export function isChatEventV1Type(s: unknown): s is ChatEventV1Type {
  return typeof s === "string" && V1_TYPES.has(s);
}

/** One validation problem: where (`path`, e.g. `event.callId`) and what. */
export interface EnvelopeIssue {
  /** Dotted path into the envelope; `""` for the root. Array indexes appear as numbers. */
  readonly path: string;
  /** What is wrong there. */
  readonly message: string;
}

/**
 * Why {@link parseChatEnvelope} refused a value.
 *
 * - `invalid-envelope`: shape or constraint violated; `issues` lists the
 *   problems with their paths (at most 20).
 * - `unsupported-version`: `schemaVersion` is not exactly `1` (`received`
 *   holds it; `undefined` when missing, e.g. a v0 or legacy frame).
 * - `unknown-event-type`: `event.type` is a string but not a v1 type
 *   (`received` holds it).
 * - `invalid-json` / `too-large`: only from {@link parseChatEnvelopeJson}.
 */
export type EnvelopeRefusal =
  | (Refusal<"invalid-envelope"> & { readonly issues: readonly EnvelopeIssue[] })
  | (Refusal<"unsupported-version"> & { readonly received: unknown })
  | (Refusal<"unknown-event-type"> & { readonly received: string })
  | Refusal<"invalid-json">
  | (Refusal<"too-large"> & { readonly maxBytes: number; readonly bytes: number });

type Bag = Record<string, unknown>;
type Fail = { readonly path: string; readonly message: string };

const TURN_STATUS_TARGETS: ReadonlySet<string> = new Set([
  "running",
  "cancelled",
  "interrupted",
  "needs-reconciliation",
]);

function fail(path: string, message: string): Fail {
  return { path, message };
}

function readUsage(u: Bag): ChatUsage | Fail {
  const out: ChatUsage = {};
  for (const k of USAGE_KEYS) {
    const v = u[k];
    if (v === undefined) continue;
    if (!isFiniteNonNeg(v)) return fail(`event.usage.${k}`, "must be a finite number ≥ 0");
    out[k] = v;
  }
  return out;
}

function readBlocks(v: unknown): GroundedBlock[] | Fail {
  if (!Array.isArray(v)) return fail("event.blocks", "must be an array");
  const out: GroundedBlock[] = new Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const b = v[i];
    if (!isRecord(b)) return fail(`event.blocks.${i}`, "must be an object");
    if (!isNonEmpty(b.id)) return fail(`event.blocks.${i}.id`, "must be a non-empty string");
    if (typeof b.text !== "string") return fail(`event.blocks.${i}.text`, "must be a string");
    const s = b.sources;
    if (!Array.isArray(s)) return fail(`event.blocks.${i}.sources`, "must be an array");
    const sources: SourceRef[] = new Array(s.length);
    for (let j = 0; j < s.length; j++) {
      const r = s[j];
      if (!isRecord(r)) return fail(`event.blocks.${i}.sources.${j}`, "must be an object");
      if (!isNonEmpty(r.ref)) {
        return fail(`event.blocks.${i}.sources.${j}.ref`, "must be a non-empty string");
      }
      const label = r.label;
      if (label === undefined) sources[j] = { ref: r.ref };
      else if (typeof label === "string") sources[j] = { ref: r.ref, label };
      else return fail(`event.blocks.${i}.sources.${j}.label`, "must be a string");
    }
    out[i] = { id: b.id, text: b.text, sources };
  }
  return out;
}

/** Validate and rebuild one event. Returns the fresh event or a {@link Fail}. */
function readEvent(e: Bag, type: ChatEventV1Type): ChatEventV1 | Fail {
  switch (type) {
    case "delta":
    case "reasoning": {
      const text = e.text;
      if (typeof text !== "string") return fail("event.text", "must be a string");
      return { type, text };
    }
    case "tool_call": {
      const callId = e.callId, name = e.name, input = e.input;
      if (!isNonEmpty(callId)) return fail("event.callId", "must be a non-empty string");
      if (!isNonEmpty(name)) return fail("event.name", "must be a non-empty string");
      return input === undefined ? { type, callId, name } : { type, callId, name, input };
    }
    case "tool_progress": {
      const callId = e.callId, message = e.message, progress = e.progress;
      if (!isNonEmpty(callId)) return fail("event.callId", "must be a non-empty string");
      const out: ChatEventV1 = { type, callId };
      if (message !== undefined) {
        if (typeof message !== "string") return fail("event.message", "must be a string");
        out.message = message;
      }
      if (progress !== undefined) {
        if (typeof progress !== "number" || !(progress >= 0 && progress <= 1)) {
          return fail("event.progress", "must be a number from 0 to 1");
        }
        out.progress = progress;
      }
      return out;
    }
    case "tool_result": {
      const callId = e.callId, name = e.name, okv = e.ok;
      if (!isNonEmpty(callId)) return fail("event.callId", "must be a non-empty string");
      if (!isNonEmpty(name)) return fail("event.name", "must be a non-empty string");
      if (typeof okv !== "boolean") return fail("event.ok", "must be a boolean");
      const out: ChatEventV1 = { type, callId, name, ok: okv };
      const summary = e.summary, output = e.output, blocks = e.blocks;
      if (summary !== undefined) {
        if (typeof summary !== "string") return fail("event.summary", "must be a string");
        out.summary = summary;
      }
      if (output !== undefined) out.output = output;
      if (blocks !== undefined) {
        const b = readBlocks(blocks);
        if (!Array.isArray(b)) return b;
        out.blocks = b;
      }
      return out;
    }
    case "session": {
      const sessionId = e.sessionId;
      if (!isNonEmpty(sessionId)) return fail("event.sessionId", "must be a non-empty string");
      return { type, sessionId };
    }
    case "provenance": {
      const engine = e.engine, model = e.model, provider = e.provider, route = e.accountRoute;
      if (!isNonEmpty(engine)) return fail("event.engine", "must be a non-empty string");
      if (!isNonEmpty(model)) return fail("event.model", "must be a non-empty string");
      const out: ChatEventV1 = { type, engine, model };
      if (provider !== undefined) {
        if (typeof provider !== "string") return fail("event.provider", "must be a string");
        out.provider = provider;
      }
      if (route !== undefined) {
        if (typeof route !== "string" && route !== null) {
          return fail("event.accountRoute", "must be a string or null");
        }
        out.accountRoute = route;
      }
      return out;
    }
    case "card": {
      const card = e.card;
      if (!isRecord(card)) return fail("event.card", "must be an object");
      if (!isNonEmpty(card.correlationId)) {
        return fail("event.card.correlationId", "must be a non-empty string");
      }
      if (typeof card.prompt !== "string") return fail("event.card.prompt", "must be a string");
      const createdAt = card.createdAt;
      if (typeof createdAt !== "number" || !Number.isFinite(createdAt)) {
        return fail("event.card.createdAt", "must be a finite number (epoch ms)");
      }
      return { type, card: card as unknown as OpenCardSnapshot };
    }
    case "card_closed": {
      const correlationId = e.correlationId, resolution = e.resolution;
      if (!isNonEmpty(correlationId)) {
        return fail("event.correlationId", "must be a non-empty string");
      }
      if (resolution === undefined) return { type, correlationId };
      if (typeof resolution !== "string" || !RESOLUTIONS.has(resolution)) {
        return fail("event.resolution", "must be a known card resolution");
      }
      return { type, correlationId, resolution: resolution as CardResolution };
    }
    case "state": {
      const version = e.version;
      if (typeof version !== "number" || !Number.isSafeInteger(version) || version < 0) {
        return fail("event.version", "must be a non-negative integer");
      }
      if (!("snapshot" in e)) return fail("event.snapshot", "is required (use null for none)");
      return { type, version, snapshot: e.snapshot };
    }
    case "done": {
      const stopReason = e.stopReason, usage = e.usage;
      const out: ChatEventV1 = { type };
      if (stopReason !== undefined) {
        if (typeof stopReason !== "string") return fail("event.stopReason", "must be a string");
        out.stopReason = stopReason;
      }
      if (usage !== undefined) {
        if (!isRecord(usage)) return fail("event.usage", "must be an object");
        const u = readUsage(usage);
        if ("path" in u) return u as Fail;
        out.usage = u;
      }
      return out;
    }
    case "error": {
      const message = e.message, code = e.code, retryable = e.retryable, after = e.retryAfterMs;
      if (typeof message !== "string") return fail("event.message", "must be a string");
      if (typeof retryable !== "boolean") {
        return fail("event.retryable", "must be a boolean (explicit retry permission)");
      }
      const out: ChatEventV1 = { type, message, retryable };
      if (code !== undefined) {
        if (typeof code !== "string") return fail("event.code", "must be a string");
        out.code = code;
      }
      if (after !== undefined) {
        if (!isFiniteNonNeg(after)) {
          return fail("event.retryAfterMs", "must be a finite number ≥ 0");
        }
        if (!retryable) {
          return fail("event.retryAfterMs", "is only allowed when retryable is true");
        }
        out.retryAfterMs = after;
      }
      return out;
    }
    case "navigate": {
      const href = e.href;
      if (typeof href !== "string") return fail("event.href", "must be a string");
      return { type, href };
    }
    case "turn_status": {
      const status = e.status, reason = e.reason;
      if (typeof status !== "string" || !TURN_STATUS_TARGETS.has(status)) {
        return fail(
          "event.status",
          "must be running, cancelled, interrupted or needs-reconciliation",
        );
      }
      const out: ChatEventV1 = {
        type,
        status: status as "running" | "cancelled" | "interrupted" | "needs-reconciliation",
      };
      if (reason !== undefined) {
        if (typeof reason !== "string") return fail("event.reason", "must be a string");
        out.reason = reason;
      }
      return out;
    }
  }
}

function issuesFromZod(value: unknown, first: Fail): EnvelopeIssue[] {
  let issues: EnvelopeIssue[] = [];
  try {
    const r = ChatEventEnvelopeSchema.safeParse(value);
    if (!r.success) {
      issues = r.error.issues.slice(0, 20).map((i) => ({
        path: i.path.map(String).join("."),
        message: i.message,
      }));
    }
  } catch {
    // A hostile value (throwing getter, proxy) can make zod throw: fall back to our own issue.
  }
  if (!issues.some((i) => i.path === first.path)) issues.unshift(first);
  return issues;
}

function invalid(value: unknown, f: Fail): Result<never, EnvelopeRefusal> {
  const issues = issuesFromZod(value, f);
  const where = f.path === "" ? "envelope" : f.path;
  return err({
    code: "invalid-envelope",
    message: `invalid v1 envelope: ${where} ${f.message}`,
    issues,
  });
}

function parseUnsafe(value: unknown): Result<ChatEventEnvelope, EnvelopeRefusal> {
  if (!isRecord(value)) return invalid(value, fail("", "must be an object"));
  const v = value;
  const schemaVersion = v.schemaVersion;
  if (schemaVersion !== 1) {
    return err({
      code: "unsupported-version",
      message: `unsupported envelope schemaVersion ${describe(schemaVersion)} (expected 1)`,
      received: schemaVersion,
    });
  }
  const ev = v.event;
  if (!isRecord(ev)) return invalid(value, fail("event", "must be an object"));
  const type = ev.type;
  if (typeof type !== "string") return invalid(value, fail("event.type", "must be a string"));
  if (!V1_TYPES.has(type)) {
    return err({
      code: "unknown-event-type",
      message: `unknown v1 event type ${JSON.stringify(type.slice(0, 64))}`,
      received: type,
    });
  }
  const conversationId = v.conversationId, turnId = v.turnId, eventId = v.eventId;
  const seq = v.seq, at = v.at;
  if (!isNonEmpty(conversationId)) {
    return invalid(value, fail("conversationId", "must be a non-empty string"));
  }
  if (!isNonEmpty(turnId)) return invalid(value, fail("turnId", "must be a non-empty string"));
  if (!isNonEmpty(eventId)) return invalid(value, fail("eventId", "must be a non-empty string"));
  if (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq < 1) {
    return invalid(value, fail("seq", "must be a positive integer"));
  }
  if (at !== undefined && !isFiniteNonNeg(at)) {
    return invalid(value, fail("at", "must be a finite number ≥ 0 (epoch ms)"));
  }
  const event = readEvent(ev, type as ChatEventV1Type);
  if ("path" in event) return invalid(value, event as Fail);
  return ok(
    at === undefined
      ? { schemaVersion: 1, conversationId, turnId, eventId, seq, event }
      : { schemaVersion: 1, conversationId, turnId, eventId, seq, at, event },
  );
}

function describe(v: unknown): string {
  if (v === undefined) return "(missing)";
  if (typeof v === "string") return JSON.stringify(v.slice(0, 32));
  if (typeof v === "number" || typeof v === "boolean" || v === null) return String(v);
  return typeof v;
}

/**
 * Validate one v1 envelope (an already-parsed value) against the contract.
 * Never throws.
 *
 * Accepts exactly what {@link ChatEventEnvelopeSchema} accepts. Returns a
 * fresh envelope with unknown keys stripped (opaque data kept by reference,
 * see the module docs), or a typed {@link EnvelopeRefusal}: `invalid-envelope`
 * (with `issues`), `unsupported-version` (schemaVersion not exactly 1,
 * including missing) or `unknown-event-type`.
 *
 * Only the contract is checked: ordering (`seq`), identity against a turn and
 * lifecycle are the fold's job ({@link ChatStateFolder}); authorization and
 * retention are the host's.
 *
 * @example
 * ```ts
 * import { parseChatEnvelope } from "@papercusp/chat-protocol";
 * const r = parseChatEnvelope({
 *   schemaVersion: 1, conversationId: "c1", turnId: "t1", eventId: "e1", seq: 1,
 *   event: { type: "delta", text: "Hi" },
 * });
 * if (r.ok) console.log(r.value.event);
 * else console.error(r.error.code, r.error.message);
 * ```
 */
export function parseChatEnvelope(value: unknown): Result<ChatEventEnvelope, EnvelopeRefusal> {
  try {
    return parseUnsafe(value);
  } catch (e) {
    // Only reachable through hostile objects (throwing getters, revoked proxies).
    return err({
      code: "invalid-envelope",
      message: `invalid v1 envelope: reading it threw (${e instanceof Error ? e.name : "error"})`,
      issues: [{ path: "", message: "reading the value threw" }],
    });
  }
}

/** Default bound of {@link parseChatEnvelopeJson}: 1 MiB of UTF-8. */
export const DEFAULT_MAX_ENVELOPE_BYTES = 1_048_576;

/** Options of {@link parseChatEnvelopeJson}. */
export interface ParseChatEnvelopeJsonOptions {
  /** Largest accepted text, in UTF-8 bytes. Default {@link DEFAULT_MAX_ENVELOPE_BYTES} (1 MiB). */
  maxBytes?: number;
}

/**
 * UTF-8 byte length of `s` (lone surrogates count 3, as TextEncoder writes U+FFFD).
 * Counts without allocating; `s.length` is in UTF-16 code units, this is in bytes.
 */
export const utf8ByteLength: (s: string) => number = sharedUtf8ByteLength;

/**
 * Parse JSON text (one NDJSON line or one SSE `data:` payload) and validate it
 * with {@link parseChatEnvelope}. Never throws.
 *
 * Text larger than `maxBytes` UTF-8 bytes (default 1 MiB) is refused with
 * `too-large` before `JSON.parse` runs; malformed JSON is `invalid-json`.
 *
 * @example
 * ```ts
 * import { parseChatEnvelopeJson } from "@papercusp/chat-protocol";
 * const line = '{"schemaVersion":1,"conversationId":"c1","turnId":"t1","eventId":"e1","seq":1,"event":{"type":"delta","text":"Hi"}}';
 * const r = parseChatEnvelopeJson(line, { maxBytes: 64 * 1024 });
 * ```
 */
export function parseChatEnvelopeJson(
  text: string,
  options?: ParseChatEnvelopeJsonOptions,
): Result<ChatEventEnvelope, EnvelopeRefusal> {
  if (typeof text !== "string") {
    return err({ code: "invalid-json", message: "expected JSON text (a string)" });
  }
  const rawMax = options?.maxBytes;
  const maxBytes = typeof rawMax === "number" && rawMax >= 0 ? rawMax : DEFAULT_MAX_ENVELOPE_BYTES;
  // UTF-16 units ≤ UTF-8 bytes ≤ 3 × units: measure exactly only when in doubt.
  if (text.length > maxBytes || (text.length * 3 > maxBytes && utf8ByteLength(text) > maxBytes)) {
    const bytes = utf8ByteLength(text);
    return err({
      code: "too-large",
      message: `envelope text is ${bytes} bytes, more than the ${maxBytes}-byte bound`,
      maxBytes,
      bytes,
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return err({
      code: "invalid-json",
      message: `not valid JSON: ${e instanceof Error ? e.message.slice(0, 200) : "parse error"}`,
    });
  }
  return parseChatEnvelope(value);
}
