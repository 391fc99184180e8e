/**
 * CONTRIBUTING marks an internal module one way only (a leading underscore,
 * or src/_internal/); no `@internal` tag. The agents folds' checked-row
 * forms live in src/agents/_fold_window.ts, _spawn_forest.ts,
 * _lifecycle_fold.ts and _layout_fold.ts; a new tag fails this test.
 */
import assert from "node:assert/strict";

/** Files allowed an `@internal` tag, and how many: none. */
const REMAINING: Record<string, number> = {};

Deno.test("no @internal tags (src/, postgres/src/)", () => {
  const found: Record<string, number> = {};
  const walk = (dir: URL, rel: string) => {
    for (const e of Deno.readDirSync(dir)) {
      if (e.isDirectory) walk(new URL(`${e.name}/`, dir), `${rel}${e.name}/`);
      else if (e.name.endsWith(".ts")) {
        const n = Deno.readTextFileSync(new URL(e.name, dir)).split("@internal").length - 1;
        if (n > 0) found[`${rel}${e.name}`] = n;
      }
    }
  };
  walk(new URL("../../src/", import.meta.url), "src/");
  walk(new URL("../../postgres/src/", import.meta.url), "postgres/src/");
  for (const [file, n] of Object.entries(found)) {
    assert.ok(
      n <= (REMAINING[file] ?? 0),
      `${file}: ${n} @internal tag(s); use an underscore module`,
    );
  }
});
