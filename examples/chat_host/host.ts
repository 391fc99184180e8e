/**
 * The reference chat host: a plain `fetch(Request) → Response` handler (no
 * Deno APIs inside, so it runs on Deno, Node and workerd alike) over the
 * Postgres stores of `@papercusp/chat-protocol-postgres`, serving one
 * scripted agent turn to three kinds of clients: the v1 SSE page, the AI
 * SDK's `useChat` / `Chat` (`DefaultChatTransport`) and AG-UI's
 * `HttpAgent`. See the README's "Reference host" section for the
 * endpoints.
 *
 * Authority is bound server-side: the user comes from `authenticate`
 * (demo: the `uid` cookie or the `x-user-id` header), the card and the
 * effects are bound to the user who started the turn, and every answer
 * (v1 POST, AI SDK approval, AG-UI resume) goes through
 * `InteractionResolver.answer` with the caller's own authority, so an
 * answer for another user's card, a replayed answer or a forged approval
 * is refused with the library's typed code and nothing stored changes.
 *
 * @module
 */
import { foldChatState } from "@papercusp/chat-protocol";
import {
  agUiResponse,
  type TurnSource,
  uiMessageStreamResponse,
  v1SseResponse,
} from "@papercusp/chat-protocol/http";
import { type CardResponse } from "@papercusp/chat-protocol/cards";
import { toHitlAnswers } from "@papercusp/chat-protocol/message";
import { parseAgUiResume } from "@papercusp/chat-protocol/ag-ui";
import { MemoryExecutions, TurnRecovery } from "@papercusp/chat-protocol/recovery";
import {
  InteractionResolver,
  type InteractionResolverOptions,
} from "@papercusp/chat-protocol/interactions";
import {
  migrate,
  type PgDriver,
  PostgresInteractionStore,
  PostgresRecoveryStore,
  PostgresReplayLog,
} from "@papercusp/chat-protocol-postgres";
import {
  createHostTables,
  insertTurn,
  latestChatTurn,
  readLedger,
  readTurn,
  type TurnRow,
  unfinishedTurns,
} from "./host_tables.ts";
import { APPROVAL_SCHEMA, cardIdOf, TOOLS } from "./script.ts";
import { authorityOf, type RunnerContext, runTurn } from "./turn_runner.ts";
import { Signals } from "./signals.ts";
import { LiveFeeds } from "./live_feed.ts";

/** A web page file the host serves. */
export interface WebAsset {
  /** The file's bytes or text. */
  readonly body: Uint8Array | string;
}

/** Options of {@link createChatHost}. */
export interface ChatHostOptions {
  /** The database (PGlite or a real server); the host migrates it and owns it (closes it). */
  readonly driver: PgDriver;
  /** Pause between streamed text deltas, ms (default 40). */
  readonly deltaMs?: number;
  /** Length of each streamed text delta, UTF-16 code units (default 6). */
  readonly deltaChars?: number;
  /** How long each tool effect runs, ms (default 300). */
  readonly effectMs?: number;
  /**
   * The user of a request, or `null` (answered 401). Default: the demo
   * scheme, the `uid` cookie or the `x-user-id` header (1–64 of
   * `[A-Za-z0-9_-]`). A real host checks its own session here.
   */
  readonly authenticate?: (request: Request) => string | null | Promise<string | null>;
  /**
   * The page's files by name (`index.html`, `app.js`, `style.css`), or
   * `null` when absent. Only those names are ever asked for.
   */
  readonly asset?: (name: string) => Promise<WebAsset | null>;
  /** Where operator lines go (`effect started …`); default `console.log`. */
  readonly print?: (line: string) => void;
  /**
   * Pause between an effect's ledger write and the store's completion, ms
   * (default 0; crash tests widen that window).
   */
  readonly afterEffectMs?: number;
  /** Heartbeat interval of the streams, ms (default 15,000). */
  readonly heartbeatMs?: number;
  /** Effect lease, ms (default 1,000: a dead worker's effect is taken over after it). */
  readonly leaseMs?: number;
  /**
   * Retention: keep only the last `retainEvents` events of a finished turn's
   * log (default: keep everything). A reader whose `Last-Event-ID` fell
   * below the window then gets `stale-cursor` (410), never a silent restart.
   */
  readonly retainEvents?: number;
  /**
   * Most turns one user may have open (not finished) at once (default 20);
   * one more is refused 429 `too-many-turns` until one of them ends.
   */
  readonly maxOpenTurns?: number;
}

/** A running host. */
export interface ChatHost {
  /** Answer one HTTP request. Never rejects. */
  fetch(request: Request): Promise<Response>;
  /** The unfinished turns found at start (each is being resumed). */
  readonly resumedTurns: readonly string[];
  /** Stop the runners and close the database. */
  close(): Promise<void>;
}

/** The page files served, by path: file name and content type (an allow-list). */
const PAGES: Readonly<Record<string, readonly [string, string]>> = {
  "/": ["index.html", "text/html; charset=utf-8"],
  "/index.html": ["index.html", "text/html; charset=utf-8"],
  "/app.js": ["app.js", "text/javascript; charset=utf-8"],
  "/style.css": ["style.css", "text/css; charset=utf-8"],
};

/** Largest JSON body of the turn / answer endpoints, bytes. */
const MAX_SMALL_BODY = 16 * 1024;
/** Largest JSON body of the AI SDK and AG-UI endpoints (they send the history), bytes. */
const MAX_CHAT_BODY = 512 * 1024;
/** Longest prompt, UTF-16 code units. */
const MAX_PROMPT = 4_000;
const USER_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** Lifetime of the demo `uid` cookie, seconds (30 days: a browser restart keeps the user's turns). */
const UID_MAX_AGE_S = 30 * 24 * 60 * 60;
const ID = /^[A-Za-z0-9_:.-]{1,200}$/;

/** A JSON error response `{ error: { code, message } }`. */
function refuse(status: number, code: string, message: string): Response {
  return Response.json({ error: { code, message } }, {
    status,
    headers: { "cache-control": "no-store" },
  });
}

/** The HTTP status of each `InteractionResolver` refusal code. */
const CARD_STATUS: Readonly<Record<string, number>> = {
  "not-found": 404,
  "unauthorized": 403,
  "duplicate": 409,
  "expired": 410,
  "cancelled": 409,
  "stale-revision": 409,
  "schema-changed": 409,
  "invalid-answer": 422,
  "decline-not-allowed": 422,
  "unknown-schema": 500,
  "needs-reconciliation": 503,
  "already-exists": 409,
  "invalid-request": 400,
  "store-unavailable": 503,
};

/** The HTTP status of each `TurnRecovery` refusal code the cancel endpoint can meet. */
const RECOVERY_STATUS: Readonly<Record<string, number>> = {
  "unauthorized": 403,
  "unknown-turn": 404,
  "turn-not-running": 409,
  "invalid-request": 400,
  "contention": 503,
  "cancel-uncertain": 503,
  "store-unavailable": 503,
};

function demoUser(request: Request): string | null {
  const header = request.headers.get("x-user-id");
  if (header !== null) return USER_ID.test(header) ? header : null;
  const cookie = request.headers.get("cookie") ?? "";
  for (const part of cookie.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === "uid") {
      const id = v.join("=");
      return USER_ID.test(id) ? id : null;
    }
  }
  return null;
}

type Body = { ok: true; value: Record<string, unknown> } | { ok: false; response: Response };

/** Read a JSON object body of at most `max` bytes (typed 4xx refusals otherwise). */
async function readJson(request: Request, max: number): Promise<Body> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json") {
    return {
      ok: false,
      response: refuse(415, "unsupported-media-type", "the body must be application/json"),
    };
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  const tooLarge = () => ({
    ok: false as const,
    response: refuse(413, "body-too-large", `the body is over ${max} bytes`),
  });
  if (declared > max) return tooLarge();
  if (request.body === null) {
    return { ok: false, response: refuse(400, "malformed-json", "the body is empty") };
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      size += r.value.byteLength;
      if (size > max) {
        await reader.cancel().catch(() => {});
        return tooLarge();
      }
      chunks.push(r.value);
    }
  } catch {
    return { ok: false, response: refuse(400, "malformed-json", "the body could not be read") };
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return { ok: false, response: refuse(400, "malformed-json", "the body is not valid JSON") };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, response: refuse(400, "invalid-body", "the body must be a JSON object") };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/** The text of a chat message (AI SDK `parts` or AG-UI `content`), or `null`. */
function messageText(m: unknown): string | null {
  if (typeof m !== "object" || m === null) return null;
  const { content, parts } = m as { content?: unknown; parts?: unknown };
  if (typeof content === "string") return content;
  if (Array.isArray(parts)) {
    return parts.filter((p) => p?.type === "text" && typeof p.text === "string")
      .map((p) => p.text as string).join("");
  }
  return null;
}

/**
 * Build the host over `options.driver`: migrate the library's stores and
 * the host's tables, then resume every unfinished turn in the background.
 * Rejects when the database cannot be migrated.
 */
export async function createChatHost(options: ChatHostOptions): Promise<ChatHost> {
  const db = options.driver;
  const migrated = await migrate(db);
  if (!migrated.ok) throw new Error(`migrate: ${migrated.error.code}: ${migrated.error.message}`);
  await createHostTables(db);
  const print = options.print ?? ((line: string) => console.log(line));
  const authenticate = options.authenticate ?? demoUser;
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const leaseMs = options.leaseMs ?? 1_000;
  const maxOpenTurns = options.maxOpenTurns ?? 20;

  const log = new PostgresReplayLog(db);
  const recoveryStore = new PostgresRecoveryStore(db);
  const interactionStore = new PostgresInteractionStore(db);
  const executions = new MemoryExecutions();
  const recovery = new TurnRecovery({
    store: recoveryStore,
    authority: recoveryStore.authority(),
    abort: executions,
    workerId: `host-${crypto.randomUUID().slice(0, 8)}`,
    leaseMs,
    renewEveryMs: Math.max(50, Math.floor(leaseMs / 4)),
  });
  const approval: InteractionResolverOptions["schemas"] = (ref) =>
    ref.id === APPROVAL_SCHEMA.id && ref.revision === APPROVAL_SCHEMA.revision
      ? {
        "~standard": {
          version: 1,
          vendor: "chat-host",
          validate: (v: unknown) =>
            typeof v === "object" && v !== null && (v as { confirmed?: unknown }).confirmed === true
              ? { value: { confirmed: true } }
              : {
                issues: [{ message: "an approval is answered { confirmed: true } or declined" }],
              },
        },
      }
      : undefined;
  const resolver = new InteractionResolver({ store: interactionStore, schemas: approval });
  const signals = new Signals();
  const feeds = new LiveFeeds();
  const ctx: RunnerContext = {
    feeds,
    db,
    log,
    recovery,
    executions,
    resolver,
    deltaMs: options.deltaMs ?? 40,
    deltaChars: Math.max(1, options.deltaChars ?? 6),
    effectMs: options.effectMs ?? 300,
    afterEffectMs: options.afterEffectMs ?? 0,
    print,
    signals,
  };

  let closing = false;
  const running = new Map<string, Promise<void>>();
  function launch(turn: TurnRow): void {
    if (running.has(turn.turnId) || closing) return;
    feeds.open(turn.turnId);
    const p = (async () => {
      try {
        await ensureTurn(turn);
        await runTurn(ctx, turn, () => closing);
        if (options.retainEvents !== undefined && !closing) {
          await log.trim({ keepLast: options.retainEvents }, turn.turnId);
        }
      } catch (e) {
        if (!closing) print(`turn ${turn.turnId} stopped: ${e instanceof Error ? e.message : e}`);
      } finally {
        running.delete(turn.turnId);
        feeds.close(turn.turnId);
      }
    })();
    running.set(turn.turnId, p);
  }

  /** Grants and the recovery turn record (idempotent: a restart repeats it). */
  async function ensureTurn(turn: TurnRow): Promise<void> {
    await recoveryStore.grant(turn.userId, turn.turnId);
    await interactionStore.grant(authorityOf(turn.userId, turn.conversationId));
    const begun = await recovery.beginTurn({
      conversationId: turn.conversationId,
      turnId: turn.turnId,
      principal: turn.userId,
      effectIds: [...TOOLS],
    });
    if (!begun.ok && begun.error.code !== "turn-exists") {
      throw new Error(`beginTurn: ${begun.error.code}: ${begun.error.message}`);
    }
  }

  async function startTurn(
    userId: string,
    prompt: string,
    chatKey: string | null,
    conversationId: string,
  ): Promise<TurnRow | Response> {
    const turn: TurnRow = {
      turnId: `turn-${crypto.randomUUID()}`,
      conversationId,
      userId,
      chatKey,
      prompt,
      createdAt: Date.now(),
      finished: false,
    };
    if (!await insertTurn(db, turn, maxOpenTurns)) {
      return refuse(
        429,
        "too-many-turns",
        `at most ${maxOpenTurns} turns of a user may be open at once: finish or cancel one`,
      );
    }
    await ensureTurn(turn);
    launch(turn);
    return turn;
  }

  /**
   * Where the responses read a turn: the log, then this process's live feed
   * of the turn when it runs here, else the log again at each wake-up (an
   * append notification, or every second). `paused`: for the AI SDK and
   * AG-UI responses, which end at the card when nothing more is available:
   * they read the log at wake-ups (a live feed that re-delivers frames the
   * window already sent counts as "available" for the helper, and the
   * response would not end at the pause).
   */
  function source(turn: TurnRow, paused = false): TurnSource {
    const base = { conversationId: turn.conversationId, turnId: turn.turnId, window: log };
    return feeds.has(turn.turnId) && !paused
      ? { ...base, live: (afterSeq, signal) => feeds.follow(turn.turnId, afterSeq, signal) }
      : { ...base, wake: signals.waker(`log:${turn.turnId}`) };
  }

  /** The turn `turnId` of `userId`, or the refusal. */
  async function ownTurn(turnId: string, userId: string): Promise<TurnRow | Response> {
    const turn = ID.test(turnId) ? await readTurn(db, turnId) : null;
    if (turn === null) return refuse(404, "unknown-turn", "no such turn");
    if (turn.userId !== userId) return refuse(403, "unauthorized", "the turn is another user's");
    return turn;
  }

  /**
   * Resolve card answers through the resolver with the caller's own
   * authority. Every answer is checked BEFORE any is resolved, so a refused
   * request stores nothing: each names a known card (404 `not-found`), of a
   * turn of the caller (403 `unauthorized`), started in the chat `chatKey`
   * (403 `unauthorized`: the card is not of this chat / thread), and all name
   * the same single card (400 `invalid-request`: answers for several turns or
   * several answers for one card). Then the one answer goes to the resolver;
   * its refusal is answered with the library's code.
   */
  async function answerCards(
    userId: string,
    chatKey: string,
    answers: readonly CardResponse[],
  ): Promise<{ ok: true; turn: TurnRow } | { ok: false; response: Response }> {
    const fail = (status: number, code: string, message: string) => ({
      ok: false as const,
      response: refuse(status, code, message),
    });
    if (answers.length === 0) return fail(400, "invalid-request", "no answer");
    if (answers.length > 1) {
      return fail(400, "invalid-request", "answers for several cards or turns in one request");
    }
    const [a] = answers;
    const id = a.correlationId;
    const turnId = typeof id === "string" && id.endsWith(":approve-refund")
      ? id.slice(0, -":approve-refund".length)
      : "";
    const owner = ID.test(turnId) ? await readTurn(db, turnId) : null;
    if (owner === null || cardIdOf(owner.turnId) !== id) {
      return fail(404, "not-found", "no such card");
    }
    if (owner.userId !== userId) return fail(403, "unauthorized", "the card is another user's");
    if (owner.chatKey !== chatKey) {
      return fail(403, "unauthorized", "the card is not of this chat");
    }
    const r = await resolver.answer({
      id,
      caller: authorityOf(userId, owner.conversationId),
      response: a,
    });
    if (!r.ok) return fail(CARD_STATUS[r.error.code] ?? 400, r.error.code, r.error.message);
    signals.notify(`card:${owner.turnId}`);
    return { ok: true, turn: owner };
  }

  async function conversationFor(
    userId: string,
    requested: unknown,
    chatKey: string | null,
  ): Promise<string | Response> {
    if (requested !== undefined) {
      if (typeof requested !== "string" || !ID.test(requested)) {
        return refuse(400, "invalid-request", "conversationId must be an id");
      }
      const { rows } = await db.query<{ n: number }>(
        `SELECT 1 AS n FROM chat_host_turns WHERE conversation_id = $1 AND user_id = $2 LIMIT 1`,
        [requested, userId],
      );
      if (rows.length === 0) {
        return refuse(404, "unknown-conversation", "no such conversation of this user");
      }
      return requested;
    }
    if (chatKey !== null) {
      const last = await latestChatTurn(db, userId, chatKey);
      if (last !== null) return last.conversationId;
    }
    return `conv-${crypto.randomUUID()}`;
  }

  /**
   * The prompt, or a 400 `invalid-prompt`: not a string, blank, over
   * {@link MAX_PROMPT} UTF-16 code units, holding U+0000 (a Postgres `text`
   * cannot store it) or a lone surrogate (not well-formed UTF-16).
   */
  function checkPrompt(prompt: unknown): string | Response {
    if (typeof prompt !== "string" || prompt.trim() === "" || prompt.length > MAX_PROMPT) {
      return refuse(
        400,
        "invalid-prompt",
        `prompt must be a non-empty string of at most ${MAX_PROMPT} characters`,
      );
    }
    if (prompt.includes("\u0000") || !prompt.isWellFormed()) {
      return refuse(
        400,
        "invalid-prompt",
        "prompt must not hold U+0000 or a lone surrogate",
      );
    }
    return prompt;
  }

  // ---- endpoints ------------------------------------------------------------

  async function postTurn(request: Request, userId: string): Promise<Response> {
    const body = await readJson(request, MAX_SMALL_BODY);
    if (!body.ok) return body.response;
    const prompt = checkPrompt(body.value.prompt);
    if (prompt instanceof Response) return prompt;
    const conv = await conversationFor(userId, body.value.conversationId, null);
    if (conv instanceof Response) return conv;
    const turn = await startTurn(userId, prompt, null, conv);
    if (turn instanceof Response) return turn;
    return Response.json({
      conversationId: turn.conversationId,
      turnId: turn.turnId,
      events: `/api/turns/${turn.turnId}/events`,
    }, { status: 201 });
  }

  /**
   * `{ state, final, trimmed }`: the turn's folded state, whether it ended,
   * and whether retention dropped its first events. A trimmed log is never
   * folded as if it were the whole turn: `state` is then `null`, with the
   * retained window (`lowestRetainedSeq`, `latestSeq`) instead.
   */
  async function getTurn(turn: TurnRow): Promise<Response> {
    const headers = { "cache-control": "no-store" };
    const bounds = await log.bounds(turn.turnId);
    const frames = await log.readAfter(turn.turnId, 0);
    const last = frames.at(-1)?.event;
    const final = turn.finished || (last !== undefined &&
      (last.type === "done" || last.type === "error" ||
        (last.type === "turn_status" && last.status === "cancelled")));
    if (bounds.lowestRetainedSeq > 1 || (frames.length > 0 && frames[0].seq !== 1)) {
      return Response.json({
        state: null,
        final,
        trimmed: true,
        lowestRetainedSeq: Math.max(bounds.lowestRetainedSeq, frames[0]?.seq ?? 1),
        latestSeq: Math.max(bounds.latestSeq, frames.at(-1)?.seq ?? 0),
      }, { headers });
    }
    const state = foldChatState(frames).state ?? null;
    return Response.json({ state, final, trimmed: false }, { headers });
  }

  async function postAnswer(
    request: Request,
    userId: string,
    turnId: string,
    cardId: string,
  ): Promise<Response> {
    const body = await readJson(request, MAX_SMALL_BODY);
    if (!body.ok) return body.response;
    const turn = ID.test(turnId) ? await readTurn(db, turnId) : null;
    if (turn === null) return refuse(404, "unknown-turn", "no such turn");
    if (cardId !== cardIdOf(turn.turnId)) return refuse(404, "not-found", "no such card");
    const answer = body.value.answer;
    if (typeof answer !== "object" || answer === null || Array.isArray(answer)) {
      return refuse(400, "invalid-request", "answer must be an object { action, value? }");
    }
    const { action, value } = answer as { action?: unknown; value?: unknown };
    const response = action === "submit"
      ? { action, correlationId: cardId, value }
      : { action, correlationId: cardId };
    const r = await resolver.answer({
      id: cardId,
      caller: authorityOf(userId, turn.conversationId),
      response,
    });
    if (!r.ok) return refuse(CARD_STATUS[r.error.code] ?? 400, r.error.code, r.error.message);
    signals.notify(`card:${turn.turnId}`);
    return Response.json({
      outcome: r.value.outcome,
      status: r.value.record.status,
      submissionId: r.value.submission.submissionId,
    });
  }

  async function postCancel(turn: TurnRow, userId: string): Promise<Response> {
    if (turn.finished) return refuse(409, "turn-not-running", "the turn has ended");
    const r = await recovery.cancel({
      turnId: turn.turnId,
      principal: userId,
      reason: "cancelled by the user",
    });
    if (!r.ok) {
      return refuse(RECOVERY_STATUS[r.error.code] ?? 503, r.error.code, r.error.message);
    }
    // The abort hook stopped the runner here; a turn no runner holds is closed now.
    if (!running.has(turn.turnId)) launch(turn);
    return Response.json({ status: r.value.turn.status });
  }

  async function postChat(request: Request, userId: string): Promise<Response> {
    const body = await readJson(request, MAX_CHAT_BODY);
    if (!body.ok) return body.response;
    const { id: chatId, messages } = body.value;
    if (typeof chatId !== "string" || !ID.test(chatId)) {
      return refuse(400, "invalid-request", "id (the chat id) must be an id");
    }
    if (!Array.isArray(messages) || messages.length === 0) {
      return refuse(400, "invalid-request", "messages must be a non-empty array");
    }
    const chatKey = `ai:${chatId}`;
    const last = messages.at(-1) as { role?: unknown } | null;
    if (last?.role === "user") {
      const prompt = checkPrompt(messageText(last));
      if (prompt instanceof Response) return prompt;
      const conv = await conversationFor(userId, undefined, chatKey);
      if (conv instanceof Response) return conv;
      const turn = await startTurn(userId, prompt, chatKey, conv);
      if (turn instanceof Response) return turn;
      return uiMessageStreamResponse(request, source(turn, true), { heartbeatMs });
    }
    if (last?.role !== "assistant") {
      return refuse(
        400,
        "invalid-request",
        "the last message must be the user's or the assistant's",
      );
    }
    let answers;
    try {
      answers = toHitlAnswers(last as { parts: readonly unknown[] });
    } catch {
      return refuse(400, "invalid-request", "the assistant message could not be read");
    }
    if (answers.length === 0) {
      return refuse(400, "invalid-request", "the assistant message answers no approval");
    }
    const responses: CardResponse[] = answers.map((a) =>
      a.action === "accept"
        ? {
          action: "submit",
          correlationId: a.gateId,
          value: (a.payload ?? {}) as Record<string, unknown>,
        }
        : { action: "decline", correlationId: a.gateId }
    );
    const resolved = await answerCards(userId, chatKey, responses);
    if (!resolved.ok) return resolved.response;
    return uiMessageStreamResponse(request, source(resolved.turn, true), {
      heartbeatMs,
      continuation: { cardIds: responses.map((r) => r.correlationId) },
    });
  }

  async function getChatStream(
    request: Request,
    userId: string,
    chatId: string,
  ): Promise<Response> {
    if (!ID.test(chatId)) return refuse(400, "invalid-request", "bad chat id");
    const turn = await latestChatTurn(db, userId, `ai:${chatId}`);
    if (turn === null || turn.finished) return new Response(null, { status: 204 });
    return uiMessageStreamResponse(request, source(turn, true), {
      heartbeatMs,
    });
  }

  async function postAgUi(request: Request, userId: string): Promise<Response> {
    const body = await readJson(request, MAX_CHAT_BODY);
    if (!body.ok) return body.response;
    const parsed = parseAgUiResume(body.value);
    if (!parsed.ok) return refuse(400, parsed.error.code, parsed.error.message);
    const { threadId, runId, responses } = parsed.value;
    if (!ID.test(threadId)) return refuse(400, "invalid-request", "threadId must be an id");
    const chatKey = `ag:${threadId}`;
    if (responses.length > 0) {
      const resolved = await answerCards(userId, chatKey, responses);
      if (!resolved.ok) return resolved.response;
      return agUiResponse(request, source(resolved.turn, true), {
        heartbeatMs,
        runId,
        continuation: { cardIds: responses.map((r) => r.correlationId) },
      });
    }
    const messages = body.value.messages;
    const lastUser = Array.isArray(messages)
      ? [...messages].reverse().find((m) => m?.role === "user")
      : undefined;
    const prompt = checkPrompt(messageText(lastUser));
    if (prompt instanceof Response) return prompt;
    const conv = await conversationFor(userId, undefined, chatKey);
    if (conv instanceof Response) return conv;
    const turn = await startTurn(userId, prompt, chatKey, conv);
    if (turn instanceof Response) return turn;
    return agUiResponse(request, source(turn, true), { heartbeatMs, runId });
  }

  async function servePage(request: Request, path: string): Promise<Response> {
    const [name, type] = PAGES[path];
    const file = options.asset === undefined ? null : await options.asset(name);
    if (file === null) return refuse(404, "not-found", `${name} is not built`);
    const headers = new Headers({
      "content-type": type,
      "cache-control": "no-cache",
      "x-content-type-options": "nosniff",
    });
    if (name === "index.html") {
      headers.set(
        "content-security-policy",
        "default-src 'self'; script-src 'self'; style-src 'self'; object-src 'none'; base-uri 'none'",
      );
      if (demoUser(request) === null && options.authenticate === undefined) {
        headers.append(
          "set-cookie",
          `uid=u-${crypto.randomUUID()}; Path=/; Max-Age=${UID_MAX_AGE_S}; HttpOnly; SameSite=Strict`,
        );
      }
    }
    return new Response(file.body as BodyInit, { headers });
  }

  async function route(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname;
    const method = request.method;
    if (Object.hasOwn(PAGES, path)) {
      if (method !== "GET" && method !== "HEAD") {
        return refuse(405, "method-not-allowed", `${method} ${path}`);
      }
      return servePage(request, path);
    }
    if (!path.startsWith("/api/")) return refuse(404, "not-found", "no such page");
    const userId = await authenticate(request);
    if (userId === null) {
      return refuse(401, "unauthenticated", "no user: send the uid cookie or x-user-id");
    }
    const parts = path.split("/").slice(2).map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return "\u0000";
      }
    });
    const is = (m: string) => method === m;
    const wrong = () => refuse(405, "method-not-allowed", `${method} ${path}`);
    if (parts[0] === "turns") {
      if (parts.length === 1) return is("POST") ? postTurn(request, userId) : wrong();
      const turnId = parts[1];
      if (parts.length === 5 && parts[2] === "cards" && parts[4] === "answer") {
        return is("POST") ? postAnswer(request, userId, turnId, parts[3]) : wrong();
      }
      const turn = await ownTurn(turnId, userId);
      if (turn instanceof Response) return turn;
      if (parts.length === 2) return is("GET") ? getTurn(turn) : wrong();
      if (parts.length === 3 && parts[2] === "events") {
        return is("GET")
          ? v1SseResponse(request, source(turn), { heartbeatMs, retryMs: 1_000 })
          : wrong();
      }
      if (parts.length === 3 && parts[2] === "cancel") {
        return is("POST") ? postCancel(turn, userId) : wrong();
      }
    } else if (parts[0] === "chat") {
      if (parts.length === 1) return is("POST") ? postChat(request, userId) : wrong();
      if (parts.length === 3 && parts[2] === "stream") {
        return is("GET") ? getChatStream(request, userId, parts[1]) : wrong();
      }
    } else if (parts[0] === "ag-ui" && parts.length === 1) {
      return is("POST") ? postAgUi(request, userId) : wrong();
    } else if (parts[0] === "ledger" && parts.length === 1) {
      if (!is("GET")) return wrong();
      const rows = await readLedger(db, userId);
      return Response.json({
        effects: rows.map((r) => ({
          key: r.key,
          toolName: r.toolName,
          turnId: r.turnId,
          at: r.at,
        })),
      }, { headers: { "cache-control": "no-store" } });
    }
    return refuse(404, "not-found", "no such endpoint");
  }

  const resumed = await unfinishedTurns(db);
  for (const t of resumed) launch(t);

  return {
    async fetch(request: Request): Promise<Response> {
      try {
        return await route(request);
      } catch (e) {
        print(`request failed: ${e instanceof Error ? e.message : String(e)}`);
        return refuse(500, "host-failure", "the request failed on the server");
      }
    },
    resumedTurns: resumed.map((t) => t.turnId),
    async close() {
      closing = true;
      for (const id of running.keys()) executions.abort(id, "host closing");
      await Promise.allSettled([...running.values()]);
      await db.close();
    },
  };
}
