/**
 * Reading the answer a message from a request carries for a
 * human-in-the-loop gate or an AI SDK tool approval
 * ({@link toHitlAnswer}, {@link toHitlAnswers} and their Result forms).
 * The message is untrusted: nothing here throws. No zod at runtime.
 *
 * @module
 */
import { MAX_MESSAGE_PARTS } from "./message_limits.ts";
import type { ChatMessage } from "./envelope.ts";
import { isToolPartType } from "./part_types.ts";
import { err, ok, type Result } from "../result.ts";
import { isRecord } from "../_internal/guards.ts";
import { describeValue } from "../_internal/describe.ts";
import { GATE_PART_TYPE } from "./gate_part.ts";

/** The answer a message carries for a gate. */
export type GateAnswer =
  | { action: "accept"; gateId: string; payload: unknown }
  | { action: "decline"; gateId: string; reason: string };

/** Options of {@link toHitlAnswer} and {@link readHitlAnswer}. */
export interface HitlAnswerOptions {
  /**
   * Read the answer of this approval (`approval.id`) on any tool part
   * (`tool-*` or `dynamic-tool`), instead of the first `tool-gate` part's.
   */
  readonly approvalId?: string;
}

/**
 * The most tool parts {@link readHitlAnswer} / {@link readHitlAnswers} look
 * at in one message: a message with more `parts` is refused
 * (`too-many-parts`) before any part is read, so a request body claiming a
 * huge `parts` array cannot make the reader loop over it. The same bound
 * as every reader of untrusted messages: {@link MAX_MESSAGE_PARTS}.
 */
export const MAX_HITL_ANSWER_PARTS: number = MAX_MESSAGE_PARTS;

/** Refusal of {@link readHitlAnswer} / {@link readHitlAnswers}. */
export interface HitlAnswerRefusal {
  /**
   * Stable machine-readable reason:
   * - `invalid-message`: the message is not an object whose `parts` is an
   *   array (`null`, `{}`, `{ parts: "x" }`, an array-like object), or
   *   reading it threw (a revoked proxy, a throwing getter);
   * - `invalid-options`: the options cannot be read, or `approvalId` is not
   *   a string;
   * - `too-many-parts`: `parts.length` is over {@link MAX_HITL_ANSWER_PARTS}.
   */
  readonly code: "invalid-message" | "invalid-options" | "too-many-parts";
  /** One human-readable sentence; not stable, do not match on it. */
  readonly message: string;
}

/** The answer-bearing fields of one tool part (each read once). */
interface ApprovalRead {
  readonly gateId: unknown;
  readonly gate: boolean;
  readonly state: unknown;
  readonly output: unknown;
  readonly approved: unknown;
  readonly reason: unknown;
}

/**
 * The answer a message carries for a gate or an approval: from its first
 * `tool-gate` part (or, with `options.approvalId`, from the tool part whose
 * approval has that id), by the part's state:
 *
 * | state | answer |
 * |---|---|
 * | `approval-responded`, `approved: true` | accept, `payload: { confirmed: true }` (the value a v1 approval card is answered with) |
 * | `approval-responded`, `approved: false` | decline, `reason` = the approval's reason, or `declined` |
 * | `output-available` | accept, `payload` = the output of a gate part, `{ confirmed: true }` for another tool's part |
 * | `output-denied` | decline, `reason` = the approval's reason, or `declined` |
 * | any other (`approval-requested`, …) | `undefined`: still open |
 *
 * `approval-responded` is what the AI SDK's `addToolApprovalResponse` sets
 * on the client; a `useChat` request carries it back in its messages.
 * `undefined` too for a message without such a part or approval, and for
 * input {@link readHitlAnswer} refuses (a message that is not an object with
 * a `parts` array, more than {@link MAX_HITL_ANSWER_PARTS} parts, options
 * that cannot be read, a non-string `approvalId`): a request body is
 * untrusted, so this never throws. Use {@link readHitlAnswer} to tell an
 * unreadable message from an unanswered one. Each field is read once.
 *
 * **The answer is the client's claim, not an authority.** A message from a
 * request may replay an old answer or forge one for a card the user cannot
 * answer (the class of the AI SDK's forged-approval advisory): resolve it
 * server-side against the open card (`InteractionResolver` from
 * `./interactions`, with the caller's own authority), never by trusting it.
 *
 * @example
 * ```ts
 * import { fromHitlGate, toHitlAnswer } from "@papercusp/chat-protocol/message";
 * const done = fromHitlGate(
 *   { id: "g1", prompt: "Deploy?", status: "resolved", payload: { ok: true }, createdAt: "2026-01-01T00:00:00.000Z" },
 *   { threadId: "th1", authorId: "agent:ops" },
 * );
 * toHitlAnswer(done); // { action: "accept", gateId: "g1", payload: { ok: true } }
 * const approved = {
 *   parts: [{
 *     type: "tool-deploy", toolCallId: "c1", state: "approval-responded", input: {},
 *     approval: { id: "card-1", approved: true },
 *   }],
 * };
 * toHitlAnswer(approved, { approvalId: "card-1" }); // { action: "accept", gateId: "card-1", payload: { confirmed: true } }
 * toHitlAnswer(null as never); // undefined
 * ```
 */
export function toHitlAnswer(
  message: ChatMessage | { readonly parts: readonly unknown[] },
  options?: HitlAnswerOptions,
): GateAnswer | undefined {
  const r = readHitlAnswer(message, options);
  return r.ok && r.value !== null ? r.value : undefined;
}

/**
 * The checked form of {@link toHitlAnswer} for a message from a request: the
 * answer, `null` while the gate or approval is still open (or the message
 * has none), or a typed {@link HitlAnswerRefusal} when the message or the
 * options cannot be read. Never throws, whatever it is given (hostile
 * objects included); reads at most {@link MAX_HITL_ANSWER_PARTS} parts.
 *
 * @example
 * ```ts
 * import { readHitlAnswer } from "@papercusp/chat-protocol/message";
 * declare const body: unknown; // a POST body
 * const r = readHitlAnswer(body);
 * if (!r.ok) console.error(r.error.code); // "invalid-message" | "invalid-options" | "too-many-parts"
 * else if (r.value === null) console.log("still open");
 * else console.log(r.value.action, r.value.gateId);
 * ```
 */
export function readHitlAnswer(
  message: unknown,
  options?: unknown,
): Result<GateAnswer | null, HitlAnswerRefusal> {
  let approvalId: unknown;
  try {
    approvalId = options == null ? undefined : (options as HitlAnswerOptions).approvalId;
  } catch {
    return err({ code: "invalid-options", message: "the options could not be read" });
  }
  if (approvalId !== undefined && typeof approvalId !== "string") {
    return err({ code: "invalid-options", message: "options.approvalId must be a string" });
  }
  const reads = readApprovals(message, approvalId);
  if (!reads.ok) return reads;
  return ok(reads.value.length === 0 ? null : answerOf(reads.value[0]) ?? null);
}

/**
 * Every answer a message carries: one per tool part (a `tool-gate` part or
 * any other tool's) whose approval was answered, in part order (see
 * {@link toHitlAnswer} for the states and the warning: each answer is the
 * client's claim). An empty array too for input {@link readHitlAnswers}
 * refuses; never throws.
 *
 * @example
 * ```ts
 * import { toHitlAnswers } from "@papercusp/chat-protocol/message";
 * declare const lastAssistantMessage: { parts: unknown[] }; // from a useChat request
 * for (const answer of toHitlAnswers(lastAssistantMessage)) {
 *   // resolve answer.gateId (the card's correlation id) server-side
 * }
 * ```
 */
export function toHitlAnswers(
  message: ChatMessage | { readonly parts: readonly unknown[] },
): GateAnswer[] {
  const r = readHitlAnswers(message);
  return r.ok ? r.value : [];
}

/**
 * The checked form of {@link toHitlAnswers}: every answer, or a typed
 * {@link HitlAnswerRefusal} (`invalid-message`, `too-many-parts`) when the
 * message cannot be read. Never throws; reads at most
 * {@link MAX_HITL_ANSWER_PARTS} parts.
 *
 * @example
 * ```ts
 * import { readHitlAnswers } from "@papercusp/chat-protocol/message";
 * declare const body: unknown; // the last message of a useChat request
 * const r = readHitlAnswers(body);
 * if (!r.ok) console.error(r.error.code);
 * else for (const answer of r.value) console.log(answer.gateId);
 * ```
 */
export function readHitlAnswers(message: unknown): Result<GateAnswer[], HitlAnswerRefusal> {
  const reads = readApprovals(message, null);
  if (!reads.ok) return reads;
  const out: GateAnswer[] = [];
  for (const r of reads.value) {
    const a = answerOf(r);
    if (a !== undefined) out.push(a);
  }
  return ok(out);
}

const CONFIRMED = { confirmed: true } as const;

function answerOf(read: ApprovalRead): GateAnswer | undefined {
  if (typeof read.gateId !== "string") return undefined;
  const gateId = read.gateId;
  const reason = typeof read.reason === "string" ? read.reason : "declined";
  switch (read.state) {
    case "approval-responded":
      if (read.approved === true) return { action: "accept", gateId, payload: { ...CONFIRMED } };
      if (read.approved === false) return { action: "decline", gateId, reason };
      return undefined;
    case "output-available":
      return { action: "accept", gateId, payload: read.gate ? read.output : { ...CONFIRMED } };
    case "output-denied":
      return { action: "decline", gateId, reason };
    default:
      return undefined;
  }
}

/** A `tool-*` part or a `dynamic-tool` part. */
function isToolPart(type: unknown): boolean {
  return type === "dynamic-tool" || isToolPartType(type as string);
}

/**
 * The approvals of `message`'s tool parts, each field read once; never
 * throws. `which`: a string → only the part whose approval has that id
 * (first match); `undefined` → only the first `tool-gate` part with an
 * approval; `null` → every tool part with an approval. A part that cannot
 * be read is skipped (it carries no answer).
 */
function readApprovals(
  message: unknown,
  which: string | null | undefined,
): Result<ApprovalRead[], HitlAnswerRefusal> {
  let parts: unknown;
  let n: number;
  try {
    if (!isRecord(message)) {
      return err({ code: "invalid-message", message: "the message is not an object" });
    }
    parts = message.parts;
    if (!Array.isArray(parts)) {
      return err({
        code: "invalid-message",
        message: `the message's parts is ${describeValue(parts)}, not an array`,
      });
    }
    n = parts.length;
  } catch {
    return err({ code: "invalid-message", message: "reading the message threw" });
  }
  if (n > MAX_HITL_ANSWER_PARTS) {
    return err({
      code: "too-many-parts",
      message: `the message has ${n} parts, over ${MAX_HITL_ANSWER_PARTS}`,
    });
  }
  const out: ApprovalRead[] = [];
  for (let i = 0; i < n; i++) {
    let read: ApprovalRead | "skip" | "stop";
    try {
      read = readPart((parts as unknown[])[i], which);
    } catch {
      read = "skip"; // a part that cannot be read carries no answer
    }
    if (read === "stop") return ok(out);
    if (read === "skip") continue;
    out.push(read);
    if (which !== null) return ok(out);
  }
  return ok(out);
}

/** One part's approval, or what to do with a part that has none. May throw. */
function readPart(p: unknown, which: string | null | undefined): ApprovalRead | "skip" | "stop" {
  if (!isRecord(p)) return "skip";
  const type = p.type;
  const gate = type === GATE_PART_TYPE;
  if (which === undefined ? !gate : !isToolPart(type)) return "skip";
  const approval = p.approval;
  if (!isRecord(approval)) {
    return which === undefined ? "stop" : "skip"; // the first gate part has no approval
  }
  const id = approval.id;
  if (typeof which === "string" && id !== which) return "skip";
  return {
    gateId: id,
    gate,
    state: p.state,
    output: p.output,
    approved: approval.approved,
    reason: approval.reason,
  };
}
