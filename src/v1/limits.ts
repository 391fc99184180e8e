/**
 * The v1 contract's documented bounds, in one place: what untrusted input can
 * make a v1 consumer list or keep.
 *
 * @module
 */

/**
 * Most refusals one whole-stream report lists (`foldChatState`,
 * `v1ToUIMessageChunks`, `v1ToAgUiEvents`, `foldUIMessage`): the first
 * 1,000 found. When more were found, the list ends with one more entry,
 * code `refusals-omitted`, whose `omitted` says how many were left out and
 * whose `index` is the first input index left out. A stream of junk
 * therefore costs time linear in its length and a bounded report.
 */
export const MAX_REFUSALS = 1_000;

/**
 * Most items one whole-stream call reads from its input (`foldChatState`,
 * `foldChatStateStrict`, `v1ToUIMessageChunks`, `v1ToAgUiEvents`,
 * `foldUIMessage`, `uiMessageChunksToV1`): 1,000,000. Past it the call
 * stops reading and reports it (a refusal or issue at index 1,000,000:
 * `invalid-envelope` for envelopes, `limit` for chunks); what was read is
 * kept. With {@link MAX_REFUSALS} it bounds what a cheap input (a sparse
 * array of length 2^32 − 1, a proxy claiming any length, an endless
 * generator) can cost.
 */
export const MAX_STREAM_ITEMS = 1_000_000;

/** Longest extension event name, in characters (ASCII: one byte each). */
export const MAX_EXTENSION_NAME_LENGTH = 128;

/**
 * Deepest nesting of arrays and objects in an extension event's `data`:
 * `[[1]]` nests 2 deep, a scalar 0. Deeper data is refused.
 */
export const MAX_EXTENSION_DEPTH = 32;

/**
 * Most JSON values in an extension event's `data`, counting the root, every
 * array element and every object member value (keys do not count). More
 * are refused.
 */
export const MAX_EXTENSION_VALUES = 10_000;

/**
 * Most distinct names of state-channel extension events one turn keeps
 * (`ChatStateV1.extensionState`); an event with one more name is refused
 * (`too-many-extensions`).
 */
export const MAX_EXTENSION_STATE_NAMES = 128;
