/**
 * Runs `deno doc --lint` over the four entry points and fails on any
 * diagnostic except `private-type-ref`, which Deno reports for every exported
 * zod schema (a known Deno bug: the schema's inferred internal types are
 * "private" to zod). Everything else (missing JSDoc, missing explicit return
 * types) fails the run.
 *
 * Usage: `deno task doc:lint`
 *
 * @module
 */
const { stdout, stderr } = await new Deno.Command(Deno.execPath(), {
  args: ["doc", "--lint", "mod.ts", "recovery.ts", "interactions.ts", "agents.ts"],
  env: { NO_COLOR: "1", RUST_BACKTRACE: "0" },
  stdout: "piped",
  stderr: "piped",
}).output();
const text = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
// Diagnostics look like `error[code]: message` followed by location lines and a blank line.
const blocks = text.split(/\n(?=error\[|warning\[)/);
const kept = blocks.filter((b) =>
  /^(error|warning)\[/.test(b) && !/^(error|warning)\[private-type-ref\]/.test(b)
);
const ignored = blocks.filter((b) => /^(error|warning)\[private-type-ref\]/.test(b)).length;
if (kept.length > 0) {
  console.error(kept.join("\n"));
  console.error(`doc lint: ${kept.length} problem(s) (${ignored} private-type-ref ignored)`);
  Deno.exit(1);
}
console.log(
  `doc lint: clean (${ignored} private-type-ref diagnostics ignored: known Deno bug with zod schemas)`,
);
