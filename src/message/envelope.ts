/**
 * The `ChatMessage` envelope around a {@link UIMessage}: thread, author,
 * creation time, reply link, broker-set provenance and per-recipient delivery.
 *
 * The zod schemas carry the titan seed's names ({@link chatMessage},
 * {@link inboundChatMessage}, {@link provenance}, {@link participant}, …);
 * the Result-returning readers for untrusted input are
 * {@link parseChatMessage} and {@link parseInboundChatMessage}.
 *
 * Provenance is never taken from a transport: {@link parseInboundChatMessage}
 * (and the {@link inboundChatMessage} schema) refuses a payload that claims
 * `provenance` or `delivery`, and {@link markHumanEndorsed} (with its checked
 * form {@link endorseAgentMessage}) is the only way an endorsement is minted.
 * {@link parseChatMessage} keeps a stored endorsement as written, so it is
 * for messages the broker stored itself, never for transport input. Unlike
 * the titan original, re-parsing an endorsed message keeps the endorsement,
 * and an endorsement without `attestedBy` is refused (strict provenance
 * objects, endorsed variant first).
 *
 * @module
 */
import { z } from "zod";
import { ownRecord } from "../_internal/record_schema.ts";
import { err, ok, type Result } from "../result.ts";
import { isRecord } from "../_internal/guards.ts";
import { describeValue } from "../_internal/describe.ts";
import { MessageArgumentError } from "./errors.ts";
import { type ChatPart, chatPart, type MessageRole, messageRole } from "./parts.ts";
import type { DeliveryState } from "./delivery.ts";
import { deliveryState } from "./delivery_schemas.ts";
import { MAX_MESSAGE_PARTS } from "./message_limits.ts";

/** What kind of thread a message lives in. */
export type ThreadKind = "coach" | "agent-run" | "bus" | "device" | "harness";
/** {@link ThreadKind}. */
export const threadKind: z.ZodType<ThreadKind> = z.enum([
  "coach",
  "agent-run",
  "bus",
  "device",
  "harness",
]);

/** Participant kinds beyond the three roles. */
export type ParticipantKind = "human" | "agent" | "device" | "service";
/** {@link ParticipantKind}. */
export const participantKind: z.ZodType<ParticipantKind> = z.enum([
  "human",
  "agent",
  "device",
  "service",
]);

/** Address schemes a participant can be reached on. */
export type AddressScheme = "telegram" | "imessage" | "agent-chat" | "mcp";
/** {@link AddressScheme}. */
export const addressScheme: z.ZodType<AddressScheme> = z.enum([
  "telegram",
  "imessage",
  "agent-chat",
  "mcp",
]);

/** Where a participant is reached. */
export interface ParticipantAddress {
  /** Address scheme. */
  scheme: AddressScheme;
  /** Address within the scheme (non-empty). */
  value: string;
}

/**
 * A thread participant. Identity is `id`; `role` is only a rendering hint.
 */
export interface Participant {
  /** Non-empty id. */
  id: string;
  /** Message role (rendering hint). */
  role: MessageRole;
  /** May be empty. */
  displayName: string;
  /** Kind of thread / participant. */
  kind: ParticipantKind;
  /** Where the participant is reached, if known. */
  address?: ParticipantAddress;
}
/** {@link Participant}. */
export const participant: z.ZodType<Participant> = z.object({
  id: z.string().min(1),
  role: messageRole,
  displayName: z.string(),
  kind: participantKind,
  address: z.object({ scheme: addressScheme, value: z.string().min(1) }).optional(),
});

/** A thread. `createdAt` is ISO-8601 (UTC, with offset). */
export interface ChatThread {
  /** Non-empty id. */
  id: string;
  /** Kind of thread / participant. */
  kind: ThreadKind;
  /** Thread title. */
  title?: string;
  /** Participants of the thread. */
  participants: Participant[];
  /** Creation time, ISO-8601. */
  createdAt: string;
}

const isoDateTime = z.iso.datetime({ offset: true });

/** {@link ChatThread}. */
export const chatThread: z.ZodType<ChatThread> = z.object({
  id: z.string().min(1),
  kind: threadKind,
  title: z.string().optional(),
  participants: z.array(participant),
  createdAt: isoDateTime,
});

/**
 * Who authored a message: a human, an agent, or an agent whose message a
 * human endorsed (`attestedBy` names the attesting participant).
 */
export type Provenance =
  | { authored: "human" }
  | { authored: "agent" }
  | { authored: "agent"; endorsedBy: "human"; attestedBy: string };

/**
 * {@link Provenance}. Strict objects, endorsed variant first: an endorsement
 * survives a re-parse, and `endorsedBy` without a non-empty `attestedBy` is
 * refused rather than downgraded.
 */
export const provenance: z.ZodType<Provenance> = z.union([
  z.strictObject({
    authored: z.literal("agent"),
    endorsedBy: z.literal("human"),
    attestedBy: z.string().min(1),
  }),
  z.strictObject({ authored: z.literal("human") }),
  z.strictObject({ authored: z.literal("agent") }),
]);

/**
 * The message document: a {@link UIMessage} plus an envelope. `createdAt` is
 * an ISO-8601 timestamp; `delivery` has one entry per recipient (absent = not
 * tracked, never "delivered").
 */
export interface ChatMessage {
  /** Non-empty id. */
  id: string;
  /** Thread the message belongs to. */
  threadId: string;
  /** The author participant's id. */
  authorId: string;
  /** Message role (rendering hint). */
  role: MessageRole;
  /** Creation time, ISO-8601. */
  createdAt: string;
  /** The message parts, in order. */
  parts: ChatPart[];
  /** Free-form message metadata. */
  metadata?: Record<string, unknown>;
  /** Id of the message this one answers. */
  inReplyTo?: string;
  /** Broker-set authorship; never taken from a transport. */
  provenance?: Provenance;
  /** One delivery state per recipient; absent = not tracked. */
  delivery?: DeliveryState[];
}

const bodyShape = {
  id: z.string().min(1),
  threadId: z.string().min(1),
  authorId: z.string().min(1),
  role: messageRole,
  createdAt: isoDateTime,
  parts: z.array(chatPart),
  metadata: ownRecord(z.string(), z.unknown()).optional(),
  inReplyTo: z.string().min(1).optional(),
};

/** {@link ChatMessage} (unknown keys stripped). */
export const chatMessage: z.ZodType<ChatMessage> = z.object({
  ...bodyShape,
  provenance: provenance.optional(),
  delivery: z.array(deliveryState).optional(),
});

/** The message body a transport may hand in. */
export type InboundChatMessage = Omit<ChatMessage, "provenance" | "delivery">;

/**
 * {@link InboundChatMessage}: a strict object; any other key, including
 * `provenance` or `delivery` (even with value `undefined`), fails.
 */
export const inboundChatMessage: z.ZodType<InboundChatMessage> = z.strictObject(bodyShape);

/**
 * The envelopes as {@link parseChatMessage} / {@link parseInboundChatMessage}
 * check them: `parts` taken as it is read (once), then snapshotted and
 * checked part by part (see `checkParts`), so a `parts` whose `length`
 * answers differently on a second read cannot fabricate parts.
 */
const chatMessageShell = z.object({
  ...bodyShape,
  parts: z.unknown(),
  provenance: provenance.optional(),
  delivery: z.array(deliveryState).optional(),
});
const inboundShell = z.strictObject({ ...bodyShape, parts: z.unknown() });

/** At most this many issues are listed in a {@link MessageRefusal}. */
const MAX_MESSAGE_ISSUES = 20;

/**
 * `parts` (as the shell read it) checked: each element read once from a
 * snapshot of at most {@link MAX_MESSAGE_PARTS}, each checked with
 * {@link chatPart} until {@link MAX_MESSAGE_ISSUES} issues are found (the
 * work a refusal costs is bounded too). `too-many` when there are more
 * parts than the bound.
 */
function checkParts(
  parts: unknown,
  issues: MessageIssue[],
): ChatPart[] | "too-many" {
  let n: unknown;
  try {
    if (!Array.isArray(parts)) {
      issues.push({ path: ["parts"], message: `expected an array, got ${describeValue(parts)}` });
      return [];
    }
    n = parts.length;
  } catch {
    issues.push({ path: ["parts"], message: "reading the parts threw" });
    return [];
  }
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) {
    issues.push({ path: ["parts"], message: "its length cannot be read" });
    return [];
  }
  if (n > MAX_MESSAGE_PARTS) return "too-many";
  const out: ChatPart[] = new Array(n);
  for (let i = 0; i < n && issues.length < MAX_MESSAGE_ISSUES; i++) {
    let r: ReturnType<typeof chatPart.safeParse>;
    try {
      r = chatPart.safeParse((parts as unknown[])[i]);
    } catch {
      issues.push({ path: ["parts", i], message: "reading the part threw" });
      continue;
    }
    if (r.success) out[i] = r.data;
    else {
      for (const issue of toIssues(r.error)) {
        if (issues.length >= MAX_MESSAGE_ISSUES) break;
        issues.push({ path: ["parts", i, ...issue.path], message: issue.message });
      }
    }
  }
  return out;
}

/** `value` through `shell`, then its parts through {@link checkParts}. */
function parseMessage<T extends { parts: ChatPart[] }>(
  shell: z.ZodType<unknown>,
  value: unknown,
  what: string,
): Result<T, MessageRefusal> {
  const r = shell.safeParse(value);
  const issues: MessageIssue[] = r.success ? [] : toIssues(r.error);
  // zod read `parts` once: check what it read (an invalid shell still reports the parts)
  const data = r.success ? r.data as Record<string, unknown> : undefined;
  const parts = checkParts(
    data !== undefined ? data.parts : readPartsOnce(value),
    issues,
  );
  if (parts === "too-many") {
    return err({
      code: "too-many-parts",
      message: `${what} has more than ${MAX_MESSAGE_PARTS} parts`,
      issues: [{ path: ["parts"], message: `over ${MAX_MESSAGE_PARTS} parts` }],
    });
  }
  if (data === undefined || issues.length > 0) {
    return err({ code: "invalid-message", message: `not a valid ${what}`, issues });
  }
  return ok({ ...data, parts } as unknown as T);
}

/** `value.parts` read once, for a message the shell refused (`undefined` when unreadable). */
function readPartsOnce(value: unknown): unknown {
  try {
    return isRecord(value) ? value.parts : undefined;
  } catch {
    return undefined;
  }
}

/** One problem found while parsing, with its path. */
export interface MessageIssue {
  /** Path of the offending value. */
  path: (string | number)[];
  /** One human-readable sentence; not stable, do not match on it. */
  message: string;
}

/** Refusal of {@link parseChatMessage} / {@link parseInboundChatMessage}. */
export interface MessageRefusal {
  /**
   * Stable machine-readable reason: `invalid-message`; `too-many-parts`
   * (more than {@link MAX_MESSAGE_PARTS} parts: refused before any part is
   * read); for {@link parseInboundChatMessage}, `claims-provenance` or
   * `claims-delivery`.
   */
  readonly code: "invalid-message" | "too-many-parts" | "claims-provenance" | "claims-delivery";
  /** One human-readable sentence; not stable, do not match on it. */
  readonly message: string;
  /** At most 20 issues. */
  readonly issues: MessageIssue[];
}

function toIssues(e: z.ZodError): MessageIssue[] {
  return e.issues.slice(0, 20).map((i) => ({
    path: i.path.map((p) => (typeof p === "symbol" ? String(p) : p)),
    message: i.message,
  }));
}

/**
 * Parse a stored {@link ChatMessage}: one the broker itself wrote (from its
 * database or its own queue). Keeps `provenance` (an endorsement included)
 * and `delivery` exactly as written, so it must never see what a transport
 * or client hands in: a payload that claims an endorsement would come back
 * endorsed. Use {@link parseInboundChatMessage} for anything from outside
 * the broker. Refuses `too-many-parts` over {@link MAX_MESSAGE_PARTS}
 * parts, and (`invalid-message`) anything that is not a valid
 * message; never throws.
 *
 * @example
 * ```ts
 * import { parseChatMessage } from "@papercusp/chat-protocol/message";
 * declare const body: string;
 * const r = parseChatMessage(JSON.parse(body));
 * if (!r.ok) console.error(r.error.code, r.error.issues);
 * ```
 */
export function parseChatMessage(value: unknown): Result<ChatMessage, MessageRefusal> {
  try {
    return parseMessage<ChatMessage>(chatMessageShell, value, "chat message");
  } catch {
    return unreadable();
  }
}

/** Only reachable through hostile objects (throwing getters, revoked proxies). */
function unreadable(): Result<never, MessageRefusal> {
  return err({
    code: "invalid-message",
    message: "not a valid chat message: reading it threw",
    issues: [{ path: [], message: "reading the value threw" }],
  });
}

/**
 * Parse what a transport hands in. Refuses (never strips) a payload that
 * claims `provenance` (`claims-provenance`) or `delivery`
 * (`claims-delivery`), as an own key or inherited through the prototype:
 * those are set by the broker. Any other unknown key, an own `__proto__` key
 * included, is `invalid-message`. Never throws.
 *
 * @example
 * ```ts
 * import { parseInboundChatMessage } from "@papercusp/chat-protocol/message";
 * declare const body: Record<string, unknown>;
 * const r = parseInboundChatMessage({ ...body, provenance: { authored: "human" } });
 * r.ok; // false, r.error.code === "claims-provenance"
 * ```
 */
export function parseInboundChatMessage(
  value: unknown,
): Result<InboundChatMessage, MessageRefusal> {
  try {
    return parseInbound(value);
  } catch {
    return unreadable();
  }
}

function parseInbound(value: unknown): Result<InboundChatMessage, MessageRefusal> {
  if (value !== null && typeof value === "object") {
    // `in`, not Object.hasOwn: a claim inherited through the prototype is
    // still a claim (an own `__proto__` key is not one: it is an unknown key)
    if ("provenance" in value) {
      return err({
        code: "claims-provenance",
        message: "an inbound message may not claim provenance",
        issues: [{ path: ["provenance"], message: "set by the broker only" }],
      });
    }
    if ("delivery" in value) {
      return err({
        code: "claims-delivery",
        message: "an inbound message may not claim delivery state",
        issues: [{ path: ["delivery"], message: "set by the broker only" }],
      });
    }
  }
  return parseMessage<InboundChatMessage>(inboundShell, value, "inbound chat message");
}

/** Refusal of {@link endorseAgentMessage}. */
export interface EndorsementRefusal {
  /**
   * Stable machine-readable reason:
   * - `missing-attestation`: `attestedBy` is not a non-empty string;
   * - `not-agent-authored`: the message's own `provenance` is not plain
   *   agent provenance `{authored:'agent'}` (absent, human, anything else,
   *   or unreadable), or `message` is not a non-array object or cannot be
   *   copied (a throwing getter or proxy trap);
   * - `already-endorsed`: the message is already endorsed by a different
   *   attester (the earlier attester is never overwritten).
   */
  readonly code: "missing-attestation" | "not-agent-authored" | "already-endorsed";
  /** One human-readable sentence; not stable, do not match on it. */
  readonly message: string;
}

/** The endorsed provenance, always a fresh object. */
function endorsed(attestedBy: string): Provenance {
  return { authored: "agent", endorsedBy: "human", attestedBy };
}

/**
 * Mint a human endorsement, as the titan seed documents it: returns a
 * shallow copy of `message` with provenance
 * `{authored:'agent', endorsedBy:'human', attestedBy}`, replacing any
 * provenance it had. Does not mutate `message`. The only function that
 * mints an endorsement (the other is {@link endorseAgentMessage}, its
 * checked form); call it broker-side only, never on a transport's say-so.
 * The result survives {@link chatMessage} (the provenance union is strict,
 * endorsed variant first: the seed's schema erased the endorsement).
 *
 * Throws {@link MessageArgumentError} (and nothing else) for a programmer's
 * mistake: `invalid-attestation` when `attestedBy` is not a non-empty string
 * (an endorsement names its attester), `invalid-argument` when `message` is
 * not an object or cannot be copied. For a message or attester that comes
 * from outside the broker, use {@link endorseAgentMessage}.
 *
 * @example
 * ```ts
 * import { chatMessage, markHumanEndorsed } from "@papercusp/chat-protocol/message";
 * const m = markHumanEndorsed({
 *   id: "m1", threadId: "t1", authorId: "agent:coach", role: "assistant",
 *   createdAt: "2026-01-01T00:00:00.000Z", parts: [{ type: "text", text: "Done." }],
 * }, "user:alice");
 * chatMessage.parse(m).provenance; // { authored: "agent", endorsedBy: "human", attestedBy: "user:alice" }
 * ```
 */
export function markHumanEndorsed(message: ChatMessage, attestedBy: string): ChatMessage {
  if (typeof attestedBy !== "string" || attestedBy.length === 0) {
    throw new MessageArgumentError(
      "invalid-attestation",
      `attestedBy must be a non-empty string, got ${describeValue(attestedBy)}`,
    );
  }
  const copy = copyMessage(message);
  if (copy === null) {
    throw new MessageArgumentError(
      "invalid-argument",
      "the message is not an object that can be copied",
    );
  }
  copy.provenance = endorsed(attestedBy);
  return copy as unknown as ChatMessage;
}

/** A shallow copy of `message`'s own enumerable fields; `null` when it is not a readable record. */
function copyMessage(message: unknown): Record<string, unknown> | null {
  try {
    return isRecord(message) ? { ...message } : null;
  } catch {
    return null;
  }
}

/**
 * The checked form of {@link markHumanEndorsed}, for a message or attester
 * that may be untrusted: endorses only a message whose own `provenance` is
 * exactly `{authored:'agent'}` (`role` is not consulted: it is a rendering
 * hint), never overwrites an earlier attester, and returns a {@link Result}
 * instead of throwing. Refuses: an empty or non-string `attestedBy`
 * (`missing-attestation`); a message with no provenance, human provenance
 * or anything else that is not plain agent provenance, or a message that is
 * an array or cannot be copied (`not-agent-authored`); a message already
 * endorsed by a different attester (`already-endorsed`). Re-endorsing by the
 * same attester succeeds with an equal copy. The returned provenance is
 * always a fresh object built here, never the input's. Never throws.
 *
 * @example
 * ```ts
 * import { type ChatMessage, endorseAgentMessage } from "@papercusp/chat-protocol/message";
 * declare const agentMessage: ChatMessage; // provenance: { authored: "agent" }
 * const r = endorseAgentMessage(agentMessage, "user:alice");
 * if (r.ok) r.value.provenance; // { authored: "agent", endorsedBy: "human", attestedBy: "user:alice" }
 * else console.error(r.error.code); // "missing-attestation" | "not-agent-authored" | "already-endorsed"
 * ```
 */
export function endorseAgentMessage(
  message: ChatMessage,
  attestedBy: string,
): Result<ChatMessage, EndorsementRefusal> {
  if (typeof attestedBy !== "string" || attestedBy.length === 0) {
    return err({ code: "missing-attestation", message: "attestedBy must be a non-empty string" });
  }
  // one copy, read once: what is checked is what is returned
  const copy = copyMessage(message);
  let prov: Provenance | undefined;
  if (copy !== null && Object.hasOwn(copy, "provenance")) {
    try {
      const r = provenance.safeParse(copy.provenance);
      prov = r.success ? r.data : undefined;
    } catch {
      prov = undefined;
    }
  }
  if (prov !== undefined && "endorsedBy" in prov) {
    if (prov.attestedBy !== attestedBy) {
      return err({
        code: "already-endorsed",
        message: "the message is already endorsed by another attester",
      });
    }
  } else if (prov?.authored !== "agent") {
    return err({
      code: "not-agent-authored",
      message: copy === null
        ? "the message is not an object that can be copied"
        : "only a message with agent provenance can be endorsed by a human",
    });
  }
  copy!.provenance = endorsed(attestedBy);
  return ok(copy as unknown as ChatMessage);
}
