/**
 * `inspect agents <sessions.json> <history.json>`: read a saved
 * `GET /api/sessions` + `GET /api/history` pair from an agent-chat broker and
 * print the roster and the spawn tree (or, with `--json`, the roster snapshot,
 * the graph and the parse report as JSON).
 *
 * I/O goes through the `io` argument only, so the command is testable without
 * a filesystem. Exit codes: 0 clean; 1 output printed but some rows were
 * malformed and skipped; 2 bad usage, unreadable file, invalid JSON or a body
 * that is not a sessions/history payload.
 *
 * @module
 */
import { maskUnsafe } from "./escape.ts";
import { stringifyJson } from "./json_text.ts";
import { usageErrorReport } from "./report.ts";
import { type AgentGraph, type AgentRosterSnapshot } from "../agents/types.ts";
import { foldAgentGraph } from "../agents/graph.ts";
import { foldRoster, type SeatPrefix } from "../agents/roster.ts";
import { layoutSpawnTree } from "../agents/layout.ts";
import { parseBrokerHistory, parseBrokerSessions, type RowIssue } from "../agents/parse.ts";

/**
 * What the command needs from the outside world. `readText`/`write` is the
 * documented shape; `readTextFile`/`stdout`/`stderr` (the shape `main.ts`
 * passes) is accepted too. Errors go to `stderr` when given, else `write`.
 */
export interface AgentsCommandIO {
  /** Read a whole UTF-8 file. */
  readText?(path: string): Promise<string>;
  /** Alias of `readText`. */
  readTextFile?(path: string): Promise<string>;
  /**
   * A reader that refuses instead of rejecting (what `runCli` passes):
   * `{ ok: false, message }` is reported as the file being unreadable.
   * Preferred over `readText` / `readTextFile` when given.
   */
  readTextOutcome?(path: string): Promise<TextReadOutcome>;
  /** Write to standard output. */
  write?(s: string): void;
  /** Alias of `write`. */
  stdout?(s: string): void;
  /** Write an error message (defaults to `write`). */
  stderr?(s: string): void;
  /** Clock, epoch ms (defaults to `Date.now`); `--now` overrides it. */
  now?(): number;
}

/** What {@link AgentsCommandIO.readTextOutcome} answers: the text, or why there is none. */
export type TextReadOutcome = { ok: true; text: string } | { ok: false; message: string };

/**
 * Largest input the command parses, in UTF-16 code units (~32 MiB of ASCII);
 * a longer text is refused with exit code 2. The check runs on the text the
 * reader returns, so the reader itself still reads the whole file. A full
 * `/api/history?limit=1000` body is well under 1 MiB.
 */
export const AGENTS_MAX_INPUT_CHARS = 32 * 1024 * 1024;

/** Usage text of the command. */
export const AGENTS_HELP = `inspect agents: roster and spawn tree from a saved broker snapshot

Usage:
  inspect agents <sessions.json> <history.json> [options]

  <sessions.json>  body of GET /api/sessions  ({sessions, brokerUptimeMs})
  <history.json>   body of GET /api/history   ({items}, oldest first)

Options:
  --json               print {roster, graph, parse} as JSON
  --limit=N            the ?limit= the history was fetched with (default 1000)
  --now=EPOCH_MS       the capture time (default: the current time); used for
                       live rows' lastEventAt (now - idleMs)
  --seat=SEAT=PREFIX   seat for agents named PREFIX-... (repeatable)

Exit codes: 0 clean, 1 printed but malformed rows were skipped,
2 bad usage or unreadable input.
`;

interface Options {
  files: string[];
  json: boolean;
  limit: number;
  /** `--limit` was passed. */
  limitGiven: boolean;
  now: number | null;
  seats: SeatPrefix[];
}

function parseArgs(args: readonly string[]): Options | string {
  const opts: Options = {
    files: [],
    json: false,
    limit: 1000,
    limitGiven: false,
    now: null,
    seats: [],
  };
  let optionsEnded = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (optionsEnded) {
      opts.files.push(a);
      continue;
    }
    if (a === "--") {
      optionsEnded = true; // `--` ends the options: what follows are files
      continue;
    }
    const [flag, inline] = a.startsWith("--") && a.includes("=")
      ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)]
      : [a, undefined];
    const value = (): string | undefined => inline ?? args[++i];
    if (flag === "--json") opts.json = true;
    else if (flag === "--limit") {
      const n = Number(value());
      if (!Number.isInteger(n) || n <= 0) return "--limit needs a positive integer";
      opts.limit = n;
      opts.limitGiven = true;
    } else if (flag === "--now") {
      const n = Number(value());
      if (!Number.isFinite(n)) return "--now needs epoch milliseconds";
      opts.now = n;
    } else if (flag === "--seat") {
      const v = value() ?? "";
      const eq = v.indexOf("=");
      if (eq <= 0 || eq === v.length - 1) return "--seat needs SEAT=PREFIX";
      opts.seats.push({ seat: v.slice(0, eq), prefix: v.slice(eq + 1) });
    } else if (a.startsWith("-") && a !== "-") return `unknown option ${a}`;
    else opts.files.push(a);
  }
  if (opts.files.length !== 2) return "expected <sessions.json> <history.json>";
  return opts;
}

/** Terminal-safe text: control characters become `?`. */
/** Untrusted text for one output line: control, bidi and invisible characters masked as `?`. */
function safe(s: string): string {
  return maskUnsafe(s);
}

function iso(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return "-";
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? String(ms) : d.toISOString();
}

function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (h >= 48) return `${Math.floor(h / 24)}d ${h % 24}h`;
  return h > 0 ? `${h}h ${m}m ${sec}s` : m > 0 ? `${m}m ${sec}s` : `${(ms / 1000).toFixed(1)} s`;
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => "  " + r.map((cell, c) => cell.padEnd(widths[c])).join("  ").trimEnd())
    .join("\n");
}

/** How long before `now` a time was: `4.0 s ago`, `1h 2m 3s ago`, `in 2.0 s` (clock skew), `-`. */
function ago(at: number | null, now: number): string {
  if (at === null || !Number.isFinite(at) || !Number.isFinite(now)) return "-";
  return at <= now ? `${duration(now - at)} ago` : `in ${duration(at - now)}`;
}

function renderRoster(snap: AgentRosterSnapshot): string {
  const head = [
    "NAME",
    "STATE",
    "SOURCE",
    "ORIGIN",
    "SPAWNED BY",
    "SEAT",
    "TASK",
    "LAST EVENT",
    "COST USD",
    "ID",
  ];
  const rows = snap.agents.map((a) => [
    safe(a.name) + (a.supersededBy !== null ? " (earlier)" : ""),
    a.state,
    a.stateSource,
    a.origin + (a.spawnRow === "likely-aged-out" ? "*" : ""),
    safe(a.spawnedBy ?? "-"),
    safe(a.seat ?? "-"),
    safe(a.taskId ?? "-"),
    ago(a.lastEventAt, snap.generatedAt),
    a.costUsd === null ? "-" : `${a.costUsd.toFixed(2)} (${a.costSource})`,
    safe(a.id),
  ]);
  if (rows.length === 0) return "  (no agents)";
  return table([head, ...rows]);
}

function renderTree(
  history: Parameters<typeof layoutSpawnTree>[0],
  graph: AgentGraph,
  roster: AgentRosterSnapshot,
): string {
  const layout = layoutSpawnTree(history);
  if (layout.nodes.length === 0) return "  (empty: no names in the history window)";
  const nodeInfo = new Map(graph.nodes.map((n) => [n.name, n]));
  const stateOf = new Map(roster.agents.map((a) => [a.id, a.state]));
  const kids = new Map<string | null, string[]>();
  for (const n of layout.nodes) {
    const key = n.parent !== null && layout.byName.has(n.parent) ? n.parent : null;
    const list = kids.get(key) ?? [];
    list.push(n.name);
    kids.set(key, list);
  }
  for (const list of kids.values()) {
    list.sort((a, b) => layout.byName.get(a)!.row - layout.byName.get(b)!.row);
  }
  const spawnCount = new Map<string, number>();
  for (const e of graph.edges) if (e.kind === "spawned") spawnCount.set(e.to, e.count);
  const lines: string[] = [];
  const label = (name: string) => {
    const info = nodeInfo.get(name);
    const bits: string[] = [];
    // The state of the row the node joins (live session, else newest incarnation).
    const state = info?.rosterId != null ? stateOf.get(info.rosterId) : undefined;
    if (state !== undefined) bits.push(state);
    if (info?.spawnRow === "likely-aged-out") bits.push("spawn row aged out");
    if (info?.activity) bits.push(`${info.activity.category} @ ${iso(info.activity.at)}`);
    return safe(name) + (bits.length ? `  [${bits.join("; ")}]` : "");
  };
  // Iterative pre-order: [name, prefix, isLast, isRoot].
  const stack: [string, string, boolean, boolean][] = [];
  const roots = kids.get(null) ?? [];
  for (let i = roots.length - 1; i >= 0; i--) stack.push([roots[i], "", true, true]);
  while (stack.length > 0) {
    const [name, prefix, last, root] = stack.pop()!;
    lines.push(root ? `  ${label(name)}` : `  ${prefix}${last ? "└─ " : "├─ "}${label(name)}`);
    const children = kids.get(name) ?? [];
    const childPrefix = root ? "" : prefix + (last ? "   " : "│  ");
    for (let i = children.length - 1; i >= 0; i--) {
      stack.push([children[i], childPrefix, i === children.length - 1, false]);
    }
  }
  return lines.join("\n");
}

function renderEdges(graph: AgentGraph): string {
  const nameOf = new Map(graph.nodes.map((n) => [n.id, n.name]));
  const rows = graph.edges.map((e) => [
    e.kind,
    `${safe(nameOf.get(e.from) ?? e.from)} → ${safe(nameOf.get(e.to) ?? e.to)}`,
    `×${e.count}`,
    `last ${iso(e.lastAt)}`,
  ]);
  return rows.length === 0 ? "  (none)" : table(rows);
}

function renderIssues(what: string, malformed: number, issues: readonly RowIssue[]): string[] {
  if (malformed === 0) return [];
  const out = [`  ${malformed} malformed ${what} row(s) skipped:`];
  for (const i of issues) out.push(`    #${i.index}: ${safe(i.message)}`);
  if (issues.length < malformed) out.push(`    … ${malformed - issues.length} more`);
  return out;
}

/** `read(path)` (the host's reader, which may reject) as a {@link TextReadOutcome}. */
async function readWith(
  read: (path: string) => Promise<string>,
  io: AgentsCommandIO,
  path: string,
): Promise<TextReadOutcome> {
  try {
    return { ok: true, text: await read.call(io, path) };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * Run `inspect agents`. `args` are the words after `agents`. Returns the exit
 * code (0 clean, 1 malformed rows skipped, 2 usage / unreadable input).
 *
 * @example
 * ```ts
 * const code = await runAgentsCommand(
 *   ["fixtures/agents/sample1_sessions.json", "fixtures/agents/sample1_history.json", "--now=1767225500000"],
 *   { readText: (p) => Deno.readTextFile(p), write: (s) => console.log(s) },
 * );
 * ```
 */
export async function runAgentsCommand(args: string[], io: AgentsCommandIO): Promise<number> {
  const out = (s: string) => (io.write ?? io.stdout)?.(s);
  const fail = (s: string) => (io.stderr ?? io.write ?? io.stdout)?.(s);
  const readOutcome = io.readTextOutcome;
  const read = io.readText ?? io.readTextFile;
  if (args.includes("--help") || args.includes("-h")) {
    out(AGENTS_HELP);
    return 0;
  }
  const opts = parseArgs(args);
  if (typeof opts === "string") {
    const end = args.indexOf("--");
    if ((end === -1 ? args : args.slice(0, end)).includes("--json")) {
      out(stringifyJson(usageErrorReport(opts)) + "\n");
      fail(`inspect agents: ${opts}\n`);
    } else fail(`inspect agents: ${opts}\n\n${AGENTS_HELP}`);
    return 2;
  }
  if (readOutcome === undefined && read === undefined) {
    fail("inspect agents: no file reader given\n");
    return 2;
  }
  const bodies: unknown[] = [];
  for (const path of opts.files) {
    const r = readOutcome !== undefined
      ? await readOutcome.call(io, path)
      : await readWith(read!, io, path);
    if (!r.ok) {
      fail(`inspect agents: cannot read ${safe(path)}: ${safe(r.message)}\n`);
      return 2;
    }
    const text: unknown = r.text;
    if (typeof text !== "string") {
      fail(`inspect agents: cannot read ${safe(path)}: the reader returned no text\n`);
      return 2;
    }
    if (text.length > AGENTS_MAX_INPUT_CHARS) {
      fail(`inspect agents: ${safe(path)} is over ${AGENTS_MAX_INPUT_CHARS} characters\n`);
      return 2;
    }
    try {
      bodies.push(JSON.parse(text));
    } catch (e) {
      fail(
        `inspect agents: ${safe(path)} is not JSON: ${
          safe(e instanceof Error ? e.message : String(e))
        }\n`,
      );
      return 2;
    }
  }
  const sessions = parseBrokerSessions(bodies[0]);
  const history = parseBrokerHistory(bodies[1]);
  if (!sessions.ok || !history.ok) {
    const why = !sessions.ok ? sessions.error : (history as { error: { message: string } }).error;
    const path = !sessions.ok ? opts.files[0] : opts.files[1];
    fail(`inspect agents: ${safe(path)}: ${why.message}\n`);
    return 2;
  }
  const now = opts.now ?? io.now?.() ?? Date.now();
  const rawItems = Array.isArray(bodies[1]) ? bodies[1] : (bodies[1] as { items: unknown[] }).items;
  const roster = foldRoster({
    sessions: sessions.value.sessions,
    brokerUptimeMs: sessions.value.brokerUptimeMs,
    events: history.value.events,
    historyLimit: opts.limit,
    historyRows: rawItems.length,
    now,
    seatPrefixes: opts.seats,
  });
  // The parser already dropped (and reported) malformed rows; count them here.
  roster.diagnostics.malformedEvents += history.value.malformed;
  roster.diagnostics.malformedSessions += sessions.value.malformed;
  const graph = foldAgentGraph({
    events: history.value.events,
    historyLimit: opts.limit,
    historyRows: rawItems.length,
    now,
    roster: roster.agents,
  });
  graph.diagnostics.malformedEvents += history.value.malformed;
  const malformed = sessions.value.malformed + history.value.malformed;

  if (opts.json) {
    out(
      JSON.stringify(
        {
          roster,
          graph,
          parse: {
            sessions: { malformed: sessions.value.malformed, issues: sessions.value.issues },
            history: { malformed: history.value.malformed, issues: history.value.issues },
          },
        },
        null,
        2,
      ) + "\n",
    );
    return malformed > 0 ? 1 : 0;
  }

  const h = roster.history;
  const lines: string[] = [];
  lines.push(
    `Broker uptime ${
      roster.brokerUptimeMs === null ? "unknown" : duration(roster.brokerUptimeMs)
    }` +
      ` · history ${h.events} row(s) (limit ${h.limit}, oldest ${iso(h.oldestAt)})` +
      ` · as of ${iso(now)}`,
  );
  lines.push("", `Roster (${roster.agents.length}):`, renderRoster(roster));
  lines.push("", "Spawn tree:", renderTree(history.value.events, graph, roster));
  lines.push("", `Edges (${graph.edges.length}):`, renderEdges(graph));
  const notes: string[] = [];
  if (roster.reconnecting) {
    notes.push(
      "  broker restarted moments ago: sessions may still be reconnecting (registry refills within ~10 s)",
    );
  }
  if (roster.diagnostics.historyFull) {
    notes.push(
      `  history window is full (${h.events} row(s), the broker returns at most ${
        Math.min(h.limit, 1000)
      }): older rows have aged out`,
    );
  } else if (!opts.limitGiven && h.events === 200) {
    notes.push(
      "  exactly 200 rows, the broker's default ?limit: if the history was fetched without ?limit, pass --limit=200 so a full window (and aged-out spawn rows) is detected",
    );
  }
  if (roster.diagnostics.spawnRowsLikelyAgedOut.length > 0) {
    notes.push(
      `  spawn row likely aged out (origin unknown, marked *): ${
        roster.diagnostics.spawnRowsLikelyAgedOut.map(safe).join(", ")
      }; those not live are keyed by name (id name:<name>, state and cost from their remaining lifecycle rows)`,
    );
  }
  const absent = roster.agents.filter((a) => a.idSource === "name" && a.spawnRow === "absent");
  if (absent.length > 0) {
    notes.push(
      `  no spawn row in the window (never logged, or the window is not full): ${
        absent.map((a) => safe(a.name)).join(", ")
      }; keyed by name (id name:<name>, state and cost from their lifecycle rows, origin unknown)`,
    );
  }
  if (roster.diagnostics.outOfOrderRows > 0) {
    notes.push(
      `  ${roster.diagnostics.outOfOrderRows} row(s) older than the row before them: the history is not oldest first, so states, respawns and the tree may be wrong`,
    );
  }
  if (roster.diagnostics.unknownKinds > 0) {
    notes.push(
      `  ${roster.diagnostics.unknownKinds} row(s) of unknown kinds: no state change, read for names and activity only`,
    );
  }
  notes.push(...renderIssues("session", sessions.value.malformed, sessions.value.issues));
  notes.push(...renderIssues("history", history.value.malformed, history.value.issues));
  if (notes.length > 0) lines.push("", "Notes:", ...notes);
  out(lines.join("\n") + "\n");
  return malformed > 0 ? 1 : 0;
}
