/**
 * The tool part state machine of the fold: tool parts (`tool-<name>` and
 * `dynamic-tool`) created and advanced by the tool chunks as `ai@7`'s
 * `readUIMessageStream` does, with these lookups:
 *
 * - input chunks (`tool-input-start` / `-delta` / `-available`) update the
 *   part of their own kind (static or dynamic) for that tool call id in the
 *   current step, or create one: one call id used by a static and a dynamic
 *   tool in one step makes exactly two parts, and each delta updates the
 *   part of the kind its `tool-input-start` named;
 * - output, approval and denial chunks resolve a call id to the first part
 *   with it in the current step, else to the latest part with it (a call id
 *   reused in a later step never overwrites the earlier step's part);
 * - an approval response resolves to the latest part carrying that approval id.
 *
 * A streaming input is kept as text and parsed (with our partial-JSON
 * reader) only when the message is read, so a long input streamed in many
 * deltas costs linear time.
 *
 * @module
 */
import { readPartialJson } from "./_partial_json.ts";
import type { UIMessageChunk } from "./chunks.ts";
import type { ChatPart, DynamicToolPart, ToolPart, ToolPartFields } from "../message/parts.ts";
import type { FoldContext } from "./_fold_context.ts";
import { INPUT_REQUIRED, toolStateProblems } from "../message/_tool_state_rules.ts";

/** A tool part of either kind. */
export type AnyTool = ToolPart | DynamicToolPart;
type Mutable = Record<string, unknown>;
type Chunk<T extends UIMessageChunk["type"]> = Extract<UIMessageChunk, { type: T }>;

/** True for `dynamic-tool` and every `tool-…` type (an empty tool name included). */
export function isToolLike(p: ChatPart): p is AnyTool {
  return p.type === "dynamic-tool" || p.type.startsWith("tool-");
}

function isDynamic(p: AnyTool): p is DynamicToolPart {
  return p.type === "dynamic-tool";
}

/** A tool input still streaming: its text so far and the facts of its start chunk. */
interface PartialCall {
  text: string;
  inputEncoding?: "json" | "text";
  toolName: string;
  dynamic: boolean;
  title?: string;
  toolMetadata?: Record<string, unknown>;
}

/** What one tool chunk sets on a part. */
interface ToolUpdate {
  toolCallId: string;
  toolName: string;
  state: ToolPartFields["state"];
  input?: unknown;
  output?: unknown;
  errorText?: string;
  rawInput?: unknown;
  inputEncoding?: "json" | "text";
  preliminary?: boolean;
  title?: string;
  toolMetadata?: Record<string, unknown>;
  providerExecuted?: boolean;
  providerMetadata?: unknown;
}

function set(obj: Mutable, key: string, value: unknown): void {
  if (value === undefined) delete obj[key];
  else obj[key] = value;
}

/**
 * Keep the keys the document requires in the part's state even when their
 * value is not known (an input that never streamed, an output chunk without
 * one): present with `undefined`, as the AI SDK's fold leaves them.
 */
function keepRequiredKeys(m: Mutable): void {
  if (INPUT_REQUIRED.has(m.state) && !Object.hasOwn(m, "input")) m.input = undefined;
  if (m.state === "output-available" && !Object.hasOwn(m, "output")) m.output = undefined;
}

/** The last element of `list`, if any. */
function last<T>(list: T[] | undefined): T | undefined {
  return list === undefined ? undefined : list[list.length - 1];
}

/** The tool parts of the message being folded, and how chunks find them. */
export class ToolParts {
  readonly #ctx: FoldContext;
  /** Inputs streaming in the current step, by call id. */
  #partials = new Map<string, PartialCall>();
  /** Parts whose input text is not parsed yet (parsed when the message is read). */
  #streaming = new Map<AnyTool, PartialCall>();
  /** The first part with each call id in the current step (any kind). */
  #stepFirst = new Map<string, AnyTool>();
  /** The first part of each kind with each call id in the current step. */
  #stepStatic = new Map<string, AnyTool>();
  #stepDynamic = new Map<string, AnyTool>();
  /** Every part with each call id, in order. */
  #byCallId = new Map<string, AnyTool[]>();
  /** Every part that carried each approval id, in order. */
  #byApproval = new Map<string, AnyTool[]>();

  /** Parts of the message `ctx` folds. */
  constructor(ctx: FoldContext) {
    this.#ctx = ctx;
  }

  /** Forget every part (a new message starts). */
  clear(): void {
    this.#partials.clear();
    this.#streaming.clear();
    this.#byCallId.clear();
    this.#byApproval.clear();
    this.newStep();
  }

  /** A new step starts: step lookups start empty. */
  newStep(): void {
    this.#stepFirst.clear();
    this.#stepStatic.clear();
    this.#stepDynamic.clear();
  }

  /** The current step was reset: `removed` (its parts, last first) are gone. */
  resetStep(removed: readonly ChatPart[]): void {
    this.#partials.clear();
    this.newStep();
    for (const p of removed) {
      if (!isToolLike(p)) continue;
      this.#streaming.delete(p);
      const list = this.#byCallId.get(p.toolCallId);
      if (last(list) === p) list!.pop();
      if (p.approval != null) {
        const al = this.#byApproval.get(p.approval.id);
        if (last(al) === p) al!.pop();
      }
    }
  }

  /** Index the persisted message's (copied) parts so the stream can continue them. */
  adopt(parts: readonly ChatPart[]): void {
    let lastStep = -1;
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i];
      if (p.type === "step-start") lastStep = i;
      if (!isToolLike(p)) continue;
      this.#register(p);
      if (p.approval != null) this.#registerApproval(p.approval.id, p);
    }
    for (let i = lastStep + 1; i < parts.length; i++) {
      const p = parts[i];
      if (!isToolLike(p)) continue;
      this.#registerInStep(p);
      if (p.state === "input-streaming") {
        this.#partials.set(p.toolCallId, {
          text: typeof p.rawInput === "string" ? p.rawInput : "",
          inputEncoding: p.inputEncoding,
          toolName: isDynamic(p) ? p.toolName : p.type.slice(5),
          dynamic: isDynamic(p),
          title: p.title,
          toolMetadata: p.toolMetadata,
        });
      }
    }
  }

  /** `tool-input-start`. */
  inputStart(c: Chunk<"tool-input-start">): void {
    const dynamic = c.dynamic === true;
    this.#partials.set(c.toolCallId, {
      text: "",
      inputEncoding: c.inputEncoding,
      toolName: c.toolName,
      dynamic,
      title: c.title,
      toolMetadata: c.toolMetadata,
    });
    this.#update({
      toolCallId: c.toolCallId,
      toolName: c.toolName,
      state: "input-streaming",
      inputEncoding: c.inputEncoding,
      providerExecuted: c.providerExecuted,
      title: c.title,
      toolMetadata: c.toolMetadata,
      providerMetadata: c.providerMetadata,
    }, dynamic);
  }

  /** `tool-input-delta`: appends to the input of the part its start named. */
  inputDelta(c: Chunk<"tool-input-delta">): void {
    const pc = this.#partials.get(c.toolCallId);
    if (pc === undefined) {
      return this.#ctx.orphan(`tool-input-delta for unknown tool call ${c.toolCallId}`);
    }
    if (!this.#ctx.spend(c.inputTextDelta.length)) return;
    pc.text += c.inputTextDelta;
    const part = this.#update({
      toolCallId: c.toolCallId,
      toolName: pc.toolName,
      state: "input-streaming",
      inputEncoding: pc.inputEncoding,
      title: pc.title,
      toolMetadata: pc.toolMetadata,
    }, pc.dynamic);
    if (part !== undefined) this.#streaming.set(part, pc);
  }

  /** `tool-input-available`. */
  inputAvailable(c: Chunk<"tool-input-available">): void {
    this.#update({
      toolCallId: c.toolCallId,
      toolName: c.toolName,
      state: "input-available",
      input: c.input,
      providerExecuted: c.providerExecuted,
      providerMetadata: c.providerMetadata,
      title: c.title,
      toolMetadata: c.toolMetadata,
    }, c.dynamic === true);
  }

  /** `tool-input-error`: the step's part with that call id (of its kind), else a new one. */
  inputError(c: Chunk<"tool-input-error">): void {
    const existing = this.#stepFirst.get(c.toolCallId);
    this.#update({
      toolCallId: c.toolCallId,
      toolName: c.toolName,
      state: "output-error",
      input: c.input,
      errorText: c.errorText,
      providerExecuted: c.providerExecuted,
      providerMetadata: c.providerMetadata,
      toolMetadata: c.toolMetadata,
    }, existing !== undefined ? isDynamic(existing) : c.dynamic === true);
  }

  /** `tool-approval-request`. */
  approvalRequest(c: Chunk<"tool-approval-request">): void {
    const part = this.#find(c.toolCallId);
    if (part === undefined) {
      return this.#ctx.orphan(`tool-approval-request for unknown tool call ${c.toolCallId}`);
    }
    const approval: Mutable = { id: c.approvalId };
    if (c.approvalDescriptor != null) approval.descriptor = c.approvalDescriptor;
    if (c.inputSchemaInput !== undefined) approval.inputSchemaInput = c.inputSchemaInput;
    if (c.reason != null) approval.requestReason = c.reason;
    if (c.isAutomatic === true) approval.isAutomatic = true;
    if (c.signature != null) approval.signature = c.signature;
    const applied = this.#checked(part, c.type, () => {
      part.state = "approval-requested";
      part.approval = approval as unknown as ToolPartFields["approval"];
    });
    if (applied) this.#registerApproval(c.approvalId, part);
  }

  /** `tool-approval-response`: the latest part carrying that approval id. */
  approvalResponse(c: Chunk<"tool-approval-response">): void {
    const part = last(this.#byApproval.get(c.approvalId));
    if (part === undefined) {
      return this.#ctx.orphan(`tool-approval-response for unknown approval ${c.approvalId}`);
    }
    const approval: Mutable = { ...(part.approval ?? { id: c.approvalId }) };
    approval.id = c.approvalId;
    approval.approved = c.approved;
    if (c.reason != null) approval.reason = c.reason;
    this.#checked(part, c.type, () => {
      part.state = "approval-responded";
      part.approval = approval as unknown as ToolPartFields["approval"];
    });
    if (c.providerExecuted != null) part.providerExecuted = c.providerExecuted;
    if (c.providerMetadata != null) {
      part.callProviderMetadata = c.providerMetadata as ToolPartFields["callProviderMetadata"];
    }
  }

  /** `tool-output-denied`. */
  outputDenied(c: Chunk<"tool-output-denied">): void {
    const part = this.#find(c.toolCallId);
    if (part === undefined) {
      return this.#ctx.orphan(`tool-output-denied for unknown tool call ${c.toolCallId}`);
    }
    // the document's output-denied needs the answer that denied it (else refused)
    this.#checked(part, c.type, () => {
      part.state = "output-denied";
    });
  }

  /** `tool-output-available` / `tool-output-error`. */
  output(c: Chunk<"tool-output-available"> | Chunk<"tool-output-error">): void {
    const part = this.#find(c.toolCallId);
    if (part === undefined) {
      return this.#ctx.orphan(`${c.type} for unknown tool call ${c.toolCallId}`);
    }
    if (part.approval?.approved === false) {
      return this.#ctx.refuse(
        `${c.type} for tool call ${c.toolCallId}, whose approval was denied (approved: false): the tool ran after it was denied; skipped`,
      );
    }
    this.#materialise(part);
    const dynamic = isDynamic(part);
    const ok = c.type === "tool-output-available";
    this.#update(
      {
        toolCallId: c.toolCallId,
        toolName: dynamic ? part.toolName : part.type.slice(5),
        state: ok ? "output-available" : "output-error",
        input: part.input,
        output: ok ? c.output : undefined,
        errorText: ok ? undefined : c.errorText,
        rawInput: !ok && !dynamic ? part.rawInput : undefined,
        preliminary: ok ? c.preliminary : undefined,
        providerExecuted: c.providerExecuted,
        providerMetadata: c.providerMetadata,
        title: part.title,
        toolMetadata: c.toolMetadata ?? part.toolMetadata,
      },
      dynamic,
      part,
    );
  }

  /**
   * Parse every streaming input into its part (`input`, `rawInput`) for a
   * read of the message; the inputs keep streaming.
   */
  materialiseAll(): void {
    for (const [part, pc] of this.#streaming) this.#write(part, pc);
  }

  #find(toolCallId: string): AnyTool | undefined {
    return this.#stepFirst.get(toolCallId) ?? last(this.#byCallId.get(toolCallId));
  }

  /** Write the parsed partial input of a streaming part and stop tracking it. */
  #materialise(part: AnyTool): void {
    const pc = this.#streaming.get(part);
    if (pc === undefined) return;
    this.#streaming.delete(part);
    this.#write(part, pc);
  }

  #write(part: AnyTool, pc: PartialCall): void {
    const m = part as unknown as Mutable;
    set(m, "input", pc.inputEncoding === "text" ? pc.text : readPartialJson(pc.text));
    set(m, "rawInput", pc.text);
    keepRequiredKeys(m); // an input that parses to nothing still has its key where required
  }

  #register(p: AnyTool): void {
    const list = this.#byCallId.get(p.toolCallId);
    if (list === undefined) this.#byCallId.set(p.toolCallId, [p]);
    else list.push(p);
  }

  #registerInStep(p: AnyTool): void {
    const id = p.toolCallId;
    if (!this.#stepFirst.has(id)) this.#stepFirst.set(id, p);
    const byKind = isDynamic(p) ? this.#stepDynamic : this.#stepStatic;
    if (!byKind.has(id)) byKind.set(id, p);
  }

  #registerApproval(id: string, p: AnyTool): void {
    const list = this.#byApproval.get(id);
    if (list === undefined) this.#byApproval.set(id, [p]);
    else if (last(list) !== p) list.push(p);
  }

  /**
   * Apply `o` to `existing`, else to the current step's part of that kind
   * with that call id, else to a new part. Returns the part (`undefined`
   * when a new one was refused by the part limit).
   */
  #update(o: ToolUpdate, dynamic: boolean, existing?: AnyTool): AnyTool | undefined {
    const part = existing ?? (dynamic ? this.#stepDynamic : this.#stepStatic).get(o.toolCallId);
    if (part === undefined) {
      const created = this.#updateFields(o, dynamic, undefined);
      if (created !== undefined) keepRequiredKeys(created as unknown as Mutable);
      return created;
    }
    const what = o.state === "output-available"
      ? "tool-output-available"
      : o.state === "output-error"
      ? "a tool error"
      : "a tool input";
    return this.#checked(part, what, () => this.#updateFields(o, dynamic, part)) ? part : undefined;
  }

  /**
   * Apply `change` to `part`; when that leaves the part breaking a state
   * rule of the document (`toolStateProblems`), undo it and refuse the
   * chunk (`what`) as `invalid-chunk`. Whether it was applied.
   */
  #checked(part: AnyTool, what: string, change: () => void): boolean {
    const m = part as unknown as Mutable;
    const before = { ...m };
    change();
    keepRequiredKeys(m);
    const problems = toolStateProblems(m);
    if (problems.length === 0) return true;
    for (const k of Object.keys(m)) delete m[k];
    Object.assign(m, before);
    this.#ctx.refuse(
      `${what} for tool call ${part.toolCallId} would leave its part invalid (${
        problems[0][1]
      }); skipped`,
    );
    return false;
  }

  #updateFields(o: ToolUpdate, dynamic: boolean, existing?: AnyTool): AnyTool | undefined {
    const part = existing ??
      (dynamic ? this.#stepDynamic : this.#stepStatic).get(o.toolCallId);
    const resultState = o.state === "output-available" || o.state === "output-error";
    const metadataKey = resultState ? "resultProviderMetadata" : "callProviderMetadata";
    if (part !== undefined) {
      // every update sets `input` / `rawInput` itself (callers that reuse the
      // part's input materialise it first), so a pending partial parse is dropped
      this.#streaming.delete(part);
      const m = part as unknown as Mutable;
      m.state = o.state;
      if (dynamic) m.toolName = o.toolName;
      else m.type = `tool-${o.toolName}`;
      set(m, "input", o.input);
      set(m, "output", o.output);
      set(m, "errorText", o.errorText);
      set(m, "rawInput", o.rawInput);
      set(m, "inputEncoding", o.inputEncoding);
      set(m, "preliminary", o.preliminary);
      if (o.title !== undefined) m.title = o.title;
      if (o.toolMetadata !== undefined) m.toolMetadata = o.toolMetadata;
      set(m, "providerExecuted", o.providerExecuted ?? m.providerExecuted);
      if (o.providerMetadata != null) m[metadataKey] = o.providerMetadata;
      return part;
    }
    const m: Mutable = dynamic
      ? { type: "dynamic-tool", toolName: o.toolName, toolCallId: o.toolCallId, state: o.state }
      : { type: `tool-${o.toolName}`, toolCallId: o.toolCallId, state: o.state };
    set(m, "title", o.title);
    set(m, "toolMetadata", o.toolMetadata);
    set(m, "input", o.input);
    set(m, "inputEncoding", o.inputEncoding);
    set(m, "output", o.output);
    if (!dynamic) set(m, "rawInput", o.rawInput);
    set(m, "errorText", o.errorText);
    set(m, "providerExecuted", o.providerExecuted);
    set(m, "preliminary", o.preliminary);
    if (o.providerMetadata != null) m[metadataKey] = o.providerMetadata;
    const created = m as unknown as AnyTool;
    if (!this.#ctx.parts.place(created)) return undefined;
    this.#register(created);
    this.#registerInStep(created);
    return created;
  }
}
