/**
 * Hostile values for "never throws" property tests: one generator the whole
 * test suite shares, so every entry point is attacked the same way.
 *
 * `hostile()` yields values a careless reader trips on: proxies whose every
 * trap throws, revoked proxies, objects whose getters throw (an `Error`, a
 * null-prototype object, a string, `undefined`), getters that answer
 * differently on each read, null-prototype records, objects whose `toString`
 * / `valueOf` / `Symbol.toPrimitive` throw or are not functions, arrays with
 * holes, very deep arrays, symbols, bigints, `NaN`, `-0`, `Infinity`, lone
 * surrogates.
 *
 * `hostileLike(arb)` takes a generator of well-shaped values and returns one
 * that sometimes replaces the whole value, or any nested field of it, by a
 * hostile one, or wraps it in a proxy or behind throwing/changing getters. Use
 * it to reach deep code paths with mostly-valid input.
 *
 * fast-check itself inspects generated values (and a revoked proxy breaks
 * it), so both generators yield a {@link Hostile} recipe: call `build()`
 * inside the property to get a fresh hostile value; `label` says what it is
 * when a run fails.
 *
 * @module
 */
import fc from "./seed.ts";

/** A thrown value with no prototype: `String(x)` itself throws on it. */
export function nullProtoThrowable(): object {
  return Object.create(null);
}

/** Things a trap or getter may throw. */
const THROWN: readonly (() => unknown)[] = [
  () => new Error("boom"),
  () => nullProtoThrowable(),
  () => "a string",
  () => undefined,
  () => ({
    toString() {
      throw new Error("toString");
    },
  }),
  () =>
    new Proxy({}, {
      get: () => {
        throw new Error("trap");
      },
    }),
];

const arbThrown: fc.Arbitrary<() => unknown> = fc.constantFrom(...THROWN);

/** A proxy whose every trap throws `thrown()`. */
export function throwingProxy(target: object, thrown: () => unknown): object {
  const fail = () => {
    throw thrown();
  };
  return new Proxy(target, {
    get: fail,
    has: fail,
    ownKeys: fail,
    getOwnPropertyDescriptor: fail,
    getPrototypeOf: fail,
    set: fail,
    defineProperty: fail,
    deleteProperty: fail,
    apply: fail,
    construct: fail,
    isExtensible: fail,
    preventExtensions: fail,
    setPrototypeOf: fail,
  });
}

/** A revoked proxy over `target` (every operation on it throws a TypeError). */
export function revokedProxy(target: object = {}): object {
  const r = Proxy.revocable(target, {});
  r.revoke();
  return r.proxy;
}

/** `base` with an own enumerable getter at `key` that throws `thrown()`. */
export function withThrowingGetter(
  base: Record<string, unknown>,
  key: string,
  thrown: () => unknown,
): Record<string, unknown> {
  const out = { ...base };
  Object.defineProperty(out, key, {
    enumerable: true,
    configurable: true,
    get() {
      throw thrown();
    },
  });
  return out;
}

/** `base` with an own enumerable getter at `key` that answers `first`, then `later` forever. */
export function withFickleGetter(
  base: Record<string, unknown>,
  key: string,
  first: unknown,
  later: unknown,
): Record<string, unknown> {
  const out = { ...base };
  let reads = 0;
  Object.defineProperty(out, key, {
    enumerable: true,
    configurable: true,
    get() {
      return reads++ === 0 ? first : later;
    },
  });
  return out;
}

/** An array nested `depth` levels deep (`[[[…]]]`). */
export function deepArray(depth: number): unknown[] {
  let v: unknown[] = [];
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

/** An object nested `depth` levels deep under `key` (`{a:{a:{…}}}`). */
export function deepObject(depth: number, key = "a"): Record<string, unknown> {
  let v: Record<string, unknown> = {};
  for (let i = 0; i < depth; i++) v = { [key]: v };
  return v;
}

const SCALARS: readonly unknown[] = [
  undefined,
  null,
  NaN,
  -0,
  Infinity,
  -Infinity,
  Number.MAX_SAFE_INTEGER + 2,
  1.5,
  -1,
  0n,
  Symbol("s"),
  "",
  "\uD800",
  "\uDC00x",
  "\u0000",
  "\r\n",
  "\u202E",
  true,
  false,
];

/** Depths of the deep values: past the usual recursion limits, up to 20k. */
const DEPTHS = [1000, 5000, 10_000, 20_000] as const;
const deepValues = new Map<string, unknown>();

/**
 * A deep array or object of depth `d`, built once and shared by every run
 * (building 20k levels per run made the deep recipes most of a property's
 * time). Unlike the other recipes it is not fresh: the code under test must
 * not mutate its input (which is itself checked elsewhere).
 */
function sharedDeep(kind: "array" | "object", d: number): unknown {
  const key = `${kind}:${d}`;
  let v = deepValues.get(key);
  if (v === undefined) {
    v = kind === "array" ? deepArray(d) : deepObject(d);
    deepValues.set(key, v);
  }
  return v;
}

/** A recipe for a hostile value: `build()` makes a fresh one; `label` names it. */
export interface Hostile {
  /** A fresh hostile value (proxies and getters are made here, not at generation time). */
  build(): unknown;
  /** What `build()` makes, for failure output. */
  readonly label: string;
}

function recipe(label: string, build: () => unknown): Hostile {
  return { build, label, toString: () => label } as Hostile;
}

/** Objects whose conversion to string or number throws or is broken. */
const BAD_PRIMITIVES: readonly Hostile[] = [
  recipe("toString throws", () => ({
    toString() {
      throw new Error("toString");
    },
  })),
  recipe("toString/valueOf not functions", () => ({ toString: 1, valueOf: 1 })),
  recipe("Symbol.toPrimitive throws", () => ({
    [Symbol.toPrimitive]() {
      throw new Error("toPrimitive");
    },
  })),
  recipe("null prototype", () => Object.create(null)),
  recipe("function", () => () => {}),
  recipe("invalid Date", () => new Date(NaN)),
  recipe("RegExp", () => /re/),
  recipe("Map", () => new Map([["a", 1]])),
  recipe("array with holes", () => {
    const a: unknown[] = [1, , 3]; // a hole at index 1
    a.length = 5;
    return a;
  }),
];

/** A generator of hostile value recipes (see the module doc). */
export function hostile(): fc.Arbitrary<Hostile> {
  return fc.oneof(
    fc.constantFrom(...SCALARS).map((v) => recipe(`scalar ${String(v)}`, () => v)),
    fc.constantFrom(...BAD_PRIMITIVES),
    arbThrown.map((t) => recipe("throwing proxy {}", () => throwingProxy({}, t))),
    arbThrown.map((t) => recipe("throwing proxy []", () => throwingProxy([], t))),
    fc.constant(recipe("revoked proxy {}", () => revokedProxy({}))),
    fc.constant(recipe("revoked proxy []", () => revokedProxy([]))),
    fc.tuple(fc.string({ maxLength: 8 }), arbThrown).map(([k, t]) => {
      const key = k === "" ? "type" : k;
      return recipe(`throwing getter ${JSON.stringify(key)}`, () => withThrowingGetter({}, key, t));
    }),
    fc.constantFrom(...DEPTHS).map((d) => recipe(`array ${d} deep`, () => sharedDeep("array", d))),
    fc.constantFrom(...DEPTHS).map((d) =>
      recipe(`object ${d} deep`, () => sharedDeep("object", d))
    ),
  );
}

/**
 * Recipes for `arb`'s values that sometimes replace the value (or one nested
 * field) by a hostile value, wrap it in a throwing proxy, or put a throwing /
 * fickle getter on one of its own keys. About half the recipes build the
 * well-shaped value untouched. `arb` must generate JSON-like data (plain
 * objects, arrays, primitives): `build()` deep-copies it before corrupting.
 */
export function hostileLike<T>(arb: fc.Arbitrary<T>): fc.Arbitrary<Hostile> {
  return fc.tuple(arb, fc.nat(), hostile(), arbThrown, fc.nat({ max: 9 })).map(
    ([value, pick, bad, thrown, mode]) =>
      recipe(
        `${MODES[mode]} of ${safeJson(value)} (hostile: ${bad.label})`,
        () => corrupt(copy(value), pick, bad, thrown, mode),
      ),
  );
}

const MODES = [
  "as is",
  "as is",
  "as is",
  "as is",
  "as is",
  "replaced",
  "throwing proxy",
  "throwing getter",
  "fickle getter",
  "field replaced",
];

function safeJson(v: unknown): string {
  try {
    return String(JSON.stringify(v)).slice(0, 200);
  } catch {
    return "(unprintable)";
  }
}

function copy(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(copy);
  if (typeof v === "object" && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = copy(x);
    return out;
  }
  return v;
}

function corrupt(
  value: unknown,
  pick: number,
  badRecipe: Hostile,
  thrown: () => unknown,
  mode: number,
): unknown {
  if (mode <= 4) return value;
  const bad = badRecipe.build(); // built only when used
  if (mode === 5) return bad;
  if (typeof value !== "object" || value === null) return bad;
  if (mode === 6) return throwingProxy(value, thrown);
  // Choose one nested record (depth-first order) and attack one of its keys.
  const records: Record<string, unknown>[] = [];
  collect(value, records, 0);
  if (records.length === 0) return bad;
  const target = records[pick % records.length];
  const keys = Object.keys(target);
  const key = keys.length === 0 ? "type" : keys[pick % keys.length];
  const old = target[key];
  if (mode === 7) {
    Object.defineProperty(target, key, {
      enumerable: true,
      configurable: true,
      get() {
        throw thrown();
      },
    });
  } else if (mode === 8) {
    let reads = 0;
    Object.defineProperty(target, key, {
      enumerable: true,
      configurable: true,
      get() {
        return reads++ === 0 ? old : bad;
      },
    });
  } else {
    target[key] = bad;
  }
  return value;
}

function collect(v: unknown, out: Record<string, unknown>[], depth: number): void {
  if (depth > 8 || typeof v !== "object" || v === null) return;
  if (!Array.isArray(v)) out.push(v as Record<string, unknown>);
  for (const child of Object.values(v as Record<string, unknown>)) collect(child, out, depth + 1);
}

/** Runs per "never throws" property in this suite (the issue asks for ≥ 10^4). */
export const HOSTILE_RUNS = 10_000;
