/**
 * A deliberately naive reference splitter (quadratic-prone; size bound
 * `max`, none by default) used for differential tests on small inputs.
 */
import { parseAskBlock, parseReportBlock, type TurnTextSegment } from "../../blocks.ts";

export function referenceSplit(text: string, max = Infinity): TurnTextSegment[] {
  const lower = text.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const out: TurnTextSegment[] = [];
  let pending = "";
  const flush = () => {
    if (pending !== "") out.push({ kind: "text", text: pending });
    pending = "";
  };
  let pos = 0;
  for (;;) {
    const a = lower.indexOf("<ask>", pos);
    const r = lower.indexOf("<report>", pos);
    if (a === -1 && r === -1) {
      pending += text.slice(pos);
      break;
    }
    const name = a !== -1 && (r === -1 || a < r) ? "ask" : "report";
    const j = name === "ask" ? a : r;
    pending += text.slice(pos, j);
    flush();
    const bodyStart = j + name.length + 2;
    const c = lower.indexOf(`</${name}>`, bodyStart);
    const cl = name.length + 3;
    if ((c === -1 || c - bodyStart > max) && text.length - bodyStart >= max + cl) {
      // The cut never ends on a high surrogate (it would split a pair).
      let cut = bodyStart + max + cl;
      const last = text.charCodeAt(cut - 1);
      if (last >= 0xd800 && last <= 0xdbff) cut--;
      out.push({ kind: "invalid", tag: name, raw: text.slice(j, cut), reason: "too-large" });
      pos = cut;
      continue;
    }
    if (c === -1) {
      // Unclosed: the opening tag alone; the text after it is split again.
      out.push({ kind: "invalid", tag: name, raw: text.slice(j, bodyStart), reason: "unclosed" });
      pos = bodyStart;
      continue;
    }
    const end = c + name.length + 3;
    const raw = text.slice(j, end);
    const body = text.slice(bodyStart, c).trim();
    pos = end;
    if (body === "") {
      out.push({ kind: "invalid", tag: name, raw, reason: "empty-body" });
      continue;
    }
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      out.push({ kind: "invalid", tag: name, raw, reason: "malformed-json" });
      continue;
    }
    if (name === "ask") {
      const block = parseAskBlock(json);
      out.push(
        block
          ? { kind: "ask", block, raw }
          : { kind: "invalid", tag: name, raw, reason: "invalid-block" },
      );
    } else {
      const block = parseReportBlock(json);
      out.push(
        block
          ? { kind: "report", block, raw }
          : { kind: "invalid", tag: name, raw, reason: "invalid-block" },
      );
    }
  }
  flush();
  return out;
}
