/**
 * {@link KitRunOptions}: the timing and concurrency options both
 * conformance kits (`./recovery/testing`, `./interactions/testing`) accept.
 *
 * @module
 */

/** The timing and concurrency options both conformance kits accept. */
export interface KitRunOptions {
  /** Simulated workers in concurrency cases (2..64). Default 8. */
  readonly concurrency?: number;
  /** Seed of the kit's random choices (orders, flaky faults, jitter). Default 1. */
  readonly seed?: number;
  /**
   * How long the kit holds a fence or transaction open while it checks that
   * other writers wait, ms (1..60,000). Default 250: it must exceed a few
   * round trips of the host's database.
   */
  readonly holdMs?: number;
  /** Bound on any one awaited call, ms (10..600,000). Default 10,000. */
  readonly timeoutMs?: number;
}
