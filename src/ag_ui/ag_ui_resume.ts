/**
 * {@link parseAgUiResume}: an AG-UI `RunAgentInput` that resumes a run
 * after an interrupt → the v1 card answers its `resume` entries carry.
 *
 * @module
 */
import type { CardResponse } from "../cards/types.ts";
import { err, ok, type Refusal, type Result } from "../result.ts";
import { isRecord } from "../_internal/guards.ts";
import { readItems, readOwnFields } from "../_internal/fields.ts";
import { isId } from "../_internal/id.ts";

/** At most this many resume entries are read from one input. */
export const MAX_AG_UI_RESUME_ENTRIES = 256;

/** Codes of {@link AgUiResumeRefusal}. */
export type AgUiResumeRefusalCode =
  /** The input is not an object with string `threadId` and `runId`, or it cannot be read. */
  | "invalid-input"
  /** `resume` is not an array of resume entries (`interruptId`, `status` `resolved` / `cancelled`). */
  | "invalid-resume"
  /** A resolved entry's `payload` is not an object (a v1 card answer's value is one). */
  | "invalid-payload"
  /** Two entries answer the same interrupt. */
  | "duplicate-interrupt"
  /** More than {@link MAX_AG_UI_RESUME_ENTRIES} entries. */
  | "too-many-entries";

/** Why {@link parseAgUiResume} refused an input; `index` names the resume entry. */
export interface AgUiResumeRefusal extends Refusal<AgUiResumeRefusalCode> {
  /** 0-based index of the offending resume entry. */
  readonly index?: number;
}

/** What a resuming AG-UI run input asks for. */
export interface AgUiResume {
  /** The thread (the v1 conversation id, as the client sent it). */
  readonly threadId: string;
  /** The new run's id (echo it as the `runId` of the run you stream). */
  readonly runId: string;
  /**
   * One v1 card answer per resume entry, in order (`correlationId` = the
   * interrupt id). Empty when the input resumes nothing.
   */
  readonly responses: CardResponse[];
}

/**
 * Read an AG-UI `RunAgentInput` (the parsed JSON body of the request that
 * starts a run) as the v1 card answers its `resume` entries carry: AG-UI
 * 1.0 resumes an interrupted run by starting a new one whose `resume` list
 * answers each interrupt (`interruptId`, `status`, `payload`).
 *
 * | resume entry | v1 card answer |
 * |---|---|
 * | `resolved`, no `payload`, or `payload: { approved: true }` | `submit`, `value: { confirmed: true }` (an approval) |
 * | `resolved`, `payload: { approved: false }` | `decline` |
 * | `resolved`, any other object `payload` | `submit`, `value` = the payload |
 * | `cancelled` | `cancel` |
 *
 * Only own fields count; each is read once. Never throws: a malformed
 * input is a typed {@link AgUiResumeRefusal} (`invalid-input`,
 * `invalid-resume`, `invalid-payload` for a payload that is not an object,
 * `duplicate-interrupt`, `too-many-entries` beyond
 * {@link MAX_AG_UI_RESUME_ENTRIES}).
 *
 * **Each answer is the client's claim.** Resolve it server-side against the
 * open card (`InteractionResolver` from `./interactions`, with the caller's
 * authority): an answer for a card that is not open, or not the caller's,
 * must be refused there.
 *
 * @example
 * ```ts
 * import { parseAgUiResume } from "@papercusp/chat-protocol/ag-ui";
 * const r = parseAgUiResume({
 *   threadId: "conv-1", runId: "run-2", messages: [],
 *   resume: [{ interruptId: "card-1", status: "resolved", payload: { approved: true } }],
 * });
 * if (r.ok) r.value.responses; // [{ action: "submit", correlationId: "card-1", value: { confirmed: true } }]
 * ```
 */
export function parseAgUiResume(input: unknown): Result<AgUiResume, AgUiResumeRefusal> {
  const o = readOwnFields(input, ["threadId", "runId", "resume"]);
  if (o === null || !isRecord(input)) {
    return err({ code: "invalid-input", message: "the run input is not a readable object" });
  }
  if (typeof o.threadId !== "string" || typeof o.runId !== "string") {
    return err({ code: "invalid-input", message: "threadId and runId must be strings" });
  }
  if (o.resume === undefined) return ok({ threadId: o.threadId, runId: o.runId, responses: [] });
  const entries = readItems(o.resume);
  if (entries === null) {
    return err({ code: "invalid-resume", message: "resume is not a readable array" });
  }
  if (entries.length > MAX_AG_UI_RESUME_ENTRIES) {
    return err({
      code: "too-many-entries",
      message: `resume has ${entries.length} entries, more than ${MAX_AG_UI_RESUME_ENTRIES}`,
    });
  }
  const responses: CardResponse[] = [];
  const seen = new Set<string>();
  for (let index = 0; index < entries.length; index++) {
    const r = responseOf(entries[index], index);
    if (!r.ok) return r;
    if (seen.has(r.value.correlationId)) {
      return err({
        code: "duplicate-interrupt",
        message: `two resume entries answer interrupt ${
          JSON.stringify(r.value.correlationId.slice(0, 64))
        }`,
        index,
      });
    }
    seen.add(r.value.correlationId);
    responses.push(r.value);
  }
  return ok({ threadId: o.threadId, runId: o.runId, responses });
}

function responseOf(entry: unknown, index: number): Result<CardResponse, AgUiResumeRefusal> {
  const e = readOwnFields(entry, ["interruptId", "status", "payload"]);
  if (e === null || !isRecord(entry) || !isId(e.interruptId)) {
    return err({
      code: "invalid-resume",
      message: `resume entry ${index} has no interruptId (a non-empty string)`,
      index,
    });
  }
  const correlationId = e.interruptId;
  if (e.status === "cancelled") return ok({ action: "cancel", correlationId });
  if (e.status !== "resolved") {
    return err({
      code: "invalid-resume",
      message: `resume entry ${index} has status other than "resolved" or "cancelled"`,
      index,
    });
  }
  const payload = e.payload;
  if (payload === undefined || payload === null) {
    return ok({ action: "submit", correlationId, value: { confirmed: true } });
  }
  const p = readOwnFields(payload, ["approved"]);
  if (p === null || !isRecord(payload)) {
    return err({
      code: "invalid-payload",
      message: `resume entry ${index}: the payload of a resolved interrupt must be an object`,
      index,
    });
  }
  if (p.approved === false) return ok({ action: "decline", correlationId });
  if (p.approved === true) {
    return ok({ action: "submit", correlationId, value: { confirmed: true } });
  }
  try {
    return ok({ action: "submit", correlationId, value: { ...payload } });
  } catch {
    return err({
      code: "invalid-payload",
      message: `resume entry ${index}: the payload could not be read`,
      index,
    });
  }
}
