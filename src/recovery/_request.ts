/**
 * Reading caller-supplied request objects in `./recovery` (internal: not
 * exported from any entry point).
 *
 * @module
 */

/**
 * `request[key]` for each key, each read exactly once; `{}` when `request`
 * is not an object or a getter throws (every field then fails validation).
 */
export function fields<T extends object, K extends keyof T>(
  request: T,
  keys: readonly K[],
): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  try {
    if (typeof request !== "object" || request === null) return out;
    for (const k of keys) out[k] = request[k];
    return out;
  } catch {
    return {};
  }
}
