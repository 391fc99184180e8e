/**
 * The frames of LISTEN/NOTIFY payloads (`notifications.ts`): a message is
 * `m:` + payload, a subscriber's own health ping `p:` + token. The recovery
 * store writes message frames from SQL. Area-private.
 *
 * @module
 */

/** Prefix of a message payload. */
export const MESSAGE_FRAME = "m:";

/** Prefix of a subscriber's health ping. */
export const PING_FRAME = "p:";
