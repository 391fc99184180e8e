/**
 * Rows ⇄ records of the recovery store: the columns it selects, the row
 * decoders, and the checks a draft passes before any SQL is sent.
 * Area-private.
 *
 * @module
 */
import type {
  EffectDraft,
  EffectOutcome,
  EffectRecord,
  TurnDraft,
  TurnRecord,
} from "@papercusp/chat-protocol/recovery";
import type { PgParam } from "./driver.ts";
import { safeInt } from "./_rows.ts";
import { exceedsUtf8Bytes, isStorableText, MAX_ID_BYTES } from "./_text.ts";

/** The turn columns every statement returns, in {@link turnOf}'s order. */
export const TURN_COLUMNS = "turn_id, conversation_id, revision, status, effect_ids, reason";

/** The effect columns every statement returns, in {@link effectOf}'s order. */
export const EFFECT_COLUMNS =
  "turn_id, effect_id, revision, state, claim_token, lease_until, claims, outcome, reconciled, reason";

/** A turn row as selected. */
export interface TurnRow {
  readonly turn_id: string;
  readonly conversation_id: string;
  readonly revision: unknown;
  readonly status: string;
  readonly effect_ids: string;
  readonly reason: string | null;
}

/** An effect row as selected. */
export interface EffectRow {
  readonly turn_id: string;
  readonly effect_id: string;
  readonly revision: unknown;
  readonly state: string;
  readonly claim_token: string;
  readonly lease_until: unknown;
  readonly claims: unknown;
  readonly outcome: string | null;
  readonly reconciled: boolean | null;
  readonly reason: string | null;
}

/**
 * The stored turn record. Throws `TypeError` when a column is not what this
 * package writes (the table was changed behind its back).
 */
export function turnOf(row: TurnRow): TurnRecord {
  const ids: unknown = JSON.parse(row.effect_ids);
  if (!Array.isArray(ids) || !ids.every((x) => typeof x === "string")) {
    throw new TypeError("column effect_ids is not a JSON array of strings");
  }
  return {
    turnId: row.turn_id,
    conversationId: row.conversation_id,
    revision: safeInt(row.revision, "revision"),
    status: row.status as TurnRecord["status"],
    effectIds: ids,
    ...(row.reason === null ? {} : { reason: row.reason }),
  };
}

/**
 * The stored effect record. An `outcome` column that is not a JSON outcome
 * is left out (the core then treats a completed record as unreadable and
 * asks the host to reconcile it); other unexpected columns throw `TypeError`.
 */
export function effectOf(row: EffectRow): EffectRecord {
  let outcome: EffectOutcome | undefined;
  if (row.outcome !== null) {
    try {
      const o: unknown = JSON.parse(row.outcome);
      if (typeof o === "object" && o !== null) outcome = o as EffectOutcome;
    } catch {
      outcome = undefined;
    }
  }
  const lease = row.lease_until === null ? undefined : Number(row.lease_until);
  return {
    turnId: row.turn_id,
    effectId: row.effect_id,
    revision: safeInt(row.revision, "revision"),
    state: row.state as EffectRecord["state"],
    claimToken: row.claim_token,
    ...(lease === undefined ? {} : { leaseUntil: lease }),
    ...(row.claims === null ? {} : { claims: safeInt(row.claims, "claims") }),
    ...(outcome === undefined ? {} : { outcome }),
    ...(row.reconciled === null ? {} : { reconciled: row.reconciled }),
    ...(row.reason === null ? {} : { reason: row.reason }),
  };
}

/** Thrown (as a rejection) when a draft cannot be stored unchanged; nothing is sent. */
function refused(what: string): never {
  throw new TypeError(`cannot store ${what}`);
}

/** A string field PostgreSQL `text` holds unchanged, or a `TypeError`. */
export function textField(v: unknown, what: string): string {
  if (typeof v !== "string" || !isStorableText(v)) {
    refused(`${what}: not a string PostgreSQL text holds unchanged (no NUL, no lone surrogate)`);
  }
  return v;
}

/** A {@link textField} that is a key column's id: at most `MAX_ID_BYTES` UTF-8 bytes, or a `TypeError`. */
export function idField(v: unknown, what: string): string {
  const text = textField(v, what);
  if (exceedsUtf8Bytes(text, MAX_ID_BYTES)) {
    refused(`${what}: more than ${MAX_ID_BYTES} UTF-8 bytes (a key column's limit)`);
  }
  return text;
}

function optionalText(v: unknown, what: string): string | null {
  return v === undefined ? null : textField(v, what);
}

/** The parameters of a turn draft: conversation, status, effect ids (JSON), reason. */
export function turnParams(draft: TurnDraft): PgParam[] {
  const conversationId = textField(draft.conversationId, "conversationId");
  const status = textField(draft.status, "status");
  const raw: unknown = draft.effectIds;
  if (!Array.isArray(raw)) refused("effectIds: not an array");
  const ids = Array.prototype.slice.call(raw).map((id: unknown) => textField(id, "an effect id"));
  return [conversationId, status, JSON.stringify(ids), optionalText(draft.reason, "reason")];
}

/**
 * The parameters of an effect draft: state, claim token, lease (epoch ms,
 * any number), claims (a safe integer), outcome (JSON text of at most
 * `maxOutcomeBytes` UTF-8 bytes), reconciled, reason.
 */
export function effectParams(draft: EffectDraft, maxOutcomeBytes: number): PgParam[] {
  const state = textField(draft.state, "state");
  const claimToken = textField(draft.claimToken, "claimToken");
  const lease: unknown = draft.leaseUntil;
  if (lease !== undefined && typeof lease !== "number") refused("leaseUntil: not a number");
  const claims: unknown = draft.claims;
  if (claims !== undefined && !Number.isSafeInteger(claims)) refused("claims: not a safe integer");
  const reconciled: unknown = draft.reconciled;
  if (reconciled !== undefined && typeof reconciled !== "boolean") {
    refused("reconciled: not a boolean");
  }
  let outcome: string | null = null;
  if (draft.outcome !== undefined) {
    let text: string | undefined;
    try {
      text = JSON.stringify(draft.outcome);
    } catch (e) {
      refused(`outcome: not JSON data (${e instanceof Error ? e.name : "error"})`);
    }
    if (typeof text !== "string") refused("outcome: not JSON data");
    if (exceedsUtf8Bytes(text, maxOutcomeBytes)) {
      refused(`outcome: more than ${maxOutcomeBytes} bytes of JSON`);
    }
    outcome = text;
  }
  return [
    state,
    claimToken,
    lease === undefined ? null : String(lease),
    claims === undefined ? null : claims as number,
    outcome,
    reconciled === undefined ? null : reconciled as boolean,
    optionalText(draft.reason, "reason"),
  ];
}

/**
 * The effect record a CAS stored from `params` (as {@link effectParams}
 * built them) at `revision`: what a read of the row returns.
 */
export function storedEffect(
  key: readonly string[],
  params: readonly PgParam[],
  revision: unknown,
): EffectRecord {
  const [state, claimToken, lease, claims, outcome, reconciled, reason] = params;
  return effectOf({
    turn_id: key[0],
    effect_id: key[1],
    revision,
    state: state as string,
    claim_token: claimToken as string,
    lease_until: lease,
    claims,
    outcome: outcome as string | null,
    reconciled: reconciled as boolean | null,
    reason: reason as string | null,
  });
}

/** `true` for a revision a CAS can match: a non-negative safe integer (0 = create). */
export function isRevision(v: unknown): v is number {
  return Number.isSafeInteger(v) && (v as number) >= 0;
}
