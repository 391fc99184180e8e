/**
 * Test helper: runs the real `ai@7.0.173` in a subprocess (importing `ai`
 * needs `--allow-sys=hostname`, which the test task does not grant) and
 * answers a batch of questions read as JSON from stdin:
 *
 * - `{ op: "fold", streams: unknown[][] }` → the last `readUIMessageStream`
 *   message of each stream (JSON-normalised), or `{ error }`;
 * - `{ op: "validate", messages: unknown[][] }` → `safeValidateUIMessages`
 *   success + error text per message list;
 * - `{ op: "chunk", chunks: unknown[] }` → `uiMessageChunkSchema` verdict per chunk;
 * - `{ op: "partial", texts: string[] }` → `parsePartialJson` value per text, as
 *   `{ value }` (or `{}` for `undefined`);
 * - `{ op: "json", texts: string[] }` → `JSON.parse` value per text, as
 *   `{ value }` (or `{}` when it throws).
 *
 * @module
 */
import {
  parsePartialJson,
  readUIMessageStream,
  safeValidateUIMessages,
  type UIMessageChunk,
  uiMessageChunkSchema,
} from "ai";

type Req =
  | { op: "fold"; streams: unknown[][] }
  | { op: "validate"; messages: unknown[][] }
  | { op: "chunk"; chunks: unknown[] }
  | { op: "partial"; texts: string[] }
  | { op: "json"; texts: string[] };

async function fold(chunks: unknown[]): Promise<unknown> {
  const stream = new ReadableStream({
    start(c) {
      for (const ch of chunks) c.enqueue(ch);
      c.close();
    },
  });
  let last: unknown = null;
  let error: string | undefined;
  const errors: string[] = [];
  const read = readUIMessageStream({
    stream: stream as ReadableStream<UIMessageChunk>,
    onError: (e) => {
      error ??= String(e);
      errors.push(String(e));
    },
  });
  for await (const m of read) last = m;
  return { message: JSON.parse(JSON.stringify(last)), error: error ?? null, errors };
}

const input = await new Response(Deno.stdin.readable).text();
const reqs = JSON.parse(input) as Req[];
const out: unknown[] = [];
for (const r of reqs) {
  if (r.op === "fold") out.push(await Promise.all(r.streams.map(fold)));
  else if (r.op === "json") {
    out.push(r.texts.map((t) => {
      try {
        return { value: JSON.parse(t) };
      } catch {
        return {};
      }
    }));
  } else if (r.op === "partial") {
    const res = [];
    for (const t of r.texts) {
      const { value } = await parsePartialJson(t);
      res.push(value === undefined ? {} : { value });
    }
    out.push(res);
  } else if (r.op === "validate") {
    const res = [];
    for (const messages of r.messages) {
      // deno-lint-ignore no-explicit-any
      const v = await safeValidateUIMessages({ messages: messages as any });
      res.push(
        v.success
          ? { success: true, data: JSON.parse(JSON.stringify(v.data)) }
          : { success: false, error: String(v.error).slice(0, 500) },
      );
    }
    out.push(res);
  } else {
    // deno-lint-ignore no-explicit-any
    const schema = (uiMessageChunkSchema as any)();
    const res = [];
    for (const c of r.chunks) {
      const v = await schema.validate(c);
      res.push(v.success === true);
    }
    out.push(res);
  }
}
await Deno.stdout.write(new TextEncoder().encode(JSON.stringify(out)));
