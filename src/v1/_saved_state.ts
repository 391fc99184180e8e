/**
 * Validation of a saved {@link ChatStateV1} for `resumeChatState` (and the
 * `from` option of `foldChatState`): the state must be one the fold could
 * have produced. Field rules are the
 * envelope parser's own validators (`_validate.ts`); this module adds only
 * what a state has and an event does not (seq bounds, uniqueness, the status
 * agreeing with the rest).
 *
 * @module
 */
import { err, ok, type Result } from "../result.ts";
import { isRecord } from "../_internal/guards.ts";
import { isWireId } from "../_internal/id.ts";
import { isExtensionName } from "./extensions.ts";
import { MAX_EXTENSION_STATE_NAMES } from "./limits.ts";
import type { InvalidStateRefusal } from "./fold.ts";
import { isTurnStatus } from "./lifecycle.ts";
import { TurnFold } from "./_turn_fold.ts";
import * as check from "./_validate.ts";
import type { EnvelopeIssue } from "./_validate.ts";
import type { ToolCallStateV1 } from "./types.ts";

type Bag = Record<string, unknown>;

function refuse(i: EnvelopeIssue): Result<never, InvalidStateRefusal> {
  return err({
    code: "invalid-state",
    message: `saved state: ${i.path === "" ? "the value" : i.path} ${i.message}`,
    path: i.path,
  });
}

/** A fresh tool call state read from `v` (problems appended to `issues`). */
function readTool(v: unknown, path: string, lastSeq: number, issues: EnvelopeIssue[]) {
  if (!isRecord(v)) {
    check.issue(issues, path, "must be an object");
    return null;
  }
  const callId = check.readWireId(v.callId, `${path}.callId`, issues);
  const name = check.readId(v.name, `${path}.name`, issues);
  const status = v.status, startedSeq = v.startedSeq, finishedSeq = v.finishedSeq;
  if (status !== "running" && status !== "ok" && status !== "error" && status !== "unfinished") {
    check.issue(issues, `${path}.status`, "must be running, ok, error or unfinished");
  }
  const inTurn = (n: unknown) => check.isIntFrom(n, 1) && n <= lastSeq;
  if (!inTurn(startedSeq)) {
    check.issue(issues, `${path}.startedSeq`, `must be an integer in 1..${lastSeq}`);
  }
  if (status === "running" ? finishedSeq !== undefined : !inTurn(finishedSeq)) {
    check.issue(
      issues,
      `${path}.finishedSeq`,
      status === "running"
        ? "must be absent while the call runs"
        : `must be an integer in 1..${lastSeq} once the call finished`,
    );
  }
  const t: ToolCallStateV1 = {
    callId,
    name,
    status: status as ToolCallStateV1["status"],
    startedSeq: startedSeq as number,
  };
  if (v.input !== undefined) t.input = v.input;
  const progress = check.readProgress(v.progress, `${path}.progress`, issues);
  if (progress !== undefined) t.progress = progress;
  const progressMessage = check.readOptString(v.progressMessage, `${path}.progressMessage`, issues);
  if (progressMessage !== undefined) t.progressMessage = progressMessage;
  const summary = check.readOptString(v.summary, `${path}.summary`, issues);
  if (summary !== undefined) t.summary = summary;
  if (v.output !== undefined) t.output = v.output;
  if (v.blocks !== undefined) t.blocks = check.readBlocks(v.blocks, `${path}.blocks`, issues);
  if (finishedSeq !== undefined) t.finishedSeq = finishedSeq as number;
  return t;
}

/** `v[key]` as an object for a reader, or an issue at `key`. */
function record(v: unknown, key: string, issues: EnvelopeIssue[]): Bag | null {
  if (isRecord(v)) return v;
  check.issue(issues, key, "must be an object");
  return null;
}

/**
 * Read a saved state's extension fields into `f`: `extensionState` (a record
 * of at most 128 extension names, each `{ data, seq }`) and
 * `extensionEvents` (`{ name, data, seq }` in `seq` order), both optional
 * but never empty when present; every `seq` in `1..lastSeq`, every `data`
 * bounded JSON. The first problem, or `null`.
 */
function readExtensions(
  f: TurnFold,
  state: unknown,
  events: unknown,
  lastSeq: number,
  issues: EnvelopeIssue[],
): EnvelopeIssue | null {
  const seqOf = (v: unknown, path: string): number => {
    if (!check.isIntFrom(v, 1) || v > lastSeq) {
      check.issue(issues, path, `must be an integer in 1..${lastSeq}`);
    }
    return v as number;
  };
  if (state !== undefined) {
    if (!isRecord(state)) return { path: "extensionState", message: "must be an object" };
    const names = Object.keys(state);
    if (names.length === 0 || names.length > MAX_EXTENSION_STATE_NAMES) {
      return {
        path: "extensionState",
        message: `must hold 1 to ${MAX_EXTENSION_STATE_NAMES} names (absent when none)`,
      };
    }
    for (const name of names) {
      const path = `extensionState.${name}`, e = state[name];
      if (!isExtensionName(name)) return { path, message: "is not an extension name" };
      if (!isRecord(e)) return { path, message: "must be an object" };
      const data = check.readJson(e.data, `${path}.data`, issues);
      const seq = seqOf(e.seq, `${path}.seq`);
      if (issues.length > 0) return issues[0];
      f.setExtensionState(name, Object.freeze({ data, seq }));
    }
  }
  if (events !== undefined) {
    if (!Array.isArray(events) || events.length === 0) {
      return { path: "extensionEvents", message: "must be a non-empty array (absent when none)" };
    }
    let last = 0;
    for (let i = 0; i < events.length; i++) {
      const path = `extensionEvents.${i}`, e = events[i];
      if (!isRecord(e)) return { path, message: "must be an object" };
      const name = e.name;
      if (!isExtensionName(name)) {
        return { path: `${path}.name`, message: "is not an extension name" };
      }
      const data = check.readJson(e.data, `${path}.data`, issues);
      const seq = seqOf(e.seq, `${path}.seq`);
      if (issues.length > 0) return issues[0];
      if (seq <= last) return { path: `${path}.seq`, message: "must be after the previous one's" };
      last = seq;
      f.extensionEvents.push(Object.freeze({ name, data, seq }));
    }
  }
  return null;
}

/**
 * A fold resumed from `state`, or `invalid-state` naming the first offending
 * field. May throw on hostile objects (the caller guards it).
 */
export function readSavedState(state: unknown): Result<TurnFold, InvalidStateRefusal> {
  const issues: EnvelopeIssue[] = [];
  const first = () => refuse(issues[0]);
  if (!isRecord(state)) return refuse({ path: "", message: "must be an object" });
  const s = state;
  if (s.schemaVersion !== 1) return refuse({ path: "schemaVersion", message: "must be 1" });
  const conversationId = check.readWireId(s.conversationId, "conversationId", issues);
  const turnId = check.readWireId(s.turnId, "turnId", issues);
  if (issues.length > 0) return first();
  const status = s.status, lastSeq = s.lastSeq, lastEventId = s.lastEventId;
  if (!isTurnStatus(status)) return refuse({ path: "status", message: "must be a turn status" });
  if (!check.isIntFrom(lastSeq, 0)) {
    return refuse({ path: "lastSeq", message: "must be a non-negative integer" });
  }
  if (lastSeq === 0 ? lastEventId !== null : !isWireId(lastEventId)) {
    return refuse({
      path: "lastEventId",
      message: lastSeq === 0 ? "must be null when lastSeq is 0" : check.WIRE_ID,
    });
  }
  const text = s.text, reasoning = s.reasoning; // each field is read once
  if (typeof text !== "string") return refuse({ path: "text", message: "must be a string" });
  if (typeof reasoning !== "string") {
    return refuse({ path: "reasoning", message: "must be a string" });
  }
  const tools = s.tools, openCards = s.openCards, closedCards = s.closedCards;
  for (
    const [key, v] of [["tools", tools], ["openCards", openCards], ["closedCards", closedCards]]
  ) {
    if (!Array.isArray(v)) return refuse({ path: key as string, message: "must be an array" });
  }
  const f = new TurnFold(conversationId, turnId, lastSeq, lastEventId as string | null);
  f.status = status;
  f.text = text;
  f.reasoning = reasoning;
  for (let i = 0; i < (tools as unknown[]).length; i++) {
    const t = readTool((tools as unknown[])[i], `tools.${i}`, lastSeq, issues);
    if (t === null || issues.length > 0) return first();
    if (f.toolIndex.has(t.callId)) {
      return refuse({ path: `tools.${i}.callId`, message: "is repeated" });
    }
    f.addTool(t);
  }
  for (let i = 0; i < (openCards as unknown[]).length; i++) {
    const c = check.readCard((openCards as unknown[])[i], `openCards.${i}`, issues);
    if (issues.length > 0) return first();
    const id = check.validatedCardId(c); // the id just validated, not the field read again
    if (f.openIndex.has(id)) {
      return refuse({ path: `openCards.${i}.correlationId`, message: "is repeated" });
    }
    f.openCard(id, c);
  }
  for (let i = 0; i < (closedCards as unknown[]).length; i++) {
    const c = record((closedCards as unknown[])[i], `closedCards.${i}`, issues);
    const closed = c === null ? null : check.readClosed(c, `closedCards.${i}`, issues);
    if (closed === null || issues.length > 0) return first();
    const id = closed.correlationId;
    if (f.closedIds.has(id) || f.openIndex.has(id)) {
      return refuse({
        path: `closedCards.${i}.correlationId`,
        message: f.closedIds.has(id) ? "is repeated (a card closes once)" : "is also an open card",
      });
    }
    f.closedIds.add(id);
    f.closedCards.push(Object.freeze(closed));
  }
  if (s.sessionId !== undefined) f.sessionId = check.readWireId(s.sessionId, "sessionId", issues);
  if (s.provenance !== undefined) {
    const p = record(s.provenance, "provenance", issues);
    if (p !== null) f.provenance = Object.freeze(check.readProvenance(p, "provenance", issues));
  }
  if (s.state !== undefined) {
    const st = record(s.state, "state", issues);
    if (st !== null) {
      f.state = Object.freeze({
        version: check.readVersion(st.version, "state.version", issues),
        snapshot: st.snapshot,
      });
    }
  }
  if (s.done !== undefined) {
    const d = record(s.done, "done", issues);
    if (d !== null) {
      const done = check.readDone(d, "done", issues);
      if (done.usage !== undefined) Object.freeze(done.usage);
      f.done = Object.freeze(done);
    }
  }
  if (s.error !== undefined) {
    const e = record(s.error, "error", issues);
    if (e !== null) f.error = Object.freeze(check.readError(e, "error", issues));
  }
  f.statusReason = check.readOptString(s.statusReason, "statusReason", issues);
  if (issues.length > 0) return first();
  const extRefusal = readExtensions(f, s.extensionState, s.extensionEvents, lastSeq, issues);
  if (extRefusal !== null) return refuse(extRefusal);
  // The status must agree with what the fold would have produced.
  const open = f.openIndex.size;
  if (status === "awaiting-input" && open === 0) {
    return refuse({ path: "status", message: "is awaiting-input but no card is open" });
  }
  const ended = status === "completed" || status === "failed" || status === "cancelled";
  if ((status === "running" || ended) && open > 0) {
    return refuse({ path: "status", message: `is ${status} but cards are open` });
  }
  for (let i = 0; i < f.tools.size; i++) {
    const t = f.tools.get(i).status;
    if (ended ? t === "running" : t === "unfinished") {
      return refuse({
        path: `tools.${i}.status`,
        message: `is ${t} but the turn is ${status}` +
          (ended ? " (a finished turn has no running tool call)" : ""),
      });
    }
  }
  if ((status === "completed") !== (f.done !== undefined)) {
    return refuse({
      path: "done",
      message: status === "completed" ? "is missing" : "is only allowed when completed",
    });
  }
  if ((status === "failed") !== (f.error !== undefined)) {
    return refuse({
      path: "error",
      message: status === "failed" ? "is missing" : "is only allowed when failed",
    });
  }
  return ok(f);
}
