/**
 * Extension events: a product's own events on the v1 wire, namespaced and
 * carried as bounded JSON data (`ExtensionEventV1`), and the host's
 * registry of validators for them ({@link createExtensionRegistry}).
 *
 * The wire rules (name syntax, data bounds, channel) are checked by
 * `parseChatEnvelope` with no registry at all: an unregistered name passes
 * through as opaque data. A registry adds the host's own rules: a
 * validator per name (a Standard Schema, e.g. a zod 4 schema, or a
 * function), and `strict` to refuse names it does not know. The registry
 * lives in this module only, so a client that does not validate extension
 * data ships none of it.
 *
 * @module
 */
import { ChatArgumentError } from "./errors.ts";
import type { StandardSchemaV1 } from "../interactions/standard_schema.ts";
import { clipText, describeThrown } from "../_internal/describe.ts";
import type { EnvelopeIssue } from "./_validate.ts";
import type { ChatJsonValue } from "./types.ts";
import { MAX_EXTENSION_NAME_LENGTH } from "./limits.ts";

/** The extension name syntax (see {@link isExtensionName}); `u` flag not needed (ASCII only). */
export const EXTENSION_NAME_PATTERN: RegExp =
  /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*(?:\.[a-z][a-z0-9]*(?:_[a-z0-9]+)*)+$/;

/**
 * `true` iff `name` is an extension event name: a namespace and one or more
 * further segments joined by `.` (`scout.products`, `acme.cart.updated`), at
 * most {@link MAX_EXTENSION_NAME_LENGTH} (128) characters. Each segment is
 * lowercase ASCII letters and digits, starting with a letter, with single
 * `_` between words (`open_drawer`; no `__`, no leading or trailing `_`).
 * So a name maps one-to-one onto an identifier by writing `.` as `__`
 * (`scout__products`, the key of an AI SDK `data-` part), and it is the same
 * in every language and case-sensitive nowhere. Never throws.
 *
 * @example
 * ```ts
 * import { isExtensionName } from "@papercusp/chat-protocol";
 * isExtensionName("scout.products"); // true
 * isExtensionName("products"); // false: no namespace
 * isExtensionName("Scout.Products"); // false: lowercase only
 * ```
 */
export function isExtensionName(name: unknown): name is string {
  return typeof name === "string" && name.length <= MAX_EXTENSION_NAME_LENGTH &&
    EXTENSION_NAME_PATTERN.test(name);
}

/** Why a registry refused an extension event's data (see {@link ChatExtensionRegistry.check}). */
export interface ExtensionVerdict {
  /**
   * `unknown-extension`: a strict registry has no validator for the name;
   * `invalid-extension`: the name's validator refused the data (or failed).
   */
  readonly code: "unknown-extension" | "invalid-extension";
  /** What is wrong, in one sentence. */
  readonly message: string;
  /** `invalid-extension`: the validator's issues, paths under `event.data` (at most 20). */
  readonly issues?: readonly EnvelopeIssue[];
}

/**
 * A host's validators for extension events, consulted by the v1 parser
 * (`parseChatEnvelope(value, { extensions })`, and the fold's options) after
 * the wire rules passed. Build one with {@link createExtensionRegistry}, or
 * implement `check` yourself (it is called synchronously, once per `ext`
 * event; a throw or a malformed answer is an `invalid-extension` refusal).
 */
export interface ChatExtensionRegistry {
  /** `null` when `data` is acceptable for extension `name`, else why not. */
  check(name: string, data: ChatJsonValue): ExtensionVerdict | null;
}

/**
 * A validator for one extension name: a Standard Schema (zod 4, valibot,
 * ArkType…; **synchronous** only: one that answers with a promise is
 * refused) or a function that returns `true` to accept the data and
 * `false` or a reason (string) to refuse it. Either only judges: the data
 * kept is the wire data, never a schema's transformed output.
 */
export type ChatExtensionValidator =
  | StandardSchemaV1
  | ((data: ChatJsonValue, name: string) => boolean | string);

/** Options of {@link createExtensionRegistry}. */
export interface ExtensionRegistryOptions {
  /**
   * Refuse extension events whose name has no validator
   * (`unknown-extension`). Default `false`: they pass through as opaque
   * data, checked by the wire rules only.
   */
  readonly strict?: boolean;
}

const MAX_VERDICT_ISSUES = 20;

/** `event.data` followed by a Standard Schema issue's path. */
function issuePath(path: unknown): string {
  let out = "event.data";
  if (!Array.isArray(path)) return out;
  for (const seg of path.slice(0, 32)) {
    const key = typeof seg === "object" && seg !== null ? (seg as { key?: unknown }).key : seg;
    out += "." + clipText(typeof key === "symbol" ? key.description ?? "" : String(key), 64);
  }
  return out;
}

/** Run a Standard Schema synchronously: `null` when it accepts, else its issues. */
function runSchema(schema: StandardSchemaV1, data: ChatJsonValue): EnvelopeIssue[] | null {
  const result = schema["~standard"].validate(data) as unknown;
  if (typeof (result as { then?: unknown } | null)?.then === "function") {
    return [{
      path: "event.data",
      message: "the validator answered asynchronously (not supported)",
    }];
  }
  const issues = (result as { issues?: unknown } | null)?.issues;
  if (issues === undefined || issues === null) return null;
  if (!Array.isArray(issues) || issues.length === 0) {
    return [{ path: "event.data", message: "the validator returned malformed issues" }];
  }
  return issues.slice(0, MAX_VERDICT_ISSUES).map((i) => {
    const message = (i as { message?: unknown } | null)?.message;
    return {
      path: issuePath((i as { path?: unknown } | null)?.path),
      message: typeof message === "string" ? clipText(message, 500) : "invalid value",
    };
  });
}

/**
 * A registry of validators by extension name (see {@link ChatExtensionRegistry}).
 * The `validators` record is read once, now: own entries only, each name
 * checked with {@link isExtensionName}; later changes to it do not count.
 *
 * @throws {ChatArgumentError} `invalid-registry` when `validators` is not an object, a key is not an
 *   extension name, a value is neither a Standard Schema nor a function, or
 *   the record or the options cannot be read (a throwing getter, a revoked
 *   proxy): a programmer's mistake
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { createExtensionRegistry, parseChatEnvelope } from "@papercusp/chat-protocol";
 * const extensions = createExtensionRegistry({
 *   "scout.products": z.object({ products: z.array(z.object({ id: z.string() })) }),
 *   "scout.broaden": (data) => typeof data === "object" || "must be an object",
 * }, { strict: true });
 * const r = parseChatEnvelope({
 *   schemaVersion: 1, conversationId: "c1", turnId: "t1", eventId: "e1", seq: 1,
 *   event: { type: "ext", name: "scout.products", channel: "state", data: { products: [] } },
 * }, { extensions });
 * // r.ok === true; with data { products: [{}] }: r.error.code === "invalid-extension"
 * ```
 */
export function createExtensionRegistry(
  validators: Readonly<Record<string, ChatExtensionValidator>>,
  options?: ExtensionRegistryOptions,
): ChatExtensionRegistry {
  if (typeof validators !== "object" || validators === null) {
    throw new ChatArgumentError(
      "invalid-registry",
      "createExtensionRegistry takes a record of validators by extension name",
    );
  }
  const table = new Map<string, ChatExtensionValidator>();
  let strict = false, mistake = "";
  try {
    for (const name of Object.keys(validators)) {
      const v = validators[name];
      const standard = (v as { "~standard"?: { validate?: unknown } } | null)?.["~standard"];
      if (!isExtensionName(name)) {
        mistake = `${JSON.stringify(clipText(name, 64))} is not an extension name`;
      } else if (typeof v !== "function" && typeof standard?.validate !== "function") {
        mistake = `the validator of ${name} is neither a Standard Schema nor a function`;
      }
      if (mistake !== "") break;
      table.set(name, v);
    }
    strict = options?.strict === true;
  } catch (e) {
    mistake = `the validators or options could not be read: ${describeThrown(e, 200)}`;
  }
  if (mistake !== "") throw new ChatArgumentError("invalid-registry", mistake);
  return {
    check(name, data) {
      const v = table.get(name);
      if (v === undefined) {
        return strict
          ? {
            code: "unknown-extension",
            message: `extension ${JSON.stringify(name)} is not registered (strict registry)`,
          }
          : null;
      }
      let issues: EnvelopeIssue[] | null;
      try {
        if (typeof v === "function") {
          const answer = v(data, name);
          issues = answer === true ? null : [{
            path: "event.data",
            message: typeof answer === "string"
              ? clipText(answer, 500)
              : "refused by the validator",
          }];
        } else issues = runSchema(v, data);
      } catch (e) {
        issues = [{
          path: "event.data",
          message: `the validator threw: ${describeThrown(e, 200)}`,
        }];
      }
      if (issues === null) return null;
      return {
        code: "invalid-extension",
        message: `extension ${JSON.stringify(name)}: ${issues[0].path} ${issues[0].message}`,
        issues,
      };
    },
  };
}
