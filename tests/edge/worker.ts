/**
 * A Cloudflare Worker test module that exercises every entry point inside
 * workerd (Cloudflare's real runtime), proving the library is edge-safe:
 * workerd has no `Deno` global and rejects `node:` builtins.
 *
 * Bundled and run by `scripts/edge_check.ts`.
 *
 * @module
 */
import * as root from "../../mod.ts";
import * as recovery from "../../recovery.ts";
import * as interactions from "../../interactions.ts";
import * as agents from "../../agents.ts";

function check(cond: unknown, what: string): void {
  if (!cond) throw new Error(`edge check failed: ${what}`);
}

export default {
  test(): void {
    const modules = { root, recovery, interactions, agents } as Record<
      string,
      Record<string, unknown>
    >;
    for (const [name, mod] of Object.entries(modules)) {
      check(Object.keys(mod).length > 0, `${name} entry point exports something`);
    }
    const r = root as Record<string, unknown>;
    // Exercise the core functions when present (by name, so this module
    // type-checks while the package grows).
    const parseChatEvent = r.parseChatEvent as ((n: string, d: unknown) => unknown) | undefined;
    if (parseChatEvent) {
      const ev = parseChatEvent("delta", { text: "hi" }) as { text?: string } | null;
      check(ev?.text === "hi", "parseChatEvent works");
    }
    const parseChatEnvelope = r.parseChatEnvelope as ((v: unknown) => { ok: boolean }) | undefined;
    if (parseChatEnvelope) {
      const res = parseChatEnvelope({
        schemaVersion: 1,
        conversationId: "c",
        turnId: "t",
        eventId: "e1",
        seq: 1,
        event: { type: "delta", text: "x" },
      });
      check(res.ok, "parseChatEnvelope accepts a valid envelope");
    }
    const splitTurnText = r.splitTurnText as ((s: string) => unknown[]) | undefined;
    if (splitTurnText) {
      check(splitTurnText('a<ask>{"question":"q"}</ask>b').length === 3, "splitTurnText works");
    }
    console.log(
      "edge check ok:",
      Object.keys(modules).map((k) => `${k}=${Object.keys(modules[k]).length}`).join(" "),
    );
  },
};
