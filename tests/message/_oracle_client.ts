/**
 * Test helper: ask the real AI SDK (see `_ai_oracle.ts`) a batch of questions
 * in one subprocess.
 *
 * @module
 */
const ORACLE = new URL("./_ai_oracle.ts", import.meta.url);

/** Run the oracle on `requests`; returns one answer per request. */
export async function askAi(requests: unknown[]): Promise<unknown[]> {
  const cmd = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--allow-read",
      "--allow-env",
      "--allow-sys=hostname",
      ORACLE.pathname,
    ],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { RUST_BACKTRACE: "0" },
  });
  const child = cmd.spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(JSON.stringify(requests)));
  await w.close();
  const { code, stdout, stderr } = await child.output();
  if (code !== 0) throw new Error(`ai oracle failed: ${new TextDecoder().decode(stderr)}`);
  return JSON.parse(new TextDecoder().decode(stdout));
}

/** JSON-normalise a value (drops `undefined` keys), as the fixtures are stored. */
export function json<T>(v: T): T {
  return JSON.parse(JSON.stringify(v));
}
