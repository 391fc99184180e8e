/**
 * For a promise a test creates now and awaits later: `handled(p)` attaches a
 * handler at once and returns `p` itself, so a rejection before the test's
 * `await p` is never an unhandled rejection (which Deno reports as an
 * uncaught error that ends the whole test module); `await p` still throws it.
 */
export function handled<T>(p: Promise<T>): Promise<T> {
  p.catch(() => {});
  return p;
}
