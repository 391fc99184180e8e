/**
 * `@papercusp/chat-protocol/interactions/testing`: the conformance kit for a
 * host's `InteractionStore`. {@link interactionStoreConformance} returns
 * runner-agnostic cases (`{ name, skip?, run() }`) that exercise the fence
 * (authority, scope, revision, schema, expiry, cancellation), the
 * exactly-once callback, atomic record + transition writes and concurrent
 * answers; run them with any test runner against the host's own store.
 *
 * Passing it proves the store's logic under concurrency in one process, not
 * durability: a persistent adapter must separately prove that committed
 * records survive a process restart.
 *
 * @example Run the kit against the reference store with Deno.test
 * ```ts
 * import { FakeClock, MemoryInteractionStore } from "@papercusp/chat-protocol/interactions";
 * import { interactionStoreConformance } from "@papercusp/chat-protocol/interactions/testing";
 * const cases = interactionStoreConformance(() => {
 *   const clock = new FakeClock();
 *   const store = new MemoryInteractionStore({ now: () => clock.now() });
 *   return {
 *     store,
 *     now: () => clock.now(),
 *     advanceClock: (ms: number) => clock.advance(ms),
 *     revoke: (authority) => store.revoke(authority),
 *     transitions: (id) => store.transitions(id),
 *   };
 * });
 * for (const c of cases) Deno.test({ name: c.name, ignore: c.skip !== undefined, fn: () => c.run() });
 * ```
 *
 * @module
 */
export {
  type InteractionConformanceCase,
  InteractionConformanceError,
  type InteractionConformanceOptions,
  interactionStoreConformance,
  type InteractionStoreHarness,
  KIT_AUTHORITY,
} from "./src/interactions/testing.ts";
