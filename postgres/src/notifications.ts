/**
 * A small cross-process notification transport over PostgreSQL
 * LISTEN/NOTIFY: {@link publish} a bounded text payload on a channel (inside
 * a transaction it is delivered only if and when that transaction commits),
 * {@link subscribe} to receive them in another process.
 *
 * A notification is a wake-up, not a record: one sent while a subscriber's
 * connection was down is lost. The subscriber is told when its subscription
 * was re-established (`onResubscribed`), and must then re-read the durable
 * state the notifications are about. A periodic self-ping detects a
 * subscription that died silently (postgres.js gives up re-listening when
 * the server is unreachable at that moment) and re-establishes it.
 *
 * Payloads travel framed: `m:` + payload for messages, `p:` + token for the
 * subscribers' own pings; anything else on the channel is dropped.
 *
 * @module
 */
import { PgArgumentError } from "./errors.ts";
import type { Refusal, Result } from "@papercusp/chat-protocol";
import type { PgDriver, PgListenHandle, PgQueryable } from "./driver.ts";
import { isSafeIdentifier } from "./names.ts";
import { exceedsUtf8Bytes, isStorableText } from "./_text.ts";
import { MESSAGE_FRAME, PING_FRAME } from "./_frame.ts";

/**
 * Largest payload {@link publish} sends, in UTF-8 bytes: PostgreSQL refuses
 * NOTIFY payloads of 8000 bytes or more, and the frame adds 2.
 */
export const MAX_NOTIFY_PAYLOAD_BYTES = 7_997;

/** Default interval of the subscription health check, in ms. */
export const DEFAULT_HEALTH_CHECK_MS = 10_000;

/** Codes of {@link NotifyRefusal}. */
export type NotifyRefusalCode =
  /** The channel is not a lower-case identifier (`[a-z_][a-z0-9_]*`, at most 63 bytes). */
  | "invalid-channel"
  /** The payload is not a string, or holds a NUL or a lone surrogate (PostgreSQL text cannot carry them unchanged). */
  | "invalid-payload"
  /** The payload is larger than the bound. */
  | "too-large";

/** Why {@link publish} or {@link subscribe} refused (nothing was sent or subscribed). */
export interface NotifyRefusal extends Refusal<NotifyRefusalCode> {
  /** The bound, in UTF-8 bytes (`too-large`). */
  readonly maxBytes?: number;
}

function checkChannel(channel: unknown): NotifyRefusal | null {
  return isSafeIdentifier(channel) ? null : {
    code: "invalid-channel",
    message: "channel must match [a-z_][a-z0-9_]* and be at most 63 bytes",
  };
}

function checkPayload(payload: unknown, maxBytes: number): NotifyRefusal | null {
  if (typeof payload !== "string" || !isStorableText(payload)) {
    return {
      code: "invalid-payload",
      message: "payload must be a well-formed Unicode string without NUL characters",
    };
  }
  if (exceedsUtf8Bytes(payload, maxBytes)) {
    return {
      code: "too-large",
      message: `payload is more than ${maxBytes} bytes`,
      maxBytes,
    };
  }
  return null;
}

/**
 * Send `payload` on `channel` with `pg_notify` through `q`: a driver (sent
 * at once) or a transaction in progress (sent when it commits, never when it
 * rolls back; PostgreSQL delivers each distinct payload of a transaction
 * once). Refuses an invalid channel or payload, or one over
 * {@link MAX_NOTIFY_PAYLOAD_BYTES}, with a typed {@link NotifyRefusal};
 * rejects with the driver's `PgDriverError` when the database fails.
 *
 * @example
 * ```ts
 * import { PGlite } from "@electric-sql/pglite";
 * import { pgliteDriver, publish } from "@papercusp/chat-protocol-postgres";
 * const driver = pgliteDriver(await PGlite.create());
 * await driver.transaction(async (tx) => {
 *   await tx.query("SELECT 1"); // the durable change goes here
 *   const sent = await publish(tx, "turn_cancel", JSON.stringify({ turnId: "t1" }));
 *   if (!sent.ok) throw new Error(sent.error.message);
 * });
 * ```
 */
export async function publish(
  q: PgQueryable,
  channel: string,
  payload: string,
): Promise<Result<void, NotifyRefusal>> {
  const refused = checkChannel(channel) ?? checkPayload(payload, MAX_NOTIFY_PAYLOAD_BYTES);
  if (refused) return { ok: false, error: refused };
  await q.query("SELECT pg_notify($1::text, $2::text)", [channel, MESSAGE_FRAME + payload]);
  return { ok: true, value: undefined };
}

/** Callbacks of {@link subscribe}. Each is called synchronously; a throw goes to `onError`. */
export interface NotificationHandlers {
  /** A message published on the channel (payload without its frame). */
  onMessage(payload: string): void;
  /**
   * The subscription was re-established after a lost connection or a failed
   * health check: messages may have been missed, re-read the durable state.
   */
  onResubscribed?(): void;
  /** A handler threw, or re-establishing the subscription failed (it is retried at the next check). */
  onError?(error: unknown): void;
}

/** Options of {@link subscribe}. */
export interface SubscribeOptions {
  /** Largest delivered payload, in UTF-8 bytes; larger ones are dropped. Default {@link MAX_NOTIFY_PAYLOAD_BYTES}. */
  readonly maxPayloadBytes?: number;
  /**
   * Interval of the health check in ms (a self-ping that must come back
   * before the next check, else the subscription is re-established);
   * default {@link DEFAULT_HEALTH_CHECK_MS}; 0 turns it off.
   */
  readonly healthCheckMs?: number;
}

/** Counters of a {@link NotificationSubscription}. */
export interface SubscriptionStats {
  /** Messages delivered to `onMessage`. */
  readonly delivered: number;
  /** Notifications dropped: not framed by {@link publish}, too large, or another subscriber's ping. */
  readonly dropped: number;
  /** Times the subscription was re-established. */
  readonly resubscribed: number;
}

/** A live subscription made by {@link subscribe}. */
export interface NotificationSubscription {
  /** The channel. */
  readonly channel: string;
  /** Counters so far. */
  stats(): SubscriptionStats;
  /** Stop listening and stop the health check (idempotent). */
  close(): Promise<void>;
}

/**
 * LISTEN on `channel` through `driver` and deliver each message published
 * with {@link publish} to `handlers.onMessage`. Resolves once listening, or
 * to a typed refusal for an invalid channel; rejects with the driver's
 * `PgDriverError` when the first LISTEN fails. Rejects with `PgArgumentError` for a
 * negative or non-integer option (a programmer's mistake).
 */
export async function subscribe(
  driver: PgDriver,
  channel: string,
  handlers: NotificationHandlers,
  options: SubscribeOptions = {},
): Promise<Result<NotificationSubscription, NotifyRefusal>> {
  const refused = checkChannel(channel);
  if (refused) return { ok: false, error: refused };
  const maxBytes = options.maxPayloadBytes ?? MAX_NOTIFY_PAYLOAD_BYTES;
  const interval = options.healthCheckMs ?? DEFAULT_HEALTH_CHECK_MS;
  for (const [name, v] of [["maxPayloadBytes", maxBytes], ["healthCheckMs", interval]] as const) {
    if (!Number.isSafeInteger(v) || v < 0) {
      throw new PgArgumentError("invalid-option", `${name} must be a non-negative integer`);
    }
  }
  const sub = new Subscription(driver, channel, handlers, maxBytes, interval);
  await sub.start();
  return { ok: true, value: sub };
}

class Subscription implements NotificationSubscription {
  readonly channel: string;
  readonly #driver: PgDriver;
  readonly #handlers: NotificationHandlers;
  readonly #maxBytes: number;
  readonly #interval: number;
  readonly #token = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
  #handle: PgListenHandle | null = null;
  #timer: ReturnType<typeof setInterval> | null = null;
  #closed = false;
  #pingSent = 0;
  #pingSeen = 0;
  #checking = false;
  #delivered = 0;
  #dropped = 0;
  #resubscribed = 0;

  constructor(
    driver: PgDriver,
    channel: string,
    handlers: NotificationHandlers,
    maxBytes: number,
    interval: number,
  ) {
    this.#driver = driver;
    this.channel = channel;
    this.#handlers = handlers;
    this.#maxBytes = maxBytes;
    this.#interval = interval;
  }

  async start(): Promise<void> {
    this.#handle = await this.#listen();
    if (this.#interval > 0) {
      this.#timer = setInterval(() => void this.#check(), this.#interval);
      // Never keep a process alive just for the health check (Node and Deno timers).
      (this.#timer as { unref?: () => void }).unref?.();
      await this.#ping();
    }
  }

  #listen(): Promise<PgListenHandle> {
    let first = true;
    return this.#driver.listen(this.channel, (p) => this.#receive(p), () => {
      if (first) {
        first = false;
        return;
      }
      // The client re-established LISTEN on a new connection by itself.
      this.#resubscribed++;
      this.#call(() => this.#handlers.onResubscribed?.());
    });
  }

  #receive(raw: unknown): void {
    if (this.#closed) return;
    if (typeof raw !== "string") {
      this.#dropped++;
      return;
    }
    if (raw.startsWith(PING_FRAME)) {
      const [token, n] = raw.slice(2).split(":");
      if (token === this.#token) this.#pingSeen = Math.max(this.#pingSeen, Number(n) || 0);
      else this.#dropped++;
      return;
    }
    const payload = raw.slice(2);
    if (
      !raw.startsWith(MESSAGE_FRAME) ||
      exceedsUtf8Bytes(payload, this.#maxBytes)
    ) {
      this.#dropped++;
      return;
    }
    this.#delivered++;
    this.#call(() => this.#handlers.onMessage(payload));
  }

  #call(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      try {
        this.#handlers.onError?.(e);
      } catch { /* an onError that throws has nowhere left to report */ }
    }
  }

  async #ping(): Promise<void> {
    const n = ++this.#pingSent;
    await this.#driver.query("SELECT pg_notify($1::text, $2::text)", [
      this.channel,
      `${PING_FRAME}${this.#token}:${n}`,
    ]);
  }

  /** One health check: the previous ping must have come back, else re-LISTEN. */
  async #check(): Promise<void> {
    if (this.#closed || this.#checking) return;
    this.#checking = true;
    try {
      if (this.#pingSeen < this.#pingSent) {
        const old = this.#handle;
        this.#handle = null;
        await old?.unlisten().catch(() => {});
        this.#handle = await this.#listen();
        if (this.#closed) {
          await this.#handle.unlisten();
          return;
        }
        this.#pingSeen = this.#pingSent;
        this.#resubscribed++;
        this.#call(() => this.#handlers.onResubscribed?.());
      }
      await this.#ping();
    } catch (e) {
      this.#call(() => this.#handlers.onError?.(e));
    } finally {
      this.#checking = false;
    }
  }

  stats(): SubscriptionStats {
    return {
      delivered: this.#delivered,
      dropped: this.#dropped,
      resubscribed: this.#resubscribed,
    };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer !== null) clearInterval(this.#timer);
    await this.#handle?.unlisten();
  }
}
