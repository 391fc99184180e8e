/**
 * Property tests of the byte-chunk UTF-8 decoding of {@link SseParser}: it
 * decodes each byte chunk with a one-shot `TextDecoder.decode()` and carries
 * a possibly incomplete trailing sequence over to the next chunk, which must
 * give exactly what one WHATWG UTF-8 decode of the whole byte run gives,
 * however the bytes are split, for valid and invalid UTF-8 alike (U+FFFD
 * placement included).
 *
 * @module
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import { SseParser } from "../../sse.ts";
import { splitAt } from "./_helpers.ts";

const enc = new TextEncoder();

/**
 * Bytes from every UTF-8 class: ASCII, each continuation sub-range that a
 * lead byte restricts (80–8F, 90–9F, A0–BF), never-valid C0/C1/F5–FF, and
 * the 2-, 3- and 4-byte leads with special second-byte ranges (E0, ED, F0,
 * F4). No CR / LF, so all of it is one data line.
 */
const utf8Byte = fc.constantFrom(
  0x41,
  0x20,
  0x00,
  0x7f,
  0x80,
  0x8f,
  0x90,
  0x9f,
  0xa0,
  0xbf,
  0xc0,
  0xc1,
  0xc2,
  0xc3,
  0xdf,
  0xe0,
  0xe2,
  0xed,
  0xef,
  0xf0,
  0xf1,
  0xf4,
  0xf5,
  0xff,
);
/** Mostly valid multibyte text with stray bytes mixed in. */
const payload = fc.array(
  fc.oneof(
    { arbitrary: utf8Byte.map((b) => [b]), weight: 3 },
    {
      arbitrary: fc.constantFrom("é", "€", "😀", "λ", "\uFEFF", "ab").map((
        s,
      ) => [...enc.encode(s)]),
      weight: 2,
    },
  ),
  { maxLength: 40 },
).map((parts) => new Uint8Array(parts.flat()));

/** Data of the single message parsed from `chunks` (or undefined). */
function parseData(chunks: (string | Uint8Array)[]): string | undefined {
  let data: string | undefined;
  const parser = new SseParser({ onEvent: (m) => data = m.data });
  for (const c of chunks) parser.feed(c);
  parser.end();
  return data;
}

Deno.test("UTF-8: byte chunks split anywhere decode like one WHATWG decode of the whole run", () => {
  fc.assert(
    fc.property(payload, fc.array(fc.nat(), { maxLength: 10 }), (body, cuts) => {
      const bytes = new Uint8Array([...enc.encode("data: "), ...body, 0x0a, 0x0a]);
      const expected = new TextDecoder("utf-8", { ignoreBOM: true }).decode(body);
      assert.equal(parseData(splitAt(bytes, cuts)), expected);
    }),
    { numRuns: 10_000 },
  );
});

Deno.test("UTF-8: a string chunk between byte chunks flushes an incomplete sequence as U+FFFD", () => {
  fc.assert(
    fc.property(payload, payload, fc.nat(), (a, b, cut) => {
      const head = new Uint8Array([...enc.encode("data: "), ...a]);
      const at = cut % (head.length + 1);
      const chunks = [head.slice(0, at), head.slice(at), "|", b, enc.encode("\n\n")];
      const dec = new TextDecoder("utf-8", { ignoreBOM: true });
      assert.equal(parseData(chunks), dec.decode(a) + "|" + dec.decode(b));
    }),
    { numRuns: 10_000 },
  );
});

Deno.test("UTF-8: every byte its own chunk, incomplete sequences at chunk ends", () => {
  // é split, € cut after 1 and 2 bytes, 😀 cut after 3, then an invalid E0 80 pair.
  const body = [0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xe0, 0x80, 0x41];
  const bytes = new Uint8Array([...enc.encode("data: "), ...body, 0x0a, 0x0a]);
  const oneByOne = [...bytes].map((b) => new Uint8Array([b]));
  assert.equal(parseData(oneByOne), "é€😀\uFFFD\uFFFDA");
  assert.equal(parseData([bytes]), "é€😀\uFFFD\uFFFDA");
  // A stream cut inside a sequence, then a string chunk: one U+FFFD for the dangling prefix.
  assert.equal(
    parseData([enc.encode("data: x\xe2"), new Uint8Array([0xe2, 0x82]), "y\n\n"]),
    "x\u00e2\uFFFDy",
  );
});
