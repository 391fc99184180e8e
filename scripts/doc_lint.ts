/**
 * Runs `deno doc --lint` over every entry point in deno.json's `exports` and
 * fails on any diagnostic except `private-type-ref`, which Deno reports for
 * every exported zod schema (a known Deno bug: the schema's inferred internal
 * types are "private" to zod). Everything else (missing JSDoc, missing
 * explicit types) fails the run, and so does a `deno doc` failure that
 * printed no diagnostic at all.
 *
 * Usage: `deno task doc:lint`
 *
 * @module
 */
const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
const entries = Object.values(config.exports as Record<string, string>);
const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
  args: ["doc", "--lint", ...entries],
  env: { NO_COLOR: "1", RUST_BACKTRACE: "0" },
  stdout: "piped",
  stderr: "piped",
}).output();
const text = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
// Diagnostics look like `error[code]: message` followed by location lines and a blank line.
const blocks = text.split(/\n(?=error\[|warning\[)/).filter((b) => /^(error|warning)\[/.test(b));
const isKnownBug = (b: string) => /^(error|warning)\[private-type-ref\]/.test(b);
const kept = blocks.filter((b) => !isKnownBug(b));
const ignored = blocks.length - kept.length;
if (kept.length > 0 || (code !== 0 && blocks.length === 0)) {
  console.error(kept.length > 0 ? kept.join("\n") : text);
  console.error(`doc lint: ${kept.length} problem(s) (${ignored} private-type-ref ignored)`);
  Deno.exit(1);
}
console.log(
  `doc lint: clean over ${entries.length} entry points (${ignored} private-type-ref diagnostics ignored: known Deno bug with zod schemas)`,
);
