/**
 * Golden-file helper for tests: compares a value with a checked-in JSON file
 * under `fixtures/`, or rewrites it when the test runs with `-- --update`.
 *
 * @module
 */
import assert from "node:assert/strict";

const UPDATE = Deno.args.includes("--update");

/** Compare `actual` (JSON-serialised, 2-space indent) with `fixtures/<path>`. */
export async function assertGolden(path: string, actual: unknown): Promise<void> {
  const url = new URL(`../../fixtures/${path}`, import.meta.url);
  const text = JSON.stringify(actual, null, 2) + "\n";
  if (UPDATE) {
    await Deno.mkdir(new URL(".", url), { recursive: true });
    await Deno.writeTextFile(url, text);
    return;
  }
  let expected: string;
  try {
    expected = await Deno.readTextFile(url);
  } catch {
    throw new Error(`golden file fixtures/${path} is missing: run the test with -- --update`);
  }
  assert.deepEqual(JSON.parse(text), JSON.parse(expected), `golden mismatch: fixtures/${path}`);
}

/** Read a fixture file as text. */
export function readFixture(path: string): Promise<string> {
  return Deno.readTextFile(new URL(`../../fixtures/${path}`, import.meta.url));
}
