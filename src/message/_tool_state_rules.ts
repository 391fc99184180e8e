/**
 * The `ai@7` per-state rules of a tool part (approval, `errorText`,
 * `output`, `input`, `rawInput` by `state`), without zod: the `toolPart`
 * schema reports them as issues, and the fold checks every tool part it
 * changes against them, so it never returns a part its own schema refuses.
 *
 * @module
 */

/** The fields the rules look at (a tool part's own keys). */
export interface ToolStateFields {
  readonly state?: unknown;
  readonly approval?: { readonly approved?: unknown; readonly reason?: unknown } | undefined;
  readonly errorText?: unknown;
  readonly output?: unknown;
  readonly input?: unknown;
  readonly rawInput?: unknown;
}

/** States in which `ai@7` requires the `input` key. */
export const INPUT_REQUIRED: ReadonlySet<unknown> = new Set([
  "input-available",
  "approval-requested",
  "approval-responded",
  "output-available",
  "output-denied",
]);

/** Every rule `p` breaks, as `[field, message]`, in the schema's order. */
export function toolStateProblems(p: ToolStateFields): [string, string][] {
  const out: [string, string][] = [];
  const issue = (path: string, message: string) => out.push([path, message]);
  const a = p.approval;
  const has = (k: keyof ToolStateFields) => Object.hasOwn(p, k) && p[k] !== undefined;
  switch (p.state) {
    case "input-streaming":
    case "input-available":
      if (a !== undefined) issue("approval", `approval must be absent in ${p.state}`);
      break;
    case "approval-requested":
      if (a === undefined) issue("approval", "approval-requested requires approval");
      else if (a.approved !== undefined || a.reason !== undefined) {
        issue("approval", "approval-requested must not carry approved / reason");
      }
      break;
    case "approval-responded":
      if (a === undefined) issue("approval", "approval-responded requires approval");
      else if (a.approved === undefined) issue("approval", "approval-responded requires approved");
      break;
    case "output-available":
    case "output-error":
      if (a !== undefined && a.approved !== true) {
        issue("approval", `${p.state} allows only a granted approval (approved: true)`);
      }
      break;
    case "output-denied":
      if (a === undefined) issue("approval", "output-denied requires approval");
      else if (a.approved !== false) issue("approval", "output-denied requires approved: false");
      break;
  }
  if (p.state === "output-error") {
    if (p.errorText === undefined) issue("errorText", "output-error requires errorText");
  } else if (has("errorText")) issue("errorText", `errorText is only allowed in output-error`);
  if (p.state !== "output-available" && has("output")) {
    issue("output", "output is only allowed in output-available");
  }
  // as ai@7's schema: these keys must be present (their value may be anything)
  if (INPUT_REQUIRED.has(p.state) && !Object.hasOwn(p, "input")) {
    issue("input", `${p.state} requires input`);
  }
  if (p.state === "output-available" && !Object.hasOwn(p, "output")) {
    issue("output", "output-available requires output");
  }
  if (p.state === "input-streaming" && has("rawInput") && typeof p.rawInput !== "string") {
    issue("rawInput", "rawInput must be a string in input-streaming");
  }
  return out;
}
