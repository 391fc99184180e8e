/**
 * The TypeScript testee of the conformance corpus: speaks protocol
 * `papercusp-conformance/1` on stdin/stdout (one JSON object per line; see
 * `conformance/README.md`) and runs each case against this library.
 *
 * With `--mutation`, a case line may carry `"mutant": "<rule id>"`: the case
 * then runs with that rule switched off in this harness ({@link MUTANTS});
 * without the flag such a line is answered with an error.
 *
 * Usage: `deno run --allow-read conformance/ts/testee.ts [--mutation]`
 *
 * @module
 */
import { CASE_KINDS, type CaseKind, type JsonObject, runCase } from "./kinds.ts";
import { MUTANTS } from "./mutants.ts";

/** The protocol this testee speaks. */
export const PROTOCOL = "papercusp-conformance/1";

const mutation = Deno.args.includes("--mutation");
const encoder = new TextEncoder();

async function write(obj: unknown): Promise<void> {
  const bytes = encoder.encode(JSON.stringify(obj) + "\n");
  let written = 0;
  while (written < bytes.length) written += await Deno.stdout.write(bytes.subarray(written));
}

async function answer(line: string): Promise<void> {
  let msg: JsonObject;
  try {
    msg = JSON.parse(line);
  } catch {
    await write({ type: "error", id: null, message: "the line is not JSON" });
    return;
  }
  if (msg.type === "hello") {
    await write({
      type: "hello",
      protocol: PROTOCOL,
      testee: "@papercusp/chat-protocol (TypeScript)",
      kinds: [...CASE_KINDS],
    });
    return;
  }
  const id = msg.id ?? null;
  if (msg.type !== "case") {
    await write({ type: "error", id, message: `unknown message type ${JSON.stringify(msg.type)}` });
    return;
  }
  try {
    let hooks = {};
    if (msg.mutant !== undefined) {
      const make = MUTANTS[msg.mutant as string];
      if (!mutation) throw new Error("a mutant needs the --mutation flag");
      if (make === undefined) throw new Error(`no mutant for rule ${msg.mutant}`);
      hooks = make();
    }
    const outcome = await runCase(msg.kind as CaseKind, msg.input as JsonObject, hooks);
    await write({ type: "outcome", id, outcome });
  } catch (e) {
    await write({ type: "error", id, message: e instanceof Error ? e.message : String(e) });
  }
}

const decoder = new TextDecoder();
let buffer = "";
for await (const chunk of Deno.stdin.readable) {
  buffer += decoder.decode(chunk, { stream: true });
  let nl = buffer.indexOf("\n");
  while (nl !== -1) {
    const line = buffer.slice(0, nl);
    buffer = buffer.slice(nl + 1);
    if (line.trim() !== "") await answer(line);
    nl = buffer.indexOf("\n");
  }
}
if (buffer.trim() !== "") await answer(buffer);
