/**
 * The message document's parts: a vendored, byte-compatible copy of the
 * Vercel AI SDK (`ai@7`) `UIMessage` part model with zero new part types.
 *
 * Part kinds: `text`, `reasoning`, `source-url`, `source-document`, `file`,
 * `step-start`, `tool-<name>`, `dynamic-tool` and `data-<name>`. The seven tool
 * states and the approval rules are exactly those of `ai@7.0.173`'s
 * `uiMessagesSchema` (see {@link toolPart}). The AI SDK kinds `custom`,
 * `reasoning-file` and `steering-message` are deliberately not part of this
 * document.
 *
 * Schemas strip unknown keys (like the AI SDK's); every key the AI SDK itself
 * writes on these parts is declared, so a real `UIMessage` parses back
 * unchanged.
 *
 * @module
 */
import { z } from "zod";
import { ownRecord } from "../_internal/record_schema.ts";
import { DATA_PART_KEY_PATTERN, TOOL_PART_STATES, TOOL_TYPE_PATTERN } from "./part_types.ts";
import { toolStateProblems } from "./_tool_state_rules.ts";

/** `streaming` while deltas still arrive, `done` after the end chunk. */
export type PartStreamState = "streaming" | "done";

/** JSON value, as the AI SDK's `JSONValue`. */
export type JsonValue = null | string | number | boolean | JsonValue[] | {
  [key: string]: JsonValue | undefined;
};

/**
 * Provider-specific metadata, keyed by provider then field. Opaque and kept
 * verbatim (e.g. Anthropic's thinking `signature`).
 */
export type ProviderMetadata = Record<string, Record<string, JsonValue | undefined>>;

/** A citation on a text part (from a `text-end` chunk), as the AI SDK's `Citation`. */
export interface Citation {
  /** The cited source. */
  source:
    | {
      type: "source";
      sourceType: "url";
      id: string;
      url: string;
      title?: string;
      providerMetadata?: ProviderMetadata;
    }
    | {
      type: "source";
      sourceType: "document";
      id: string;
      mediaType: string;
      title: string;
      filename?: string;
      providerMetadata?: ProviderMetadata;
    };
  /** Character offsets into the part's text (non-negative integers). */
  startIndex?: number;
  /** End offset into the text (exclusive, UTF-16 code units). */
  endIndex?: number;
  /** The cited text. */
  citedText?: string;
}

/** Assistant or user text. */
export interface TextPart {
  /** Discriminator of this part / event. */
  type: "text";
  /** The text (plain, appended from deltas while streaming). */
  text: string;
  /** Citations attached by the `text-end` chunk. */
  citations?: Citation[];
  /** `streaming` while deltas arrive, `done` after the end chunk. */
  state?: PartStreamState;
  /** Provider-specific metadata, kept verbatim. */
  providerMetadata?: ProviderMetadata;
}
/** Model reasoning text. */
export interface ReasoningPart {
  /** Discriminator of this part / event. */
  type: "reasoning";
  /** Reasoning stream id (from the `reasoning-start` chunk). */
  id?: string;
  /** The text (plain, appended from deltas while streaming). */
  text: string;
  /** `streaming` while deltas arrive, `done` after the end chunk. */
  state?: PartStreamState;
  /** Provider-specific metadata, kept verbatim. */
  providerMetadata?: ProviderMetadata;
}
/** A URL source. `url` is data: never fetched by this package. */
export interface SourceUrlPart {
  /** Discriminator of this part / event. */
  type: "source-url";
  /** Id of the source within the message. */
  sourceId: string;
  /** URL (data, never fetched by this package). */
  url: string;
  /** Human-readable title. */
  title?: string;
  /** Provider-specific metadata, kept verbatim. */
  providerMetadata?: ProviderMetadata;
}
/** A document source. */
export interface SourceDocumentPart {
  /** Discriminator of this part / event. */
  type: "source-document";
  /** Id of the source within the message. */
  sourceId: string;
  /** IANA media type, e.g. `image/png`. */
  mediaType: string;
  /** Human-readable title. */
  title: string;
  /** Original file name. */
  filename?: string;
  /** Provider-specific metadata, kept verbatim. */
  providerMetadata?: ProviderMetadata;
}
/** A file (URL or data URL) with its IANA media type. */
export interface FilePart {
  /** Discriminator of this part / event. */
  type: "file";
  /** IANA media type, e.g. `image/png`. */
  mediaType: string;
  /** Original file name. */
  filename?: string;
  /** URL (data, never fetched by this package). */
  url: string;
  /** Provider file references, by provider. */
  providerReference?: Record<string, string>;
  /** Provider-specific metadata, kept verbatim. */
  providerMetadata?: ProviderMetadata;
}
/** Marks the start of a model step. */
export interface StepStartPart {
  /** Discriminator of this part / event. */
  type: "step-start";
}

/** One of {@link TOOL_PART_STATES}. */
export type ToolPartState = typeof TOOL_PART_STATES[number];

/**
 * The approval object of a tool part (`ai@7`'s approval). Rules (enforced by
 * {@link toolPart}): required in `approval-requested` (with no
 * `approved` / `reason`), `approval-responded` (with `approved`) and
 * `output-denied` (with `approved: false`); optional in `output-available` /
 * `output-error` (then `approved: true`); absent in the input states.
 */
export interface ToolApproval {
  /** Approval id (non-empty), echoed by the response. */
  id: string;
  /** The decision: `true` approved, `false` denied; absent while requested. */
  approved?: boolean;
  /** Free-form description of what is being approved (e.g. a JSON Schema). */
  descriptor?: unknown;
  /** Why approval was requested. */
  requestReason?: string;
  /** Why it was approved / denied. */
  reason?: string;
  /** True when the approval was decided automatically. */
  isAutomatic?: boolean;
  /** Opaque signature of the approval request. */
  signature?: string;
  /** The raw input the tool input schema validated (ai@7). */
  inputSchemaInput?: unknown;
}

/** Fields shared by static (`tool-<name>`) and dynamic tool parts. */
export interface ToolPartFields {
  /** Tool call id, stable for the call's life (non-empty). */
  toolCallId: string;
  /** Tool state (one of the seven TOOL_PART_STATES). */
  state: ToolPartState;
  /** Human-readable title. */
  title?: string;
  /** Tool metadata (JSON values). */
  toolMetadata?: Record<string, JsonValue | undefined>;
  /** Tool input (partial while `input-streaming`; the key is required in every state but `input-streaming` / `output-error`). */
  input?: unknown;
  /** Deprecated in `ai@7`; present while the input streams. */
  rawInput?: unknown;
  /** Encoding of the streamed input deltas (`json` default). */
  inputEncoding?: "json" | "text";
  /** Tool output (required in `output-available`, absent elsewhere). */
  output?: unknown;
  /** Error text (required in `output-error`, may be empty). */
  errorText?: string;
  /** Approval object; rules per state on ToolApproval. */
  approval?: ToolApproval;
  /** True when the provider, not the client, executed the tool. */
  providerExecuted?: boolean;
  /** True for a preliminary (not final) output. */
  preliminary?: boolean;
  /** Provider metadata of the call. */
  callProviderMetadata?: ProviderMetadata;
  /** Provider metadata of the result. */
  resultProviderMetadata?: ProviderMetadata;
}
/** A static tool call part: `type` is `tool-` + the tool name. */
export interface ToolPart extends ToolPartFields {
  /** Discriminator of this part / event. */
  type: `tool-${string}`;
}
/** A dynamic tool call part (tool not known at build time, e.g. MCP). */
export interface DynamicToolPart extends ToolPartFields {
  /** Discriminator of this part / event. */
  type: "dynamic-tool";
  /** Name of the dynamic tool. */
  toolName: string;
  /** `false` marks a tool unavailable (as `ai@7` does). */
  dynamic?: false;
}
/** An application data part: `type` is `data-` + an identifier. */
export interface DataPart {
  /** Discriminator of this part / event. */
  type: `data-${string}`;
  /** Upsert key: a later chunk with the same type and id replaces `data`. */
  id?: string;
  /** Application data (required, any JSON). */
  data: unknown;
}

/** Any part of the message document. */
export type ChatPart =
  | TextPart
  | ReasoningPart
  | SourceUrlPart
  | SourceDocumentPart
  | FilePart
  | StepStartPart
  | ToolPart
  | DynamicToolPart
  | DataPart;

// ---------------------------------------------------------------------------
// Zod schemas

/**
 * True when `root` is a JSON value (null, string, finite number, boolean,
 * array of JSON values, object whose defined values are JSON values).
 * Iterative, so any nesting depth is checked without recursion (a recursive
 * schema overflows the stack on deeply nested untrusted input); an object
 * seen before is skipped, as in `ai@7`'s JSON value check.
 */
function isJsonValue(root: unknown): boolean {
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null) continue;
    switch (typeof v) {
      case "string":
      case "boolean":
        continue;
      case "number":
        if (Number.isFinite(v)) continue;
        return false;
      case "object": {
        if (seen.has(v)) continue;
        seen.add(v);
        if (Array.isArray(v)) {
          for (let i = 0; i < v.length; i++) {
            const x: unknown = v[i];
            if (x === undefined) return false;
            stack.push(x);
          }
        } else {
          for (const k of Object.keys(v)) {
            const x = (v as Record<string, unknown>)[k];
            if (x !== undefined) stack.push(x);
          }
        }
        continue;
      }
      default:
        return false;
    }
  }
  return true;
}

const jsonValue: z.ZodType<JsonValue> = z.custom<JsonValue>(
  (v) => v !== undefined && isJsonValue(v),
  "expected a JSON value (null, string, finite number, boolean, array or object)",
);

/** {@link ProviderMetadata}: a record of records of JSON values (the seed's `providerMetadata`). */
export const providerMetadata: z.ZodType<ProviderMetadata> = ownRecord(
  z.string(),
  ownRecord(z.string(), jsonValue.optional()),
);
const optionalProviderMetadata = providerMetadata.optional();
const streamState = z.enum(["streaming", "done"]).optional();

const citationSchema: z.ZodType<Citation> = z.object({
  source: z.discriminatedUnion("sourceType", [
    z.object({
      type: z.literal("source"),
      sourceType: z.literal("url"),
      id: z.string(),
      url: z.string(),
      title: z.string().optional(),
      providerMetadata: optionalProviderMetadata,
    }),
    z.object({
      type: z.literal("source"),
      sourceType: z.literal("document"),
      id: z.string(),
      mediaType: z.string(),
      title: z.string(),
      filename: z.string().optional(),
      providerMetadata: optionalProviderMetadata,
    }),
  ]),
  startIndex: z.number().int().nonnegative().optional(),
  endIndex: z.number().int().nonnegative().optional(),
  citedText: z.string().optional(),
});

/** {@link TextPart}. */
export const textPart: z.ZodType<TextPart> = z.object({
  type: z.literal("text"),
  text: z.string(),
  citations: z.array(citationSchema).optional(),
  state: streamState,
  providerMetadata: optionalProviderMetadata,
});
/** {@link ReasoningPart}. */
export const reasoningPart: z.ZodType<ReasoningPart> = z.object({
  type: z.literal("reasoning"),
  id: z.string().optional(),
  text: z.string(),
  state: streamState,
  providerMetadata: optionalProviderMetadata,
});
/** {@link SourceUrlPart}. */
export const sourceUrlPart: z.ZodType<SourceUrlPart> = z.object({
  type: z.literal("source-url"),
  sourceId: z.string(),
  url: z.string(),
  title: z.string().optional(),
  providerMetadata: optionalProviderMetadata,
});
/** {@link SourceDocumentPart}. */
export const sourceDocumentPart: z.ZodType<SourceDocumentPart> = z.object({
  type: z.literal("source-document"),
  sourceId: z.string(),
  mediaType: z.string(),
  title: z.string(),
  filename: z.string().optional(),
  providerMetadata: optionalProviderMetadata,
});
/** {@link FilePart}. */
export const filePart: z.ZodType<FilePart> = z.object({
  type: z.literal("file"),
  mediaType: z.string(),
  filename: z.string().optional(),
  url: z.string(),
  providerReference: ownRecord(z.string(), z.string()).optional(),
  providerMetadata: optionalProviderMetadata,
});
/** {@link StepStartPart}. */
export const stepStartPart: z.ZodType<StepStartPart> = z.object({
  type: z.literal("step-start"),
});

/** {@link ToolApproval} (shape only; state rules live on the tool part). */
export const toolApproval: z.ZodType<ToolApproval> = z.object({
  id: z.string().min(1),
  approved: z.boolean().optional(),
  descriptor: z.unknown().optional(),
  requestReason: z.string().optional(),
  reason: z.string().optional(),
  isAutomatic: z.boolean().optional(),
  signature: z.string().optional(),
  inputSchemaInput: z.unknown().optional(),
});

const toolFields = {
  toolCallId: z.string().min(1),
  state: z.enum(TOOL_PART_STATES),
  title: z.string().optional(),
  toolMetadata: ownRecord(z.string(), jsonValue.optional()).optional(),
  input: z.unknown().optional(),
  rawInput: z.unknown().optional(),
  inputEncoding: z.enum(["json", "text"]).optional(),
  output: z.unknown().optional(),
  errorText: z.string().optional(),
  approval: toolApproval.optional(),
  providerExecuted: z.boolean().optional(),
  preliminary: z.boolean().optional(),
  callProviderMetadata: optionalProviderMetadata,
  resultProviderMetadata: optionalProviderMetadata,
};

type Issues = { issues: z.core.$ZodRawIssue[]; value: ToolPartFields };

/** The `ai@7` per-state rules for tool parts (see {@link ToolApproval}). */
function toolStateRules(ctx: Issues): void {
  for (const [path, message] of toolStateProblems(ctx.value)) {
    ctx.issues.push({ code: "custom", message, input: ctx.value, path: [path] });
  }
}

/**
 * {@link ToolPart} with the `ai@7` state rules: approval as documented on
 * {@link ToolApproval}; `errorText` required in `output-error` (empty string
 * allowed) and absent elsewhere; `output` required in `output-available`
 * and absent elsewhere; `input` required in every state but
 * `input-streaming` and `output-error` ("required" means the key is present,
 * as in `ai@7`: JSON drops an `undefined` value, so give `null` or `{}`);
 * `rawInput` a string while `input-streaming`.
 */
export const toolPart: z.ZodType<ToolPart> = z.object({
  type: z.string().regex(TOOL_TYPE_PATTERN, "tool part type must be tool-<name>") as z.ZodType<
    `tool-${string}`
  >,
  ...toolFields,
}).check(toolStateRules as (ctx: unknown) => void);

/** {@link DynamicToolPart} with the same state rules as {@link toolPart}. */
export const dynamicToolPart: z.ZodType<DynamicToolPart> = z.object({
  type: z.literal("dynamic-tool"),
  toolName: z.string(),
  dynamic: z.literal(false).optional(),
  ...toolFields,
}).check(toolStateRules as (ctx: unknown) => void);

/**
 * {@link DataPart} (the seed's `dataPart`): `type` must match
 * {@link DATA_PART_KEY_PATTERN}; `data` is required. Build one from
 * untrusted values with {@link createDataPart}.
 *
 * @example
 * ```ts
 * import { dataPart } from "@papercusp/chat-protocol/message";
 * dataPart.safeParse({ type: "data-gate_ref", data: {} }).success; // true
 * dataPart.safeParse({ type: "data-gate-ref", data: {} }).success; // false
 * ```
 */
export const dataPart: z.ZodType<DataPart> = z.object({
  type: z.string().regex(
    DATA_PART_KEY_PATTERN,
    "data part type must be data-<identifier>",
  ) as z.ZodType<`data-${string}`>,
  id: z.string().optional(),
  data: z.unknown().refine((v) => v !== undefined, "data is required"),
}) as z.ZodType<DataPart>;

const staticByType: Record<string, z.ZodType<ChatPart>> = {
  "text": textPart,
  "reasoning": reasoningPart,
  "source-url": sourceUrlPart,
  "source-document": sourceDocumentPart,
  "file": filePart,
  "step-start": stepStartPart,
  "dynamic-tool": dynamicToolPart,
};

function schemaForPart(value: unknown): z.ZodType<ChatPart> | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const type = Object.hasOwn(value, "type") ? (value as { type: unknown }).type : undefined;
  if (typeof type !== "string") return undefined;
  if (Object.hasOwn(staticByType, type)) return staticByType[type];
  if (type.startsWith("tool-")) return toolPart;
  if (type.startsWith("data-")) return dataPart;
  return undefined;
}

/**
 * Any {@link ChatPart}, dispatched on `type` (one schema tried per part, so
 * errors name the real problem). Unknown `type`s are refused.
 */
export const chatPart: z.ZodType<ChatPart> = z.unknown().transform((value, ctx) => {
  const schema = schemaForPart(value);
  if (schema === undefined) {
    ctx.issues.push({
      code: "custom",
      message:
        "unknown part type: expected text, reasoning, source-url, source-document, file, step-start, tool-<name>, dynamic-tool or data-<identifier>",
      input: value,
      path: ["type"],
    });
    return z.NEVER;
  }
  const r = schema.safeParse(value);
  if (!r.success) {
    for (const i of r.error.issues) {
      ctx.issues.push({ ...i, input: value } as z.core.$ZodRawIssue);
    }
    return z.NEVER;
  }
  return r.data;
}) as unknown as z.ZodType<ChatPart>;

/** The roles of a `UIMessage` (no `tool`: tool results ride `tool-*` parts). */
export type MessageRole = "system" | "user" | "assistant";
/** {@link MessageRole}. */
export const messageRole: z.ZodType<MessageRole> = z.enum(["system", "user", "assistant"]);

/** The AI SDK `UIMessage` restricted to this document's parts. */
export interface UIMessage {
  /** Message id. */
  id: string;
  /** Message role (rendering hint). */
  role: MessageRole;
  /** Free-form message metadata. */
  metadata?: unknown;
  /** The message parts, in order. */
  parts: ChatPart[];
}

/**
 * {@link UIMessage}: as `ai@7`'s message schema, a non-assistant message needs
 * at least one part.
 */
export const uiMessage: z.ZodType<UIMessage> = z.object({
  id: z.string(),
  role: messageRole,
  metadata: z.unknown().optional(),
  parts: z.array(chatPart),
}).check((ctx) => {
  if (ctx.value.role !== "assistant" && ctx.value.parts.length === 0) {
    ctx.issues.push({
      code: "custom",
      message: "a non-assistant message must contain at least one part",
      input: ctx.value,
      path: ["parts"],
    });
  }
});

/** The seed's name for the message {@link toUIMessage} returns: a {@link UIMessage}. */
export type UIMessageLike = UIMessage;
