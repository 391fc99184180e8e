/**
 * `@papercusp/chat-protocol/interactions`: durable card answers with bound
 * authority, Standard Schema validation, fenced transactions and typed
 * refusals.
 *
 * - {@link InteractionResolver}: open / answer / resolveElicitation / cancel /
 *   changeSchema / updateMetadata / read.
 * - {@link InteractionStore}: the contract a host implements;
 *   {@link MemoryInteractionStore} is the reference fake database.
 * - {@link StandardSchemaV1} and {@link standardValidate}: any Standard
 *   Schema validator (zod 4 works as is) checks an answer.
 *
 * The conformance kit for a host's store is in `./interactions/testing`. The
 * names this entry point uses from other areas are exported by their own
 * entry points only: the card types (`CardSpec`, `CardResponse`,
 * `ElicitationResult`, …) by `./cards`, `Result` / `Refusal` by the root, and
 * the lock table a store may share (`LockTable`, `LockRequest`, …) by
 * `./recovery`.
 *
 * @module
 */
export {
  type AlreadyExistsRefusal,
  type CancelledRefusal,
  type DeclineNotAllowedRefusal,
  type DuplicateRefusal,
  type EffectiveStatus,
  type ExpiredRefusal,
  type FenceRefusal,
  type FenceStateRefusal,
  type InteractionAuthority,
  type InteractionCaller,
  type InteractionRecordV1,
  type InteractionRefusal,
  type InteractionRefusalCode,
  type InteractionStatus,
  type InteractionStore,
  type InvalidAnswerRefusal,
  type InvalidRequestRefusal,
  type NeedsReconciliationRefusal,
  type NotFoundRefusal,
  type PlainRefusal,
  type RecordChange,
  type SchemaChangedRefusal,
  type SchemaLookup,
  type SchemaRef,
  type StaleRevisionRefusal,
  type StoredSubmission,
  type StoreRead,
  type StoreUnavailableRefusal,
  type SubmissionSource,
  SYSTEM_ACTIONS,
  type SystemAuthority,
  type TransactAction,
  type TransactCallback,
  type TransactCommit,
  type TransactContext,
  type TransactDecision,
  type TransactRequest,
  type UnauthorizedRefusal,
  type UnknownSchemaRefusal,
  type WorkflowTransition,
} from "./src/interactions/types.ts";
export {
  type AnswerInput,
  type AnswerOutcome,
  DEFAULT_MAX_ANSWER_BYTES,
  type ElicitationInput,
  InteractionResolver,
  type InteractionResolverOptions,
  type InteractionView,
  MAX_ANSWER_DEPTH,
  MAX_ID_LENGTH,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE_LENGTH,
  type OpenedInteraction,
  type OpenInteractionInput,
  type ResolvedOutcome,
} from "./src/interactions/resolver.ts";
export {
  AUTHORITY_FIELDS,
  callerMayAct,
  effectiveStatus,
  evaluateFence,
  isSystemCaller,
  nextRecordProblem,
  sameAuthority,
  sameSchema,
} from "./src/interactions/fence.ts";
export {
  type ElicitationValue,
  MAX_ELICITATION_KEYS,
  parseElicitationResult,
} from "./src/interactions/elicitation.ts";
export {
  FakeClock,
  InjectedFaultError,
  MemoryInteractionDatabase,
  MemoryInteractionStore,
  type MemoryInteractionStoreOptions,
  type MemoryInteractionStoreStats,
} from "./src/interactions/memory_store.ts";
export {
  InteractionArgumentError,
  type InteractionArgumentErrorCode,
} from "./src/interactions/errors.ts";
export {
  isStandardSchema,
  MAX_ISSUE_MESSAGE_LENGTH,
  MAX_ISSUE_PATH_LENGTH,
  MAX_VALIDATION_ISSUES,
  type StandardSchemaV1,
  type StandardTypedV1,
  standardValidate,
  type ValidationIssue,
  type ValidationRefusal,
} from "./src/interactions/standard_schema.ts";
