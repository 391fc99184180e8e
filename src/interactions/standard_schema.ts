/**
 * The Standard Schema contract, version 1 (https://standardschema.dev, the
 * `@standard-schema/spec` package, 1.1.0), declared here so this package
 * needs no validator dependency, and {@link standardValidate}, which runs any
 * conforming validator (zod 4, valibot, ArkType, …) and turns its sync or
 * async answer into a {@link Result}.
 *
 * The declarations below are written for this package from the published
 * shape of the contract; `tests/interactions/standard_schema_test.ts` proves
 * them type-identical to `@standard-schema/spec` 1.1.0 member by member, so a
 * zod 4 schema is accepted as it is. The JSON Schema extension of the same
 * package is not declared.
 *
 * @module
 */
import { clipText, describeThrown } from "../_internal/describe.ts";
import { err, ok, type Result } from "../result.ts";

/**
 * Anything that carries static input and output types under the `~standard`
 * key: the common base of the Standard Schema family.
 */
export interface StandardTypedV1<Input = unknown, Output = Input> {
  /** What the object declares about itself. */
  readonly "~standard": StandardTypedV1.Props<Input, Output>;
}

/** Member types of {@link StandardTypedV1}. */
export declare namespace StandardTypedV1 {
  /** The declaration under `~standard`. */
  export interface Props<Input = unknown, Output = Input> {
    /** Contract version; always `1`. */
    readonly version: 1;
    /** Name of the library that made the object, e.g. `"zod"`. */
    readonly vendor: string;
    /** Phantom carrier of the static types (never read at run time). */
    readonly types?: Types<Input, Output> | undefined;
  }
  /** The static input and output types, as properties. */
  export interface Types<Input = unknown, Output = Input> {
    /** The type the object accepts. */
    readonly input: Input;
    /** The type it produces. */
    readonly output: Output;
  }
  /** The input type declared by `Schema`. */
  export type InferInput<Schema extends StandardTypedV1> = NonNullable<
    Schema["~standard"]["types"]
  >["input"];
  /** The output type declared by `Schema`. */
  export type InferOutput<Schema extends StandardTypedV1> = NonNullable<
    Schema["~standard"]["types"]
  >["output"];
}

/**
 * A validator: a {@link StandardTypedV1} whose `~standard` also has a
 * `validate` function, answering synchronously or with a promise.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** What the validator declares about itself, and its `validate` function. */
  readonly "~standard": StandardSchemaV1.Props<Input, Output>;
}

/** Member types of {@link StandardSchemaV1}. */
export declare namespace StandardSchemaV1 {
  /** The declaration under `~standard`: version, vendor, types and `validate`. */
  export interface Props<Input = unknown, Output = Input>
    extends StandardTypedV1.Props<Input, Output> {
    /** Check `value`; the answer is a {@link Result} or a promise of one. */
    readonly validate: (
      value: unknown,
      options?: StandardSchemaV1.Options | undefined,
    ) => Result<Output> | Promise<Result<Output>>;
  }
  /** What `validate` answers: the output, or the issues. */
  export type Result<Output> = SuccessResult<Output> | FailureResult;
  /** A value that passed. */
  export interface SuccessResult<Output> {
    /** The validator's output (possibly transformed from the input). */
    readonly value: Output;
    /** Absent (or `undefined`) on success: the discriminant. */
    readonly issues?: undefined;
  }
  /** Options a caller may pass to `validate`. */
  export interface Options {
    /** Settings meant for one library only, passed through untouched. */
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
  /** A value that failed. */
  export interface FailureResult {
    /** Why it failed (at least one entry). */
    readonly issues: ReadonlyArray<Issue>;
  }
  /** One reason a value failed. */
  export interface Issue {
    /** Human-readable text. */
    readonly message: string;
    /** Where in the value, root first: plain keys or `{ key }` segments. */
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  /** A path step written as an object. */
  export interface PathSegment {
    /** The property key of this step. */
    readonly key: PropertyKey;
  }
  /** The static types, as in {@link StandardTypedV1.Types}. */
  export interface Types<Input = unknown, Output = Input>
    extends StandardTypedV1.Types<Input, Output> {}
  /** The input type declared by `Schema`. */
  export type InferInput<Schema extends StandardTypedV1> = StandardTypedV1.InferInput<Schema>;
  /** The output type declared by `Schema`. */
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

/** A path key as a string or an integer index; never throws (odd keys become `"?"`). */
function copyKey(k: unknown): string | number {
  if (typeof k === "number") return Number.isSafeInteger(k) && k >= 0 ? k : String(k);
  if (typeof k === "string") return clipText(k, MAX_ISSUE_MESSAGE_LENGTH);
  if (typeof k === "symbol") return clipText(k.description ?? "", MAX_ISSUE_MESSAGE_LENGTH);
  return "?";
}

function copyIssues(issues: readonly unknown[]): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const n = Math.min(issues.length, MAX_VALIDATION_ISSUES);
  for (let i = 0; i < n; i++) {
    const raw = issues[i];
    const r = isObjectLike(raw) ? raw : {};
    const message = typeof r.message === "string"
      ? clipText(r.message, MAX_ISSUE_MESSAGE_LENGTH)
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
    return refuse([{
      message: `the validator threw: ${describeThrown(e, MAX_ISSUE_MESSAGE_LENGTH)}`,
    }]);
  }
  try {
    return normalise(result);
  } catch {
    // A throwing getter or proxy trap in the result: malformed, not a crash.
    return refuse([{ message: "the validator returned a malformed result" }]);
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
