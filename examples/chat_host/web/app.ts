/**
 * The reference chat host's web page (no framework): starts a turn, renders
 * it from the host's v1 SSE stream and reconnects by itself.
 *
 * - The stream is read with `fetch` and the library's {@link SseParser}; every
 *   envelope is validated and folded by {@link ChatStateFolder} (a duplicate
 *   or replayed event is refused by the fold, never shown twice), and the
 *   folder's `lastEventId` is the cursor sent back as `Last-Event-ID` when the
 *   page reconnects (with backoff: the `retry:` the host sent, doubled per
 *   failed attempt, at most {@link MAX_BACKOFF_MS}).
 * - Assistant text goes through the library's {@link TurnTextScanner}: a
 *   `<report>` / `<ask>` block leaves the text and renders as structured UI,
 *   and a partial tag is never shown.
 * - Every model string (text, block fields, tool names, summaries, card
 *   prompts) is set with `textContent` / `createTextNode`: nothing from the
 *   model is ever parsed as HTML.
 *
 * The host bundles this file (esbuild) and serves it as `/app.js`. The page
 * exposes its progress as data attributes for people and tests alike:
 * `#turn[data-status]`, `#conn[data-state]` (and `data-since`, epoch ms of
 * its last change; `data-attempt-at`, of the last connection attempt),
 * `#timeline[data-last-seq]`,
 * `#timeline[data-last-event-at]` (epoch ms of the last rendered event),
 * `.tool[data-status]`, `.card[data-state]`.
 *
 * @module
 */
import {
  ChatStateFolder,
  isTerminalTurnStatus,
  parseChatEnvelopeJson,
  type TurnStatus,
} from "../../../mod.ts";
import {
  type AskBlock,
  type ReportBlock,
  TurnTextScanner,
  type TurnTextSegment,
} from "../../../blocks.ts";
import { type SseMessage, SseParser } from "../../../sse.ts";
import type { OpenCardSnapshot } from "../../../cards.ts";

/** Reconnection delay before the host sent a `retry:` field, in ms. */
const DEFAULT_RETRY_MS = 250;
/** Upper bound of the reconnection backoff, in ms. */
const MAX_BACKOFF_MS = 500;
/** Longest JSON shown for a tool input or output, in UTF-16 code units. */
const MAX_JSON_SHOWN = 400;

/**
 * The page's turn states: the v1 turn statuses, and `unavailable` (the host
 * no longer retains the turn's history: nothing can be shown or cancelled).
 */
type PageStatus = TurnStatus | "unavailable";

const STATUS_LABELS: Record<PageStatus, string> = {
  "unavailable": "History no longer retained",
  "running": "Running",
  "awaiting-input": "Waiting for your answer",
  "completed": "Completed",
  "failed": "Failed",
  "cancelled": "Cancelled",
  "interrupted": "Interrupted",
  "needs-reconciliation": "Needs reconciliation",
};

/** An element by id (the page's own markup: a missing one is a page bug). */
function byId<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`index.html has no #${id}`);
  return el as T;
}

/** A new element with a class and, optionally, text (always as text, never HTML). */
function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className !== undefined) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** JSON for display, clipped to {@link MAX_JSON_SHOWN}; `""` when it cannot be shown. */
function showJson(value: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
  return s.length > MAX_JSON_SHOWN ? s.slice(0, MAX_JSON_SHOWN) + "…" : s;
}

/** A refusal read from a `{error:{code,message}}` body: its code (null if none) and a line to show. */
interface HostRefusal {
  readonly code: string | null;
  readonly text: string;
}

/** Reads a `{error:{code,message}}` refusal body; a fallback from the status otherwise. */
async function refusalOf(res: Response): Promise<HostRefusal> {
  try {
    const body = await res.json();
    const code = body?.error?.code;
    const message = body?.error?.message;
    if (typeof code === "string") {
      return { code, text: typeof message === "string" ? `${code}: ${message}` : code };
    }
  } catch {
    // not JSON: fall through
  }
  return { code: null, text: `HTTP ${res.status}` };
}

/**
 * Refusals of a `Last-Event-ID` the host cannot resume from (`./http`'s
 * stream refusals): the page then renders the turn again from its start.
 */
const CURSOR_REFUSALS = new Set([
  "stale-cursor",
  "unknown-cursor",
  "cursor-beyond-latest",
  "foreign-cursor",
  "invalid-cursor",
]);

const ui = {
  turn: byId<HTMLElement>("turn"),
  status: byId<HTMLElement>("status"),
  conn: byId<HTMLElement>("conn"),
  connLabel: byId<HTMLElement>("conn-label"),
  prompt: byId<HTMLElement>("user-prompt"),
  timeline: byId<HTMLElement>("timeline"),
  problems: byId<HTMLElement>("problems"),
  form: byId<HTMLFormElement>("prompt-form"),
  input: byId<HTMLTextAreaElement>("prompt-input"),
  send: byId<HTMLButtonElement>("send"),
  cancel: byId<HTMLButtonElement>("cancel"),
};

type ConnState = "idle" | "connecting" | "live" | "reconnecting" | "closed";

function setConn(state: ConnState, detail = ""): void {
  if (ui.conn.dataset.state !== state) ui.conn.dataset.since = String(Date.now());
  ui.conn.dataset.state = state;
  const labels: Record<ConnState, string> = {
    idle: "Idle",
    connecting: "Connecting…",
    live: "Live",
    reconnecting: "Reconnecting…",
    closed: "Stream closed",
  };
  ui.connLabel.textContent = detail === "" ? labels[state] : `${labels[state]} ${detail}`;
}

/** Whether the shown turn can still be cancelled (it is neither over nor unavailable). */
function cancellable(): boolean {
  const status = ui.turn.dataset.status;
  return status !== undefined && Object.hasOwn(STATUS_LABELS, status) &&
    status !== "unavailable" && !isTerminalTurnStatus(status as TurnStatus);
}

/** Show `status` in the badge; the cancel button is enabled only while the turn can be cancelled. */
function setStatus(status: PageStatus): void {
  ui.turn.dataset.status = status;
  ui.status.textContent = STATUS_LABELS[status];
  ui.cancel.disabled = !cancellable();
}

function showProblem(text: string): void {
  ui.problems.append(el("p", "problem", text));
  ui.problems.hidden = false;
}

/** One rendered turn: its fold, its text scanner and its DOM. */
class TurnView {
  readonly turnId: string;
  #folder: ChatStateFolder | null = null;
  #scanner = new TurnTextScanner();
  #scannerEnded = false;
  /** The text node that streamed text is appended to (null: start a new paragraph). */
  #textNode: Text | null = null;
  readonly #tools = new Map<string, HTMLElement>();
  readonly #cards = new Map<string, HTMLFormElement>();
  /** Card ids answered through this page (kept across reloads in sessionStorage). */
  readonly #answered = new Map<string, string>();
  #retryMs = DEFAULT_RETRY_MS;
  #resync = false;
  #restarted = false;
  readonly #abort = new AbortController();

  constructor(turnId: string, conversationId: string | null) {
    this.turnId = turnId;
    if (conversationId !== null) this.#folder = new ChatStateFolder(conversationId, turnId);
    try {
      const saved = JSON.parse(sessionStorage.getItem(`answers:${turnId}`) ?? "{}");
      for (const [k, v] of Object.entries(saved)) {
        if (typeof v === "string") this.#answered.set(k, v);
      }
    } catch {
      // no saved answers
    }
  }

  /** Forgets what was rendered and folded (not the answers given), to replay from the start. */
  #restartView(): void {
    this.#restarted = true;
    const conversationId = this.#folder?.conversationId ?? null;
    this.#folder = conversationId === null
      ? null
      : new ChatStateFolder(conversationId, this.turnId);
    this.#scanner = new TurnTextScanner();
    this.#scannerEnded = false;
    this.#textNode = null;
    this.#tools.clear();
    this.#cards.clear();
    ui.timeline.replaceChildren();
    delete ui.timeline.dataset.lastSeq;
  }

  stop(): void {
    this.#abort.abort();
  }

  /** Reads the stream until the turn is over, reconnecting with `Last-Event-ID`. */
  async run(): Promise<void> {
    let attempt = 0;
    while (!this.#abort.signal.aborted) {
      const headers: Record<string, string> = { accept: "text/event-stream" };
      const cursor = this.#folder?.state().lastEventId ?? null;
      if (cursor !== null) headers["last-event-id"] = cursor;
      setConn(attempt === 0 ? "connecting" : "reconnecting", attempt > 1 ? `(try ${attempt})` : "");
      try {
        ui.conn.dataset.attemptAt = String(Date.now());
        const res = await fetch(`/api/turns/${encodeURIComponent(this.turnId)}/events`, {
          headers,
          cache: "no-store",
          signal: this.#abort.signal,
        });
        if (!res.ok || res.body === null) {
          const why = await refusalOf(res);
          if (
            cursor !== null && !this.#restarted && why.code !== null &&
            CURSOR_REFUSALS.has(why.code)
          ) {
            // The host cannot resume after our cursor (e.g. its store was
            // replaced): show the turn again from its first event, once.
            this.#restartView();
            continue;
          }
          if (why.code === "stale-cursor") {
            // Even the turn's first events are gone (the host keeps only the
            // last events of a finished turn): say so, never a wrong state.
            showProblem("This turn's history is no longer retained by the host.");
            setStatus("unavailable");
            setConn("closed");
            return;
          }
          if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429) {
            showProblem(`The stream was refused: ${why.text}`);
            setConn("closed");
            return;
          }
          throw new Error(why.text);
        }
        setConn("live");
        attempt = 0;
        await this.#read(res.body);
      } catch {
        if (this.#abort.signal.aborted) return;
      }
      const status = this.#folder?.status;
      if (status !== undefined && isTerminalTurnStatus(status)) {
        setConn("closed");
        return;
      }
      attempt++;
      setConn("reconnecting", attempt > 1 ? `(try ${attempt})` : "");
      const delay = Math.min(MAX_BACKOFF_MS, this.#retryMs * 2 ** Math.max(0, attempt - 1));
      await new Promise((r) => setTimeout(r, delay));
    }
  }

  async #read(body: ReadableStream<Uint8Array>): Promise<void> {
    const reader = body.getReader();
    this.#resync = false;
    const parser = new SseParser({
      onEvent: (m) => this.#onMessage(m),
      onRetry: (ms) => {
        this.#retryMs = Math.max(50, Math.min(MAX_BACKOFF_MS, ms));
      },
    });
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(value);
        // A gap: reconnect from the last applied event rather than skip it.
        if (this.#resync) break;
      }
    } finally {
      reader.cancel().catch(() => {});
    }
  }

  #onMessage(m: SseMessage): void {
    if (m.data === "" || this.#resync) return;
    const parsed = parseChatEnvelopeJson(m.data);
    if (!parsed.ok) {
      showProblem(`Unreadable event: ${parsed.error.code}`);
      return;
    }
    const env = parsed.value;
    this.#folder ??= new ChatStateFolder(env.conversationId, this.turnId);
    const pushed = this.#folder.push(env);
    if (!pushed.ok) {
      const code = pushed.error.code;
      if (code === "duplicate" || code === "reordered") return; // shown already
      if (code === "gap") {
        this.#resync = true;
        return;
      }
      showProblem(`Event ${env.eventId} refused: ${code}`);
      return;
    }
    this.#render(pushed.value.event);
    ui.timeline.dataset.lastSeq = String(env.seq);
    ui.timeline.dataset.lastEventAt = String(Date.now());
  }

  #render(event: import("../../../mod.ts").ChatEventV1): void {
    switch (event.type) {
      case "delta":
        for (const seg of this.#scanner.push(event.text)) this.#segment(seg);
        break;
      case "tool_call":
        this.#toolCall(event.callId, event.name, event.input);
        break;
      case "tool_progress":
        this.#toolProgress(event.callId, event.message, event.progress);
        break;
      case "tool_result":
        this.#toolResult(event.callId, event.ok, event.summary, event.output);
        break;
      case "card":
        this.#card(event.card);
        break;
      case "card_closed":
        this.#cardClosed(event.correlationId, event.resolution);
        break;
      case "error":
        this.#endText();
        ui.problems.append(
          el(
            "p",
            "problem",
            `The turn failed: ${event.message}${event.code ? ` (${event.code})` : ""}` +
              (event.retryable ? " — you may retry." : ""),
          ),
        );
        ui.problems.hidden = false;
        break;
      default:
        break;
    }
    this.#syncStatus();
  }

  /** Status badge, cancel button, unfinished tools; ends the text at a terminal status. */
  #syncStatus(): void {
    const status = this.#folder?.status ?? "running";
    setStatus(status);
    const over = isTerminalTurnStatus(status);
    if (over) this.#endText();
    if (over || status === "interrupted" || status === "needs-reconciliation") {
      for (const tool of this.#tools.values()) {
        if (tool.dataset.status === "running") setToolStatus(tool, "unfinished");
      }
    }
  }

  /**
   * Ends the turn's text. A block still open there (the turn was cut off by
   * a cancel or an error) is shown as an "Unreadable … block (unclosed)"
   * element holding its raw text, never as prose: the scanner yields its
   * opening tag as the `unclosed` segment and everything after it (no close
   * tag follows) is that block's body.
   */
  #endText(): void {
    if (this.#scannerEnded) return;
    this.#scannerEnded = true;
    let raw: HTMLElement | null = null;
    for (const seg of this.#scanner.end()) {
      if (raw !== null) {
        raw.append(seg.kind === "text" ? seg.text : seg.raw);
      } else if (seg.kind === "invalid" && seg.reason === "unclosed") {
        raw = this.#invalidBlock(seg.tag, seg.reason, seg.raw);
      } else {
        this.#segment(seg);
      }
    }
  }

  /** An "Unreadable <tag> block (<reason>)" element with its raw text; returns the raw text's element. */
  #invalidBlock(tag: string, reason: string, raw: string): HTMLElement {
    this.#textNode = null;
    const box = el("details", "block invalid");
    box.open = true;
    box.dataset.reason = reason;
    box.append(el("summary", undefined, `Unreadable ${tag} block (${reason})`));
    const pre = el("pre", "block-raw", raw);
    box.append(pre);
    ui.timeline.append(box);
    return pre;
  }

  /**
   * Appends streamed text to the current paragraph; a new paragraph starts
   * after a block, a tool or a card, without the line breaks that separated
   * it from them (they would show as blank lines), and only once it has text.
   */
  #appendText(text: string): void {
    if (this.#textNode === null) {
      const rest = text.replace(/^[\r\n]+/, "");
      if (rest === "") return;
      const p = el("div", "text");
      this.#textNode = document.createTextNode(rest);
      p.append(this.#textNode);
      ui.timeline.append(p);
      return;
    }
    if (text !== "") this.#textNode.appendData(text);
  }

  #segment(seg: TurnTextSegment): void {
    switch (seg.kind) {
      case "text":
        this.#appendText(seg.text);
        return;
      case "report":
        this.#textNode = null;
        ui.timeline.append(renderReport(seg.block));
        return;
      case "ask":
        this.#textNode = null;
        ui.timeline.append(renderAsk(seg.block));
        return;
      case "invalid":
        this.#invalidBlock(seg.tag, seg.reason, seg.raw);
        return;
    }
  }

  #toolCall(callId: string, name: string, input: unknown): void {
    this.#textNode = null;
    const box = el("div", "tool");
    box.dataset.callId = callId;
    const head = el("div", "tool-head");
    head.append(el("span", "tool-icon"), el("span", "tool-name", name), el("span", "badge"));
    box.append(head);
    const shown = input === undefined ? "" : showJson(input);
    if (shown !== "") {
      const line = el("div", "tool-io");
      line.append(el("span", "io-label", "input"), el("code", "tool-input", shown));
      box.append(line);
    }
    box.append(el("div", "tool-detail"));
    setToolStatus(box, "running");
    this.#tools.set(callId, box);
    ui.timeline.append(box);
  }

  #toolProgress(callId: string, message?: string, progress?: number): void {
    const box = this.#tools.get(callId);
    if (box === undefined) return;
    const parts = [
      progress === undefined ? "" : `${Math.round(progress * 100)}%`,
      message ?? "",
    ].filter((s) => s !== "");
    box.querySelector(".tool-detail")!.textContent = parts.join(" · ");
  }

  #toolResult(callId: string, ok: boolean, summary?: string, output?: unknown): void {
    const box = this.#tools.get(callId);
    if (box === undefined) return;
    setToolStatus(box, ok ? "done" : "failed");
    const shown = summary ?? (output === undefined ? "" : showJson(output));
    const detail = box.querySelector(".tool-detail")!;
    if (shown === "") detail.replaceChildren();
    else {detail.replaceChildren(
        el("span", "io-label", ok ? "result" : "error"),
        el("code", "tool-output", shown),
      );}
  }

  #card(card: OpenCardSnapshot): void {
    this.#textNode = null;
    const form = renderCard(card);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const submitter = (e as SubmitEvent).submitter as HTMLButtonElement | null;
      void this.#answer(card, form, submitter?.value === "decline");
    });
    this.#cards.set(card.correlationId, form);
    ui.timeline.append(form);
    const answered = this.#answered.get(card.correlationId);
    if (answered !== undefined) markCard(form, "sent", answered);
  }

  #cardClosed(correlationId: string, resolution?: string): void {
    const form = this.#cards.get(correlationId);
    if (form === undefined) return;
    const label = this.#answered.get(correlationId);
    if (resolution === undefined || resolution === "submitted") {
      markCard(form, "answered", label);
    } else {
      markCard(form, "closed", resolution);
    }
  }

  async #answer(card: OpenCardSnapshot, form: HTMLFormElement, decline: boolean): Promise<void> {
    const answer = decline ? { action: "decline" as const } : readCardAnswer(card, form);
    if (answer === null) {
      setCardNote(form, "Choose an answer first.");
      return;
    }
    markCard(form, "sending");
    const label = answer.action === "decline" ? "Declined" : describeAnswer(card, answer.value);
    let res: Response;
    try {
      res = await fetch(
        `/api/turns/${encodeURIComponent(this.turnId)}/cards/${
          encodeURIComponent(card.correlationId)
        }/answer`,
        {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ answer }),
        },
      );
    } catch {
      markCard(form, "open");
      setCardNote(form, "Could not reach the host; try again.");
      return;
    }
    if (!res.ok) {
      const why = await refusalOf(res);
      markCard(form, "open");
      setCardNote(form, `Not accepted: ${why.text}`);
      return;
    }
    this.#answered.set(card.correlationId, label);
    try {
      sessionStorage.setItem(
        `answers:${this.turnId}`,
        JSON.stringify(Object.fromEntries(this.#answered)),
      );
    } catch {
      // storage full or off: the label is only for display
    }
    // The stream's card_closed makes it "answered"; until then it is "sent".
    if (form.dataset.state === "sending") markCard(form, "sent", label);
  }
}

type ToolStatus = "running" | "done" | "failed" | "unfinished";

function setToolStatus(box: HTMLElement, status: ToolStatus): void {
  box.dataset.status = status;
  const labels: Record<ToolStatus, string> = {
    running: "running",
    done: "done",
    failed: "failed",
    unfinished: "unfinished",
  };
  box.querySelector(".badge")!.textContent = labels[status];
}

function renderReport(block: ReportBlock): HTMLElement {
  const box = el("section", "block report");
  box.append(el("div", "block-kind", "Report"));
  if (block.title !== undefined) box.append(el("h3", "report-title", block.title));
  for (const plan of block.plans) {
    const p = el("div", "plan");
    const head = el("div", "plan-head");
    head.append(el("span", "plan-title", plan.title));
    if (plan.status !== undefined) {
      const chip = el("span", "chip", plan.status);
      chip.dataset.status = plan.status;
      head.append(chip);
    }
    p.append(head);
    if (plan.summary !== undefined) p.append(el("p", "plan-summary", plan.summary));
    if (plan.items !== undefined) {
      const ul = el("ul", "items");
      for (const item of plan.items) {
        const li = el("li");
        if (item.status !== undefined) {
          const chip = el("span", "chip", item.status);
          chip.dataset.status = item.status;
          li.append(chip);
        }
        li.append(el("span", "item-text", item.text));
        ul.append(li);
      }
      p.append(ul);
    }
    box.append(p);
  }
  if (block.goalReport !== undefined) {
    box.append(el("p", "muted", `Goal report: ${showJson(block.goalReport)}`));
  }
  return box;
}

function renderAsk(block: AskBlock): HTMLElement {
  const box = el("section", "block ask");
  box.append(el("div", "block-kind", "Question"));
  box.append(el("p", "ask-question", block.question));
  if (block.options !== undefined) {
    const list = el("div", "ask-options");
    for (const option of block.options) {
      const b = el("button", "ask-option", option.label);
      b.type = "button";
      if (option.description !== undefined) b.title = option.description;
      // A suggestion fills the prompt box; the person still decides to send it.
      b.addEventListener("click", () => {
        ui.input.value = option.label;
        ui.input.focus();
      });
      list.append(b);
    }
    box.append(list);
  }
  if (block.refs !== undefined) box.append(el("p", "muted", `Refs: ${block.refs.join(", ")}`));
  return box;
}

type CardAnswer = { action: "submit"; value: Record<string, unknown> } | { action: "decline" };

function renderCard(card: OpenCardSnapshot): HTMLFormElement {
  const form = el("form", "card");
  form.dataset.cardId = card.correlationId;
  form.append(el("div", "block-kind", "Needs your answer"));
  form.append(el("p", "card-prompt", card.prompt));
  if (card.approval !== undefined) {
    const box = el("div", "approval");
    box.append(el("code", "approval-title", card.approval.title));
    box.append(el("p", "approval-question", card.approval.question));
    if (card.approval.body.length > 0) {
      box.append(el("pre", "approval-body", card.approval.body.join("\n")));
    }
    form.append(box);
  }
  if (card.report !== undefined) form.append(renderReport(card.report));
  if (card.details !== undefined) {
    const d = el("details");
    d.append(el("summary", undefined, "Details"), el("p", undefined, card.details));
    form.append(d);
  }
  const fields = el("div", "card-fields");
  const p = card.presentation;
  const name = `card-${card.correlationId}`;
  if (p?.kind === "radio" || p?.kind === "checkbox" || p?.kind === "select") {
    if (p.kind === "select") {
      const select = el("select");
      select.name = name;
      for (const o of p.options ?? []) {
        const opt = el("option", undefined, o.label);
        opt.value = o.id;
        select.append(opt);
      }
      fields.append(select);
    } else {
      for (const o of p.options ?? []) {
        const label = el("label", "choice");
        const input = el("input");
        input.type = p.kind === "checkbox" ? "checkbox" : "radio";
        input.name = name;
        input.value = o.id;
        label.append(input, el("span", undefined, o.label));
        if (o.description !== undefined) label.append(el("small", "muted", o.description));
        fields.append(label);
      }
    }
  } else if (p?.kind === "text") {
    const input = p.multiline ? el("textarea") : el("input");
    input.name = name;
    if (p.placeholder !== undefined) input.placeholder = p.placeholder;
    fields.append(input);
  } else if (p?.kind === "slider" || p?.kind === "date") {
    const input = el("input");
    input.name = name;
    input.type = p.kind === "slider" ? "range" : "date";
    if (p.min !== undefined) input.min = String(p.min);
    if (p.max !== undefined) input.max = String(p.max);
    if (p.step !== undefined) input.step = String(p.step);
    fields.append(input);
  }
  form.append(fields);
  const actions = el("div", "card-actions");
  const submit = el("button", "primary", p === undefined ? "Confirm" : "Send answer");
  submit.type = "submit";
  submit.value = "submit";
  actions.append(submit);
  if (card.allowDecline !== false) {
    const decline = el("button", "secondary", "Decline");
    decline.type = "submit";
    decline.value = "decline";
    actions.append(decline);
  }
  actions.append(el("span", "card-note"));
  form.append(actions);
  markCard(form, "open");
  return form;
}

/** The card's answer as the host's `CardResponse` value, or null when nothing is chosen. */
function readCardAnswer(card: OpenCardSnapshot, form: HTMLFormElement): CardAnswer | null {
  const p = card.presentation;
  const data = new FormData(form);
  const name = `card-${card.correlationId}`;
  if (p === undefined) return { action: "submit", value: { confirmed: true } };
  switch (p.kind) {
    case "radio":
    case "select": {
      const id = data.get(name);
      return typeof id === "string" && id !== ""
        ? { action: "submit", value: { optionId: id } }
        : null;
    }
    case "checkbox":
      return { action: "submit", value: { optionIds: data.getAll(name).map(String) } };
    case "text": {
      const text = String(data.get(name) ?? "").trim();
      return text === "" ? null : { action: "submit", value: { text } };
    }
    case "slider":
      return { action: "submit", value: { value: Number(data.get(name)) } };
    case "date": {
      const date = String(data.get(name) ?? "");
      return date === "" ? null : { action: "submit", value: { date } };
    }
  }
  return null;
}

function describeAnswer(card: OpenCardSnapshot, value: Record<string, unknown>): string {
  const options = card.presentation?.options ?? [];
  const label = (id: unknown) => options.find((o) => o.id === id)?.label ?? String(id);
  if ("optionId" in value) return label(value.optionId);
  if (Array.isArray(value.optionIds)) return value.optionIds.map(label).join(", ");
  if ("confirmed" in value) return "Confirmed";
  return showJson(Object.values(value)[0]);
}

type CardState = "open" | "sending" | "sent" | "answered" | "closed";

function markCard(form: HTMLFormElement, state: CardState, detail?: string): void {
  form.dataset.state = state;
  const locked = state !== "open";
  for (
    const c of form.querySelectorAll<HTMLInputElement | HTMLButtonElement>(
      "input,button,select,textarea",
    )
  ) {
    c.disabled = locked;
  }
  const notes: Record<CardState, string> = {
    open: "",
    sending: "Sending…",
    sent: detail === undefined ? "Answer sent" : `Answer sent: ${detail}`,
    answered: detail === undefined ? "Answered" : `Answered: ${detail}`,
    closed: `Closed (${detail ?? "closed"})`,
  };
  setCardNote(form, notes[state]);
  const kind = form.querySelector(".block-kind");
  if (kind !== null) {
    kind.textContent = state === "answered"
      ? "Answered"
      : state === "closed"
      ? "Closed"
      : "Needs your answer";
  }
}

function setCardNote(form: HTMLFormElement, text: string): void {
  form.querySelector(".card-note")!.textContent = text;
}

let current: TurnView | null = null;

function show(turnId: string, conversationId: string | null, prompt: string | null): void {
  current?.stop();
  ui.timeline.replaceChildren();
  ui.problems.replaceChildren();
  ui.problems.hidden = true;
  delete ui.timeline.dataset.lastSeq;
  delete ui.timeline.dataset.lastEventAt;
  ui.turn.hidden = false;
  ui.prompt.textContent = prompt ?? "";
  ui.prompt.hidden = prompt === null || prompt === "";
  setStatus("running");
  const view = new TurnView(turnId, conversationId);
  current = view;
  void view.run();
}

ui.form.addEventListener("submit", async (e) => {
  e.preventDefault();
  const prompt = ui.input.value.trim();
  if (prompt === "") return;
  ui.send.disabled = true;
  try {
    const conversationId = new URL(location.href).searchParams.get("conversation");
    const res = await fetch("/api/turns", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(conversationId === null ? { prompt } : { prompt, conversationId }),
    });
    if (!res.ok) {
      showProblem(`The turn could not start: ${(await refusalOf(res)).text}`);
      return;
    }
    const body = await res.json();
    const url = new URL(location.href);
    url.searchParams.set("conversation", body.conversationId);
    url.searchParams.set("turn", body.turnId);
    history.replaceState(null, "", url);
    try {
      sessionStorage.setItem(`prompt:${body.turnId}`, prompt);
    } catch {
      // display only
    }
    ui.input.value = "";
    show(body.turnId, body.conversationId, prompt);
  } catch {
    showProblem("The host could not be reached.");
  } finally {
    ui.send.disabled = false;
  }
});

ui.input.addEventListener("keydown", (e) => {
  if (e.key === "Enter" && !e.shiftKey) {
    e.preventDefault();
    ui.form.requestSubmit();
  }
});

ui.cancel.addEventListener("click", async () => {
  if (current === null) return;
  ui.cancel.disabled = true;
  try {
    const res = await fetch(`/api/turns/${encodeURIComponent(current.turnId)}/cancel`, {
      method: "POST",
    });
    if (!res.ok) {
      showProblem(`Cancel refused: ${(await refusalOf(res)).text}`);
      // enabled again only while the turn still runs (it may have ended meanwhile)
      ui.cancel.disabled = !cancellable();
    }
  } catch {
    showProblem("The host could not be reached to cancel.");
    ui.cancel.disabled = !cancellable();
  }
});

// Resume the turn named in the address (a reload): the whole turn is replayed and folded.
{
  const params = new URL(location.href).searchParams;
  const turnId = params.get("turn");
  if (turnId !== null && turnId !== "") {
    let prompt: string | null = null;
    try {
      prompt = sessionStorage.getItem(`prompt:${turnId}`);
    } catch {
      // display only
    }
    show(turnId, params.get("conversation"), prompt);
  } else {
    setConn("idle");
  }
}
