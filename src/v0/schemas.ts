/**
 * Zod schemas for the v0 events (v0-wire spec §1), describing the
 * normalised shape {@link parseChatEvent} returns: every output of
 * `parseChatEvent` is accepted by {@link ChatEventSchema} (tested).
 *
 * The schemas validate a payload that already carries `type`; they do not
 * apply §3's wire leniency (missing `type` stamping, `'stream error'`
 * fallback, `version` default): use {@link parseChatEvent} for raw frames.
 * Unknown keys are stripped, except inside `card` (passed through) and
 * `usage` (inner fields loose, like the wire).
 *
 * @module
 */
import { z } from "zod";
import type { OpenCardSnapshot } from "../cards/types.ts";
import { isRecord } from "../_internal/guards.ts";
import type {
  CardClosedEvent,
  CardEvent,
  ChatEvent,
  DeltaEvent,
  DoneEvent,
  DoneUsage,
  ErrorEvent,
  NavigateEvent,
  ProvenanceEvent,
  SessionEvent,
  StateEvent,
  ToolCallEvent,
  ToolResultEvent,
} from "./types.ts";
// deno-lint-ignore no-unused-vars
import type { parseChatEvent } from "./parse.ts";

/** `session`: `{type, sessionId: string}` (empty accepted). */
export const SessionEventSchema: z.ZodType<SessionEvent> = z.object({
  type: z.literal("session"),
  sessionId: z.string(),
});

/** `delta`: `{type, text: string}` (empty accepted). */
export const DeltaEventSchema: z.ZodType<DeltaEvent> = z.object({
  type: z.literal("delta"),
  text: z.string(),
});

/** `tool_call`: non-empty `name`, any `input`, optional string `callId`. */
export const ToolCallEventSchema: z.ZodType<ToolCallEvent> = z.object({
  type: z.literal("tool_call"),
  name: z.string().min(1),
  input: z.unknown().optional(),
  callId: z.string().optional(),
});

/** `tool_result`: non-empty `name`, optional `callId`, `ok`, `summary`. */
export const ToolResultEventSchema: z.ZodType<ToolResultEvent> = z.object({
  type: z.literal("tool_result"),
  name: z.string().min(1),
  callId: z.string().optional(),
  ok: z.boolean().optional(),
  summary: z.string().optional(),
});

/** `provenance`: `engine`, `model` strings (empty accepted), `accountRoute` string or `null`. */
export const ProvenanceEventSchema: z.ZodType<ProvenanceEvent> = z.object({
  type: z.literal("provenance"),
  engine: z.string(),
  model: z.string(),
  accountRoute: z.string().nullable().optional(),
});

/**
 * The v0 card check: an object whose `correlationId` and `prompt` are
 * strings; every other key passes through unvalidated (spec §3: no check of
 * `createdAt`, `presentation`, …).
 */
export const WireCardSchema: z.ZodType<OpenCardSnapshot> = z.looseObject({
  correlationId: z.string(),
  prompt: z.string(),
}) as unknown as z.ZodType<OpenCardSnapshot>;

/** `card`: `{type, card}` with {@link WireCardSchema}. */
export const CardEventSchema: z.ZodType<CardEvent> = z.object({
  type: z.literal("card"),
  card: WireCardSchema,
});

/** `card_closed`: `{type, correlationId: string}` (empty accepted). */
export const CardClosedEventSchema: z.ZodType<CardClosedEvent> = z.object({
  type: z.literal("card_closed"),
  correlationId: z.string(),
});

/** `state`: `version` any number (NaN/±Infinity included, as on the v0 wire), `snapshot` anything. */
export const StateEventSchema: z.ZodType<StateEvent> = z.object({
  type: z.literal("state"),
  version: z.custom<number>((v) => typeof v === "number"),
  snapshot: z.unknown(),
}) as unknown as z.ZodType<StateEvent>;

/** `done.usage`: any non-array object; inner fields are not validated (spec §3). */
export const DoneUsageSchema: z.ZodType<DoneUsage> = z.custom<DoneUsage>(isRecord);

/** `done`: optional string `stopReason`, optional `usage`. */
export const DoneEventSchema: z.ZodType<DoneEvent> = z.object({
  type: z.literal("done"),
  stopReason: z.string().optional(),
  usage: DoneUsageSchema.optional(),
});

/** `error`: `{type, message: string}`. */
export const ErrorEventSchema: z.ZodType<ErrorEvent> = z.object({
  type: z.literal("error"),
  message: z.string(),
});

/** `navigate`: `{type, href: string}`. */
export const NavigateEventSchema: z.ZodType<NavigateEvent> = z.object({
  type: z.literal("navigate"),
  href: z.string(),
});

/** Any v0 event, discriminated on `type`. */
export const ChatEventSchema: z.ZodType<ChatEvent> = z.union([
  SessionEventSchema,
  DeltaEventSchema,
  ToolCallEventSchema,
  ToolResultEventSchema,
  ProvenanceEventSchema,
  CardEventSchema,
  CardClosedEventSchema,
  StateEventSchema,
  DoneEventSchema,
  ErrorEventSchema,
  NavigateEventSchema,
]);
