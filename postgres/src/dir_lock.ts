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
 * zombie: killed but not yet reaped by its parent) is stale and is taken over: renamed away atomically, checked to be the stale one, deleted.
 *
 * Limits: a zombie is recognized by reading `/proc/<pid>/stat` (Linux); Deno
 * allows that only with `--allow-all`, so without it a zombie holder counts as
 * alive and the directory is refused (`locked`, the safe direction) until its
 * parent reaps it. A lock written on another host (shared network directory) is never
 * taken over (its PID means nothing here); a PID reused by an unrelated
 * process keeps a stale lock "alive" (refused, the safe direction).
 *
 * @module
 */
import { link, mkdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
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
  for (let attempt = 0; attempt < 5; attempt++) {
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
      const alive = await pidAlive(holder.pid);
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
    // Stale: move it away atomically, then make sure we moved the stale one.
    const moved = `${lockFile}.stale.${me.token}`;
    try {
      await rename(lockFile, moved);
    } catch (e) {
      if (errnoOf(e) === "ENOENT") continue; // another process took it over first
      return refuse("io-error", `cannot take over ${lockFile}: ${errnoOf(e) ?? "error"}`);
    }
    const movedText = await readFile(moved, "utf8").catch(() => "");
    if (movedText !== current) {
      // A fresh lock replaced the stale one between our read and our rename:
      // put it back (exclusively) and look again.
      await createExclusive(lockFile, movedText, me.token).catch(() => {});
    }
    await unlink(moved).catch(() => {});
  }
  return refuse("locked", "the lock kept changing hands; try again");
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
    },
  };
}
