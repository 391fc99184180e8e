/**
 * The one way this package's thrown error classes get their `name` and
 * stable `code` (`MessageArgumentError`, `SseEncodeError`,
 * `SseArgumentError`): each public class declares its `code` type and calls
 * {@link initCodedError} from its constructor.
 *
 * @module
 */

/** Set `error.name` (the class name, for stack traces) and its stable `code`. */
export function initCodedError<C extends string>(
  error: Error & { readonly code: C },
  name: string,
  code: C,
): void {
  error.name = name;
  (error as { code: C }).code = code;
}
