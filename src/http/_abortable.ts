/**
 * Waiting on a promise until a signal aborts, without leaving a listener
 * behind.
 *
 * @module
 */

/** What {@link abortable} resolves with when the signal aborted first. */
export const ABORTED: unique symbol = Symbol("aborted");

/**
 * `p`'s value, or {@link ABORTED} as soon as `signal` aborts (at once when
 * it already has). A rejection of `p` rejects. The abort listener is
 * removed when `p` settles.
 */
export function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) {
    p.catch(() => {}); // settled later, nobody waits
    return Promise.resolve(ABORTED);
  }
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(ABORTED);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}
