/**
 * `@papercusp/chat-protocol/interactions/testing`: the conformance kit for a
 * host's `InteractionStore`. {@link interactionStoreConformance} returns
 * runner-agnostic cases (`{ name, skip?, run() }`) that exercise the fence
 * (authority, scope, revision, schema, expiry, cancellation), the
 * exactly-once callback, atomic record + transition writes and concurrent
 * answers; run them with any test runner against the host's own store.
 *
 * A host's own adapter plugs in through a harness factory (one `connect()`
 * per simulated worker, so a lock held per adapter instance fails). Passing
 * it proves the fence logic under the interleavings the kit drives, not
 * durability across a real process restart: a persistent adapter must prove
 * that separately.
 *
 * @example Run the kit against the reference store with Deno.test
 * ```ts
 * import {
 *   interactionStoreConformance,
 *   memoryInteractionHarness,
 * } from "@papercusp/chat-protocol/interactions/testing";
 * const cases = interactionStoreConformance(() => memoryInteractionHarness());
 * for (const c of cases) Deno.test({ name: c.name, ignore: c.skip !== undefined, fn: () => c.run() });
 * ```
 *
 * A failed check throws `KitFailure`, and the run options are typed
 * `KitRunOptions`: both are shared with the recovery kit and exported by
 * `./recovery/testing` only.
 *
 * @module
 */
export {
  type InteractionConformanceCase,
  InteractionConformanceError,
  type InteractionConformanceOptions,
  interactionStoreConformance,
  type InteractionStoreHarness,
  type InteractionWorker,
  KIT_AUTHORITY,
  KIT_SYSTEM,
  memoryInteractionHarness,
  type MemoryInteractionHarnessOptions,
  type OptionalInteractionCapability,
  type SteppingClock,
  steppingClock,
} from "./src/interactions/testing.ts";
