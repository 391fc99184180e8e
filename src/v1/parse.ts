/**
 * Validation of v1 envelopes: {@link parseChatEnvelope} (a value) and
 * {@link parseChatEnvelopeJson} (JSON text, size-bounded).
 *
 * A hand-written validator that agrees with `ChatEventEnvelopeSchema` (the
 * zod schemas of the `./schemas` entry point) on every input: a fast-check
 * property test holds them together. It does not import zod, so a client
 * that only parses and folds ships no zod. On refusal the same pass lists
 * every problem it found (`issues`, at most 20) with its path.
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
 * structurally, every key kept). `input`, `output` and `snapshot` must be
 * JSON data (plain objects, arrays without holes, finite numbers, strings,
 * booleans, `null`; no cycle, bounded depth and size): anything else (a
 * `bigint`, a `Map`, a `Date`, a function, a cycle, …) is an issue with
 * `code: "not-json"` at the offending path. Treat them as data: never merge
 * them into other objects with `Object.assign` or spread without your own
 * checks.
 *
 * @module
 */
import { ChatArgumentError } from "./errors.ts";
import { isRecord, utf8ByteLength as sharedUtf8ByteLength } from "../_internal/guards.ts";
import { describeThrown, describeValue, quoteClipped } from "../_internal/describe.ts";
import { readOptions } from "../_internal/fields.ts";
import { refuse } from "../_internal/refusal.ts";
import { isWireId } from "../_internal/id.ts";
import { jsonValueProblem } from "../_internal/json_value.ts";
import { ok, type Refusal, type Result } from "../result.ts";
import {
  type EnvelopeIssue,
  isFiniteNonNeg,
  isIntFrom,
  issue,
  MAX_ISSUES,
  readBlocks,
  readCard,
  readClosed,
  readDone,
  readError,
  readId,
  readJson,
  readOptString,
  readProgress,
  readProvenance,
  readVersion,
  readWireId,
  WIRE_ID,
} from "./_validate.ts";
import { type ChatExtensionRegistry, isExtensionName } from "./extensions.ts";
import type {
  ChatChannel,
  ChatEventEnvelope,
  ChatEventV1,
  ChatEventV1Type,
  ChatJsonValue,
} from "./types.ts";

export type { EnvelopeIssue } from "./_validate.ts";

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
    "ext",
    "elided",
  ] as const,
);

/** `true` iff `s` is one of the sixteen v1 event types (Set-backed: `toString` → `false`). */
export function isChatEventV1Type(s: unknown): s is ChatEventV1Type {
  return typeof s === "string" && READERS.has(s);
}

/**
 * Why {@link parseChatEnvelope} refused a value.
 *
 * - `invalid-envelope`: shape or constraint violated; `issues` lists the
 *   problems with their paths (at most 20), in the order the validator
 *   checks them (the first one is in `message`).
 * - `unsupported-version`: `schemaVersion` is not exactly `1` (`received`
 *   holds it; `undefined` when missing, e.g. a v0 or legacy frame).
 * - `unknown-event-type`: `event.type` is a string but not a v1 type
 *   (`received` holds it).
 * - `unknown-extension` / `invalid-extension`: only with a registry (the
 *   `extensions` option): a strict registry does not know the `ext` event's
 *   `name`, or the name's validator refused its `data` (`issues` under
 *   `event.data`, at most 20); `name` holds the extension name.
 * - `invalid-json` / `too-large`: only from {@link parseChatEnvelopeJson}.
 */
export type EnvelopeRefusal =
  | (Refusal<"invalid-envelope"> & { readonly issues: readonly EnvelopeIssue[] })
  | (Refusal<"unsupported-version"> & { readonly received: unknown })
  | (Refusal<"unknown-event-type"> & { readonly received: string })
  | (Refusal<"unknown-extension"> & { readonly name: string })
  | (Refusal<"invalid-extension"> & {
    readonly name: string;
    readonly issues: readonly EnvelopeIssue[];
  })
  | Refusal<"invalid-json">
  | (Refusal<"too-large"> & { readonly maxBytes: number; readonly bytes: number });

type Bag = Record<string, unknown>;

const TURN_STATUS_TARGETS: ReadonlySet<string> = new Set([
  "running",
  "cancelled",
  "interrupted",
  "needs-reconciliation",
]);

type Reader = (e: Bag, issues: EnvelopeIssue[]) => ChatEventV1;

/** Opaque data must be JSON data (a `not-json` issue at the offending path); returns `v`. */
function readJsonValue(v: unknown, path: string, issues: EnvelopeIssue[]): unknown {
  const bad = jsonValueProblem(v, path);
  if (bad !== null && issues.length < MAX_ISSUES) {
    issues.push({ path: bad.path, message: `${bad.what} is not JSON data`, code: "not-json" });
  }
  return v;
}

const readTextOf = (type: "delta" | "reasoning"): Reader => (e, issues) => {
  const text = e.text;
  if (typeof text !== "string") issue(issues, "event.text", "must be a string");
  return { type, text: text as string };
};
const readDelta = readTextOf("delta");
const readReasoning = readTextOf("reasoning");

const readToolCall: Reader = (e, issues) => {
  const callId = readWireId(e.callId, "event.callId", issues);
  const name = readId(e.name, "event.name", issues);
  const input = e.input;
  if (input !== undefined) readJsonValue(input, "event.input", issues);
  return input === undefined
    ? { type: "tool_call", callId, name }
    : { type: "tool_call", callId, name, input };
};

const readToolProgress: Reader = (e, issues) => {
  const out: ChatEventV1 = {
    type: "tool_progress",
    callId: readWireId(e.callId, "event.callId", issues),
  };
  const message = readOptString(e.message, "event.message", issues);
  if (message !== undefined) out.message = message;
  const progress = readProgress(e.progress, "event.progress", issues);
  if (progress !== undefined) out.progress = progress;
  return out;
};

const readToolResult: Reader = (e, issues) => {
  const callId = readWireId(e.callId, "event.callId", issues);
  const name = readId(e.name, "event.name", issues);
  const okv = e.ok;
  if (typeof okv !== "boolean") issue(issues, "event.ok", "must be a boolean");
  const out: ChatEventV1 = { type: "tool_result", callId, name, ok: okv as boolean };
  const summary = readOptString(e.summary, "event.summary", issues);
  if (summary !== undefined) out.summary = summary;
  const output = e.output, blocks = e.blocks;
  if (output !== undefined) out.output = readJsonValue(output, "event.output", issues);
  if (blocks !== undefined) out.blocks = readBlocks(blocks, "event.blocks", issues);
  return out;
};

const readState: Reader = (e, issues) => {
  const version = readVersion(e.version, "event.version", issues);
  // `undefined` is not JSON: an envelope carrying it would be sent without the key and
  // refused on the other side, so it is refused here (the encoders validate with this).
  const snapshot = e.snapshot;
  if (snapshot === undefined) issue(issues, "event.snapshot", "is required (use null for none)");
  else readJsonValue(snapshot, "event.snapshot", issues);
  return { type: "state", version, snapshot };
};

const readNavigate: Reader = (e, issues) => {
  const href = e.href;
  if (typeof href !== "string") issue(issues, "event.href", "must be a string");
  return { type: "navigate", href: href as string };
};

const readExt: Reader = (e, issues) => {
  const name = e.name, channel = e.channel;
  if (!isExtensionName(name)) {
    issue(
      issues,
      "event.name",
      "must be an extension name: lowercase namespace.name segments (e.g. scout.products), " +
        "at most 128 characters",
    );
  }
  if (
    channel !== undefined && channel !== "event" && channel !== "state" && channel !== "transient"
  ) {
    issue(issues, "event.channel", "must be event, state or transient");
  }
  const data = readJson(e.data, "event.data", issues);
  return channel === undefined
    ? { type: "ext", name: name as string, data }
    : { type: "ext", name: name as string, channel: channel as ChatChannel, data };
};

const readElided: Reader = (e, issues) => {
  const of = e.of;
  if (of !== "navigate" && of !== "ext") issue(issues, "event.of", "must be navigate or ext");
  return { type: "elided", of: of as "navigate" };
};

const readTurnStatus: Reader = (e, issues) => {
  const status = e.status;
  if (typeof status !== "string" || !TURN_STATUS_TARGETS.has(status)) {
    issue(
      issues,
      "event.status",
      "must be running, cancelled, interrupted or needs-reconciliation",
    );
  }
  const out: ChatEventV1 = {
    type: "turn_status",
    status: status as "running" | "cancelled" | "interrupted" | "needs-reconciliation",
  };
  const reason = readOptString(e.reason, "event.reason", issues);
  if (reason !== undefined) out.reason = reason;
  return out;
};

/**
 * The reader of each event type: it validates and rebuilds one event,
 * appending its problems to `issues` (the returned event is then incomplete
 * and must be dropped). One small reader per type behind one `Map` lookup
 * (measured: one big function over every type costs ~10% of a parse).
 */
const READERS: ReadonlyMap<string, Reader> = new Map<ChatEventV1Type, Reader>([
  ["delta", readDelta],
  ["reasoning", readReasoning],
  ["tool_call", readToolCall],
  ["tool_progress", readToolProgress],
  ["tool_result", readToolResult],
  [
    "session",
    (e, i) => ({ type: "session", sessionId: readWireId(e.sessionId, "event.sessionId", i) }),
  ],
  ["provenance", (e, i) => ({ type: "provenance", ...readProvenance(e, "event", i) })],
  ["card", (e, i) => ({ type: "card", card: readCard(e.card, "event.card", i) })],
  ["card_closed", (e, i) => ({ type: "card_closed", ...readClosed(e, "event", i) })],
  ["state", readState],
  ["done", (e, i) => ({ type: "done", ...readDone(e, "event", i) })],
  ["error", (e, i) => ({ type: "error", ...readError(e, "event", i) })],
  ["navigate", readNavigate],
  ["turn_status", readTurnStatus],
  ["ext", readExt],
  ["elided", readElided],
]);

function invalid(issues: EnvelopeIssue[]): Result<never, EnvelopeRefusal> {
  const first = issues[0];
  const where = first.path === "" ? "envelope" : first.path;
  return refuse("invalid-envelope", `invalid v1 envelope: ${where} ${first.message}`, { issues });
}

/**
 * The issue list of the next parse, reused while every parse succeeds (a
 * valid envelope allocates no list); taken while in use, so a parse that
 * re-enters (a getter that parses) allocates its own.
 */
let spare: EnvelopeIssue[] | null = [];

function parseUnsafe(value: unknown): Result<ChatEventEnvelope, EnvelopeRefusal> {
  const issues = spare ?? [];
  spare = null;
  try {
    return check(value, issues);
  } finally {
    if (issues.length === 0) spare = issues; // a refusal keeps its list
  }
}

/** Options of {@link parseChatEnvelope} (and of the folds, which parse with them). */
export interface ParseChatEnvelopeOptions {
  /**
   * The host's validators for extension events (`createExtensionRegistry`),
   * consulted for an `ext` event once the wire rules passed. Without one,
   * every well-formed extension event passes as opaque data.
   */
  readonly extensions?: ChatExtensionRegistry;
}

const EXTENSION_CODES: ReadonlySet<unknown> = new Set(["unknown-extension", "invalid-extension"]);

/** The host registry's verdict on a parsed `ext` event: `null` (accepted) or the refusal. */
function checkExtension(
  registry: unknown,
  event: { name: string; data: ChatJsonValue },
): Result<never, EnvelopeRefusal> | null {
  const name = event.name;
  let code: unknown, message: unknown, issues: unknown;
  try {
    const verdict = (registry as ChatExtensionRegistry).check(name, event.data);
    if (verdict === null) return null;
    ({ code, message, issues } = verdict);
  } catch (e) {
    message = `the extension registry failed: ${describeThrown(e, 200)}`;
  }
  if (!EXTENSION_CODES.has(code)) code = "invalid-extension";
  if (typeof message !== "string") message = `extension ${quoteClipped(name, 64)} was refused`;
  if (code === "unknown-extension") return refuse(code, message as string, { name });
  const list = Array.isArray(issues) && issues.length > 0 ? issues.slice(0, 20) : [
    { path: "event.data", message: message as string },
  ];
  return refuse("invalid-extension", message as string, { name, issues: list as EnvelopeIssue[] });
}

/**
 * The conversation and turn ids of the last envelope that had valid ones
 * (wire ids); a private symbol until then, which no input can equal.
 */
let lastConversationId: unknown = Symbol(), lastTurnId: unknown = lastConversationId;

function check(
  value: unknown,
  issues: EnvelopeIssue[],
): Result<ChatEventEnvelope, EnvelopeRefusal> {
  if (!isRecord(value)) return invalid([{ path: "", message: "must be an object" }]);
  const v = value;
  const schemaVersion = v.schemaVersion;
  if (schemaVersion !== 1) {
    return refuse(
      "unsupported-version",
      `unsupported envelope schemaVersion ${
        schemaVersion === undefined ? "(missing)" : describeValue(schemaVersion)
      } (expected 1)`,
      { received: schemaVersion },
    );
  }
  const ev = v.event;
  let type: unknown;
  if (!isRecord(ev)) issue(issues, "event", "must be an object");
  else {
    type = ev.type;
    if (typeof type !== "string") issue(issues, "event.type", "must be a string");
    else if (!READERS.has(type)) {
      return refuse(
        "unknown-event-type",
        `unknown v1 event type ${quoteClipped(type, 64)}`,
        {
          received: type,
        },
      );
    }
  }
  const conversationId = v.conversationId, turnId = v.turnId, eventId = v.eventId;
  const seq = v.seq, at = v.at;
  // A stream repeats its conversation and turn ids: the last ones that passed are not scanned again.
  if (conversationId !== lastConversationId) {
    if (isWireId(conversationId)) lastConversationId = conversationId;
    else issue(issues, "conversationId", WIRE_ID);
  }
  if (turnId !== lastTurnId) {
    if (isWireId(turnId)) lastTurnId = turnId;
    else issue(issues, "turnId", WIRE_ID);
  }
  if (!isWireId(eventId)) issue(issues, "eventId", WIRE_ID);
  if (!isIntFrom(seq, 1)) issue(issues, "seq", "must be a positive integer");
  if (at !== undefined && !isFiniteNonNeg(at)) {
    issue(issues, "at", "must be a finite number ≥ 0 (epoch ms)");
  }
  // the event's fields are checked even when the envelope's failed: one pass lists every problem
  const event = typeof type === "string" ? READERS.get(type)!(ev as Bag, issues) : null;
  if (event === null || issues.length > 0) return invalid(issues);
  return ok(
    at === undefined
      ? {
        schemaVersion: 1,
        conversationId: conversationId as string,
        turnId: turnId as string,
        eventId: eventId as string,
        seq: seq as number,
        event,
      }
      : {
        schemaVersion: 1,
        conversationId: conversationId as string,
        turnId: turnId as string,
        eventId: eventId as string,
        seq: seq as number,
        at: at as number,
        event,
      },
  );
}

/**
 * Validate one v1 envelope (an already-parsed value) against the contract.
 * Never throws.
 *
 * Accepts exactly what `ChatEventEnvelopeSchema` accepts. Returns a
 * fresh envelope with unknown keys stripped (opaque data kept by reference,
 * see the module docs; an extension event's `data` is copied), or a typed
 * {@link EnvelopeRefusal}: `invalid-envelope` (with `issues`),
 * `unsupported-version` (schemaVersion not exactly 1, including missing) or
 * `unknown-event-type`. With `options.extensions` (a host registry), an
 * `ext` event is then also checked by it: `unknown-extension` /
 * `invalid-extension`.
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
export function parseChatEnvelope(
  value: unknown,
  options?: ParseChatEnvelopeOptions,
): Result<ChatEventEnvelope, EnvelopeRefusal> {
  try {
    const r = parseUnsafe(value);
    if (options === undefined || !r.ok || r.value.event.type !== "ext") return r;
    // Options that cannot be read count as none; a registry without `check` fails each ext event.
    const extensions = readOptions(options, ["extensions"])?.extensions;
    return extensions === undefined ? r : checkExtension(extensions, r.value.event) ?? r;
  } catch (e) {
    // Only reachable through hostile objects (throwing getters, revoked proxies).
    return refuse(
      "invalid-envelope",
      `invalid v1 envelope: reading it threw (${describeThrown(e, 200)})`,
      {
        issues: [{ path: "", message: "reading the value threw" }],
      },
    );
  }
}

/** Default bound of {@link parseChatEnvelopeJson}: 1 MiB of UTF-8. */
export const DEFAULT_MAX_ENVELOPE_BYTES = 1_048_576;

/** Options of {@link parseChatEnvelopeJson}: the bound, and those of {@link parseChatEnvelope}. */
export interface ParseChatEnvelopeJsonOptions extends ParseChatEnvelopeOptions {
  /** Largest accepted text, in UTF-8 bytes. Default {@link DEFAULT_MAX_ENVELOPE_BYTES} (1 MiB). */
  maxBytes?: number;
}

/**
 * UTF-8 byte length of `s` (lone surrogates count 3, as TextEncoder writes U+FFFD).
 * Counts without allocating; `s.length` is in UTF-16 code units, this is in bytes.
 *
 * @throws {ChatArgumentError} `invalid-argument` when `s` is not a string (a programmer's mistake)
 */
export function utf8ByteLength(s: string): number {
  if (typeof s !== "string") {
    throw new ChatArgumentError(
      "invalid-argument",
      `utf8ByteLength takes a string, got ${describeValue(s)}`,
    );
  }
  return sharedUtf8ByteLength(s);
}

/**
 * Parse JSON text (one NDJSON line or one SSE `data:` payload) and validate it
 * with {@link parseChatEnvelope}. Never throws.
 *
 * Text larger than `maxBytes` UTF-8 bytes (default 1 MiB) is refused with
 * `too-large` before `JSON.parse` runs; malformed JSON is `invalid-json`.
 * A `maxBytes` that is not a number ≥ 0, or options that cannot be read
 * (throwing getter, revoked proxy), leave the default bound in force.
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
  if (typeof text !== "string") return refuse("invalid-json", "expected JSON text (a string)");
  // Options that cannot be read (a throwing getter, a revoked proxy) count as none.
  const rawMax = readOptions(options, ["maxBytes"])?.maxBytes;
  const maxBytes = typeof rawMax === "number" && rawMax >= 0 ? rawMax : DEFAULT_MAX_ENVELOPE_BYTES;
  // UTF-16 units ≤ UTF-8 bytes ≤ 3 × units: measure exactly only when in doubt.
  if (text.length > maxBytes || (text.length * 3 > maxBytes && utf8ByteLength(text) > maxBytes)) {
    const bytes = utf8ByteLength(text);
    return refuse(
      "too-large",
      `envelope text is ${bytes} bytes, more than the ${maxBytes}-byte bound`,
      {
        maxBytes,
        bytes,
      },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return refuse("invalid-json", `not valid JSON: ${describeThrown(e, 200)}`);
  }
  return parseChatEnvelope(value, options);
}
