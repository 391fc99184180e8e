/**
 * Reading an argument of a typed builder of this area: each field once,
 * and a {@link MessageArgumentError} (never another error) when it cannot be
 * read.
 *
 * @module
 */
import { readFields } from "../_internal/fields.ts";
import { MessageArgumentError } from "./errors.ts";

/**
 * `keys` of `value`, each read once (plain property access), as a fresh
 * record. Throws {@link MessageArgumentError} (`invalid-argument`, naming
 * `what`) when `value` is not an object or reading a field threw.
 */
export function readArgument<K extends string>(
  value: unknown,
  keys: readonly K[],
  what: string,
): { readonly [P in K]: unknown } {
  const fields = readFields(value, keys);
  if (fields === null) {
    throw new MessageArgumentError("invalid-argument", `${what} could not be read`);
  }
  return fields;
}
