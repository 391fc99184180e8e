/**
 * A Cloudflare Worker test module that runs the library inside workerd
 * (Cloudflare's real runtime), proving it is edge-safe: workerd has no `Deno`
 * global and rejects `node:` builtins. Every entry point is exercised, and
 * the recovery and interactions conformance kits run in full against their
 * in-memory reference stores.
 *
 * Bundled and run by `scripts/edge_check.ts`.
 *
 * @module
 */
import {
  foldUIMessage,
  parseChatEnvelope,
  parseChatEvent,
  splitTurnText,
  type SseMessage,
  SseParser,
} from "../../mod.ts";
import { memoryConformanceHost, recoveryConformanceCases } from "../../src/recovery/testing.ts";
import {
  interactionStoreConformance,
  memoryInteractionHarness,
} from "../../src/interactions/testing.ts";
import { glowStrength, layoutSpawnTree } from "../../agents.ts";

function check(cond: unknown, what: string): void {
  if (!cond) throw new Error(`edge check failed: ${what}`);
}

async function runCases(
  label: string,
  cases: readonly { name: string; skip?: string; run(): Promise<void> }[],
): Promise<number> {
  let ran = 0;
  for (const c of cases) {
    if (c.skip !== undefined) continue;
    try {
      await c.run();
    } catch (e) {
      throw new Error(`edge check failed: ${label} case "${c.name}": ${String(e)}`);
    }
    ran++;
  }
  check(ran > 0, `${label} ran no case`);
  return ran;
}

export default {
  async test(): Promise<void> {
    check(parseChatEvent("delta", { text: "hi" })?.type === "delta", "parseChatEvent");
    const env = parseChatEnvelope({
      schemaVersion: 1,
      conversationId: "c",
      turnId: "t",
      eventId: "e1",
      seq: 1,
      event: { type: "delta", text: "x" },
    });
    check(env.ok, "parseChatEnvelope accepts a valid envelope");
    check(splitTurnText('a<ask>{"question":"q"}</ask>b').length === 3, "splitTurnText");
    const got: SseMessage[] = [];
    const parser = new SseParser({ onEvent: (m) => got.push(m) });
    parser.feed(new TextEncoder().encode('id: 1\ndata: {"a":1}\n\n'));
    check(got.length === 1 && got[0].data === '{"a":1}', "SseParser decodes bytes");
    check(foldUIMessage([{ type: "start", messageId: "m" }]).message.id === "m", "foldUIMessage");
    check(layoutSpawnTree([]).nodes.length === 0, "layoutSpawnTree");
    check(glowStrength({ at: 0 } as never, 0) === 1, "glowStrength");

    const recovery = await runCases(
      "recovery conformance",
      recoveryConformanceCases(() => memoryConformanceHost(), { holdMs: 20 }),
    );
    const interactions = await runCases(
      "interactions conformance",
      interactionStoreConformance(() => memoryInteractionHarness(), { holdMs: 20 }),
    );
    console.log(
      `edge check ok: core functions, ${recovery} recovery and ${interactions} interactions conformance cases`,
    );
  },
};
