/**
 * The names of the tool part a human-in-the-loop gate or a v1 approval card
 * without a gated tool call becomes in a `UIMessage` (the AI SDK approval
 * model): tool `gate`, part type `tool-gate`.
 *
 * @module
 */

/** Tool name of gate parts. */
export const GATE_TOOL_NAME = "gate" as const;
/** Part type of gate parts. */
export const GATE_PART_TYPE = "tool-gate" as const;
