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
