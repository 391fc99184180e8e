/**
 * Human-in-the-loop adapter: a gate row (structurally `@titan-design/hitl`)
 * ↔ a `tool-gate` part following the AI SDK approval model.
 *
 * @module
 */
import { type ChatMessage, parseChatMessage } from "./envelope.ts";
import type { ToolPart } from "./parts.ts";
import { z } from "zod";
import { err, ok, type Result } from "../result.ts";
import { isRecord } from "../_internal/guards.ts";
import { describeValue } from "../_internal/describe.ts";
import { MessageArgumentError } from "./errors.ts";

import { GATE_PART_TYPE } from "./gate_part.ts";

/** A gate row. `createdAt` / `expiresAt` are ISO-8601. `schema` is the answer's JSON Schema. */
export interface GateSnapshot {
  /** Gate id. */
  id: string;
  /** The question put to the human. */
  prompt: string;
  /** JSON Schema of the answer payload. */
  schema?: Record<string, unknown>;
  /** Gate status. */
  status: "pending" | "resolved" | "cancelled" | "expired";
  /** The answer payload (resolved gates). */
  payload?: unknown;
  /** Why the gate was cancelled / expired. */
  reason?: string;
  /** Creation time, ISO-8601. */
  createdAt: string;
  /** Expiry time, ISO-8601. */
  expiresAt?: string;
}

/** Envelope facts a gate row lacks. */
export interface GateContext {
  /** Thread the gate message goes to. */
  threadId: string;
  /** Participant the gate message is attributed to. */
  authorId: string;
}

/** Refusal of {@link parseHitlGate}. */
export interface GateRefusal {
  /**
   * Stable machine-readable reason:
   * - `unknown-status`: `status` is not one of `pending`, `resolved`,
   *   `cancelled`, `expired` (e.g. a bad database row);
   * - `invalid-gate`: the row or the context cannot make a valid
   *   {@link ChatMessage} (not an object, empty or non-string `id`, a
   *   `createdAt` that is not ISO-8601, empty `threadId` / `authorId`, a
   *   non-string `reason`, …), the row breaks {@link GateSnapshot} where the
   *   message cannot tell (a `prompt` that is not a string, a `schema` that
   *   is not an object, an `expiresAt` that is not ISO-8601; `null` counts
   *   as absent for the optional fields), or reading it threw.
   */
  readonly code: "unknown-status" | "invalid-gate";
  /** One human-readable sentence; not stable, do not match on it. */
  readonly message: string;
}

const GATE_STATUSES: ReadonlySet<unknown> = new Set([
  "pending",
  "resolved",
  "cancelled",
  "expired",
]);

/**
 * A gate → an assistant message (`id` = `gate:<id>`) with one `tool-gate`
 * part (`toolCallId` = gate id, `input` = `{prompt, schema?, expiresAt?}`),
 * as the titan seed documents it:
 *
 * | gate status | part state | approval |
 * |---|---|---|
 * | pending | approval-requested | `{id, descriptor: schema}` |
 * | resolved | output-available (`output` = payload, `null` when absent) | `{id, approved: true}` |
 * | cancelled | output-denied | `{id, approved: false, reason: reason ?? 'cancelled'}` |
 * | expired | output-denied | `{id, approved: false, reason: reason ?? 'expired'}` |
 *
 * A resolved gate without a payload gets `output: null`: the AI SDK (and the
 * {@link toolPart} schema) require an output in `output-available`, and an
 * `undefined` one would vanish when the message is stored as JSON.
 *
 * Every result passes {@link parseChatMessage}. A row (or context) that
 * breaks {@link GateSnapshot} / {@link GateContext} is a programmer's
 * mistake: it throws {@link MessageArgumentError} with the code
 * {@link parseHitlGate} would refuse it with (`unknown-status`, mapped to
 * `unknown-gate-status`, or `invalid-gate`), never anything else, and never
 * reads an unknown status as a denial (the seed mapped every unknown status
 * to `output-denied`). For rows read from a database you do not trust, use
 * {@link parseHitlGate}.
 *
 * @example
 * ```ts
 * import { fromHitlGate } from "@papercusp/chat-protocol/message";
 * const message = fromHitlGate(
 *   { id: "g1", prompt: "Deploy?", status: "pending", createdAt: "2026-01-01T00:00:00.000Z" },
 *   { threadId: "th1", authorId: "agent:ops" },
 * );
 * message.parts[0].type; // "tool-gate"
 * ```
 */
export function fromHitlGate(gate: GateSnapshot, context: GateContext): ChatMessage {
  const r = parseHitlGate(gate, context);
  if (r.ok) return r.value;
  throw new MessageArgumentError(
    r.error.code === "unknown-status" ? "unknown-gate-status" : "invalid-gate",
    r.error.message,
  );
}

/**
 * The checked form of {@link fromHitlGate}, for a gate row that may be
 * untrusted: the same message, or a typed {@link GateRefusal} instead of a
 * throw. Each field of the row is read once (what is checked is what is
 * used). Never throws.
 *
 * @example
 * ```ts
 * import { parseHitlGate } from "@papercusp/chat-protocol/message";
 * declare const row: unknown; // from a database
 * const r = parseHitlGate(row as never, { threadId: "th1", authorId: "agent:ops" });
 * if (r.ok) console.log(r.value.parts[0].type); // "tool-gate"
 * else console.error(r.error.code); // "unknown-status" | "invalid-gate"
 * ```
 */
export function parseHitlGate(
  gate: GateSnapshot,
  context: GateContext,
): Result<ChatMessage, GateRefusal> {
  try {
    if (!isRecord(gate)) {
      return err({ code: "invalid-gate", message: "a gate row must be an object" });
    }
    // read each field once: what is checked is what is used
    const row: GateSnapshot = {
      id: gate.id,
      prompt: gate.prompt,
      schema: gate.schema,
      status: gate.status,
      payload: gate.payload,
      reason: gate.reason,
      createdAt: gate.createdAt,
      expiresAt: gate.expiresAt,
    };
    if (!GATE_STATUSES.has(row.status)) {
      return err({
        code: "unknown-status",
        message: `unknown gate status ${describeValue(row.status)}`,
      });
    }
    const why = rowProblem(row);
    if (why !== null) return err({ code: "invalid-gate", message: why });
    const m = gateMessage(row, context);
    if (!parseChatMessage(m).ok) {
      return err({ code: "invalid-gate", message: "the gate row does not make a valid message" });
    }
    return ok(m);
  } catch {
    return err({ code: "invalid-gate", message: "reading the gate row threw" });
  }
}

/** What the message schema cannot see (they land in the untyped `input`). */
function rowProblem(row: GateSnapshot): string | null {
  if (typeof row.prompt !== "string") return "the gate prompt is not a string";
  const schema: unknown = row.schema;
  if (schema != null && !isRecord(schema)) {
    return "the gate schema is not an object";
  }
  const expiresAt: unknown = row.expiresAt;
  if (expiresAt != null && expiresAt !== "" && !ISO.safeParse(expiresAt).success) {
    return "the gate expiresAt is not an ISO-8601 string";
  }
  return null;
}

const ISO = z.iso.datetime({ offset: true });

function gateMessage(gate: GateSnapshot, context: GateContext): ChatMessage {
  const input: Record<string, unknown> = { prompt: gate.prompt };
  if (gate.schema) input.schema = gate.schema;
  if (gate.expiresAt) input.expiresAt = gate.expiresAt;
  const base = { type: GATE_PART_TYPE, toolCallId: gate.id, input } as const;
  let part: ToolPart;
  switch (gate.status) {
    case "pending":
      part = {
        ...base,
        state: "approval-requested",
        approval: { id: gate.id, descriptor: gate.schema },
      };
      break;
    case "resolved":
      part = {
        ...base,
        state: "output-available",
        output: gate.payload === undefined ? null : gate.payload,
        approval: { id: gate.id, approved: true },
      };
      break;
    case "cancelled":
    case "expired":
      part = {
        ...base,
        state: "output-denied",
        approval: { id: gate.id, approved: false, reason: gate.reason ?? gate.status },
      };
  }
  return {
    id: `gate:${gate.id}`,
    threadId: context.threadId,
    authorId: context.authorId,
    role: "assistant",
    createdAt: gate.createdAt,
    parts: [part],
  };
}
