/**
 * The message document (AI SDK `UIMessage` parts plus an envelope), delivery
 * and provenance, the linear UI message fold, and adapters: AI SDK UI
 * message stream (both ways), AG-UI events, messaging and human-in-the-loop.
 *
 * @module
 */
export * from "./parts.ts";
export * from "./delivery.ts";
export * from "./envelope.ts";
export * from "./chunks.ts";
export * from "./fold.ts";
export * from "./ai_sdk_stream.ts";
export * from "./ag_ui.ts";
export * from "./messaging.ts";
export * from "./hitl.ts";
