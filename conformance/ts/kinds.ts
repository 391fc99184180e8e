/**
 * The TypeScript testee's case kinds: each runs one conformance case against
 * the library and returns its outcome in the corpus's JSON shape (see
 * `conformance/README.md`). The optional {@link Hooks} let the mutation
 * check switch one rule off in this harness layer (the library itself is
 * never changed): a hook pre-processes the input, overrides a decision or
 * post-processes the outcome.
 *
 * @module
 */
import { parseChatEnvelope, parseChatEnvelopeJson } from "../../src/v1/parse.ts";
import { ChatStateFolder, resumeChatState } from "../../src/v1/fold.ts";
import { replayEnvelope } from "../../src/v1/channels.ts";
import type { ChatFoldRefusal } from "../../src/v1/fold.ts";
import { ChatCapabilitiesSchema } from "../../src/v1/schemas.ts";
import { requireChatCapabilities } from "../../src/v1/capabilities.ts";
import { negotiateChatVersion, negotiateChatVersions } from "../../src/v1/version.ts";
import type { ChatCapabilities, ChatEventEnvelope, ChatStateV1 } from "../../src/v1/types.ts";
import { ChatEventSchema } from "../../src/v0/schemas.ts";
import {
  CardResponseSchema,
  CardSpecSchema,
  OpenCardSnapshotSchema,
} from "../../src/cards/schemas.ts";
import { AskBlockSchema, ReportBlockSchema } from "../../src/blocks/schemas.ts";
import { uiMessage } from "../../src/message/parts.ts";
import {
  chatThread,
  parseChatMessage,
  parseInboundChatMessage,
} from "../../src/message/envelope.ts";
import { SseParser } from "../../src/sse/parser.ts";
import { SseLimitError } from "../../src/sse/errors.ts";
import { upgradeLegacyChatFrame } from "../../src/legacy/upgrade.ts";
import type { LegacyToolFrame } from "../../src/legacy/upgrade.ts";
import { replayAfter } from "../../src/recovery/replay.ts";
import type { ReplayBounds } from "../../src/recovery/replay.ts";
import { splitTurnText } from "../../src/blocks/split_turn_text.ts";
import { validateCardResponse } from "../../src/cards/validate_card_response.ts";
import type { OpenCardSnapshot } from "../../src/cards/types.ts";

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON object. */
export type JsonObject = { [key: string]: Json };

/** The case kinds of protocol version 1. */
export const CASE_KINDS = [
  "schema",
  "fold",
  "sse",
  "capabilities",
  "version",
  "legacy",
  "replay",
  "blocks",
  "card-answer",
] as const;
/** One case kind. */
export type CaseKind = typeof CASE_KINDS[number];

/** JSON round trip: drops `undefined`, turns the result into plain JSON. */
export function toJson(v: unknown): Json {
  return v === undefined ? null : JSON.parse(JSON.stringify(v));
}

// ---------------------------------------------------------------------------
// Hooks (the mutation check's switch; absent in a normal run)

/** One push of the fold, as a hook sees it. */
export interface FoldStep {
  /** 0-based frame index. */
  readonly index: number;
  /** The frame's JSON value as it came (before any hook repaired it). */
  readonly raw: Json;
  /** The parsed envelope (when the frame parsed). */
  readonly envelope?: ChatEventEnvelope;
  /** The folder before the push. */
  readonly folder: ChatStateFolder;
}

/** What a fold hook answers about a refusal. */
export type RefusalDecision = "report" | "drop" | "resync" | { readonly rename: string };

/** Harness-level switches. Every hook is optional. */
export interface Hooks {
  /** schema: the document passed to the library (repair a field the rule checks). */
  readonly document?: (document: string, value: Json) => Json;
  /** schema: the verdict after the library's (e.g. refuse what a permission allows). */
  readonly verdict?: (document: string, value: Json, valid: boolean) => boolean;
  /** fold: a frame's JSON value before it is parsed (repair a field the rule checks). */
  readonly frame?: (value: Json) => Json;
  /** fold: before a push; return a refusal code to refuse the frame without pushing. */
  readonly beforePush?: (step: FoldStep) => string | null;
  /** fold: what to do with a refusal of the library. */
  readonly refusal?: (error: ChatFoldRefusal, step: FoldStep) => RefusalDecision;
  /** Any kind: the input before the library runs. */
  readonly input?: (kind: CaseKind, input: JsonObject) => JsonObject;
  /** Any kind: the outcome after the library ran. */
  readonly outcome?: (kind: CaseKind, input: JsonObject, outcome: JsonObject) => JsonObject;
  /** legacy: whether a refused frame still consumes an allocation. */
  readonly allocateOnRefusal?: boolean;
}

// ---------------------------------------------------------------------------
// schema

const wrapEvent = (event: unknown) => ({
  schemaVersion: 1,
  conversationId: "c",
  turnId: "t",
  eventId: "e",
  seq: 1,
  event,
});

/** The library's verdict on one document, by schema document name (`schema/<name>.schema.json`). */
export const DOCUMENT_VERDICTS: Readonly<Record<string, (value: unknown) => boolean>> = {
  "v1/chat-event-envelope": (v) => parseChatEnvelope(v).ok,
  "v1/chat-event": (v) => parseChatEnvelope(wrapEvent(v)).ok,
  "v1/chat-state": (v) => resumeChatState(v as ChatStateV1).ok,
  "v1/chat-capabilities": (v) => ChatCapabilitiesSchema.safeParse(v).success,
  "v0/chat-event": (v) => ChatEventSchema.safeParse(v).success,
  "cards/open-card-snapshot": (v) => OpenCardSnapshotSchema.safeParse(v).success,
  "cards/card-spec": (v) => CardSpecSchema.safeParse(v).success,
  "cards/card-response": (v) => CardResponseSchema.safeParse(v).success,
  "blocks/report-block": (v) => ReportBlockSchema.safeParse(v).success,
  "blocks/ask-block": (v) => AskBlockSchema.safeParse(v).success,
  "message/ui-message": (v) => uiMessage.safeParse(v).success,
  "message/chat-message": (v) => parseChatMessage(v).ok,
  "message/inbound-chat-message": (v) => parseInboundChatMessage(v).ok,
  "message/chat-thread": (v) => chatThread.safeParse(v).success,
};

function runSchema(input: JsonObject, hooks: Hooks): JsonObject {
  const document = input.document as string;
  const judge = DOCUMENT_VERDICTS[document];
  if (judge === undefined) throw new Error(`unknown schema document ${document}`);
  const value = hooks.document ? hooks.document(document, input.value) : input.value;
  let valid = judge(value);
  if (hooks.verdict) valid = hooks.verdict(document, input.value, valid);
  return { valid };
}

// ---------------------------------------------------------------------------
// fold

/** The frames of a fold case: JSON values, NDJSON lines or SSE message data. */
export function foldFramesOf(input: JsonObject): { value?: Json; text?: string }[] {
  if (Array.isArray(input.frames)) return input.frames.map((value) => ({ value }));
  if (typeof input.ndjson === "string") {
    return input.ndjson.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l))
      .filter((l) => l.trim() !== "").map((text) => ({ text }));
  }
  if (typeof input.sse === "string") {
    const out: { text: string }[] = [];
    const parser = new SseParser({ onEvent: (m) => out.push({ text: m.data }) });
    parser.feed(input.sse);
    parser.end();
    return out;
  }
  throw new Error("a fold case needs frames, ndjson or sse");
}

function runFold(input: JsonObject, hooks: Hooks): JsonObject {
  const turn = input.turn as { conversationId: string; turnId: string };
  const folder = new ChatStateFolder(turn.conversationId, turn.turnId);
  const refusals: JsonObject[] = [];
  foldFramesOf(input).forEach((frame, index) => {
    let value: unknown;
    if (frame.text !== undefined) {
      const parsed = parseChatEnvelopeJson(frame.text);
      if (
        !parsed.ok && (parsed.error.code === "invalid-json" || parsed.error.code === "too-large")
      ) {
        refusals.push({ index, code: parsed.error.code });
        return;
      }
      value = JSON.parse(frame.text);
    } else value = frame.value;
    const raw = toJson(value);
    if (hooks.frame) value = hooks.frame(raw);
    const parsed = parseChatEnvelope(value);
    const step: FoldStep = { index, folder, raw, envelope: parsed.ok ? parsed.value : undefined };
    const early = hooks.beforePush?.(step) ?? null;
    if (early !== null) {
      refusals.push({ index, code: early });
      return;
    }
    const r = folder.push(value);
    if (r.ok) return;
    const decision = hooks.refusal ? hooks.refusal(r.error, step) : "report";
    if (decision === "drop") return;
    if (decision === "resync") {
      const again = folder.resync(value);
      if (!again.ok) refusals.push({ index, code: again.error.code });
      return;
    }
    refusals.push({ index, code: typeof decision === "object" ? decision.rename : r.error.code });
  });
  return { state: toJson(folder.state()), refusals };
}

// ---------------------------------------------------------------------------
// sse

function decodeBase64(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** The chunks of an SSE case: one text, one base64 byte string, or a list of either. */
export function sseChunks(input: JsonObject): (string | Uint8Array)[] {
  if (typeof input.text === "string") return [input.text];
  if (typeof input.base64 === "string") return [decodeBase64(input.base64)];
  if (Array.isArray(input.chunks)) {
    return input.chunks.map((c) =>
      typeof c === "string" ? c : decodeBase64((c as JsonObject).base64 as string)
    );
  }
  throw new Error("an sse case needs text, base64 or chunks");
}

function runSse(input: JsonObject): JsonObject {
  const messages: JsonObject[] = [];
  const retries: number[] = [];
  const comments: string[] = [];
  const options: Record<string, unknown> = {};
  for (const k of ["lastEventId", "maxLineLength", "maxEventLength"]) {
    if (input[k] !== undefined) options[k] = input[k];
  }
  const parser = new SseParser({
    ...options,
    onEvent: (m) =>
      messages.push({
        id: m.id ?? null,
        event: m.event ?? null,
        data: m.data,
        lastEventId: m.lastEventId,
      }),
    onRetry: (ms) => retries.push(ms),
    onComment: (c) => comments.push(c),
  });
  let error: Json = null;
  for (const chunk of sseChunks(input)) {
    try {
      parser.feed(chunk);
    } catch (e) {
      if (!(e instanceof SseLimitError)) throw e;
      error = { code: e.code, afterMessages: messages.length };
      break;
    }
  }
  const lastEventId = parser.lastEventId;
  parser.end();
  return { messages, retries, comments, lastEventId, error };
}

// ---------------------------------------------------------------------------
// capabilities, version

function runCapabilities(input: JsonObject): JsonObject {
  const r = requireChatCapabilities(
    input.declared as unknown as ChatCapabilities,
    input.required as unknown as Partial<ChatCapabilities>,
  );
  if (r.ok) return { ok: true };
  return {
    ok: false,
    missing: [...r.error.missing],
    unknown: [...r.error.unknown],
    invalid: [...r.error.invalid],
  };
}

function runVersion(input: JsonObject): JsonObject {
  const r = "offers" in input
    ? negotiateChatVersions(
      input.offers as unknown[],
      "server" in input ? input.server as (0 | 1)[] : undefined,
    )
    : negotiateChatVersion(input.offer);
  return r.ok ? { ok: true, version: r.value } : { ok: false, code: r.error.code };
}

// ---------------------------------------------------------------------------
// legacy

function runLegacy(input: JsonObject, hooks: Hooks): JsonObject {
  const c = input.context as JsonObject;
  const callIds = c.callIds as { call?: (string | null)[]; result?: (string | null)[] } | undefined;
  const allocations = c.allocations as { eventId: Json; seq: Json }[] | undefined;
  let n = 0;
  const ctx: Record<string, unknown> = {
    dialect: c.dialect,
    conversationId: c.conversationId,
    turnId: c.turnId,
    allocate() {
      if (allocations !== undefined) {
        if (n >= allocations.length) throw new Error("no allocation left");
        return allocations[n++];
      }
      n++;
      return { eventId: `${c.turnId}:${n}`, seq: n };
    },
  };
  for (const k of ["retryable", "retryAfterMs", "errorCode", "at"]) {
    if (k in c) ctx[k] = c[k];
  }
  if (c.maxDataLength !== undefined) ctx.decode = { maxDataLength: c.maxDataLength };
  if (callIds !== undefined) {
    ctx.callIdFor = (tool: LegacyToolFrame, index: number) =>
      callIds[tool.kind]?.[index] ?? undefined;
  }
  const results = (input.frames as Json[]).map((frame) => {
    const r = upgradeLegacyChatFrame(frame, ctx as never);
    if (r.ok) return { ok: true, envelope: toJson(r.value) } as JsonObject;
    if (hooks.allocateOnRefusal && allocations === undefined) n++;
    return { ok: false, code: r.error.code } as JsonObject;
  });
  return { results };
}

// ---------------------------------------------------------------------------
// replay

async function runReplay(input: JsonObject): Promise<JsonObject> {
  let reads = 0;
  const seam = {
    bounds(): ReplayBounds {
      const b = reads++ === 0 ? input.bounds : (input.boundsAfter ?? input.bounds);
      return b as unknown as ReplayBounds;
    },
    readAfter(): ChatEventEnvelope[] {
      return input.frames as unknown as ChatEventEnvelope[];
    },
  };
  const r = await replayAfter(seam, input.request as never);
  if (r.ok) {
    return {
      ok: true,
      eventIds: r.value.frames.map((f) => f.eventId),
      // what the host sends: each frame through replayEnvelope (transient ones elided)
      eventTypes: r.value.frames.map((f) => replayEnvelope(f).event.type),
      lastSeq: r.value.lastSeq,
      lowestRetainedSeq: r.value.lowestRetainedSeq,
    };
  }
  const out: JsonObject = { ok: false, code: r.error.code };
  if (r.error.index !== undefined) out.index = r.error.index;
  return out;
}

// ---------------------------------------------------------------------------
// blocks, card answers

function runBlocks(input: JsonObject): JsonObject {
  const options = input.maxBlockBodyLength === undefined
    ? {}
    : { maxBlockBodyLength: input.maxBlockBodyLength as number };
  return { segments: toJson(splitTurnText(input.text as string, options)) };
}

function runCardAnswer(input: JsonObject): JsonObject {
  const r = validateCardResponse(
    input.card as unknown as OpenCardSnapshot,
    input.response,
    input.allowDeclineDefault === undefined
      ? {}
      : { allowDeclineDefault: input.allowDeclineDefault as boolean },
  );
  return r.ok
    ? { ok: true, value: toJson(r.value) }
    : { ok: false, code: r.error.code, field: r.error.field };
}

// ---------------------------------------------------------------------------

/** Run one case's input through the library (with the given hooks) and return its outcome. */
export async function runCase(
  kind: CaseKind,
  rawInput: JsonObject,
  hooks: Hooks = {},
): Promise<JsonObject> {
  const input = hooks.input ? hooks.input(kind, rawInput) : rawInput;
  let outcome: JsonObject;
  switch (kind) {
    case "schema":
      outcome = runSchema(input, hooks);
      break;
    case "fold":
      outcome = runFold(input, hooks);
      break;
    case "sse":
      outcome = runSse(input);
      break;
    case "capabilities":
      outcome = runCapabilities(input);
      break;
    case "version":
      outcome = runVersion(input);
      break;
    case "legacy":
      outcome = runLegacy(input, hooks);
      break;
    case "replay":
      outcome = await runReplay(input);
      break;
    case "blocks":
      outcome = runBlocks(input);
      break;
    case "card-answer":
      outcome = runCardAnswer(input);
      break;
    default:
      throw new Error(`unknown case kind ${String(kind)}`);
  }
  return hooks.outcome ? hooks.outcome(kind, rawInput, outcome) : outcome;
}
