// This module guards a directory on the local file system, so it needs
// node: built-ins; it is reachable only from the `./pglite-dir` entry point
// (Deno, Node, Bun), never from the edge-safe main entry.
// deno-lint-ignore-file edge-safe/no-node-builtins
/**
 * A lock file with a PID check that keeps a second process (or a second
 * open in the same process) from opening a directory that is already open.
 * Used by `openPGliteDir`: two PGlite instances on one data directory get no
 * error and silently corrupt it.
 *
 * The lock is `<dir>/papercusp.lock`, created exclusively and atomically
 * with its content (written aside, then hard-linked into place) holding
 * `{ pid, hostname, token, createdAt }`. A lock whose process is gone (same
 * host, `kill(pid, 0)` answers ESRCH, e.g. after `kill -9`, or it is a
 * zombie: killed but not yet reaped by its parent; or it names this
 * process's own pid with a token this process does not hold: a restarted
 * container's pid 1) is stale and is taken over. Only one process may
 * delete a given stale lock: the one that created its takeover marker
 * `<dir>/papercusp.lock.takeover.<hash of the stale content>` exclusively,
 * after re-reading the lock under the marker and finding the same content
 * (every lock holds a unique token, so deleted content never returns);
 * it deletes the marker after. A marker left by a process that died in that
 * window is removed the same way.
 *
 * Limits: a zombie is recognized by reading `/proc/<pid>/stat` (Linux); Deno
 * allows that only with `--allow-all`, so without it a zombie holder counts as
 * alive and the directory is refused (`locked`, the safe direction) until its
 * parent reaps it. A lock written on another host (shared network directory) is never
 * taken over (its PID means nothing here); a PID reused by an unrelated
 * process (other than this one) keeps a stale lock "alive" (refused, the
 * safe direction).
 *
 * @module
 */
import { link, mkdir, readFile, stat, unlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import process from "node:process";
import type { Refusal, Result } from "@papercusp/chat-protocol";

/** File name of the lock inside the guarded directory. */
export const LOCK_FILE_NAME = "papercusp.lock";

/** Codes of {@link DirLockRefusal}. */
export type DirLockRefusalCode =
  /** A live process on this host holds the directory (see `holder`). */
  | "locked"
  /** The lock was written on another host; its process cannot be checked from here. */
  | "locked-elsewhere"
  /** Whether the holder still runs cannot be checked (in Deno: grant `--allow-run`, or `--allow-read=/proc`). */
  | "unverifiable"
  /** The directory or the lock file could not be created or read. */
  | "io-error";

/** Who holds a lock, as recorded in its file. */
export interface DirLockHolder {
  /** Process id. */
  readonly pid: number;
  /** Host name of the process. */
  readonly hostname: string;
  /** When it took the lock (ISO 8601). */
  readonly createdAt: string;
}

/** Why the directory could not be locked. */
export interface DirLockRefusal extends Refusal<DirLockRefusalCode> {
  /** The lock file. */
  readonly lockFile: string;
  /** The recorded holder (`locked`, `locked-elsewhere`, `unverifiable`). */
  readonly holder?: DirLockHolder;
}

/** A held directory lock. */
export interface DirLock {
  /** The lock file. */
  readonly lockFile: string;
  /** Delete the lock file if it is still ours (idempotent). */
  release(): Promise<void>;
}

interface LockContent extends DirLockHolder {
  readonly token: string;
}

/** A lock file this young that cannot be parsed is being written right now. */
const WRITING_GRACE_MS = 10_000;

/** Prefix of the takeover markers (see `removeStale`). */
const TAKEOVER_PREFIX = `${LOCK_FILE_NAME}.takeover.`;

/** How many levels of takeover markers left by dead processes are cleared. */
const MAX_MARKER_DEPTH = 3;

/**
 * Tokens of the locks and takeover markers this process holds or is
 * creating. A file naming our own pid with a token not in here was written
 * by an earlier process that had the same pid (a restarted container's
 * pid 1): its holder is gone.
 */
const liveTokens = new Set<string>();

function errnoOf(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

function parse(text: string): LockContent | null {
  try {
    const v = JSON.parse(text);
    if (
      typeof v === "object" && v !== null && Number.isSafeInteger(v.pid) && v.pid > 0 &&
      typeof v.hostname === "string" && typeof v.token === "string" &&
      typeof v.createdAt === "string"
    ) return v as LockContent;
  } catch { /* not JSON */ }
  return null;
}

/**
 * Create `file` holding `text`, failing with EEXIST when it exists. Atomic
 * with its content: written to a private temporary file, then hard-linked
 * into place, so a reader never sees it empty or half written. Where hard
 * links are not supported, falls back to an exclusive create and write.
 */
async function createExclusive(file: string, text: string, token: string): Promise<void> {
  const tmp = `${file}.${token}.tmp`;
  await writeFile(tmp, text, { flag: "wx" });
  try {
    await link(tmp, file);
  } catch (e) {
    const code = errnoOf(e);
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP") throw e;
    await writeFile(file, text, { flag: "wx" });
  } finally {
    await unlink(tmp).catch(() => {});
  }
}

/**
 * Linux: whether `pid` is a zombie (it has exited and holds no files, but its
 * parent has not collected its status yet; `kill(pid, 0)` still succeeds).
 * A process SIGKILLed in a container whose init does not reap stays one.
 * `false` when it cannot be read.
 */
async function isZombie(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    // "<pid> (<comm>) <state> …": comm may hold spaces and parentheses.
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return false;
  }
}

/** `true` alive, `false` gone (or a zombie), `null` cannot tell. */
async function pidAlive(pid: number): Promise<boolean | null> {
  try {
    process.kill(pid, 0);
    return !await isZombie(pid);
  } catch (e) {
    const code = errnoOf(e);
    if (code === "ESRCH") return false;
    if (code === "EPERM") return true; // exists, owned by another user
  }
  // Deno without --allow-run refuses kill(); Linux also answers through /proc.
  try {
    await stat("/proc/self");
  } catch {
    return null;
  }
  try {
    await stat(`/proc/${pid}`);
  } catch {
    return false;
  }
  return !await isZombie(pid);
}

/** {@link pidAlive} of a lock's or marker's writer; our own pid counts only with a token we hold. */
function holderAlive(holder: LockContent): Promise<boolean | null> {
  if (holder.pid === process.pid) return Promise.resolve(liveTokens.has(holder.token));
  return pidAlive(holder.pid);
}

/**
 * Lock `dir` (created when missing) for this process. Resolves to the held
 * lock, or to a typed {@link DirLockRefusal}; never rejects.
 */
export async function lockDirectory(dir: string): Promise<Result<DirLock, DirLockRefusal>> {
  const lockFile = join(dir, LOCK_FILE_NAME);
  const refuse = (
    code: DirLockRefusalCode,
    message: string,
    holder?: LockContent,
  ): Result<never, DirLockRefusal> => ({
    ok: false,
    error: {
      code,
      message,
      lockFile,
      ...(holder
        ? { holder: { pid: holder.pid, hostname: holder.hostname, createdAt: holder.createdAt } }
        : {}),
    },
  });
  const me: LockContent = {
    pid: process.pid,
    hostname: hostname(),
    token: crypto.randomUUID(),
    createdAt: new Date().toISOString(),
  };
  const text = JSON.stringify(me);
  try {
    await mkdir(dir, { recursive: true });
  } catch (e) {
    return refuse("io-error", `cannot create ${dir}: ${errnoOf(e) ?? "error"}`);
  }
  // Registered before the lock file exists, so that a concurrent open in
  // this process never judges our own fresh lock stale.
  liveTokens.add(me.token);
  const result = await acquire(lockFile, dir, me, text, refuse);
  if (!result.ok) liveTokens.delete(me.token);
  return result;
}

async function acquire(
  lockFile: string,
  dir: string,
  me: LockContent,
  text: string,
  refuse: (
    code: DirLockRefusalCode,
    message: string,
    holder?: LockContent,
  ) => Result<never, DirLockRefusal>,
): Promise<Result<DirLock, DirLockRefusal>> {
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      await createExclusive(lockFile, text, me.token);
      return { ok: true, value: heldLock(lockFile, me.token) };
    } catch (e) {
      if (errnoOf(e) !== "EEXIST") {
        return refuse("io-error", `cannot create ${lockFile}: ${errnoOf(e) ?? "error"}`);
      }
    }
    let current: string;
    let age: number;
    try {
      current = await readFile(lockFile, "utf8");
      age = Date.now() - (await stat(lockFile)).mtimeMs;
    } catch (e) {
      if (errnoOf(e) === "ENOENT") continue; // released meanwhile: try again
      return refuse("io-error", `cannot read ${lockFile}: ${errnoOf(e) ?? "error"}`);
    }
    const holder = parse(current);
    if (holder === null) {
      if (age < WRITING_GRACE_MS) {
        return refuse("locked", "another process is taking the lock right now");
      }
    } else if (holder.hostname !== me.hostname) {
      return refuse(
        "locked-elsewhere",
        `locked by pid ${holder.pid} on host ${holder.hostname}; delete ${lockFile} only if no process there has it open`,
        holder,
      );
    } else {
      const alive = await holderAlive(holder);
      if (alive === null) {
        return refuse("unverifiable", `cannot check whether pid ${holder.pid} runs`, holder);
      }
      if (alive) {
        return refuse(
          "locked",
          `the directory is open in process ${holder.pid} (since ${holder.createdAt})`,
          holder,
        );
      }
    }
    // Stale: remove it only if it still holds the content judged stale,
    // under an exclusive takeover marker for that content.
    const removed = await removeStale(dir, lockFile, current, me.hostname, 0);
    if (removed === "io-error") {
      return refuse("io-error", `cannot take over ${lockFile}`);
    }
    if (removed === "busy") await sleep(5 + Math.random() * 20);
  }
  return refuse("locked", "the lock kept changing hands; try again");
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** The takeover marker of a file's content: `papercusp.lock.takeover.<sha-256 of content>`. */
async function markerFor(dir: string, content: string): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(content)),
  );
  const hex = Array.from(digest.subarray(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
  return join(dir, `${TAKEOVER_PREFIX}${hex}`);
}

/**
 * Delete `file` if it still holds exactly `content` (a lock or a takeover
 * marker judged stale). Only the process that created the takeover marker
 * of that content exclusively may delete it, after re-reading it under the
 * marker; every lock and marker holds a unique token, so content deleted
 * once never comes back and a second remover finds something else. A
 * marker whose creator died (kill -9 inside this window) is itself removed
 * the same way (at most {@link MAX_MARKER_DEPTH} levels). `"busy"`: another
 * live process is removing it; `"done"`: deleted or no longer there.
 */
async function removeStale(
  dir: string,
  file: string,
  content: string,
  host: string,
  depth: number,
): Promise<"done" | "busy" | "io-error"> {
  const marker = await markerFor(dir, content);
  const mine: LockContent = {
    pid: process.pid,
    hostname: host,
    token: crypto.randomUUID(),
    createdAt: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 2; attempt++) {
    liveTokens.add(mine.token);
    try {
      await createExclusive(marker, JSON.stringify(mine), mine.token);
    } catch (e) {
      liveTokens.delete(mine.token);
      if (errnoOf(e) !== "EEXIST") return "io-error";
      // Another remover holds the marker: wait for it, unless it died.
      let markerText: string;
      let age: number;
      try {
        markerText = await readFile(marker, "utf8");
        age = Date.now() - (await stat(marker)).mtimeMs;
      } catch (e) {
        if (errnoOf(e) === "ENOENT") continue;
        return "io-error";
      }
      const holder = parse(markerText);
      const dead = holder === null
        ? age >= WRITING_GRACE_MS
        : holder.hostname === host && await holderAlive(holder) === false;
      if (!dead || depth >= MAX_MARKER_DEPTH) return "busy";
      const r = await removeStale(dir, marker, markerText, host, depth + 1);
      if (r !== "done") return r;
      continue;
    }
    try {
      let now: string | null;
      try {
        now = await readFile(file, "utf8");
      } catch (e) {
        if (errnoOf(e) !== "ENOENT") return "io-error";
        now = null;
      }
      if (now === content) {
        try {
          await unlink(file);
        } catch (e) {
          if (errnoOf(e) !== "ENOENT") return "io-error";
        }
      }
      return "done";
    } finally {
      await unlink(marker).catch(() => {});
      liveTokens.delete(mine.token);
    }
  }
  return "busy";
}

function heldLock(lockFile: string, token: string): DirLock {
  let released = false;
  return {
    lockFile,
    async release() {
      if (released) return;
      released = true;
      const text = await readFile(lockFile, "utf8").catch(() => "");
      if (parse(text)?.token === token) await unlink(lockFile).catch(() => {});
      liveTokens.delete(token);
    },
  };
}
