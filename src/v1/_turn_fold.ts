/**
 * The v1 fold's engine: the state of one turn and the one `apply` step every
 * public fold entry (`ChatStateFolder.push` / `resync`, `foldChatState*`)
 * goes through, on an already-parsed envelope. Ordering comes from
 * `_ordering.ts`, lifecycle from `lifecycle.ts`, per-event rules from the
 * handler table in `_fold_events.ts`.
 *
 * Linear in the number of events, and so is taking a snapshot after every
 * event: text is a string grown by concatenation (engines keep it as a rope
 * until it is read), tool calls and cards live in persistent vectors
 * (`_pvec.ts`) of frozen objects, so {@link TurnFold.snapshot} is O(1): it
 * shares every unchanged part with the previous snapshot and materializes a
 * collection only when the caller reads it.
 *
 * @module
 */
import type { OpenCardSnapshot } from "../cards/types.ts";
import { refusal } from "../_internal/refusal.ts";
import type { ChatFoldRefusal } from "./fold.ts";
import { handlerOf } from "./_fold_events.ts";
import { isTerminalTurnStatus, nextTurnStatus, TURN_END_CARD_RESOLUTION } from "./lifecycle.ts";
import { positionOf, TurnOrder } from "./_ordering.ts";
import { PersistentVector, type VectorView } from "./_pvec.ts";
import type {
  CardResolution,
  ChatEventEnvelope,
  ChatJsonValue,
  ChatStateV1,
  ChatUsage,
  ProviderProvenance,
  ToolCallStateV1,
  TurnStatus,
} from "./types.ts";

/** A closed card as the fold keeps it. */
export type ClosedCard = { correlationId: string; resolution?: CardResolution };

/**
 * Replace the accessor `key` of a snapshot by a plain data property holding
 * `value` (what assigning to a snapshot's collection does).
 */
function settle(o: object, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * Set the collection `key` of snapshot `o` from `view`: the items when they
 * are ready (small or already materialized), else an accessor that
 * materializes them when read and turns into a plain field when assigned.
 */
function collection<T>(o: Record<string, unknown>, key: string, view: VectorView<T>): void {
  const items = view.ready();
  if (items !== undefined) o[key] = items;
  else {
    Object.defineProperty(o, key, {
      enumerable: true,
      configurable: true,
      get: () => view.items(),
      set(v) {
        settle(this, key, v);
      },
    });
  }
}

/**
 * The folded state of one turn; its fields are the fold's private
 * collaborators' to change. Its identity and ordering state is the
 * {@link TurnOrder} it extends (bound to the turn by the constructor).
 *
 * Every object it keeps in a collection (tool calls, closed cards) and every
 * small object it shares with snapshots (`provenance`, `state`, `done`,
 * `error`) is frozen, and replaced rather than changed.
 */
export class TurnFold extends TurnOrder {
  status: TurnStatus = "running";
  sessionId: string | undefined;
  text = "";
  reasoning = "";
  /** Tool calls in start order (frozen objects). */
  readonly tools: PersistentVector<ToolCallStateV1> = new PersistentVector();
  /** callId → position in {@link tools}. */
  readonly toolIndex: Map<string, number> = new Map();
  /** callIds of the calls still running, in start order. */
  readonly running: Set<string> = new Set();
  provenance: Readonly<ProviderProvenance> | undefined;
  /** Open cards in open order; a closed card's slot becomes `undefined` (a hole). */
  readonly openCards: PersistentVector<OpenCardSnapshot | undefined> = new PersistentVector();
  /** correlationId → slot in {@link openCards}, for the cards still open. */
  readonly openIndex: Map<string, number> = new Map();
  /** Cards closed during the turn, in close order (frozen objects). */
  readonly closedCards: PersistentVector<ClosedCard> = new PersistentVector();
  /** correlationIds of `closedCards`, so a closed card is never opened again. */
  readonly closedIds: Set<string> = new Set();
  state: Readonly<{ version: number; snapshot: unknown }> | undefined;
  done: Readonly<{ stopReason?: string; usage?: ChatUsage }> | undefined;
  error: Readonly<NonNullable<ChatStateV1["error"]>> | undefined;
  statusReason: string | undefined;
  /** State-channel extension data by name (frozen entries; at most 128 names). */
  readonly extensionState: Map<string, Readonly<{ data: ChatJsonValue; seq: number }>> = new Map();
  /** {@link extensionState} as the frozen record snapshots share, until it changes. */
  #extensionRecord: ChatStateV1["extensionState"] | undefined;
  /** Event-channel extension events, in order (frozen objects). */
  readonly extensionEvents: PersistentVector<
    Readonly<{ name: string; data: ChatJsonValue; seq: number }>
  > = new PersistentVector();

  /** A fold of the turn `turnId` of `conversationId` (resuming after `lastSeq` / `lastEventId`). */
  constructor(
    conversationId: string,
    turnId: string,
    lastSeq = 0,
    lastEventId: string | null = null,
  ) {
    super(conversationId, turnId, lastSeq, lastEventId);
  }

  /** The tool call `callId`, if it was called. */
  tool(callId: string): ToolCallStateV1 | undefined {
    const i = this.toolIndex.get(callId);
    return i === undefined ? undefined : this.tools.get(i);
  }

  /** Add a new tool call (its `callId` not called yet). */
  addTool(t: ToolCallStateV1): void {
    this.toolIndex.set(t.callId, this.tools.size);
    this.tools.push(Object.freeze(t));
    if (t.status === "running") this.running.add(t.callId);
  }

  /** Replace the tool call with `t`'s `callId` (called before). */
  setTool(t: ToolCallStateV1): void {
    this.tools.set(this.toolIndex.get(t.callId)!, Object.freeze(t));
    if (t.status !== "running") this.running.delete(t.callId);
  }

  /** Set the last state-channel data of extension `name`. */
  setExtensionState(name: string, entry: Readonly<{ data: ChatJsonValue; seq: number }>): void {
    this.extensionState.set(name, entry);
    this.#extensionRecord = undefined;
  }

  /** Open `card`, whose validated `correlationId` is `id` (not open and never closed). */
  openCard(id: string, card: OpenCardSnapshot): void {
    this.openIndex.set(id, this.openCards.size);
    this.openCards.push(card);
  }

  /** Close the open card `correlationId`, with its resolution when known. */
  closeCard(correlationId: string, resolution: CardResolution | undefined): void {
    this.openCards.set(this.openIndex.get(correlationId)!, undefined);
    this.openIndex.delete(correlationId);
    this.closedIds.add(correlationId);
    this.closedCards.push(
      Object.freeze(resolution === undefined ? { correlationId } : { correlationId, resolution }),
    );
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
      h.cardsAfter === null ? this.openIndex.size : h.cardsAfter(this, event),
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
    if (next !== this.status && isTerminalTurnStatus(next)) this.#end(next, env.seq);
    this.status = next;
    this.applied(env);
    return null;
  }

  /**
   * The turn ends as `status` at `seq`: its open cards (only a failed or
   * cancelled turn can have some) close with the resolution
   * `TURN_END_CARD_RESOLUTION` gives, its running tool calls become
   * `unfinished`.
   */
  #end(status: TurnStatus, seq: number): void {
    const resolution = TURN_END_CARD_RESOLUTION[status as "failed"];
    for (const id of [...this.openIndex.keys()]) this.closeCard(id, resolution);
    for (const callId of [...this.running]) {
      this.setTool({ ...this.tool(callId)!, status: "unfinished", finishedSeq: seq });
    }
  }

  /**
   * A JSON-serialisable snapshot, in O(1). Its collections (`tools`,
   * `openCards`, `closedCards`) are frozen arrays of frozen objects, shared
   * with every snapshot of the same version; a large one that changed since
   * it was last materialized is an accessor that materializes it on first
   * read; `provenance`, `state`, `done` and `error` are frozen and shared
   * too; opaque data (`input`, `output`, `snapshot`, cards) is shared by
   * reference. The snapshot object itself is fresh: assigning to any of its
   * fields (a collection too) changes that snapshot only.
   */
  snapshot(): ChatStateV1 {
    const s: Record<string, unknown> = {
      schemaVersion: 1,
      conversationId: this.conversationId as string,
      turnId: this.turnId as string,
      status: this.status,
      lastSeq: this.lastSeq,
      lastEventId: this.lastEventId,
      text: this.text,
      reasoning: this.reasoning,
      tools: undefined,
      openCards: undefined,
      closedCards: undefined,
    };
    collection(s, "tools", this.tools.view());
    collection(s, "openCards", this.openCards.view());
    collection(s, "closedCards", this.closedCards.view());
    if (this.sessionId !== undefined) s.sessionId = this.sessionId;
    if (this.provenance !== undefined) s.provenance = this.provenance;
    if (this.state !== undefined) s.state = this.state;
    if (this.done !== undefined) s.done = this.done;
    if (this.error !== undefined) s.error = this.error;
    if (this.statusReason !== undefined) s.statusReason = this.statusReason;
    if (this.extensionState.size > 0) {
      s.extensionState = this.#extensionRecord ??= Object.freeze(
        Object.fromEntries(this.extensionState),
      );
    }
    if (this.extensionEvents.size > 0) {
      collection(s, "extensionEvents", this.extensionEvents.view());
    }
    return s as unknown as ChatStateV1;
  }
}
