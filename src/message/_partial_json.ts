/**
 * Internal: parse a possibly truncated JSON text (a tool input still
 * streaming) into the value its complete prefix describes, the way the AI SDK
 * shows partial tool inputs. Returns `undefined` for text that is not a JSON
 * prefix. Linear in the text length; never throws; object keys are defined as
 * own data properties (a `__proto__` key cannot reach a prototype).
 *
 * @module
 */

const MISSING = Symbol("missing");
type V = unknown | typeof MISSING;

class Bad extends Error {}

/** Parse a complete or truncated JSON text. */
export function parsePartialJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // fall through to the partial parser
  }
  const p = new PartialParser(text);
  try {
    const v = p.value(0);
    if (v === MISSING) return undefined;
    p.ws();
    if (p.i < text.length) return undefined;
    return v;
  } catch {
    return undefined;
  }
}

const LITERALS: [string, unknown][] = [["true", true], ["false", false], ["null", null]];

class PartialParser {
  i = 0;
  constructor(readonly s: string) {}
  get eof(): boolean {
    return this.i >= this.s.length;
  }
  ws(): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s.charCodeAt(this.i);
      if (c === 32 || c === 9 || c === 10 || c === 13) this.i++;
      else break;
    }
  }
  value(depth: number): V {
    if (depth > 512) throw new Bad();
    this.ws();
    if (this.eof) return MISSING;
    const c = this.s[this.i];
    if (c === "{") return this.object(depth);
    if (c === "[") return this.array(depth);
    if (c === '"') return this.string();
    if (c === "-" || (c >= "0" && c <= "9")) return this.number();
    for (const [word, v] of LITERALS) {
      const rest = this.s.slice(this.i, this.i + word.length);
      if (rest === word) {
        this.i += word.length;
        return v;
      }
      if (this.i + rest.length === this.s.length && word.startsWith(rest)) {
        this.i = this.s.length;
        return v;
      }
    }
    throw new Bad();
  }
  object(depth: number): V {
    this.i++;
    const obj: Record<string, unknown> = {};
    for (;;) {
      this.ws();
      if (this.eof) return obj;
      if (this.s[this.i] === "}") {
        this.i++;
        return obj;
      }
      if (this.s[this.i] !== '"') throw new Bad();
      const key = this.string();
      this.ws();
      if (this.eof) return obj;
      if (this.s[this.i] !== ":") throw new Bad();
      this.i++;
      const v = this.value(depth + 1);
      if (v === MISSING) return obj;
      Object.defineProperty(obj, key as string, {
        value: v,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.ws();
      if (this.eof) return obj;
      const c = this.s[this.i++];
      if (c === "}") return obj;
      if (c !== ",") throw new Bad();
    }
  }
  array(depth: number): V {
    this.i++;
    const arr: unknown[] = [];
    for (;;) {
      this.ws();
      if (this.eof) return arr;
      if (this.s[this.i] === "]") {
        this.i++;
        return arr;
      }
      const v = this.value(depth + 1);
      if (v === MISSING) return arr;
      arr.push(v);
      this.ws();
      if (this.eof) return arr;
      const c = this.s[this.i++];
      if (c === "]") return arr;
      if (c !== ",") throw new Bad();
    }
  }
  /** A string; at end of input returns the decoded prefix. */
  string(): string {
    const s = this.s;
    const start = ++this.i;
    let j = start;
    while (j < s.length) {
      const c = s[j];
      if (c === '"') {
        this.i = j + 1;
        return JSON.parse(s.slice(start - 1, j + 1));
      }
      if (c === "\\") j += 2;
      else j++;
    }
    // truncated: drop an incomplete trailing escape (at most 5 chars), then decode
    const body = s.slice(start);
    this.i = s.length;
    for (let cut = 0; cut <= 5 && cut <= body.length; cut++) {
      try {
        return JSON.parse(`"${body.slice(0, body.length - cut)}"`);
      } catch {
        // try a shorter prefix
      }
    }
    throw new Bad();
  }
  number(): V {
    const m = /^-?(?:0|[1-9]\d*)?(?:\.\d*)?(?:[eE][+-]?\d*)?/.exec(
      this.s.slice(this.i, this.i + 400),
    );
    const tok = m ? m[0] : "";
    if (tok.length === 0) throw new Bad();
    this.i += tok.length;
    const clean = tok.replace(/[eE][+-]?$/, "").replace(/\.$/, "");
    if (clean === "-" || clean === "") {
      if (this.eof) return MISSING;
      throw new Bad();
    }
    const n = Number(clean);
    if (!Number.isFinite(n)) throw new Bad();
    return n;
  }
}
