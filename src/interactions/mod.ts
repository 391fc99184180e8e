/**
 * interactions: durable card answers with bound authority, Standard Schema
 * validation, fenced transactions and typed refusals.
 *
 * - {@link InteractionResolver}: open / answer / resolveElicitation / cancel /
 *   changeSchema / updateMetadata / read.
 * - {@link InteractionStore}: the contract a host implements;
 *   {@link MemoryInteractionStore} is the reference fake database.
 * - {@link interactionStoreConformance}: the conformance kit for host stores.
 * - {@link StandardSchemaV1} (vendored) and {@link standardValidate}.
 *
 * @module
 */
export type { Refusal, Result } from "../result.ts";
export type {
  CardApproval,
  CardOption,
  CardPresentation,
  CardPresentationKind,
  CardResponse,
  CardSpec,
  OpenCardSnapshot,
} from "../cards/mod.ts";
export * from "./types.ts";
export * from "./standard_schema.ts";
export * from "./fence.ts";
export * from "./elicitation.ts";
export * from "./resolver.ts";
export * from "./memory_store.ts";
