/**
 * `@papercusp/chat-protocol/recovery/testing`: the conformance kit for a
 * host's `./recovery` store adapter. {@link recoveryConformanceCases} returns
 * runner-agnostic cases (`{ name, skip?, run() }`) to run with any test
 * runner against the host's own store; {@link memoryConformanceHost} wires
 * the in-memory reference store, which passes every case.
 *
 * Passing the kit is evidence about the adapter under the conditions of the
 * run; durability across a real process restart needs the host's own tests
 * against its persistent store.
 *
 * @example Run the kit with Deno.test
 * ```ts
 * import { memoryConformanceHost, recoveryConformanceCases } from "@papercusp/chat-protocol/recovery/testing";
 * for (const c of recoveryConformanceCases(() => memoryConformanceHost())) {
 *   Deno.test({ name: c.name, ignore: c.skip !== undefined, fn: () => c.run() });
 * }
 * ```
 *
 * @module
 */
export {
  type ConformanceCase,
  type ConformanceCaseContext,
  ConformanceFailure,
  type ConformanceHost,
  type ConformanceOptions,
  type ConformanceWorker,
  type LosableOp,
  memoryConformanceHost,
  type MemoryConformanceHostOptions,
  type OptionalConformanceCapability,
  recoveryConformanceCases,
} from "./src/recovery/testing.ts";
export { KitFailure } from "./src/recovery/kit_failure.ts";
export type { KitRunOptions } from "./src/recovery/kit_run_options.ts";
