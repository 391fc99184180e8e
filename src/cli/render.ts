/**
 * Human-readable rendering of an {@link InspectReport}. Pure: text in, text out.
 * Untrusted strings from the capture are printed with control characters
 * escaped, so a capture cannot drive the terminal.
 *
 * @module
 */
import type { InspectReport, InspectTurn } from "./report.ts";

/** Rendering options. */
export interface RenderOptions {
  /** Use ANSI colours (main.ts: only on a terminal and without NO_COLOR). */
  color?: boolean;
  /** Longest JSON shown for tool input/output, in characters (default 200). */
  maxJson?: number;
}

/**
 * Escape C0/C1 control characters, newlines included, so an untrusted string
 * stays on its one output line and cannot forge a problem or a summary line.
 * Multi-line text goes through {@link indentText}, which splits it first.
 */
function clean(s: string, keepTab = false): string {
  // deno-lint-ignore no-control-regex
  return s.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => {
    if (keepTab && c === "\t") return c;
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}

function json(v: unknown, max: number): string {
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  s = clean(s);
  return s.length > max ? `${s.slice(0, max)}… (${s.length} chars)` : s;
}

function indentText(text: string, prefix: string): string[] {
  return text.replace(/\r\n?/g, "\n").split("\n").map((l) => `${prefix}${clean(l, true)}`);
}

/** Render `report` as text for a person. Ends with a newline. */
export function renderReport(report: InspectReport, options: RenderOptions = {}): string {
  const c = options.color === true;
  const max = options.maxJson ?? 200;
  const paint = (code: string, s: string) => (c ? `\x1b[${code}m${s}\x1b[0m` : s);
  const bold = (s: string) => paint("1", s);
  const red = (s: string) => paint("31", s);
  const yellow = (s: string) => paint("33", s);
  const green = (s: string) => paint("32", s);
  const dim = (s: string) => paint("2", s);
  const out: string[] = [];

  out.push(bold(`inspect ${clean(report.source)}`));
  out.push(
    `  format ${report.format} · dialect ${report.dialect} ${dim(`(${report.dialectReason})`)}`,
  );
  out.push("");

  const errors = report.summary.errors;
  const warnings = report.summary.warnings;
  if (report.problems.length === 0) {
    out.push(green("No problems: every frame satisfies its contract."));
  } else {
    out.push(bold(`Problems (${errors} error(s), ${warnings} warning(s))`));
    for (const p of report.problems) {
      const where = p.line === null ? "capture " : `line ${String(p.line).padEnd(4)}`;
      const sev = p.severity === "error" ? red("error  ") : yellow("warning");
      out.push(`  ${where} ${sev} ${p.code}: ${clean(p.message)}`);
    }
  }
  out.push("");

  if (report.turn !== null) renderTurn(report.turn, out, { bold, dim, max, red, green });
  else if (report.exitCode !== 2) out.push(dim("No turn could be folded."), "");

  const s = report.summary;
  const verdict = report.exitCode === 0
    ? green("clean")
    : report.exitCode === 1
    ? red("contract violations")
    : red("unreadable input");
  out.push(
    `${
      bold("Summary")
    }: ${s.frames} frame(s), ${s.events} event(s), ${s.heartbeats} heartbeat(s), ` +
      `${s.comments} comment(s), ${s.domainEvents} domain event(s) · ` +
      `${s.errors} error(s), ${s.warnings} warning(s) · ` +
      `status ${s.status} · ${verdict} (exit ${report.exitCode})`,
  );
  return out.join("\n") + "\n";
}

function renderTurn(
  turn: InspectTurn,
  out: string[],
  f: {
    bold: (s: string) => string;
    dim: (s: string) => string;
    red: (s: string) => string;
    green: (s: string) => string;
    max: number;
  },
): void {
  out.push(f.bold(`Turn: ${turn.status}`));
  if (turn.sessionId !== undefined) out.push(`  session     ${clean(turn.sessionId)}`);
  if (turn.provenance !== undefined) out.push(`  provenance  ${json(turn.provenance, f.max)}`);
  if (turn.stopReason !== undefined) out.push(`  stop        ${clean(turn.stopReason)}`);
  if (turn.usage !== undefined) out.push(`  usage       ${json(turn.usage, f.max)}`);
  if (turn.reasoning !== undefined) {
    out.push("  reasoning:");
    out.push(...indentText(turn.reasoning, "    │ ").map(f.dim));
  }
  if (turn.segments.length === 0) out.push(f.dim("  (no text)"));
  for (const seg of turn.segments) {
    if (seg.kind === "text") {
      out.push("  text:");
      out.push(...indentText(seg.text, "    │ "));
    } else if (seg.kind === "report") {
      const b = seg.block;
      out.push(`  report${b.title !== undefined ? `: ${clean(b.title)}` : ""}`);
      for (const plan of b.plans) {
        out.push(`    ▸ ${clean(plan.title)}${plan.status ? ` [${clean(plan.status)}]` : ""}`);
        if (plan.summary) out.push(`      ${clean(plan.summary)}`);
        for (const item of plan.items ?? []) {
          out.push(`      - ${item.status ? `[${clean(item.status)}] ` : ""}${clean(item.text)}`);
        }
      }
      if (b.goalReport !== undefined) out.push(`    goal report ${json(b.goalReport, f.max)}`);
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
    } else {
      out.push(f.red(`  invalid <${seg.tag}> block (${seg.reason}):`));
      out.push(...indentText(seg.raw, "    │ "));
    }
  }
  if (turn.tools.length > 0) {
    out.push("  tools:");
    for (const t of turn.tools) {
      const status = t.status === "ok" || t.status === "output-available"
        ? f.green(t.status)
        : t.status === "error" || t.status === "output-error"
        ? f.red(t.status)
        : clean(t.status);
      out.push(`    ${clean(t.name)} ${f.dim(`(${clean(t.callId ?? "no callId")})`)} ${status}`);
      if (t.input !== undefined) out.push(`      input   ${json(t.input, f.max)}`);
      if (t.output !== undefined) out.push(`      output  ${json(t.output, f.max)}`);
      if (t.summary !== undefined) out.push(`      summary ${clean(t.summary)}`);
      if (t.errorText !== undefined) out.push(`      error   ${clean(t.errorText)}`);
    }
  }
  if (turn.cards.length > 0) {
    out.push("  cards:");
    for (const card of turn.cards) {
      const res = card.resolution !== undefined ? ` (${clean(card.resolution)})` : "";
      const prompt = card.prompt !== undefined ? ` "${clean(card.prompt)}"` : "";
      out.push(`    ${clean(card.correlationId)} ${card.status}${res}${prompt}`);
    }
  }
  for (const e of turn.errors) {
    const retry = e.retryable === undefined ? "" : ` (retryable: ${e.retryable})`;
    out.push(f.red(`  error: ${clean(e.message)}${retry}`));
  }
  if (turn.domainEvents.length > 0) {
    out.push(
      `  domain events: ${
        turn.domainEvents.map((d) => `${clean(d.type)} (line ${d.line})`).join(", ")
      }`,
    );
  }
  out.push("");
}
