/**
 * Message metadata as the AI SDK folds it: each update merges deeply into
 * what is there when both sides are plain objects (prototype keys skipped),
 * otherwise replaces it; a `null` / `undefined` update is no update.
 *
 * An update is first read into a fresh copy (each field once, iteratively,
 * so no depth overflows the stack), then merged: reading a hostile update
 * (a throwing getter, a revoked proxy) fails before anything changes. The
 * persisted message's metadata is copied the same way when the fold starts,
 * so every record in the merged metadata is one this fold made: merging
 * writes into them in place (linear in the size of the update), and the fold
 * never mutates (nor reads again) an object it did not make.
 *
 * Reading is bounded, as the v1 extension data is: records nested at most
 * `MAX_EXTENSION_DEPTH` (32) deep and at most `MAX_EXTENSION_VALUES`
 * (10,000) values read per update; a larger update (an endless chain of
 * proxies, a record with a million keys) is not read and counts as one that
 * could not be read.
 *
 * @module
 */
import { isRecord } from "../_internal/guards.ts";
import { MAX_EXTENSION_DEPTH, MAX_EXTENSION_VALUES } from "../v1/limits.ts";

/** A record metadata merging descends into (not an array, `Date` or `RegExp`). */
function isMergeable(v: unknown): v is Record<string, unknown> {
  return isRecord(v) && !(v instanceof Date) && !(v instanceof RegExp);
}

function define(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

const SKIPPED: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/**
 * An update read once: its own enumerable keys and their values, with the
 * frame of each value that is itself a mergeable record. A record met twice
 * (a cycle) has one frame.
 */
interface Frame {
  /** 1 for the update itself, one more per nested record. */
  readonly depth: number;
  readonly keys: readonly string[];
  readonly values: readonly unknown[];
  readonly children: readonly (Frame | undefined)[];
}

/**
 * Read `root` (a mergeable record) into frames, iteratively; `cyclic` when a
 * record was met twice. `undefined` when `root` is over the bounds (nested
 * too deep, too many values). May throw while reading a hostile record (a
 * throwing getter, a revoked proxy): the caller guards it.
 */
function readFrames(root: Record<string, unknown>): { top: Frame; cyclic: boolean } | undefined {
  const frames = new Map<object, Frame>();
  let cyclic = false;
  const pending: [Record<string, unknown>, Frame][] = [];
  let budget = MAX_EXTENSION_VALUES;
  // `null`: over the bounds (nested too deep, or too many values).
  const frameOf = (v: Record<string, unknown>, depth: number): Frame | null => {
    let f = frames.get(v);
    if (f !== undefined) {
      cyclic = true; // met twice: a cycle (or a shared record, merged once)
      return f;
    }
    if (depth > MAX_EXTENSION_DEPTH) return null;
    const keys = Object.keys(v);
    budget -= keys.length;
    if (budget < 0) return null;
    f = { depth, keys, values: [], children: [] };
    frames.set(v, f);
    pending.push([v, f]);
    return f;
  };
  const top = frameOf(root, 1);
  if (top === null) return undefined;
  while (pending.length > 0) {
    const [v, f] = pending.pop()!;
    const values = f.values as unknown[];
    const children = f.children as (Frame | undefined)[];
    for (const k of f.keys) {
      const x = v[k];
      values.push(x);
      if (!isMergeable(x)) {
        children.push(undefined);
        continue;
      }
      const child = frameOf(x, f.depth + 1);
      if (child === null) return undefined;
      children.push(child);
    }
  }
  return { top, cyclic };
}

/** A fresh object graph from `frame` (a cycle becomes a cycle). */
function materialise(frame: Frame): Record<string, unknown> {
  const made = new Map<Frame, Record<string, unknown>>();
  const pending: Frame[] = [];
  const objectOf = (f: Frame): Record<string, unknown> => {
    let o = made.get(f);
    if (o === undefined) {
      o = {};
      made.set(f, o);
      pending.push(f);
    }
    return o;
  };
  const top = objectOf(frame);
  while (pending.length > 0) {
    const f = pending.pop()!;
    const o = made.get(f)!;
    for (let i = 0; i < f.keys.length; i++) {
      const child = f.children[i];
      set(o, f.keys[i], child === undefined ? f.values[i] : objectOf(child));
    }
  }
  return top;
}

/** `o[k] = v` as an own data property (an own `__proto__` key too, never the prototype). */
function set(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === "__proto__") define(o, k, v);
  else o[k] = v;
}

/** Merged message metadata. */
export class MessageMetadata {
  /** The metadata so far (`undefined`: none). */
  value: unknown = undefined;

  /**
   * Start over with a copy of `value` (the persisted metadata, never
   * mutated). Returns `false` (no metadata) when `value` could not be read.
   */
  reset(value: unknown = undefined): boolean {
    this.value = undefined;
    let read: { top: Frame } | undefined;
    try {
      if (!isMergeable(value)) {
        this.value = value;
        return true;
      }
      read = readFrames(value);
    } catch {
      return false; // a hostile record (a throwing getter, a revoked proxy)
    }
    if (read === undefined) return false; // over the bounds
    this.value = materialise(read.top);
    return true;
  }

  /**
   * Merge `update` into the metadata. Returns `false` (and changes nothing)
   * when `update` could not be read.
   */
  merge(update: unknown): boolean {
    if (update === undefined || update === null) return true;
    let read: { top: Frame; cyclic: boolean } | undefined;
    try {
      if (isMergeable(update)) {
        read = readFrames(update);
        if (read === undefined) return false; // over the bounds
      }
    } catch {
      return false; // a hostile record (a throwing getter, a revoked proxy)
    }
    const frame = read?.top;
    const base = this.value;
    if (frame === undefined || !isMergeable(base)) {
      this.value = frame === undefined ? update : materialise(frame);
      return true;
    }
    const stack: [Record<string, unknown>, Frame][] = [[base, frame]];
    // an acyclic update ends where its frames end; a cyclic one merges into each record once
    const merged = read!.cyclic ? new Set<object>() : undefined;
    while (stack.length > 0) {
      const [target, from] = stack.pop()!;
      if (merged !== undefined) {
        if (merged.has(target)) continue;
        merged.add(target);
      }
      for (let i = 0; i < from.keys.length; i++) {
        const k = from.keys[i];
        const v = from.values[i];
        if (SKIPPED.has(k) || v === undefined) continue;
        const child = from.children[i];
        const b = Object.hasOwn(target, k) ? target[k] : undefined;
        if (child !== undefined && isMergeable(b)) stack.push([b, child]);
        else target[k] = child === undefined ? v : materialise(child);
      }
    }
    return true;
  }
}
