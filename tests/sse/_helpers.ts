/**
 * Test helpers for the SSE codec: a literal, line-by-line transcription of
 * WHATWG HTML §9.2.6 "Interpreting an event stream" used as an oracle, and a
 * small driver that collects everything an {@link SseParser} reports.
 *
 * @module
 */
import { type SseMessage, SseParser, type SseParserOptions } from "../../sse.ts";

/** Everything a parse reported, in order. */
export interface Collected {
  messages: SseMessage[];
  retries: number[];
  comments: string[];
  lastEventId: string;
}

/** Feed `chunks` to a fresh {@link SseParser}, call `end()`, collect the callbacks. */
export function collect(
  chunks: Iterable<string | Uint8Array>,
  options: Omit<SseParserOptions, "onEvent" | "onRetry" | "onComment"> = {},
): Collected {
  const out: Collected = { messages: [], retries: [], comments: [], lastEventId: "" };
  const parser = new SseParser({
    ...options,
    onEvent: (m) => out.messages.push(m),
    onRetry: (r) => out.retries.push(r),
    onComment: (c) => out.comments.push(c),
  });
  for (const chunk of chunks) parser.feed(chunk);
  parser.end();
  out.lastEventId = parser.lastEventId;
  return out;
}

/**
 * Spec oracle: whole decoded text in, everything dispatched out. Deliberately
 * naive (split, then a literal reading of the spec's steps), so it is easy to
 * check against the spec text by eye. `id` (the id set inside the block,
 * reset at every blank line) is not a spec concept; it models the
 * `eventsource-parser`-compatible field of {@link SseMessage}.
 */
export function whatwgOracle(decodedText: string, initialLastEventId = ""): Collected {
  let text = decodedText;
  // "One leading U+FEFF BYTE ORDER MARK character must be ignored if any are present."
  if (text.startsWith("\uFEFF")) text = text.slice(1);
  const lines = text.split(/\r\n|\r|\n/);
  // The part after the last line terminator is an incomplete line: "Once the end of the
  // file is reached, any pending data must be discarded."
  lines.pop();
  const out: Collected = { messages: [], retries: [], comments: [], lastEventId: "" };
  let dataBuffer = "";
  let eventTypeBuffer = "";
  let lastEventIdBuffer = initialLastEventId;
  let lastEventIdString = initialLastEventId;
  let blockId: string | undefined;
  for (const line of lines) {
    if (line === "") {
      // dispatch the event
      lastEventIdString = lastEventIdBuffer;
      if (dataBuffer === "") {
        dataBuffer = "";
        eventTypeBuffer = "";
        blockId = undefined;
        continue;
      }
      if (dataBuffer.endsWith("\n")) dataBuffer = dataBuffer.slice(0, -1);
      out.messages.push({
        id: blockId,
        event: eventTypeBuffer === "" ? undefined : eventTypeBuffer,
        data: dataBuffer,
        lastEventId: lastEventIdString,
      });
      dataBuffer = "";
      eventTypeBuffer = "";
      blockId = undefined;
      continue;
    }
    let field: string;
    let value: string;
    if (line.startsWith(":")) {
      out.comments.push(line.slice(line.startsWith(": ") ? 2 : 1));
      continue;
    }
    const colon = line.indexOf(":");
    if (colon !== -1) {
      field = line.slice(0, colon);
      value = line.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
    } else {
      field = line;
      value = "";
    }
    if (field === "event") eventTypeBuffer = value;
    else if (field === "data") dataBuffer += value + "\n";
    else if (field === "id") {
      if (!value.includes("\0")) {
        lastEventIdBuffer = value;
        blockId = value;
      }
    } else if (field === "retry") {
      if (/^[0-9]+$/.test(value)) out.retries.push(parseInt(value, 10));
    }
  }
  // The resume cursor is the last event ID *string*: an id in the discarded tail does not count.
  out.lastEventId = lastEventIdString;
  return out;
}

/** Split `input` at the given (unsorted, possibly out-of-range) cut points. */
export function splitAt<T extends string | Uint8Array>(input: T, cuts: number[]): T[] {
  const points = [...new Set(cuts.map((c) => (input.length === 0 ? 0 : c % (input.length + 1))))]
    .sort((a, b) => a - b);
  const parts: T[] = [];
  let prev = 0;
  for (const p of points) {
    parts.push(input.slice(prev, p) as T);
    prev = p;
  }
  parts.push(input.slice(prev) as T);
  return parts;
}
