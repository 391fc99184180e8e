/**
 * Reading `FoldOptions.message`, the persisted message a fold continues: it
 * usually comes from storage, so it is read like untrusted input (each field
 * once, inside a guard) and its parts are copied once, so the fold never
 * mutates it nor reads it again.
 *
 * @module
 */
import { readFields } from "../_internal/fields.ts";
import { describeThrown } from "../_internal/describe.ts";
import type { ChatPart } from "../message/parts.ts";
import { isToolLike } from "./_tool_parts.ts";
import { DEFAULT_MAX_PARTS } from "./_fold_options.ts";

/** What the fold adopts from the persisted message. */
export interface PersistedMessage {
  /** The message id (`""`: none). */
  readonly id: string;
  /** Whether it is an assistant message (only those are continued). */
  readonly assistant: boolean;
  /** Its metadata as given (copied by the metadata merger). */
  readonly metadata: unknown;
  /** Copies of its parts (each with a string `type`). */
  readonly parts: ChatPart[];
  /** One sentence per problem (reported as `invalid-chunk` issues at index -1). */
  readonly problems: readonly string[];
}

const NONE: PersistedMessage = {
  id: "",
  assistant: false,
  metadata: undefined,
  parts: [],
  problems: [],
};

function ignored(problem: string): PersistedMessage {
  return { ...NONE, problems: [problem] };
}

/** A shallow copy of an own-enumerable record (`__proto__` kept as an own key). */
function copyRecord(v: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    Object.defineProperty(out, k, {
      value: (v as Record<string, unknown>)[k],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/**
 * Read `value` as the persisted message (see the module documentation).
 * A value that is not a message (no string `id` / `role`; an assistant
 * message without a `parts` array) or cannot be read is ignored with one
 * problem; a part that is not an object with a string `type` is dropped with
 * one problem each. A non-assistant message only lends its id, as in the AI
 * SDK. Never throws.
 */
export function readPersistedMessage(value: unknown): PersistedMessage {
  if (value === undefined || value === null) return NONE;
  const m = readFields(value, ["id", "role", "parts", "metadata"] as const);
  if (m === null || typeof m.id !== "string" || typeof m.role !== "string") {
    return ignored(
      m === null
        ? "options.message could not be read; ignored"
        : "options.message is not a UIMessage; ignored",
    );
  }
  if (m.role !== "assistant") return { ...NONE, id: m.id };
  const problems: string[] = [];
  const parts: ChatPart[] = [];
  try {
    if (!Array.isArray(m.parts)) return ignored("options.message has no parts array; ignored");
    const source = m.parts as unknown[];
    const n = source.length;
    // bounded before any part is read (a sparse array may claim 2^32 − 1)
    if (!(n <= DEFAULT_MAX_PARTS)) {
      return ignored(`options.message has more than ${DEFAULT_MAX_PARTS} parts; ignored`);
    }
    for (let i = 0; i < n; i++) {
      const p = source[i];
      const copy = p !== null && typeof p === "object" && !Array.isArray(p)
        ? copyRecord(p)
        : undefined;
      if (copy === undefined || typeof copy.type !== "string") {
        problems.push(`options.message part ${i} has no string type; dropped`);
        continue;
      }
      const part = copy as unknown as ChatPart;
      if (isToolLike(part) && part.approval !== null && typeof part.approval === "object") {
        part.approval = copyRecord(part.approval) as unknown as typeof part.approval;
      }
      parts.push(part);
    }
  } catch (e) {
    return ignored(`options.message could not be read (${describeThrown(e, 200)}); ignored`);
  }
  return { id: m.id, assistant: true, metadata: m.metadata, parts, problems };
}
