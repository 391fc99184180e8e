/**
 * Runs (and, after a restart, resumes) the scripted turn of `script.ts`
 * against the durable stores:
 *
 * - every envelope is appended to the replay log (`PostgresReplayLog`)
 *   before readers are woken; `seq` is the envelope's position in the
 *   deterministic script, so a resumed run regenerates the script and
 *   appends only what comes after the log's latest `seq` (nothing twice,
 *   nothing lost);
 * - each tool effect runs through `TurnRecovery.runEffect` (exactly once,
 *   with leases); an effect whose worker died is verified against the
 *   ledger (the effect's idempotency key): reconciled with the ledger's
 *   output when it ran, recorded not-run (and run again) when it did not;
 * - the card is opened through `InteractionResolver` (bound to the user
 *   who started the turn) under a deterministic id, so a resumed run finds
 *   it, answered or not.
 *
 * @module
 */
import type { ChatEventV1 } from "@papercusp/chat-protocol";
import { foldChatState } from "@papercusp/chat-protocol";
import type {
  EffectOutcome,
  MemoryExecutions,
  TurnRecovery,
} from "@papercusp/chat-protocol/recovery";
import type {
  InteractionAuthority,
  InteractionResolver,
} from "@papercusp/chat-protocol/interactions";
import type { PgDriver, PostgresReplayLog } from "@papercusp/chat-protocol-postgres";
import {
  APPROVAL_SCHEMA,
  callIdOf,
  cardIdOf,
  closingText,
  deltas,
  middleText,
  openingText,
  toolInput,
  type ToolName,
  toolOutput,
} from "./script.ts";
import { insertLedger, ledgerFor, markFinished, type TurnRow } from "./host_tables.ts";
import type { Signals } from "./signals.ts";
import type { LiveFeeds } from "./live_feed.ts";

/** The tenant every demo user belongs to. */
export const DEMO_TENANT = "demo";

/** The card authority of `userId` in `conversationId` (what the host binds, never the client). */
export function authorityOf(userId: string, conversationId: string): InteractionAuthority {
  return {
    conversationId,
    principalId: userId,
    tenantId: DEMO_TENANT,
    customerId: userId,
    publicOwnerId: userId,
  };
}

/** What a runner needs from the host. */
export interface RunnerContext {
  readonly db: PgDriver;
  readonly log: PostgresReplayLog;
  readonly recovery: TurnRecovery;
  readonly executions: MemoryExecutions;
  readonly resolver: InteractionResolver;
  /** Pause between text deltas, ms. */
  readonly deltaMs: number;
  /** Length of each text delta, UTF-16 code units. */
  readonly deltaChars: number;
  /** How long each tool effect runs, ms. */
  readonly effectMs: number;
  /**
   * Pause between an effect's ledger write and its completion being stored,
   * ms (0 in production; crash tests widen the window in which the ledger
   * holds the effect but `TurnRecovery` does not yet).
   */
  readonly afterEffectMs: number;
  /** Print a line for operators and tests (`effect started …`). */
  readonly print: (line: string) => void;
  /** Wake-ups: `log:<turnId>` after an append, `card:<turnId>` after an answer. */
  readonly signals: Signals;
  /** The in-memory feed of each appended envelope (for live readers). */
  readonly feeds: LiveFeeds;
}

/** The turn was cancelled while it ran. */
class Stopped extends Error {}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Stopped("aborted"));
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new Stopped("aborted"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Run or resume `turn` to its end (completed, cancelled or failed). Never
 * rejects. While `closing()` answers `true` (the host shuts down) nothing
 * is appended when the run stops: a restarted host resumes it.
 */
export async function runTurn(
  ctx: RunnerContext,
  turn: TurnRow,
  closing: () => boolean = () => false,
): Promise<void> {
  const run = new Run(ctx, turn);
  try {
    await run.start();
  } catch (e) {
    if (closing()) return;
    const status = await ctx.recovery.inspect(turn.turnId);
    if (status.ok && status.value.turn.status === "cancelled") {
      await run.finishCancelled().catch((x) =>
        ctx.print(`turn ${turn.turnId} cancel failed: ${x}`)
      );
      return;
    }
    ctx.print(`turn ${turn.turnId} failed: ${e instanceof Error ? e.message : String(e)}`);
    if (!closing()) await run.fail().catch(() => {});
  }
}

class Run {
  readonly #ctx: RunnerContext;
  readonly #turn: TurnRow;
  readonly #signal: AbortSignal;
  readonly #authority: InteractionAuthority;
  /** Position in the script (the `seq` of the last envelope emitted or skipped). */
  #seq = 0;
  /** The log's latest `seq`. */
  #logged = 0;

  constructor(ctx: RunnerContext, turn: TurnRow) {
    this.#ctx = ctx;
    this.#turn = turn;
    this.#signal = ctx.executions.signalFor(turn.turnId);
    this.#authority = authorityOf(turn.userId, turn.conversationId);
  }

  async #append(event: ChatEventV1, seq: number): Promise<void> {
    const { turnId, conversationId } = this.#turn;
    const envelope = {
      schemaVersion: 1 as const,
      conversationId,
      turnId,
      eventId: `${turnId}:${seq}`,
      seq,
      at: Date.now(),
      event,
    };
    const r = await this.#ctx.log.append(envelope);
    if (!r.ok) throw new Error(`append of seq ${seq} refused: ${r.error.code}: ${r.error.message}`);
    this.#logged = seq;
    this.#ctx.feeds.publish(envelope);
    this.#ctx.signals.notify(`log:${turnId}`);
  }

  /** Emit the script's next envelope, unless the log already holds it. */
  async #emit(event: ChatEventV1): Promise<void> {
    this.#seq++;
    if (this.#seq <= this.#logged) return;
    if (this.#signal.aborted) throw new Stopped("cancelled");
    await this.#append(event, this.#seq);
  }

  async #text(text: string): Promise<void> {
    for (const d of deltas(text, this.#ctx.deltaChars)) {
      if (this.#seq + 1 > this.#logged) await sleep(this.#ctx.deltaMs, this.#signal);
      await this.#emit({ type: "delta", text: d });
    }
  }

  async start(): Promise<void> {
    const { turnId, prompt } = this.#turn;
    this.#logged = (await this.#ctx.log.bounds(turnId)).latestSeq;
    const status = await this.#ctx.recovery.inspect(turnId);
    if (status.ok && status.value.turn.status === "cancelled") throw new Stopped("cancelled");

    await this.#text(openingText(prompt));
    await this.#tool("lookup_order");
    await this.#text(middleText(prompt));
    await this.#emit({
      type: "tool_call",
      callId: callIdOf(turnId, "issue_refund"),
      name: "issue_refund",
      input: toolInput("issue_refund", prompt),
    });
    const approved = await this.#card();
    if (approved) {
      const outcome = await this.#effect("issue_refund");
      await this.#emit(this.#result("issue_refund", outcome));
    } else {
      await this.#emit({
        type: "tool_result",
        callId: callIdOf(turnId, "issue_refund"),
        name: "issue_refund",
        ok: false,
        summary: "The refund was not approved.",
      });
    }
    await this.#text(closingText(prompt, approved));
    await this.#emit({ type: "done", stopReason: "end_turn" });
    await markFinished(this.#ctx.db, turnId);
  }

  #result(tool: ToolName, outcome: EffectOutcome): ChatEventV1 {
    return outcome.ok
      ? {
        type: "tool_result",
        callId: callIdOf(this.#turn.turnId, tool),
        name: tool,
        ok: true,
        output: outcome.value,
      }
      : {
        type: "tool_result",
        callId: callIdOf(this.#turn.turnId, tool),
        name: tool,
        ok: false,
        summary: outcome.error,
      };
  }

  async #tool(tool: ToolName): Promise<void> {
    await this.#emit({
      type: "tool_call",
      callId: callIdOf(this.#turn.turnId, tool),
      name: tool,
      input: toolInput(tool, this.#turn.prompt),
    });
    const outcome = await this.#effect(tool);
    await this.#emit(this.#result(tool, outcome));
  }

  /** The side effect itself: runs `effectMs`, then writes its ledger row. */
  async #dispatch(tool: ToolName, signal: AbortSignal): Promise<unknown> {
    const { turnId, prompt } = this.#turn;
    this.#ctx.print(`effect started ${tool} ${turnId}`);
    await sleep(this.#ctx.effectMs, signal);
    const output = toolOutput(tool, turnId, prompt);
    await insertLedger(this.#ctx.db, {
      key: `${turnId}/${tool}`,
      toolName: tool,
      turnId,
      output: JSON.stringify(output),
      at: Date.now(),
    });
    this.#ctx.print(`effect finished ${tool} ${turnId}`);
    if (this.#ctx.afterEffectMs > 0) await sleep(this.#ctx.afterEffectMs);
    return output;
  }

  /** Run `tool`'s effect exactly once (or reuse its stored outcome). */
  async #effect(tool: ToolName): Promise<EffectOutcome> {
    const { turnId, userId } = this.#turn;
    const recovery = this.#ctx.recovery;
    for (let attempt = 0; attempt < 200; attempt++) {
      const r = await recovery.runEffect({
        turnId,
        effectId: tool,
        principal: userId,
        dispatch: (signal) => this.#dispatch(tool, signal),
      });
      if (r.ok) {
        const v = r.value;
        if (v.status === "completed") return v.outcome;
        if (v.action === "wait") {
          await sleep(Math.min(2_000, Math.max(20, v.retryAt - Date.now() + 5)), this.#signal);
          continue;
        }
        await this.#verify(tool, v.claimToken);
        continue;
      }
      const e = r.error;
      if (e.code === "turn-not-running" && e.status === "cancelled") throw new Stopped("cancelled");
      if (e.code === "turn-not-running" && e.status === "needs-reconciliation") {
        const rs = await recovery.resume({ turnId, principal: userId });
        if (rs.ok) {
          for (const id of rs.value.needsReconciliation) await this.#verify(id as ToolName);
        } else if (rs.error.code === "lease-live") {
          await sleep(Math.min(2_000, Math.max(20, (rs.error.retryAt ?? 0) - Date.now() + 5)));
        }
        continue;
      }
      if (e.code === "checkpoint-write-failed" && e.outcome !== undefined) {
        await recovery.reconcile({
          turnId,
          effectId: tool,
          principal: userId,
          outcome: e.outcome,
          ...(e.claimToken === undefined ? {} : { claimToken: e.claimToken }),
        });
        continue;
      }
      if (e.code === "contention" || e.code === "store-unavailable") {
        await sleep(50, this.#signal);
        continue;
      }
      throw new Error(`effect ${tool} refused: ${e.code}: ${e.message}`);
    }
    throw new Error(`effect ${tool} did not settle`);
  }

  /**
   * The host's verification of an effect nobody runs any more, against the
   * ledger (keyed by the effect's idempotency key): it ran → reconcile with
   * the ledger's output; it did not → record not-run (it is then run again).
   */
  async #verify(tool: ToolName, claimToken?: string): Promise<void> {
    const { turnId, userId } = this.#turn;
    const rows = await ledgerFor(this.#ctx.db, `${turnId}/${tool}`);
    const token = claimToken === undefined ? {} : { claimToken };
    const r = rows.length > 0
      ? await this.#ctx.recovery.reconcile({
        turnId,
        effectId: tool,
        principal: userId,
        outcome: { ok: true, value: JSON.parse(rows[0].output) },
        ...token,
      })
      : await this.#ctx.recovery.recordNotRun({
        turnId,
        effectId: tool,
        principal: userId,
        evidence: `no ledger row for ${turnId}/${tool}`,
        ...token,
      });
    if (!r.ok && r.error.code === "lease-live") {
      await sleep(Math.min(2_000, Math.max(20, (r.error.retryAt ?? 0) - Date.now() + 5)));
    }
  }

  /** Open (or find) the approval card, emit it, wait for its answer; `true` when approved. */
  async #card(): Promise<boolean> {
    const { turnId, prompt } = this.#turn;
    const resolver = this.#ctx.resolver;
    const id = cardIdOf(turnId);
    const amount = "42.00 EUR";
    const opened = await resolver.open({
      id,
      card: {
        prompt: `Approve a refund of ${amount}?`,
        approval: {
          title: "issue_refund",
          question: `Refund ${amount} for this order?`,
          body: [JSON.stringify(toolInput("issue_refund", prompt))],
        },
        allowDecline: true,
      },
      authority: this.#authority,
      schema: APPROVAL_SCHEMA,
    });
    let snapshot: Record<string, unknown>;
    if (opened.ok) {
      snapshot = { ...opened.value.snapshot };
    } else if (opened.error.code === "already-exists") {
      const v = await resolver.read(id, this.#authority);
      if (!v.ok) throw new Error(`card ${id} unreadable: ${v.error.code}`);
      const rec = v.value.record;
      snapshot = v.value.openCard
        ? { ...v.value.openCard }
        : { ...rec.card, correlationId: id, createdAt: rec.createdAt };
    } else {
      throw new Error(`card refused: ${opened.error.code}: ${opened.error.message}`);
    }
    await this.#emit({
      type: "card",
      card: { ...snapshot, callId: callIdOf(turnId, "issue_refund") } as never,
    });
    // Parked: an answer through this host wakes the runner at once; the
    // store is read again on each wake-up, and otherwise after a timeout
    // that doubles from 1 s up to 60 s (a parked turn costs almost nothing).
    let timeoutMs = 1_000;
    for (;;) {
      const v = await resolver.read(id, this.#authority);
      if (!v.ok) throw new Error(`card ${id} unreadable: ${v.error.code}`);
      const status = v.value.status;
      if (status !== "pending") {
        const resolution = status === "submitted" ? "submitted" : status;
        await this.#emit({ type: "card_closed", correlationId: id, resolution });
        return status === "submitted";
      }
      await this.#ctx.signals.wait(`card:${turnId}`, this.#signal, timeoutMs);
      timeoutMs = Math.min(60_000, timeoutMs * 2);
      if (this.#signal.aborted) throw new Stopped("cancelled");
    }
  }

  /**
   * Close a cancelled turn: the `tool_result` of every effect the ledger
   * holds whose result the log lacks (a cancel after the effect ran still
   * reports it), the open card closed, then `turn_status: cancelled`.
   */
  async finishCancelled(): Promise<void> {
    const { turnId } = this.#turn;
    const frames = await this.#ctx.log.readAfter(turnId, 0);
    this.#logged = frames.at(-1)?.seq ?? 0;
    const folded = foldChatState(frames);
    const state = folded.state;
    const terminal = frames.at(-1)?.event;
    const ended = terminal !== undefined &&
      (terminal.type === "done" || terminal.type === "error" ||
        (terminal.type === "turn_status" && terminal.status === "cancelled"));
    if (!ended) {
      // every effect that completed is reported before the turn ends, so the
      // user sees it happened (a cancel may land after the ledger write)
      for (const t of state?.tools ?? []) {
        if (t.status !== "running") continue;
        const rows = await ledgerFor(this.#ctx.db, `${turnId}/${t.name}`);
        if (rows.length === 0) continue;
        await this.#append({
          type: "tool_result",
          callId: t.callId,
          name: t.name,
          ok: true,
          output: JSON.parse(rows[0].output),
        }, this.#logged + 1);
      }
      for (const c of state?.openCards ?? []) {
        await this.#ctx.resolver.cancel(c.correlationId, this.#authority, {
          reason: "turn cancelled",
        });
        await this.#append(
          { type: "card_closed", correlationId: c.correlationId, resolution: "cancelled" },
          this.#logged + 1,
        );
      }
      await this.#append(
        { type: "turn_status", status: "cancelled", reason: "cancelled by the user" },
        this.#logged + 1,
      );
    }
    await markFinished(this.#ctx.db, turnId);
  }

  /** End a turn that cannot go on with a typed `error` event. */
  async fail(): Promise<void> {
    const { turnId } = this.#turn;
    this.#logged = (await this.#ctx.log.bounds(turnId)).latestSeq;
    await this.#append({
      type: "error",
      message: "the turn failed on the server",
      code: "host_failure",
      retryable: false,
    }, this.#logged + 1);
    await markFinished(this.#ctx.db, turnId);
  }
}
