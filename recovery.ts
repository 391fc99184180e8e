/**
 * `@papercusp/chat-protocol/recovery`: exactly-once dispatch of tool effects
 * in a turn over the host's compare-and-swap store, reconciliation,
 * cancellation and replay windows.
 *
 * @module
 */
export * from "./src/recovery/mod.ts";
