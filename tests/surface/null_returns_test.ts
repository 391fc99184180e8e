/**
 * The error model's one exception (CONTRIBUTING, "Error model"): a public
 * reader of untrusted input (`parse*`, `read*`, `decode*`) answers a
 * `Result`, except the seed's parsers whose `null` the v0-wire spec
 * documents (§3 `parseChatEvent`, §4 `decodeCardOptions`, §5
 * `parseReportBlock` / `parseGoalOwnerReportRef`, §6 `parseAskBlock` /
 * `parseAskBody` / `parseAskTag`) and the two report forms that mirror their
 * ask twins (`parseReportBody`, `parseReportTag`). A new `null` reader fails.
 */
import assert from "node:assert/strict";
import { ENTRY_POINTS, runDeno } from "./_surface.ts";

const SEED_NULL: readonly string[] = [
  "./blocks parseAskBlock",
  "./blocks parseAskBody",
  "./blocks parseAskTag",
  "./blocks parseGoalOwnerReportRef",
  "./blocks parseReportBlock",
  "./blocks parseReportBody",
  "./blocks parseReportTag",
  "./cards decodeCardOptions",
  "./v0 parseChatEvent",
];

interface TypeNode {
  kind?: string;
  value?: unknown;
}

interface FnNode {
  name: string;
  declarations: { kind: string; def?: { returnType?: TypeNode } }[];
}

/** True when the return type itself is `null` or a union with `null` (not a `Result<T | null>`). */
function answersNull(t: TypeNode | undefined): boolean {
  if (t?.kind === "keyword") return t.value === "null";
  return t?.kind === "union" && Array.isArray(t.value) &&
    t.value.some((m: TypeNode) => m.kind === "keyword" && m.value === "null");
}

Deno.test("only the seed's documented parsers answer null; every other reader a Result", async () => {
  const found: string[] = [];
  for (const [key, url] of ENTRY_POINTS) {
    const doc = JSON.parse(await runDeno(["doc", "--json", url.href])) as {
      nodes: Record<string, { symbols?: FnNode[] }>;
    };
    for (const { symbols = [] } of Object.values(doc.nodes)) {
      for (const s of symbols) {
        if (!/^(parse|read|decode)[A-Z]/.test(s.name)) continue;
        for (const d of s.declarations) {
          if (d.kind !== "function") continue;
          if (answersNull(d.def?.returnType)) found.push(`${key} ${s.name}`);
        }
      }
    }
  }
  assert.deepEqual([...new Set(found)].sort(), SEED_NULL);
});
