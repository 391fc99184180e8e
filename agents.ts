/**
 * `@papercusp/chat-protocol/agents`: pure folds over an agent-chat broker's
 * read API: roster, spawn graph, tree layout, paths, sparks and glow.
 *
 * @module
 */
export * from "./src/agents/mod.ts";
