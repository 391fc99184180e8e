/**
 * {@link KitFailure}: what the conformance kits of `./recovery/testing` and
 * `./interactions/testing` reject with when a host's store adapter breaks a
 * contract. Both kits export it (and their own subclass).
 *
 * @module
 */

/**
 * The failure a conformance kit rejects with: its message names the
 * violated contract, its `name` is the kit's subclass
 * (`RecoveryConformanceFailure`, …). Each kit exports its own subclass;
 * catch this class to handle a failure of either kit.
 */
export class KitFailure extends Error {
  /** Build with the violated contract (the `name` is the subclass's). */
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
