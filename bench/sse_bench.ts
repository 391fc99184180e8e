/**
 * SSE decoder throughput: our {@link SseParser} vs `eventsource-parser@3.1.1`
 * on a ≥ 10 MB capture of v1-style envelope frames, both fed the same 16 KiB
 * chunks, as text (slices of the capture string, and the same chunks as flat
 * strings, which is what decoded network text is) and as UTF-8 bytes
 * (eventsource-parser only takes text, so its bytes run goes through a
 * streaming `TextDecoder`, which is what its own `EventSourceParserStream`
 * users do with `TextDecoderStream`).
 *
 * Two ways to run it:
 * - `deno run -A bench/sse_bench.ts` prints MB/s for each and the ratio
 *   (ours / eventsource-parser), from the best of 40 alternating runs, by
 *   process CPU time (robust on a shared machine) and by wall time, plus
 *   linear-time checks on pathological chunkings. Goals (issue 2): the CPU
 *   time ratio is ≥ 1.0 for text, flat text and bytes, and each
 *   pathological chunking takes ≤ 2.3× the time of the same input in one
 *   chunk per line (linear); exits 1 when one is missed.
 *
 * The consumer callback reads each message's data (length and first code
 * unit), as every real consumer does: eventsource-parser builds multi-line
 * data by string concatenation, which V8 keeps as a rope that is flattened on
 * first read, so a callback that never read the data would not pay for it.
 * - `deno bench -A bench/sse_bench.ts` runs the same cases as `Deno.bench`.
 *
 * @module
 */
import { createParser } from "eventsource-parser";
import { encodeSseComment, encodeSseFrame, SseParser } from "../sse.ts";
import { bestOf, duel, Goals } from "./_timing.ts";

const CHUNK = 16 * 1024;
const TARGET_BYTES = 10 * 1024 * 1024 + 1;

/** Deterministic PRNG (mulberry32) so every run benchmarks the same capture. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  "the",
  "card",
  "turn",
  "résumé",
  "tool",
  "answer",
  "naïve",
  "stream",
  "😀",
  "λ",
  "search_products",
  "Käse",
  "delta",
  "ok",
];

/** Build the capture: v1-ish envelopes as SSE frames, with heartbeats and some multi-line data. */
export function buildCapture(): string {
  const rand = rng(42);
  const word = () => WORDS[Math.floor(rand() * WORDS.length)];
  const parts: string[] = [];
  let size = 0;
  let seq = 0;
  let turn = 0;
  while (size < TARGET_BYTES) {
    if (seq === 0 || rand() < 0.002) {
      turn++;
      seq = 0;
    }
    seq++;
    const r = rand();
    let type: string;
    let event: Record<string, unknown>;
    if (r < 0.7) {
      type = "delta";
      const n = 1 + Math.floor(rand() * 12);
      event = { type, text: Array.from({ length: n }, word).join(" ") };
    } else if (r < 0.8) {
      type = "tool_call";
      event = {
        type,
        name: "chat:ask_choice",
        callId: `call-${turn}-${seq}`,
        input: { prompt: Array.from({ length: 8 }, word).join(" "), options: ["a", "b", "c"] },
      };
    } else if (r < 0.9) {
      type = "tool_result";
      event = {
        type,
        name: "search",
        callId: `call-${turn}-${seq - 1}`,
        ok: true,
        summary: word(),
      };
    } else if (r < 0.97) {
      type = "reasoning";
      event = { type, text: Array.from({ length: 30 }, word).join(" ") };
    } else {
      type = "turn_status";
      event = { type, status: "running" };
    }
    const envelope = {
      schemaVersion: 1,
      conversationId: "conv-7f3a9c",
      turnId: `turn-${turn}`,
      eventId: `evt-${turn}-${seq}`,
      seq,
      at: 1767225600000 + turn * 1000 + seq,
      event,
    };
    // Mostly compact JSON (one data line), sometimes pretty-printed (multi-line data).
    const data = rand() < 0.05 ? JSON.stringify(envelope, null, 2) : JSON.stringify(envelope);
    const frame = rand() < 0.02
      ? encodeSseComment("heartbeat")
      : encodeSseFrame({ id: `${turn}:${seq}`, event: type, data });
    parts.push(frame);
    size += frame.length;
  }
  return parts.join("");
}

function chunkText(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += CHUNK) out.push(text.slice(i, i + CHUNK));
  return out;
}

function chunkBytes(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += CHUNK) out.push(bytes.subarray(i, i + CHUNK));
  return out;
}

/** Decode with our parser; returns a checksum (message count + data length). */
export function runOurs(chunks: readonly (string | Uint8Array)[]): number {
  let sum = 0;
  const parser = new SseParser({
    onEvent: (m) => {
      sum += 1 + m.data.length + (m.data.charCodeAt(0) | 0);
    },
  });
  for (const c of chunks) parser.feed(c);
  parser.end();
  return sum;
}

/** Decode with eventsource-parser; byte chunks go through a streaming TextDecoder. */
export function runReference(chunks: readonly (string | Uint8Array)[]): number {
  let sum = 0;
  const parser = createParser({
    onEvent: (m) => {
      sum += 1 + m.data.length + (m.data.charCodeAt(0) | 0);
    },
  });
  const decoder = new TextDecoder();
  for (const c of chunks) {
    parser.feed(typeof c === "string" ? c : decoder.decode(c, { stream: true }));
  }
  parser.feed(decoder.decode());
  return sum;
}

const capture = buildCapture();
const bytes = new TextEncoder().encode(capture);
const textChunks = chunkText(capture);
/**
 * The same text chunks as flat strings. `capture.slice()` chunks are V8
 * SlicedStrings of the 10 MB capture, so every `charCodeAt` / `indexOf` /
 * `slice` on them goes through an indirection (eventsource-parser sidesteps
 * it by copying each chunk into a flat string when it joins the previous
 * partial line). Text from a `TextDecoder(Stream)`, `Response.text()` or a
 * socket is flat, so this row is what real text input looks like; the row
 * above is kept unchanged. `JSON.parse(JSON.stringify(c))` makes a fresh
 * flat copy with exactly the same code units (lone surrogates included).
 */
const flatTextChunks = textChunks.map((c) => JSON.parse(JSON.stringify(c)) as string);
const byteChunks = chunkBytes(bytes);

Deno.bench("sse decode text 16 KiB chunks: ours", { group: "text", baseline: true }, () => {
  runOurs(textChunks);
});
Deno.bench("sse decode text 16 KiB chunks: eventsource-parser", { group: "text" }, () => {
  runReference(textChunks);
});
Deno.bench("sse decode flat text 16 KiB chunks: ours", { group: "flat", baseline: true }, () => {
  runOurs(flatTextChunks);
});
Deno.bench("sse decode flat text 16 KiB chunks: eventsource-parser", { group: "flat" }, () => {
  runReference(flatTextChunks);
});
Deno.bench("sse decode bytes 16 KiB chunks: ours", { group: "bytes", baseline: true }, () => {
  runOurs(byteChunks);
});
Deno.bench("sse decode bytes 16 KiB chunks: eventsource-parser", { group: "bytes" }, () => {
  runReference(byteChunks);
});

function main(): void {
  const goals = new Goals();
  const mb = bytes.length / 1e6;
  console.log(
    `capture: ${mb.toFixed(2)} MB (${bytes.length} bytes, ${capture.length} UTF-16 units), ` +
      `${textChunks.length} chunks of ${CHUNK} units/bytes`,
  );
  const runs = 40;
  for (
    const [label, chunks] of [
      ["text", textChunks],
      ["text (flat chunks)", flatTextChunks],
      ["bytes", byteChunks],
    ] as const
  ) {
    const [ours, ref] = duel(() => runOurs(chunks), () => runReference(chunks), runs);
    if (ours.last !== ref.last) {
      throw new Error(`checksum mismatch on ${label}: ${ours.last} vs ${ref.last}`);
    }
    for (const clock of ["cpu", "wall"] as const) {
      const oursMBs = mb / (ours[clock] / 1000);
      const refMBs = mb / (ref[clock] / 1000);
      console.log(
        `${label.padEnd(18)} (${clock.padEnd(4)})  ours ${oursMBs.toFixed(1).padStart(7)} MB/s   ` +
          `eventsource-parser ${refMBs.toFixed(1).padStart(7)} MB/s   ` +
          `ratio ${(oursMBs / refMBs).toFixed(2)}x`,
      );
    }
    const ratio = ref.cpu / ours.cpu;
    goals.check(
      `${label}: ours / eventsource-parser ≥ 1.0× (CPU time)`,
      ratio >= 1,
      `${ratio.toFixed(2)}×`,
    );
  }

  // Linear time on pathological chunkings: twice the input takes about twice
  // the time (no quadratic blow-up from re-scanning or joining held text).
  // Half a MB and one MB, so the longest line stays under the 1 MiB bound.
  const giant = (n: number) => [..."data: " + "x".repeat(n) + "\n\n"];
  const tiny = (n: number) => [..."data: a\n\n".repeat(n / 9)];
  const lfThenCr = (n: number) => [("data: " + "y".repeat(10) + "\n\n").repeat(n / 18) + "\r\n"];
  for (
    const [label, make] of [
      ["one long line in 1-unit chunks", giant],
      ["tiny events in 1-unit chunks", tiny],
      ["LF-only events + one CR at the end, one chunk", lfThenCr],
    ] as const
  ) {
    const one = make(500_000);
    const two = make(1_000_000);
    const [t1, t2] = duel(() => runOurs(one), () => runOurs(two), 5);
    const ref = bestOf(() => runReference(one), 1, 1);
    const ratio = t2.cpu / t1.cpu;
    console.log(
      `${label}: ours 0.5 MB ${t1.cpu.toFixed(1)} ms, 1 MB ${t2.cpu.toFixed(1)} ms; ` +
        `eventsource-parser ${ref.cpu.toFixed(1)} ms (CPU)`,
    );
    goals.check(`${label}: linear (1 MB / 0.5 MB ≤ 2.3×)`, ratio <= 2.3, `${ratio.toFixed(2)}×`);
  }
  goals.finish();
}

// `deno bench` loads this module with import.meta.main === false: only the Deno.bench cases run.
if (import.meta.main) main();
