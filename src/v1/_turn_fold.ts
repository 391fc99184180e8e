/**
 * The v1 fold's engine: the mutable state of one turn and the one `apply`
 * step every public fold entry (`ChatStateFolder.push` / `resync`,
 * `foldChatState*`) goes through, on an already-parsed envelope. Ordering
 * comes from `_ordering.ts`, lifecycle from `lifecycle.ts`, per-event rules
 * from the handler table in `_fold_events.ts`.
 *
 * Linear in the number of events: text is kept as pieces and joined on
 * demand, tool calls and open cards are indexed by id.
 *
 * @module
 */
import type { OpenCardSnapshot } from "../cards/types.ts";
import { refusal } from "../_internal/refusal.ts";
import type { ChatFoldRefusal } from "./fold.ts";
import { handlerOf } from "./_fold_events.ts";
import { nextTurnStatus } from "./lifecycle.ts";
import { positionOf, TurnOrder } from "./_ordering.ts";
import type {
  CardResolution,
  ChatEventEnvelope,
  ChatStateV1,
  ChatUsage,
  ProviderProvenance,
  ToolCallStateV1,
  TurnStatus,
} from "./types.ts";

/**
 * A fresh copy of a tool call state. The fold builds these objects itself
 * with only the fields that are set, so a spread copies exactly those.
 */
const copyTool = (t: ToolCallStateV1): ToolCallStateV1 => ({ ...t });

/** A closed card as the fold keeps it. */
export type ClosedCard = { correlationId: string; resolution?: CardResolution };

/**
 * The folded state of one turn, mutable; its fields are the fold's private
 * collaborators' to change. Its identity and ordering state is the
 * {@link TurnOrder} it extends (bound to the turn by the constructor).
 */
export class TurnFold extends TurnOrder {
  status: TurnStatus = "running";
  sessionId: string | undefined;
  text: string[] = [];
  reasoning: string[] = [];
  tools: ToolCallStateV1[] = [];
  toolIndex: Map<string, ToolCallStateV1> = new Map();
  provenance: ProviderProvenance | undefined;
  openCards: Map<string, OpenCardSnapshot> = new Map();
  closedCards: ClosedCard[] = [];
  /** correlationIds of `closedCards`, so a closed card is never opened again. */
  closedIds: Set<string> = new Set();
  state: { version: number; snapshot: unknown } | undefined;
  done: { stopReason?: string; usage?: ChatUsage } | undefined;
  error: ChatStateV1["error"];
  statusReason: string | undefined;

  /** A fold of the turn `turnId` of `conversationId` (resuming after `lastSeq` / `lastEventId`). */
  constructor(
    conversationId: string,
    turnId: string,
    lastSeq = 0,
    lastEventId: string | null = null,
  ) {
    super(conversationId, turnId, lastSeq, lastEventId);
  }

  /**
   * Check and apply one parsed envelope: ordering (`resync` skips a gap
   * knowingly), then lifecycle, then the event's own tool/card rules. `null`
   * when applied; a refusal leaves everything unchanged.
   */
  apply(env: ChatEventEnvelope, resync: boolean): ChatFoldRefusal | null {
    const ordering = this.check(env, resync);
    if (ordering !== null) return ordering;
    const event = env.event;
    const h = handlerOf(event.type);
    // Lifecycle first: after a terminal status nothing else matters.
    const next = nextTurnStatus(
      this.status,
      event,
      h.cardsAfter === null ? this.openCards.size : h.cardsAfter(this, event),
    );
    if (next === null) {
      return refusal(
        "illegal-transition",
        `${event.type}${
          event.type === "turn_status" ? `(${event.status})` : ""
        } is not allowed while the turn is ${this.status}`,
        { ...positionOf(env), status: this.status },
      );
    }
    const refused = h.refuse === null ? null : h.refuse(this, event);
    if (refused !== null) return { ...refused, ...positionOf(env) } as ChatFoldRefusal;
    h.apply(this, event, env.seq);
    this.status = next;
    this.applied(env);
    return null;
  }

  /**
   * A JSON-serialisable snapshot. Fresh arrays and tool objects; opaque data
   * (`input`, `output`, `snapshot`, cards) is shared by reference.
   */
  snapshot(): ChatStateV1 {
    if (this.text.length > 1) this.text = [this.text.join("")];
    if (this.reasoning.length > 1) this.reasoning = [this.reasoning.join("")];
    const s: ChatStateV1 = {
      schemaVersion: 1,
      conversationId: this.conversationId as string,
      turnId: this.turnId as string,
      status: this.status,
      lastSeq: this.lastSeq,
      lastEventId: this.lastEventId,
      text: this.text[0] ?? "",
      reasoning: this.reasoning[0] ?? "",
      tools: this.tools.map(copyTool),
      openCards: [...this.openCards.values()],
      closedCards: this.closedCards.map((c) => ({ ...c })),
    };
    if (this.sessionId !== undefined) s.sessionId = this.sessionId;
    if (this.provenance !== undefined) s.provenance = { ...this.provenance };
    if (this.state !== undefined) s.state = { ...this.state };
    if (this.done !== undefined) s.done = { ...this.done };
    if (this.error !== undefined) s.error = { ...this.error };
    if (this.statusReason !== undefined) s.statusReason = this.statusReason;
    return s;
  }
}
