/**
 * AG-UI as an adapter target: v1 envelopes → AG-UI protocol events
 * (`@ag-ui/core@1.0.0` event shapes, checked in tests against
 * `@ag-ui/core`'s `EventSchemas` and `@ag-ui/client`'s `verifyEvents`).
 *
 * The event types are declared structurally here so the library needs no
 * AG-UI runtime dependency.
 *
 * @module
 */
import { ok, type Result } from "../result.ts";
import type { ChatEventEnvelope, ChatEventV1, EnvelopeAdmissionRefusal } from "../v1/types.ts";
import { convertEnvelopes, EnvelopeIntake } from "./_v1_intake.ts";

/** An AG-UI event as produced here: `type` plus the fields of that event. */
export type AgUiEvent =
  | { type: "RUN_STARTED"; threadId: string; runId: string }
  | {
    type: "RUN_FINISHED";
    threadId: string;
    runId: string;
    result?: unknown;
    outcome?: { type: "success" } | { type: "cancelled" };
  }
  | { type: "RUN_ERROR"; message: string; code?: string }
  | { type: "TEXT_MESSAGE_START"; messageId: string; role: "assistant" }
  | { type: "TEXT_MESSAGE_CONTENT"; messageId: string; delta: string }
  | { type: "TEXT_MESSAGE_END"; messageId: string }
  | { type: "REASONING_START"; messageId: string }
  | { type: "REASONING_MESSAGE_START"; messageId: string; role: "reasoning" }
  | { type: "REASONING_MESSAGE_CONTENT"; messageId: string; delta: string }
  | { type: "REASONING_MESSAGE_END"; messageId: string }
  | { type: "REASONING_END"; messageId: string }
  | { type: "TOOL_CALL_START"; toolCallId: string; toolCallName: string; parentMessageId?: string }
  | { type: "TOOL_CALL_ARGS"; toolCallId: string; delta: string }
  | { type: "TOOL_CALL_END"; toolCallId: string }
  | {
    type: "TOOL_CALL_RESULT";
    messageId: string;
    toolCallId: string;
    content: string;
    role: "tool";
  }
  | { type: "STATE_SNAPSHOT"; snapshot: unknown }
  | { type: "CUSTOM"; name: string; value: unknown };

/**
 * Refusal of one envelope by {@link V1ToAgUi} (or, from {@link v1ToAgUiEvents},
 * a report about one): the shared {@link EnvelopeAdmissionRefusal} of every
 * v1 adapter, whose ordering codes mean what they mean in the v1 fold.
 */
export type AgUiRefusal = EnvelopeAdmissionRefusal;

function stringify(v: unknown): string {
  if (typeof v === "string") return v;
  try {
    return JSON.stringify(v) ?? "null";
  } catch {
    return "null";
  }
}

/**
 * v1 envelopes → AG-UI events, incrementally. One v1 turn is one AG-UI run
 * (`threadId` = conversationId, `runId` = turnId).
 *
 * Mapping: first envelope → `RUN_STARTED`; `delta` → `TEXT_MESSAGE_START` /
 * `_CONTENT` (`_END` when something else follows); `reasoning` →
 * `REASONING_START` + `REASONING_MESSAGE_START` / `_CONTENT` (ends likewise);
 * `tool_call` → `TOOL_CALL_START` + `TOOL_CALL_ARGS` (the JSON input) +
 * `TOOL_CALL_END`; `tool_result` → `TOOL_CALL_RESULT` (content = JSON output,
 * or `{ok:false, summary}` for failures; an input or output JSON cannot
 * carry, such as a `BigInt`, a cycle or a getter that throws, is sent as
 * `null`); `state` → `STATE_SNAPSHOT`;
 * `tool_progress`, `card`, `card_closed`, `session`, `provenance`,
 * `navigate` and non-terminal `turn_status` → `CUSTOM` named after the v1
 * event type; `done` → `RUN_FINISHED` (result `{stopReason, usage}`);
 * `error` → `RUN_ERROR`; `turn_status: cancelled` → `RUN_FINISHED` with
 * outcome `cancelled`. Empty deltas emit nothing (AG-UI forbids them).
 *
 * Each envelope is validated with the v1 parser (`parseChatEnvelope`) before
 * anything is emitted; an invalid one (including an unknown event type), an
 * envelope of another turn or conversation, a `seq` that is not the next one
 * (`duplicate`, `reordered`, `gap`: the v1 fold's ordering rules; the first
 * envelope must have `seq` 1), or anything new after the run ended is
 * refused and changes nothing. {@link V1ToAgUi.resync} converts an envelope
 * after a gap knowingly.
 *
 * @example
 * ```ts
 * import { V1ToAgUi } from "@papercusp/chat-protocol/ag-ui";
 * declare const envelopes: unknown[];
 * declare function send(event: unknown): void;
 * const toAgUi = new V1ToAgUi();
 * for (const envelope of envelopes) {
 *   const r = toAgUi.push(envelope);
 *   if (r.ok) for (const event of r.value) send(event);
 * }
 * for (const event of toAgUi.end()) send(event);
 * ```
 */
export class V1ToAgUi {
  #threadId: string | undefined;
  #runId: string | undefined;
  readonly #intake = new EnvelopeIntake("run");
  #ended = false;
  #text: string | undefined;
  #lastText: string | undefined;
  #reasoning: string | undefined;
  #n = 0;
  #tools = new Set<string>();

  #close(out: AgUiEvent[]): void {
    if (this.#text !== undefined) out.push({ type: "TEXT_MESSAGE_END", messageId: this.#text });
    if (this.#reasoning !== undefined) {
      out.push(
        { type: "REASONING_MESSAGE_END", messageId: this.#reasoning },
        { type: "REASONING_END", messageId: this.#reasoning },
      );
    }
    this.#text = undefined;
    this.#reasoning = undefined;
  }

  /** Convert one envelope. Never throws. */
  push(envelope: unknown): Result<AgUiEvent[], AgUiRefusal> {
    return this.#convert(envelope, false);
  }

  /**
   * Like {@link push} but accepts an envelope whose `seq` skips missing ones
   * (every other check still applies): for a consumer that reported the
   * `gap` from `push` and goes on. Never throws.
   */
  resync(envelope: unknown): Result<AgUiEvent[], AgUiRefusal> {
    return this.#convert(envelope, true);
  }

  #convert(envelope: unknown, resync: boolean): Result<AgUiEvent[], AgUiRefusal> {
    // validate fully before any state changes: a refused first envelope must
    // not consume the run start
    const admitted = this.#intake.admit(envelope, this.#ended, resync);
    if (!admitted.ok) return admitted;
    const env = admitted.value;
    // the v1 parser already checked every field #apply reads
    const out: AgUiEvent[] = [];
    this.#apply(env, out);
    this.#intake.accept(env);
    return ok(out);
  }

  #apply(env: ChatEventEnvelope, out: AgUiEvent[]): void {
    if (this.#runId === undefined) {
      this.#threadId = env.conversationId;
      this.#runId = env.turnId;
      out.push({ type: "RUN_STARTED", threadId: env.conversationId, runId: env.turnId });
    }
    const threadId = this.#threadId!;
    const runId = this.#runId!;
    const e = env.event as ChatEventV1;
    switch (e.type) {
      case "delta": {
        if (e.text.length === 0) return;
        if (this.#reasoning !== undefined) this.#close(out);
        if (this.#text === undefined) {
          this.#text = `${runId}:text:${++this.#n}`;
          this.#lastText = this.#text;
          out.push({ type: "TEXT_MESSAGE_START", messageId: this.#text, role: "assistant" });
        }
        out.push({ type: "TEXT_MESSAGE_CONTENT", messageId: this.#text, delta: e.text });
        return;
      }
      case "reasoning": {
        if (e.text.length === 0) return;
        if (this.#text !== undefined) this.#close(out);
        if (this.#reasoning === undefined) {
          this.#reasoning = `${runId}:reasoning:${++this.#n}`;
          out.push(
            { type: "REASONING_START", messageId: this.#reasoning },
            { type: "REASONING_MESSAGE_START", messageId: this.#reasoning, role: "reasoning" },
          );
        }
        out.push({ type: "REASONING_MESSAGE_CONTENT", messageId: this.#reasoning, delta: e.text });
        return;
      }
      case "tool_call": {
        this.#close(out);
        this.#startTool(e.callId, e.name, e.input, out);
        return;
      }
      case "tool_result": {
        this.#close(out);
        if (!this.#tools.has(e.callId)) this.#startTool(e.callId, e.name, undefined, out);
        const content = e.ok
          ? stringify(e.output !== undefined ? e.output : (e.summary ?? null))
          : stringify({ ok: false, summary: e.summary ?? "tool failed" });
        out.push({
          type: "TOOL_CALL_RESULT",
          messageId: `${runId}:tool:${e.callId}`,
          toolCallId: e.callId,
          content,
          role: "tool",
        });
        return;
      }
      case "state":
        out.push({ type: "STATE_SNAPSHOT", snapshot: e.snapshot });
        return;
      case "done": {
        this.#close(out);
        const result: Record<string, unknown> = {};
        if (e.stopReason !== undefined) result.stopReason = e.stopReason;
        if (e.usage !== undefined) result.usage = e.usage;
        out.push({ type: "RUN_FINISHED", threadId, runId, result, outcome: { type: "success" } });
        this.#ended = true;
        return;
      }
      case "error": {
        this.#close(out);
        const ev: AgUiEvent = { type: "RUN_ERROR", message: String(e.message) };
        if (typeof e.code === "string") ev.code = e.code;
        out.push(ev);
        this.#ended = true;
        return;
      }
      case "turn_status":
        if (e.status === "cancelled") {
          this.#close(out);
          out.push({ type: "RUN_FINISHED", threadId, runId, outcome: { type: "cancelled" } });
          this.#ended = true;
          return;
        }
        out.push({ type: "CUSTOM", name: "turn_status", value: { ...e } });
        return;
      default: {
        const { type, ...value } = e as unknown as { type: string } & Record<string, unknown>;
        out.push({ type: "CUSTOM", name: type, value });
      }
    }
  }

  #startTool(callId: string, name: string, input: unknown, out: AgUiEvent[]): void {
    this.#tools.add(callId);
    const start: AgUiEvent = { type: "TOOL_CALL_START", toolCallId: callId, toolCallName: name };
    if (this.#lastText !== undefined) start.parentMessageId = this.#lastText;
    out.push(start);
    if (input !== undefined) {
      out.push({ type: "TOOL_CALL_ARGS", toolCallId: callId, delta: stringify(input) });
    }
    out.push({ type: "TOOL_CALL_END", toolCallId: callId });
  }

  /** End of input: closes open text / reasoning messages (no run end is invented). */
  end(): AgUiEvent[] {
    const out: AgUiEvent[] = [];
    if (!this.#ended) this.#close(out);
    return out;
  }
}

/** Result of {@link v1ToAgUiEvents}. */
export interface V1ToAgUiResult {
  /** The AG-UI events, in order. */
  events: AgUiEvent[];
  /**
   * Refused envelopes, and the ordering reports on applied ones (`gap`,
   * `reordered`), with their 0-based index, sorted by index.
   */
  refused: { index: number; error: AgUiRefusal }[];
}

/**
 * Convert a whole v1 envelope stream to AG-UI events (mapping and
 * per-envelope refusals on {@link V1ToAgUi}), with the v1 whole-stream
 * ordering policy (the same verdicts as `foldChatState`): an envelope ahead
 * of a missing `seq` is held (up to 32); a late one within that window is
 * converted in `seq` order and reported `reordered`; a `seq` that never
 * arrives is reported once as `gap` at the first envelope after it, and the
 * conversion goes on. Never throws: a non-iterable `envelopes` is one
 * `invalid-envelope` refusal at index -1 (no events); an iterator that
 * throws ends the input with an `invalid-envelope` refusal at the index it
 * could not read, and the envelopes read before it are converted (open
 * messages closed, no run end invented).
 *
 * @example
 * ```ts
 * import { v1ToAgUiEvents } from "@papercusp/chat-protocol/ag-ui";
 * declare const envelopes: unknown[];
 * const { events } = v1ToAgUiEvents(envelopes);
 * ```
 */
export function v1ToAgUiEvents(envelopes: Iterable<unknown>): V1ToAgUiResult {
  const { out, refused } = convertEnvelopes(envelopes, new V1ToAgUi());
  return { events: out, refused };
}
