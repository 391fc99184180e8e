/**
 * A persistent vector for the v1 fold's snapshots: append in O(1), replace by
 * index in O(log₃₂ n), and a frozen version of the whole vector in O(1), so
 * `ChatStateFolder.state()` after every event costs O(1) instead of a copy
 * of every tool call and card.
 *
 * A 32-way trie of full leaves plus a tail (the last, partial leaf). Trie
 * nodes created since the last {@link PersistentVector.view} belong to the
 * current edit generation and are changed in place; a view's nodes are never
 * changed again: the next write into the trie copies the path it touches (at
 * most 32 slots per level). A view keeps the tail array with its length at
 * the time: appending to the tail later does not change what it shows, and
 * replacing an item of a tail a view shares copies the tail first. Items
 * are materialized as an array only when asked ({@link VectorView}), once
 * per view.
 *
 * @module
 */

/** A trie node: its children (inner node) or items (leaf), and the edit generation that owns it. */
interface Node {
  readonly g: number;
  readonly a: unknown[];
}

/** One frozen version of a vector: never changes. */
interface Frozen {
  readonly root: Node;
  readonly shift: number;
  /** Items in the trie (a multiple of 32). */
  readonly trie: number;
  readonly tail: readonly unknown[];
  /** Items of `tail` in this version. */
  readonly tailLength: number;
}

/** The items under `n` (a trie of depth `shift / 5 + 1`), appended to `out`. */
function collect(n: Node, shift: number, out: unknown[]): void {
  if (shift === 0) { for (const x of n.a) out.push(x); }
  else for (const c of n.a) collect(c as Node, shift - 5, out);
}

/**
 * The items of one frozen version, as a frozen array materialized on first
 * use; `undefined` items are left out (a vector may use them as holes).
 */
export class VectorView<T> {
  readonly #frozen: Frozen;
  #items: readonly T[] | undefined;

  /** A view of `frozen`. */
  constructor(frozen: Frozen) {
    this.#frozen = frozen;
  }

  /**
   * The items when they are cheap to give now (already materialized, or at
   * most 64 slots), else `undefined` (materialize them later, on demand).
   */
  ready(): readonly T[] | undefined {
    const f = this.#frozen;
    return this.#items ?? (f.trie + f.tailLength <= 64 ? this.items() : undefined);
  }

  /** The items, in order (the same frozen array on every call). */
  items(): readonly T[] {
    if (this.#items === undefined) {
      const f = this.#frozen, out: unknown[] = [];
      if (f.trie > 0) collect(f.root, f.shift, out);
      for (let i = 0; i < f.tailLength; i++) out.push(f.tail[i]);
      this.#items = Object.freeze(out.filter((x) => x !== undefined) as T[]);
    }
    return this.#items;
  }
}

/** The persistent vector (see the module doc). */
export class PersistentVector<T> {
  #root: Node = { g: 0, a: [] };
  /** 5 × (depth − 1): the bit shift of the root's index digit. */
  #shift = 0;
  /** Items in the trie (full leaves only). */
  #trie = 0;
  /** How many items fit in the trie under the root. */
  #capacity = 32;
  #tail: unknown[] = [];
  /** Whether a view holds {@link #tail} (replacing an item then copies it first). */
  #tailShared = false;
  /** The edit generation: trie nodes with this `g` may change in place. */
  #gen = 1;
  /** The current version's view, while nothing changed since it was taken. */
  #view: VectorView<T> | null = null;

  /** Number of items. */
  get size(): number {
    return this.#trie + this.#tail.length;
  }

  /** The item at `i` (0 ≤ i < size). */
  get(i: number): T {
    if (i >= this.#trie) return this.#tail[i - this.#trie] as T;
    let n = this.#root;
    for (let s = this.#shift; s > 0; s -= 5) n = n.a[(i >>> s) & 31] as Node;
    return n.a[i & 31] as T;
  }

  /** `n` if the current generation owns it, else a copy it owns. */
  #own(n: Node): Node {
    return n.g === this.#gen ? n : { g: this.#gen, a: n.a.slice() };
  }

  /** Replace the item at `i` (0 ≤ i < size). */
  set(i: number, v: T): void {
    this.#view = null;
    if (i >= this.#trie) {
      if (this.#tailShared) {
        this.#tail = this.#tail.slice();
        this.#tailShared = false;
      }
      this.#tail[i - this.#trie] = v;
      return;
    }
    let n = this.#root = this.#own(this.#root);
    for (let s = this.#shift; s > 0; s -= 5) {
      const k = (i >>> s) & 31;
      const c = this.#own(n.a[k] as Node);
      n.a[k] = c;
      n = c;
    }
    n.a[i & 31] = v;
  }

  /** Append `v`. */
  push(v: T): void {
    this.#view = null;
    if (this.#tail.length === 32) this.#flushTail();
    this.#tail.push(v); // a view of the tail reads only its own length of it
  }

  /** Move the full tail into the trie as its next leaf; start an empty tail. */
  #flushTail(): void {
    const i = this.#trie;
    if (i === this.#capacity) {
      this.#root = { g: this.#gen, a: [this.#root] };
      this.#shift += 5;
      this.#capacity *= 32;
    }
    // a tail a view holds must never be changed in place: the leaf is not owned then
    const leaf: Node = { g: this.#tailShared ? 0 : this.#gen, a: this.#tail };
    if (this.#shift === 0) this.#root = leaf;
    else {
      let n = this.#root = this.#own(this.#root);
      for (let s = this.#shift; s > 5; s -= 5) {
        const k = (i >>> s) & 31;
        const child = n.a[k] as Node | undefined;
        const c = child === undefined ? { g: this.#gen, a: [] } : this.#own(child);
        n.a[k] = c;
        n = c;
      }
      n.a[(i >>> 5) & 31] = leaf;
    }
    this.#trie = i + 32;
    this.#tail = [];
    this.#tailShared = false;
  }

  /**
   * A view of the current version, in O(1): the same view while nothing
   * changed; later writes never change it.
   */
  view(): VectorView<T> {
    if (this.#view === null) {
      this.#view = new VectorView<T>({
        root: this.#root,
        shift: this.#shift,
        trie: this.#trie,
        tail: this.#tail,
        tailLength: this.#tail.length,
      });
      this.#gen++;
      this.#tailShared = true;
    }
    return this.#view;
  }
}
