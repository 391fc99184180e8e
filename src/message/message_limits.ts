/**
 * {@link MAX_MESSAGE_PARTS}: the one bound on how many parts the readers of
 * untrusted messages look at.
 *
 * @module
 */

/**
 * The most parts a message from untrusted input may have:
 * `parseChatMessage` and `parseInboundChatMessage` refuse a message with
 * more (`too-many-parts`), and `readHitlAnswer` / `readHitlAnswers` too
 * (`MAX_HITL_ANSWER_PARTS` is this number), before any part is read. A
 * cheap body claiming a huge `parts` array (a 1 MiB body holds ~524 k
 * parts; a sparse array claims 2^32 − 1) therefore costs no more than
 * 10,000 parts' work.
 */
export const MAX_MESSAGE_PARTS = 10_000;
