/**
 * v1 contract: the {@link ChatEventEnvelope} and its zod schemas, the fast
 * validator {@link parseChatEnvelope} / {@link parseChatEnvelopeJson}, the
 * turn lifecycle ({@link TURN_TRANSITIONS}), the {@link ChatStateV1} fold
 * ({@link ChatStateFolder}, {@link foldChatState}), capabilities
 * ({@link requireChatCapabilities}) and version negotiation
 * ({@link negotiateChatVersion}).
 *
 * @example
 * ```ts
 * import { ChatStateFolder, parseChatEnvelopeJson } from "@papercusp/chat-protocol";
 * const ndjson =
 *   '{"schemaVersion":1,"conversationId":"c1","turnId":"t1","eventId":"e1","seq":1,"event":{"type":"delta","text":"Hi"}}\n';
 * const folder = new ChatStateFolder("c1", "t1");
 * for (const line of ndjson.split("\n").filter(Boolean)) {
 *   const env = parseChatEnvelopeJson(line);
 *   const r = env.ok ? folder.push(env.value) : env;
 *   if (!r.ok) console.warn(r.error.code, r.error.message);
 * }
 * console.log(folder.state().text);
 * ```
 *
 * @module
 */
export type * from "./types.ts";
export { CHAT_SCHEMA_VERSION } from "./types.ts";
export * from "./schemas.ts";
export * from "./parse.ts";
export * from "./lifecycle.ts";
export * from "./fold.ts";
export * from "./capabilities.ts";
export * from "./version.ts";
