/**
 * The v1 field validators, written once and used by both the envelope parser
 * (`parse.ts`) and the saved-state validator (`_saved_state.ts`).
 *
 * Each reader takes the value, the dotted path it sits at and an issue list;
 * it returns a fresh copy built from the contract's field names only, and
 * appends one {@link EnvelopeIssue} per problem (it keeps going after a
 * problem, so one pass lists them all; the list is capped at
 * {@link MAX_ISSUES}). The caller checks whether the list grew: when it did,
 * the returned copy is incomplete and must be dropped. Fields are read with
 * plain property access, each once; a hostile value (throwing getter,
 * revoked proxy) makes a reader throw, and the public callers catch that.
 *
 * @module
 */
import { isRecord } from "../_internal/guards.ts";
import { isId, isWireId } from "../_internal/id.ts";
import type { OpenCardSnapshot } from "../cards/types.ts";
import { MAX_EXTENSION_DEPTH, MAX_EXTENSION_VALUES } from "./limits.ts";
import type {
  CardResolution,
  ChatJsonValue,
  ChatUsage,
  ErrorEventV1,
  GroundedBlock,
  ProviderProvenance,
  SourceRef,
} from "./types.ts";

/** One validation problem: where (`path`, e.g. `event.callId`) and what. */
export interface EnvelopeIssue {
  /** Dotted path into the envelope; `""` for the root. Array indexes appear as numbers. */
  readonly path: string;
  /** What is wrong there. */
  readonly message: string;
  /**
   * `not-json`: opaque data (`input`, `output`, `snapshot`) that is not JSON
   * data, at `path` (the offending value inside it). Absent for other problems.
   */
  readonly code?: "not-json";
}

/** Most issues one refusal lists. */
export const MAX_ISSUES = 20;

/** Append an issue (up to {@link MAX_ISSUES}). */
export function issue(issues: EnvelopeIssue[], path: string, message: string): void {
  if (issues.length < MAX_ISSUES) issues.push({ path, message });
}

/** `a.b` or `b` when `a` is the root. */
function at(path: string, key: string | number): string {
  return path === "" ? String(key) : `${path}.${key}`;
}

const NON_EMPTY = "must be a non-empty string";
const STRING = "must be a string";
/** The message of a broken wire-id rule ({@link readWireId}). */
export const WIRE_ID = "must be a non-empty string without CR, LF, NUL or a lone surrogate";

/** A number ≥ 0 that is not NaN or Infinity. */
export function isFiniteNonNeg(v: unknown): v is number {
  return typeof v === "number" && v >= 0 && v !== Infinity;
}

/** A safe integer ≥ `min`. */
export function isIntFrom(v: unknown, min: number): v is number {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= min;
}

/** The card resolutions a `card_closed` event may carry. */
const RESOLUTIONS: ReadonlySet<string> = new Set<CardResolution>([
  "submitted",
  "declined",
  "cancelled",
  "expired",
  "interrupted",
]);

/** The {@link ChatUsage} fields: each optional, a finite number ≥ 0. */
const USAGE_KEYS = ["totalTokens", "inputTokens", "outputTokens", "costUsd"] as const;

/** `v` when it is a non-empty string, else an issue at `path`. */
export function readId(v: unknown, path: string, issues: EnvelopeIssue[]): string {
  if (!isId(v)) issue(issues, path, NON_EMPTY);
  return v as string;
}

/**
 * `v` when it is a wire id (non-empty, no CR, LF, NUL or lone surrogate: it
 * can be an SSE `id:`, a `Last-Event-ID` or a header value), else an issue
 * at `path`. The rule of every v1 id: conversation, turn, event, session,
 * tool call and card correlation ids.
 */
export function readWireId(v: unknown, path: string, issues: EnvelopeIssue[]): string {
  if (!isWireId(v)) issue(issues, path, WIRE_ID);
  return v as string;
}

/** `v` when it is `undefined` or a string, else an issue. */
export function readOptString(
  v: unknown,
  path: string,
  issues: EnvelopeIssue[],
): string | undefined {
  if (v !== undefined && typeof v !== "string") issue(issues, path, STRING);
  return v as string | undefined;
}

/** A tool progress fraction: `undefined` or a number from 0 to 1. */
export function readProgress(
  v: unknown,
  path: string,
  issues: EnvelopeIssue[],
): number | undefined {
  if (v !== undefined && (typeof v !== "number" || !(v >= 0 && v <= 1))) {
    issue(issues, path, "must be a number from 0 to 1");
  }
  return v as number | undefined;
}

/** Usage counts (tokens; `costUsd` in USD), each a finite number ≥ 0; unknown keys dropped. */
export function readUsage(v: unknown, path: string, issues: EnvelopeIssue[]): ChatUsage {
  const out: ChatUsage = {};
  if (!isRecord(v)) {
    issue(issues, path, "must be an object");
    return out;
  }
  for (const k of USAGE_KEYS) {
    const n = v[k];
    if (n === undefined) continue;
    if (isFiniteNonNeg(n)) out[k] = n;
    else issue(issues, `${path}.${k}`, "must be a finite number ≥ 0");
  }
  return out;
}

/**
 * Grounded blocks: `{ id, text, sources: [{ ref, label? }] }`, rebuilt. A
 * block `id` is unique within its list (a repeated one is an issue).
 */
export function readBlocks(v: unknown, path: string, issues: EnvelopeIssue[]): GroundedBlock[] {
  if (!Array.isArray(v)) {
    issue(issues, path, "must be an array");
    return [];
  }
  // `length` read once: a proxy answering differently on a second read
  // must not leave unread holes in the output (they would read as `null`)
  const n = v.length;
  const out: GroundedBlock[] = [];
  const ids = new Set<unknown>();
  for (let i = 0; i < n; i++) {
    const b = v[i], bp = `${path}.${i}`;
    if (!isRecord(b)) {
      issue(issues, bp, "must be an object");
      continue;
    }
    const id = readId(b.id, `${bp}.id`, issues);
    if (ids.has(id)) issue(issues, `${bp}.id`, "repeats the id of an earlier block");
    ids.add(id);
    const text = b.text;
    if (typeof text !== "string") issue(issues, `${bp}.text`, STRING);
    const s = b.sources;
    if (!Array.isArray(s)) {
      issue(issues, `${bp}.sources`, "must be an array");
      continue;
    }
    const m = s.length;
    const sources: SourceRef[] = [];
    for (let j = 0; j < m; j++) {
      const r = s[j], rp = `${bp}.sources.${j}`;
      if (!isRecord(r)) {
        issue(issues, rp, "must be an object");
        continue;
      }
      const ref = readId(r.ref, `${rp}.ref`, issues);
      const label = readOptString(r.label, `${rp}.label`, issues);
      sources.push(label === undefined ? { ref } : { ref, label });
    }
    out.push({ id, text: text as string, sources });
  }
  return out;
}

/** Provider provenance fields of `o` (a `provenance` event or a saved state's `provenance`). */
export function readProvenance(
  o: Record<string, unknown>,
  path: string,
  issues: EnvelopeIssue[],
): ProviderProvenance {
  const engine = readId(o.engine, at(path, "engine"), issues);
  const model = readId(o.model, at(path, "model"), issues);
  const out: ProviderProvenance = { engine, model };
  const provider = readOptString(o.provider, at(path, "provider"), issues);
  if (provider !== undefined) out.provider = provider;
  const route = o.accountRoute;
  if (route !== undefined) {
    if (typeof route !== "string" && route !== null) {
      issue(issues, at(path, "accountRoute"), "must be a string or null");
    }
    out.accountRoute = route as string | null;
  }
  return out;
}

/** `done` fields of `o`: optional `stopReason`, optional usage. */
export function readDone(
  o: Record<string, unknown>,
  path: string,
  issues: EnvelopeIssue[],
): { stopReason?: string; usage?: ChatUsage } {
  const out: { stopReason?: string; usage?: ChatUsage } = {};
  const stopReason = readOptString(o.stopReason, at(path, "stopReason"), issues);
  if (stopReason !== undefined) out.stopReason = stopReason;
  const usage = o.usage;
  if (usage !== undefined) out.usage = readUsage(usage, at(path, "usage"), issues);
  return out;
}

/** `error` fields of `o`: `message`, optional `code`, explicit `retryable`, `retryAfterMs` only when retryable. */
export function readError(
  o: Record<string, unknown>,
  path: string,
  issues: EnvelopeIssue[],
): Omit<ErrorEventV1, "type"> {
  const message = o.message, code = o.code, retryable = o.retryable, after = o.retryAfterMs;
  if (typeof message !== "string") issue(issues, at(path, "message"), STRING);
  if (typeof retryable !== "boolean") {
    issue(issues, at(path, "retryable"), "must be a boolean (explicit retry permission)");
  }
  const out: Omit<ErrorEventV1, "type"> = {
    message: message as string,
    retryable: retryable as boolean,
  };
  if (readOptString(code, at(path, "code"), issues) !== undefined) out.code = code as string;
  if (after !== undefined) {
    if (!isFiniteNonNeg(after)) {
      issue(issues, at(path, "retryAfterMs"), "must be a finite number ≥ 0");
    } else if (retryable !== true) {
      issue(issues, at(path, "retryAfterMs"), "is only allowed when retryable is true");
    }
    out.retryAfterMs = after as number;
  }
  return out;
}

/**
 * The `correlationId` each card object had when {@link readCard} last
 * validated it. The card is kept by reference, so the fold must not read
 * the field again (a getter may answer differently, or throw, the second
 * time): it takes the validated id from here ({@link validatedCardId}).
 */
const CARD_IDS = new WeakMap<object, string>();

/**
 * The `correlationId` {@link readCard} validated on `card` (parsed just
 * before), read once more inside a guard only if it never was; `""` when
 * it cannot be read as a string. Never throws.
 */
export function validatedCardId(card: object): string {
  const id = CARD_IDS.get(card);
  if (id !== undefined) return id;
  try {
    const v = (card as { correlationId?: unknown }).correlationId;
    return typeof v === "string" ? v : "";
  } catch {
    return "";
  }
}

/**
 * The structural card check of the v1 wire: `correlationId` a wire id,
 * `prompt` string, `createdAt` finite number (epoch ms); the card object is
 * kept by reference with every key, its validated `correlationId` recorded
 * for the fold ({@link validatedCardId}).
 */
export function readCard(v: unknown, path: string, issues: EnvelopeIssue[]): OpenCardSnapshot {
  if (!isRecord(v)) {
    issue(issues, path, "must be an object");
    return v as unknown as OpenCardSnapshot;
  }
  const id = readWireId(v.correlationId, `${path}.correlationId`, issues);
  if (isWireId(id)) CARD_IDS.set(v, id);
  if (typeof v.prompt !== "string") issue(issues, `${path}.prompt`, STRING);
  const createdAt = v.createdAt;
  if (typeof createdAt !== "number" || !Number.isFinite(createdAt)) {
    issue(issues, `${path}.createdAt`, "must be a finite number (epoch ms)");
  }
  return v as unknown as OpenCardSnapshot;
}

/** A closed card: `correlationId` a wire id, optional known `resolution`. */
export function readClosed(
  o: Record<string, unknown>,
  path: string,
  issues: EnvelopeIssue[],
): { correlationId: string; resolution?: CardResolution } {
  const correlationId = readWireId(o.correlationId, at(path, "correlationId"), issues);
  const resolution = o.resolution;
  if (resolution === undefined) return { correlationId };
  if (typeof resolution !== "string" || !RESOLUTIONS.has(resolution)) {
    issue(issues, at(path, "resolution"), "must be a known card resolution");
  }
  return { correlationId, resolution: resolution as CardResolution };
}

/** A `state` version: a non-negative safe integer. */
export function readVersion(v: unknown, path: string, issues: EnvelopeIssue[]): number {
  if (!isIntFrom(v, 0)) issue(issues, path, "must be a non-negative integer");
  return v as number;
}

/** State of one {@link readJson} walk: values seen so far, the first problem. */
interface JsonWalk {
  values: number;
  problem: string;
}

const PLAIN = Object.prototype;

/** A fresh copy of JSON value `v` nested in `level` containers, or a problem in `w`. */
function copyJson(v: unknown, level: number, w: JsonWalk): ChatJsonValue {
  if (++w.values > MAX_EXTENSION_VALUES) {
    w.problem = `holds more than ${MAX_EXTENSION_VALUES} JSON values`;
    return null;
  }
  if (typeof v === "string" || typeof v === "boolean" || v === null) return v;
  if (typeof v === "number") {
    if (v - v === 0) return v; // finite
    w.problem = "holds a number that is not finite";
    return null;
  }
  if (typeof v !== "object") {
    w.problem = `holds ${v === undefined ? "undefined" : `a ${typeof v}`} (JSON data only)`;
    return null;
  }
  if (level === MAX_EXTENSION_DEPTH) {
    w.problem = `nests arrays and objects deeper than ${MAX_EXTENSION_DEPTH}`;
    return null;
  }
  if (Array.isArray(v)) {
    const out: ChatJsonValue[] = [];
    for (let i = 0; i < v.length && w.problem === ""; i++) out.push(copyJson(v[i], level + 1, w));
    return out;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== PLAIN && proto !== null) {
    w.problem = "holds an object that is not plain JSON data (a class instance, a Date, a Map…)";
    return null;
  }
  const out: Record<string, ChatJsonValue> = {};
  for (const k of Object.keys(v)) {
    const x = copyJson((v as Record<string, unknown>)[k], level + 1, w);
    if (w.problem !== "") break;
    // `__proto__` from JSON.parse is an own data key: keep it one (never a prototype)
    if (k === "__proto__") {
      Object.defineProperty(out, k, {
        value: x,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    } else out[k] = x;
  }
  return out;
}

/**
 * `v` as bounded JSON data: a fresh copy of it (plain objects and arrays
 * rebuilt, so nothing a getter or a proxy answers later can change it),
 * or an issue at `path` naming the first problem: `undefined`, a function,
 * a symbol or bigint, a non-finite number, an object that is not plain
 * (its prototype neither `Object.prototype` nor `null`), nesting deeper
 * than {@link MAX_EXTENSION_DEPTH}, more than {@link MAX_EXTENSION_VALUES}
 * values. May throw on hostile values (callers guard).
 */
export function readJson(v: unknown, path: string, issues: EnvelopeIssue[]): ChatJsonValue {
  const w: JsonWalk = { values: 0, problem: "" };
  const out = copyJson(v, 0, w);
  if (w.problem !== "") issue(issues, path, w.problem);
  return out;
}

/** The first problem {@link readJson} finds in `v`, or `""` (for schemas: never throws). */
export function jsonProblem(v: unknown): string {
  try {
    const issues: EnvelopeIssue[] = [];
    readJson(v, "", issues);
    return issues.length === 0 ? "" : issues[0].message;
  } catch {
    return "could not be read";
  }
}
