/**
 * Deterministic broker-history generator (seeded PRNG) for golden fixtures and
 * the bench: a coordinator tree with spawns, attaches, talk (incl. multicast
 * rows sharing a msgId), human questions, exits with costs, failures,
 * retirements (with late detaches), respawns, spawn cycles, broadcasts,
 * route failures and unknown kinds. The log is generated longer than the
 * window and cut to the newest `rows` rows, exactly as `/api/history?limit=`
 * returns it, so early spawn rows age out.
 *
 * @module
 */
import type { BrokerEvent, BrokerSession } from "../../agents.ts";

/** mulberry32: small, fast, deterministic. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Options of {@link generateHistory}. */
export interface GenerateOptions {
  /** PRNG seed. */
  seed: number;
  /** Rows in the returned window (the broker's limit, ≤ 1000 in real life). */
  rows: number;
  /** Rows generated before the window starts (they age out). */
  agedOut?: number;
  /** Worker name pool size. */
  names?: number;
}

/** A generated `/api/sessions` + `/api/history` pair. */
export interface Generated {
  events: BrokerEvent[];
  sessions: BrokerSession[];
  brokerUptimeMs: number;
  now: number;
}

/** Generate a history window and matching live sessions. */
export function generateHistory(opts: GenerateOptions): Generated {
  const rand = rng(opts.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const pool = Array.from({ length: opts.names ?? 40 }, (_, i) => `w${i}`);
  const total = opts.rows + (opts.agedOut ?? 0);
  const out: BrokerEvent[] = [];
  let at = 1_767_225_000_000;
  let seq = 0;
  const id = () => (++seq).toString(16).padStart(8, "0");
  type St = "none" | "spawning" | "live" | "exited" | "retired";
  const state = new Map<string, St>();
  const push = (
    kind: string,
    from: string,
    meta: Record<string, string>,
    text = "",
    msgId = id(),
  ) => {
    at += 1 + Math.floor(rand() * 5000);
    out.push({ msgId, kind, from, text, at, meta });
  };
  const alive =
    () => ["coord", ...pool.filter((n) => state.get(n) === "live" || state.get(n) === "spawning")];

  push("agent_spawned", "human", { target: "coord", origin: "adopted", session_id: "sess-coord" });
  state.set("coord", "live");
  push("agent_attached", "coord", {});
  while (out.length < total) {
    const r = rand();
    const live = alive();
    if (r < 0.14) {
      const idle = pool.filter((n) => state.get(n) !== "live" && state.get(n) !== "spawning");
      if (idle.length === 0) continue;
      const child = pick(idle);
      const spawner = pick(live);
      push("agent_spawned", spawner, {
        target: child,
        name: child,
        profile: pick(["implementer", "reviewer"]),
        surface: pick(["headless", "iterm-pane"]),
        session_id: rand() < 0.7 ? `sess-${child}-${seq}` : "",
        cwd: `/work/${child}`,
      }, `TP-${100 + Math.floor(rand() * 900)}: task for ${child}\ndetails`);
      state.set(child, "spawning");
    } else if (r < 0.22) {
      const spawning = pool.filter((n) => state.get(n) === "spawning");
      if (spawning.length === 0) continue;
      const n = pick(spawning);
      push("agent_attached", n, {});
      state.set(n, "live");
    } else if (r < 0.5) {
      const from = pick(live);
      const to = pick(live);
      if (rand() < 0.2) {
        // multicast: one msgId, one row per recipient (a duplicate row included)
        const msgId = id();
        const targets = [pick(live), pick(live), pick(live)];
        for (const t of targets) push("message", from, { target: t }, "fan-out", msgId);
      } else push(pick(["message", "question", "answer", "notice"]), from, { target: to }, "talk");
    } else if (r < 0.58) {
      push(pick(["question", "approval_request"]), pick(live), { target: "human" }, "please");
    } else if (r < 0.64) {
      push("answer", "human", { target: pick(live) }, "ok");
    } else if (r < 0.72) {
      const n = pick(pool.filter((x) => state.get(x) === "live").concat(["w0"]));
      const failed = rand() < 0.15;
      const meta: Record<string, string> = failed
        ? { failed: "true" }
        : { code: "0", cost_usd: (rand() * 5).toFixed(2) };
      push("agent_exited", n, meta, "done");
      state.set(n, "exited");
    } else if (r < 0.76) {
      const n = pick(pool);
      push("agent_retired", "human", { target: n });
      state.set(n, "retired");
      if (rand() < 0.5) push("agent_detached", n, {}); // late detach must not revive it
    } else if (r < 0.8) {
      push("agent_detached", pick(live), {});
    } else if (r < 0.83) {
      // spawn cycle: a worker "spawns" one of its ancestors' names
      push("agent_spawned", pick(live), { target: "coord" }, "cycle");
    } else if (r < 0.88) {
      push("broadcast", pick(live), {}, "all hands");
    } else if (r < 0.92) {
      push("route_failed", pick(live), { target: pick(["*", "a, b", "nobody?"]) }, "lost");
    } else if (r < 0.95) {
      push("agent_handoff", pick(live), { target: pick(live) });
    } else if (r < 0.97) {
      push("kind_from_the_future", pick(live), { target: pick(live) });
    } else {
      push(
        "message",
        pick(live),
        { target: "human", audience: `${pick(live)},${pick(live)}` },
        "cc",
      );
    }
  }
  const events = out.slice(out.length - opts.rows);
  const now = at + 30_000;
  const sessions: BrokerSession[] = [];
  for (const n of ["coord", ...pool]) {
    if (state.get(n) !== "live") continue;
    sessions.push({
      name: n,
      workingOn: n === "coord" ? "Coordinating TP-840" : `working on ${n}`,
      cwd: `/work/${n}`,
      status: pick(["working", "available", "blocked"] as const),
      idleMs: Math.floor(rand() * 60_000),
      registeredAt: at - Math.floor(rand() * 4_000_000),
      ...(n === "coord" ? { observed: { claudeSessionId: "sess-coord", gitBranch: "main" } } : {}),
    });
  }
  sessions.push({
    name: "manual",
    workingOn: "",
    cwd: "/tmp",
    status: "available",
    idleMs: 1,
    registeredAt: at - 10,
  });
  return { events, sessions, brokerUptimeMs: 9_000_000, now };
}
