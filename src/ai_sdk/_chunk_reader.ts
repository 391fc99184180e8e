/**
 * Reading one untrusted value as an AI SDK UI message chunk: the shapes of
 * `ai@7.0.173`'s `uiMessageChunkSchema` (minus the kinds this document does
 * not carry), checked field by field, each own field read exactly once
 * inside a guard, and copied into a fresh chunk. Whoever applies the chunk
 * (the fold, the chunks → v1 adapter) reads only the copy, so a getter that
 * throws or answers differently on each read can neither throw out of them
 * nor make them apply something other than what was checked.
 *
 * A problem is typed data ({@link ChunkProblem}): `invalid-chunk` (not an
 * object, no string `type`, an unknown type, a required field missing, of
 * the wrong kind or unreadable), `unsupported-chunk` (an `ai@7` kind with no
 * part here) and `invalid-field` (an optional field of the wrong kind, an
 * unknown `finishReason` / `inputEncoding`, a `providerMetadata` entry that
 * is not an object, or an unreadable optional field: the chunk is still
 * read without that field, as the AI SDK's fold still applies it).
 *
 * @module
 */
import { describeThrown, quoteClipped } from "../_internal/describe.ts";
import { FINISH_REASONS } from "./_finish_reasons.ts";
import type { UIMessageChunk } from "./chunks.ts";

/** Why a value is not a valid chunk. */
export interface ChunkProblem {
  /** Stable machine-readable reason (see the module documentation). */
  readonly code: "invalid-chunk" | "unsupported-chunk" | "invalid-field";
  /** One human-readable sentence; not stable, do not match on it. */
  readonly message: string;
}

/**
 * Where {@link readChunk} reports why a value is not a valid chunk (`null`
 * when it is). A caller that reads many chunks reuses one slot.
 */
export interface ChunkProblemSlot {
  /** The problem of the last value read, `null` when it was a valid chunk. */
  problem: ChunkProblem | null;
}

/** `ai@7` chunk types this document does not carry (no part type for them). */
export const UNSUPPORTED_CHUNK_TYPES: readonly string[] = [
  "custom",
  "reasoning-file",
  "steering-message",
];

type Kind = "string" | "boolean" | "any" | "record" | "array" | "finish-reason" | "encoding";
type Field = readonly [name: string, kind: Kind];
interface Spec {
  readonly required: readonly Field[];
  readonly optional: readonly Field[];
}

const PM: Field = ["providerMetadata", "record"];
const TOOL_OPTIONAL: readonly Field[] = [
  ["providerExecuted", "boolean"],
  PM,
  ["toolMetadata", "record"],
  ["dynamic", "boolean"],
  ["title", "string"],
];

function spec(required: readonly Field[], optional: readonly Field[] = []): Spec {
  return { required, optional };
}

const SPECS: ReadonlyMap<string, Spec> = new Map([
  ["start", spec([], [["messageId", "string"], ["messageMetadata", "any"]])],
  ["finish", spec([], [["finishReason", "finish-reason"], ["messageMetadata", "any"]])],
  ["abort", spec([], [["reason", "string"]])],
  ["message-metadata", spec([["messageMetadata", "any"]])],
  ["error", spec([["errorText", "string"]])],
  ["start-step", spec([])],
  ["finish-step", spec([])],
  ["reset-step", spec([])],
  ["text-start", spec([["id", "string"]], [PM])],
  ["text-delta", spec([["id", "string"], ["delta", "string"]], [PM])],
  ["text-end", spec([["id", "string"]], [PM, ["citations", "array"]])],
  ["reasoning-start", spec([["id", "string"]], [PM])],
  ["reasoning-delta", spec([["id", "string"], ["delta", "string"]], [PM])],
  ["reasoning-end", spec([["id", "string"]], [PM])],
  [
    "tool-input-start",
    spec([["toolCallId", "string"], ["toolName", "string"]], [
      ...TOOL_OPTIONAL,
      ["inputEncoding", "encoding"],
    ]),
  ],
  ["tool-input-delta", spec([["toolCallId", "string"], ["inputTextDelta", "string"]])],
  [
    "tool-input-available",
    spec([["toolCallId", "string"], ["toolName", "string"], ["input", "any"]], TOOL_OPTIONAL),
  ],
  [
    "tool-input-error",
    spec(
      [["toolCallId", "string"], ["toolName", "string"], ["input", "any"], ["errorText", "string"]],
      TOOL_OPTIONAL,
    ),
  ],
  [
    "tool-approval-request",
    spec([["approvalId", "string"], ["toolCallId", "string"]], [
      ["approvalDescriptor", "any"],
      ["inputSchemaInput", "any"],
      ["reason", "string"],
      ["isAutomatic", "boolean"],
      ["signature", "string"],
    ]),
  ],
  [
    "tool-approval-response",
    spec([["approvalId", "string"], ["approved", "boolean"]], [
      ["reason", "string"],
      ["providerExecuted", "boolean"],
      PM,
    ]),
  ],
  [
    "tool-output-available",
    spec([["toolCallId", "string"], ["output", "any"]], [
      ...TOOL_OPTIONAL,
      ["preliminary", "boolean"],
    ]),
  ],
  ["tool-output-error", spec([["toolCallId", "string"], ["errorText", "string"]], TOOL_OPTIONAL)],
  ["tool-output-denied", spec([["toolCallId", "string"]])],
  ["source-url", spec([["sourceId", "string"], ["url", "string"]], [PM, ["title", "string"]])],
  [
    "source-document",
    spec([["sourceId", "string"], ["mediaType", "string"], ["title", "string"]], [
      PM,
      ["filename", "string"],
    ]),
  ],
  ["file", spec([["url", "string"], ["mediaType", "string"]], [PM])],
]);
/** The chunk of each kind that has no fields (`start-step`, …), shared and frozen. */
const BARE: ReadonlyMap<string, UIMessageChunk> = new Map(
  [...SPECS].filter(([, sp]) => sp.required.length === 0 && sp.optional.length === 0).map((
    [type],
  ) => [type, Object.freeze({ type }) as UIMessageChunk]),
);
const DATA_SPEC = spec([["data", "any"]], [["id", "string"], ["transient", "boolean"]]);

/** A non-null, non-array object; `false` for a revoked proxy (never throws). */
function isObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null) return false;
  try {
    return !Array.isArray(v);
  } catch {
    return false;
  }
}

const MISSING = Symbol("missing");
const THREW = Symbol("threw");
/** What the last read that returned {@link THREW} threw. */
let thrown: unknown;

/**
 * `o[key]` read once if `key` is an own property, {@link MISSING} if not,
 * {@link THREW} (with the thrown value in {@link thrown}) when reading threw.
 */
function readOwn(o: object, key: string): unknown {
  try {
    return Object.hasOwn(o, key) ? (o as Record<string, unknown>)[key] : MISSING;
  } catch (e) {
    thrown = e;
    return THREW;
  }
}

/** Sentinel results of {@link fieldValue}. */
const BAD = Symbol("bad");

/**
 * The value of a present field checked against `kind` (a fresh outer copy
 * for `providerMetadata`), or {@link BAD}. May throw only from reading the
 * entries of a record (the caller guards it).
 */
function fieldValue(v: unknown, kind: Kind, name: string): unknown {
  switch (kind) {
    case "string":
      return typeof v === "string" ? v : BAD;
    case "boolean":
      return typeof v === "boolean" ? v : BAD;
    case "array":
      try {
        return Array.isArray(v) ? v : BAD;
      } catch {
        return BAD;
      }
    case "record":
      if (!isObject(v)) return BAD;
      return name === "providerMetadata" ? copyProviderMetadata(v) : v;
    case "finish-reason":
      return typeof v === "string" && FINISH_REASONS.has(v) ? v : BAD;
    case "encoding":
      return v === "json" || v === "text" ? v : BAD;
    case "any":
      return v;
  }
}

/** A fresh record of the provider entries, each an object; {@link BAD} otherwise. */
function copyProviderMetadata(pm: Record<string, unknown>): unknown {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(pm)) {
    const entry = pm[k];
    if (!isObject(entry)) return BAD;
    Object.defineProperty(out, k, {
      value: entry,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function invalid(slot: ChunkProblemSlot, message: string): null {
  slot.problem = { code: "invalid-chunk", message };
  return null;
}

/**
 * Read `value` as a chunk (see the module documentation): the fresh copy to
 * apply, or `null` when there is none; `slot.problem` says why `value` is
 * not a valid chunk (`null` when it is; an `invalid-field` problem comes with
 * a chunk). Never throws. Linear in the number of fields (and of
 * `providerMetadata` entries).
 */
export function readChunk(value: unknown, slot: ChunkProblemSlot): UIMessageChunk | null {
  slot.problem = null;
  if (!isObject(value)) return invalid(slot, "chunk is not an object");
  const type = readOwn(value, "type");
  if (typeof type !== "string") {
    return invalid(
      slot,
      type === THREW
        ? `reading the chunk's type threw: ${describeThrown(thrown, 200)}`
        : "chunk has no string type",
    );
  }
  let s = SPECS.get(type);
  if (s === undefined && type.startsWith("data-") && type.length > 5) s = DATA_SPEC;
  if (s === undefined) {
    if (!UNSUPPORTED_CHUNK_TYPES.includes(type)) {
      return invalid(slot, `unknown chunk type ${quoteClipped(type, 64)}`);
    }
    slot.problem = {
      code: "unsupported-chunk",
      message: `chunk type ${type} has no part in this document`,
    };
    return null;
  }
  const bare = BARE.get(type);
  if (bare !== undefined) return bare; // no fields to read: one shared, frozen chunk
  const chunk: Record<string, unknown> = { type };
  for (const [name, kind] of s.required) {
    const raw = readOwn(value, name);
    if (raw === MISSING) return invalid(slot, `${type} chunk lacks ${name}`);
    if (raw === THREW) {
      return invalid(slot, `reading ${type} chunk's ${name} threw: ${describeThrown(thrown, 200)}`);
    }
    const v = guardedFieldValue(raw, kind, name);
    if (v === BAD) return invalid(slot, `${type} chunk has a bad ${name}`);
    chunk[name] = v;
  }
  let dropped: string[] | undefined;
  for (const [name, kind] of s.optional) {
    const raw = readOwn(value, name);
    if (raw === MISSING || raw === undefined) continue;
    const v = raw === THREW ? BAD : guardedFieldValue(raw, kind, name);
    if (v === BAD) (dropped ??= []).push(name);
    else chunk[name] = v;
  }
  if (dropped !== undefined) {
    slot.problem = {
      code: "invalid-field",
      message: `${type} chunk has a bad ${dropped.join(", ")} (read without it)`,
    };
  }
  return chunk as UIMessageChunk;
}

function guardedFieldValue(v: unknown, kind: Kind, name: string): unknown {
  try {
    return fieldValue(v, kind, name);
  } catch {
    return BAD;
  }
}
