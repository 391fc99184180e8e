/**
 * `@papercusp/chat-protocol-postgres/pglite-dir`: PGlite on a data directory,
 * guarded by a lock file with a PID check (two processes opening one PGlite
 * directory silently corrupt it). Node, Deno and Bun only: it uses the file
 * system, so it is kept out of the edge-safe main entry point.
 *
 * @module
 */
export {
  openPGliteDir,
  type OpenPGliteDirOptions,
  type OpenPGliteDirRefusal,
  type PGliteDir,
} from "./src/pglite_dir.ts";
export {
  type DirLock,
  type DirLockHolder,
  type DirLockRefusal,
  type DirLockRefusalCode,
  LOCK_FILE_NAME,
  lockDirectory,
} from "./src/dir_lock.ts";
/** Core types this entry point's API uses (the same as `@papercusp/chat-protocol`'s). */
export type { Refusal, Result } from "@papercusp/chat-protocol";
