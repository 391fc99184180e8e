/**
 * Human-readable rendering of an {@link InspectReport}. Pure: text in, text out.
 *
 * Every string that came from the capture is printed through `escapeText`
 * (control, bidi and invisible format characters escaped; see `escape.ts`)
 * or `previewJson`, so a capture can neither drive the terminal nor forge an
 * output line nor reorder what a person reads.
 *
 * The output is bounded unless `all` is set: problems are shown as groups
 * with a few examples each, the timeline as its interesting rows, and each
 * turn's text, tools, cards and parts up to a fixed number.
 *
 * @module
 */
import { isRecord } from "../_internal/guards.ts";
import { clipText } from "../_internal/describe.ts";
import { escapeText } from "./escape.ts";
import { previewJson } from "./json_text.ts";
import { formatMs } from "./timeline.ts";
import type {
  InspectProblemGroup,
  InspectReport,
  InspectTimelineRow,
  InspectTurn,
} from "./report.ts";

/** Rendering options. */
export interface RenderOptions {
  /** Use ANSI colours (main.ts: only on a terminal and without NO_COLOR). */
  color?: boolean;
  /** Longest JSON preview shown for one value, in characters (default 200). */
  maxJson?: number;
  /** Show everything (every example, row, text line, tool, card); default `false`. */
  all?: boolean;
}

/** Output bounds without `all`. */
export const RENDER_LIMITS = {
  /** Problem groups shown. */
  groups: 25,
  /** Examples shown over all groups. */
  examples: 40,
  /** Turns shown in detail; later ones get one line each. */
  turnDetails: 10,
  /** Turns listed with one line each after the detailed ones. */
  turnLines: 40,
  /** Lines of text (and of reasoning) shown per turn. */
  textLines: 60,
  /** Characters of text (and of reasoning) shown per turn. */
  textChars: 6_000,
  /** Tools, cards, parts, domain events, navigations shown per turn (each). */
  items: 20,
  /** Characters of one timeline row's fields. */
  rowFields: 300,
} as const;

/** Longest untrusted string (a name, an id, a message) shown on one line, UTF-16 code units. */
const MAX_NAME = 2_000;

/** Escape untrusted text for one output line, cut to {@link MAX_NAME} (`--json` has it whole). */
function clean(s: string): string {
  return escapeText(s.length > MAX_NAME ? `${clipText(s, MAX_NAME)}…` : s);
}

interface Paint {
  bold: (s: string) => string;
  dim: (s: string) => string;
  red: (s: string) => string;
  green: (s: string) => string;
  yellow: (s: string) => string;
}

/** Render `report` as text for a person. Ends with a newline. */
export function renderReport(report: InspectReport, options: RenderOptions = {}): string {
  const c = options.color === true;
  const paint = (code: string) => (s: string) => (c ? `\x1b[${code}m${s}\x1b[0m` : s);
  const p: Paint = {
    bold: paint("1"),
    red: paint("31"),
    yellow: paint("33"),
    green: paint("32"),
    dim: paint("2"),
  };
  const r = new Renderer(report, p, options.maxJson ?? 200, options.all === true);
  return r.render();
}

class Renderer {
  readonly out: string[] = [];
  constructor(
    readonly report: InspectReport,
    readonly p: Paint,
    readonly max: number,
    readonly all: boolean,
  ) {}

  json(v: unknown, max = this.max): string {
    return previewJson(v, max);
  }

  /** `items` cut to `limit` unless `all`, and how many were cut. */
  bounded<T>(items: readonly T[], limit: number): { shown: readonly T[]; more: number } {
    if (this.all || items.length <= limit) return { shown: items, more: 0 };
    return { shown: items.slice(0, limit), more: items.length - limit };
  }

  more(n: number, what: string, indent: string): void {
    if (n > 0) this.out.push(this.p.dim(`${indent}… ${n} more ${what} (--all shows them)`));
  }

  render(): string {
    const { report, out, p } = this;
    out.push(p.bold(`inspect ${clean(report.source)}`));
    const turns = report.turns.length;
    out.push(
      `  format ${report.format} · dialect ${report.dialect} ${
        p.dim(`(${clean(report.dialectReason)})`)
      }` + (turns > 1 ? ` · ${turns} turns` : "") + (report.strict ? " · strict" : ""),
    );
    for (const h of report.hints) out.push(p.yellow(`  hint (${h.code}): ${clean(h.message)}`));
    out.push("");
    this.problems();
    if (report.exitCode !== 2) this.timeline();
    if (report.turns.length === 0 && report.exitCode !== 2) {
      out.push(p.dim("No turn could be folded."), "");
    }
    const details = this.all ? report.turns.length : RENDER_LIMITS.turnDetails;
    report.turns.forEach((t, i) => {
      if (i < details) this.turn(t, i);
      else if (i < details + RENDER_LIMITS.turnLines) out.push(this.turnHeader(t, i));
    });
    const listed = details + RENDER_LIMITS.turnLines;
    if (report.turns.length > listed) {
      this.more(report.turns.length - listed, "turn(s)", "");
    }
    if (report.turns.length > details) out.push("");
    this.summary();
    return out.join("\n") + "\n";
  }

  problems(): void {
    const { report, out, p } = this;
    const s = report.summary;
    if (report.problemGroups.length === 0) {
      out.push(p.green("No problems: every frame satisfies its contract."), "");
      return;
    }
    const total = report.problemGroups.reduce((n, g) => n + g.count, 0);
    out.push(p.bold(
      `Problems (${s.errors} error(s), ${s.warnings} warning(s)` +
        (report.problemGroups.length > 1 || total > 1
          ? ` in ${report.problemGroups.length} group(s) by code)`
          : ")"),
    ));
    if (this.all) {
      // Every problem, in input order, then the groups' counts.
      for (const prob of report.problems) out.push(this.problemLine(prob, "  "));
      this.more(report.problemsOmitted, "problem(s)", "  ");
      out.push("  by code:");
      for (const g of report.problemGroups) out.push(`    ${this.groupHeader(g)}`);
      out.push("");
      return;
    }
    const groups = this.bounded(report.problemGroups, RENDER_LIMITS.groups);
    let examples = RENDER_LIMITS.examples;
    for (const g of groups.shown) {
      out.push(`  ${this.groupHeader(g)}`);
      const ex = g.examples.slice(0, Math.max(1, Math.min(g.examples.length, examples)));
      examples -= ex.length;
      for (const prob of ex) out.push(this.problemLine(prob, "    "));
      if (g.count > ex.length) out.push(p.dim(`    … ${g.count - ex.length} more`));
    }
    if (groups.more > 0) {
      const rest = report.problemGroups.slice(groups.shown.length).reduce((n, g) => n + g.count, 0);
      out.push(p.dim(`  … ${groups.more} more group(s), ${rest} problem(s) (--all shows them)`));
    }
    out.push("");
  }

  groupHeader(g: InspectProblemGroup): string {
    const sev = g.severity === "error" ? this.p.red("error") : this.p.yellow("warning");
    const where = g.lines.length === 0
      ? "the whole capture"
      : `line${g.lines.length > 1 ? "s" : ""} ${g.lines.join(", ")}${
        g.count > g.lines.length ? ", …" : ""
      }`;
    return `${this.p.bold(clean(g.code))} ×${g.count} ${sev} · ${where}`;
  }

  problemLine(
    prob: { line: number | null; turn?: number; severity: string; code: string; message: string },
    indent: string,
  ): string {
    const where = prob.line === null ? "capture " : `line ${String(prob.line).padEnd(4)}`;
    const sev = prob.severity === "error" ? this.p.red("error  ") : this.p.yellow("warning");
    const turn = prob.turn !== undefined && this.report.turns.length > 1
      ? this.p.dim(` (turn #${prob.turn + 1})`)
      : "";
    return `${indent}${where} ${sev} ${clean(prob.code)}: ${clean(prob.message)}${turn}`;
  }

  timeline(): void {
    const { report, out, p } = this;
    const tl = report.timeline;
    if (tl.rows.length === 0) return;
    const frames = report.summary.frames;
    let head = `Timeline: ${frames} frame(s)`;
    if (tl.timedFrames > 0) {
      head += `, ${tl.timedFrames} with a time, over ${formatMs(tl.durationMs ?? 0)}`;
      if (tl.startAt !== undefined) head += ` from ${iso(tl.startAt)}`;
      head += ` · ${tl.gapCount} gap(s) over ${formatMs(tl.gapThresholdMs)}`;
    } else head += " (no frame has a time: v1 `at` or heartbeat `tsMs`)";
    out.push(p.bold(head));
    let prev = -1;
    // Lines an SSE client drops (an unknown field) sit between the frames, where they were.
    const dropped = this.all || tl.rowsOmitted === 0
      ? report.problems.filter((x) => x.code === "dropped-line" && x.line !== undefined)
      : [];
    let d = 0;
    const droppedUpTo = (line: number) => {
      for (; d < dropped.length && dropped[d].line! < line; d++) {
        out.push(p.yellow(`  line ${String(dropped[d].line).padEnd(6)} dropped (dropped-line)`));
      }
    };
    for (const row of tl.rows) {
      droppedUpTo(row.line);
      if (row.index > prev + 1) out.push(p.dim(`  … ${row.index - prev - 1} frame(s)`));
      out.push(this.row(row));
      prev = row.index;
    }
    droppedUpTo(Infinity);
    if (prev < frames - 1) out.push(p.dim(`  … ${frames - 1 - prev} frame(s)`));
    if (tl.rowsOmitted > 0) {
      out.push(p.dim(`  (${tl.rows.length} of ${frames} frames shown; --all shows every frame)`));
    }
    if (tl.gapCount > 0) {
      const gaps = tl.gaps.slice(0, this.all ? tl.gaps.length : 5);
      out.push(
        `  largest gap(s): ${
          gaps.map((g) => `${formatMs(g.gapMs)} before line ${g.line}`).join(", ")
        }${tl.gapCount > gaps.length ? `, … (${tl.gapCount} in all)` : ""}`,
      );
    }
    out.push("");
  }

  row(row: InspectTimelineRow): string {
    const p = this.p;
    const line = `line ${String(row.line).padEnd(6)} `;
    const time = this.report.timeline.timedFrames === 0
      ? ""
      : (row.offsetMs !== undefined ? `+${formatMs(row.offsetMs)}` : "").padEnd(12) + " ";
    const turn = row.turn !== undefined && this.report.turns.length > 1 ? `T${row.turn + 1} ` : "";
    const seq = row.seq !== undefined ? `#${row.seq} ` : "";
    const gap = row.gapMs !== undefined ? p.yellow(`⚠ gap ${formatMs(row.gapMs)} `) : "";
    const fields = this.fields(row);
    return `  ${line}${time}${gap}${turn}${seq}${p.bold(clean(row.type))}${
      fields ? `  ${fields}` : ""
    }`;
  }

  /** Every field of a row's frame as `key=value`, bounded in length. */
  fields(row: InspectTimelineRow): string {
    const parts: string[] = [];
    const data = row.data;
    const envelope = this.report.dialect === "v1" && isRecord(data) && isRecord(data.event);
    const add = (key: string, v: unknown) => parts.push(`${clean(key)}=${this.json(v, 120)}`);
    if (envelope) {
      const env = data as Record<string, unknown>;
      for (const [k, v] of Object.entries(env.event as Record<string, unknown>)) {
        if (k !== "type") add(k, v);
      }
      for (const [k, v] of Object.entries(env)) {
        if (!ENVELOPE_SHOWN.has(k)) add(k, v);
      }
    } else if (isRecord(data)) {
      for (const [k, v] of Object.entries(data)) if (k !== "type") add(k, v);
    } else if (typeof data === "string") {
      if (data !== row.type) parts.push(this.json(data, 120));
    } else parts.push(this.json(data, 120));
    if (
      row.id !== undefined && !(envelope && (data as Record<string, unknown>).eventId === row.id)
    ) {
      parts.push(`sse-id=${this.json(row.id, 60)}`);
    }
    if (row.event !== undefined && row.event !== row.type) {
      parts.push(`sse-event=${this.json(row.event, 60)}`);
    }
    const text = parts.join(" ");
    const limit = RENDER_LIMITS.rowFields;
    return text.length > limit ? `${clipText(text, limit)}…` : text;
  }

  turnHeader(t: InspectTurn, i: number): string {
    const p = this.p;
    const s = t.summary;
    const ids = t.conversationId !== undefined
      ? ` · ${clean(t.conversationId)} / ${clean(t.turnId ?? "")}`
      : t.messageId !== undefined
      ? ` · message ${clean(t.messageId)}`
      : "";
    const lines = s.firstLine === s.lastLine
      ? `line ${s.firstLine}`
      : `lines ${s.firstLine}–${s.lastLine}`;
    const status = t.status === "completed"
      ? p.green(t.status)
      : ["failed", "cancelled", "aborted", "interrupted", "needs-reconciliation"].includes(t.status)
      ? p.red(clean(t.status))
      : clean(t.status);
    return `${p.bold(`Turn #${i + 1}`)}: ${status}${ids} · ${lines} · ${s.events} event(s) · ` +
      `${s.errors} error(s), ${s.warnings} warning(s)` +
      (s.durationMs !== undefined ? ` · ${formatMs(s.durationMs)}` : "");
  }

  turn(t: InspectTurn, i: number): void {
    const { out, p } = this;
    out.push(this.turnHeader(t, i));
    const line = (label: string, value: string) => out.push(`  ${label.padEnd(11)} ${value}`);
    if (t.statusReason !== undefined) line("reason", clean(t.statusReason));
    if (t.lastSeq !== undefined) {
      line(
        "cursor",
        `seq ${t.lastSeq} · eventId ${t.lastEventId === null ? "none" : this.json(t.lastEventId)}`,
      );
    }
    if (t.sessionId !== undefined) line("session", clean(t.sessionId));
    if (t.provenance !== undefined) line("provenance", this.json(t.provenance));
    if (t.stopReason !== undefined) line("stop", clean(t.stopReason));
    if (t.usage !== undefined) line("usage", this.json(t.usage));
    if (t.metadata !== undefined) line("metadata", this.json(t.metadata));
    if (t.state !== undefined) {
      line("state", `version ${t.state.version} ${this.json(t.state.snapshot)}`);
    }
    let textBudget = this.all ? Infinity : RENDER_LIMITS.textLines;
    let charBudget = this.all ? Infinity : RENDER_LIMITS.textChars;
    const block = (text: string, dim: boolean) => {
      const lines = text.replace(/\r\n?/g, "\n").split("\n");
      let shown = 0;
      for (const l of lines) {
        if (shown >= textBudget || charBudget <= 0) break;
        const cut = l.length > charBudget;
        const piece = cut ? `${clipText(l, charBudget)}…` : l;
        charBudget -= l.length;
        shown++;
        const s = `    │ ${escapeText(piece, { keepTab: true })}`;
        out.push(dim ? p.dim(s) : s);
      }
      textBudget -= shown;
      if (shown < lines.length || charBudget < 0) {
        out.push(p.dim(`    … ${text.length} characters in all (--all shows them)`));
      }
    };
    if (t.reasoning !== undefined) {
      out.push("  reasoning:");
      block(t.reasoning, true);
    }
    textBudget = this.all ? Infinity : RENDER_LIMITS.textLines;
    charBudget = this.all ? Infinity : RENDER_LIMITS.textChars;
    if (t.segments.length === 0) out.push(p.dim("  (no text)"));
    for (const seg of t.segments) {
      if (textBudget <= 0 || charBudget <= 0) {
        out.push(p.dim("  … more text (--all shows it)"));
        break;
      }
      if (seg.kind === "text") {
        out.push("  text:");
        block(seg.text, false);
      } else if (seg.kind === "report") {
        const b = seg.block;
        out.push(`  report${b.title !== undefined ? `: ${clean(b.title)}` : ""}`);
        for (const plan of b.plans) {
          out.push(`    ▸ ${clean(plan.title)}${plan.status ? ` [${clean(plan.status)}]` : ""}`);
          if (plan.summary) out.push(`      ${clean(plan.summary)}`);
          for (const item of plan.items ?? []) {
            out.push(`      - ${item.status ? `[${clean(item.status)}] ` : ""}${clean(item.text)}`);
          }
          textBudget -= 1 + (plan.items?.length ?? 0);
        }
        if (b.goalReport !== undefined) out.push(`    goal report ${this.json(b.goalReport)}`);
      } else if (seg.kind === "ask") {
        out.push(`  ask: ${clean(seg.block.question)}`);
        for (const o of seg.block.options ?? []) {
          out.push(
            `    (${clean(o.id)}) ${clean(o.label)}${
              o.description ? ` — ${clean(o.description)}` : ""
            }`,
          );
        }
        for (const r of seg.block.refs ?? []) out.push(`    ref ${clean(r)}`);
        textBudget -= 1 + (seg.block.options?.length ?? 0);
      } else {
        out.push(p.red(`  invalid <${clean(seg.tag)}> block (${clean(seg.reason)}):`));
        block(seg.raw, false);
      }
    }
    this.tools(t);
    this.cards(t);
    for (const e of t.errors) {
      const code = e.code !== undefined ? ` [${clean(e.code)}]` : "";
      const facts: string[] = [];
      if (e.retryable !== undefined) facts.push(`retryable: ${e.retryable}`);
      if (e.retryAfterMs !== undefined) {
        facts.push(`retry after ${formatMs(e.retryAfterMs)} (${e.retryAfterMs} ms)`);
      }
      for (const [k, v] of Object.entries(e)) {
        if (!["message", "code", "retryable", "retryAfterMs"].includes(k)) {
          facts.push(`${clean(k)}: ${this.json(v)}`);
        }
      }
      out.push(
        p.red(`  error${code}: ${clean(e.message)}${facts.length ? ` (${facts.join(", ")})` : ""}`),
      );
    }
    const domain = this.bounded(t.domainEvents, RENDER_LIMITS.items);
    if (domain.shown.length > 0) {
      out.push(
        `  domain events: ${
          domain.shown.map((d) => `${clean(d.type)} (line ${d.line})`).join(", ")
        }`,
      );
      this.more(domain.more, "domain event(s)", "    ");
    }
    const navs = this.bounded(t.navigations ?? [], RENDER_LIMITS.items);
    for (const n of navs.shown) out.push(`  navigate    ${this.json(n.href)} (line ${n.line})`);
    this.more(navs.more, "navigation(s)", "    ");
    const all = t.parts ?? [];
    const steps = all.filter((x) => isRecord(x) && x.type === "step-start").length;
    if (steps > 0) line("steps", String(steps));
    const parts = this.bounded(
      all.filter((x) => !(isRecord(x) && x.type === "step-start")),
      RENDER_LIMITS.items,
    );
    if (parts.shown.length > 0) {
      out.push("  other parts:");
      for (const part of parts.shown) out.push(`    ${this.json(part)}`);
      this.more(parts.more, "part(s)", "    ");
    }
    for (const [k, v] of Object.entries(t.extra ?? {})) line(clean(k), this.json(v));
    out.push("");
  }

  tools(t: InspectTurn): void {
    const { out, p } = this;
    if (t.tools.length === 0) return;
    out.push("  tools:");
    const tools = this.bounded(t.tools, RENDER_LIMITS.items);
    for (const tool of tools.shown) {
      const status = tool.status === "ok" || tool.status === "output-available"
        ? p.green(tool.status)
        : tool.status === "error" || tool.status === "output-error"
        ? p.red(tool.status)
        : clean(tool.status);
      out.push(
        `    ${clean(tool.name)} ${p.dim(`(${clean(tool.callId ?? "no callId")})`)} ${status}`,
      );
      const field = (label: string, value: string) => out.push(`      ${label.padEnd(8)} ${value}`);
      if (tool.input !== undefined) field("input", this.json(tool.input));
      if (tool.output !== undefined) field("output", this.json(tool.output));
      if (tool.summary !== undefined) field("summary", clean(tool.summary));
      if (tool.errorText !== undefined) field("error", clean(tool.errorText));
      if (tool.progress !== undefined || tool.progressMessage !== undefined) {
        const pct = tool.progress !== undefined ? `${Math.round(tool.progress * 100)}%` : "";
        const msg = tool.progressMessage !== undefined ? clean(tool.progressMessage) : "";
        field("progress", [pct, msg].filter((s) => s !== "").join(" "));
      }
      if (tool.blocks !== undefined) field("blocks", this.json(tool.blocks));
      if (tool.startedSeq !== undefined) {
        field(
          "seq",
          `${tool.startedSeq}${tool.finishedSeq !== undefined ? ` → ${tool.finishedSeq}` : " →"}`,
        );
      }
      for (const [k, v] of Object.entries(tool.extra ?? {})) field(clean(k), this.json(v));
    }
    this.more(tools.more, "tool call(s)", "    ");
  }

  cards(t: InspectTurn): void {
    const { out } = this;
    if (t.cards.length === 0) return;
    out.push("  cards:");
    const cards = this.bounded(t.cards, RENDER_LIMITS.items);
    for (const card of cards.shown) {
      const res = card.resolution !== undefined ? ` (${clean(card.resolution)})` : "";
      const prompt = card.prompt !== undefined ? ` "${clean(card.prompt)}"` : "";
      out.push(`    ${clean(card.correlationId)} ${card.status}${res}${prompt}`);
      if (card.card !== undefined) out.push(`      card    ${this.json(card.card)}`);
    }
    this.more(cards.more, "card(s)", "    ");
  }

  summary(): void {
    const { report, out, p } = this;
    const s = report.summary;
    const verdict = report.exitCode === 0 ? p.green("clean") : report.exitCode === 1
      ? p.red(
        report.strict && s.errors === 0
          ? "contract violations (--strict: warnings count)"
          : "contract violations",
      )
      : p.red("unreadable input");
    out.push(
      `${
        p.bold("Summary")
      }: ${s.frames} frame(s), ${s.events} event(s), ${s.heartbeats} heartbeat(s), ` +
        `${s.comments} comment(s), ${s.domainEvents} domain event(s), ${s.turns} turn(s) · ` +
        `${s.errors} error(s), ${s.warnings} warning(s) · ` +
        `status ${clean(s.status)} · ${verdict} (exit ${report.exitCode})`,
    );
  }
}

/** Envelope fields a timeline row already shows (as its turn, `#seq` and time) or that never vary. */
const ENVELOPE_SHOWN = new Set(["schemaVersion", "conversationId", "turnId", "seq", "at", "event"]);

function iso(ms: number): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? String(ms) : d.toISOString();
}
