/**
 * Bench: the readers of untrusted messages on a cheap, hostile body: 1 MiB
 * of JSON holding 524,288 invalid parts (`[0,0,…]`). `parseChatMessage` /
 * `parseInboundChatMessage` refuse it (`too-many-parts`, over
 * `MAX_MESSAGE_PARTS`) before reading a part, so parsing the JSON text is
 * the whole cost: the goal is parse(value) ≤ 1× `JSON.parse` of the same
 * body (it was 205–272× before the bound). Also prints a body of exactly
 * `MAX_MESSAGE_PARTS` invalid parts, where checking stops at the 20th issue.
 *
 * Run: `deno run bench/message_parse_bench.ts`. Exits 1 when a goal is missed.
 *
 * @module
 */
import { MAX_MESSAGE_PARTS, parseChatMessage, parseInboundChatMessage } from "../message.ts";
import { duel, Goals } from "./_timing.ts";

const head = '{"id":"m1","threadId":"th1","authorId":"u1","role":"user",' +
  '"createdAt":"2026-01-01T00:00:00Z","parts":[';
const body = (n: number) => `${head}${Array.from({ length: n }, () => "0").join(",")}]}`;

const goals = new Goals();
for (
  const [name, parse] of [["parseChatMessage", parseChatMessage], [
    "parseInboundChatMessage",
    parseInboundChatMessage,
  ]] as const
) {
  for (const n of [524_288, MAX_MESSAGE_PARTS]) {
    const text = body(n);
    const value = JSON.parse(text);
    const [ours, json] = duel(() => parse(value), () => JSON.parse(text), 15);
    const code = ours.last.ok ? "ok" : ours.last.error.code;
    const ratio = ours.cpu / json.cpu;
    console.log(
      `${name}, ${n} invalid parts (${(text.length / 1024).toFixed(0)} KiB): ${
        ours.cpu.toFixed(3)
      } ms, JSON.parse ${json.cpu.toFixed(3)} ms, ratio ${ratio.toFixed(2)}× (${code})`,
    );
    if (n > MAX_MESSAGE_PARTS) {
      goals.check(`${name}: 1 MiB of parts ≤ 1× JSON.parse`, ratio <= 1, `${ratio.toFixed(2)}×`);
    }
  }
}
goals.finish();
