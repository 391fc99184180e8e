/**
 * `@papercusp/chat-protocol`: the wire and state contract for streaming agent
 * chats.
 *
 * - v0 wire: the eleven-member {@link ChatEvent} union, channels and
 *   {@link parseChatEvent}.
 * - v1 contract: {@link ChatEventEnvelope}, turn lifecycle, {@link ChatStateV1}
 *   and its fold, capabilities and version negotiation.
 * - Legacy frames (Scout, Papercup) decoded and upgraded explicitly.
 * - An SSE codec on Web Streams.
 * - Cards and tagged `<report>` / `<ask>` blocks.
 * - The message document (AI SDK `UIMessage` parts plus an envelope) and its
 *   adapters.
 *
 * Sub-entry points: `./recovery`, `./interactions`, `./agents`.
 *
 * @module
 */
export * from "./src/result.ts";
export * from "./src/wire/mod.ts";
export * from "./src/v1/mod.ts";
export * from "./src/legacy/mod.ts";
export * from "./src/sse/mod.ts";
export * from "./src/cards/mod.ts";
export * from "./src/blocks/mod.ts";
export * from "./src/message/mod.ts";
