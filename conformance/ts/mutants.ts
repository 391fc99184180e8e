/**
 * The mutation check's switches: for each rule of `conformance/rules.json`,
 * harness {@link Hooks} that make the TypeScript testee behave as if the
 * library did not enforce that one rule (a check removed, a permission
 * withdrawn, an effect lost). They live only here, in the testee's harness:
 * they repair an input field the rule checks, drop or rename a refusal,
 * or post-process an outcome. The library itself is never changed.
 *
 * A case whose `kill` names a rule must change its outcome under that
 * rule's mutant; `deno task conformance --mutation` checks it.
 *
 * @module
 */
import {
  DOCUMENT_VERDICTS,
  foldFramesOf,
  type Hooks,
  type Json,
  type JsonObject,
} from "./kinds.ts";
import { parseChatEnvelope } from "../../src/v1/parse.ts";
import { parseReportBlock } from "../../src/blocks/report_block.ts";
import type { ChatEventEnvelope } from "../../src/v1/types.ts";

type Obj = JsonObject;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));
const isNonEmpty = (v: unknown) => typeof v === "string" && v !== "";
const isFiniteNonNeg = (v: unknown) => typeof v === "number" && Number.isFinite(v) && v >= 0;
/** The library's own verdict on a document, unmutated (an edge refusal applies only to valid ones). */
const validAsIs = (document: string, value: Json) => DOCUMENT_VERDICTS[document]?.(value) === true;

// ---------------------------------------------------------------------------
// v1 frame repairs: each makes one rule's check pass on an envelope

type Repair = (env: Obj) => void;

/** Apply `repair` to a copy of an envelope (non-objects pass through). */
function repairEnvelope(value: Json, repair: Repair): Json {
  if (!isObj(value)) return value;
  const env = clone(value);
  repair(env);
  return env;
}

/** Repair the event of an envelope when its type is one of `types`. */
function onEvent(types: string[], repair: (e: Obj) => void): Repair {
  return (env) => {
    const e = env.event;
    if (isObj(e) && typeof e.type === "string" && types.includes(e.type)) repair(e);
  };
}

/** Give each of `keys` a valid value when it is not one. */
function fix(e: Obj, keys: string[], ok: (v: unknown) => boolean, value: Json): void {
  for (const k of keys) if (!ok(e[k])) e[k] = value;
}
/** Delete each optional key of `keys` whose value is not valid. */
function dropBad(e: Obj, keys: string[], ok: (v: unknown) => boolean): void {
  for (const k of keys) if (k in e && !ok(e[k])) delete e[k];
}

const isString = (v: unknown) => typeof v === "string";

/**
 * Hooks of a rule checked on v1 envelopes (schema documents and fold
 * frames). The mutant is a faulty implementation of the rule in both
 * directions: `repair` makes the rule's check pass (the check removed), and
 * `edge`, when given, detects values the rule allows at its edge (an empty
 * string, a bound itself, `null`), which the mutant refuses (the permission
 * withdrawn, as an off-by-one or over-strict implementation would).
 */
function v1Repair(repair: Repair, edge?: (env: Obj) => boolean): Hooks {
  const atEdge = (env: Json) => edge !== undefined && isObj(env) && edge(env);
  return {
    document(document, value) {
      if (document === "v1/chat-event-envelope") return repairEnvelope(value, repair);
      if (document === "v1/chat-event") {
        const env = repairEnvelope({ event: value }, repair);
        return isObj(env) ? env.event : env;
      }
      return value;
    },
    verdict(document, value, valid) {
      const edgeValid = validAsIs(document, value);
      if (document === "v1/chat-event-envelope" && atEdge(value) && edgeValid) return false;
      if (document === "v1/chat-event" && atEdge({ event: value }) && edgeValid) return false;
      return valid;
    },
    frame: (value) => repairEnvelope(value, repair),
    beforePush: (step) =>
      atEdge(step.raw) && parseChatEnvelope(step.raw).ok ? "invalid-envelope" : null,
  };
}

/** `edge` over the event of an envelope when its type is one of `types`. */
function eventEdge(types: string[], edge: (e: Obj) => boolean): (env: Obj) => boolean {
  return (env) => {
    const e = env.event;
    return isObj(e) && typeof e.type === "string" && types.includes(e.type) && edge(e);
  };
}

const V1_TYPES = new Set([
  "session",
  "delta",
  "reasoning",
  "tool_call",
  "tool_progress",
  "tool_result",
  "provenance",
  "card",
  "card_closed",
  "state",
  "done",
  "error",
  "navigate",
  "turn_status",
  "ext",
  "elided",
]);
const ENVELOPE_KEYS = new Set([
  "schemaVersion",
  "conversationId",
  "turnId",
  "eventId",
  "seq",
  "at",
  "event",
]);
const EVENT_KEYS: Record<string, string[]> = {
  session: ["sessionId"],
  delta: ["text"],
  reasoning: ["text"],
  tool_call: ["callId", "name", "input"],
  tool_progress: ["callId", "message", "progress"],
  tool_result: ["callId", "name", "ok", "summary", "output", "blocks"],
  provenance: ["engine", "model", "provider", "accountRoute"],
  card: ["card"],
  card_closed: ["correlationId", "resolution"],
  state: ["version", "snapshot"],
  done: ["stopReason", "usage"],
  error: ["message", "code", "retryable", "retryAfterMs"],
  navigate: ["href"],
  turn_status: ["status", "reason"],
};

/** Whether an envelope carries a key the contract does not name (envelope, event, usage, blocks). */
function hasUnknownKeys(env: unknown, eventOnly = false): boolean {
  if (!isObj(env)) return false;
  if (!eventOnly && Object.keys(env).some((k) => !ENVELOPE_KEYS.has(k))) return true;
  const e = eventOnly ? env : env.event;
  if (!isObj(e) || typeof e.type !== "string") return false;
  const known = new Set(["type", ...(EVENT_KEYS[e.type] ?? [])]);
  if (Object.keys(e).some((k) => !known.has(k))) return true;
  if (isObj(e.usage)) {
    const u = new Set(["totalTokens", "inputTokens", "outputTokens", "costUsd"]);
    if (Object.keys(e.usage).some((k) => !u.has(k))) return true;
  }
  if (Array.isArray(e.blocks)) {
    for (const b of e.blocks) {
      if (isObj(b) && Object.keys(b).some((k) => !["id", "text", "sources"].includes(k))) {
        return true;
      }
      if (isObj(b) && Array.isArray(b.sources)) {
        for (const s of b.sources) {
          if (isObj(s) && Object.keys(s).some((k) => k !== "ref" && k !== "label")) return true;
        }
      }
    }
  }
  return false;
}

// ---------------------------------------------------------------------------
// Generic helpers over outcomes

/** Fold: the refusal with `code` (and matching `when`) is dropped (the frame ignored). */
function dropFoldRefusal(
  codes: string[],
  when: (error: { code: string; status?: string }, env?: ChatEventEnvelope) => boolean = () => true,
): Hooks {
  return {
    refusal: (error, step) =>
      codes.includes(error.code) && when(error, step.envelope) ? "drop" : "report",
  };
}

/** `{ok: false, code}` outcomes with one of `codes` (and `when`) become `{ok: true}` with `replacement`. */
function acceptRefusal(
  codes: string[],
  replacement: Obj = {},
  when: (input: Obj, outcome: Obj) => boolean = () => true,
): Hooks {
  return {
    outcome(_kind, input, outcome) {
      if (
        outcome.ok === false && codes.includes(outcome.code as string) && when(input, outcome)
      ) return { ok: true, ...replacement };
      return outcome;
    },
  };
}

/** Legacy: each refused frame result with one of `codes` (and `when`) becomes accepted. */
function acceptLegacy(
  codes: string[],
  when: (frame: Obj, context: Obj) => boolean = () => true,
): Hooks {
  return {
    outcome(_kind, input, outcome) {
      const frames = input.frames as Obj[];
      const results = (outcome.results as Obj[]).map((r, i) =>
        r.ok === false && codes.includes(r.code as string) &&
          when(frames[i], input.context as Obj)
          ? { ok: true, envelope: null }
          : r
      );
      return { results };
    },
  };
}

function mapState(f: (state: Obj, input: Obj, outcome: Obj) => void): Hooks {
  return {
    outcome(kind, input, outcome) {
      if (kind !== "fold") return outcome;
      const out = clone(outcome);
      f(out.state as Obj, input, out);
      return out;
    },
  };
}

/** The parsed envelopes of a fold case, each with whether it was applied. */
function foldEnvelopes(input: Obj, outcome: Obj): { env: ChatEventEnvelope; applied: boolean }[] {
  const refused = new Set((outcome.refusals as Obj[]).map((r) => r.index));
  const out: { env: ChatEventEnvelope; applied: boolean }[] = [];
  foldFramesOf(input).forEach((f, i) => {
    let v: unknown = f.value;
    if (f.text !== undefined) {
      try {
        v = JSON.parse(f.text);
      } catch {
        return;
      }
    }
    const p = parseChatEnvelope(v);
    if (p.ok) out.push({ env: p.value, applied: !refused.has(i) });
  });
  return out;
}

// ---------------------------------------------------------------------------
// Helpers of this branch's rules (wire ids, extension events)

/** `s` with every CR, LF, NUL and lone surrogate written `x`. */
function wireRepaired(s: string): string {
  return s.replace(
    /[\r\n\0]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    "x",
  );
}
const ID_KEYS = ["conversationId", "turnId", "eventId"];
const EVENT_ID_KEYS = ["callId", "sessionId", "correlationId"];
/** Apply `f` to every v1 id of an envelope (the envelope's, the event's, a card's). */
function eachId(env: Obj, f: (o: Obj, k: string) => void): void {
  for (const k of ID_KEYS) if (typeof env[k] === "string") f(env, k);
  const e = env.event;
  if (!isObj(e)) return;
  for (const k of EVENT_ID_KEYS) if (typeof e[k] === "string") f(e, k);
  if (isObj(e.card) && typeof e.card.correlationId === "string") f(e.card, "correlationId");
}
/** The nesting depth of `v` (a scalar 0) and its JSON value count. */
function jsonSize(v: Json): { depth: number; values: number } {
  let values = 0;
  const walk = (x: Json, level: number): number => {
    values++;
    if (Array.isArray(x)) return Math.max(level + 1, ...x.map((y) => walk(y, level + 1)));
    if (isObj(x)) return Math.max(level + 1, ...Object.values(x).map((y) => walk(y, level + 1)));
    return level;
  };
  const depth = walk(v, 0);
  return { depth, values };
}
const EXT_NAME = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*(?:\.[a-z][a-z0-9]*(?:_[a-z0-9]+)*)+$/;
const isExtName = (v: unknown) => typeof v === "string" && v.length <= 128 && EXT_NAME.test(v);

// ---------------------------------------------------------------------------
// SSE helpers

const CR_MARK = "\ue000";
const NUL_MARK = "\ue001";

function sseText(input: Obj): string {
  if (typeof input.text === "string") return input.text;
  const dec = new TextDecoder("utf-8", { ignoreBOM: true });
  const bytes = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  if (typeof input.base64 === "string") return dec.decode(bytes(input.base64));
  // Byte chunks next to each other are decoded together (a character may span them).
  let out = "";
  let pending: number[] = [];
  for (const c of input.chunks as Json[]) {
    if (typeof c === "string") {
      out += dec.decode(new Uint8Array(pending)) + c;
      pending = [];
    } else pending.push(...bytes((c as Obj).base64 as string));
  }
  return out + dec.decode(new Uint8Array(pending));
}

/** The lines of `text` with their terminators (CRLF, CR or LF). */
function linesOf(text: string): { line: string; end: string }[] {
  const out: { line: string; end: string }[] = [];
  const re = /\r\n|\r|\n/g;
  let pos = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    out.push({ line: text.slice(pos, m.index), end: m[0] });
    pos = m.index + m[0].length;
  }
  if (pos < text.length) out.push({ line: text.slice(pos), end: "" });
  return out;
}

/** SSE: rewrite the stream's lines (as one text). */
function sseLines(f: (lines: { line: string; end: string }[]) => void): Hooks {
  return {
    input(kind, input) {
      if (kind !== "sse" && kind !== "fold") return input;
      if (kind === "fold" && typeof input.sse !== "string") return input;
      const text = kind === "sse" ? sseText(input) : input.sse as string;
      const bom = text.startsWith("\ufeff") ? "\ufeff" : "";
      const lines = linesOf(text.slice(bom.length));
      f(lines);
      const out = bom + lines.map((l) => l.line + l.end).join("");
      const { text: _t, base64: _b, chunks: _c, ...rest } = input;
      return kind === "sse" ? { ...rest, text: out } : { ...input, sse: out };
    },
  };
}

/** SSE: map every string of the outcome (messages, comments, last event id). */
function mapSseStrings(outcome: Obj, f: (s: string) => string): Obj {
  const m = (v: Json): Json => (typeof v === "string" ? f(v) : v);
  const messages = (outcome.messages as Obj[]).map((x) => ({
    id: m(x.id),
    event: m(x.event),
    data: m(x.data),
    lastEventId: m(x.lastEventId),
  }));
  return {
    ...outcome,
    messages,
    comments: (outcome.comments as string[]).map(f),
    lastEventId: m(outcome.lastEventId),
  };
}

/** The field name and value of one SSE line (`null` for blank lines and comments). */
function fieldOf(line: string): { name: string; value: string } | null {
  if (line === "" || line.startsWith(":")) return null;
  const colon = line.indexOf(":");
  if (colon === -1) return { name: line, value: "" };
  const v = line.slice(colon + 1);
  return { name: line.slice(0, colon), value: v.startsWith(" ") ? v.slice(1) : v };
}

// ---------------------------------------------------------------------------
// Blocks helpers

type Segment = { kind: string; text?: string; raw?: string; reason?: string; block?: Json };

function merge(segments: Segment[]): Segment[] {
  const out: Segment[] = [];
  for (const s of segments) {
    const last = out[out.length - 1];
    const text = s.kind === "text" ? s.text! : undefined;
    if (text !== undefined && last?.kind === "text") last.text += text;
    else if (text !== undefined) {
      if (text !== "") out.push({ kind: "text", text });
    } else out.push(s);
  }
  return out;
}
const asText = (s: Segment): Segment => (s.kind === "text" ? s : { kind: "text", text: s.raw });

function mapSegments(f: (segments: Segment[], input: Obj) => Segment[]): Hooks {
  return {
    outcome(kind, input, outcome) {
      if (kind !== "blocks") return outcome;
      return { segments: merge(f(clone(outcome.segments) as Segment[], input)) as unknown as Json };
    },
  };
}
const reasonToText = (reason: string) =>
  mapSegments((segs) =>
    segs.map((s) => (s.kind === "invalid" && s.reason === reason ? asText(s) : s))
  );

function bodyOf(raw: string, tag: "ask" | "report"): string {
  return raw.slice(tag.length + 2, raw.length - tag.length - 3).trim();
}

// ---------------------------------------------------------------------------
// The mutants, by rule id

const TERMINAL = new Set(["completed", "failed", "cancelled"]);
const CAPABILITIES = [
  "connectionReplay",
  "persistedHistory",
  "persistedDecisions",
  "completedToolCheckpoints",
  "interruptedTurnRecovery",
];
const PAUSED = new Set(["interrupted", "needs-reconciliation"]);

/** Harness hooks that switch off one rule, by rule id. */
export const MUTANTS: Readonly<Record<string, () => Hooks>> = {
  // --- v1 envelope and events (schema documents and fold frames)
  "v1.envelope.object": () => ({
    verdict: (document, value, valid) =>
      (document === "v1/chat-event-envelope" || document === "v1/chat-event") && !isObj(value)
        ? true
        : valid,
    refusal: (_e, step) => (isObj(step.raw) ? "report" : "drop"),
  }),
  "v1.envelope.schema-version": () => v1Repair((env) => (env.schemaVersion = 1)),
  "v1.envelope.ids": () =>
    v1Repair(
      (env) => fix(env, ["conversationId", "turnId", "eventId"], isNonEmpty, "x"),
      (env) =>
        ["conversationId", "turnId", "eventId"].some((k) =>
          typeof env[k] === "string" && /^.$|\s|[^\x20-\x7e]/u.test(env[k] as string)
        ),
    ),
  "v1.envelope.wire-ids": () =>
    v1Repair(
      (env) => eachId(env, (o, k) => (o[k] = wireRepaired(o[k] as string))),
      (env) => {
        let edge = false;
        eachId(env, (o, k) => {
          // a surrogate pair, a tab or another control character other than CR, LF, NUL
          for (const ch of o[k] as string) {
            const c = ch.codePointAt(0)!;
            if (c > 0xffff || (c > 0 && c < 9) || c === 9 || c === 0x7f) edge = true;
          }
        });
        return edge;
      },
    ),
  "v1.event.unique-block-ids": () =>
    v1Repair(
      onEvent(["tool_result"], (e) => {
        if (!Array.isArray(e.blocks)) return;
        e.blocks.forEach((b, i) => {
          if (isObj(b) && typeof b.id === "string") b.id = `${b.id}#${i}`;
        });
      }),
      eventEdge(["tool_result"], (e) => Array.isArray(e.blocks) && e.blocks.length >= 2),
    ),
  "v1.event.ext": () =>
    v1Repair(
      onEvent(["ext"], (e) => {
        fix(e, ["name"], isExtName, "a.b");
        if ("channel" in e && !["event", "state", "transient"].includes(e.channel as string)) {
          delete e.channel;
        }
        if (!("data" in e)) e.data = null;
      }),
      // over-strict: only a two-segment name, object data and no channel
      eventEdge(["ext"], (e) =>
        "channel" in e || !isObj(e.data) ||
        (typeof e.name === "string" && (e.name.length === 128 || e.name.split(".").length > 2))),
    ),
  "v1.event.extension-data-bounds": () =>
    v1Repair(
      onEvent(["ext"], (e) => {
        const { depth, values } = jsonSize(e.data ?? null);
        if (depth > 32 || values > 10_000) e.data = null;
      }),
      eventEdge(["ext"], (e) => {
        const { depth, values } = jsonSize(e.data ?? null);
        return depth === 32 || values === 10_000;
      }),
    ),
  "v1.event.elided": () =>
    v1Repair(
      onEvent(
        ["elided"],
        (e) => fix(e, ["of"], (v) => v === "navigate" || v === "ext", "navigate"),
      ),
      eventEdge(["elided"], () => true), // over-strict: no stand-in accepted
    ),
  "v1.envelope.seq": () =>
    v1Repair((env) => {
      const s = env.seq;
      if (!(typeof s === "number" && Number.isSafeInteger(s) && s >= 1)) env.seq = 1;
    }, (env) => env.seq === Number.MAX_SAFE_INTEGER),
  "v1.envelope.at": () =>
    v1Repair(
      (env) => dropBad(env, ["at"], isFiniteNonNeg),
      (env) => typeof env.at === "number" && (env.at === 0 || !Number.isInteger(env.at)),
    ),
  "v1.envelope.event": () =>
    v1Repair((env) => {
      if (!isObj(env.event) || typeof env.event.type !== "string") env.event = { type: "done" };
    }),
  "v1.envelope.event-type": () =>
    v1Repair((env) => {
      const e = env.event;
      if (isObj(e) && typeof e.type === "string" && !V1_TYPES.has(e.type)) e.type = "done";
    }),
  "v1.envelope.unknown-keys": () => ({
    verdict(document, value, valid) {
      if (document === "v1/chat-event-envelope" && hasUnknownKeys(value)) return false;
      if (document === "v1/chat-event" && hasUnknownKeys(value, true)) return false;
      return valid;
    },
    beforePush: (step) => (hasUnknownKeys(step.raw) ? "invalid-envelope" : null),
  }),
  "v1.event.session": () =>
    v1Repair(
      onEvent(["session"], (e) => fix(e, ["sessionId"], isNonEmpty, "s")),
      eventEdge(["session"], (e) => typeof e.sessionId === "string" && e.sessionId.length === 1),
    ),
  "v1.event.text": () =>
    v1Repair(
      onEvent(["delta", "reasoning"], (e) => fix(e, ["text"], isString, "")),
      eventEdge(["delta", "reasoning"], (e) => e.text === ""),
    ),
  "v1.event.tool-call": () =>
    v1Repair(
      onEvent(["tool_call"], (e) => fix(e, ["callId", "name"], isNonEmpty, "x")),
      eventEdge(["tool_call"], (e) => e.input === null || Array.isArray(e.input)),
    ),
  "v1.event.tool-progress": () =>
    v1Repair(
      onEvent(["tool_progress"], (e) => {
        fix(e, ["callId"], isNonEmpty, "x");
        dropBad(e, ["message"], isString);
        dropBad(e, ["progress"], (p) => typeof p === "number" && p >= 0 && p <= 1);
      }),
      eventEdge(["tool_progress"], (e) => e.progress === 0 || e.progress === 1 || e.message === ""),
    ),
  "v1.event.tool-result": () =>
    v1Repair(
      onEvent(["tool_result"], (e) => {
        fix(e, ["callId", "name"], isNonEmpty, "x");
        fix(e, ["ok"], (v) => typeof v === "boolean", true);
        dropBad(e, ["summary"], isString);
      }),
      eventEdge(["tool_result"], (e) => e.summary === "" || e.output === null),
    ),
  "v1.event.grounded-blocks": () =>
    v1Repair(
      onEvent(["tool_result"], (e) => {
        if ("blocks" in e) delete e.blocks;
      }),
      eventEdge(["tool_result"], (e) =>
        Array.isArray(e.blocks) &&
        (e.blocks.length === 0 ||
          e.blocks.some((b) => isObj(b) && Array.isArray(b.sources) && b.sources.length === 0))),
    ),
  "v1.event.provenance": () =>
    v1Repair(
      onEvent(["provenance"], (e) => {
        fix(e, ["engine", "model"], isNonEmpty, "x");
        dropBad(e, ["provider"], isString);
        dropBad(e, ["accountRoute"], (v) => v === null || typeof v === "string");
      }),
      eventEdge(["provenance"], (e) => e.accountRoute === null || e.provider === ""),
    ),
  "v1.event.card": () =>
    v1Repair(
      onEvent(["card"], (e) => {
        if (!isObj(e.card)) e.card = {};
        const c = e.card as Obj;
        fix(c, ["correlationId"], isNonEmpty, "k");
        fix(c, ["prompt"], isString, "");
        fix(c, ["createdAt"], (v) => typeof v === "number" && Number.isFinite(v), 0);
      }),
      eventEdge(["card"], (e) =>
        isObj(e.card) &&
        (e.card.prompt === "" || (typeof e.card.createdAt === "number" && e.card.createdAt < 0) ||
          (isObj(e.card.presentation) &&
            !["radio", "checkbox", "text", "date", "slider", "select"].includes(
              e.card.presentation.kind as string,
            )))),
    ),
  "v1.event.card-closed": () =>
    v1Repair(
      onEvent(["card_closed"], (e) => {
        fix(e, ["correlationId"], isNonEmpty, "k");
        dropBad(
          e,
          ["resolution"],
          (v) =>
            ["submitted", "declined", "cancelled", "expired", "interrupted"].includes(v as string),
        );
      }),
      eventEdge(["card_closed"], (e) => !("resolution" in e) || e.resolution === "interrupted"),
    ),
  "v1.event.state": () =>
    v1Repair(
      onEvent(["state"], (e) => {
        fix(e, ["version"], (v) => typeof v === "number" && Number.isSafeInteger(v) && v >= 0, 0);
        if (!("snapshot" in e)) e.snapshot = null;
      }),
      eventEdge(["state"], (e) => e.version === 0 || e.snapshot === null),
    ),
  "v1.event.done": () =>
    v1Repair(
      onEvent(["done"], (e) => {
        dropBad(e, ["stopReason"], isString);
        if ("usage" in e && !isObj(e.usage)) delete e.usage;
        if (isObj(e.usage)) {
          dropBad(
            e.usage,
            ["totalTokens", "inputTokens", "outputTokens", "costUsd"],
            isFiniteNonNeg,
          );
        }
      }),
      eventEdge(["done"], (e) =>
        isObj(e.usage) &&
        (Object.keys(e.usage).length === 0 || Object.values(e.usage).some((v) => v === 0))),
    ),
  "v1.event.error": () =>
    v1Repair(
      onEvent(["error"], (e) => {
        fix(e, ["message"], isString, "");
        dropBad(e, ["code"], isString);
        if (typeof e.retryable !== "boolean") e.retryable = "retryAfterMs" in e;
      }),
      eventEdge(["error"], (e) => e.message === "" || e.code === ""),
    ),
  "v1.event.retry-rule": () =>
    v1Repair(
      onEvent(["error"], (e) => {
        if ("retryAfterMs" in e && (e.retryable !== true || !isFiniteNonNeg(e.retryAfterMs))) {
          delete e.retryAfterMs;
        }
      }),
      eventEdge(["error"], (e) => e.retryable === true && e.retryAfterMs === 0),
    ),
  "v1.event.navigate": () =>
    v1Repair(
      onEvent(["navigate"], (e) => fix(e, ["href"], isString, "")),
      eventEdge(["navigate"], (e) => e.href === ""),
    ),
  "v1.event.turn-status": () =>
    v1Repair(
      onEvent(["turn_status"], (e) => {
        fix(
          e,
          ["status"],
          (v) =>
            ["running", "cancelled", "interrupted", "needs-reconciliation"].includes(v as string),
          "running",
        );
        dropBad(e, ["reason"], isString);
      }),
      eventEdge(["turn_status"], (e) => e.reason === ""),
    ),

  // --- ChatStateV1 documents
  "v1.state.shape": () =>
    stateRepair((s) => {
      fix(s, ["conversationId", "turnId"], isNonEmpty, "c");
      fix(s, ["text", "reasoning"], isString, "");
      fix(s, ["tools", "openCards", "closedCards"], Array.isArray, []);
      fix(
        s,
        ["status"],
        (v) =>
          [
            "running",
            "awaiting-input",
            "completed",
            "failed",
            "cancelled",
            "interrupted",
            "needs-reconciliation",
          ].includes(v as string),
        "cancelled",
      );
      const seqs = toolsOf(s).flatMap((t) => [t.startedSeq, t.finishedSeq]).filter((n) =>
        typeof n === "number"
      ) as number[];
      const floor = Math.max(isNonEmpty(s.lastEventId) ? 1 : 0, ...seqs);
      fix(s, ["lastSeq"], (v) => typeof v === "number" && Number.isSafeInteger(v) && v >= 0, floor);
      dropBad(s, ["sessionId"], isNonEmpty);
      dropBad(s, ["statusReason"], isString);
    }, (s) => Object.keys(s).some((k) => !STATE_KEYS.has(k))),
  "v1.state.last-event-id": () =>
    stateRepair((s) => {
      s.lastEventId = s.lastSeq === 0 ? null : (isNonEmpty(s.lastEventId) ? s.lastEventId : "e");
    }, (s) => s.lastSeq === 0 && s.lastEventId === null),
  "v1.state.status-cards": () =>
    stateRepair((s) => {
      const open = Array.isArray(s.openCards) ? s.openCards.length : 0;
      if (s.status === "awaiting-input" && open === 0) {
        s.openCards = [{ correlationId: "repair", prompt: "", createdAt: 0 }];
      }
      if (
        ["running", "completed", "failed", "cancelled"].includes(s.status as string) && open > 0
      ) {
        s.openCards = [];
      }
    }, (s) =>
      listOf(s.openCards).length > 0 &&
      ["interrupted", "needs-reconciliation"].includes(s.status as string)),
  "v1.state.status-terminal": () =>
    stateRepair((s) => {
      if (s.status === "completed" && !("done" in s)) s.done = {};
      if (s.status !== "completed") delete s.done;
      if (s.status === "failed" && !("error" in s)) s.error = { message: "", retryable: false };
      if (s.status !== "failed") delete s.error;
    }, (s) => s.status === "cancelled" && !("error" in s) && !("done" in s)),
  "v1.state.tool-finished": () =>
    stateRepair((s) => {
      for (const t of Array.isArray(s.tools) ? s.tools : []) {
        if (!isObj(t)) continue;
        if (t.status === "running") delete t.finishedSeq;
        else if (!("finishedSeq" in t)) t.finishedSeq = t.startedSeq;
      }
    }, (s) => toolsOf(s).some((t) => t.status === "error")),
  "v1.state.tool-unfinished": () =>
    stateRepair((s) => {
      const ended = ["completed", "failed", "cancelled"].includes(s.status as string);
      for (const t of Array.isArray(s.tools) ? s.tools : []) {
        if (!isObj(t)) continue;
        if (ended && t.status === "running") {
          t.status = "unfinished";
          t.finishedSeq = t.startedSeq;
        }
        if (!ended && t.status === "unfinished") t.status = "error";
      }
    }, (s) => toolsOf(s).some((t) => t.status === "unfinished")),
  "v1.state.extensions": () =>
    stateRepair((s) => {
      if ("extensionState" in s) {
        const st = s.extensionState;
        if (!isObj(st) || Object.keys(st).length === 0) delete s.extensionState;
        else {
          const fixed: Obj = {};
          for (const [k, v] of Object.entries(st)) {
            const e = isObj(v) ? { ...v } : {};
            if (!("data" in e)) e.data = null;
            fix(e, ["seq"], (n) => typeof n === "number" && Number.isSafeInteger(n) && n >= 1, 1);
            fixed[isExtName(k) ? k : "a.b"] = e;
          }
          s.extensionState = fixed;
        }
      }
      if ("extensionEvents" in s) {
        const ev = s.extensionEvents;
        if (!Array.isArray(ev) || ev.length === 0) delete s.extensionEvents;
        else {
          s.extensionEvents = ev.map((v) => {
            const e = isObj(v) ? { ...v } : {};
            if (!("data" in e)) e.data = null;
            fix(e, ["name"], isExtName, "a.b");
            return e;
          });
        }
      }
    }, (s) => isObj(s.extensionState) && Object.keys(s.extensionState).length === 1),
  "v1.state.unique-ids": () =>
    stateRepair((s) => {
      let n = 0;
      const seen = new Set<Json>();
      for (const t of Array.isArray(s.tools) ? s.tools : []) {
        if (isObj(t)) {
          if (seen.has(t.callId)) t.callId = `repair-${n++}`;
          seen.add(t.callId);
        }
      }
      const cards = new Set<Json>();
      for (const list of [s.openCards, s.closedCards]) {
        for (const c of Array.isArray(list) ? list : []) {
          if (isObj(c)) {
            if (cards.has(c.correlationId)) c.correlationId = `repair-${n++}`;
            cards.add(c.correlationId);
          }
        }
      }
    }, (s) =>
      toolsOf(s).some((t) =>
        listOf(s.openCards).concat(listOf(s.closedCards)).some((c) =>
          isObj(c) && c.correlationId === t.callId
        )
      )),
  "v1.state.seq-bounds": () =>
    stateRepair((s) => {
      const last = typeof s.lastSeq === "number" ? s.lastSeq : 0;
      for (const t of Array.isArray(s.tools) ? s.tools : []) {
        if (!isObj(t)) continue;
        if (typeof t.startedSeq === "number" && t.startedSeq > last) t.startedSeq = last;
        if (typeof t.finishedSeq === "number" && t.finishedSeq > last) t.finishedSeq = last;
      }
    }, (s) => toolsOf(s).some((t) => t.startedSeq === s.lastSeq || t.finishedSeq === s.lastSeq)),
  "v1.capabilities.shape": () =>
    documentRepair((d) => d === "v1/chat-capabilities", (c) => {
      for (const k of CAPABILITIES) fix(c, [k], (v) => typeof v === "boolean", false);
    }, (c) => Object.keys(c).some((k) => !CAPABILITIES.includes(k))),

  // --- other documents
  "v0.event.shape": () => ({
    // Every object passes (field checks removed), but an empty string where v0 allows it,
    // or a non-integer state version, is refused.
    verdict(document, value, valid) {
      if (document !== "v0/chat-event" || !isObj(value)) return valid;
      const edge = Object.values(value).some((v) => v === "") ||
        (typeof value.version === "number" && !Number.isInteger(value.version));
      return edge && valid ? false : true;
    },
  }),
  "cards.snapshot.shape": () => ({
    // Every object passes (shape checks removed), but a valid presentation-less card is refused.
    verdict: (document, value, valid) => {
      if (document !== "cards/open-card-snapshot" && document !== "cards/card-spec") return valid;
      if (!isObj(value)) return valid;
      return valid && !("presentation" in value) ? false : true;
    },
  }),
  "cards.response.shape": () => ({
    // Every object passes, but a valid empty submit value is refused.
    verdict: (document, value, valid) => {
      if (document !== "cards/card-response" || !isObj(value)) return valid;
      return valid && isObj(value.value) && Object.keys(value.value).length === 0 ? false : true;
    },
  }),
  "blocks.normalised-strings": () =>
    blocksRepair((b) => {
      const walk = (v: Json): Json => {
        if (typeof v === "string") return v.trim() === "" ? "x" : v.trim();
        if (Array.isArray(v)) return v.map(walk);
        if (isObj(v)) {
          const o: Obj = {};
          for (const [k, x] of Object.entries(v)) o[k] = k === "goalReport" ? x : walk(x);
          return o;
        }
        return v;
      };
      Object.assign(b, walk(b) as Obj);
    }, (b) => /"[^"]*\s[^"]*"/.test(JSON.stringify(b))),
  "blocks.report.plans-or-goal": () =>
    blocksRepair((b) => {
      if (Array.isArray(b.plans) && b.plans.length === 0 && !("goalReport" in b)) {
        b.plans = [{ title: "x" }];
      }
    }, (b) => Array.isArray(b.plans) && b.plans.length === 0),
  "blocks.goal-report-ref": () =>
    blocksRepair((b) => {
      if ("goalReport" in b) {
        b.goalReport = { schemaVersion: 1, goalId: "g", reportId: "r", bodySha256: "a".repeat(64) };
      }
    }, (b) => "goalReport" in b),
  "blocks.non-empty-lists": () =>
    blocksRepair((b) => {
      const strip = (o: Obj, k: string) => {
        if (Array.isArray(o[k]) && (o[k] as Json[]).length === 0) delete o[k];
      };
      strip(b, "options");
      strip(b, "refs");
      for (const p of Array.isArray(b.plans) ? b.plans : []) if (isObj(p)) strip(p, "items");
    }, (b) =>
      [b.options, b.refs, ...listOf(b.plans).map((p) => (isObj(p) ? p.items : undefined))]
        .some((l) => Array.isArray(l) && l.length === 1)),
  "message.part-types": () =>
    messageRepair((m) => {
      const known = (t: unknown) =>
        typeof t === "string" &&
        ([
          "text",
          "reasoning",
          "source-url",
          "source-document",
          "file",
          "step-start",
          "dynamic-tool",
        ]
          .includes(t) || (t.startsWith("tool-") && t.length > 5) || t.startsWith("data-"));
      if (Array.isArray(m.parts)) {
        m.parts = m.parts.map((p) => (isObj(p) && known(p.type) ? p : { type: "step-start" }));
      }
    }, (m) =>
      listOf(m.parts).some((p) =>
        isObj(p) && (p.type === "dynamic-tool" || p.type === "source-document")
      )),
  "message.tool-states": () =>
    messageRepair((m) => {
      if (!Array.isArray(m.parts)) return;
      m.parts = m.parts.map((p) => {
        if (!isObj(p) || typeof p.type !== "string") return p;
        if (!p.type.startsWith("tool-") && p.type !== "dynamic-tool") return p;
        const { approval: _a, output: _o, errorText: _e, rawInput: _r, ...rest } = p;
        return { ...rest, state: "input-available", input: "input" in p ? p.input : null };
      });
    }, (m) =>
      listOf(m.parts).some((p) =>
        isObj(p) && (p.state === "output-denied" || p.state === "approval-responded")
      )),
  "message.data-part": () =>
    messageRepair((m) => {
      if (!Array.isArray(m.parts)) return;
      m.parts = m.parts.map((p) => {
        if (!isObj(p) || typeof p.type !== "string" || !p.type.startsWith("data-")) return p;
        return { ...p, type: "data-x", data: "data" in p ? p.data : null };
      });
    }, (m) => listOf(m.parts).some((p) => isObj(p) && "data" in p && p.data === null)),
  "message.non-assistant-parts": () =>
    messageRepair((m) => {
      if (Array.isArray(m.parts) && m.parts.length === 0) m.role = "assistant";
    }, (m) => m.role === "assistant" && listOf(m.parts).length === 0),
  "message.iso-time": () =>
    messageRepair((m) => {
      const ok = (v: unknown) => {
        if (typeof v !== "string") return false;
        if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(v)) return false;
        const day = new Date(`${v.slice(0, 10)}T00:00:00Z`);
        return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === v.slice(0, 10);
      };
      fix(m, ["createdAt"], ok, "2026-01-01T00:00:00Z");
      for (const d of Array.isArray(m.delivery) ? m.delivery : []) {
        if (isObj(d)) fix(d, ["at"], ok, "2026-01-01T00:00:00Z");
      }
    }, (m) => typeof m.createdAt === "string" && !m.createdAt.endsWith("Z")),
  "message.inbound-closed": () => ({
    document(document, value) {
      if (document !== "message/inbound-chat-message" || !isObj(value)) return value;
      const known = [
        "id",
        "threadId",
        "authorId",
        "role",
        "createdAt",
        "parts",
        "metadata",
        "inReplyTo",
      ];
      const out: Obj = {};
      for (const k of known) if (k in value) out[k] = value[k];
      return out;
    },
  }),
  "message.provenance": () =>
    messageRepair((m) => {
      if ("provenance" in m) m.provenance = { authored: "human" };
    }, (m) => isObj(m.provenance) && m.provenance.endorsedBy === "human"),

  // --- fold: ordering and identity
  "v1.order.gap": () => ({ refusal: (e) => (e.code === "gap" ? "resync" : "report") }),
  "v1.order.duplicate": () => ({
    refusal: (e) => (e.code === "duplicate" ? { rename: "reordered" } : "report"),
  }),
  "v1.order.reordered": () => dropFoldRefusal(["reordered"]),
  "v1.order.foreign-conversation": () => dropFoldRefusal(["foreign-conversation"]),
  "v1.order.foreign-turn": () => dropFoldRefusal(["foreign-turn"]),
  "v1.frame.invalid-json": () => ({
    outcome: (kind, _input, outcome) =>
      kind === "fold"
        ? {
          ...outcome,
          refusals: (outcome.refusals as Obj[]).filter((r) => r.code !== "invalid-json"),
        }
        : outcome,
  }),

  "v1.frame.too-large": () => ({
    // The bound not enforced: too-large refusals gone.
    outcome: (kind, _input, outcome) =>
      kind === "fold"
        ? {
          ...outcome,
          refusals: (outcome.refusals as Obj[]).filter((r) => r.code !== "too-large"),
        }
        : outcome,
  }),

  // --- fold: lifecycle
  "v1.lifecycle.terminal": () =>
    dropFoldRefusal(["illegal-transition"], (e) => TERMINAL.has(e.status ?? "")),
  "v1.lifecycle.paused": () =>
    dropFoldRefusal(
      ["illegal-transition"],
      (e, env) =>
        PAUSED.has(e.status ?? "") && env?.event.type !== "turn_status" &&
        env?.event.type !== "error",
    ),
  "v1.lifecycle.no-complete-with-open-card": () =>
    dropFoldRefusal(
      ["illegal-transition"],
      (e, env) => e.status === "awaiting-input" && env?.event.type === "done",
    ),
  "v1.lifecycle.transitions": () =>
    dropFoldRefusal(
      ["illegal-transition"],
      (e, env) => !TERMINAL.has(e.status ?? "") && env?.event.type === "turn_status",
    ),
  "v1.lifecycle.card-awaits-input": () =>
    mapState((s) => {
      if (s.status === "awaiting-input") s.status = "running";
    }),
  "v1.lifecycle.last-card-resumes": () =>
    mapState((s) => {
      const open = (s.openCards as Json[]).length, closed = (s.closedCards as Json[]).length;
      if (s.status === "running" && open === 0 && closed > 0) s.status = "awaiting-input";
    }),
  "v1.lifecycle.resume-with-open-cards": () =>
    mapState((s, input, outcome) => {
      const applied = foldEnvelopes(input, outcome).filter((x) => x.applied);
      const last = applied[applied.length - 1]?.env.event;
      if (last?.type === "turn_status" && last.status === "running") s.status = "running";
    }),
  "v1.lifecycle.same-status": () => ({
    beforePush: ({ envelope, folder }) =>
      envelope?.event.type === "turn_status" && envelope.event.status === folder.status &&
        envelope.conversationId === folder.conversationId && envelope.turnId === folder.turnId &&
        envelope.seq === folder.lastSeq + 1
        ? "illegal-transition"
        : null,
  }),
  "v1.lifecycle.error-fails": () =>
    mapState((s) => {
      if (s.status === "failed") s.status = "running";
      delete s.error;
    }),
  "v1.lifecycle.done-completes": () =>
    mapState((s) => {
      if (s.status === "completed") s.status = "running";
      delete s.done;
    }),
  "v1.lifecycle.cards-close-with-turn": () =>
    mapState((s, input, outcome) => {
      // cards closed by no applied card_closed (closed with the turn) are open again
      const applied = foldEnvelopes(input, outcome).filter((x) => x.applied).map((x) =>
        x.env.event
      );
      const explicit = new Set(
        applied.flatMap((e) => (e.type === "card_closed" ? [e.correlationId] : [])),
      );
      const cards = new Map(
        applied.flatMap((e) => (e.type === "card" ? [[e.card.correlationId, e.card]] : [])),
      );
      const closedCards = s.closedCards as Obj[];
      s.closedCards = closedCards.filter((c) => explicit.has(c.correlationId as string));
      s.openCards = [
        ...(s.openCards as Json[]),
        ...closedCards.filter((c) => !explicit.has(c.correlationId as string)).map((c) =>
          clone(cards.get(c.correlationId as string) as unknown as Json)
        ),
      ];
    }),
  "v1.lifecycle.unfinished-calls": () =>
    mapState((s) => {
      for (const t of s.tools as Obj[]) {
        if (t.status === "unfinished") {
          t.status = "running";
          delete t.finishedSeq;
        }
      }
    }),
  "v1.lifecycle.turn-status": () =>
    mapState((s) => {
      delete s.statusReason;
      if (["cancelled", "interrupted", "needs-reconciliation"].includes(s.status as string)) {
        s.status = "running";
      }
    }),

  // --- fold: tools and cards
  "v1.tools.duplicate-call": () => dropFoldRefusal(["duplicate-call"]),
  "v1.tools.unknown-call": () => dropFoldRefusal(["unknown-call"]),
  "v1.tools.finished-call": () => dropFoldRefusal(["finished-call"]),
  "v1.tools.call-mismatch": () => dropFoldRefusal(["call-mismatch"]),
  "v1.fold.tool-result": () =>
    mapState((s) => {
      for (const t of s.tools as Obj[]) {
        t.status = "running";
        for (const k of ["finishedSeq", "summary", "output", "blocks"]) delete t[k];
      }
    }),
  "v1.fold.tool-progress": () =>
    mapState((s) => {
      for (const t of s.tools as Obj[]) {
        delete t.progress;
        delete t.progressMessage;
      }
    }),
  "v1.cards.duplicate-card": () => dropFoldRefusal(["duplicate-card"]),
  "v1.cards.unknown-card": () => dropFoldRefusal(["unknown-card"]),
  "v1.fold.cards": () =>
    mapState((s) => {
      s.openCards = [...(s.openCards as Json[])].reverse();
      s.closedCards = (s.closedCards as Obj[]).map((c) => ({ correlationId: c.correlationId }))
        .reverse();
    }),

  // --- fold: content
  "v1.fold.text": () => lastOnly("delta", "text"),
  "v1.fold.reasoning": () => lastOnly("reasoning", "reasoning"),
  "v1.fold.last-write-wins": () =>
    mapState((s, input, outcome) => {
      const applied = foldEnvelopes(input, outcome).filter((x) => x.applied).map((x) =>
        x.env.event
      );
      const first = (type: string) => applied.find((e) => e.type === type);
      const session = first("session");
      if (session?.type === "session") s.sessionId = session.sessionId;
      const p = first("provenance");
      if (p?.type === "provenance") {
        const { type: _t, ...rest } = p;
        s.provenance = clone(rest) as Obj;
      }
      const st = first("state");
      if (st?.type === "state") {
        s.state = clone({ version: st.version, snapshot: st.snapshot }) as Json;
      }
    }),
  "v1.fold.extensions": () =>
    mapState((s) => {
      delete s.extensionState;
      delete s.extensionEvents;
    }),
  "v1.fold.extension-state-names": () => dropFoldRefusal(["too-many-extensions"]),
  "v1.fold.elided": () => ({
    beforePush: ({ envelope }) => (envelope?.event.type === "elided" ? "invalid-envelope" : null),
  }),
  "v1.fold.cursor": () =>
    mapState((s, input, outcome) => {
      const all = foldEnvelopes(input, outcome);
      const last = all[all.length - 1]?.env;
      if (last !== undefined) {
        s.lastSeq = last.seq;
        s.lastEventId = last.eventId;
      }
    }),

  // --- capabilities, version
  "v1.capabilities.required-only": () => ({
    input: (
      kind,
      input,
    ) => (kind === "capabilities" ? { ...input, required: CAPABILITIES } : input),
  }),
  "v1.capabilities.exact-true": () => ({
    input(kind, input) {
      if (kind !== "capabilities" || !isObj(input.declared)) return input;
      const d: Obj = {};
      for (const [k, v] of Object.entries(input.declared)) d[k] = v ? true : v;
      return { ...input, declared: d };
    },
  }),
  "v1.capabilities.independent": () => ({
    input(kind, input) {
      if (kind !== "capabilities" || !isObj(input.declared)) return input;
      const d = { ...input.declared };
      if (d.persistedHistory === true) d.interruptedTurnRecovery = true;
      if (d.connectionReplay === true) d.persistedHistory = true;
      return { ...input, declared: d };
    },
  }),
  "v1.capabilities.unknown-refused": () => ({
    outcome(kind, _input, outcome) {
      if (kind !== "capabilities" || outcome.ok !== false) return outcome;
      return (outcome.missing as Json[]).length === 0 ? { ok: true } : { ...outcome, unknown: [] };
    },
  }),
  "v1.capabilities.required-record": () => ({
    input(kind, input) {
      if (kind !== "capabilities" || !isObj(input.required)) return input;
      const r: Obj = {};
      // the rule removed: a value other than true reads as "not required"
      for (const [k, v] of Object.entries(input.required)) r[k] = v === true;
      return { ...input, required: r };
    },
  }),
  "v1.version.exact": () => ({
    // Loose equality: Number(x ?? 0) is 0 or 1 (a missing version defaults to 0; a lone
    // offer that is not a list is wrapped in one).
    input(kind, input) {
      if (kind !== "version") return input;
      const coerce = (v: Json | undefined) => {
        const n = Number(v ?? 0);
        return n === 0 || n === 1 ? n : (v as Json);
      };
      if ("offers" in input) {
        const offers = Array.isArray(input.offers) ? input.offers : [input.offers];
        return { ...input, offers: offers.map(coerce) };
      }
      return { ...input, offer: coerce(input.offer) };
    },
  }),
  "v1.version.known": () => ({
    // A finite number is truncated into 0..1.
    input(kind, input) {
      if (kind !== "version") return input;
      const clamp = (v: Json) =>
        typeof v === "number" && Number.isFinite(v) ? Math.min(1, Math.max(0, Math.trunc(v))) : v;
      if ("offer" in input) return { ...input, offer: clamp(input.offer) };
      if (Array.isArray(input.offers)) return { ...input, offers: input.offers.map(clamp) };
      return input;
    },
  }),
  "v1.version.server-list": () => ({
    input(kind, input) {
      if (kind !== "version" || !("server" in input)) return input;
      const { server: _s, ...rest } = input;
      return rest;
    },
  }),
  "v1.version.highest-common": () => ({
    outcome(kind, input, outcome) {
      if (kind !== "version" || !Array.isArray(input.offers) || outcome.ok !== true) return outcome;
      const server = Array.isArray(input.server) ? input.server : [1, 0];
      const common = [0, 1].filter((v) =>
        (input.offers as Json[]).some((o) => o === v) && server.some((s) => s === v)
      );
      return { ok: true, version: common[0] };
    },
  }),

  // --- SSE
  "sse.bom": () => ({
    input(kind, input) {
      if (kind !== "sse") return input;
      const text = sseText(input);
      if (!text.startsWith("\ufeff")) return input;
      const { text: _t, base64: _b, chunks: _c, ...rest } = input;
      // Wrong both ways: one BOM is kept (as a visible character), a run of them all removed.
      const run = /^\ufeff+/.exec(text)![0].length;
      return { ...rest, text: run === 1 ? "X" + text.slice(1) : text.slice(run) };
    },
  }),
  "sse.line-endings": () => ({
    // Only LF ends a line: a CR is an ordinary character (marked, and unmarked in the outcome).
    input(kind, input) {
      if (kind === "fold" && typeof input.sse === "string") {
        return { ...input, sse: input.sse.replaceAll("\r", CR_MARK) };
      }
      if (kind !== "sse") return input;
      const { text: _t, base64: _b, chunks: _c, ...rest } = input;
      return { ...rest, text: sseText(input).replaceAll("\r", CR_MARK) };
    },
    outcome: (kind, _input, outcome) =>
      kind === "sse" ? mapSseStrings(outcome, (s) => s.replaceAll(CR_MARK, "\r")) : outcome,
  }),
  "sse.crlf-across-chunks": () => ({
    input(kind, input) {
      if (kind !== "sse" || !Array.isArray(input.chunks)) return input;
      const chunks = [...input.chunks];
      for (let i = 0; i + 1 < chunks.length; i++) {
        const a = chunks[i], b = chunks[i + 1];
        if (
          typeof a === "string" && typeof b === "string" && a.endsWith("\r") && b.startsWith("\n")
        ) {
          chunks[i + 1] = "\r" + b.slice(1);
        }
      }
      return { ...input, chunks };
    },
  }),
  "sse.field-value-space": () =>
    sseLines((lines) => {
      for (const l of lines) {
        const colon = l.line.indexOf(":");
        if (colon > 0 && l.line[colon + 1] === " ") {
          l.line = l.line.slice(0, colon + 1) + " " + l.line.slice(colon + 1);
        }
      }
    }),
  "sse.no-colon-field": () =>
    sseLines((lines) => {
      for (let i = lines.length - 1; i >= 0; i--) {
        if (lines[i].line !== "" && !lines[i].line.includes(":")) lines.splice(i, 1);
      }
    }),
  "sse.data-join": () => ({
    // Data lines joined with nothing: in an SSE case the LFs vanish from the data; in a
    // fold over SSE consecutive data lines are merged before parsing.
    input(kind, input) {
      if (kind !== "fold" || typeof input.sse !== "string") return input;
      return sseLines((lines) => {
        for (let i = lines.length - 1; i > 0; i--) {
          const a = fieldOf(lines[i - 1].line), b = fieldOf(lines[i].line);
          if (a?.name === "data" && b?.name === "data") {
            lines[i - 1] = { line: `data: ${a.value}${b.value}`, end: lines[i].end };
            lines.splice(i, 1);
          }
        }
      }).input!(kind, input);
    },
    outcome(kind, _input, outcome) {
      if (kind !== "sse") return outcome;
      return {
        ...outcome,
        messages: (outcome.messages as Obj[]).map((m) => ({
          ...m,
          data: (m.data as string).replaceAll("\n", ""),
        })),
      };
    },
  }),
  "sse.dispatch-needs-data": () =>
    sseLines((lines) => {
      let fields = 0, data = false;
      for (let i = 0; i < lines.length; i++) {
        const f = fieldOf(lines[i].line);
        if (lines[i].line === "") {
          if (fields > 0 && !data) {
            lines.splice(i, 0, { line: "data:", end: "\n" });
            i++;
          }
          fields = 0;
          data = false;
        } else if (f !== null) {
          fields++;
          if (f.name === "data") data = true;
        }
      }
    }),
  "sse.comments": () => ({
    outcome: (kind, _input, outcome) => (kind === "sse" ? { ...outcome, comments: [] } : outcome),
  }),
  "sse.id-nul": () => ({
    ...sseLines((lines) => {
      for (const l of lines) {
        if (fieldOf(l.line)?.name === "id") l.line = l.line.replaceAll("\0", NUL_MARK);
      }
    }),
    outcome: (kind, _input, outcome) =>
      kind === "sse" ? mapSseStrings(outcome, (s) => s.replaceAll(NUL_MARK, "\0")) : outcome,
  }),
  "sse.last-event-id": () => ({
    outcome(kind, input, outcome) {
      if (kind !== "sse") return outcome;
      const messages = (outcome.messages as Obj[]).map((m) => ({ ...m, lastEventId: m.id ?? "" }));
      const last = messages[messages.length - 1];
      return {
        ...outcome,
        messages,
        lastEventId: last !== undefined ? last.lastEventId : (input.lastEventId ?? ""),
      };
    },
  }),
  "sse.empty-id-resets": () =>
    sseLines((lines) => {
      for (let i = lines.length - 1; i >= 0; i--) {
        const f = fieldOf(lines[i].line);
        if (f?.name === "id" && f.value === "") lines.splice(i, 1);
      }
    }),
  "sse.retry-digits": () => ({
    outcome(kind, input, outcome) {
      if (kind !== "sse") return outcome;
      const retries: number[] = [];
      for (const l of linesOf(sseText(input))) {
        const f = fieldOf(l.line);
        if (l.end !== "" && f?.name === "retry" && !Number.isNaN(Number.parseInt(f.value, 10))) {
          retries.push(Number.parseInt(f.value, 10));
        }
      }
      return { ...outcome, retries };
    },
  }),
  "sse.unterminated": () => ({
    input(kind, input) {
      if (kind === "fold" && typeof input.sse === "string") {
        return { ...input, sse: input.sse + "\n\n" };
      }
      if (kind !== "sse") return input;
      if (Array.isArray(input.chunks)) return { ...input, chunks: [...input.chunks, "\n\n"] };
      if (typeof input.text === "string") return { ...input, text: input.text + "\n\n" };
      return { ...input, chunks: [{ base64: input.base64 }, "\n\n"] };
    },
  }),
  "sse.event-name": () => ({
    outcome(kind, _input, outcome) {
      if (kind !== "sse") return outcome;
      let last: Json = null;
      const messages = (outcome.messages as Obj[]).map((m) => {
        if (m.event !== null) last = m.event;
        return { ...m, event: last };
      });
      return { ...outcome, messages };
    },
  }),
  "sse.limits": () => ({
    input(kind, input) {
      if (kind !== "sse") return input;
      const { maxLineLength: _l, maxEventLength: _e, ...rest } = input;
      return rest;
    },
  }),
  "sse.utf8": () => ({
    input(kind, input) {
      if (kind !== "sse" || !Array.isArray(input.chunks)) return input;
      const dec = (b64: string) =>
        new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
      return {
        ...input,
        chunks: input.chunks.map((
          c,
        ) => (typeof c === "string" ? c : dec((c as Obj).base64 as string))),
      };
    },
  }),

  // --- legacy
  "legacy.scout.token": () => ({
    outcome(_kind, input, outcome) {
      const frames = input.frames as Obj[];
      return {
        results: (outcome.results as Obj[]).map((r, i) =>
          scoutType(frames[i]) === "token" ? { ok: false, code: "not-chat-event" } : r
        ),
      };
    },
  }),
  "legacy.scout.tool-start": () => ({
    // Only `tool` is read (name ignored), and a numeric callId is converted.
    input(kind, input) {
      if (kind !== "legacy") return input;
      const frames = (input.frames as Obj[]).map((f) => {
        if (scoutType(f) !== "tool_start") return f;
        const data = JSON.parse(f.data as string);
        delete data.name;
        if (typeof data.callId === "number") data.callId = String(data.callId);
        return { ...f, data: JSON.stringify(data) };
      });
      return { ...input, frames };
    },
  }),
  "legacy.call-identity": () =>
    withoutContext(["callIds"], acceptLegacy(["missing-call-identity"])),
  "legacy.result-status": () => acceptLegacy(["unknown-result-status"]),
  "legacy.retry-permission": () =>
    withoutContext(["retryable"], acceptLegacy(["missing-retry-permission"])),
  "legacy.domain-frames": () => acceptLegacy(["not-chat-event"]),
  "legacy.scout.decimal-id": () => acceptLegacy(["invalid-id"]),
  "legacy.frame-json": () =>
    acceptLegacy(["invalid-json", "not-an-object", "missing-type", "invalid-frame"]),
  "legacy.papercup.named": () => ({
    // The event name is not read (the payload decides), and its refusals are gone.
    ...acceptLegacy(["missing-event-name", "type-mismatch"]),
    input(kind, input) {
      if (kind !== "legacy" || (input.context as Obj).dialect !== "papercup") return input;
      const frames = (input.frames as Obj[]).map((f) => {
        if (f.event === "heartbeat") return f;
        const { event: _e, ...rest } = f;
        return rest;
      });
      return { ...input, frames };
    },
  }),
  "legacy.papercup.v0-fields": () =>
    acceptLegacy(["invalid-event"], (_f, c) => c.dialect === "papercup"),
  "legacy.v1-valid": () => ({
    input(kind, input) {
      if (kind !== "legacy") return input;
      const frames = (input.frames as Obj[]).map((f) => {
        let data: Json;
        try {
          data = JSON.parse(f.data as string);
        } catch {
          return f;
        }
        if (!isObj(data)) return f;
        if (isObj(data.card) && typeof data.card.createdAt !== "number") data.card.createdAt = 0;
        for (const k of ["engine", "model"]) if (data[k] === "") data[k] = "x";
        if (typeof data.version === "number") data.version = Math.trunc(Math.abs(data.version));
        return { ...f, data: JSON.stringify(data) };
      });
      return { ...input, frames };
    },
  }),
  "legacy.allocation": () => ({ allocateOnRefusal: true }),
  "legacy.allocation-checked": () =>
    withoutContext(["allocations"], acceptLegacy(["invalid-allocation"])),
  "legacy.host-context": () => ({
    ...acceptLegacy(["invalid-context"]),
    input(kind, input) {
      if (kind !== "legacy") return input;
      const { at: _at, ...context } = input.context as Obj;
      return { ...input, context };
    },
  }),

  // --- replay
  "replay.stale-cursor": () => acceptRefusal(["stale-cursor"]),
  "replay.cursor-beyond-latest": () => acceptRefusal(["cursor-beyond-latest"]),
  "replay.invalid-cursor": () => acceptRefusal(["invalid-cursor"]),
  "replay.gap": () => acceptRefusal(["gap"]),
  "replay.reordered": () => acceptRefusal(["reordered"]),
  "replay.foreign-frame": () => acceptRefusal(["foreign-frame"]),
  "replay.window-too-large": () => ({
    // Off by one: exactly maxFrames is refused too; more passes.
    outcome(kind, input, outcome) {
      if (kind !== "replay") return outcome;
      if (outcome.ok === false && outcome.code === "window-too-large") return { ok: true };
      const max = (input.request as Obj).maxFrames;
      if (
        outcome.ok === true && typeof max === "number" &&
        (outcome.eventIds as Json[]).length >= max
      ) return { ok: false, code: "window-too-large" };
      return outcome;
    },
  }),
  "replay.invalid-window": () => ({
    // Off by one: an empty window (lowest = latest + 1) is refused; malformed bounds pass.
    outcome(kind, input, outcome) {
      if (kind !== "replay") return outcome;
      if (outcome.ok === false && outcome.code === "invalid-window") return { ok: true };
      const b = input.bounds as Obj;
      if (outcome.ok === true && (b.lowestRetainedSeq as number) > (b.latestSeq as number)) {
        return { ok: false, code: "invalid-window" };
      }
      return outcome;
    },
  }),
  "replay.stale-after-gap": () => ({
    input: (kind, input) => {
      if (kind !== "replay") return input;
      const { boundsAfter: _b, ...rest } = input;
      return rest;
    },
  }),
  "replay.transient-elided": () => ({
    // the effect lost: transient frames re-sent as they are
    outcome(kind, input, outcome) {
      if (kind !== "replay" || outcome.ok !== true) return outcome;
      const frames = (input.frames as Obj[]).filter(isObj);
      return {
        ...outcome,
        eventTypes: (outcome.eventIds as Json[]).map((id) => {
          const e = frames.find((f) => f.eventId === id)?.event;
          return isObj(e) ? e.type : null;
        }),
      };
    },
  }),
  "replay.exact-suffix": () => ({
    outcome(kind, _input, outcome) {
      if (kind !== "replay" || outcome.ok !== true) return outcome;
      // Off by one: the first frame skipped and lastSeq one too far.
      return {
        ...outcome,
        eventIds: (outcome.eventIds as Json[]).slice(1),
        lastSeq: (outcome.lastSeq as number) + 1,
      };
    },
  }),

  // --- blocks
  "blocks.split.segments": () =>
    mapSegments((_segs, input) => [{ kind: "text", text: input.text as string }]),
  "blocks.split.all-blocks": () =>
    mapSegments((segs) => {
      let seen = false;
      return segs.map((s) => {
        if (s.kind === "text") return s;
        if (seen) return asText(s);
        seen = true;
        return s;
      });
    }),
  "blocks.tags.case-insensitive": () =>
    mapSegments((segs) =>
      segs.map((s) =>
        s.kind !== "text" && !(s.raw!.startsWith("<ask>") || s.raw!.startsWith("<report>"))
          ? asText(s)
          : s
      )
    ),
  "blocks.tags.exact-open": () => ({
    input: (kind, input) =>
      kind === "blocks"
        ? { ...input, text: (input.text as string).replace(/<(ask|report)[ \t][^>]*>/gi, "<$1>") }
        : input,
  }),
  "blocks.unclosed": () =>
    mapSegments((segs) => {
      const i = segs.findIndex((s) => s.kind === "invalid" && s.reason === "unclosed");
      if (i === -1) return segs;
      const rest = segs.slice(i).map((s) => (s.kind === "text" ? s.text : s.raw)).join("");
      return [...segs.slice(0, i), { ...segs[i], raw: rest }];
    }),
  "blocks.empty-body": () => reasonToText("empty-body"),
  "blocks.malformed-json": () => reasonToText("malformed-json"),
  "blocks.invalid-block": () => reasonToText("invalid-block"),
  "blocks.too-large": () => ({
    // Off by one (a body of exactly the bound is too large), and too-large blocks read as text.
    ...reasonToText("too-large"),
    input: (kind, input) =>
      kind === "blocks" && typeof input.maxBlockBodyLength === "number"
        ? { ...input, maxBlockBodyLength: input.maxBlockBodyLength - 1 }
        : input,
  }),
  "blocks.ask.normalise": () =>
    mapSegments((segs) =>
      segs.map((s) => (s.kind === "ask" ? { ...s, block: JSON.parse(bodyOf(s.raw!, "ask")) } : s))
    ),
  "blocks.report.normalise": () =>
    mapSegments((segs) =>
      segs.map((s) =>
        s.kind === "report" ? { ...s, block: JSON.parse(bodyOf(s.raw!, "report")) } : s
      )
    ),
  "blocks.report.goal-ref": () =>
    mapSegments((segs) =>
      segs.map((s) => {
        if (
          s.kind !== "invalid" || s.reason !== "invalid-block" ||
          s.raw!.slice(1, 7).toLowerCase() !== "report"
        ) {
          return s;
        }
        let body: Json;
        try {
          body = JSON.parse(bodyOf(s.raw!, "report"));
        } catch {
          return s;
        }
        if (!isObj(body) || !("goalReport" in body)) return s;
        const { goalReport: _g, ...rest } = body;
        const block = parseReportBlock(rest);
        return block === null
          ? s
          : { kind: "report", block: clone(block) as unknown as Json, raw: s.raw };
      })
    ),
  "blocks.stray-close": () =>
    mapSegments((segs) =>
      segs.map((s) =>
        s.kind === "text" ? { kind: "text", text: s.text!.replace(/<\/(ask|report)>/gi, "") } : s
      )
    ),

  // --- card answers
  "cards.answer.correlation": () => acceptRefusal(["correlation-mismatch"], { value: null }),
  "cards.answer.cancel-always": () => ({
    outcome(kind, input, outcome) {
      if (kind !== "card-answer" || outcome.ok !== true) return outcome;
      const r = input.response as Obj, card = input.card as Obj;
      if (r.action === "cancel" && card.allowDecline !== true) {
        return { ok: false, code: "decline-not-allowed", field: "action" };
      }
      return outcome;
    },
  }),
  "cards.answer.decline": () => ({
    // Inverted: declines that are allowed are refused and refused ones pass.
    outcome(kind, input, outcome) {
      if (kind !== "card-answer" || (input.response as Obj)?.action !== "decline") return outcome;
      return outcome.ok === true
        ? { ok: false, code: "decline-not-allowed", field: "action" }
        : outcome.code === "decline-not-allowed"
        ? { ok: true, value: null }
        : outcome;
    },
  }),
  "cards.answer.response-shape": () => acceptRefusal(["invalid-response"], { value: null }),
  "cards.answer.choice": () => ({
    // Option ids compared with the labels, and the choice refusals gone.
    ...cardAnswerRefusalsAccepted(["radio", "select"], [
      "unknown-option",
      "invalid-value",
      "missing-field",
    ]),
    input(kind, input) {
      if (kind !== "card-answer" || !["radio", "select"].includes(kindOf(input))) return input;
      const c = clone(input.card) as Obj;
      const p = c.presentation as Obj;
      if (Array.isArray(p.options)) {
        p.options = p.options.map((o) => (isObj(o) ? { ...o, id: o.label ?? o.id } : o));
      }
      return { ...input, card: c };
    },
  }),
  "cards.answer.checkbox": () =>
    cardAnswerValue(
      ["checkbox"],
      ["unknown-option", "duplicate-option", "empty-selection", "invalid-value", "missing-field"],
      (v) => ({ optionIds: [...(v.optionIds as string[])].sort() }),
    ),
  "cards.answer.text": () =>
    cardAnswerValue(
      ["text"],
      ["blank-text", "invalid-value", "missing-field"],
      (v) => ({ text: (v.text as string).trim() }),
    ),
  "cards.answer.slider": () => ({
    // The value rounded, max exclusive, and the slider refusals gone.
    outcome(kind, input, outcome) {
      if (kind !== "card-answer" || kindOf(input) !== "slider") return outcome;
      if (outcome.ok === false) {
        return ["out-of-range", "off-step", "invalid-value", "missing-field"].includes(
            outcome.code as string,
          )
          ? { ok: true, value: null }
          : outcome;
      }
      const value = outcome.value as Obj;
      if (!isObj(value.value)) return outcome;
      const v = value.value.value as number;
      const max = ((input.card as Obj).presentation as Obj).max;
      if (v === max) return { ok: false, code: "out-of-range", field: "value.value" };
      return { ...outcome, value: { ...value, value: { value: Math.round(v) } } };
    },
  }),
  "cards.answer.date": () =>
    cardAnswerValue(
      ["date"],
      ["invalid-date", "out-of-range", "missing-field"],
      (v) => ({ date: new Date(`${v.date}T00:00:00Z`).toISOString() }),
    ),
  "cards.answer.only-kind-fields": () => acceptRefusal(["unexpected-field"], { value: null }),
  "cards.answer.confirm": () => ({
    // A confirm card takes exactly {confirmed: true}: {} misses it, anything else is unexpected.
    outcome(kind, input, outcome) {
      if (kind !== "card-answer" || kindOf(input) !== "" || !isObj(input.card)) return outcome;
      if (!("correlationId" in input.card)) return outcome;
      const r = input.response as Obj;
      if (!isObj(r) || r.action !== "submit" || !isObj(r.value)) return outcome;
      const keys = Object.keys(r.value);
      if (keys.length === 0) {
        return { ok: false, code: "missing-field", field: "value.confirmed" };
      }
      return { ok: false, code: "unexpected-field", field: `value.${keys[0]}` };
    },
  }),
  "cards.answer.invalid-card": () => acceptRefusal(["invalid-card"], { value: null }),
  "cards.answer.unknown-kind": () => acceptRefusal(["unknown-kind"], { value: null }),
  "cards.answer.rebuilt": () => ({
    outcome(kind, input, outcome) {
      if (kind !== "card-answer" || outcome.ok !== true) return outcome;
      return { ok: true, value: input.response };
    },
  }),
};

function stateRepair(repair: (s: Obj) => void, edge?: (s: Obj) => boolean): Hooks {
  return documentRepair((d) => d === "v1/chat-state", repair, edge);
}
function blocksRepair(repair: (b: Obj) => void, edge?: (b: Obj) => boolean): Hooks {
  return documentRepair((d) => d.startsWith("blocks/"), repair, edge);
}
function messageRepair(repair: (m: Obj) => void, edge?: (m: Obj) => boolean): Hooks {
  return documentRepair((d) => d.startsWith("message/"), repair, edge);
}
/**
 * A rule over schema documents: `repair` makes its check pass, and the
 * documents `edge` detects (valid at the rule's edge) are refused; see
 * {@link v1Repair}.
 */
function documentRepair(
  applies: (document: string) => boolean,
  repair: (v: Obj) => void,
  edge?: (v: Obj) => boolean,
): Hooks {
  return {
    document(document, value) {
      if (!applies(document) || !isObj(value)) return value;
      const v = clone(value);
      repair(v);
      return v;
    },
    verdict: (document, value, valid) =>
      applies(document) && isObj(value) && edge !== undefined && edge(value) &&
        validAsIs(document, value)
        ? false
        : valid,
  };
}

const STATE_KEYS = new Set([
  "schemaVersion",
  "conversationId",
  "turnId",
  "status",
  "lastSeq",
  "lastEventId",
  "sessionId",
  "text",
  "reasoning",
  "tools",
  "provenance",
  "openCards",
  "closedCards",
  "state",
  "done",
  "error",
  "statusReason",
]);
const listOf = (v: Json | undefined): Json[] => (Array.isArray(v) ? v : []);
const toolsOf = (s: Obj): Obj[] => listOf(s.tools).filter(isObj);

function lastOnly(type: "delta" | "reasoning", key: "text" | "reasoning"): Hooks {
  return mapState((s, input, outcome) => {
    const applied = foldEnvelopes(input, outcome).filter((x) =>
      x.applied && x.env.event.type === type
    );
    const last = applied[applied.length - 1]?.env.event as { text: string } | undefined;
    s[key] = last?.text ?? "";
  });
}

/** Legacy: `hooks` plus context keys removed (the host's answer ignored). */
function withoutContext(keys: string[], hooks: Hooks): Hooks {
  return {
    ...hooks,
    input(kind, input) {
      if (kind !== "legacy") return input;
      const context = { ...(input.context as Obj) };
      for (const k of keys) delete context[k];
      return { ...input, context };
    },
  };
}

/** Card answers of `kinds`: refusals with `codes` pass (value null). */
function cardAnswerRefusalsAccepted(kinds: string[], codes: string[]): Hooks {
  return acceptRefusal(codes, { value: null }, (input) => kinds.includes(kindOf(input)));
}

/** Card answers of `kinds`: refusals with `codes` pass, and accepted values are rebuilt by `wrong`. */
function cardAnswerValue(kinds: string[], codes: string[], wrong: (v: Obj) => Obj): Hooks {
  return {
    outcome(kind, input, outcome) {
      if (kind !== "card-answer" || !kinds.includes(kindOf(input))) return outcome;
      if (outcome.ok === false) {
        return codes.includes(outcome.code as string) ? { ok: true, value: null } : outcome;
      }
      const value = outcome.value as Obj;
      if (!isObj(value.value)) return outcome;
      return { ...outcome, value: { ...value, value: wrong(value.value) as Json } };
    },
  };
}

function scoutType(frame: Obj): string | undefined {
  try {
    const d = JSON.parse(frame.data as string);
    return isObj(d) && typeof d.type === "string" ? d.type : undefined;
  } catch {
    return undefined;
  }
}

/** The presentation kind of a card-answer case's card (`""` when none). */
function kindOf(input: Obj): string {
  const card = input.card;
  if (!isObj(card) || !isObj(card.presentation)) return "";
  return typeof card.presentation.kind === "string" ? card.presentation.kind : "";
}
