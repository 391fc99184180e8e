/**
 * The Standard Schema interface (vendored) and a {@link standardValidate}
 * helper that runs any Standard Schema validator (zod 4, valibot, arktype, ...)
 * and normalises its sync or async result into a {@link Result}.
 *
 * The `StandardTypedV1` and `StandardSchemaV1` types below are copied from the
 * Standard Schema specification, `@standard-schema/spec` 1.1.0
 * (https://github.com/standard-schema/standard-schema, https://standardschema.dev),
 * `dist/index.d.ts`, MIT License, Copyright (c) 2024 Colin McDonnell. They
 * are vendored so that this package has no validator dependency. The
 * declarations are the published ones member for member (`Props` and `Types`
 * extend the `StandardTypedV1` ones, `InferInput` / `InferOutput` accept any
 * `StandardTypedV1`); only the `export` keywords and the JSDoc on the
 * namespaces and on `Options` are ours. `StandardJSONSchemaV1` from the same
 * file is not vendored. Any conforming schema (for example a zod 4 schema, as
 * it is) is assignable to them.
 *
 * @module
 */
import { err, ok, type Result } from "../result.ts";

/**
 * The Standard Typed interface. This is a base type extended by other specs.
 * (Vendored from `@standard-schema/spec` 1.1.0, MIT, Copyright (c) 2024 Colin
 * McDonnell.)
 */
export interface StandardTypedV1<Input = unknown, Output = Input> {
  /** The Standard properties. */
  readonly "~standard": StandardTypedV1.Props<Input, Output>;
}

/** Types belonging to {@link StandardTypedV1} (vendored, see the module docs). */
export declare namespace StandardTypedV1 {
  /** The Standard Typed properties interface. */
  export interface Props<Input = unknown, Output = Input> {
    /** The version number of the standard. */
    readonly version: 1;
    /** The vendor name of the schema library. */
    readonly vendor: string;
    /** Inferred types associated with the schema. */
    readonly types?: Types<Input, Output> | undefined;
  }
  /** The Standard Typed types interface. */
  export interface Types<Input = unknown, Output = Input> {
    /** The input type of the schema. */
    readonly input: Input;
    /** The output type of the schema. */
    readonly output: Output;
  }
  /** Infers the input type of a Standard Typed. */
  export type InferInput<Schema extends StandardTypedV1> = NonNullable<
    Schema["~standard"]["types"]
  >["input"];
  /** Infers the output type of a Standard Typed. */
  export type InferOutput<Schema extends StandardTypedV1> = NonNullable<
    Schema["~standard"]["types"]
  >["output"];
}

/**
 * The Standard Schema interface (vendored from `@standard-schema/spec` 1.1.0,
 * MIT, Copyright (c) 2024 Colin McDonnell). A schema exposes a `~standard`
 * property with `version: 1`, a `vendor` name and a `validate` function that
 * returns its result synchronously or as a Promise.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The Standard Schema properties. */
  readonly "~standard": StandardSchemaV1.Props<Input, Output>;
}

/** Types belonging to {@link StandardSchemaV1} (vendored, see the module docs). */
export declare namespace StandardSchemaV1 {
  /** The Standard Schema properties interface. */
  export interface Props<Input = unknown, Output = Input>
    extends StandardTypedV1.Props<Input, Output> {
    /** Validates unknown input values. */
    readonly validate: (
      value: unknown,
      options?: StandardSchemaV1.Options | undefined,
    ) => Result<Output> | Promise<Result<Output>>;
  }
  /** The result interface of the validate function. */
  export type Result<Output> = SuccessResult<Output> | FailureResult;
  /** The result interface if validation succeeds. */
  export interface SuccessResult<Output> {
    /** The typed output value. */
    readonly value: Output;
    /** A falsy value for `issues` indicates success. */
    readonly issues?: undefined;
  }
  /** Options passed to `validate`. */
  export interface Options {
    /** Explicit support for additional vendor-specific parameters, if needed. */
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
  /** The result interface if validation fails. */
  export interface FailureResult {
    /** The issues of failed validation. */
    readonly issues: ReadonlyArray<Issue>;
  }
  /** The issue interface of the failure output. */
  export interface Issue {
    /** The error message of the issue. */
    readonly message: string;
    /** The path of the issue, if any. */
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  /** The path segment interface of the issue. */
  export interface PathSegment {
    /** The key representing a path segment. */
    readonly key: PropertyKey;
  }
  /** The Standard types interface. */
  export interface Types<Input = unknown, Output = Input>
    extends StandardTypedV1.Types<Input, Output> {}
  /** Infers the input type of a Standard. */
  export type InferInput<Schema extends StandardTypedV1> = StandardTypedV1.InferInput<Schema>;
  /** Infers the output type of a Standard. */
  export type InferOutput<Schema extends StandardTypedV1> = StandardTypedV1.InferOutput<Schema>;
}

/**
 * One validation issue as this package reports it: a plain, JSON-safe copy of
 * a Standard Schema issue. `path` holds property keys only (path segment
 * objects are unwrapped; symbol keys become their description string,
 * numbers other than non-negative safe integers become strings, any other
 * key becomes `"?"`).
 */
export interface ValidationIssue {
  /** The validator's message. */
  readonly message: string;
  /** Where in the value the issue is; absent for the root. */
  readonly path?: readonly (string | number)[];
}

/** The refusal {@link standardValidate} returns when a value does not pass. */
export interface ValidationRefusal {
  /** Always `"invalid"`. */
  readonly code: "invalid";
  /** One sentence summary. */
  readonly message: string;
  /** The validator's issues, copied (at most {@link MAX_VALIDATION_ISSUES}). */
  readonly issues: readonly ValidationIssue[];
}

/** The most issues {@link standardValidate} copies from one failed validation. */
export const MAX_VALIDATION_ISSUES = 100;
/** Longest issue message {@link standardValidate} copies, in characters (longer ones are cut). */
export const MAX_ISSUE_MESSAGE_LENGTH = 1000;
/** Most path segments {@link standardValidate} copies per issue (deeper paths are cut). */
export const MAX_ISSUE_PATH_LENGTH = 64;

/** A non-null object, array or function (a Standard Schema may be a function, e.g. ArkType). */
function isObjectLike(v: unknown): v is Record<string, unknown> {
  return (typeof v === "object" && v !== null) || typeof v === "function";
}

/**
 * `true` when `value` looks like a Standard Schema (version 1): it has a
 * `~standard` object with `version === 1` and a `validate` function.
 * Never throws (a throwing getter or proxy trap reads as "not a schema").
 */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  try {
    if (!isObjectLike(value)) return false;
    const props = (value as Record<string, unknown>)["~standard"];
    if (!isObjectLike(props)) return false;
    return props.version === 1 && typeof props.validate === "function";
  } catch {
    return false;
  }
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max);
}

/** A path key as a string or an integer index; never throws (odd keys become `"?"`). */
function copyKey(k: unknown): string | number {
  if (typeof k === "number") return Number.isSafeInteger(k) && k >= 0 ? k : String(k);
  if (typeof k === "string") return cut(k, MAX_ISSUE_MESSAGE_LENGTH);
  if (typeof k === "symbol") return cut(k.description ?? "", MAX_ISSUE_MESSAGE_LENGTH);
  return "?";
}

function copyIssues(issues: readonly unknown[]): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const n = Math.min(issues.length, MAX_VALIDATION_ISSUES);
  for (let i = 0; i < n; i++) {
    const raw = issues[i];
    const r = isObjectLike(raw) ? raw : {};
    const message = typeof r.message === "string"
      ? cut(r.message, MAX_ISSUE_MESSAGE_LENGTH)
      : "invalid value";
    const rawPath = Array.isArray(r.path) ? r.path : undefined;
    if (rawPath === undefined || rawPath.length === 0) {
      out.push({ message });
      continue;
    }
    const path: (string | number)[] = [];
    const m = Math.min(rawPath.length, MAX_ISSUE_PATH_LENGTH);
    for (let j = 0; j < m; j++) {
      const seg = rawPath[j];
      path.push(isObjectLike(seg) && Object.hasOwn(seg, "key") ? copyKey(seg.key) : copyKey(seg));
    }
    out.push({ message, path });
  }
  return out;
}

function refuse(issues: ValidationIssue[]): { ok: false; error: ValidationRefusal } {
  const n = issues.length;
  return err({
    code: "invalid",
    message: `value failed validation (${n} issue${n === 1 ? "" : "s"})`,
    issues,
  });
}

/**
 * Run a Standard Schema validator on `value` and normalise the outcome.
 *
 * Handles validators whose `~standard.validate` returns the result directly or
 * as a Promise. Never throws and never rejects: a validator that throws or
 * rejects, an object that is not a Standard Schema, or a malformed result
 * (including one whose getters or proxy traps throw) all become an
 * `"invalid"` refusal with one issue saying so. Issues are copied bounded:
 * at most {@link MAX_VALIDATION_ISSUES} issues, messages cut to
 * {@link MAX_ISSUE_MESSAGE_LENGTH} characters, paths to
 * {@link MAX_ISSUE_PATH_LENGTH} segments. On success the value is the
 * schema's *output* (e.g. zod's parsed, transformed value).
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { standardValidate } from "@papercusp/chat-protocol/interactions";
 * const r = await standardValidate(z.object({ optionId: z.string() }), { optionId: "yes" });
 * if (r.ok) console.log(r.value.optionId); // "yes"
 * else console.log(r.error.issues);
 * ```
 */
export async function standardValidate<S extends StandardSchemaV1>(
  schema: S,
  value: unknown,
): Promise<Result<StandardSchemaV1.InferOutput<S>, ValidationRefusal>> {
  if (!isStandardSchema(schema)) {
    return refuse([{ message: "the schema is not a Standard Schema (version 1)" }]);
  }
  let result: unknown;
  try {
    result = await schema["~standard"].validate(value);
  } catch (e) {
    return refuse([{ message: `the validator threw: ${describeError(e)}` }]);
  }
  try {
    return normalise(result);
  } catch {
    // A throwing getter or proxy trap in the result: malformed, not a crash.
    return refuse([{ message: "the validator returned a malformed result" }]);
  }
}

function describeError(e: unknown): string {
  try {
    return cut(e instanceof Error ? String(e.message) : String(e), MAX_ISSUE_MESSAGE_LENGTH);
  } catch {
    return "(unprintable error)";
  }
}

function normalise<T>(result: unknown): Result<T, ValidationRefusal> {
  if (!isObjectLike(result)) {
    return refuse([{ message: "the validator returned a malformed result" }]);
  }
  const issues = result.issues;
  if (issues) {
    if (!Array.isArray(issues)) {
      return refuse([{ message: "the validator returned malformed issues" }]);
    }
    const copied = copyIssues(issues);
    return refuse(copied.length > 0 ? copied : [{ message: "invalid value" }]);
  }
  if (!Object.hasOwn(result, "value")) {
    return refuse([{ message: "the validator returned neither a value nor issues" }]);
  }
  return ok(result.value as T);
}
