/**
 * Runs `deno doc --lint` over every entry point in deno.json's `exports`
 * (the core's, or a workspace member's when its folder is given, e.g.
 * `postgres`) together (as JSR documents the package: a type exported by any
 * entry point is public) and fails on any diagnostic except a
 * `private-type-ref` to one of zod's own types (`ZodType`, `$ZodType…`), which
 * Deno reports for every exported zod schema (a known Deno bug: zod's types
 * are "private" to the package that re-exports a schema). A reference to one
 * of OUR types that no entry point exports still fails, as does everything
 * else (missing JSDoc, missing explicit types) and a `deno doc` failure that
 * printed no diagnostic at all. For a member, diagnostics located in another
 * package's files (the core's types its signatures reach) are left to that
 * package's own run.
 *
 * Usage: `deno task doc:lint` (both packages), or
 * `deno run … scripts/doc_lint.ts [member-folder]`
 *
 * @module
 */
const member = Deno.args[0];
const dir = new URL(member ? `../${member}/` : "../", import.meta.url);
const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", dir)));
const entries = Object.values(config.exports as Record<string, string>).map((e) =>
  new URL(e, dir).pathname
);
const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
  args: ["doc", "--lint", ...entries],
  env: { NO_COLOR: "1", RUST_BACKTRACE: "0" },
  stdout: "piped",
  stderr: "piped",
}).output();
const text = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
// Diagnostics look like `error[code]: message` followed by location lines and a blank line.
const blocks = text.split(/\n(?=error\[|warning\[)/).filter((b) => /^(error|warning)\[/.test(b));
const isKnownBug = (b: string) =>
  /^(error|warning)\[private-type-ref\]: public type '[^']+' references private type '\$?Zod\w*'/
    .test(b);
// A member's run judges the member's own files: a diagnostic located in another
// package (the core's types, reached through the member's signatures) belongs to
// that package's run.
const memberDir = member ? new URL(dir).pathname : null;
const elsewhere = (b: string) => {
  const at = /-->\s+(\S+):\d+:\d+/.exec(b)?.[1];
  return memberDir !== null && at !== undefined && !at.startsWith(memberDir);
};
const kept = blocks.filter((b) => !isKnownBug(b) && !elsewhere(b));
const ignored = blocks.length - kept.length;
if (kept.length > 0 || (code !== 0 && blocks.length === 0)) {
  console.error(kept.length > 0 ? kept.join("\n") : text);
  console.error(`doc lint: ${kept.length} problem(s) (${ignored} zod private-type-ref ignored)`);
  Deno.exit(1);
}
console.log(
  `doc lint: clean over ${entries.length} entry points (${ignored} ignored: private-type-ref to zod types, a known Deno bug${
    member ? ", or located in another package" : ""
  })`,
);
