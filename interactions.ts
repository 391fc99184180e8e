/**
 * `@papercusp/chat-protocol/interactions`: durable card answers with bound
 * authority, Standard Schema validation, fenced transactions and typed
 * refusals.
 *
 * @module
 */
export * from "./src/interactions/mod.ts";
