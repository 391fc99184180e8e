/**
 * The part kinds of the message document without its zod schemas
 * (`parts.ts`): the part `type` patterns (`data-<identifier>`,
 * `tool-<name>`) and their checks, the tool part states, telling tool parts
 * apart and naming their tool, and building a data part. A caller of these
 * ships no zod.
 *
 * @module
 */
import { err, ok, type Result } from "../result.ts";
import { describeValue } from "../_internal/describe.ts";
import { MessageArgumentError } from "./errors.ts";
import type { ChatPart, DataPart, DynamicToolPart, ToolPart } from "./parts.ts";

/** The seven tool states of `ai@7`, in their usual order. */
export const TOOL_PART_STATES = [
  "input-streaming",
  "input-available",
  "approval-requested",
  "approval-responded",
  "output-available",
  "output-error",
  "output-denied",
] as const;

/**
 * `data-` followed by an identifier (`[A-Za-z_][A-Za-z0-9_]*`), anchored.
 * Channels that turn keys into attributes drop non-identifier keys silently,
 * so hyphens, dots and a leading digit are refused.
 */
export const DATA_PART_KEY_PATTERN: RegExp = /^data-[A-Za-z_][A-Za-z0-9_]*$/;
/** `tool-` followed by at least one character (any, newlines included), anchored. */
export const TOOL_TYPE_PATTERN: RegExp = /^tool-.+$/s;

/** True when `type` is a valid `data-<identifier>` part type (`false` for a non-string). */
export function isDataPartType(type: string): type is `data-${string}` {
  return typeof type === "string" && DATA_PART_KEY_PATTERN.test(type);
}
/** True when `type` is `tool-` followed by at least one character (`false` for a non-string). */
export function isToolPartType(type: string): type is `tool-${string}` {
  return typeof type === "string" && TOOL_TYPE_PATTERN.test(type);
}

/** Refusal of {@link createDataPart}. */
export interface DataPartRefusal {
  /**
   * Stable machine-readable reason: `invalid-data-part-name` (the name is
   * not an identifier, or not a string), `invalid-data-part-id` (an `id`
   * that is not a string), `missing-data` (`data` is `undefined`: JSON would
   * drop it, and a data part requires it).
   */
  readonly code: "invalid-data-part-name" | "invalid-data-part-id" | "missing-data";
  /** One human-readable sentence; not stable, do not match on it. */
  readonly message: string;
}

/**
 * Build a `data-<name>` part from values that may be untrusted. Refuses
 * (never throws) a `name` that is not an identifier
 * (`[A-Za-z_][A-Za-z0-9_]*`: `gate-ref`, `a.b`, `1abc` and `""` are refused)
 * or not a string, an `id` that is not a string, and an `undefined` `data`.
 * The part holds `data` as given (not copied). To check a part someone
 * else built, use the {@link dataPart} schema.
 *
 * @example
 * ```ts
 * import { createDataPart } from "@papercusp/chat-protocol/message";
 * const r = createDataPart("gate_ref", { id: "g1" });
 * if (r.ok) console.log(r.value.type); // "data-gate_ref"
 * createDataPart("gate-ref", 1).ok; // false
 * ```
 */
export function createDataPart(
  name: string,
  data: unknown,
  id?: string,
): Result<DataPart, DataPartRefusal> {
  if (typeof name !== "string" || !isDataPartType(`data-${name}`)) {
    return err({
      code: "invalid-data-part-name",
      message: `data part name ${describeValue(name)} is not an identifier`,
    });
  }
  if (id !== undefined && typeof id !== "string") {
    return err({
      code: "invalid-data-part-id",
      message: `data part id ${describeValue(id)} is not a string`,
    });
  }
  if (data === undefined) {
    return err({ code: "missing-data", message: "a data part requires data (undefined is none)" });
  }
  const part: DataPart = { type: `data-${name}`, data };
  if (id !== undefined) part.id = id;
  return ok(part);
}

/** True for `tool-<name>` and `dynamic-tool` parts (`false` for a value whose `type` cannot be read). */
export function isToolPart(part: ChatPart): part is ToolPart | DynamicToolPart {
  let type: unknown;
  try {
    type = part.type;
  } catch {
    return false;
  }
  return type === "dynamic-tool" || isToolPartType(type as string);
}

/**
 * The tool name of a tool part (`tool-get-weather` → `get-weather`, a
 * `dynamic-tool`'s `toolName`). Throws {@link MessageArgumentError}
 * (`invalid-argument`) for a value that is not a readable tool part.
 */
export function toolNameOf(part: ToolPart | DynamicToolPart): string {
  let type: unknown;
  let toolName: unknown;
  try {
    type = part.type;
    if (type === "dynamic-tool") toolName = (part as DynamicToolPart).toolName;
  } catch {
    throw new MessageArgumentError("invalid-argument", "the tool part could not be read");
  }
  if (type === "dynamic-tool" && typeof toolName === "string") return toolName;
  if (isToolPartType(type as string)) return (type as string).slice(5);
  throw new MessageArgumentError(
    "invalid-argument",
    "not a tool part (tool-<name> or dynamic-tool)",
  );
}
