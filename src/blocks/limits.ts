/**
 * Size bound for tagged block bodies.
 *
 * @module
 */

/**
 * Largest `<ask>` / `<report>` body this package will buffer or parse, in
 * UTF-16 code units (JavaScript string length): 262,144 (256 Ki). A body
 * longer than this is refused (`null` from the parsers, an `invalid` segment
 * with reason `too-large` from {@link splitTurnText} and the streaming
 * scanner), so untrusted text can never make us hold more than this per open
 * block. In memory that is at most 512 KiB; as UTF-8 at most 768 KiB.
 */
export const MAX_BLOCK_BODY_LENGTH = 262_144;
