/**
 * The one way the library's zod schemas read a record (`{ [key]: value }`)
 * from untrusted input: like `z.record`, but an own `"__proto__"` key is
 * refused (an issue at that key), never stripped. zod's own `z.record`
 * skips such a key silently (it would otherwise replace the prototype of
 * the object it builds), so a document came back without it and still
 * parsed: a silent change of what was sent. `JSON.parse` makes such a key
 * an own data property, so it does reach us.
 *
 * The JSON Schema generator (`scripts/json_schema.ts`) recognises these
 * schemas by {@link refuseProtoKey} and writes the same refusal.
 *
 * @module
 */
import { z } from "zod";

/** The message of the refusal (one sentence). */
export const PROTO_KEY_MESSAGE = 'an own "__proto__" key is refused (never stripped)';

/**
 * The check before the record is read: adds an issue when `value` is an
 * object with an own `"__proto__"` key, and hands `value` on unchanged.
 */
export function refuseProtoKey(value: unknown, ctx: z.core.$RefinementCtx<unknown>): unknown {
  if (typeof value === "object" && value !== null && Object.hasOwn(value, "__proto__")) {
    ctx.addIssue({ code: "custom", message: PROTO_KEY_MESSAGE, path: ["__proto__"], input: value });
  }
  return value;
}

/**
 * `schema` (a `z.record`, possibly refined) behind {@link refuseProtoKey}:
 * an own `"__proto__"` key is refused before the record is read.
 */
export function refusingProtoKey<S extends z.core.SomeType>(
  schema: S,
): z.ZodPreprocess<S, unknown> {
  return z.preprocess(refuseProtoKey, schema);
}

/** `z.record(key, value)` that refuses an own `"__proto__"` key (see the module doc). */
export function ownRecord<K extends z.core.$ZodRecordKey, V extends z.core.SomeType>(
  key: K,
  value: V,
): z.ZodPreprocess<z.ZodRecord<K, V>, unknown> {
  return refusingProtoKey(z.record(key, value));
}
