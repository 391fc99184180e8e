/**
 * Small HTTP clients of the reference host for tests: JSON calls as a user
 * (`x-user-id`), a v1 SSE reader on `fetch` + `eventsource-parser` that
 * resumes with `Last-Event-ID`, and the expected text of the scripted turn.
 *
 * @module
 */
import { createParser } from "eventsource-parser";
import type { ChatEventEnvelope } from "../../mod.ts";
import { closingText, middleText, openingText } from "../../examples/chat_host/script.ts";

/** A JSON response: status and parsed body (or `null`). */
export interface JsonReply {
  readonly status: number;
  // deno-lint-ignore no-explicit-any
  readonly body: any;
  readonly headers: Headers;
}

/** Call `path` of the host at `base` as `user` (no identity when `user` is `null`). */
export async function api(
  base: string,
  path: string,
  init: {
    readonly user?: string | null;
    readonly method?: string;
    readonly json?: unknown;
    readonly body?: BodyInit;
    readonly headers?: Record<string, string>;
  } = {},
): Promise<JsonReply> {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  if (init.user !== null) headers["x-user-id"] ??= init.user ?? "alice";
  let body = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(new URL(path, base), {
    method: init.method ?? (body === undefined ? "GET" : "POST"),
    headers,
    body,
  });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text === "" ? null : JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

/** Start a v1 turn as `user`; its ids. */
export async function startTurn(
  base: string,
  prompt: string,
  user = "alice",
): Promise<{ conversationId: string; turnId: string; events: string }> {
  const r = await api(base, "/api/turns", { user, json: { prompt } });
  if (r.status !== 201) throw new Error(`POST /api/turns: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** The result of reading one SSE connection. */
export interface SseRead {
  /** The envelopes received, in order. */
  readonly envelopes: ChatEventEnvelope[];
  /** The `id:` of the last event received (`null`: none). */
  readonly lastEventId: string | null;
  /** Whether the stream ended by itself (the turn's terminal event sent). */
  readonly ended: boolean;
  /** The HTTP status. */
  readonly status: number;
}

/**
 * Read the v1 SSE of `turnId` as `user`, after `lastEventId`; stop after
 * `maxEvents` events (then disconnect) or at the end of the stream.
 */
export async function readEvents(
  base: string,
  turnId: string,
  options: {
    readonly user?: string;
    readonly lastEventId?: string | null;
    readonly maxEvents?: number;
    /** Called with each envelope as it arrives. */
    readonly onEnvelope?: (e: ChatEventEnvelope) => void;
  } = {},
): Promise<SseRead> {
  const ac = new AbortController();
  const headers: Record<string, string> = { "x-user-id": options.user ?? "alice" };
  if (options.lastEventId) headers["last-event-id"] = options.lastEventId;
  const res = await fetch(new URL(`/api/turns/${turnId}/events`, base), {
    headers,
    signal: ac.signal,
  });
  const envelopes: ChatEventEnvelope[] = [];
  let lastEventId = options.lastEventId ?? null;
  if (res.status !== 200 || res.body === null) {
    await res.body?.cancel();
    return { envelopes, lastEventId, ended: false, status: res.status };
  }
  const max = options.maxEvents ?? Infinity;
  let stop = false;
  const parser = createParser({
    onEvent: (m) => {
      if (stop) return;
      const e = JSON.parse(m.data);
      envelopes.push(e);
      if (m.id !== undefined) lastEventId = m.id;
      options.onEnvelope?.(e);
      if (envelopes.length >= max) stop = true;
    },
  });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let ended = false;
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) {
        ended = true;
        break;
      }
      parser.feed(r.value);
      if (stop) break;
    }
  } finally {
    if (!ended) {
      ac.abort();
      await reader.cancel().catch(() => {});
    }
  }
  return { envelopes, lastEventId, ended, status: res.status };
}

/** Read the whole turn, reconnecting with `Last-Event-ID` until the stream ends. */
export async function readWholeTurn(
  base: string,
  turnId: string,
  user = "alice",
): Promise<ChatEventEnvelope[]> {
  const all: ChatEventEnvelope[] = [];
  let last: string | null = null;
  for (let i = 0; i < 1000; i++) {
    let r: SseRead;
    try {
      r = await readEvents(base, turnId, { user, lastEventId: last });
    } catch {
      await new Promise((res) => setTimeout(res, 100));
      continue;
    }
    all.push(...r.envelopes);
    last = r.lastEventId;
    if (r.ended) return all;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error("the turn did not end");
}

/** The turn's full text (blocks included) as an uninterrupted scripted run streams it. */
export function expectedText(prompt: string, approved: boolean): string {
  return openingText(prompt) + middleText(prompt) + closingText(prompt, approved);
}

/**
 * Wait until `cond()` resolves truthy (polling every `everyMs`), or throw after
 * `timeoutMs` (default 120,000: a give-up bound only, never a judgement of speed).
 */
export async function until<T>(
  cond: () => T | Promise<T>,
  what: string,
  timeoutMs = 120_000,
  everyMs = 20,
): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await cond();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
