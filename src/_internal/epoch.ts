/**
 * The plausibility floor for a host clock that must answer epoch
 * milliseconds, shared by `./recovery` and `./interactions`.
 *
 * @module
 */

/**
 * Smallest clock reading accepted as epoch ms: 1e11 ms is March 1973. Any
 * smaller reading is taken for a clock in SECONDS (1e11 s is the year 5138)
 * or a monotonic counter, and refused: a seconds clock would make every
 * lease or timeout 1000 times too long.
 */
export const MIN_EPOCH_MS = 1e11;
