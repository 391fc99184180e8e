/**
 * What the v1 → peer adapters read of a card (an opaque object the v1
 * parser keeps by reference): each field once, inside a guard, so a getter
 * that throws or answers differently on a later read cannot desynchronize
 * an adapter.
 *
 * An approval card is a card with an `approval` object (`CardSpec.approval`).
 * It gates a tool call when its `callId` key names a tool call of the turn
 * that is still running: that is the adapters' convention for "this
 * approval is about that call" (a v1 card keeps every key).
 *
 * @module
 */
import { isRecord } from "./guards.ts";

/** The facts of a card the adapters use. */
export interface CardFacts {
  /** The card's correlation id (non-empty). */
  readonly id: string;
  /** The prompt (a string; `""` when it could not be read as one). */
  readonly prompt: string;
  /** Whether the card is an approval (it has an `approval` object). */
  readonly approval: boolean;
  /** The `callId` key, when it is a non-empty string. */
  readonly callId: string | undefined;
  /** The JSON Schema of the answer, when `dataSchemaJson` is a plain object. */
  readonly dataSchemaJson: Record<string, unknown> | undefined;
  /** `createdAt + timeoutMs` (epoch ms) when both are finite and `timeoutMs > 0`. */
  readonly expiresAt: number | undefined;
}

/** The facts of `card`, or `null` when its correlation id cannot be read as a non-empty string. */
export function readCardFacts(card: unknown): CardFacts | null {
  try {
    if (!isRecord(card)) return null;
    const id = card.correlationId;
    if (typeof id !== "string" || id.length === 0) return null;
    const prompt = card.prompt;
    const approval = card.approval;
    const callId = card.callId;
    const schema = card.dataSchemaJson;
    const createdAt = card.createdAt;
    const timeoutMs = card.timeoutMs;
    const expires = typeof createdAt === "number" && typeof timeoutMs === "number" &&
        timeoutMs > 0 && Number.isFinite(createdAt + timeoutMs)
      ? createdAt + timeoutMs
      : undefined;
    return {
      id,
      prompt: typeof prompt === "string" ? prompt : "",
      approval: isRecord(approval),
      callId: typeof callId === "string" && callId.length > 0 ? callId : undefined,
      dataSchemaJson: isRecord(schema) ? schema : undefined,
      expiresAt: expires,
    };
  } catch {
    return null;
  }
}
