/**
 * From capture bytes to text, line by line: bytes that are not UTF-8 and
 * raw control characters are findings on their lines, not a reason to
 * refuse the whole capture (one stray ESC in a 50 MB capture used to hide
 * everything else).
 *
 * Lines are counted as the capture readers count them: CRLF, LF and CR each
 * end a line.
 *
 * @module
 */
import type { InspectProblem } from "./report.ts";

/** Capture bytes decoded. */
export interface DecodedInput {
  /** The text (a leading UTF-8 BOM removed; invalid sequences as U+FFFD). */
  text: string;
  /** 1-based lines whose bytes are not UTF-8, ascending. */
  invalidUtf8Lines: number[];
  /** Set when the bytes were UTF-16 with a byte order mark (decoded as such). */
  utf16?: "le" | "be";
}

/** Split `bytes` at line ends (CRLF, LF, CR), yielding each line's bytes without its end. */
function* byteLines(bytes: Uint8Array): Generator<Uint8Array> {
  let start = 0;
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    const b = bytes[i];
    if (b !== 0x0a && b !== 0x0d) continue;
    yield bytes.subarray(start, i);
    if (b === 0x0d && bytes[i + 1] === 0x0a) i++;
    start = i + 1;
  }
  if (start < n) yield bytes.subarray(start);
}

/**
 * Decode capture bytes. UTF-8 as WHATWG decodes it (a leading BOM dropped);
 * when that fails, the lines holding invalid sequences are listed and the
 * rest is decoded with U+FFFD in their place (UTF-8 never puts a CR or LF
 * byte inside a multi-byte sequence, so line numbers stay right). Bytes that
 * start with a UTF-16 byte order mark are decoded as UTF-16. Never throws.
 */
export function decodeInput(bytes: Uint8Array): DecodedInput {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) {
    return { text: new TextDecoder("utf-16le").decode(bytes), invalidUtf8Lines: [], utf16: "le" };
  }
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    return { text: new TextDecoder("utf-16be").decode(bytes), invalidUtf8Lines: [], utf16: "be" };
  }
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes), invalidUtf8Lines: [] };
  } catch {
    // Fall through: find the lines at fault.
  }
  const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  const invalidUtf8Lines: number[] = [];
  let line = 0;
  for (const bytesOfLine of byteLines(bytes)) {
    line++;
    try {
      strict.decode(bytesOfLine);
    } catch {
      invalidUtf8Lines.push(line);
    }
  }
  return { text: new TextDecoder("utf-8").decode(bytes), invalidUtf8Lines };
}

/** One `invalid-utf8` error per line. */
export function invalidUtf8Problems(lines: readonly number[]): InspectProblem[] {
  return lines.map((line) => ({
    line,
    severity: "error" as const,
    code: "invalid-utf8",
    message: "the line's bytes are not UTF-8 (shown as U+FFFD): SSE and JSON are UTF-8 text; " +
      "inspect reads on",
  }));
}

const C0_NAMES: Readonly<Record<number, string>> = {
  0x00: "NUL",
  0x07: "BEL",
  0x08: "BS",
  0x0b: "VT",
  0x0c: "FF",
  0x1b: "ESC",
};

/**
 * One `control-character` error per line that holds a raw C0 control
 * character other than TAB, CR and LF (JSON text cannot hold one unescaped,
 * and a terminal would obey it): where the first one is and how many the
 * line has. Linear in the text.
 */
export function controlCharacterProblems(text: string): InspectProblem[] {
  // deno-lint-ignore no-control-regex
  const controls = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;
  const problems: InspectProblem[] = [];
  let line = 1;
  let lineStart = 0;
  let scanned = 0;
  let current: { problem: InspectProblem; count: number; first: string } | undefined;
  const flush = () => {
    if (current === undefined) return;
    if (current.count > 1) {
      current.problem.message = current.first + ` (and ${current.count - 1} more on the line)` +
        TAIL;
    } else current.problem.message = current.first + TAIL;
    current = undefined;
  };
  for (let m = controls.exec(text); m !== null; m = controls.exec(text)) {
    const at = m.index;
    // Advance the line count to `at`.
    for (let i = scanned; i < at; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
        line++;
        lineStart = i + 1;
      }
    }
    scanned = at;
    if (current !== undefined && current.problem.line === line) {
      current.count++;
      continue;
    }
    flush();
    const code = text.charCodeAt(at);
    const name = C0_NAMES[code];
    const u = `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
    current = {
      problem: { line, severity: "error", code: "control-character", message: "" },
      count: 1,
      first: `raw control character ${u}${name === undefined ? "" : ` (${name})`} at character ` +
        `${at - lineStart + 1} of the line`,
    };
    problems.push(current.problem);
  }
  flush();
  return problems;
}

const TAIL = ": JSON text cannot hold it unescaped and a terminal would obey it; inspect " +
  "shows it escaped and reads on";
